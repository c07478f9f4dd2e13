"""Verbs and queries on places: zones (decks, hands, rows) and the objects in them.

`move` is the one primitive through which objects change place; every other verb here
is built on it, so conservation holds by construction.
"""
from __future__ import annotations

from typing import Any

from ..engine import rng
from ..engine.state import move_object, writable
from ..lang.runtime import Ctx, RuntimeProblem, spend
from ..lang.registry import P, register

MOVE_COST = 3   # work counted for moving one object (it costs about three list items)


def _place(c: Ctx, place: Any) -> list:
    try:
        return c.s["places"][place]
    except (KeyError, TypeError):
        raise RuntimeProblem(f"no place named {place!r}") from None


@register("move", P("obj", "obj"), P("to", "place"), P("bottom", "bool", False))
def move(c: Ctx, obj: str, to: str, bottom: bool) -> None:
    """Moves an object to the top (or bottom) of a place."""
    if obj not in c.s["loc"]:
        raise RuntimeProblem(f"no object named {obj!r}")
    _place(c, to)
    move_object(c.s, obj, to, bottom=bottom)


@register("move_all", P("source", "place"), P("to", "place"), P("bottom", "bool", False))
def move_all(c: Ctx, source: str, to: str, bottom: bool) -> int:
    """Moves everything from one place to another, keeping order; returns how many."""
    objs = list(_place(c, source))
    _place(c, to)
    spend(c, MOVE_COST * len(objs))
    for obj in (reversed(objs) if bottom else objs):
        move_object(c.s, obj, to, bottom=bottom)
    return len(objs)


@register("shuffle", P("place", "place"))
def shuffle(c: Ctx, place: str) -> None:
    """Shuffles a place's objects with the seeded RNG."""
    spend(c, len(_place(c, place)))
    rng.shuffle(c.s, writable(c.s, place))     # a clone may share the list (engine/state.py)


@register("draw", P("source", "place"), P("to", "place"), P("n", "int", 1),
          P("refill_from", "place", None))
def draw(c: Ctx, source: str, to: str, n: int, refill_from: str | None) -> list:
    """Moves up to n objects from the top of `source` to `to`; when `source` runs out and
    `refill_from` is given, that place is shuffled into `source` first. Returns the drawn."""
    got: list[str] = []
    if type(n) is not int:
        raise RuntimeProblem(f"draw(): n must be a number, got {n!r}")
    for _ in range(n):
        spend(c, MOVE_COST)
        src = _place(c, source)
        if not src and refill_from is not None and _place(c, refill_from):
            spend(c, MOVE_COST * len(_place(c, refill_from)))
            for obj in list(_place(c, refill_from)):
                move_object(c.s, obj, source)
            rng.shuffle(c.s, writable(c.s, source))
            src = _place(c, source)
        if not src:
            break
        obj = src[-1]
        move_object(c.s, obj, to)
        got.append(obj)
    return got


@register("contents", P("place", "place"), pure=True)
def contents(c: Ctx, place: str) -> list:
    """Returns the objects in a place, bottom first."""
    return list(_place(c, place))


@register("size", P("place", "place"), pure=True)
def size(c: Ctx, place: str) -> int:
    """Returns how many objects a place holds."""
    return len(_place(c, place))


@register("top", P("place", "place"), pure=True)
def top(c: Ctx, place: str) -> Any:
    """Returns the top object of a place, or none."""
    objs = _place(c, place)
    return objs[-1] if objs else None


@register("bottom_of", P("place", "place"), pure=True)
def bottom_of(c: Ctx, place: str) -> Any:
    """Returns the bottom object of a place, or none."""
    objs = _place(c, place)
    return objs[0] if objs else None


@register("place_of", P("obj", "obj"), pure=True)
def place_of(c: Ctx, obj: str) -> str:
    """Returns where an object is."""
    try:
        return c.s["loc"][obj]
    except KeyError:
        raise RuntimeProblem(f"no object named {obj!r}") from None


@register("zone", P("name", "zone"), P("player", "player"), pure=True)
def zone(c: Ctx, name: str, player: int) -> str:
    """Returns the id of a player's own copy of a per-player zone."""
    zid = f"{name}/{player}"
    if zid not in c.s["places"]:
        raise RuntimeProblem(f"no per-player zone {name!r} for player {player!r}")
    return zid


@register("objects", P("kind", "str", None), pure=True)
def objects(c: Ctx, kind: str | None) -> list:
    """Returns every object id (of one kind), in definition order."""
    return list(c.g.objects_of_kind(kind))


@register("is_object", P("x"), pure=True)
def is_object(c: Ctx, x: Any) -> bool:
    """Returns whether a value is the id of a game object (card, token, piece)."""
    return type(x) is str and x in c.s["loc"]
