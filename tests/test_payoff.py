"""Payoffs as a game declares them (`scoring: payoff:`): win flags by default, zero-sum
from the scores, or a formula; the state API and the OpenSpiel and PettingZoo adapters
return them, and win flags stay available as `win_flags()`."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from interpreter.diagnostics import DefinitionError
from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]
WIN_LOSS = "'game.winner == -1 ? 0 : (game.winner == me ? 1 : -1)'"


def _ttt(tmp_path: Path, payoff: str, ident: str = "ttt-payoff") -> Path:
    """A copy of tic-tac-toe with its own id and the given `payoff:` lines in its scoring."""
    folder = tmp_path / ident
    shutil.copytree(ROOT / "definitions" / "tic-tac-toe", folder)
    game = folder / "game.yaml"
    text = game.read_text("utf-8").replace("id: tic-tac-toe", f"id: {ident}")
    game.write_text(text.rstrip("\n") + "\n" + payoff, "utf-8")
    return folder


def _play(game, seed: int):
    state = game.new_initial_state(2, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_default_payoff_is_the_win_flags():
    game = load_game("tic-tac-toe")
    for seed in range(20):
        state = _play(game, seed)
        assert state.returns() == state.win_flags()
        assert set(state.returns()) <= {0.0, 1.0}


def test_formula_payoff_is_returned_beside_the_win_flags(tmp_path):
    game = load_game(str(_ttt(tmp_path, f"  payoff: {{of: {WIN_LOSS}, range: [-1, 1]}}\n")))
    seen = set()
    for seed in range(40):
        state = _play(game, seed)
        pay, flags = state.returns(), state.win_flags()
        seen.add(tuple(pay))
        if flags == [1.0, 1.0]:                      # a draw: both share the win flag, payoff 0
            assert pay == [0.0, 0.0]
        else:
            assert pay == [1.0 if f else -1.0 for f in flags] and sum(pay) == 0
        assert state.d["result"]["winners"] == [p for p in range(2) if flags[p]]
    assert (1.0, -1.0) in seen and (-1.0, 1.0) in seen     # both seats won some games


def test_zero_sum_payoff_is_the_score_less_the_mean(tmp_path):
    game = load_game(str(_ttt(tmp_path, "  payoff: {of: zero-sum, range: [-1, 1]}\n")))
    for seed in range(20):
        state = _play(game, seed)
        s = state.scores()
        mean = sum(s) / 2
        assert state.returns() == [x - mean for x in s] and sum(state.returns()) == 0


def test_payoff_outside_its_range_aborts_the_game_with_the_reason(tmp_path):
    game = load_game(str(_ttt(tmp_path, "  payoff: {of: 'me + 5', range: [0, 1]}\n")))
    state = _play(game, 1)
    assert state.d["result"]["reason"] == "aborted"
    assert "outside its declared range [0, 1]" in state.d["result"]["aborted"]


def test_payoff_without_range_is_refused_at_its_line(tmp_path):
    folder = _ttt(tmp_path, "  payoff: {of: zero-sum}\n")
    with pytest.raises(DefinitionError) as err:
        load_game(str(folder))
    text = str(err.value)
    assert "payoff needs range" in text and "game.yaml:" in text


def test_adapters_announce_and_return_the_payoff(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel as cairn_spiel
    from interpreter.adapters.pettingzoo import env as pz_env

    folder = _ttt(tmp_path, f"  payoff: {{of: {WIN_LOSS}, range: [-1, 1]}}\n", "ttt-win-loss")
    game = pyspiel.load_game(cairn_spiel.register(str(folder)))
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])

    zs = _ttt(tmp_path / "zs", "  payoff: {of: zero-sum, range: [-1, 1]}\n", "ttt-zero-sum")
    zgame = pyspiel.load_game(cairn_spiel.register(str(zs)))
    assert zgame.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM

    e = pz_env(str(folder), players=2)
    e.reset(seed=5)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=100):
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(
            [i for i, m in enumerate(obs["action_mask"]) if m])))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
