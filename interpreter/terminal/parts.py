"""The parts a screen is made of, each built from one seat's observation only: the game
line, a line per player, the board, tables of card rows, the zones. Each part has a key,
so a later screen can show just the parts that changed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.table import Table
from rich.text import Text

from ..engine.view import _grouped, _obj
from ..lang.runtime import Ctx, text_of
from .board import Look, draw_board


@dataclass
class Part:
    """A piece of a screen: renderables under a key; `own` parts (the seat's own things
    and the board) are kept first when a screen must be cut short."""

    key: str
    items: list[Any]
    own: bool = False
    plain: str = ""


@dataclass
class View:
    """One seat's view of one state: what the parts are built from."""

    g: Any
    d: dict
    seat: int | None
    obs: dict
    marks: dict[str, str] = field(default_factory=dict)
    full: bool = False            # the whole view: other seats' zones in full too

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
        t.append(f"  {v.var_name(k)}: {_value(v, val)}")
    return Part("game", [t])


def player_lines(v: View) -> list[Part]:
    out = []
    for p in range(v.d["n"]):
        t = v.who(p)
        pv = [(k, val) for k, val in v.obs["player_vars"][p].items() if not v.hidden(k)]
        if not pv:
            continue
        t.append("  " + "; ".join(f"{v.var_name(k)}: {_value(v, val)}" for k, val in pv))
        out.append(Part(f"player:{p}", [t], own=p == v.seat))
    return out


def _value(v: View, val: Any) -> str:
    if isinstance(val, bool):
        return "yes" if val else "no"
    if val is None or val == "" or val == []:
        return "-"
    if isinstance(val, dict) and val and all(type(x) is int for x in val.values()):
        # a record of counts: the ones held, so a line of zeros reads as "none"
        held = [f"{k} {x}" for k, x in val.items() if x]
        return ", ".join(held) or "none"
    return text_of(v.c, val)


def board_part(v: View) -> Part | None:
    lines = draw_board(Look(v.g, v.obs, v.marks), v.d.get("pos"))
    if not lines:
        return None
    legend = v.g.legend
    if legend:
        lines.append(Text("  " + legend, style="dim"))
    return Part("board", lines, own=True)


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
            title.append(": " + ", ".join(text_of(v.c, o) for o in content))
        return Part(f"zone:{place}", [title], own=False)
    if layout == "cards":
        return Part(f"zone:{place}", [title, card_blocks(v, base, content)], own=mine)
    title.append(": ")
    title.append(_grouped(v.c, content))
    return Part(f"zone:{place}", [title], own=mine)


def card_blocks(v: View, zone: str, objs: list[str]) -> Table:
    """Each object's show text as a block, blocks side by side as many as fit."""
    width = zone_hint(v, zone).get("width", 48)
    per_row = max(1, 100 // (width + 1))
    grid = Table.grid(padding=(0, 1))
    for _ in range(min(per_row, len(objs))):
        grid.add_column(width=width, max_width=width, overflow="fold")
    blocks = [Text(shown(v, zone, o)) for o in objs]
    for i in range(0, len(blocks), per_row):
        grid.add_row(*blocks[i:i + per_row])
    return grid


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
                     else [Text(_obj(v.c, o)) for o in content])
            rows.append((place_title(v, place), cells))
        if not rows:
            continue
        table = Table(title=spec["name"], title_justify="left", title_style="bold underline", show_header=False,
                      box=None, padding=(0, 1), expand=False)
        table.add_column(no_wrap=True)
        for _ in range(max(len(c) for _, c in rows)):
            table.add_column(overflow="fold")
        for title, cells in rows:
            table.add_row(title, *cells)
        out.append(Part(f"table:{i}", [table], own=True))
    return out, used
