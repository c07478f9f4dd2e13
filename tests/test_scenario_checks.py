"""Scenarios that cannot mislead: a position written twice is an error, a part's end is not
the game's, options compare as a set on request, a log line can be asserted absent, a
check that sees nothing fails, and docs/FORMAT.md lists every check the runner knows."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.load.build import load_game
from interpreter.scenario_checks import CHECKS, MODIFIERS
from interpreter.scenarios import run_one, static_problems

ROOT = Path(__file__).resolve().parents[1]

# Big Foot: red token 1 on a5 rolls 2; the turn offers a3, g1 (blue: a card is drawn, the
# turn ends) and a7 (double: Big Foot moves next).
TURN = {"name": "t", "rule": "To Play 3", "players": 2,
        "given": {"places": {"a5": ["red.1"]}, "attrs": {"red.1": {"owner": 0}}, "dice": [2]},
        "start": {"part": "turn", "player": 0}}


def outcome(g, **then_or_given):
    sc = json.loads(json.dumps(TURN))
    for key, value in then_or_given.items():
        sc[key] = value if key != "given" else {**sc["given"], **value}
    return run_one(g, sc, "here")


@pytest.fixture(scope="module")
def ttt():
    return load_game(ROOT / "definitions" / "tic-tac-toe")


# ---- one object, one place ---------------------------------------------------------

def test_an_object_placed_twice_is_an_error(big_foot):
    out = outcome(big_foot, given={"places": {"a5": ["red.1"], "a3": ["red.1"]}},
                  then=['place_of("red.1") == "a3"'])
    assert not out.ok
    assert out.failures == ["given: given.places: 'red.1' is placed at 'a5' and again at 'a3': an object is in one place"]


def test_validate_names_the_second_placement(tmp_path):
    path = tmp_path / "scenarios" / "twice.yaml"
    path.parent.mkdir()
    path.write_text("game: big-foot\nscenarios:\n  - name: twice\n    rule: spot-b-pursues\n    players: 2\n"
                    "    given:\n      places: {a5: [red.1], a3: [green.1, red.1]}\n", "utf-8")
    found = static_problems(path)
    assert len(found) == 1, found
    [d] = found
    assert (d.line, d.column) == (7, 43)
    assert d.message == "'red.1' is placed at 'a5' and again at 'a3': an object is in one place"


# ---- a part's end is not the game's ------------------------------------------------

def test_a_part_run_to_its_end_leaves_the_game_going(big_foot):
    out = outcome(big_foot, when=["a3 (blue)"], then=[{"terminal": False, "part_ended": True}, 'place_of("red.1") == "a3"'])
    assert out.ok, out.failures
    out = outcome(big_foot, when=["a3 (blue)"], then=[{"terminal": True}])
    assert out.failures == ["terminal: expected True, got False"]


def test_part_ended_is_false_while_a_decision_waits(big_foot):
    out = outcome(big_foot, then=[{"part_ended": True}])
    assert len(out.failures) == 1 and out.failures[0].startswith("part_ended: expected True, got False (")


def test_a_part_that_ends_the_game_by_the_rules_is_terminal(ttt):
    sc = {"name": "w", "rule": "win-line", "players": 2, "start": {"part": "turn", "player": 0},
          "given": {"places": {"c1": ["x.1"], "c2": ["x.2"], "supply/0": ["x.3"]}},
          "when": ["cell 3"], "then": [{"terminal": True, "winners": [0], "part_ended": True}]}
    out = run_one(ttt, sc, "here")
    assert out.ok, out.failures


def test_the_whole_game_still_ends_when_its_flow_runs_out(big_foot):
    # no start: the whole game runs; a scenario of the whole game is unchanged
    sc = {"name": "g", "rule": "To Play 3", "players": 2, "then": [{"terminal": False}]}
    assert run_one(big_foot, sc, "here").ok


def test_steps_after_the_part_ended_fail_clearly(big_foot):
    out = outcome(big_foot, when=["a3 (blue)", "a7 (double)"])
    assert out.failures == ["the part started ran to its end before step 'a7 (double)'"]


# ---- options as a set, a log line absent, nothing to check --------------------------

def test_options_as_a_set(big_foot):
    labels = ["a3 (blue)", "g1 (blue)", "a7 (double)"]
    assert outcome(big_foot, then=[{"options": labels}]).ok
    assert outcome(big_foot, then=[{"options_set": labels[::-1]}]).ok
    assert not outcome(big_foot, then=[{"options": labels[::-1]}]).ok     # the ordered check keeps its order
    out = outcome(big_foot, then=[{"options_set": ["a7 (double)", "a3 (blue)"]}])
    assert out.failures == ["options_set: expected ['a3 (blue)', 'a7 (double)'], got ['a3 (blue)', 'a7 (double)', "
                            "'g1 (blue)']; not expected ['g1 (blue)']"]
    out = outcome(big_foot, then=[{"options_set": labels + ["b1"]}])
    assert out.failures[0].endswith("; missing ['b1']")
    out = outcome(big_foot, then=[{"options_set": ["b1", "b1"]}])
    assert out.failures == ["options_set: ['b1', 'b1'] names an option twice"]
    out = outcome(big_foot, when=["a3 (blue)"], then=[{"options_set": []}])
    assert out.failures == ["options_set: expected [], but no decision is pending"]


def test_a_log_line_asserted_absent(big_foot):
    line = "moves red token 1 from a5 (blue) to a3 (blue)"
    assert outcome(big_foot, when=["a3 (blue)"], then=[{"log": line}]).ok
    out = outcome(big_foot, when=["a3 (blue)"], then=[{"no_log": line}])
    assert out.failures == [f"no_log: a line contains {line!r}: 'Player 1 {line}'"]
    assert outcome(big_foot, when=["a3 (blue)"], then=[{"no_log": "to a7"}]).ok
    # the part's end writes no "game over" line: no game ended
    assert outcome(big_foot, when=["a3 (blue)"], then=[{"no_log": "game over"}]).ok


def test_illegal_with_no_decision_pending_fails(big_foot):
    assert outcome(big_foot, then=[{"illegal": "a5"}]).ok
    out = outcome(big_foot, when=["a3 (blue)"], then=[{"illegal": "a5"}])
    assert out.failures == ["illegal: 'a5' cannot be checked: no decision is pending"]


# ---- every check documented and in the schema ---------------------------------------

def test_every_check_is_documented_and_in_the_schema():
    schema = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text("utf-8"))
    then = schema["properties"]["scenarios"]["items"]["properties"]["then"]["items"]["anyOf"]
    in_schema = set(next(b for b in then if b.get("type") == "object")["properties"])
    known = set(CHECKS) | set(MODIFIERS)
    assert in_schema == known
    doc = (ROOT / "docs" / "FORMAT.md").read_text("utf-8")
    section = doc[doc.index("## Scenarios"):]
    section = section[:section.index("\n## ", 5)] if "\n## " in section[5:] else section
    documented = set(re.findall(r"[{,] ?([a-z_]+):", section[section.index("    then:"):]))
    assert known <= documented, f"not in docs/FORMAT.md: {sorted(known - documented)}"
