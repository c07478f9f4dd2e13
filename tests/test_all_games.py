"""Every game under definitions/, every player count, every variant: it validates, random
games finish without aborting, objects are conserved after every action, a record
replays, and a state saved mid-game loads back identical and plays on the same.
(CAIRN_PLAYOUTS sets the games per combination; Big Foot's 200-game run is in
test_playouts.py.)"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, make_agents
from interpreter.engine import rng
from interpreter.engine.game import deserialize
from interpreter.load.build import build, list_variants

from playout import checked_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p for p in (ROOT / "definitions").iterdir() if (p / "game.yaml").is_file())
PER_COMBO = int(os.environ.get("CAIRN_PLAYOUTS", "3"))
_CACHE: dict = {}


def _game(folder: Path, variants: tuple[str, ...]):
    key = (folder, variants)
    if key not in _CACHE:
        game, diags = build(folder, list(variants))
        assert game is not None, "\n".join(str(d) for d in diags)
        _CACHE[key] = game
    return _CACHE[key]


def _combos():
    for folder in GAMES:
        for variant in [None, *sorted(list_variants(folder))]:
            variants = () if variant is None else (variant,)
            try:
                game = _game(folder, variants)
                counts = range(game.min_players, game.max_players + 1)
            except AssertionError:
                counts = [0]
            for n in counts:
                yield pytest.param(folder, variants, n, id=f"{folder.name}-{'+'.join(variants) or 'base'}-{n}p")


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_game_and_every_variant_validate(folder):
    for variant in [None, *sorted(list_variants(folder))]:
        game, diags = build(folder, [] if variant is None else [variant])
        assert game is not None and not diags, "\n".join(str(d) for d in diags)


@pytest.mark.parametrize("folder,variants,players", list(_combos()))
def test_random_games(folder, variants, players):
    game = _game(folder, variants)
    for i in range(PER_COMBO):
        seed = rng.derive(11, 100 * players + i)
        state, saved = checked_game(game, players, seed, log=(i == 0))
        result = state.d["result"]
        assert result["reason"] != "aborted", result.get("aborted")
        assert result["winners"] or game.win_if is not None, "nobody won"
        if saved is not None:
            back = deserialize(game, saved)
            assert back.serialize() == saved
        # determinism: the same seed and agents give the same game
        again = game.new_initial_state(players, seed, log=(i == 0))
        agents = make_agents(["random"], players, seed)
        while not again.is_terminal():
            again.apply_action(agents[again.current_player()].step(again))
        assert again.serialize() == state.serialize()


def test_saved_state_plays_on_identically():
    """Save at several decision points of one game per game; both copies finish alike."""
    for folder in GAMES:
        game = _game(folder, ())
        n = max(game.min_players, 2) if game.max_players >= 2 else game.min_players
        state = game.new_initial_state(n, 5)
        agent = RandomAgent(5)
        for _ in range(40):
            if state.is_terminal():
                break
            state.apply_action(agent.step(state))
        copy = deserialize(game, state.serialize())
        a, b = RandomAgent(9), RandomAgent(9)
        while not state.is_terminal():
            state.apply_action(a.step(state))
            copy.apply_action(b.step(copy))
        assert copy.serialize() == state.serialize()
