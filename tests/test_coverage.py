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


def test_broken_hand_limit_in_json_and_html(capsys, broken_copy, tmp_path):
    html = tmp_path / "cov.html"
    rc, out = run(capsys, "coverage", str(broken_copy), "--games", "0", "--json", "--html", str(html))
    assert rc == 0          # no --fail-under: the report alone
    page = html.read_text("utf-8")
    row = page[page.index("<b>discard-hand-limit</b>"):]
    row = row[:row.index("</tr>")]
    assert '<b class="fail">failing:</b> the played fire card is discarded' in row
    assert '<tr class="half"><td class="mark"></td><td><b>discard-hand-limit</b>' in page
    doc = json.loads(out)
    row = next(c for c in doc["clauses"] if c["id"] == "discard-hand-limit")
    assert row["tested"] is False
    assert row["tested_by"] and not any(t["ok"] for t in row["tested_by"])
    assert row["tested_by"][0]["failures"]
    assert doc["totals"]["all"]["percent"] < 100
    assert doc["totals"]["failed_scenarios"] >= 1


# ---- exercised, where the clause applies -------------------------------------------

@pytest.fixture(scope="module")
def footprints_played():
    """Footprints' coverage with 2 random games (3 players, no variant asked for)."""
    from interpreter.coverage import report
    from interpreter.load.build import build
    g, diags = build(FOOTPRINTS, [], trace=True)
    assert g is not None, diags
    rows, totals = report(g, FOOTPRINTS, [], 3, 2, 0)
    return {r.id: r for r in rows}, totals


def test_solo_clause_is_measured_in_solo_games(footprints_played):
    rows, _ = footprints_played
    # solo_outcome (solo-achievements) runs only when one player plays: 3-player games never reach it
    row = rows["solo-achievements"]
    assert (row.exercised, row.measured) == (2, "1 player")


def test_variant_clause_is_measured_with_its_variant(footprints_played):
    rows, _ = footprints_played
    row = rows["snake-layout"]
    assert row.measured == "3 players, --variant snake"
    assert row.exercised == 2
    assert rows["solo-snake-distance"].measured == "1 player, --variant snake"


def test_data_clause_is_not_measured_by_play(footprints_played):
    rows, _ = footprints_played
    for cid in ("components-map-tiles", "components-figures"):
        row = rows[cid]
        assert (row.exercised, row.measured) == (None, "n/a: data")
    # a clause a program carries is measured in the games asked for
    row = rows["discard-hand-limit"]
    assert row.measured == "" and row.exercised == 2


def test_unmeasured_clauses_say_so_in_text_and_totals(capsys, footprints_played):
    rows, totals = footprints_played
    data = [r for r in rows.values() if r.exercised is None]
    assert data and all(r.measured == "n/a: data" for r in data)
    assert totals["all"]["measured"] == len(rows) - len(data)
    rc, out = run(capsys, "coverage", "stonefire", "--games", "1")
    assert rc == 0
    [line] = [l for l in out.splitlines() if " solo-timer " in l]
    assert "  ran in 1/1 (1 player)" in line           # then where the clause stands
    [line] = [l for l in out.splitlines() if " contents-rage " in l]
    assert "  n/a: data" in line


def test_applies_names_a_real_variant_and_player_count(capsys, tmp_path):
    copy = tmp_path / "stonefire"
    shutil.copytree(ROOT / "definitions" / "stonefire", copy)
    rules = copy / "rules.yaml"
    text = rules.read_text("utf-8")
    good = "applies: {players: [2], variant: hard}"
    assert text.count(good) == 1
    rules.write_text(text.replace(good, "applies: {players: [7], variant: hardd}"), "utf-8")
    rc, out = run(capsys, "validate", str(copy))
    assert rc == 1
    assert "rules.yaml:239:" in out
    assert "applies: clause 'hard-mode-2p' names 7 players; the game is for 1 to 4" in out
    assert "applies: no variant 'hardd' (did you mean 'hard'?)" in out
