"""StoneFire's extension points: a creature's hunt value and tame value are quantities
(one creature at a time), so a card changes them with a static ability and no rule is
replaced. The Herd Caller of Hillfolk (an example expansion) changes both; its scenarios
pass only while both are quantities and its abilities count."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.diagnostics import DefinitionError
from interpreter.scenarios import run_file

ROOT = Path(__file__).resolve().parents[1]
STONEFIRE = ROOT / "definitions" / "stonefire"


def herd_caller(sc: dict) -> bool:
    return "Herd Caller" in sc["name"]


def copy_game(tmp_path: Path) -> Path:
    copy = tmp_path / "stonefire"
    shutil.copytree(STONEFIRE, copy)
    return copy


def test_herd_caller_scenarios_pass():
    outcomes = run_file(STONEFIRE / "scenarios" / "hillfolk.yaml", herd_caller)
    assert len(outcomes) == 3
    assert all(o.ok for o in outcomes), [o.failures for o in outcomes]


@pytest.mark.parametrize("name", ["hunt_value", "tame_value"])
def test_a_quantity_turned_back_into_a_function_refuses_the_card(tmp_path, name):
    copy = copy_game(tmp_path)
    game = copy / "game.yaml"
    text = game.read_text("utf-8")
    # the quantity's block: from its key to the next key at the same depth
    block = re.search(rf"^  {name}:\n(?:    .*\n)+", text, re.M).group(0)
    text = text.replace(block, "").replace("\nfunctions:\n", "\nfunctions:\n" + block, 1)
    game.write_text(text, "utf-8")
    with pytest.raises(DefinitionError, match=f"no quantity '{name}'"):
        run_file(copy / "scenarios" / "hillfolk.yaml", herd_caller)


@pytest.mark.parametrize("name", ["hunt_value", "tame_value"])
def test_without_its_static_ability_the_scenarios_fail(tmp_path, name):
    copy = copy_game(tmp_path)
    overlay = copy / "variants" / "hillfolk.yaml"
    text = overlay.read_text("utf-8")
    line = re.search(rf"^ +- \{{modifies: {name}, .*\n", text, re.M).group(0)
    overlay.write_text(text.replace(line, ""), "utf-8")
    outcomes = run_file(copy / "scenarios" / "hillfolk.yaml", herd_caller)
    failed = [o.name for o in outcomes if not o.ok]
    # the options and values checked, and the Hunt that fails / the taming that succeeds
    assert len(failed) == 2, failed
