"""Stable action ids: one game-wide action space built at load from the game's data, so
the same move has the same id in every state (what learners over a fixed action space
need; a decision's option index changes with the position).

An id is (family, atom). A family is one `choose` of the rules (the program and the place
in it where the decision waits): "place which token?" and "move which token?" are
different families even when they offer the same token. An atom is what an option names:
an object, a space, a number, a label, None or a boolean. The atoms are numbered once:

    none, false, true, end | objects | spaces | labels of the data | numbers lo..hi | label slots

Labels of the data are the identifier-like strings the definitions hold (property values,
zone ids, kinds, parameters, variables' starting values). A string the rules build while
playing (or a literal only an effect text holds, which the compiled game does not keep)
goes to one of `label_slots` slots by an unkeyed BLAKE2 hash, the same on every run; if
two such strings meet in one decision and share a slot, the second takes the next free
slot (sorted by text, so it is still deterministic), and the meeting is counted.

An option that is a list (a path, a pair such as [hunt, target, strength, label]) is a
sequence of atoms, chosen one at a time: each sub-step offers the distinct next atoms of
the options that still fit, and `end` where a chosen prefix is itself an option that
others extend. A decision of plain options is one sub-step; `Step.answer` says when the
options left are one, so the adapters answer the engine with its index.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..lang.compiler import CHOOSE

END = ("end",)                # the atom that closes a prefix which is itself an option
_LABEL = re.compile(r"^[A-Za-z0-9_#.:+\-]{1,40}$")
NUMBERS = (-16, 63)           # numbers with their own id (a game parameter)
LABEL_SLOTS = 64


class ActionIdError(ValueError):
    """An option that the action space cannot name (a number out of range, say)."""


def families(g: Any) -> list[tuple[str, int]]:
    """Returns every place a decision can wait at, (program key, instruction), sorted:
    the decision families of the game, fixed once it is compiled."""
    return sorted((key, i) for key, prog in g.programs.items()
                  for i, ins in enumerate(prog.code) if ins[0] == CHOOSE)


def family_of(d: dict) -> tuple[str, int] | None:
    """Returns the family of the pending decision (where its `choose` waits), None if none."""
    if d["pending"] is None or not d["frames"]:
        return None
    fr = d["frames"][-1]
    return fr["p"], fr["pc"] - 1


def _strings(value: Any, out: set[str]) -> None:
    """Adds the identifier-like strings found anywhere in a value of the data."""
    if isinstance(value, str):
        if _LABEL.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)


def data_labels(g: Any) -> list[str]:
    """Returns the labels of the data, sorted: strings of the static properties, zones,
    kinds, parameters, dice and variables' starting values (objects and spaces apart)."""
    found: set[str] = set()
    for value in (g.props, g.params, g.player_vars, g.game_vars, g.dice, list(g.zones), list(g.kind_index)):
        _strings(value, found)
    entities = {o for o, _k, _s in g.components} | set(g.spaces)
    return sorted(found - entities)


def slot(text: str, slots: int) -> int:
    """Returns the label slot of a string the data does not name (BLAKE2: stable)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little") % slots


@dataclass
class Atoms:
    """The numbered atoms of a game (the same table codes strings in tensors)."""

    entities: list[str]
    labels: list[str]
    numbers: tuple[int, int] = NUMBERS
    label_slots: int = LABEL_SLOTS
    index: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {s: 4 + i for i, s in enumerate(self.entities)}
        base = 4 + len(self.entities)
        for i, s in enumerate(self.labels):
            self.index.setdefault(s, base + i)
        self.first_number = base + len(self.labels)
        self.first_slot = self.first_number + self.numbers[1] - self.numbers[0] + 1
        self.size = self.first_slot + self.label_slots

    @classmethod
    def of(cls, g: Any, numbers: tuple[int, int] = NUMBERS, label_slots: int = LABEL_SLOTS) -> "Atoms":
        ents = [o for o, _k, _s in g.components] + [s for s in g.spaces]
        return cls(list(dict.fromkeys(ents)), data_labels(g), tuple(numbers), int(label_slots))

    def known(self, atom: Any) -> int | None:
        """Returns an atom's own index, None for a string (or value) it must hash."""
        if atom is None:
            return 0
        if atom is END:
            return 3
        if isinstance(atom, bool):
            return 2 if atom else 1
        if isinstance(atom, int):
            lo, hi = self.numbers
            if lo <= atom <= hi:
                return self.first_number + atom - lo
            raise ActionIdError(f"the number {atom} is outside the action space's numbers {lo}..{hi} "
                                "(raise the adapter's numbers parameter)")
        if isinstance(atom, str):
            return self.index.get(atom)
        return None

    def hashed(self, atom: Any) -> int:
        """Returns the label slot index of an atom without its own index."""
        text = atom if isinstance(atom, str) else json.dumps(atom, sort_keys=True, default=str)
        return self.first_slot + slot(text, self.label_slots)


def tokens(option: Any) -> tuple:
    """Returns an option as its sequence of atoms (a list is flattened, in order)."""
    if isinstance(option, (list, tuple)):
        return tuple(t for x in option for t in tokens(x))
    return (option,)


class ActionSpace:
    """The game-wide action space of a game: id = family index * atoms + atom index."""

    def __init__(self, g: Any, numbers: tuple[int, int] = NUMBERS, label_slots: int = LABEL_SLOTS):
        self.families = families(g)
        self.family_index = {f: i for i, f in enumerate(self.families)}
        self.atoms = Atoms.of(g, numbers, label_slots)
        self.size = max(1, len(self.families)) * self.atoms.size
        self.collisions = 0           # label slots shared in one decision (second moved on)

    def family(self, d: dict) -> int:
        """Returns the index of the pending decision's family."""
        return self.family_index[family_of(d)]

    def step(self, d: dict, prefix: tuple = ()) -> "Step":
        """Returns the sub-step of the pending decision after the atoms in `prefix`."""
        options = [tokens(o) for o in d["pending"]["options"]]
        fits = [i for i, t in enumerate(options) if t[:len(prefix)] == prefix]
        if not fits:
            raise ActionIdError(f"no option of the pending decision starts with {list(prefix)}")
        nexts: dict[Any, list[int]] = {}
        for i in fits:
            t = options[i]
            nexts.setdefault(t[len(prefix)] if len(t) > len(prefix) else END, []).append(i)
        if len(nexts.get(END, ())) > 1:
            raise ActionIdError(f"two options of one decision read the same: {d['pending']['options']}")
        return Step(self, self.family(d), nexts)


@dataclass
class Step:
    """One sub-step: its legal ids, each with the atom it chooses and the options that fit."""

    space: ActionSpace
    family: int
    nexts: dict[Any, list[int]]
    ids: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        atoms, base = self.space.atoms, self.family * self.space.atoms.size
        pending = []
        for atom in self.nexts:
            k = atoms.known(atom)
            if k is None:
                pending.append(atom)
            else:
                self.ids[base + k] = atom
        for atom in sorted(pending, key=lambda a: json.dumps(a, sort_keys=True, default=str)):
            k, tries = atoms.hashed(atom), 0
            while base + k in self.ids:   # two strings of one decision share a slot
                self.space.collisions += 1
                tries += 1
                if tries >= atoms.label_slots:
                    raise ActionIdError(f"more labels in one decision than the {atoms.label_slots} label slots "
                                        "(raise the adapter's label_slots parameter)")
                k = atoms.first_slot + (k - atoms.first_slot + 1) % atoms.label_slots
            self.ids[base + k] = atom

    def legal(self) -> list[int]:
        """Returns the legal ids, ascending."""
        return sorted(self.ids)

    def atom(self, action: int) -> Any:
        """Returns the atom an id chooses here (ValueError if it is not legal)."""
        if action not in self.ids:
            raise ValueError(f"illegal action {action}: expected one of {self.legal()}")
        return self.ids[action]

    def answer(self, action: int) -> int | None:
        """Returns the option index the id settles, None if more atoms must follow."""
        fit = self.nexts[self.atom(action)]
        return fit[0] if len(fit) == 1 else None
