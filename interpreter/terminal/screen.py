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
from . import parts as P
from .style import MAX_ROWS, plain, to_lines

KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
LOG_LINES = 8          # log lines a short screen shows (the last ones; `l` shows them all)
LOG_ROWS = 12          # and the rows they may take
HELP = "number: choose · v: whole view · l: log · u: undo · s: save · q: quit · ?: keys"


def option_space(g: Any, d: dict, option: Any) -> str | None:
    """The board space an option names: by the hints' option_space function, else the
    option itself when it is a space, else the last space in a list (a route's end)."""
    name = g.terminal.get("option_space")
    if name:
        fn, (param,) = g.functions[name], g.env.functions[name]
        try:
            option = fn(Ctx(d, g, {param: option}))
        except Exception:  # a failing hint marks nothing
            return None
    def is_space(x: Any) -> bool:
        return isinstance(x, str) and (x in g.adj or x in d.get("pos", {}))
    if isinstance(option, list):
        return next((x for x in reversed(option) if is_space(x)), None)
    return option if is_space(option) else None


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


def decision_part(g: Any, d: dict, seat: int | None, width: int) -> P.Part:
    """The prompt, the options numbered (in columns when there are many), the reasons
    for missing ones; or who is deciding, for a seat that is not."""
    pending = d["pending"]
    if pending is None:
        return P.Part("decision", [])
    if pending["player"] != seat:
        return P.Part("decision", [Text(f"waiting for {g.player_name(pending['player'])}", style="dim")])
    obs = observe(g, d, seat)
    dec = obs["decision"]
    labels = dec["options"]
    mk = marks(g, d, seat)
    keyed = {i: k for i, k in enumerate(KEYS) if i < len(labels) and k != str(i + 1)}
    shown_keys = {opt_i for opt_i, opt in enumerate(pending["options"]) if option_space(g, d, opt) in mk}
    items: list[Any] = [Text(f"{g.player_name(seat)}: {dec['prompt']}", style="bold")]
    cells = []
    for i, label in enumerate(labels):
        t = Text(f"[{i + 1}] ", style="bold cyan")
        t.append(label)
        if i in keyed and i in shown_keys and "pos" in d:
            t.append(f" (map {keyed[i]})", style="dim")
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


def view_parts(g: Any, d: dict, seat: int | None, full: bool = False) -> list[P.Part]:
    """Every part of a seat's view, in screen order."""
    v = P.View(g, d, seat, observe(g, d, seat), marks(g, d, seat), full)
    out = [P.game_line(v)] + P.player_lines(v)
    board = P.board_part(v)
    if board is not None:
        out.append(board)
    tables, used = P.table_parts(v)
    out += tables + P.zone_parts(v, used)
    return out


@dataclass
class Screens:
    """The screens of one seat: remembers what it was shown at its last decision."""

    g: Any
    seat: int | None
    width: int
    colour: bool
    rows: int = MAX_ROWS
    seen: dict[str, str] = field(default_factory=dict)     # part key -> plain text last shown

    def render(self, parts: list[P.Part]) -> list[str]:
        return to_lines([x for p in parts for x in p.items], self.width, self.colour)

    def _plain(self, part: P.Part) -> str:
        if not part.plain:
            part.plain = "\n".join(plain(part.items, self.width))
        return part.plain

    def whole(self, d: dict) -> list[str]:
        """The whole view and the decision, however long (shown by the `v` key)."""
        parts = view_parts(self.g, d, self.seat, full=True)
        self._remember(parts)
        return self.render(parts + [decision_part(self.g, d, self.seat, self.width)])

    def _remember(self, parts: list[P.Part]) -> None:
        for p in parts:
            self.seen[p.key] = self._plain(p)

    def screen(self, d: dict, log: list[str]) -> list[str]:
        """The screen for a decision: the game line, the log since the last decision, the
        parts changed since then (all of them the first time), the decision; cut to fit
        the rows, own parts first, with a note of what was left out."""
        first = not self.seen
        parts = view_parts(self.g, d, self.seat)
        head, rest = parts[0], parts[1:]
        changed = [p for p in rest if self.seen.get(p.key) != self._plain(p)]
        gone = [k for k in self.seen if k not in {p.key for p in parts}]
        self._remember(parts)
        for k in gone:
            del self.seen[k]
        decision = decision_part(self.g, d, self.seat, self.width)
        logpart = self._log(log)
        budget = self.rows - 1 - self._rows([head, decision, logpart])
        keep, left = self._fit(changed if not first else rest, budget)
        out = [head] + ([logpart] if logpart.items else []) + keep
        if left:
            out.append(P.Part("note", [Text(f"({left} more part{'s' if left != 1 else ''} changed: "
                                            "v shows the whole view)", style="dim")]))
        elif not first and not changed:
            out.append(P.Part("note", [Text("(nothing else changed; v shows the whole view)", style="dim")]))
        return self.render(out + [decision])

    def _log(self, log: list[str]) -> P.Part:
        if not log:
            return P.Part("log", [])
        shown = log[-LOG_LINES:]
        while len(shown) > 1 and sum(len(_first_lines(x).split("\n")) + len(x) // self.width for x in shown) > LOG_ROWS:
            shown = shown[1:]
        items: list[Any] = []
        if len(log) > len(shown):
            k = len(log) - len(shown)
            items.append(Text(f"  ... {k} earlier line{'s' if k != 1 else ''}: l shows the log", style="dim"))
        items += [Text(f"  {_first_lines(line)}", style="italic") for line in shown]
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
