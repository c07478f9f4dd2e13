"""A seat's screen: the parts of its view, the log since its last decision and the
decision itself, fitted to about 40 rows of 100 columns. After a seat's first screen,
only the parts that changed since its last decision are shown again."""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table
from rich.text import Text

from ..engine.view import observe
from ..lang.runtime import Ctx, text_of
from . import names
from . import parts as P
from .changes import changes
from .focus import cell_words, latest_drawing, mark_drawing
from .keys import Keys, decision_keys, option_space
from .layout import paragraph, side_by_side, split_blocks, styled
from .legend import legend_entries
from .style import MAX_ROWS, plain, to_lines

KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
LOG_LINES = 8          # log lines a short screen shows (the last ones; `l` shows them all)
LOG_ROWS = 12          # and the rows they may take
HELP = ("number (or a space's or card's id): choose · v: whole view · l: log · u: undo · s: save · q: quit · "
        "?: keys and symbols")


def marks(g: Any, d: dict, seat: int | None) -> dict[str, str]:
    """Space -> the key of the option that names it, for the seat deciding now."""
    pending = d["pending"]
    if pending is None or pending["player"] != seat:
        return {}
    out: dict[str, str] = {}
    for i, opt in enumerate(pending["options"]):
        s = option_space(g, d, opt)
        if s is not None and s not in out:
            out[s] = KEYS[i] if i < len(KEYS) else "+"
    return out


def why_not(g: Any, d: dict, seat: int, prompt: str) -> list[str]:
    """The reasons the hints' why_not functions give for options one might expect."""
    out: list[str] = []
    for w in g.terminal.get("why_not", ()):
        if w["prompt"] not in prompt:
            continue
        fn = g.functions[w["function"]]
        params = g.env.functions[w["function"]]
        try:
            said = fn(Ctx(d, g, dict(zip(params, (seat, list(d["pending"]["options"]))))))
        except Exception:  # a failing hint says nothing
            continue
        out.extend([said] if isinstance(said, str) else [text_of(Ctx(d, g, {}), x) for x in said or ()])
    return [x for x in out if x]


def idle_notes(g: Any, d: dict, seat: int, prompt: str) -> dict[int, str]:
    """Option -> a note that it would do nothing, by the hints' `idle` entries: each option
    of a decision whose prompt holds the entry's `prompt` is tried on a copy of the game,
    and when the rules then write a line holding the entry's `says` before the next
    decision, the option gets the entry's `note`. The copy is thrown away: the game and its
    dice are as they were."""
    out: dict[int, str] = {}
    entries = [e for e in g.terminal.get("idle", ()) if e["prompt"] in prompt]
    if not entries:
        return out
    from ..engine.game import GameState
    for i in range(len(d["pending"]["options"])):
        try:
            st = GameState(g, d).clone()
            start = len(st.d["log"])
            st.apply_action(i)
        except Exception:  # a failing try notes nothing
            continue
        said = [text for text, to in st.d["log"][start:] if to is None or to == seat]
        for e in entries:
            if any(e["says"] in line for line in said):
                out[i] = e["note"]
                break
    return out


def decision_part(g: Any, d: dict, seat: int | None, width: int, keys: Keys | None = None) -> P.Part:
    """The prompt, the options numbered (in columns when there are many), the reasons
    for missing ones; or who is deciding, for a seat that is not. With `keys` (the
    terminal's screen): copies named by their set, an option that would do nothing says
    so, and an option whose hex cell shows a letter says which."""
    pending = d["pending"]
    if pending is None:
        return P.Part("decision", [])
    if pending["player"] != seat:
        return P.Part("decision", [Text(f"waiting for {g.player_name(pending['player'])}", style="dim")])
    obs = observe(g, d, seat)
    dec = obs["decision"]
    labels = dec["options"]
    prompt = dec["prompt"]
    notes: dict[int, str] = {}
    if keys is not None:
        labels = [names.unnumbered(g, d, x) for x in labels]
        prompt = names.unnumbered(g, d, prompt)
        notes = idle_notes(g, d, seat, dec["prompt"])
        chars = {i: c for i, c in keys.chars.items() if c != str(i + 1)} if "pos" in d else {}
    else:
        mk = marks(g, d, seat)
        keyed = {i: k for i, k in enumerate(KEYS) if i < len(labels) and k != str(i + 1)}
        chars = {i: keyed[i] for i, opt in enumerate(pending["options"])
                 if i in keyed and option_space(g, d, opt) in mk and "pos" in d}
    items: list[Any] = [Text(f"{g.player_name(seat)}: {prompt}", style="bold")]
    cells = []
    for i, label in enumerate(labels):
        t = Text(f"[{i + 1}] ", style="bold cyan")
        t.append(label)
        if i in notes:
            t.append(f" — {notes[i]}", style="yellow")
        if i in chars:
            t.append(f" (map {chars[i]})", style="dim")
        cells.append(t)
    items.append(_columns(cells, width))
    for reason in why_not(g, d, seat, dec["prompt"]):
        items.append(Text(f"  not offered: {reason}", style="yellow"))
    return P.Part("decision", items, own=True)


def _columns(cells: list[Text], width: int) -> Any:
    """Options one a line when few, long ones wrapped under their text; in columns
    (filled down) when many and short."""
    longest = max((c.cell_len for c in cells), default=0)
    cols = max(1, min(6, width // (longest + 2))) if len(cells) > 10 else 1
    if cols == 1:
        return Text("\n").join(_hanging(c, width) for c in cells)
    rows = math.ceil(len(cells) / cols)
    grid = Table.grid(padding=(0, 2))
    for _ in range(cols):
        grid.add_column(overflow="fold")
    for r in range(rows):
        grid.add_row(*[cells[k * rows + r] if k * rows + r < len(cells) else Text("") for k in range(cols)])
    return grid


def _hanging(cell: Text, width: int) -> Text:
    """An option as lines of at most `width`, the lines after the first indented under
    its text (so the key stands out)."""
    indent = 2 + cell.plain.index("] ") + 2 if "] " in cell.plain else 4
    lines = textwrap.wrap(cell.plain, width - 2, subsequent_indent=" " * (indent - 2),
                          break_long_words=True, break_on_hyphens=False) or [""]
    out = Text("  ", no_wrap=True)
    pos = 0
    for i, line in enumerate(lines):
        if i:
            out.append("\n  ")
        start = cell.plain.index(line.strip(), pos) if line.strip() else pos
        piece = cell[start:start + len(line.strip())]
        out.append(" " * (len(line) - len(line.lstrip())))
        out.append_text(piece)
        pos = start + len(line.strip())
    return out


def _first_lines(entry: str, keep: int = 2) -> str:
    """A log entry of many lines (a card drawn out) shortened to its first lines: what it
    draws is on the screen's own parts, and `l` shows it whole."""
    lines = entry.split("\n")
    if len(lines) <= keep + 1:
        return entry
    return "\n  ".join(lines[:keep]) + f" ... (+{len(lines) - keep} lines)"


def view_parts(g: Any, d: dict, seat: int | None, full: bool = False, keys: Keys | None = None,
               width: int = 100, moved: set | None = None) -> list[P.Part]:
    """Every part of a seat's view, in screen order. With `keys` (the terminal's screen):
    the options' spaces and objects marked with their numbers (a hex cell with its one
    character), copies named by their set, the pieces that `moved` underlined."""
    if keys is None:
        v = P.View(g, d, seat, observe(g, d, seat), marks(g, d, seat), full)
    else:
        one = "pos" in d
        mk = {sp: (keys.chars[i] if one else str(i + 1)) for sp, i in keys.spaces.items()}
        v = P.View(g, d, seat, observe(g, d, seat), mk, full, width=width, keys=keys, moved=moved or set(),
                   screen=True)
    out = [P.game_line(v)] + P.player_lines(v)
    board = P.board_part(v)
    if board is not None:
        out.append(board)
    tables, used = P.table_parts(v)
    out += tables + P.zone_parts(v, used)
    return out


def focus_part(g: Any, d: dict, seat: int | None, width: int) -> P.Part | None:
    """The private drawing the seat's decision is about (focus.py), its candidates marked
    with their numbers, its cards side by side; None when there is none."""
    pending = d["pending"]
    if pending is None or pending["player"] != seat:
        return None
    text = latest_drawing(d, seat)
    if text is None:
        return None
    labels = [names.unnumbered(g, d, x) for x in observe(g, d, seat)["decision"]["options"]]
    objs = [names.name(g, d, o) for o in pending["options"] if isinstance(o, str) and o in d["loc"]]
    starts = {line.strip() for line in text.split("\n")}
    if objs and not all(any(x.startswith(n) for x in starts) for n in objs):
        return None      # the options are things the drawing does not show: their zone shows them
    lines, _ = mark_drawing(g, d, names.unnumbered(g, d, text), labels, pending["options"])
    blocks = [lines[a:b] for a, b in split_blocks(text.split("\n"))]
    head = [styled(line) for line in blocks.pop(0)] if len(blocks) > 1 and len(blocks[0]) == 1 else []
    return P.Part("focus", head + side_by_side(blocks, width), own=True)


@dataclass
class Screens:
    """The screens of one seat: remembers what it was shown at its last decision."""

    g: Any
    seat: int | None
    width: int
    colour: bool
    rows: int = MAX_ROWS
    seen: dict[str, str] = field(default_factory=dict)     # part key -> plain text last shown
    last: dict | None = None                                # the seat's observation at its last screen
    explained: set[str] = field(default_factory=set)        # legend entries shown already
    keys: Keys = field(default_factory=Keys)                # the marks and words of the decision shown
    legend: list[str] = field(default_factory=list)         # the symbols of the screen shown
    d: dict | None = None                                   # the state of the screen shown

    def render(self, parts: list[P.Part]) -> list[str]:
        return to_lines([x for p in parts for x in p.items], self.width, self.colour)

    def _plain(self, part: P.Part) -> str:
        if not part.plain:
            part.plain = "\n".join(plain(part.items, self.width))
        return part.plain

    def _keys(self, d: dict) -> Keys:
        """The decision's keys, a hex map's letters unlike any glyph the map shows, and the
        cells the options' labels name as words too."""
        taken: set[str] = set()
        if "pos" in d:
            board = next((p for p in view_parts(self.g, d, self.seat, keys=Keys(), width=self.width)
                          if p.key == "board"), None)
            taken = set(self._plain(board)) if board is not None else set()
        keys = decision_keys(self.g, d, self.seat, taken)
        if d["pending"] is not None and d["pending"]["player"] == self.seat:
            labels = observe(self.g, d, self.seat)["decision"]["options"]
            for w, i in cell_words(labels).items():
                keys.words.setdefault(w, i)
        return keys

    def whole(self, d: dict) -> list[str]:
        """The whole view and the decision, however long (shown by the `v` key)."""
        self.keys = self._keys(d)
        parts = view_parts(self.g, d, self.seat, full=True, keys=self.keys, width=self.width)
        self._remember(parts)
        focus = focus_part(self.g, d, self.seat, self.width)
        return self.render(parts + ([focus] if focus else [])
                           + [decision_part(self.g, d, self.seat, self.width, self.keys)])

    def _remember(self, parts: list[P.Part]) -> None:
        for p in parts:
            self.seen[p.key] = self._plain(p)

    def screen(self, d: dict, log: list[str]) -> list[str]:
        """The screen for a decision: the game line, what changed since the seat's last
        decision (moves, cards, scores), the log since then, the board and the drawing the
        decision is about with its candidates marked (always), the other parts changed
        since then (all of them the first time), the symbols not yet explained, the
        decision; cut to fit the rows, with a note of what was left out."""
        first = not self.seen
        self.d = d
        obs = observe(self.g, d, self.seat)
        self.keys = self._keys(d)
        moved: set[str] = set()
        said: list[str] = []
        if self.last is not None:
            v = P.View(self.g, d, self.seat, obs)
            said, moved = changes(self.g, d, self.last, obs, v)
        self.last = obs
        parts = view_parts(self.g, d, self.seat, keys=self.keys, width=self.width, moved=moved)
        head, rest = parts[0], parts[1:]
        changed = [p for p in rest if self.seen.get(p.key) != self._plain(p)]
        gone = [k for k in self.seen if k not in {p.key for p in parts}]
        self._remember(parts)
        for k in gone:
            del self.seen[k]
        deciding = d["pending"] is not None and d["pending"]["player"] == self.seat
        focus = focus_part(self.g, d, self.seat, self.width)
        marked = [p for p in rest if p.key == "board" or deciding and _has_mark(p)]
        must = ([focus] if focus else []) + ([p for p in marked if p.key == "board"] if deciding or first else [])
        if focus is None:
            must += [p for p in marked if p.key != "board"]
        decision = decision_part(self.g, d, self.seat, self.width, self.keys)
        logpart = self._log(log, focus is not None)
        news = self._changes(said)
        legend = self._legend(d, rest + ([focus] if focus else []), must)
        room = self.rows - 1 - self._rows([head, decision, news, legend])
        must = [self._cut(p, room - sum(self._rows([q]) for q in must[:i])) for i, p in enumerate(must)]
        if focus is not None:
            focus = must[0]
        budget = room - self._rows(must)
        if self._rows([logpart]) > budget:
            logpart = self._log(log[-2:], True) if budget >= 3 else P.Part("log", [])
        budget -= self._rows([logpart])
        held = {p.key: p for p in must}
        pool = [p for p in (changed if not first else rest) if p.key not in held]
        keep, left = self._fit(pool, budget)
        held.update((p.key, p) for p in keep)
        order = [held[p.key] for p in rest if p.key in held]
        out = [head, news] + ([logpart] if logpart.items else []) + order + ([focus] if focus else [])
        if left:
            out.append(P.Part("note", [Text(f"({left} more part{'s' if left != 1 else ''} changed: "
                                            "v shows the whole view)", style="dim")]))
        return self.render([p for p in out if p.items] + [legend, decision])

    def _cut(self, part: P.Part, rows: int) -> P.Part:
        """A part the decision is about, taller than the rows left: its first rows, then a
        line saying how many more the whole view (v) shows."""
        lines = to_lines(part.items, self.width, self.colour)
        if len(lines) <= rows:
            return part
        keep = max(1, rows - 1)
        items = [Text.from_ansi(x) for x in lines[:keep]]
        items.append(Text(f"  ... {len(lines) - keep} more lines: v shows them", style="dim"))
        return P.Part(part.key, items, part.own, look=part.look)

    def _changes(self, said: list[str]) -> P.Part:
        """Since the seat's last decision: at most 3 lines of moves, cards and scores."""
        if not said:
            return P.Part("changes", [])
        return P.Part("changes", [paragraph("since your last decision: ", "; ".join(said), self.width, limit=3)])

    def _legend(self, d: dict, parts: list[P.Part], must: list[P.Part]) -> P.Part:
        """The meaning of the symbols on this screen that the seat has not been told yet
        (all of them again with ?)."""
        board = next((p for p in parts if p.key == "board"), None)
        drawings = "\n".join(self._plain(p) for p in parts if p.key == "focus" or p.key.startswith("zone:")
                             or p.key == "board")
        entries = legend_entries(self.g, board.look if board is not None else None, drawings,
                                 bool(self.keys.spaces or self.keys.objects) or "[1]" in drawings)
        self.legend = entries
        new = [e for e in entries if e not in self.explained]
        self.explained.update(new)
        if not new:
            return P.Part("legend", [])
        return P.Part("legend", [paragraph("key: ", " · ".join(new), self.width, style="dim")])

    def _log(self, log: list[str], drawn: bool = False) -> P.Part:
        if not log:
            return P.Part("log", [])
        log = [names.unnumbered(self.g, self.d, x) for x in log] if self.d is not None else log
        keep = 1 if drawn else 2
        shown = log[-LOG_LINES:]
        while len(shown) > 1 and sum(len(_first_lines(x, keep).split("\n")) + len(x) // self.width
                                     for x in shown) > LOG_ROWS:
            shown = shown[1:]
        items: list[Any] = []
        if len(log) > len(shown):
            k = len(log) - len(shown)
            items.append(Text(f"  ... {k} earlier line{'s' if k != 1 else ''}: l shows the log", style="dim"))
        items += [Text(f"  {_first_lines(line, keep)}", style="italic") for line in shown]
        return P.Part("log", items)

    def _rows(self, parts: list[P.Part]) -> int:
        return sum(len(plain(p.items, self.width)) for p in parts if p.items)

    def _fit(self, parts: list[P.Part], budget: int) -> tuple[list[P.Part], int]:
        """Keeps parts in screen order, own ones first in claim, while they fit."""
        sizes = {id(p): len(self._plain(p).split("\n")) for p in parts}
        chosen: set[int] = set()
        used = 0
        for p in sorted(parts, key=lambda p: (p.key != "board", not p.own)):
            if used + sizes[id(p)] <= budget - 1:
                chosen.add(id(p))
                used += sizes[id(p)]
        keep = [p for p in parts if id(p) in chosen]
        return keep, len(parts) - len(keep)


def _has_mark(part: P.Part) -> bool:
    """Whether a part shows an option's number ([n]) or a marked space."""
    look = part.look
    return bool(look is not None and look.marks) or "[" in part.plain and any(
        f"[{n}]" in part.plain for n in range(1, 100))
