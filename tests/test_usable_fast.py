"""The activated abilities a seat may use (engine/abilities.py `usable`) are looked for in
the seat's own places when an ability counts only in zones each player has: the same
answer, in the same order, as looking at every carrier that counts and asking who
controls it (what it falls back to otherwise)."""
from __future__ import annotations

import random

import pytest

from interpreter.engine import abilities
from interpreter.load.build import load_game


@pytest.fixture(scope="module")
def stonefire():
    return load_game("stonefire")


def _along_random_games(g, games: int):
    """The states at every decision of some random games."""
    rnd = random.Random(3)
    for seed in range(games):
        state = g.new_initial_state(2, seed, log=False)
        while not state.is_terminal():
            yield state.d
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])


def test_own_places_answer_as_every_carrier_does(stonefire, monkeypatch):
    g = stonefire
    assert g.abilities.activated, "StoneFire's cards have activated abilities"
    seen = 0
    for d in _along_random_games(g, 6):
        for window in g.abilities.activated:
            for p in range(d["n"]):
                fast = abilities.usable(g, d, window, p)
                with monkeypatch.context() as m:
                    m.setattr(abilities, "own_places", lambda *a: None)   # every carrier, then its controller
                    m.setattr(abilities, "window_plan", lambda *a: None)  # (remembered from own_places)
                    slow = abilities.usable(g, d, window, p)
                assert fast == slow
                seen += bool(fast)
    assert seen > 50           # the comparison saw abilities a seat could use


def test_own_places_only_for_zones_each_player_has(stonefire):
    g, table = stonefire, stonefire.abilities
    clan = frozenset({"clan"})
    assert abilities.own_places(g, table, 3, clan, 2) == {"clan/2"}
    assert abilities.own_places(g, table, 3, frozenset({"clan", "tribal-deck"}), 2) is None   # a shared zone
    assert abilities.own_places(g, table, 3, frozenset({"board"}), 2) is None
    assert abilities.own_places(g, table, 3, None, 2) is None
