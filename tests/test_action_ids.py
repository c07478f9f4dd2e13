"""Stable action ids (engine/action_ids.py): the same move has the same id in every state,
ids are distinct within a decision, and a list option is chosen an atom at a time."""
from __future__ import annotations

import random

import pytest

from interpreter.adapters.common import layouts
from interpreter.batch import compiled
from interpreter.engine.action_ids import END, ActionIdError, ActionSpace, family_of, tokens

FOUR = ["big-foot", "footprints", "stonefire", "fantastic-trails"]


def _play(gid: str, seed: int, moves: int):
    """Yields each decision's state of a seeded random playout (at most `moves`)."""
    g = compiled(gid)
    s, r = g.new_initial_state(2, seed, log=False), random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            return
        yield s
        s.apply_action(r.randrange(len(s.d["pending"]["options"])))


def test_the_same_move_has_the_same_id_in_two_states():
    """Tic-tac-toe's centre cell: its option index moves (a cell before it is taken), its id
    does not."""
    g = compiled("tic-tac-toe")
    space, _enc = layouts(g, 2)
    start = g.new_initial_state(2, 0)
    later = start.clone()
    later.apply_action(0)                       # X takes the first cell
    later.apply_action(0)                       # O takes the next free one
    ids = []
    for s in (start, later):
        options = s.d["pending"]["options"]
        k = options.index("c5")
        step = space.step(s.d)
        ids.append(next(i for i, atom in step.ids.items() if atom == "c5"))
        assert step.answer(ids[-1]) == k
    assert start.d["pending"]["options"].index("c5") != later.d["pending"]["options"].index("c5")
    assert ids[0] == ids[1]


@pytest.mark.parametrize("gid", FOUR)
def test_ids_are_a_function_of_family_and_atom(gid):
    """Over random playouts: one (family, atom) always gets one id, and one id always means
    one (family, atom); ids of one decision are distinct."""
    space, _enc = layouts(compiled(gid), 2)
    meaning: dict[int, tuple] = {}
    given: dict[tuple, int] = {}
    for seed in (1, 2):
        for s in _play(gid, seed, 400):
            step = space.step(s.d)
            assert len(step.legal()) == len(step.nexts)
            for i, atom in step.ids.items():
                key = (family_of(s.d), repr(atom))
                assert meaning.setdefault(i, key) == key
                assert given.setdefault(key, i) == i
                assert 0 <= i < space.size
    assert len(given) > 10


def test_a_list_option_is_chosen_an_atom_at_a_time():
    """Big Foot's routes are lists of spots: choosing atoms one at a time reaches every
    route, each through its own spots."""
    g = compiled("big-foot")
    space, _enc = layouts(g, 2)
    checked = 0
    for seed in range(1, 6):
        for s in _play("big-foot", seed, 400):
            options = s.d["pending"]["options"]
            if not any(isinstance(o, list) and len(o) > 1 for o in options):
                continue
            for k, option in enumerate(options):
                prefix, answer = (), None
                while answer is None:
                    step = space.step(s.d, prefix)
                    want = tokens(option)[len(prefix)] if len(tokens(option)) > len(prefix) else END
                    action = next(i for i, atom in step.ids.items() if atom == want)
                    answer = step.answer(action)
                    prefix += (step.atom(action),)
                assert answer == k
                checked += 1
    assert checked > 20


def test_label_slots_shared_in_one_decision_stay_distinct():
    """With one label slot, two strings the data does not name still get two ids."""
    g = compiled("pig")
    space = ActionSpace(g, label_slots=2)
    s = g.new_initial_state(2, 0)
    s.d["pending"]["options"] = ["made-up-a", "made-up-b"]
    before = space.collisions
    step = space.step(s.d)
    assert len(step.legal()) == 2 and {step.answer(i) for i in step.legal()} == {0, 1}
    one = ActionSpace(g, label_slots=1)
    with pytest.raises(ActionIdError, match="label slots"):
        one.step(s.d)
    assert space.collisions >= before


def test_a_number_outside_the_range_is_refused_with_the_parameter():
    g = compiled("pig")
    space = ActionSpace(g, numbers=(0, 5))
    s = g.new_initial_state(2, 0)
    s.d["pending"]["options"] = [3, 99]
    with pytest.raises(ActionIdError, match="numbers"):
        space.step(s.d)
