"""The table around the board: each place a labelled row of its objects (the hints'
tables first, each under its name, then the other zones as the terminal orders them:
shared ones, then each seat's, the viewer's first). Rows wrap at the picture's width."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from ..terminal import parts as P
from .board import pieces_of, space_group
from .cards import CHIP_H, Box, chip, hidden_pile, item, items
from .hints import Hints
from .svg import HIGHLIGHT, el, text, width_of, wrap

TITLE_W = 170
GAP = 6


def place_row(h: Hints, v: P.View, place: str) -> list[Box] | None:
    """The boxes of one place's row, or None when the place is not shown (empty, or its
    layout says none)."""
    base = place.partition("/")[0]
    layout = P.zone_layout(v, base)
    content = h.obs["places"][place]
    if layout == "none":
        return None
    if isinstance(content, dict):
        return [hidden_pile(content["count"])] if content["count"] else None
    if not content:
        return None
    if layout == "count":
        return [hidden_pile(len(content), "")]
    if layout == "cards":
        width = P.zone_hint(v, base).get("width", 48)
        return [item(h, o, P.shown(v, base, o), width) for o in content]
    return items(h, content)


def off_board_space(h: Hints, space: str) -> Box:
    """A space that has no position: a labelled box with its pieces as chips."""
    g = el(None, "g")
    sg, marked = space_group(h, g, space)
    name = str(h.g.props.get(space, {}).get("name", space))
    objs = pieces_of(h, space)
    chips = [chip(h, o) for o in objs]
    w = max(width_of(name, 9) + 14, sum(c.w + 4 for c in chips) + 10)
    hgt = 20 + (CHIP_H + 6 if chips else 0)
    el(sg, "rect", x=0, y=0, width=w, height=hgt, rx=3, fill="#eeeeee", stroke=HIGHLIGHT if marked else "#666666",
       stroke_width=3 if marked else 1)
    text(sg, 6, 14, name, size=9, fill="#111111")
    x = 5.0
    for c in chips:
        c.node.set("transform", f"translate({x:.1f},20)")
        sg.append(c.node)
        x += c.w + 4
    return Box(g, w, hgt)


def flow(parent: ET.Element, label: str, boxes: list[Box], y: float, width: float, place: str | None) -> float:
    """Lays a row's boxes left to right after its label, wrapping at the width; returns
    the y below it."""
    row = el(parent, "g", data_place=place) if place else el(parent, "g")
    title_lines = wrap(label, TITLE_W - 8, 10, 6)
    for i, line in enumerate(title_lines):
        text(row, 4, y + 13 + 12 * i, line, size=10, font_weight="bold", fill="#222222")
    x, line_h = float(TITLE_W), 12.0 * len(title_lines) - 4
    for b in boxes:
        if x > TITLE_W and x + b.w > width:
            y += line_h + GAP
            x, line_h = float(TITLE_W), 0.0
        b.node.set("transform", f"translate({x:.1f},{y:.1f})")
        row.append(b.node)
        x += b.w + GAP
        line_h = max(line_h, b.h)
    return y + max(line_h, 16) + GAP


def heading(parent: ET.Element, s: str, y: float) -> float:
    text(parent, 4, y + 15, s, size=13, font_weight="bold", fill="#000000", text_decoration="underline")
    return y + 22


def draw_zones(h: Hints, v: P.View, y: float, width: float, off_board: list[str]) -> tuple[ET.Element, float]:
    """Returns the group of every shown place and the y below it."""
    root = el(None, "g")
    used: set[str] = set()
    if off_board:
        y = flow(root, "spaces", [off_board_space(h, s) for s in off_board], y, width, None)
    for spec in h.terminal.get("tables", ()):
        used.update(spec["rows"])
        rows = [(p, place_row(h, v, p)) for p in P._table_places(v, spec["rows"]) if p in h.obs["places"]]
        rows = [(p, r) for p, r in rows if r]
        if rows:
            y = heading(root, spec["name"], y)
            for place, boxes in rows:
                y = flow(root, P.place_title(v, place).plain, boxes, y, width, place)
    order = [p for p in h.obs["places"] if p not in h.g.adj and p.partition("/")[0] not in used]
    seats = ([v.seat] if v.seat is not None else []) + [p for p in range(v.d["n"]) if p != v.seat]
    shared = [p for p in order if "/" not in p]
    mine = [p for s in seats for p in order if p.endswith(f"/{s}")]
    first = True
    for place in shared + mine:
        boxes = place_row(h, v, place)
        if boxes:
            if first:
                y = heading(root, "Zones", y)
                first = False
            y = flow(root, P.place_title(v, place).plain, boxes, y, width, place)
    return root, y


def header_lines(v: P.View) -> list[tuple[str, Any]]:
    """The game line and a line per player (hidden variables left out), with the player."""
    out: list[tuple[str, Any]] = [(P.game_line(v).items[0].plain, None)]
    for part in P.player_lines(v):
        out.append((part.items[0].plain, int(part.key.split(":")[1])))
    return out
