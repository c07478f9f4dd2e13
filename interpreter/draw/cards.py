"""Cards, tiles and tokens off the board, drawn from their data: a card as a box with its
name, its numbers and its printed text (or, where its zone has a show function, the text
that function draws, in a fixed-width font); any other object as a chip with its glyph and
name; a hidden pile as a face-down box with its size. Each object carries data-object."""
from __future__ import annotations

from typing import Any

from .box import Box, frame
from .grids import grid_card, grid_spec
from .hints import PIECE_FILL, Hints
from .svg import MONO, el, ink, lighten, text, width_of, wrap

LINE = 11        # a card text line's height
WHOLE = 60       # lines a card's text may take: a card is as tall as its text, never cut
CHIP_H = 20


def numbers(h: Hints, obj: str) -> list[str]:
    """A card's numbers: the hints' fields (else every whole-number property), then its
    visible whole-number attributes; a 0 is left out (most cards print nothing there)."""
    props, attrs = h.g.props.get(obj, {}), h.obs["attrs"].get(obj, {})
    fields = h.card().get("fields")
    keys = fields if fields is not None else [k for k, v in props.items() if type(v) is int and v != 0]
    out = [f"{k.replace('_', ' ')} {props[k]}" for k in keys if type(props.get(k)) in (int, float, str)
           and props.get(k) not in ("", "none", 0)]
    out += [f"{k.replace('_', ' ')} {v}" for k, v in attrs.items() if type(v) is int and k not in keys
            and k != "owner"]
    return out


def card(h: Hints, obj: str) -> Box:
    """A card from its data: name (two lines at most), numbers, printed text."""
    spec = h.card()
    w = float(spec.get("width", 150))
    props = h.g.props.get(obj, {})
    name = wrap(str(props.get("name", obj)), w - 12, 10, WHOLE)
    said = numbers(h, obj)
    nums = wrap(" · ".join(said), w - 10, 9, WHOLE) if said else []
    body = wrap(str(props.get(spec.get("text", "text"), "")), w - 10, 8.5, int(spec.get("lines", WHOLE))) \
        if props.get(spec.get("text", "text")) else []
    hgt = 8 + 12 * len(name) + LINE * len(nums) + (LINE - 1) * len(body) + 6
    base = h.piece_fill(obj)
    fill = lighten(base, 0.7) if base != PIECE_FILL else "#f7f3e8"
    g = frame(h, obj, w, hgt, fill, h.tip(obj))
    y = 16.0
    for line in name:
        text(g, 6, y, line, size=10, font_weight="bold", fill="#111111")
        y += 12
    for line in nums:
        text(g, 6, y, line, size=9, fill="#7a2e00")
        y += LINE
    for line in body:
        text(g, 6, y, line, size=8.5, fill="#222222")
        y += LINE - 1
    return Box(g, w, hgt)


def shown_card(h: Hints, obj: str, shown: str, width: int) -> Box:
    """A card as its show function draws it in text, in a fixed-width font."""
    import textwrap
    lines: list[str] = []
    for raw in shown.splitlines() or [""]:
        lines += textwrap.wrap(raw, width, replace_whitespace=False, drop_whitespace=False) or [""]
    size = 9.5
    w = max(width_of(x, size, mono=True) for x in lines) + 14
    hgt = len(lines) * (size + 2.5) + 10
    g = frame(h, obj, w, hgt, "#fbf8ef", h.tip(obj))
    t = el(g, "text", x=7, y=0, font_family=MONO, font_size=size, fill="#111111")
    for i, line in enumerate(lines):
        span = el(t, "tspan", x=7, y=8 + size + i * (size + 2.5))
        span.text = line.replace(" ", "\u00a0")
    return Box(g, w, hgt)


def chip(h: Hints, obj: str, label: str | None = None) -> Box:
    """A token or other small object: a pill with its glyph in its colour and its name
    (or the label given)."""
    name = label or str(h.g.props.get(obj, {}).get("name", obj))
    w = 26 + width_of(name, 9)
    g = frame(h, obj, w, CHIP_H, "#ffffff", h.tip(obj) if label is None else name)
    fill = h.piece_fill(obj)
    el(g, "circle", cx=10, cy=CHIP_H / 2, r=7, fill=fill, stroke="#222222", stroke_width=0.8)
    text(g, 10, CHIP_H / 2 + 3.2, h.glyph(obj)[:2], size=8.5, text_anchor="middle", fill=ink(fill),
         font_weight="bold")
    text(g, 21, CHIP_H / 2 + 3.2, name, size=9, fill="#111111")
    return Box(g, w, CHIP_H)


def group_chip(h: Hints, objs: list[str], name: str) -> Box:
    """A run of like objects (same set name, nothing on them) as one chip with the count;
    data-object is the first, data-objects all of them."""
    box = chip(h, objs[0], f"{name} ×{len(objs)}")
    box.node.set("data-objects", " ".join(objs))
    return box


def runs(h: Hints, objs: list[str]) -> list[list[str]]:
    """The objects in runs of three or more like tokens (same set name, no printed text,
    no attributes, no option naming them), others alone."""
    out: list[list[str]] = []
    for o in objs:
        name = h.g.props.get(o, {}).get("set_name")
        alone = not name or h.obs["attrs"].get(o) or o in h.object_marks or is_card(h, o)
        last = out[-1] if out else None
        if not alone and last and h.g.props.get(last[0], {}).get("set_name") == name \
                and not h.obs["attrs"].get(last[0]) and last[0] not in h.object_marks:
            last.append(o)
        else:
            out.append([o])
    return [r for run in out for r in ([run] if len(run) >= 3 else [[x] for x in run])]


def hidden_pile(count: int, what: str = "hidden") -> Box:
    """A pile of which only the size shows: face down (dark) when hidden, else light."""
    g = el(None, "g")
    label = f"{count} {what}".strip()
    w = max(60.0, width_of(label, 9) + 16)
    fill = "#5b6770" if what == "hidden" else "#8d99a3"
    el(g, "rect", x=0, y=0, width=w, height=CHIP_H + 8, rx=5, fill=fill, stroke="#333333")
    text(g, w / 2, CHIP_H / 2 + 7, label, size=9, text_anchor="middle", fill="#ffffff")
    return Box(g, w, CHIP_H + 8)


def is_card(h: Hints, obj: str) -> bool:
    """Whether an object reads as a card: it has printed text (the hints' text property)."""
    return bool(h.g.props.get(obj, {}).get(h.card().get("text", "text")))


def items(h: Hints, objs: list[str]) -> list[Box]:
    """The boxes of a zone's objects: cards, chips, and runs of like tokens as one chip."""
    out = []
    for run in runs(h, objs):
        if len(run) > 1:
            out.append(group_chip(h, run, str(h.g.props[run[0]]["set_name"])))
        else:
            out.append(item(h, run[0]))
    return out


def item(h: Hints, obj: str, shown: Any = None, width: int = 48) -> Box:
    """The box an object is drawn as: by its grid hint, its zone's show text, as a card or
    as a chip."""
    spec = grid_spec(h, obj)
    if spec is not None:
        return grid_card(h, obj, spec)
    if shown is not None:
        return shown_card(h, obj, shown, width)
    return card(h, obj) if is_card(h, obj) else chip(h, obj)
