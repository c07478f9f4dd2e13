"""`cairn mutate`: each parameter changed by one (or flipped) in a copy of the game, the
scenarios citing its clauses run against it; a mutant no scenario notices is reported."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.mutate import Mutant, Plan, apply, mutants, run as run_mutants, score

ROOT = Path(__file__).resolve().parents[1]
FOOTPRINTS = ROOT / "definitions" / "footprints"
TTT = ROOT / "definitions" / "tic-tac-toe"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def test_the_fire_hand_limit_mutants_are_killed(capsys):
    rc, out, _ = run(capsys, "mutate", "footprints", "--clause", "discard-hand-limit", "--params-only", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert [v["change"] for v in doc["verdicts"]] == ["game.yaml:71: fire_hand_limit 3 -> 4",
                                                      "game.yaml:71: fire_hand_limit 3 -> 2"]
    assert all(v["verdict"] == "killed" for v in doc["verdicts"])
    assert "the played fire card is discarded and the hand kept to 3" in doc["verdicts"][0]["killed_by"]
    assert doc["score"] == 100.0


THRESHOLD = """- name: 'solo: 80 is the lowest winning score, 79 loses'
  rule: [solo-win]
  players: 1
  start: 'log("the solo threshold")'
  then: ['solo_outcome(80, 0) == "won: " + achievement(80)', 'solo_outcome(79, 0) == "lost: " + achievement(79)']
"""


def test_a_survivor_is_reported_with_its_change(capsys, tmp_path):
    # without the threshold scenario nothing tests a solo score of exactly 79: 80 -> 79 survives
    copy = tmp_path / "footprints"
    shutil.copytree(FOOTPRINTS, copy)
    end = copy / "scenarios" / "end.yaml"
    text = end.read_text("utf-8")
    assert text.count(THRESHOLD) == 1
    end.write_text(text.replace(THRESHOLD, ""), "utf-8")
    rc, out, _ = run(capsys, "mutate", str(copy), "--clause", "solo-win", "--jobs", "1", "--params-only",
                     "--games", "0")
    assert rc == 0
    assert "-- solo-win                     mutants  2  killed  1  survived 1" in out
    assert "     survived: game.yaml:81: solo_target 80 -> 79" in out
    assert out.rstrip().endswith("score: 50.0% (1 killed of 2: made less invalid, equivalent and unreachable)")
    # with it, both mutants are killed
    rc, out, _ = run(capsys, "mutate", "footprints", "--clause", "solo-win", "--params-only", "--games", "0")
    assert "ok solo-win                     mutants  2  killed  2  survived 0" in out


def test_every_number_and_flag_parameter_is_mutated():
    found = {m.param for m in mutants(FOOTPRINTS)}
    assert {"fire_hand_limit", "snake", "open_footprint_points", "cave_tiles[4 players]"} <= found
    assert "map_tiles" not in found                    # a list is not mutated (yet)


def test_a_mutant_checks_the_text_it_changes(tmp_path):
    (tmp_path / "game.yaml").write_text("params:\n  limit: {value: 3}\n", "utf-8")
    apply(Mutant("limit", "game.yaml", 2, 18, "3", "4", ()), tmp_path)
    assert (tmp_path / "game.yaml").read_text("utf-8") == "params:\n  limit: {value: 4}\n"
    with pytest.raises(ValueError, match="expected 3, found '4}"):
        apply(Mutant("limit", "game.yaml", 2, 18, "3", "2", ()), tmp_path)


def test_unknown_clause_is_a_usage_error(capsys):
    rc, _out, err = run(capsys, "mutate", "footprints", "--clause", "solo-wn")
    assert rc == 2 and "no such clause" in err and "solo-win" in err


def ttt_mutant(change: str) -> Mutant:
    return next(m for m in mutants(TTT) if m.change == change)


def test_killed_survived_and_equivalent_mutants():
    # a free cell that is taken: the scenario "a marked cell is not free" fails
    killed = ttt_mutant("game.yaml:30: function free: compare == -> !=")
    # the winner no longer written: no scenario citing turn-mark looks, but play differs (scores)
    survived = ttt_mutant("game.yaml:51: procedure mark: statement game.winner = p -> (removed)")
    # a log line left out: no decision, result or state differs over the seeded games
    same = ttt_mutant('game.yaml:49: procedure mark: statement log("{player_name(p)} marks {s}") -> (removed)')
    verdicts = run_mutants(TTT, [killed, survived, same], jobs=1, plan=Plan(games=8))
    assert [v["verdict"] for v in verdicts] == ["killed", "survived", "equivalent"]
    assert verdicts[0]["killed_by"] == ["X plays first, on any of the nine cells", "a marked cell is not free"]
    assert verdicts[1]["scenarios"] == 2 and verdicts[1]["killed_by"] == []
    assert score(verdicts) == {"mutants": 3, "killed": 1, "invalid": 0, "survived": 1, "equivalent": 1,
                               "unreachable": 0, "counted": 2, "score": 50.0}
    # without the seeded games there is no telling: the log mutant is a survivor
    assert run_mutants(TTT, [same], jobs=1, plan=Plan(games=0))[0]["verdict"] == "survived"


NEVER = """      log("{player_name(p)} marks {s}")
      if size(s) > 5 {
        game.winner = p
      }
"""


def test_a_condition_no_game_reaches_is_unreachable(tmp_path, capsys):
    # a branch no position can fire (a cell never holds six marks): forcing it off plays the same
    copy = tmp_path / "tic-tac-toe"
    shutil.copytree(TTT, copy)
    game = copy / "game.yaml"
    text = game.read_text("utf-8")
    game.write_text(text.replace(NEVER.split("\n")[0] + "\n", NEVER), "utf-8")
    m = next(m for m in mutants(copy) if m.change == "game.yaml:50: procedure mark: condition size(s) > 5 -> false")
    assert run_mutants(copy, [m], jobs=1, plan=Plan(games=8))[0]["verdict"] == "unreachable"
    rc, out, _ = run(capsys, "mutate", str(copy), "--clause", "turn-mark", "--games", "8", "--jobs", "1")
    assert rc == 0
    assert "unreachable: procedure mark (clauses turn-mark): dropping it changes no play in 8 seeded games" in out
    assert "     game.yaml:50: procedure mark: condition size(s) > 5 -> false" in out


def test_the_json_report(capsys):
    rc, out, _ = run(capsys, "mutate", "tic-tac-toe", "--clause", "setup-marks", "--games", "4", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert set(doc) == {"game", "variants", "candidates", "seed", "games", "mutants", "killed", "invalid", "survived",
                        "equivalent", "unreachable", "counted", "score", "verdicts", "clauses", "unreachable_rules"}
    assert (doc["game"], doc["mutants"], doc["candidates"], doc["killed"], doc["survived"]) == ("tic-tac-toe", 2, 2, 0, 2)
    assert doc["score"] == 0.0 and doc["unreachable_rules"] == []
    v = doc["verdicts"][1]
    assert v == {"change": "game.yaml:62: step deal: statement move(t, zone(\"supply\", t.side)) -> (removed)",
                 "op": "statement", "rule": "step deal", "clauses": ["setup-marks"], "killed_by": [],
                 "scenarios": 1, "verdict": "survived"}
    assert doc["clauses"]["setup-marks"]["mutants"] == 2 and len(doc["clauses"]["setup-marks"]["survived"]) == 2


def test_the_mutants_run_on_dask_alike(capsys):
    pytest.importorskip("distributed")
    args = ("mutate", "tic-tac-toe", "--clause", "turn-order", "--games", "0", "--jobs", "1", "--json")
    here = json.loads(run(capsys, *args)[1])
    dask = json.loads(run(capsys, *args, "--scheduler", "local")[1])
    assert dask["verdicts"] == here["verdicts"] and here["killed"] == 1


def test_limits_and_scheduler_are_checked(capsys):
    assert run(capsys, "mutate", "tic-tac-toe", "--limit", "0")[0] == 2
    rc, _out, err = run(capsys, "mutate", "tic-tac-toe", "--scheduler", "nowhere")
    assert rc == 2 and "--scheduler" in err


def test_a_mutant_of_a_solo_clause_is_played_solo():
    from interpreter.mutate import players_for
    clauses = {"solo": {"applies": {"players": [1]}}, "any": {}, "two": {"applies": {"players": [2, 4]}}}
    m = Mutant("x", "game.yaml", 1, 1, "1", "2", ("solo",))
    assert players_for(m, clauses, 3) == 1
    assert players_for(Mutant("x", "game.yaml", 1, 1, "1", "2", ("solo", "any")), clauses, 3) == 3
    assert players_for(Mutant("x", "game.yaml", 1, 1, "1", "2", ("two",)), clauses, 3) == 2
    assert players_for(Mutant("x", "game.yaml", 1, 1, "1", "2", ("two",)), clauses, 4) == 4
