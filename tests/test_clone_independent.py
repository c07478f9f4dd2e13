"""A clone is independent of its original both ways: cloning at every decision and playing
the clone (and a clone of the clone) on with other random answers leaves the original
exactly as a game played without any clone, and the original playing on leaves every clone
as it was. Clones share place lists until one side changes one (engine/state.py): a write
path that skipped the copy, or a frame copy too shallow, fails here."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.engine.state import dumps
from interpreter.load.build import load_game
from interpreter.scenarios import setup_state

RELAY = Path(__file__).parent / "fixtures" / "relay"

GAMES = ["big-foot", "footprints", "stonefire", "fantastic-trails"]
DECISIONS = 40          # of the original, each with clones played on
CLONE_MOVES = 3         # decisions a clone plays on


def _step(state, r: random.Random) -> None:
    legal = state.legal_actions()
    state.apply_action(legal[r.randrange(len(legal))])


def _alone(g, seed: int, actions: list[int]) -> list[str]:
    """Returns the original's state text after each answer, played with no clone."""
    s = g.new_initial_state(None, seed, log=True)
    out = [dumps(s.d)]
    for a in actions:
        s.apply_action(a)
        out.append(dumps(s.d))
    return out


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", GAMES)
def test_clones_and_original_never_change_each_other(game, seed):
    g = load_game(game)
    s = g.new_initial_state(None, seed, log=True)
    mine, theirs = random.Random(seed), random.Random(seed + 1000)
    seen = [dumps(s.d)]
    kept: list[tuple[object, str]] = []      # clones played on, and their text then
    for _ in range(DECISIONS):
        if s.is_terminal():
            break
        c = s.clone()
        assert dumps(c.d) == seen[-1]
        cc = c.clone()                      # three states share the lists now
        for clone in (c, cc):
            for _k in range(CLONE_MOVES):
                if clone.is_terminal():
                    break
                _step(clone, theirs)
            kept.append((clone, dumps(clone.d)))
        assert dumps(s.d) == seen[-1], "playing a clone changed its original"
        _step(s, mine)
        seen.append(dumps(s.d))
    assert len(seen) > 10, f"{game} ended after {len(seen) - 1} decisions"
    assert seen == _alone(g, seed, s.d["actions"]), "cloning changed the original's game"
    for clone, text in kept:
        assert dumps(clone.d) == text, "the original playing on changed a clone"


def test_a_shuffle_of_a_shared_place_leaves_the_other_state_alone():
    """The shipped games shuffle a deck just after moving cards into it (so the list is the
    state's own by then): here a deck untouched since the copy is shuffled, by the clone
    twice and by the original once."""
    g = load_game(RELAY)
    start = ('let c = choose([1, 2], player=0)\nfor i in range(c) {\n  shuffle("deck")\n}\n'
             'let e = choose([1, 2], player=0)')

    def fresh():
        return setup_state(g, {"name": "shuffle", "players": 1, "start": start})

    alone, s = fresh(), fresh()
    alone.apply_action(0)
    c = s.clone()
    c.apply_action(1)
    s.apply_action(0)
    assert dumps(s.d) == dumps(alone.d)
    assert c.d["places"]["deck"] != s.d["places"]["deck"]


def test_a_copy_checks_what_waits_once_a_decision(monkeypatch):
    """A copy ends a game whose waiting values cannot be saved (as serialize does), and the
    check runs once a decision: copying again at the same decision skips it, answering
    brings it back."""
    g = load_game(RELAY)
    doubling = "let l = [1]\nfor i in range(40) {\n  l = [l, l]\n}\nlet c = choose([1, 2], player=0)"
    bad = setup_state(g, {"name": "doubling", "players": 1, "start": doubling})
    assert not bad.is_terminal()
    copy = bad.clone()
    assert bad.is_terminal() and "cannot wait for a decision" in bad.d["result"]["aborted"]
    assert dumps(copy.d) == dumps(bad.d)

    from interpreter.engine import game as game_module
    calls = []
    check = game_module.check_waiting
    monkeypatch.setattr(game_module, "check_waiting", lambda g, d: calls.append(1) or check(g, d))
    s = setup_state(g, {"name": "twice", "players": 1,
                        "start": "let c = choose([1, 2], player=0)\nlet e = choose([1, 2], player=0)"})
    c = s.clone()
    s.clone()
    c.clone()                      # a copy of what was checked
    assert len(calls) == 1
    s.apply_action(0)
    s.clone()
    assert len(calls) == 2
