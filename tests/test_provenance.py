"""Provenance that works: `manifest --by provenance` breaks each game's box down by where
its content comes from, and coverage marks the clauses resting on reconstructed content.
The counts are checked against a count made here straight from the YAML files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("footprints", "stonefire", "fantastic-trails", "big-foot")


def run(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out


def yaml_box(game: str) -> dict[str, int]:
    """Returns {provenance kind: objects} counted from components.yaml and cards.yaml alone:
    plain entries and group entries over their defaults, `count` copies each, icons
    printed on other components left out (they are not in the box)."""
    out: dict[str, int] = {}
    for name in ("components.yaml", "cards.yaml"):
        data = yaml.safe_load((ROOT / "definitions" / game / name).read_text("utf-8"))
        entries = list(data.get("components", [])) + list(data.get("cards", []))
        for group in data.get("groups", []):
            entries += [{**group["defaults"], **e} for e in group["entries"]]
        for e in entries:
            if not e.get("printed"):
                kind = e["provenance"]["kind"]
                out[kind] = out.get(kind, 0) + e.get("count", 1)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_manifest_by_provenance_matches_the_yaml(capsys, game):
    rc, out = run(capsys, "manifest", game, "--by", "provenance", "--json")
    assert rc == 0
    doc = json.loads(out)
    expected = yaml_box(game)
    assert expected.get("reconstructed", 0) > 0
    assert doc["provenance"]["box"] == expected
    by_kind = doc["by"]["provenance"]
    assert sum(n for row in by_kind.values() for n in row.values()) == sum(doc["components"].values())
    rc, text = run(capsys, "manifest", game, "--by", "provenance")
    assert f"reconstructed {expected['reconstructed']}" in text
    assert "  provenance=reconstructed" in text


def test_board_provenance(capsys):
    rc, out = run(capsys, "manifest", "footprints", "--by", "provenance", "--json")
    board = json.loads(out)["provenance"]["board"]
    data = yaml.safe_load((ROOT / "definitions" / "footprints" / "board.yaml").read_text("utf-8"))
    assert board["provenance"] == data["board"]["provenance"]["kind"] == "reconstructed"
    assert board["spaces"] > 0


def test_example_expansion_is_invented(capsys):
    rc, out = run(capsys, "manifest", "footprints", "--variant", "firekeepers", "--by", "provenance", "--json")
    box = json.loads(out)["provenance"]["box"]
    assert box["invented"] == 8            # the Firekeeper leader (one per clan deck) and 2 fire cards
    assert box["reconstructed"] == yaml_box("footprints")["reconstructed"]


def test_coverage_marks_clauses_resting_on_reconstructed_content(capsys):
    rc, out = run(capsys, "coverage", "footprints", "--variant", "firekeepers", "--games", "0", "--json")
    assert rc == 0
    rows = {c["id"]: c for c in json.loads(out)["clauses"]}
    # the clan cards are reconstructed (the rulebook prints none), the resource tokens printed
    assert "card horse-f06" in rows["components-clan-cards"]["rests_on"]["reconstructed"]
    assert rows["components-resource-tokens"]["rests_on"] == {}
    assert rows["torch"]["rests_on"] == {"invented": ["card fire-torch"]}
    assert rows["torch"]["origin"] == "invented: firekeepers"
    assert rows["components-clan-cards"]["origin"] == "rulebook"
    doc = json.loads(out)
    assert doc["totals"]["invented"]["clauses"] == sum(1 for r in rows.values() if r["origin"] != "rulebook") > 0
    assert doc["totals"]["rulebook"]["clauses"] + doc["totals"]["invented"]["clauses"] == len(rows)
