"""`cairn mutate`: each parameter changed by one (or flipped) in a copy of the game, the
scenarios citing its clauses run against it; a mutant no scenario notices is reported."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.mutate import Mutant, apply, mutants

ROOT = Path(__file__).resolve().parents[1]
FOOTPRINTS = ROOT / "definitions" / "footprints"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def test_the_fire_hand_limit_mutants_are_killed(capsys):
    rc, out, _ = run(capsys, "mutate", "footprints", "--clause", "discard-hand-limit", "--json")
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
    rc, out, _ = run(capsys, "mutate", str(copy), "--clause", "solo-win", "--jobs", "1")
    assert rc == 0
    assert "-- solo-win                     mutants  2  killed  1  survived 1" in out
    assert "     survived: game.yaml:81: solo_target 80 -> 79" in out
    assert out.rstrip().endswith("1 of 2 parameter mutants killed or invalid (50.0%)")
    # with it, both mutants are killed
    rc, out, _ = run(capsys, "mutate", "footprints", "--clause", "solo-win")
    assert "ok solo-win                     mutants  2  killed  2  survived 0" in out


def test_every_number_and_flag_parameter_is_mutated():
    found = {m.param for m in mutants(FOOTPRINTS)}
    assert {"fire_hand_limit", "snake", "open_footprint_points", "cave_tiles[4 players]"} <= found
    assert "map_tiles" not in found                    # a list is not mutated (yet)


def test_a_mutant_checks_the_text_it_changes(tmp_path):
    (tmp_path / "game.yaml").write_text("params:\n  limit: {value: 3}\n", "utf-8")
    apply(Mutant("limit", "game.yaml", 2, 18, "3", "4", ()), tmp_path)
    assert (tmp_path / "game.yaml").read_text("utf-8") == "params:\n  limit: {value: 4}\n"
    with pytest.raises(ValueError, match="expected 3, found '4}'"):
        apply(Mutant("limit", "game.yaml", 2, 18, "3", "2", ()), tmp_path)


def test_unknown_clause_is_a_usage_error(capsys):
    rc, _out, err = run(capsys, "mutate", "footprints", "--clause", "solo-wn")
    assert rc == 2 and "no such clause" in err and "solo-win" in err
