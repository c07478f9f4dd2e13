"""Boards drawn from the data: spaces placed by their `at` with the edges as paths
(`spots`), the assembled hex map by each cell's position (`hexes`), square cells by `at`
(`grid`). Every space is a group carrying data-space; the pieces on it are groups carrying
data-object; a space or piece an option names carries data-option and a highlight."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from .hints import Hints
from .svg import HIGHLIGHT, el, fit, ink, text, title

PAD = 12


def board_layout(h: Hints, pos: dict | None) -> str | None:
    """The layout to draw: hexes whenever the map is assembled in play, else the hints'."""
    if pos:
        return "hexes"
    layout = h.terminal.get("board", {}).get("layout")
    if layout in ("spots", "grid") and any("at" in h.g.props.get(s, {}) for s in h.g.spaces):
        return layout
    return None


def draw_board(h: Hints, pos: dict | None) -> tuple[ET.Element, float, float, set[str]]:
    """Returns the board group, its width and height, and the spaces it drew."""
    layout = board_layout(h, pos)
    if layout == "hexes":
        return hexes(h, pos or {})
    if layout == "spots":
        return spots(h)
    if layout == "grid":
        return grid(h)
    return el(None, "g"), 0, 0, set()


def _mark(h: Hints, node: ET.Element, key: str, marks: dict[str, int]) -> bool:
    if key in marks:
        node.set("data-option", str(marks[key]))
        return True
    return False


def space_group(h: Hints, parent: ET.Element, space: str) -> tuple[ET.Element, bool]:
    """A space's group, with its id, tooltip and (when an option names it) data-option."""
    g = el(parent, "g", data_space=space)
    title(g, h.tip(space))
    return g, _mark(h, g, space, h.marks)


def pieces_of(h: Hints, space: str) -> list[str]:
    content = h.obs["places"].get(space, [])
    return content if isinstance(content, list) else []


def piece(h: Hints, parent: ET.Element, obj: str, x: float, y: float, r: float) -> None:
    """A piece as a disc with its glyph, in its colour (data-object, and data-option and
    a ring when an option names it)."""
    g = el(parent, "g", data_object=obj)
    title(g, h.tip(obj))
    marked = _mark(h, g, obj, h.object_marks)
    fill = h.piece_fill(obj)
    el(g, "circle", cx=x, cy=y, r=r, fill=fill, stroke=HIGHLIGHT if marked else "#222222",
       stroke_width=3 if marked else 1)
    text(g, x, y + r * 0.38, h.glyph(obj)[:2], size=r * 1.05, text_anchor="middle", font_weight="bold",
         fill=ink(fill))
    if marked:
        option_badge(g, x + r, y - r, h.object_marks[obj])


def option_badge(parent: ET.Element, x: float, y: float, index: int) -> None:
    """The option's number (as the terminal counts them, from 1) beside what it names."""
    el(parent, "circle", cx=x, cy=y, r=7, fill=HIGHLIGHT)
    text(parent, x, y + 3.5, str(index + 1), size=9, text_anchor="middle", fill="#ffffff", font_weight="bold")


def _at(h: Hints) -> dict[str, tuple[float, float]]:
    return {s: tuple(h.g.props[s]["at"]) for s in h.g.spaces if "at" in h.g.props.get(s, {})}


def spots(h: Hints) -> tuple[ET.Element, float, float, set[str]]:
    """Each space a disc at its `at` (times the size), its label inside, its name under it
    when the label is not its id; the edges as paths; pieces around the disc."""
    unit = h.size(30)
    sx, sy = h.picture.get("scale", [1, 1])
    at = _at(h)
    x0, y0 = min(x for x, _ in at.values()), min(y for _, y in at.values())
    r = unit * 0.47
    cen = {s: (PAD + r + 4 + (x - x0) * unit * sx, PAD + r + 4 + (y - y0) * unit * sy) for s, (x, y) in at.items()}
    root = el(None, "g")
    paths = el(root, "g", stroke="#8a6d3b", stroke_width=max(2, unit * 0.12), stroke_linecap="round")
    for a, b in h.g.edge_list:
        if a in cen and b in cen:
            el(paths, "line", x1=cen[a][0], y1=cen[a][1], x2=cen[b][0], y2=cen[b][1], data_edge=f"{a} {b}")
    for s, (x, y) in cen.items():
        g, marked = space_group(h, root, s)
        fill = h.space_fills(s)[0]
        el(g, "circle", cx=x, cy=y, r=r, fill=fill, stroke=HIGHLIGHT if marked else "#333333",
           stroke_width=4 if marked else 1.2)
        label = h.label(s)
        size = min(unit * 0.4, 2 * r * 0.9 / max(1, len(label) * 0.62))
        text(g, x, y + size * 0.36, label, size=size, text_anchor="middle", font_weight="bold", fill=ink(fill))
        for i, obj in enumerate(pieces_of(h, s)):
            ang = math.radians(-45 + 90 * i)
            piece(h, g, obj, x + math.cos(ang) * r * 1.2, y + math.sin(ang) * r * 1.2, r * 0.56)
        if marked:
            option_badge(g, x - r * 0.8, y - r * 0.8, h.marks[s])
    captions = el(root, "g")
    for s, (x, y) in cen.items():
        name = str(h.g.props.get(s, {}).get("name", s))
        if h.label(s) != s and name != s:
            _caption(captions, name, x, y, r, unit, cen)
    w = max(x for x, _ in cen.values()) + r + PAD + unit * 1.5
    hgt = max(y for _, y in cen.values()) + r + PAD + unit * 0.4
    return root, w, hgt, set(cen)


def _caption(parent: ET.Element, name: str, x: float, y: float, r: float, unit: float,
             cen: dict[str, tuple[float, float]]) -> None:
    """A space's name under its disc (above it when another disc is close below), on a
    light ground so paths do not hide it."""
    size = unit * 0.3
    below = any(0 < oy - y < unit * 1.6 and abs(ox - x) < unit * 1.6 for ox, oy in cen.values())
    ty = y - r - size * 0.4 if below else y + r + size * 1.05
    w = len(name) * size * 0.6
    el(parent, "rect", x=x - w / 2 - 2, y=ty - size, width=w + 4, height=size * 1.3, rx=2, fill="#ffffff",
       fill_opacity=0.85)
    text(parent, x, ty, name, size=size, text_anchor="middle", fill="#222222")


def hex_corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """A pointy-top hexagon's corners, clockwise from the top."""
    return [(x + size * math.cos(math.radians(a)), y + size * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


def _poly(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{round(px, 1)},{round(py, 1)}" for px, py in points)


def hexes(h: Hints, pos: dict) -> tuple[ET.Element, float, float, set[str]]:
    """The assembled map: a pointy-top hex per cell at its axial (q, r), filled by its
    fill_by values (two: two halves), its icon on top, its id below, pieces in the middle."""
    size = h.size(22)
    wq = math.sqrt(3) * size
    xy = {s: (wq * (q + r / 2), 1.5 * size * r) for s, (q, r) in pos.items()}
    x0, y0 = min(x for x, _ in xy.values()), min(y for _, y in xy.values())
    cen = {s: (PAD + wq / 2 + x - x0, PAD + size + y - y0) for s, (x, y) in xy.items()}
    root = el(None, "g")
    for s in sorted(cen, key=lambda s: (cen[s][1], cen[s][0])):
        x, y = cen[s]
        g, marked = space_group(h, root, s)
        corners = hex_corners(x, y, size * 0.98)
        fills = h.space_fills(s)
        el(g, "polygon", points=_poly(corners), fill=fills[0], stroke="#555555", stroke_width=0.8)
        if len(fills) > 1:   # the right half in the second colour
            el(g, "polygon", points=_poly(corners[:4]), fill=fills[1], stroke="none")
        if marked:
            el(g, "polygon", points=_poly(hex_corners(x, y, size * 0.88)), fill="none", stroke=HIGHLIGHT,
               stroke_width=3.5)
        icon = h.icon(s)
        if icon:
            text(g, x, y - size * 0.45, fit(icon, wq * 0.8, size * 0.34), size=size * 0.34, text_anchor="middle",
                 font_weight="bold", fill=ink(fills[0]))
        text(g, x, y + size * 0.72, s, size=size * 0.3, text_anchor="middle", fill=ink(fills[0]))
        objs = pieces_of(h, s)
        for i, obj in enumerate(objs):
            off = (i - (len(objs) - 1) / 2) * size * 0.5
            piece(h, g, obj, x + off, y + size * 0.08, size * 0.33)
        if marked:
            option_badge(g, x - size * 0.55, y - size * 0.35, h.marks[s])
    w = max(x for x, _ in cen.values()) + wq / 2 + PAD
    hgt = max(y for _, y in cen.values()) + size + PAD
    return root, w, hgt, set(cen)


def grid(h: Hints) -> tuple[ET.Element, float, float, set[str]]:
    """Square cells by `at`; a piece as a disc; an offered empty cell shows its number."""
    size = h.size(44)
    at = _at(h)
    x0, y0 = min(x for x, _ in at.values()), min(y for _, y in at.values())
    root = el(None, "g")
    cells = {}
    for s, (ax, ay) in at.items():
        x, y = PAD + (ax - x0) * size, PAD + (ay - y0) * size
        cells[s] = (x, y)
        g, marked = space_group(h, root, s)
        el(g, "rect", x=x, y=y, width=size, height=size, fill=h.space_fills(s)[0], stroke="#444444",
           stroke_width=1)
        text(g, x + 3, y + size * 0.22, h.label(s), size=size * 0.18, fill="#666666")
        for obj in pieces_of(h, s)[-1:]:
            piece(h, g, obj, x + size / 2, y + size / 2 + size * 0.05, size * 0.36)
        if marked:
            el(g, "rect", x=x + 3, y=y + 3, width=size - 6, height=size - 6, fill="none", stroke=HIGHLIGHT,
               stroke_width=3)
            option_badge(g, x + size / 2, y + size / 2 + size * 0.05, h.marks[s])
    w = max(x for x, _ in cells.values()) + size + PAD
    hgt = max(y for _, y in cells.values()) + size + PAD
    return root, w, hgt, set(cells)
