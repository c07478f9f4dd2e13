"""Ordering a list by a property of its items.

`sort(items)` orders plain values; a list of objects, spaces, players or records is
ordered here by one of their attributes or properties (a board's printed numbering, a
card's cost, a player's score), so option lists can follow an order the data states
rather than the order the definitions happen to be written in.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from ..lang.runtime import Ctx, RuntimeProblem, get_attr
from ..lang.registry import P, register


@register("sort_by", P("items", "list"), P("prop", "str"), P("descending", "bool", False), pure=True)
def sort_by(c: Ctx, items: list, prop: str, descending: bool) -> list:
    """Returns the items (objects, spaces, players or records) ordered by one property or
    attribute of each, ascending unless `descending`; items with equal values keep their
    order."""
    if type(items) is not list:
        raise RuntimeProblem(f"sort_by() needs a list, got {items!r}")
    keyed = _printed(c, items, prop)
    if keyed is None:
        # an entity with no attribute of its own: its property read at once (what get_attr reads)
        attrs, props = c.s["attrs"], c.g.props
        keyed = [(p[prop], x) if type(x) is str and x not in attrs and (p := props.get(x)) is not None and prop in p
                 else (get_attr(c, x, prop), x) for x in items]
    try:
        keyed.sort(key=_first, reverse=descending)   # stable either way
    except TypeError:
        raise RuntimeProblem(f"sort_by(): the values of {prop!r} cannot be compared "
                             f"({', '.join(sorted({type(k[0]).__name__ for k in keyed}))})") from None
    return [k[1] for k in keyed]


_first = itemgetter(0)


# from this many items, entities with their printed property are read all at once (timed:
# 60 spaces in two thirds of the time of reading each in turn; 3 items in more)
SORT_AT_ONCE = 8


def _printed(c: Ctx, items: list, prop: str) -> list | None:
    """Returns [(value, item)] for a long list of entities, every one with the property and
    none with attributes of its own (so get_attr reads the property): read with no Python
    step an item, as a board's spaces sorted by their printed number are. None for a short
    list, or when some item is not such an entity (a record, a seat, an unknown id): the
    caller reads each in turn."""
    if len(items) < SORT_AT_ONCE:
        return None
    try:
        if not c.s["attrs"].keys().isdisjoint(items):
            return None
        return list(zip(map(itemgetter(prop), itemgetter(*items)(c.g.props)), items))
    except (KeyError, TypeError):       # not an entity, no such property, an unhashable item
        return None
