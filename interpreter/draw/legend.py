"""The picture's legend, drawn from the same hints as the picture: each seat's colour,
each kind of space's colour (by the `fill_by` property's values, else the spaces'
kinds), the pieces' colours the hints name and the icons' words. Nothing here names a
game: a game with no hints gets the seats' colours only."""
from __future__ import annotations

from typing import Any

from .hints import SPACE_FILL, Hints


def _words(key: str) -> str:
    return key.replace("-", " ").replace("_", " ")


def legend(g: Any) -> list[dict]:
    """Returns [{kind: seat|space|piece|icon, key, label, colour?}] in that order."""
    h = Hints(g, {"attrs": {}, "places": {}})
    out = [{"kind": "seat", "key": str(p), "label": g.player_name(p), "colour": h.player(p)}
           for p in range(g.max_players)]
    by = h.picture.get("fill_by")
    seen: set[str] = set()
    for s in g.spaces:
        props = g.props.get(s, {})
        values = props.get(by) if by else None
        keys = (values if isinstance(values, list) else [values]) if values else [props.get("kind")]
        for key in keys:
            if not isinstance(key, str) or key in seen:
                continue
            fill = h.fill_of(key)
            if fill and fill != SPACE_FILL:
                seen.add(key)
                out.append({"kind": "space", "key": key, "label": _words(key), "colour": fill})
    for key, colour in h.picture.get("pieces", {}).items():
        fill = h.fill_of(key) or colour
        out.append({"kind": "piece", "key": key, "label": _words(key), "colour": fill if fill.startswith("#") else None})
    icon_by = h.picture.get("icon_by")
    for key, word in h.picture.get("icons", {}).items():
        out.append({"kind": "icon", "key": key, "label": f"{word}: {_words(key)}" + (f" ({_words(icon_by)})" if icon_by else "")})
    return out


def clashes(g: Any, near: float = 60.0) -> list[tuple[str, str]]:
    """Returns (seat, kind of space) pairs whose colours are within `near` of each other
    (RGB distance): a player's piece on such a space would not be told from it."""
    items = legend(g)
    seats = [i for i in items if i["kind"] == "seat"][:g.max_players]
    spaces = [i for i in items if i["kind"] == "space"]
    return [(a["label"], b["label"]) for a in seats for b in spaces if _distance(a["colour"], b["colour"]) < near]


def _distance(a: str, b: str) -> float:
    from .svg import _rgb
    return sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b))) ** 0.5
