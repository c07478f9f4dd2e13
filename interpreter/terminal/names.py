"""How objects are named on the screen. Copies of one card are numbered by the loader
("Goat [brown, 1] 2") so that each has an id; the number says nothing to a player, so the
screen names a copy by its set's name, in zones, option labels and log lines alike. A
copy on a board space keeps its number: two tokens of one seat must be told apart."""
from __future__ import annotations

import re
from typing import Any

_CACHE: dict[int, tuple[Any, re.Pattern | None, dict[str, str]]] = {}


def _copies(g: Any) -> tuple[re.Pattern | None, dict[str, str]]:
    """A pattern matching every copy's numbered name, and the copy each name is."""
    hit = _CACHE.get(id(g))
    if hit is None or hit[0] is not g:
        by_name = {str(p["name"]): obj for obj, p in g.props.items() if "set_name" in p and "name" in p}
        names = sorted(by_name, key=len, reverse=True)
        pattern = re.compile("|".join(re.escape(n) for n in names) + r"(?![0-9])") if names else None
        hit = _CACHE[id(g)] = (g, pattern, by_name)
    return hit[1], hit[2]


def on_board(g: Any, d: dict, obj: str) -> bool:
    where = d["loc"].get(obj)
    return where is not None and (where in g.adj or where in d.get("pos", {}))


def name(g: Any, d: dict, obj: str) -> str:
    """An object's name as the screen shows it (a copy off the board: its set's name)."""
    props = g.props.get(obj, {})
    if "set_name" in props and not on_board(g, d, obj):
        return str(props["set_name"])
    return str(props.get("name", obj))


def unnumbered(g: Any, d: dict, text: str) -> str:
    """A text (a label, a log line) with each copy off the board named by its set."""
    pattern, by_name = _copies(g)
    if pattern is None or not text:
        return text
    return pattern.sub(lambda m: name(g, d, by_name[m.group()]), text)
