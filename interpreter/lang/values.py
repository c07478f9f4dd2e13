"""Which values a game state may hold: what saves exactly as JSON and loads back the same.

Only JSON types with text keys, nested at most MAX_VALUE_DEPTH deep, at most
MAX_VALUE_ITEMS items as written out. Checked where rules put values into the state and
where play waits for a decision (everything waiting is saved with the state)."""
from __future__ import annotations

from typing import Any

_ATOMS = {str, int, bool, float, type(None)}   # floats: only the engine makes them (returns)

MAX_VALUE_ITEMS = 100_000   # a saved value holds at most this many items, counted as JSON writes them
MAX_VALUE_DEPTH = 32        # ... nested at most this deep
# The parts of a state that grow with play have limits of their own, the same where the
# engine writes them (the log verb, vm.resume) and where a saved state is read
# (checkstate), so every state the engine makes can be saved and read back.
MAX_LOG_LINES = 100_000     # a game's log holds at most this many lines (the engine's last one included)
MAX_ACTIONS = 100_000       # a game ends (aborted) at this many decisions
MAX_MODIFIERS = 10_000      # modify() keeps at most this many modifiers in force at once
_CACHE_LIMIT = 20_000


class Unsaveable(Exception):
    """A value that cannot be saved exactly (its reason is the message)."""


def unsaveable(values: list, cache: dict, depth: int = 0) -> str | None:
    """Returns why some of these values cannot be saved exactly (None when all can): only
    JSON types with text keys, at most MAX_VALUE_DEPTH deep and MAX_VALUE_ITEMS items as
    written out (a list holding one list twice counts it twice). Rule values never change
    once built, so containers already measured are remembered in `cache` (by identity,
    holding them so the identity stays theirs); never pass a container that changes (a
    frame's locals): pass its values. `depth` levels above the values are allowed too (a
    whole state holds its values that much deeper)."""
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    atoms = _ATOMS.issuperset
    try:
        for v in values:
            t = type(v)
            if t is list:
                # A flat list (most are) is sound as built: lists never grow past MAX_SEQUENCE.
                if not atoms(map(type, v)) or depth:
                    _measure(v, 1 - depth, cache)
            elif t is dict:
                _measure(v, 1 - depth, cache)
            elif t not in _ATOMS:
                return f"a value that cannot be saved: {v!r}"
    except Unsaveable as err:
        return str(err)
    return None


def _measure(x: Any, depth: int, cache: dict) -> tuple[int, int]:
    """Returns (items as written out, height) of a container, or raises Unsaveable."""
    if type(x) is list and _ATOMS.issuperset(map(type, x)):
        if depth > MAX_VALUE_DEPTH:
            raise Unsaveable(f"a value nested more than {MAX_VALUE_DEPTH} deep")
        if len(x) > MAX_VALUE_ITEMS:
            raise Unsaveable(f"a value of more than {MAX_VALUE_ITEMS} items")
        return len(x), 1          # a flat list (most are): no need to remember it
    hit = cache.get(id(x))
    if hit is not None and hit[0] is x:
        if depth + hit[2] - 1 > MAX_VALUE_DEPTH:
            raise Unsaveable(f"a value nested more than {MAX_VALUE_DEPTH} deep")
        return hit[1], hit[2]
    if depth > MAX_VALUE_DEPTH:
        raise Unsaveable(f"a value nested more than {MAX_VALUE_DEPTH} deep")
    n, height = len(x), 1
    if type(x) is dict:
        for k in x:
            if type(k) is not str:
                raise Unsaveable(f"a record key that is not text: {k!r}")
        items = x.values()
    else:
        items = x
    for y in items:
        t = type(y)
        if t is list or t is dict:
            m, h = _measure(y, depth + 1, cache)
            n += m
            if h >= height:
                height = h + 1
        elif t not in _ATOMS:
            raise Unsaveable(f"a value that cannot be saved: {y!r}")
    if n > MAX_VALUE_ITEMS:
        raise Unsaveable(f"a value of more than {MAX_VALUE_ITEMS} items")
    cache[id(x)] = (x, n, height)
    return n, height
