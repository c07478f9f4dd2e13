"""`cairn coverage`: a clause counts as tested only when a scenario citing it passes now,
its random-play measure is taken where the clause applies, and data clauses say so."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
FOOTPRINTS = ROOT / "definitions" / "footprints"
LIMIT = "fire_hand_limit: {value: 3, rule: discard-hand-limit}"


def run(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out


@pytest.fixture(scope="module")
def broken_copy(tmp_path_factory) -> Path:
    """A copy of Footprints whose fire hand limit is 4 instead of the rulebook's 3."""
    copy = tmp_path_factory.mktemp("fp") / "footprints"
    shutil.copytree(FOOTPRINTS, copy)
    game = copy / "game.yaml"
    text = game.read_text("utf-8")
    assert text.count(LIMIT) == 1, "the fire hand limit moved: update this test"
    game.write_text(text.replace(LIMIT, LIMIT.replace("value: 3", "value: 4")), "utf-8")
    return copy


def test_unbroken_copy_is_fully_tested(capsys, tmp_path):
    copy = tmp_path / "footprints"
    shutil.copytree(FOOTPRINTS, copy)
    rc, out = run(capsys, "coverage", str(copy), "--games", "0", "--fail-under", "100")
    assert rc == 0, out
    assert "failing scenario" not in out


def test_broken_hand_limit_fails_coverage_and_names_the_clause(capsys, broken_copy):
    rc, out = run(capsys, "coverage", str(broken_copy), "--games", "0", "--fail-under", "100")
    assert rc == 1
    [line] = [l for l in out.splitlines() if re.match(r"^-- discard-hand-limit ", l)]
    assert "tested  0" in line
    assert "failing scenario: the played fire card is discarded and the hand kept to 3" in out


def test_broken_hand_limit_in_json(capsys, broken_copy):
    rc, out = run(capsys, "coverage", str(broken_copy), "--games", "0", "--json")
    assert rc == 0          # no --fail-under: the report alone
    doc = json.loads(out)
    row = next(c for c in doc["clauses"] if c["id"] == "discard-hand-limit")
    assert row["tested"] is False
    assert row["tested_by"] and not any(t["ok"] for t in row["tested_by"])
    assert row["tested_by"][0]["failures"]
    assert doc["totals"]["all"]["percent"] < 100
    assert doc["totals"]["failed_scenarios"] >= 1
