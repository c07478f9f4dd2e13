"""The searching bots choose the same moves as before they were made faster (issue 26,
item 4): a regression pin across an optimisation, so the expected data is hard-coded.

How the expected data was produced: on main at 16d03ff (before the bots were sped up),
each case below was played from `g.new_initial_state(players, seed=seed)` (log on) with
`make_agents(seats, players, seed)` for its first 15 decisions, recording each move and,
at the end, every seat's bot RNG state (`agent.get_state()["rng"]`), which pins the whole
stream of the bots' draws, not only the moves it led to. The last seat spec repeats to
the remaining seats, so each case has mcts:50 and greedy seats."""
from __future__ import annotations

import pytest

from interpreter.agents import make_agents
from interpreter.load.build import load_game

DECISIONS = 15

CASES = [   # game, players, seed, moves, bot RNG states after them (seat by seat)
    ("stonefire", 2, 11, [0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 0, 2, 2, 0],
     [2530717587790065876, 7917540252343902507]),
    ("stonefire", 3, 12, [0, 4, 1, 2, 0, 3, 2, 2, 0, 0, 2, 2, 1, 0, 0],
     [11676394722695213800, 13345900018594915400, 16306615658463358113]),
    ("big-foot", 2, 21, [1, 4, 0, 5, 1, 8, 1, 47, 1, 0, 14, 0, 31, 0, 0],
     [7482676024136711741, 2166260832958933918]),
    ("big-foot", 3, 22, [19, 41, 5, 29, 14, 50, 1, 0, 2, 0, 0, 1, 0, 2, 1],
     [10208278313568768343, 15599823114344578846, 11204153675690086012]),
]
SEATS = {2: ["mcts:50", "greedy"], 3: ["greedy", "mcts:50"]}


@pytest.mark.parametrize("gid,players,seed,moves,rngs", CASES, ids=[f"{c[0]}-{c[1]}p" for c in CASES])
def test_bots_choose_the_moves_they_chose_before(gid, players, seed, moves, rngs):
    g = load_game(gid)
    state = g.new_initial_state(players, seed=seed)
    agents = make_agents(SEATS[players], players, seed)
    played = []
    while not state.is_terminal() and len(played) < DECISIONS:
        a = agents[state.current_player()].step(state)
        played.append(a)
        state.apply_action(a)
    assert played == moves
    assert [a.get_state()["rng"] for a in agents] == rngs

