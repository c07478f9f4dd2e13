"""The readings the audits doubted (issue 25, item 6), settled as data: each is a reading in
rules.yaml whose `why` points at the rulebook's lines, played by a parameter whose default is
the reading chosen; an overlay in variants/ plays the other one. Every scenario of
scenarios/readings.yaml passes, and fails when run under the other value of its parameter,
so the parameter really changes play and each reading is tested by a scenario of its own.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from interpreter.load.build import load_game
from interpreter.scenarios import run_file, run_one

ROOT = Path(__file__).resolve().parents[1]

# game -> reading id -> (the overlay of the other reading, the parameter it sets)
OPTIONS = {
    "footprints": {
        "build-own-space-bonus": ("build-own-space-occupied.yaml", "build_bonus_own_space"),
    },
    "stonefire": {
        "counts-as-ranged-is-ranged": ("counted-ranged-not-a-member.yaml", "counted_ranged_meets_need"),
        "quest-counts-in-village": ("quest-apart-from-village.yaml", "quest_in_village_tiebreak"),
        "clan-powers-any-moment": ("clan-powers-before-hunt-only.yaml", "clan_powers_any_phase"),
    },
    "fantastic-trails": {
        "tasks-printed-numbers": ("tasks-written-numbers-only.yaml", "printed_numbers_fill_tasks"),
    },
}
_GAMES: dict[tuple, object] = {}


def _game(name: str, overlays: tuple[str, ...] = ()):
    key = (name, overlays)
    if key not in _GAMES:
        _GAMES[key] = load_game(ROOT / "definitions" / name, list(overlays))
    return _GAMES[key]


def _scenarios(name: str) -> list[dict]:
    path = ROOT / "definitions" / name / "scenarios" / "readings.yaml"
    return yaml.safe_load(path.read_text("utf-8"))["scenarios"]


def _reading_of(sc: dict, name: str) -> str:
    """The reading a scenario is about: its name starts with `reading <id>`."""
    m = re.match(r"reading ([a-z0-9-]+)", sc["name"])
    assert m and m.group(1) in OPTIONS[name], f"{sc['name']!r} names no reading of {sorted(OPTIONS[name])}"
    return m.group(1)


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_every_readings_scenario_passes(name):
    path = ROOT / "definitions" / name / "scenarios" / "readings.yaml"
    outcomes = run_file(path)
    assert outcomes and all(o.ok for o in outcomes), [(o.name, o.failures) for o in outcomes if not o.ok]


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_each_scenario_fails_under_the_other_reading(name):
    folder = ROOT / "definitions" / name / "scenarios"
    seen: dict[str, set[str]] = {r: set() for r in OPTIONS[name]}
    for sc in _scenarios(name):
        reading = _reading_of(sc, name)
        overlay = OPTIONS[name][reading][0].removesuffix(".yaml")    # a variant of the game
        if sc.get("variants") == [overlay]:
            other, kind = (), "option"          # the other reading's scenario, run on the default
        else:
            assert "variants" not in sc, sc["name"]
            other, kind = (overlay,), "default"
        seen[reading].add(kind)
        flipped = {k: v for k, v in sc.items() if k != "variants"}
        outcome = run_one(_game(name, other), flipped, f"{name}: {sc['name']}")
        assert not outcome.ok, f"{sc['name']!r} passes under the other reading too"
    assert all(kinds == {"default", "option"} for kinds in seen.values()), seen


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_each_option_is_a_documented_parameter_and_a_reading_with_its_lines(name):
    folder = ROOT / "definitions" / name
    base = _game(name)
    readings = {r["id"]: r for r in yaml.safe_load((folder / "rules.yaml").read_text("utf-8"))["readings"]}
    rulebook = f"{name}.en.txt"
    for reading, (overlay, param) in OPTIONS[name].items():
        declared = base.params[param]
        assert declared["value"] is True and declared.get("doc") and declared.get("rule"), param
        assert reading in declared["doc"], f"{param}'s doc names no reading {reading}"
        over = yaml.safe_load((folder / "variants" / overlay).read_text("utf-8"))
        assert over["set"] == {"params": {param: False}}, overlay
        r = readings[reading]
        assert f"params.{param}" in r["reading"] and overlay in r["reading"], reading
        assert re.search(re.escape(rulebook) + r" \d+", r["why"]), f"{reading}: why cites no line of {rulebook}"
