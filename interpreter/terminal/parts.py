"""The parts a screen is made of, each built from one seat's observation only: the game
line, a line per player, the board, tables of card rows, the zones. Each part has a key,
so a later screen can show just the parts that changed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ..engine.view import _grouped, _obj
from ..lang.runtime import Ctx, text_of
from . import names
from .board import Look, draw_board
from .layout import side_by_side, styled


@dataclass
class Part:
    """A piece of a screen: renderables under a key; `own` parts (the seat's own things
    and the board) are kept first when a screen must be cut short."""

    key: str
    items: list[Any]
    own: bool = False
    plain: str = ""
    look: Any = None              # the board's: what its glyphs stand for (the legend's)


@dataclass
class View:
    """One seat's view of one state: what the parts are built from."""

    g: Any
    d: dict
    seat: int | None
    obs: dict
    marks: dict[str, str] = field(default_factory=dict)
    full: bool = False            # the whole view: other seats' zones in full too
    width: int = 100
    keys: Any = None              # the decision's marks (keys.Keys): objects shown with their option number
    moved: set = field(default_factory=set)    # pieces moved since the seat's last screen
    screen: bool = False          # for the terminal's screen: copies by their set's name, lines cut to the width

    def mark(self, obj: str) -> str:
        """"[n] " before an object an option names (n: the option's number), else ""."""
        i = self.keys.objects.get(obj) if self.keys is not None else None
        return "" if i is None else f"[{i + 1}] "

    def name(self, obj: str) -> str:
        """An object as a zone lists it: its option's mark, then its name."""
        return self.mark(obj) + (names.name(self.g, self.d, obj) if self.screen else _obj(self.c, obj))

    @property
    def hints(self) -> dict:
        return self.g.terminal

    @property
    def c(self) -> Ctx:
        return Ctx(self.d, self.g, {})

    def hidden(self, var: str) -> bool:
        return var in self.g.internal_vars or var in self.hints.get("hide", ())

    def var_name(self, var: str) -> str:
        return self.hints.get("names", {}).get(var, var.replace("_", " "))

    def player_style(self, p: int) -> str:
        cols = self.hints.get("colours", {}).get("players", [])
        return f"bold {cols[p]}" if p < len(cols) else "bold"

    def who(self, p: int) -> Text:
        t = Text(self.g.player_name(p), style=self.player_style(p))
        if p == self.seat:
            t.append(" (you)", style="bold")
        return t


def game_line(v: View) -> Part:
    d = v.d
    t = Text(f"{v.g.name}", style="bold")
    t.append("  game over" if d["terminal"] else f"  turn {d['turns']}" if d["turns"] else "  setup")
    shown = [(k, val) for k, val in v.obs["game_vars"].items() if not v.hidden(k)]
    for k, val in shown:
        t.append(f"  {v.var_name(k)}: {_value(v, val, k)}")
    return Part("game", [t])


def player_lines(v: View) -> list[Part]:
    out = []
    for p in range(v.d["n"]):
        t = v.who(p)
        pv = [(k, val) for k, val in v.obs["player_vars"][p].items() if not v.hidden(k)]
        if not pv:
            continue
        t.append("  " + "; ".join(f"{v.var_name(k)}: {_value(v, val, k)}" for k, val in pv))
        out.append(Part(f"player:{p}", [t], own=p == v.seat))
    return out


def _value(v: View, val: Any, var: str = "") -> str:
    if isinstance(val, dict) and v.screen and var in v.hints.get("key_names", {}):
        val = {_key_name(v, var, k): x for k, x in val.items()}
    if isinstance(val, bool):
        return "yes" if val else "no"
    if val is None or val == "" or val == []:
        return "-"
    if isinstance(val, dict) and val and all(type(x) is int for x in val.values()):
        # a record of counts: the ones held, so a line of zeros reads as "none"
        held = [f"{k} {x}" for k, x in val.items() if x]
        return ", ".join(held) or "none"
    return text_of(v.c, val)


def _key_name(v: View, var: str, key: str) -> str:
    """A record's key as the hints' key_names function names it (a game's skills by their
    colour, as its prompts and cards name them), else the key itself."""
    fname = v.hints["key_names"][var]
    fn, (param,) = v.g.functions[fname], v.g.env.functions[fname]
    try:
        return text_of(v.c, fn(Ctx(v.d, v.g, {param: key})))
    except Exception:  # a failing hint leaves the key as it is
        return key


def board_part(v: View) -> Part | None:
    pm = {o: str(i + 1) for o, i in v.keys.objects.items()} if v.keys is not None else {}
    look = Look(v.g, v.obs, v.marks, moved=v.moved, piece_marks=pm)
    lines = draw_board(look, v.d.get("pos"))
    if not lines:
        return None
    legend = v.g.legend
    if legend and not v.screen:
        lines.append(Text("  " + legend, style="dim"))
    return Part("board", lines, own=True, look=look)


def zone_hint(v: View, zone: str) -> dict:
    return v.hints.get("zones", {}).get(zone, {})


def zone_layout(v: View, zone: str) -> str:
    z, h = v.g.zones.get(zone, {}), zone_hint(v, zone)
    if "layout" in h:
        return h["layout"]
    if z.get("display") in ("count", "none"):
        return z["display"]
    return "cards" if z.get("show") or h.get("show") else "list"


def place_title(v: View, place: str) -> Text:
    base, _, owner = place.partition("/")
    name = zone_hint(v, base).get("name", base.replace("-", " "))
    if not owner:
        return Text(name, style="bold")
    t = Text(f"{name} of ", style="bold")
    t.append(v.who(int(owner)))
    return t


def zone_parts(v: View, skip: set[str]) -> list[Part]:
    """A part per place not drawn elsewhere: shared zones, then each seat's own zones
    (the viewer's first)."""
    order = [p for p in v.obs["places"] if p not in v.g.adj and p.partition("/")[0] not in skip]
    seats = [v.seat] if v.seat is not None else []
    seats += [p for p in range(v.d["n"]) if p not in seats]
    shared = [p for p in order if "/" not in p]
    mine = [p for s in seats for p in order if p.endswith(f"/{s}")]
    out = []
    for place in shared + mine:
        part = _zone_part(v, place)
        if part is not None:
            out.append(part)
    return out


def _zone_part(v: View, place: str) -> Part | None:
    base, _, owner = place.partition("/")
    layout = zone_layout(v, base)
    content = v.obs["places"][place]
    mine = owner != "" and v.seat is not None and int(owner) == v.seat
    if layout == "none" or not content or isinstance(content, dict) and not content["count"]:
        return None
    title = place_title(v, place)
    if isinstance(content, dict) or layout == "count":
        n = content["count"] if isinstance(content, dict) else len(content)
        title.append(f": {n}" + (" hidden" if isinstance(content, dict) else ""))
        return Part(f"zone:{place}", [title], own=mine)
    others = zone_hint(v, base).get("others", "full")
    if owner and not mine and not v.full and others != "full":
        if others == "count":
            title.append(f": {len(content)}")
        else:
            title.append(": " + ", ".join(v.name(o) if v.screen else text_of(v.c, o) for o in content))
        return Part(f"zone:{place}", [title], own=False)
    if layout == "cards":
        return Part(f"zone:{place}", [title, *card_blocks(v, base, content)], own=mine)
    title.append(": ")
    title.append(_listed(v, content))
    return Part(f"zone:{place}", [title], own=mine)


def _listed(v: View, objs: list[str]) -> Text:
    """A zone's objects in a line: on the screen each by its name, an option's number
    before it (reversed), identical copies in a row counted ("Goat [brown, 1] x2")."""
    if not v.screen:
        return Text(_grouped(v.c, objs))
    shown: list[list] = []
    for o in objs:
        n = v.name(o)
        if shown and shown[-1][0] == n and not v.mark(o):
            shown[-1][1] += 1
        else:
            shown.append([n, 1])
    return styled(", ".join(n if k == 1 else f"{n} x{k}" for n, k in shown))


def card_blocks(v: View, zone: str, objs: list[str]) -> list[Text]:
    """Each object's show text as a block, blocks side by side as many as fit, each line
    kept within its column (layout.py); an option's number before the block's title."""
    width = zone_hint(v, zone).get("width", 48)
    blocks = [(v.mark(o) + shown(v, zone, o)).split("\n") for o in objs]
    return side_by_side(blocks, v.width, min(width, v.width))


def shown(v: View, zone: str, obj: str) -> str:
    """An object's text by its zone's show function (the name when it has none or fails)."""
    name = zone_hint(v, zone).get("show") or v.g.zones.get(zone, {}).get("show")
    if not name:
        return _obj(v.c, obj)
    fn, (param,) = v.g.functions[name], v.g.env.functions[name]
    try:
        return str(fn(Ctx(v.d, v.g, {param: obj})))
    except Exception as err:  # a broken show function must not break the screen
        return f"{text_of(v.c, obj)} (show failed: {err})"


def _table_places(v: View, zones: list[str]) -> list[str]:
    """The places of a table's rows: shared zones first, then each seat's zones together
    (the viewer's first)."""
    shared = [z for z in zones if not v.g.zones[z].get("per_player")]
    seats = ([v.seat] if v.seat is not None else []) + [p for p in range(v.d["n"]) if p != v.seat]
    return shared + [f"{z}/{p}" for p in seats for z in zones if v.g.zones[z].get("per_player")]


def _table_lines(v: View, rows: list[tuple[Text, list[Text]]]) -> list[Text]:
    """A table's rows as lines within the width: the titles in a column, the cells in
    columns as wide as their widest; a row with more cells than fit goes on in lines under
    it, so no cell is ever wrapped into its neighbour."""
    left = max(t.cell_len for t, _ in rows) + 2
    cols = max(len(c) for _, c in rows)
    wide = [max((c[k].cell_len for _, c in rows if k < len(c)), default=0) for k in range(cols)]
    room = v.width - left
    out = []
    for title, cells in rows:
        line = Text(" ").append_text(title).append(" " * (left - 1 - title.cell_len))
        used = 0
        for k, cell in enumerate(cells):
            w = min(wide[k], room)
            if used and used + w > room:
                out.append(line)
                line, used = Text(" " * left), 0
            cell = cell.copy()
            cell.truncate(room)
            line.append_text(cell).append(" " * (w - cell.cell_len + 2))
            used += w + 2
        line.rstrip()
        out.append(line)
    return out


def table_parts(v: View) -> tuple[list[Part], set[str]]:
    """The hints' tables of card rows: a row per zone (a per-player zone: a row per seat),
    its objects side by side; returns the parts and the zones they draw."""
    out, used = [], set()
    for i, spec in enumerate(v.hints.get("tables", ())):
        rows = []
        used.update(spec["rows"])
        for place in _table_places(v, spec["rows"]):
            content = v.obs["places"].get(place)
            if not content or isinstance(content, dict) and not content["count"]:
                continue
            cells = ([Text(f"{content['count']} hidden", style="dim")] if isinstance(content, dict)
                     else [styled(v.name(o)) for o in content])
            rows.append((place_title(v, place), cells))
        if not rows:
            continue
        out.append(Part(f"table:{i}", [Text(spec["name"], style="bold underline"), *_table_lines(v, rows)], own=True))
    return out, used
