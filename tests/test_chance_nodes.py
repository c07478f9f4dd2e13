"""Chance where it happens, through the OpenSpiel adapter: Kuhn poker written in Cairn
(tests/fixtures/games/kuhn-poker, payoff in chips), its shuffle dealt as chance nodes,
enumerated exactly; the values are OpenSpiel's own kuhn_poker's."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from interpreter.adapters import openspiel as cairn_spiel      # noqa: E402

KUHN = Path(__file__).resolve().parent / "fixtures" / "games" / "kuhn-poker"


def _enumerate(state, weight: Fraction, out: dict) -> None:
    """Adds every terminal history's probability under uniform random play (chance at its
    own probabilities) to out: expected return to seat 0 and P(seat 0 ends ahead)."""
    if state.is_terminal():
        r0 = Fraction(state.returns()[0]).limit_denominator(1000)
        out["value"] += weight * r0
        out["win"] += weight if r0 > 0 else 0
        out["leaves"] += 1
        return
    if state.is_chance_node():
        for action, p in state.chance_outcomes():
            _enumerate(state.child(action), weight * Fraction(p).limit_denominator(1000), out)
        return
    legal = state.legal_actions()
    for action in legal:
        _enumerate(state.child(action), weight / len(legal), out)


def _exact(game) -> dict:
    out = {"value": Fraction(0), "win": Fraction(0), "leaves": 0}
    _enumerate(game.new_initial_state(), Fraction(1), out)
    return out


def test_kuhn_poker_through_the_adapter_has_openspiels_exact_values():
    game = pyspiel.load_game(cairn_spiel.register(str(KUHN)))
    root = game.new_initial_state()
    assert root.is_chance_node() and len(root.chance_outcomes()) == 3    # the shuffle's first draw
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    ours, theirs = _exact(game), _exact(pyspiel.load_game("kuhn_poker"))
    assert ours["value"] == theirs["value"] == Fraction(1, 8)
    assert ours["win"] == theirs["win"] == Fraction(9, 16)
    assert ours["leaves"] == theirs["leaves"] == 30          # 6 deals x 5 betting sequences


def test_seeded_deals_are_not_the_same_game():
    """The sampled mode (a seed dealt up front) is kept as an option, and it is not exact:
    its finite set of seeds splits the six deals unevenly."""
    game = pyspiel.load_game(cairn_spiel.register(str(KUHN)), {"chance": "deals", "deals": 64})
    out = _exact(game)
    assert out["leaves"] == 64 * 5 and out["value"] != Fraction(1, 8)


def test_a_shuffle_is_drawn_node_by_node_but_run_once(monkeypatch):
    """A shuffle of the 28 dominoes is 27 chance nodes (28, 27, ... 2 outcomes), as before;
    the sizes after the first are known, so the set-up runs again once all are chosen,
    not once a node (which made a deal cost the square of its size)."""
    import random
    name = cairn_spiel.register(str(KUHN.parent / "block-dominoes"))
    game = pyspiel.load_game(name)
    runs = []
    advance = cairn_spiel.CairnState._advance
    monkeypatch.setattr(cairn_spiel.CairnState, "_advance", lambda self: (runs.append(1), advance(self))[1])
    state, rnd, sizes = game.new_initial_state(), random.Random(3), []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        state.apply_action(rnd.randrange(len(outcomes)))
    assert sizes == list(range(28, 1, -1))
    assert len(runs) == 2                     # to the first draw (then kept by the game), and at the end
    assert state.current_player() == 0 and len(state.legal_actions()) == 7
