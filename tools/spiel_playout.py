"""How the benchmarks play an OpenSpiel game (tools/bench_peers.py, tools/bench_adapter_floor.py):
chance nodes sampled from their outcome distribution, every move uniformly at random among
the legal ones, until the game ends; one loop, so every OpenSpiel contender pays the same."""
from __future__ import annotations

import random
from typing import Any


def random_playout(game: Any, rnd: random.Random) -> None:
    """Plays one game of a pyspiel game to its end."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rnd.choices(outcomes, probs)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
