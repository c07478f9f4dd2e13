"""A game's state as one seat sees it, as a fixed-shape vector of floats derived from the
definitions (what learners with a neural network want), hiding exactly what the seat's
own view hides (view.py): a hidden place gives its count only, an owner-only place only
its owner sees the contents of, others' private variables are left out, the pending
decision's family only to the seat deciding.

The layout depends only on the game and the number of players. Pieces, in order:

    observer   (n,)            1 at the seat whose view this is
    places     (P, 1 + O)      per place (zones per seat, then spaces): its count, then per
                               object its 1-based position there where the seat sees it
    attrs      (E, A)          per object and space, its attributes (declared ones), where seen
    player_vars (n, V)         per seat, its variables (others' private ones: 0)
    game_vars  (G,)            the game's variables
    decision   (n + S + 1 + F + 2,)  who decides, in which step (or another), and to the
                               decider only: the family, the number of options, the sub-step
    result     (1 + n,)        game over, and each seat's payoff

Copies are interchangeable: objects whose properties differ only in id and name (the
X marks of a noughts-and-crosses grid, a deck's identical cards) take their columns in the order of
where the seat sees them (place, then position), unseen ones last; so two states
that differ only in which copy is where give the same tensor (the same position reached
in another order), and nothing hidden decides which column a seen copy takes.

A value becomes floats by the shape of its declared default: a number is itself, a
boolean 0/1, None 0, a string its atom's code (action_ids.Atoms: objects, spaces and
labels of the data numbered; another string hashed); a dict with declared keys gives a
slot per key; a list or a dict with no declared keys (its contents vary) gives its
length and `bag` slots counting its leaves hashed (path=value, as the string views
write them): its size is fixed, so what it holds may share slots.
"""
from __future__ import annotations

import json
from typing import Any, MutableSequence

from .action_ids import Atoms, slot
from .view import deciding_in, visible

BAG = 16


def _shape(default: Any) -> Any:
    """Returns how a value declared with this default is laid out: 'scalar', 'bag', or a
    list of (key, shape) for a dict with declared keys."""
    if isinstance(default, dict) and default:
        return [(k, _shape(v)) for k, v in default.items()]
    if isinstance(default, (dict, list, tuple)):
        return "bag"
    return "scalar"


def _width(shape: Any, bag: int) -> int:
    if shape == "scalar":
        return 1
    if shape == "bag":
        return 1 + bag
    return sum(_width(s, bag) for _k, s in shape)


def leaves(value: Any, path: str = "") -> list[str]:
    """Returns a value's `path=value` leaves: a list's position matters (a track, a hand's
    order), and so does its length."""
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in leaves(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [f"{path}#len={len(value)}"] + [t for i, v in enumerate(value) for t in leaves(v, f"{path}[{i}]")]
    return [f"{path}={json.dumps(value, sort_keys=True, default=str)}"]


def copy_classes(g: Any, objects: list[str]) -> list[list[str]]:
    """Returns the groups of two or more interchangeable objects (properties equal but for
    id and name), each in definition order."""
    groups: dict[str, list[str]] = {}
    for obj in objects:
        props = {k: v for k, v in g.props.get(obj, {}).items() if k not in ("id", "name")}
        groups.setdefault(json.dumps(props, sort_keys=True, default=str), []).append(obj)
    return [members for members in groups.values() if len(members) > 1]


def steps_of(g: Any) -> list[str]:
    """Returns every name a pending decision's step can have (view.deciding_in), sorted."""
    names = set()
    for key in g.programs:
        parts = key.split(":")
        if parts[0] in ("step", "part") and len(parts) > 1:
            names.add(parts[1])
        names.add(parts[-1])
    return sorted(names)


class Encoder:
    """The tensor layout of one game at n players, and the filling of it from a state."""

    def __init__(self, g: Any, n: int, atoms: Atoms, families: list, bag: int = BAG):
        self.g, self.n, self.atoms, self.bag = g, n, atoms, bag
        self.places = g.place_ids(n)
        self.place_row = {p: i for i, p in enumerate(self.places)}
        self.objects = list(dict.fromkeys(o for o, _k, _s in g.components))
        self.object_col = {o: 1 + i for i, o in enumerate(self.objects)}
        self.entities = list(dict.fromkeys(self.objects + list(g.spaces)))
        self.entity_row = {e: i for i, e in enumerate(self.entities)}
        self.attr_shapes = [(a, _shape(v)) for a, v in sorted(g.attr_defaults.items())]
        self.pvar_shapes = [(k, _shape(v)) for k, v in g.player_vars.items()]
        self.copies = copy_classes(g, self.objects)
        self.seen_places = [frozenset(p for p in self.places if visible(g, p, seat)) for seat in range(n)]
        self.steps = {s: i for i, s in enumerate(steps_of(g))}
        self.families = {f: i for i, f in enumerate(families)}
        self.pieces: list[tuple[str, tuple[int, ...]]] = [
            ("observer", (n,)),
            ("places", (len(self.places), 1 + len(self.objects))),
            ("attrs", (len(self.entities), sum(_width(_shape(v), bag) for v in g.attr_defaults.values()))),
            ("player_vars", (n, sum(_width(_shape(v), bag) for v in g.player_vars.values()))),
            ("game_vars", (sum(_width(_shape(v), bag) for v in g.game_vars.values()),)),
            ("decision", (n + len(self.steps) + 1 + len(self.families) + 2,)),
            ("result", (1 + n,)),
        ]
        self.offsets: dict[str, int] = {}
        at = 0
        for name, shape in self.pieces:
            self.offsets[name] = at
            at += _size(shape)
        self.size = at

    # -- values -------------------------------------------------------------------
    def code(self, value: Any) -> float:
        """Returns one scalar's float: a number itself, a string its atom's code."""
        if value is None:
            return 0.0
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            k = self.atoms.index.get(value)
            return float(k if k is not None else self.atoms.hashed(value))
        return float(len(value)) if isinstance(value, (list, dict, tuple)) else 0.0

    def value(self, out: MutableSequence, at: int, shape: Any, value: Any) -> int:
        """Writes a value laid out by `shape` at `at`; returns the index after it."""
        if shape == "scalar":
            out[at] = self.code(value)
            return at + 1
        if shape == "bag":
            if isinstance(value, (list, dict, tuple)):
                out[at] = float(len(value))
                for token in leaves(value):
                    out[at + 1 + slot(token, self.bag)] += 1.0
            else:
                out[at] = self.code(value)
            return at + 1 + self.bag
        inner = value if isinstance(value, dict) else {}
        for key, sub in shape:
            at = self.value(out, at, sub, inner.get(key))
        return at

    # -- the state ------------------------------------------------------------------
    def fill(self, out: MutableSequence, d: dict, player: int, prefix_len: int = 0) -> None:
        """Writes what `player` sees of state `d` into `out` (zeros, `size` long); the
        decider's pending decision is in its sub-step `prefix_len` (action ids)."""
        g, n = self.g, self.n
        out[self.offsets["observer"] + player] = 1.0
        canon = self._canonical(d, player)
        seen = self._places(out, d, player, canon)
        self._attrs(out, d, seen, canon)
        width = self.pieces[3][1][1]
        for p, pv in enumerate(d["pvars"]):
            at = self.offsets["player_vars"] + p * width
            for name, shape in self.pvar_shapes:
                if p == player or name not in g.private_vars:
                    self.value(out, at, shape, pv.get(name))
                at += _width(shape, self.bag)
        at = self.offsets["game_vars"]
        for name, default in g.game_vars.items():
            at = self.value(out, at, _shape(default), d["gvars"].get(name))
        self._decision(out, d, player, prefix_len)
        at = self.offsets["result"]
        if d["terminal"]:
            out[at] = 1.0
            r = d["result"] or {}
            for p, v in enumerate(r.get("payoffs", r.get("returns", []))[:n]):
                out[at + 1 + p] = float(v)

    def _canonical(self, d: dict, player: int) -> dict[str, str]:
        """Returns the column each seen copy takes (the copy it is written as): a class's
        seen members sorted by place and position take its columns in order."""
        where: dict[str, tuple] = {}
        shown = self.seen_places[player]
        for place, objs in d["places"].items():
            if place in shown:
                row = self.place_row.get(place, -1)
                for pos, obj in enumerate(objs):
                    where[obj] = (row, pos)
        out: dict[str, str] = {}
        for members in self.copies:
            seen = [m for m in members if m in where]
            seen.sort(key=where.__getitem__)
            out.update(zip(seen, members))
        return out

    def _places(self, out: MutableSequence, d: dict, player: int, canon: dict[str, str]) -> set[str]:
        """Writes each place's count and, where the seat may see it, its objects; returns
        the objects seen."""
        row_len = 1 + len(self.objects)
        base, seen, shown = self.offsets["places"], set(), self.seen_places[player]
        for place, objs in d["places"].items():
            row = self.place_row.get(place)
            if row is None:
                continue
            at = base + row * row_len
            out[at] = float(len(objs))
            if place in shown:
                for pos, obj in enumerate(objs, 1):
                    col = self.object_col.get(canon.get(obj, obj))
                    if col is not None:
                        out[at + col] = float(pos)
                seen.update(objs)
        return seen

    def _attrs(self, out: MutableSequence, d: dict, seen: set[str], canon: dict[str, str]) -> None:
        """Writes the attributes of the objects the seat sees and of what lies nowhere."""
        width = self.pieces[2][1][1]
        for ent, attrs in d["attrs"].items():
            row = self.entity_row.get(canon.get(ent, ent))
            if row is None or (ent not in seen and ent in d["loc"]):
                continue
            at = self.offsets["attrs"] + row * width
            for name, shape in self.attr_shapes:
                if name in attrs:
                    self.value(out, at, shape, attrs[name])
                at += _width(shape, self.bag)

    def _decision(self, out: MutableSequence, d: dict, player: int, prefix_len: int) -> None:
        """Writes who decides and in which step; to the decider, the family and options."""
        pending = d["pending"]
        if pending is None:
            return
        at, n = self.offsets["decision"], self.n
        out[at + pending["player"]] = 1.0
        out[at + n + self.steps.get(deciding_in(d), len(self.steps))] = 1.0
        if pending["player"] != player:
            return
        at += n + len(self.steps) + 1
        fr = d["frames"][-1]
        fam = self.families.get((fr["p"], fr["pc"] - 1))
        if fam is not None:
            out[at + fam] = 1.0
        at += len(self.families)
        out[at] = float(len(pending["options"]))
        out[at + 1] = float(prefix_len)

    def layout(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Returns each piece's name, shape and offset."""
        return [(name, shape, self.offsets[name]) for name, shape in self.pieces]


def _size(shape: tuple[int, ...]) -> int:
    out = 1
    for k in shape:
        out *= k
    return out
