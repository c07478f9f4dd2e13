"""The state of one game in play, as plain data.

Everything that changes in play is in one dict of dicts, lists, strings, ints and bools
(no closures, no generators), so it clones with a tight copy, serialises to JSON and
loads back identical at any decision point, in the middle of an effect included.
"""
from __future__ import annotations

import json
from typing import Any

from ..lang.runtime import frozen
from .rng import seed_state

STATE_FORMAT = 1


def jcopy(x: Any) -> Any:
    """Returns a deep copy of plain JSON-like data (far faster than copy.deepcopy)."""
    t = type(x)
    if t is dict:
        return {k: (v if type(v) in _ATOMS else jcopy(v)) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _ATOMS else jcopy(v) for v in x]
    return x


_ATOMS = {str, int, bool, float, type(None)}

# Parts of a state that are never changed in place once written: a verb that changes one
# writes a new value (verbs/hexmap.py), so clones may share them.
SHARED = frozenset({"pos", "adj", "hex_at"})

# Tables whose entries are written anew, never changed in place (runtime.set_attr writes an
# object's attributes and a player's variables as a new dict; a game variable is replaced
# whole), and whose values (lists, records) no rule changes in place: a clone copies the
# table and shares the entries.
SHALLOW = {"attrs": dict.copy, "pvars": list.copy, "gvars": dict.copy, "pending": dict.copy}


def clone_state(d: dict) -> dict:
    """Returns an independent copy of a state, by its known shape: places are lists of ids,
    `loc` maps ids to places and log lines are never changed once written, so those copy
    at C speed; the parts that never change in place are shared; the rest copies deeply."""
    e = {k: (v if type(v) in _ATOMS or k in SHARED else jcopy(v)) for k, v in d.items()
         if k not in _BY_SHAPE}
    for k, copy in SHALLOW.items():
        v = d[k]
        e[k] = v if v is None else copy(v)
    places = d["places"]
    e["places"] = dict(zip(places, map(list.copy, places.values())))   # at C speed, no Python loop
    e["loc"] = dict(d["loc"])
    e["log"] = d["log"][:]
    e["actions"] = d["actions"][:]
    return e


_BY_SHAPE = frozenset({"places", "loc", "log", "actions"}) | frozenset(SHALLOW)


def new_state(num_players: int, seed: int, places: dict[str, list[str]], pvars: dict[str, Any],
              gvars: dict[str, Any], main: str) -> dict:
    """Returns a fresh state: every object in its starting place, the main program ready."""
    loc = {obj: place for place, objs in places.items() for obj in objs}
    return {
        "format": STATE_FORMAT,
        "n": num_players,
        "seed": seed,
        "rng": seed_state(seed),
        "places": places,
        "loc": loc,
        "attrs": {},
        "pvars": [jcopy(pvars) for _ in range(num_players)],
        "gvars": jcopy(gvars),
        "frames": [{"p": main, "pc": 0, "l": {}, "d": 0, "r": None}],
        "pending": None,
        "terminal": False,
        "result": None,
        "actions": [],
        "log": [],
        "turns": 0,
    }


def dumps(d: dict) -> str:
    """Returns the canonical JSON text of a state (sorted keys, so equal states are equal text)."""
    return json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> dict:
    """Returns a state from its JSON text."""
    d = json.loads(text)
    if d.get("format") != STATE_FORMAT:
        raise ValueError(f"state format {d.get('format')!r} is not {STATE_FORMAT}")
    return d


def move_object(d: dict, obj: str, to: str, bottom: bool = False, index: int | None = None) -> None:
    """Moves one object to a place: the only way objects change place, so none is ever
    lost or duplicated. The top of a place is the end of its list."""
    if d.get("frozen") is not None:
        frozen(d)
    places = d["places"]
    src = d["loc"][obj]
    places[src].remove(obj)
    dest = places[to]
    if index is not None:
        dest.insert(index, obj)
    elif bottom:
        dest.insert(0, obj)
    else:
        dest.append(obj)
    d["loc"][obj] = to
