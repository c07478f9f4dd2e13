"""Runs every rule scenario found under definitions/*/scenarios/*.yaml, one test each."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.build import load_game
from interpreter.scenarios import run_one, scenario_files
from interpreter.load.files import read_part, display_path

ROOT = Path(__file__).resolve().parents[1]


def _cases():
    for folder in sorted((ROOT / "definitions").iterdir()):
        for path in scenario_files(folder):
            loaded, problems = read_part(path, display_path(path), "scenario")
            if loaded is None:
                yield pytest.param(path, None, None, id=f"{path.name}:unreadable")
                continue
            for i, sc in enumerate(loaded.data["scenarios"]):
                yield pytest.param(folder, loaded, i, id=f"{folder.name}:{sc['name']}")


_GAMES: dict = {}


@pytest.mark.parametrize("folder,loaded,index", list(_cases()))
def test_scenario(folder, loaded, index):
    assert loaded is not None, f"scenario file {folder} does not load"
    data = loaded.data
    sc = data["scenarios"][index]
    # an overlay file is named relative to the scenario file (folder/scenarios), as the runner reads it
    variants = tuple(str(folder / "scenarios" / v) if v.endswith((".yaml", ".yml")) else v
                     for v in tuple(data.get("variants", [])) + tuple(sc.get("variants", [])))
    key = (str(folder), variants)
    if key not in _GAMES:
        _GAMES[key] = load_game(folder, list(variants))
    pos = loaded.pos(("scenarios", index))
    outcome = run_one(_GAMES[key], sc, f"{loaded.file}:{pos.line}:{pos.column}")
    assert outcome.ok, f"{outcome.where} [{outcome.rule}]\n  " + "\n  ".join(outcome.failures)


def test_every_game_has_scenarios():
    games = [p for p in (ROOT / "definitions").iterdir() if (p / "game.yaml").is_file()]
    assert games
    for g in games:
        assert scenario_files(g), f"{g.name} has no rule scenarios"


def test_a_wrong_expectation_fails(big_foot):
    """The runner must be able to fail: the same position with a false fact."""
    sc = {"name": "wrong", "rule": "To Play 3", "players": 2,
          "given": {"places": {"a5": ["red.1"]}, "attrs": {"red.1": {"owner": 0}}, "dice": [2]},
          "start": {"part": "turn", "player": 0}, "then": [{"options": ["a3", "a7"]}, 'place_of("red.1") == "a4"']}
    outcome = run_one(big_foot, sc, "here")
    assert not outcome.ok
    assert len(outcome.failures) == 2
