"""Issue 24 for Big Foot and Footprints: their overlays call the base's extension points
instead of copying its lines, and a number a card could change is a quantity that a card's
static ability changes (Fireside Tales' fire card on fire_card_points)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.diagnostics import DefinitionError
from interpreter.scenarios import run_file

ROOT = Path(__file__).resolve().parents[1]
FOOTPRINTS = ROOT / "definitions" / "footprints"
FIRESIDE = "scenarios/fireside.yaml"
QUANTITY = """  fire_card_points:
    rule: score-fire-cards
    doc: "Scoring / Fire Cards: the points of each fire card left in player p's hand (params.fire_card_points)."
    params: [p]
    expr: params.fire_card_points
"""


def _outcomes(folder: Path) -> list:
    try:
        return run_file(folder / FIRESIDE)
    except DefinitionError as e:      # the game no longer loads with the overlay
        return [e]


def test_fireside_tale_changes_the_fire_card_points():
    outcomes = _outcomes(FOOTPRINTS)
    assert len(outcomes) == 4 and all(o.ok for o in outcomes), [o.failures for o in outcomes]


def test_fire_card_points_as_a_plain_function_fails_the_scenario(tmp_path):
    copy = tmp_path / "footprints"
    shutil.copytree(FOOTPRINTS, copy)
    game = copy / "game.yaml"
    text = game.read_text("utf-8")
    assert text.count(QUANTITY) == 1, "the quantity fire_card_points moved: update this test"
    # the same expression, but a function: no static ability can change it
    text = text.replace(QUANTITY, "").replace("\nfunctions:\n", "\nfunctions:\n" + QUANTITY, 1)
    game.write_text(text, "utf-8")
    outcomes = _outcomes(copy)
    assert not all(getattr(o, "ok", False) for o in outcomes)
