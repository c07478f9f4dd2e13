"""A bot's sample is a copy: drawing one never changes the game it was drawn from. A
sample forgets other seats' private variables and secret choices and redeals hidden
places; each of those writes must land in the copy only (a shared dict written in place
would reset a real player's secrets, and the game would go on wrong)."""
from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent
from interpreter.bots.determinize import Sampler
from interpreter.engine import state as st
from interpreter.load.build import load_game


def _positions(gid: str, players: int, seed: int, decisions: int):
    g = load_game(gid)
    s = g.new_initial_state(players, seed=seed, log=False)
    r = RandomAgent(seed)
    for _ in range(decisions):
        if s.is_terminal():
            return
        yield g, s
        s.apply_action(r.step(s))


@pytest.mark.parametrize("gid,players", [("footprints", 2), ("fantastic-trails", 2), ("stonefire", 3)])
def test_sampling_leaves_the_game_as_it_was(gid, players):
    sampled = changed = 0
    for g, s in _positions(gid, players, 4, 40):
        before = st.dumps(s.d)
        seat = s.current_player()
        x = Sampler(g).sample(s, seat, {"rng": 7})
        sampled += 1
        changed += st.dumps(x.d) != before
        assert st.dumps(s.d) == before, f"sampling for seat {seat} changed the game"
    assert sampled >= 10 and changed            # the samples did differ from the game


def test_footprints_private_variables_survive_a_sample():
    g = load_game("footprints")
    assert g.private_vars                     # the game keeps secrets per player
    for g, s in _positions("footprints", 2, 2, 30):
        other = 1 - s.current_player()
        secret = {k: v for k, v in s.d["pvars"][other].items() if k in g.private_vars}
        x = Sampler(g).sample(s, s.current_player(), {"rng": 3})
        assert all(x.d["pvars"][other][k] == v for k, v in g.player_vars.items() if k in g.private_vars)
        assert {k: v for k, v in s.d["pvars"][other].items() if k in g.private_vars} == secret
