"""One random game with the invariants checked after every action (shared by tests)."""
from __future__ import annotations

from interpreter.agents import make_agents
from interpreter.engine.invariants import conservation_problems


def checked_game(game, players: int, seed: int, log: bool = False, save_at: int = 25):
    """Returns (final state, the state serialised at decision `save_at` or None)."""
    agents = make_agents(["random"], players, seed)
    state = game.new_initial_state(players, seed, log=log)
    assert not conservation_problems(game, state.d)
    saved = None
    steps = 0
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
        problems = conservation_problems(game, state.d)
        assert not problems, f"seed {seed} step {steps}: {problems}"
        steps += 1
        if steps == save_at:
            saved = state.serialize()
        assert steps < 50_000, "game does not end"
    return state, saved
