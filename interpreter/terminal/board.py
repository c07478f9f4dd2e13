"""Boards drawn in text, generically, from the data: spaces placed by their `at`
coordinates with the edges as paths (`spots`), the assembled hex map a glyph a cell
(`hexes`), or cells of a fixed width (`grid`). terminal.yaml's `board` hints choose the
layout and its scale; pieces show by their glyph in their owner's colour, and the spaces
the pending decision offers are marked with the option's key."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ..engine.view import cell_glyph, hex_cells

PATH_CHARS = set("-|/\\")
COLOUR_NAMES = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}


@dataclass
class Canvas:
    """A grid of characters, each with its own style, turned into rich Text lines."""

    width: int
    height: int
    ch: list[list[str]] = field(default_factory=list)
    st: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ch = [[" "] * self.width for _ in range(self.height)]
        self.st = [[""] * self.width for _ in range(self.height)]

    def free(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height and self.ch[y][x] in PATH_CHARS | {" "}

    def put(self, x: int, y: int, s: str, style: str = "") -> None:
        for i, c in enumerate(s):
            if 0 <= x + i < self.width and 0 <= y < self.height:
                self.ch[y][x + i], self.st[y][x + i] = c, style

    def lines(self, indent: int = 0) -> list[Text]:
        out = []
        for row, styles in zip(self.ch, self.st):
            t = Text(" " * indent, no_wrap=True, overflow="crop")
            for c, s in zip("".join(row).rstrip(), styles):
                t.append(c, style=s)
            out.append(t)
        while out and not out[-1].plain.strip():
            out.pop()
        return out


@dataclass
class Look:
    """What the board drawing needs to know besides the positions: hints, the seat's
    observation (places it may see), and the option keys to mark on spaces."""

    g: Any
    obs: dict
    marks: dict[str, str] = field(default_factory=dict)    # space -> option key
    drawn: dict[str, str] = field(default_factory=dict)    # glyph or label drawn -> what it stands for
    moved: set[str] = field(default_factory=set)           # pieces moved since the seat's last screen
    piece_marks: dict[str, str] = field(default_factory=dict)  # piece -> the option number that names it

    @property
    def hints(self) -> dict:
        return self.g.terminal

    def colour(self, key: Any) -> str:
        return self.hints.get("colours", {}).get("kinds", {}).get(str(key), "")

    def player_colour(self, p: Any) -> str:
        cols = self.hints.get("colours", {}).get("players", [])
        return cols[p] if type(p) is int and 0 <= p < len(cols) else ""

    def pieces(self, space: str) -> list[str]:
        content = self.obs["places"].get(space, [])
        return content if isinstance(content, list) else []

    def glyph(self, obj: str) -> str:
        """A piece's mark: its glyph attribute or prop, else the hints' glyph for its id,
        definition or kind, else the first letter of its name."""
        attrs, props = self.obs["attrs"].get(obj, {}), self.g.props.get(obj, {})
        glyphs = self.hints.get("glyphs", {})
        for g in (attrs.get("glyph"), props.get("glyph"), glyphs.get(obj), glyphs.get(str(props.get("def"))),
                  glyphs.get(str(props.get("kind")))):
            if g:
                return str(g)
        return str(props.get("name", obj))[:1]

    def piece_style(self, obj: str) -> str:
        """A piece's colour: its own `colour` (attribute or prop) when that is a colour name,
        else its owner's seat colour, else its definition's or kind's."""
        attrs, props = self.obs["attrs"].get(obj, {}), self.g.props.get(obj, {})
        own = attrs.get("colour", props.get("colour"))
        if own not in COLOUR_NAMES:
            owner = attrs.get("owner", props.get("owner"))
            own = self.player_colour(owner) or self.colour(props.get("def")) or self.colour(props.get("kind"))
        return f"bold {own}".strip()

    def moved_style(self, obj: str) -> str:
        """A piece's style, underlined when it moved since the seat last looked."""
        return self.piece_style(obj) + (" underline" if obj in self.moved else "")

    def top_piece(self, space: str) -> str | None:
        objs = self.pieces(space)
        return objs[-1] if objs else None


def draw_board(look: Look, pos: dict | None) -> list[Text]:
    """Returns the board as text lines, by the layout the hints name (hexes whenever the
    map is assembled in play; a list of occupied spaces when there are no hints)."""
    layout = look.hints.get("board", {}).get("layout")
    if pos:
        return hexes(look, pos)
    if layout == "spots":
        return spots(look)
    if layout == "grid":
        return grid(look)
    return occupied_list(look)


def _coords(look: Look) -> dict[str, tuple[int, int]]:
    return {s: tuple(look.g.props[s]["at"]) for s in look.g.spaces if "at" in look.g.props.get(s, {})}


def spots(look: Look) -> list[Text]:
    """Each space's label (its id, or the hints' label) placed by `at` times the scale,
    edges drawn between them as paths; a piece's glyph right after the label it stands on
    (else before it, below or above it; a piece with no room is listed under the map); an
    offered space shows the option's number in place of its label, reversed, so it reads
    without colour too."""
    board = look.hints.get("board", {})
    sx, sy = board.get("scale", [2, 1])
    at = _coords(look)
    if not at:
        return occupied_list(look)
    x0, y0 = min(x for x, _ in at.values()), min(y for _, y in at.values())
    labels = {s: board.get("labels", {}).get(s, s) for s in at}
    cell = _place_labels({s: (round((x - x0) * sx), round((y - y0) * sy)) for s, (x, y) in at.items()}, labels)
    width = max(c + len(labels[s]) for s, (c, _) in cell.items()) + 3
    canvas = Canvas(width, max(r for _, r in cell.values()) + 3)
    if board.get("paths", True):
        for a, b in look.g.edge_list:
            if a in cell and b in cell:
                _path(canvas, cell[a], len(labels[a]), cell[b], len(labels[b]))
    for s, (c, r) in cell.items():
        text, style = labels[s], look.colour(look.g.props[s].get("kind"))
        if s in look.marks:
            text, style = look.marks[s].ljust(len(text)), "reverse bold"
        canvas.put(c, r, text, style)
        look.drawn.setdefault(text.strip() if s in look.marks else labels[s], s if s not in look.marks else "")
    homeless = []
    for s, (c, r) in cell.items():
        for obj in reversed(look.pieces(s)):
            mark, style = look.glyph(obj), look.moved_style(obj)
            look.drawn.setdefault(mark, obj)
            if obj in look.piece_marks:
                mark, style = f"[{look.piece_marks[obj]}]", "reverse bold"
            spot = _room(canvas, c, r, len(labels[s]), len(mark))
            if spot is None:
                homeless.append(f"{mark} on {labels[s]}")
            else:
                canvas.put(spot[0], spot[1], mark, style)
    lines = canvas.lines(indent=1)
    if homeless:
        lines.append(Text(" also: " + ", ".join(homeless), style="dim"))
    return lines


def _room(canvas: Canvas, c: int, r: int, n: int, m: int) -> tuple[int, int] | None:
    """Where a glyph m wide goes beside a label n wide at (c, r): right after it, else right
    before it, else under or over it; on free cells (blank or path) with a free cell on
    the far side, so a glyph never runs into another label."""
    def ok(x: int, y: int, sides: tuple[int, ...]) -> bool:
        return x >= 0 and all(canvas.free(x + i, y) for i in range(m)) \
            and all(canvas.free(sx, y) or not 0 <= sx < canvas.width for sx in sides)
    for x, y, sides in ((c + n, r, (c + n + m,)), (c - m, r, (c - m - 1,)),
                        (c, r + 1, (c - 1, c + m)), (c, r - 1, (c - 1, c + m))):
        if ok(x, y, sides):
            return x, y
    return None


NUDGES = [(0, 0), (1, 0), (0, -1), (0, 1), (-1, 0), (2, 0), (1, -1), (1, 1), (-1, -1), (-1, 1), (-2, 0)]


def _place_labels(cell: dict[str, tuple[int, int]], labels: dict[str, str]) -> dict[str, tuple[int, int]]:
    """Moves a label that would touch one placed before it (spaces closer than the scale
    allows) to the nearest free place around, so every id stays readable."""
    taken: set[tuple[int, int]] = set()
    out = {}
    for s, (c, r) in sorted(cell.items(), key=lambda kv: (kv[1][1], kv[1][0])):
        n = len(labels[s])
        for dc, dr in NUDGES:
            span = {(c + dc + i, r + dr) for i in range(-1, n + 1)}
            if c + dc >= 0 and r + dr >= 0 and not span & taken:
                break
        else:
            dc, dr = 0, 0
        out[s] = (c + dc, r + dr)
        taken.update((c + dc + i, r + dr) for i in range(n))
    return out


def _path(canvas: Canvas, a: tuple[int, int], la: int, b: tuple[int, int], lb: int) -> None:
    """Draws an edge between two labels as a line of - | / \\ (by its slope) on free cells."""
    (ax, ay), (bx, by) = a, b
    ax, bx = ax + (la - 1) / 2, bx + (lb - 1) / 2
    steps = 2 * int(max(abs(bx - ax), abs(by - ay)) + 1)
    cells: list[tuple[int, int]] = []
    for i in range(steps + 1):
        c = (round(ax + (bx - ax) * i / steps), round(ay + (by - ay) * i / steps))
        if not cells or cells[-1] != c:
            cells.append(c)
    dx, dy = bx - ax, by - ay
    char = "-" if abs(dx) >= 2.5 * abs(dy) else "|" if abs(dy) >= 2 * abs(dx) else ("\\" if dx * dy > 0 else "/")
    for x, y in cells[1:-1]:
        if canvas.free(x, y) and canvas.ch[y][x] == " ":
            canvas.put(x, y, char, "dim")


def hexes(look: Look, pos: dict) -> list[Text]:
    """The assembled hex map (engine/view.py places the cells and picks their glyphs), in
    colour; an offered cell shows the option's key instead, reversed."""
    cells, width, height = hex_cells(pos)
    canvas = Canvas(width, height)
    for (x, r), space in cells.items():
        glyph, style = _cell_glyph(look, space)
        look.drawn.setdefault(glyph, cell_glyph(look.g, look.obs, space)[1] or "")
        if space in look.marks:
            glyph, style = look.marks[space][:1], "reverse bold"
        canvas.put(x, r, glyph, style)
    return canvas.lines(indent=2)


def _cell_glyph(look: Look, space: str) -> tuple[str, str]:
    glyph, obj = cell_glyph(look.g, look.obs, space)
    if obj is not None:
        return glyph, look.moved_style(obj)
    return glyph, look.colour(glyph.lower()) or look.colour(look.g.props.get(space, {}).get("kind"))


def grid(look: Look) -> list[Text]:
    """Cells of a fixed width placed by `at`: a piece's glyph, the option's key on an
    offered cell, else the empty mark."""
    board = look.hints.get("board", {})
    w, empty = board.get("cell", 3), board.get("empty", ".")
    at = _coords(look)
    x0, y0 = min(x for x, _ in at.values()), min(y for _, y in at.values())
    canvas = Canvas((max(x for x, _ in at.values()) - x0 + 1) * w, max(y for _, y in at.values()) - y0 + 1)
    for s, (x, y) in at.items():
        obj = look.top_piece(s)
        if obj is not None:
            mark, style = look.glyph(obj), look.piece_style(obj)
            look.drawn.setdefault(mark, obj)
        elif s in look.marks:
            mark, style = look.marks[s], "bold underline"
        else:
            mark, style = empty, "dim"
        canvas.put((x - x0) * w + (w - len(mark)) // 2, y - y0, mark, style)
    return canvas.lines(indent=2)


def occupied_list(look: Look) -> list[Text]:
    """No layout: the occupied spaces, one a line."""
    out = []
    for s in look.g.spaces:
        objs = look.pieces(s)
        if objs:
            out.append(Text(f"  {look.g.props.get(s, {}).get('name', s)}: "
                            + ", ".join(str(look.g.props.get(o, {}).get("name", o)) for o in objs)))
    return out
