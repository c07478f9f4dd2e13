"""Hostile rules: each one ends the game as a clean, logged abort naming the rule, quickly,
however much work or memory it asks for, and every state that is reached still saves."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from interpreter.engine.game import deserialize
from interpreter.load.build import load_game
from interpreter.scenarios import setup_state

RELAY = Path(__file__).parent / "fixtures" / "relay"


@pytest.fixture(scope="module")
def relay():
    return load_game(RELAY)


RUNAWAY = {
    "nested comprehensions": ("let n = len([len([0 for y in range(100000)]) for x in range(100000)])",
                              "work budget"),
    "squaring forever": ("let x = 2\nwhile true {\n  x = x * x\n}", "beyond"),
    "doubling text": ('let s = "ab"\nwhile true {\n  s = s + s\n}', "more than 100000 items"),
    "doubling text with +=": ('let s = "ab"\nwhile true {\n  s += s\n}', "more than 100000 items"),
    "drawing a billion cards in a circle": ('draw("deck", "discard", n=1000000000, refill_from="discard")',
                                            "work budget"),
    "a huge grid drawing": ('let t = grid_text([[100000000, 100000000, "x"]])', "the limit is 100000 cells"),
    "a record with a number key": ("let k = 1\nlet r = put(record(), k, 2)", "keys are text"),
    "a doubling list in a game variable": ("for i in range(40) {\n  game.votes = [game.votes, game.votes]\n}",
                                           "cannot keep"),
    "a list nested 5000 deep": ("let l = []\nfor i in range(5000) {\n  l = [l]\n}\n"
                                "let c = choose([1, 2], player=0)", "nested more than 32 deep"),
    "a doubling local kept over a decision": ("let l = [1]\nfor i in range(40) {\n  l = [l, l]\n}\n"
                                              "let c = choose([1, 2], player=0)", "cannot wait for a decision"),
    "a long path search": ('let n = len(range(99999)) + len(range(99999)) + len(range(99999))\n'
                           'for i in range(100) {\n  let k = len(range(99999))\n}', "work budget"),
}


@pytest.mark.parametrize("name", list(RUNAWAY))
def test_runaway_rule_is_a_quick_clean_abort(relay, name):
    text, reason = RUNAWAY[name]
    start = time.process_time()
    state = setup_state(relay, {"name": name, "players": 1, "start": text})
    saved = state.serialize()          # a value that cannot be saved is found here at the latest
    spent = time.process_time() - start
    result = state.d["result"]
    assert state.is_terminal() and result["reason"] == "aborted", result
    assert reason in result["aborted"], result["aborted"]
    assert result["aborted"].startswith("scenario:"), result["aborted"]   # where: the rule's own text
    # well under a second on an idle machine; the bound leaves room for a loaded one
    assert spent < 2.0, f"{name} took {spent:.2f} s"
    back = deserialize(relay, saved)
    assert back.serialize() == saved == state.clone().serialize()
