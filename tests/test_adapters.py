"""The OpenSpiel and PettingZoo adapters: each framework's own conformance test on the
four games (pyspiel.random_sim_test, pettingzoo.test.api_test), one of OpenSpiel's own
bots, and the seat views keeping secrets."""
from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")          # the `openspiel` extra (in `test`)
pytest.importorskip("pettingzoo")                 # the `pettingzoo` extra (in `test`)

from interpreter.adapters import openspiel as cairn_spiel      # noqa: E402
from interpreter.adapters.common import ActionBoundError, hashed_features   # noqa: E402
from interpreter.adapters.pettingzoo import env as pz_env      # noqa: E402

FOUR = ["big-foot", "footprints", "stonefire", "fantastic-trails"]


@pytest.mark.parametrize("game_id", FOUR)
def test_openspiel_random_sim_test(game_id):
    name = cairn_spiel.register(game_id)
    game = pyspiel.load_game(name, {"players": 2})
    assert game.num_players() == 2 and game.num_distinct_actions() == game.space.size > 256
    gtype = game.get_type()
    assert gtype.provides_observation_tensor and gtype.provides_information_state_tensor
    assert game.observation_tensor_size() == game.encoder.size
    # OpenSpiel's own checks at every step: clones, serialization, legal actions, masks,
    # and (as both are provided) the observation and information state tensors' shapes.
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_players_and_deals_are_parameters():
    name = cairn_spiel.register("stonefire")
    game = pyspiel.load_game(name, {"players": 3, "chance": "deals", "deals": 5})
    state = game.new_initial_state()
    assert state.is_chance_node() and [p for _o, p in state.chance_outcomes()] == [0.2] * 5
    state.apply_action(4)
    assert game.num_players() == 3 and state.current_player() in range(3)
    again = game.new_initial_state()
    again.apply_action(4)
    assert str(again) == str(state)            # a deal fixes the game
    other = game.new_initial_state()
    other.apply_action(3)
    assert str(other) != str(state)
    with pytest.raises(Exception, match="takes"):
        pyspiel.load_game(name, {"players": 9})


def _past_chance(state, seed: int = 0):
    """Resolves chance nodes with a seeded choice until a seat must decide."""
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        outcomes = [o for o, _p in state.chance_outcomes()]
        state.apply_action(int(rng.choice(outcomes)))
    return state


def test_openspiel_information_state_keeps_secrets():
    game = pyspiel.load_game(cairn_spiel.register("stonefire"), {"players": 2})
    state = _past_chance(game.new_initial_state())
    seen0 = json.loads(state.observation_string(0))
    full = state.inner.d["places"]
    hidden = {p: objs for p, objs in full.items() if p.endswith("/1") and objs and isinstance(seen0["places"][p], dict)}
    assert hidden, "expected seat 1 to hold something seat 0 may not see"
    text = state.information_state_string(0)
    for objs in hidden.values():
        assert not any(f'"{o}"' in text for o in objs)


def test_openspiel_mcts_bot_plays_a_cairn_game():
    from open_spiel.python.algorithms import evaluate_bots, mcts
    game = pyspiel.load_game(cairn_spiel.register("tic-tac-toe"), {"deals": 1})
    wins = 0
    for i in range(3):
        rs = np.random.RandomState(i)
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=60,
                           evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(),
                                              [bot, pyspiel.make_uniform_random_bot(1, i)], rs)
        wins += returns[0] == 1.0
        assert returns[1] == 0.0               # MCTS (seat 0) never loses to a random seat
    assert wins >= 2


def test_openspiel_action_bound_is_enforced():
    game = pyspiel.load_game(cairn_spiel.register("big-foot"), {"players": 4, "max_actions": 2, "actions": "options"})
    state = game.new_initial_state()
    with pytest.raises(Exception, match="max_actions"):
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])


def test_openspiel_dice_rolls_are_chance_nodes_of_six():
    """Big Foot's die is a chance node where it is rolled: six outcomes of 1/6 each, and
    each outcome leads to its own game (the same outcome to the same one)."""
    game = pyspiel.load_game(cairn_spiel.register("big-foot"), {"players": 2})
    state = _past_chance(game.new_initial_state())
    rng = np.random.RandomState(1)
    while not (state.is_chance_node() and len(state.chance_outcomes()) == 6):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.chance_outcomes() == [(k, 1 / 6) for k in range(6)]
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert [state.action_to_string(k) for k in (0, 5)] == ["draw 0 of 6", "draw 5 of 6"]
    after = [str(_past_chance(state.child(k), 2)) for k in (0, 1, 2, 3, 4, 5, 5)]
    assert len(set(after[:6])) >= 2 and after[5] == after[6]


def test_openspiel_explicit_chance_replays_from_history():
    game = pyspiel.load_game(cairn_spiel.register("stonefire"), {"players": 3})
    state, rng = game.new_initial_state(), np.random.RandomState(4)
    for _ in range(60):
        if state.is_terminal():
            break
        acts = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(acts)))
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert str(again) == str(state) and again.history() == state.history()


@pytest.mark.parametrize("game_id", FOUR)
def test_pettingzoo_api_test(game_id):
    from gymnasium import spaces
    from pettingzoo.test import api_test
    e = pz_env(game_id, players=3)
    space = e.observation_space("player_0")
    assert isinstance(space["observation"], spaces.Box) and space["observation"].shape == (e.unwrapped.encoder.size,)
    assert e.action_space("player_0").n == e.unwrapped.space.size == space["action_mask"].shape[0]
    api_test(e, num_cycles=60, verbose_progress=False)


def test_pettingzoo_keeps_the_older_modes():
    from pettingzoo.test import api_test
    e = pz_env("big-foot", players=2, actions="options", observation="hashed")
    assert e.action_space("player_0").n == 256 and e.observation_space("player_0")["observation"].shape == (512,)
    api_test(e, num_cycles=40, verbose_progress=False)


def test_pettingzoo_plays_a_whole_game_with_masks():
    e = pz_env("stonefire", players=2)
    e.reset(seed=5)
    total, steps = {a: 0.0 for a in e.possible_agents}, 0
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (e.unwrapped.encoder.size,) and obs["action_mask"].dtype == np.int8
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) >= 1 and json.loads(info["view"])["decision"]["player"] == e.possible_agents.index(agent)
        e.step(int(legal[steps % len(legal)]))
        steps += 1
    assert e.agents == [] and steps > 10
    assert sum(total.values()) >= 1.0          # someone won (ties: more than one)


def test_pettingzoo_same_seed_same_game():
    def play(seed):
        e = pz_env("big-foot", players=2)
        e.reset(seed=seed)
        seen = []
        for _ in range(30):
            obs, *_rest = e.last()
            seen.append(obs["observation"].tobytes())
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        return seen
    assert play(3) == play(3) and play(3) != play(4)


def test_pettingzoo_illegal_action_is_refused():
    e = pz_env("pig", players=2)
    e.reset(seed=1)
    with pytest.raises(ValueError, match="legal option"):
        e.step(0)                  # an id in range (the atom None of the first family), not legal here


def test_hashed_features_are_stable_and_sensitive():
    a = hashed_features('{"x": [1, 2], "y": "a"}', 64)
    assert a.sum() == 4 and np.array_equal(a, hashed_features('{"y": "a", "x": [1, 2]}', 64))
    assert not np.array_equal(a, hashed_features('{"x": [2, 1], "y": "a"}', 64))


def test_action_bound_error_names_the_parameter():
    assert issubclass(ActionBoundError, ValueError)
