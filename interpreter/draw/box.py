"""What every drawn object off the board is: a box of known size, framed as the object's
group with its tooltip and, where an option names the object, its highlight. Apart from
cards.py so that the kinds of card (grids.py) and the chooser between them (cards.item)
both build on it without needing each other."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from .hints import Hints
from .svg import HIGHLIGHT, el, text, title


@dataclass
class Box:
    """A drawn item of a row: its group (placed at 0, 0) and its size."""

    node: ET.Element
    w: float
    h: float


def frame(h: Hints, obj: str | None, w: float, hgt: float, fill: str, tip: str = "") -> ET.Element:
    """An object's group, its tooltip first, and its rectangle (highlighted when an option
    names it)."""
    g = el(None, "g", data_object=obj) if obj else el(None, "g")
    if tip:
        title(g, tip)
    marked = obj is not None and obj in h.object_marks
    if marked:
        g.set("data-option", str(h.object_marks[obj]))
    el(g, "rect", x=0, y=0, width=w, height=hgt, rx=5, fill=fill, stroke=HIGHLIGHT if marked else "#444444",
       stroke_width=3.5 if marked else 1)
    if marked:
        el(g, "circle", cx=w - 8, cy=8, r=7, fill=HIGHLIGHT)
        text(g, w - 8, 11.5, str(h.object_marks[obj] + 1), size=9, text_anchor="middle", fill="#ffffff",
             font_weight="bold")
    return g
