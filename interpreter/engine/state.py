"""The state of one game in play, as plain data.

Everything that changes in play is in one dict of dicts, lists, strings, ints and bools
(no closures, no generators), so it clones with a tight copy, serialises to JSON and
loads back identical at any decision point, in the middle of an effect included.

Place lists are copied on write: a clone shares them with its original, and whichever
changes a place first copies its list (`writable`), so a copy costs a table of references
and a move copies one short list. Every change of a place list in place goes through
`writable` (move_object, the shuffles of verbs/zones.py); code that edits a state by hand
calls it too, or `unshare` first.
"""
from __future__ import annotations

import json
from typing import Any

from ..lang.runtime import frozen
from .rng import seed_state

STATE_FORMAT = 1


class Places(dict):
    """A state's places (place id -> object ids, bottom first) and which of their lists this
    state alone holds (`own`, a set of place ids). The rest may be shared with a clone and
    are copied before their first change. `own` is bookkeeping, not state: it is not saved
    (JSON writes a Places as the dict it is), compared or digested. A plain dict of places
    (a state just read back) holds only lists of its own."""

    __slots__ = ("own",)


def writable(d: dict, place: str) -> list:
    """Returns a place's list for changing in place: first copied if a clone may share it.
    Raises KeyError for a place that does not exist."""
    places = d["places"]
    objs = places[place]
    if type(places) is Places and place not in places.own:
        objs = places[place] = objs[:]
        places.own.add(place)
    return objs


def set_place(d: dict, place: str, objs: list) -> None:
    """Puts a new list (the caller's, given up) at a place; the caller keeps `loc` in step."""
    places = d["places"]
    places[place] = objs
    if type(places) is Places:
        places.own.add(place)


def unshare(d: dict) -> None:
    """Gives a state its own copy of every place list, for code that edits one by hand."""
    places = d["places"]
    if type(places) is Places:
        for place, objs in places.items():
            if place not in places.own:
                places[place] = objs[:]
        places.own = set(places)


def jcopy(x: Any) -> Any:
    """Returns a deep copy of plain JSON-like data (far faster than copy.deepcopy); a
    state's places come back as a plain dict of new lists."""
    t = type(x)
    if t is dict:
        return {k: (v if type(v) in _ATOMS else jcopy(v)) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _ATOMS else jcopy(v) for v in x]
    if t is Places:
        return jcopy(dict(x))
    return x


_ATOMS = {str, int, bool, float, type(None)}

# Parts of a state that are never changed in place once written: a verb that changes one
# writes a new value (verbs/hexmap.py), so clones may share them.
SHARED = frozenset({"pos", "adj", "hex_at"})

# Tables whose entries are written anew, never changed in place (runtime.set_attr writes an
# object's attributes and a player's variables as a new dict; a game variable is replaced
# whole), and whose values (lists, records) no rule changes in place: a clone copies the
# table and shares the entries.
SHALLOW = frozenset({"attrs", "pvars", "gvars", "pending"})     # copied by _copy_shape


def clone_state(d: dict) -> dict:
    """Returns an independent copy of a state, by its known shape: the place lists are
    shared until either state changes one (copy on write, see `writable`), `loc` maps ids
    to places and log lines are never changed once written, so those copy at C speed; the
    frames copy as deep as they change (`copy_frames`); the parts that never change in
    place are shared; the rest copies deeply."""
    e = {k: (v if type(v) in _ATOMS or k in SHARED else jcopy(v)) for k, v in d.items()
         if k not in _BY_SHAPE}
    _copy_shape(d, e)
    return e


def _copy_shape(d: dict, e: dict, frames: list | None = None) -> None:
    """Puts into `e` copies of the parts of state `d` copied by their known shape (the
    SHALLOW tables, then the places, `loc`, the frames, the log and the actions, in that
    order: a copy's keys keep one order), written out rather than looped over: a small
    game's copy costs little more than this. `frames`: their copy, if made already."""
    pending = d["pending"]
    e["attrs"] = d["attrs"].copy()
    e["pvars"] = d["pvars"][:]
    e["gvars"] = d["gvars"].copy()
    e["pending"] = pending if pending is None else pending.copy()
    e["places"] = shared_places(d)
    e["loc"] = d["loc"].copy()
    e["frames"] = copy_frames(d["frames"]) if frames is None else frames
    e["log"] = d["log"][:]
    e["actions"] = d["actions"][:]


class Kept:
    """A state kept to be copied again and again, never changed in play (a game's set-up,
    engine/game.py), with what its copy must copy deeply found once: the keys clone_state
    would copy deeply (all but its atoms, the parts shared and those copied by shape) and,
    for each frame, the locals holding a list."""

    __slots__ = ("d", "deep", "lists")

    def __init__(self, d: dict):
        self.d = d
        self.deep = tuple(k for k, v in d.items()
                          if k not in _BY_SHAPE and k not in SHARED and type(v) not in _ATOMS)
        self.lists = tuple(tuple(k for k, v in f["l"].items() if type(v) is list) for f in d["frames"])

    def copy(self) -> dict:
        """Returns the copy clone_state makes of the kept state (the same keys, in the same
        order: the kept state is one clone_state made, so its keys are already in a copy's
        order), without looking at each part: its atoms are shared by one dict copy."""
        d = self.d
        e = d.copy()
        for k in self.deep:
            e[k] = jcopy(d[k])
        frames = []
        for f, lists in zip(d["frames"], self.lists):
            f = f.copy()
            l = f["l"] = f["l"].copy()
            for k in lists:
                l[k] = l[k][:]
            frames.append(f)
        _copy_shape(d, e, frames)
        return e


def shared_places(d: dict) -> Places:
    """Returns a copy of a state's places table sharing every list with it; from now on
    neither holds a list of its own (either copies a list before its first change)."""
    places = d["places"]
    if type(places) is not Places:          # a state read back or built by hand
        places = d["places"] = Places(places)
    places.own = set()
    shared = Places(places)                 # at C speed, no Python loop
    shared.own = set()
    return shared


def copy_blank(blank: dict) -> dict:
    """Returns a copy of a state made by `new_state` that nothing has played on (a
    game's set-up starts from one, kept per number of players): what it holds is known,
    so it copies part by part, as clone_state would copy it, without looking at each."""
    d = blank.copy()                        # numbers, flags and None: shared as they are
    d["places"] = shared_places(blank)
    d["loc"] = blank["loc"].copy()
    d["attrs"] = {}
    d["pvars"] = blank["pvars"][:]          # each seat's variables are written anew, never changed
    d["gvars"] = blank["gvars"].copy()
    d["frames"] = [{**f, "l": {}} for f in blank["frames"]]
    d["log"] = []
    d["actions"] = []
    return d


def copy_frames(frames: list) -> list:
    """Returns a copy of the stack of frames that nothing the original does changes: each
    frame and its locals are new dicts, and so is each list the locals hold (a `for` loop's
    [items, index] and a simultaneous step's answers change in place); the values inside
    are shared, as a value a rule built never changes once built (lang/values.py). The
    locals are copied whole, then their lists replaced (no key is added while iterating):
    a quarter cheaper than building the dict item by item."""
    out = []
    for f in frames:
        f = f.copy()
        l = f["l"] = f["l"].copy()
        for k, v in l.items():
            if type(v) is list:
                l[k] = v[:]
        out.append(f)
    return out


_BY_SHAPE = frozenset({"places", "loc", "log", "actions", "frames"}) | SHALLOW


def new_state(num_players: int, seed: int, places: dict[str, list[str]], pvars: dict[str, Any],
              gvars: dict[str, Any], main: str) -> dict:
    """Returns a fresh state: every object in its starting place, the main program ready."""
    loc = {obj: place for place, objs in places.items() for obj in objs}
    return {
        "format": STATE_FORMAT,
        "n": num_players,
        "seed": seed,
        "rng": seed_state(seed),
        "places": own_places(places),
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


def own_places(places: dict[str, list[str]]) -> Places:
    """Returns a new state's places, every list its own."""
    out = Places(places)
    out.own = set(out)
    return out


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
    own = places.own if type(places) is Places else None   # `writable`, inline: moves are hot
    if own is not None and src not in own:
        places[src] = places[src][:]
        own.add(src)
    places[src].remove(obj)
    if own is not None and to not in own:
        places[to] = places[to][:]
        own.add(to)
    dest = places[to]
    if index is not None:
        dest.insert(index, obj)
    elif bottom:
        dest.insert(0, obj)
    else:
        dest.append(obj)
    d["loc"][obj] = to
