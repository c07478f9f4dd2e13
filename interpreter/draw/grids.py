"""Cards that carry a grid of cells in their data (a sheet to write on), drawn as that
grid: cells by row and column, coloured by the group they belong to, the links between
them, printed numbers circled, written ones in ink, then the card's notes (its tasks) ticked
when done. Which properties hold what is a `picture: grids:` hint per kind or def."""
from __future__ import annotations

from typing import Any

from .box import Box, frame
from .hints import Hints
from .svg import css, el, lighten, text, wrap

CELL = 24          # a cell's side
GAP = 7            # between cells
INK = "#1a3d8f"    # written numbers
LEFT, TOP = 22, 36


def grid_spec(h: Hints, obj: str) -> dict | None:
    """The grid hint for an object (by id, def or kind), or None."""
    grids = h.picture.get("grids", {})
    props = h.g.props.get(obj, {})
    for key in (obj, props.get("def"), props.get("kind")):
        if isinstance(key, str) and key in grids:
            spec = grids[key]
            return spec if isinstance(props.get(spec["cells"]), dict) else None
    return None


def _value(h: Hints, obj: str, name: str | None) -> Any:
    """An attribute (as the seat sees it) else a property of the object."""
    if not name:
        return None
    attrs = h.obs["attrs"].get(obj, {})
    return attrs[name] if name in attrs else h.g.props.get(obj, {}).get(name)


def _centre(cell: dict) -> tuple[float, float]:
    return LEFT + cell["col"] * (CELL + GAP) + CELL / 2, TOP + cell["row"] * (CELL + GAP) + CELL / 2


def grid_card(h: Hints, obj: str, spec: dict) -> Box:
    """The card with its grid, values and notes."""
    props = h.g.props.get(obj, {})
    cells: dict = props[spec["cells"]]
    rows = 1 + max(int(c["row"]) for c in cells.values())
    cols = 1 + max(int(c["col"]) for c in cells.values())
    w = max(240.0, LEFT + cols * (CELL + GAP) + 4)
    notes = _notes(h, obj, spec, w - 12)
    blurb = wrap(str(props.get("text", "")), w - 12, 8.5, 60) if props.get("text") else []
    top_notes = TOP + rows * (CELL + GAP) + 4
    hgt = top_notes + 10 * (len(blurb) + len(notes)) + 8
    tip = str(props.get("name", obj)) + (f": {props['text']}" if props.get("text") else "")
    g = frame(h, obj, w, hgt, "#fbf8ef", tip)
    text(g, 6, 15, str(props.get("name", obj)), size=11, font_weight="bold", fill="#111111")
    for c in range(cols):
        text(g, LEFT + c * (CELL + GAP) + CELL / 2, TOP - 5, str(c + 1), size=8, text_anchor="middle", fill="#777777")
    for r in range(rows):
        text(g, 8, TOP + r * (CELL + GAP) + CELL / 2 + 3, "ABCDEFGHIJ"[r % 10], size=8, text_anchor="middle",
             fill="#777777")
    _links(g, cells, _value(h, obj, spec.get("links")) or [], spec)
    _cells(h, obj, g, cells, spec)
    y = top_notes
    for line in blurb + notes:
        y += 10
        text(g, 6, y, line, size=8.5, fill="#222222")
    return Box(g, w, hgt)


def _links(g: Any, cells: dict, links: list, spec: dict) -> None:
    """A link between two cells: a line across the gap between them (cells of one group
    joined by a wide band in the cells' drawing)."""
    for pair in links:
        if isinstance(pair, list) and len(pair) == 2 and pair[0] in cells and pair[1] in cells:
            (x1, y1), (x2, y2) = _centre(cells[pair[0]]), _centre(cells[pair[1]])
            el(g, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#6b5b3e", stroke_width=2)


def _group_colour(h: Hints, groups: dict, group: Any) -> str:
    info = groups.get(group) if isinstance(groups, dict) else None
    colour = info.get("colour") if isinstance(info, dict) else None
    return h.fill_of(colour) or css(colour) or "#ffffff"


def _cells(h: Hints, obj: str, g: Any, cells: dict, spec: dict) -> None:
    groups = _value(h, obj, spec.get("groups")) or {}
    written = _value(h, obj, spec.get("written")) or {}
    printed = _value(h, obj, spec.get("printed")) or {}
    flagged = set(_value(h, obj, spec.get("flagged")) or [])
    gfield = spec.get("group")
    for cid in sorted(cells, key=lambda c: (cells[c]["row"], cells[c]["col"])):
        cell = cells[cid]
        x, y = _centre(cell)
        group = cell.get(gfield) if gfield else None
        fill = _group_colour(h, groups, group)
        el(g, "rect", x=x - CELL / 2, y=y - CELL / 2, width=CELL, height=CELL, rx=3,
           fill=lighten(fill, 0.35) if fill != "#ffffff" else fill, stroke="#555555", stroke_width=0.8)
        if gfield and group not in (None, "none"):
            _bands(g, cells, cell, gfield, group, lighten(fill, 0.35))
        info = groups.get(group) if isinstance(groups, dict) else None
        label = info.get(spec.get("group_label", ""), "") if isinstance(info, dict) else ""
        if label:
            text(g, x - CELL / 2 + 2, y - CELL / 2 + 7, str(label), size=6, fill="#333333")
        if group in flagged:
            text(g, x + CELL / 2 - 2, y - CELL / 2 + 8, "W", size=7, text_anchor="end", fill="#c62828",
                 font_weight="bold")
        if printed.get(cid):
            el(g, "circle", cx=x, cy=y + 1, r=8.5, fill="#ffffff", stroke="#333333", stroke_width=1)
            text(g, x, y + 5, str(printed[cid]), size=11, text_anchor="middle", font_weight="bold", fill="#111111")
        elif cid in written:
            text(g, x, y + 6, str(written[cid]), size=15, text_anchor="middle", font_weight="bold", fill=INK)


def _bands(g: Any, cells: dict, cell: dict, gfield: str, group: Any, fill: str) -> None:
    """Joins a cell to its right and lower neighbours of the same group by a band across
    the gap (a large pattern reads as one piece)."""
    x, y = _centre(cell)
    for other in cells.values():
        if other.get(gfield) != group:
            continue
        if (other["row"], other["col"]) == (cell["row"], cell["col"] + 1):
            el(g, "rect", x=x + CELL / 2 - 1, y=y - CELL / 2 + 4, width=GAP + 2, height=CELL - 8, fill=fill)
        elif (other["row"], other["col"]) == (cell["row"] + 1, cell["col"]):
            el(g, "rect", x=x - CELL / 2 + 4, y=y + CELL / 2 - 1, width=CELL - 8, height=GAP + 2, fill=fill)


def _notes(h: Hints, obj: str, spec: dict, width: float) -> list[str]:
    """The card's notes (e.g. its tasks), each ticked when its index is in the done list."""
    notes = _value(h, obj, spec.get("notes")) or []
    done = set(_value(h, obj, spec.get("done")) or [])
    field = spec.get("note_field")
    out: list[str] = []
    for i, note in enumerate(notes if isinstance(notes, list) else []):
        said = note.get(field, "") if isinstance(note, dict) and field else note
        out += wrap(f"[{'x' if i in done else ' '}] {said}", width, 8.5, 60)
    return out
