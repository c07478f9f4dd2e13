"""Golden records (tests/golden/, written by tools/golden.py) replay to the same result and
final state: a silent rule change breaks one of them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.load.build import load_game
from interpreter.records import replay

ROOT = Path(__file__).resolve().parents[1]
RECORDS = sorted((ROOT / "tests" / "golden").glob("*.json"))


def test_every_game_has_golden_records():
    games = {p.name for p in (ROOT / "definitions").iterdir() if (p / "game.yaml").is_file()}
    covered = {json.loads(p.read_text())["game"] for p in RECORDS}
    assert games <= covered, f"no golden record for {sorted(games - covered)}: run tools/golden.py"


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record_replays(path):
    record = json.loads(path.read_text())
    game = load_game(ROOT / "definitions" / record["game"], record.get("variants", []))
    ok, why = replay(game, record)
    assert ok, f"{path.name}: {why} (if the rules changed on purpose, run tools/golden.py)"
