"""Fantastic Trails' ant cap is an extension point: the quantity `ant_cap`, which a static
ability of a card changes (the Stag beetle's horns, variants/stag-beetle.yaml), and play
changes with it. Turned back into a fixed property (a plain function reading the score
card), or with the ability taken off the card, the scenarios of the horns fail."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.diagnostics import DefinitionError
from interpreter.scenarios import run_file

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "definitions" / "fantastic-trails"
QUANTITY = """  ant_cap:
    rule: [reward-cap, components-score-cards]"""
HORNS = """          modifies: ant_cap
          add: params.beetle_ant_spaces
"""


def _horns(folder: Path) -> list:
    """The outcomes of the horns' scenarios of a copy of the game (or of the game itself)."""
    return run_file(folder / "scenarios" / "stag-beetle.yaml", select=lambda sc: sc["rule"] == "beetle-horns")


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "fantastic-trails"
    shutil.copytree(GAME, folder)
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{path.name} no longer holds {old!r}"
    path.write_text(text.replace(old, new), "utf-8")


def test_the_horns_raise_the_cap_and_play_changes():
    outcomes = _horns(GAME)
    assert len(outcomes) == 3
    assert all(o.ok for o in outcomes), [(o.name, o.failures) for o in outcomes]


def test_a_fixed_cap_fails_the_scenarios(tmp_path):
    folder = _copy(tmp_path)
    game = folder / "game.yaml"
    # ant_cap leaves quantities: a plain function reading the score card's printed spaces.
    text = game.read_text("utf-8")
    start = text.index(QUANTITY)
    end = text.index("\n  honey_cap:", start)
    block = text[start:end + 1]
    text = text[:start] + text[end + 1:]
    text = text.replace("\nfunctions:\n", "\nfunctions:\n" + block, 1)
    game.write_text(text, "utf-8")
    try:
        outcomes = _horns(folder)
    except DefinitionError as err:   # the beetle's ability names no quantity now
        assert "ant_cap" in str(err.diagnostics[0].message)
        return
    assert not all(o.ok for o in outcomes)


def test_without_the_ability_the_scenarios_fail(tmp_path):
    folder = _copy(tmp_path)
    overlay = folder / "variants" / "stag-beetle.yaml"
    _edit(overlay, HORNS, "          modifies: ant_cap\n          add: 0\n")
    outcomes = {o.name: o for o in _horns(folder)}
    assert not outcomes["stag beetle - its horns hold 2 worker ants beyond the score card's spaces"].ok
    assert not outcomes["stag beetle - a worker ant circled beyond the printed spaces"].ok
    assert outcomes["stag beetle - out of the game, the score card's spaces are the cap"].ok
