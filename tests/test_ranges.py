"""Entries made from ranges (`each:`, interpreter/load/ranges.py): a domino set and numbered
cards written once, in a base file and in an overlay's add:, on tests/fixtures/reach."""
from __future__ import annotations

from pathlib import Path

import pytest
from fastjsonschema import JsonSchemaValueException

from interpreter.load.build import build
from interpreter.load.files import fast_check, read_part, validator

ROOT = Path(__file__).resolve().parents[1]
REACH = ROOT / "tests" / "fixtures" / "reach"
BAD = "tests/fixtures/overlays/reach-bad-range.yaml"


def _game(*variants: str):
    game, problems = build(REACH, list(variants))
    assert not problems, [str(d) for d in problems]
    return game


def test_a_double_six_domino_set_is_28_distinct_tiles():
    game = _game()
    tiles = game.objects_of_kind("domino")
    assert len(tiles) == 28 and len(set(tiles)) == 28
    pairs = {(game.props[t]["low"], game.props[t]["high"]) for t in tiles}
    assert pairs == {(a, b) for a in range(7) for b in range(a, 7)}
    assert game.props["domino-2-5"]["name"] == "2|5" and game.props["domino-2-5"]["low"] == 2


def test_numbered_cards_get_numbers_and_texts_from_their_range():
    game = _game()
    assert game.objects_of_kind("card") == ("card-1", "card-2", "card-3")
    assert [game.props[c]["value"] for c in ("card-1", "card-2", "card-3")] == [1, 2, 3]   # numbers, not texts
    assert game.props["card-2"]["label"] == "#2" and game.props["card-2"]["name"] == "Card 2"


def test_an_overlay_adds_a_range_inside_a_group():
    game = _game("high-cards")
    assert game.objects_of_kind("card")[3:] == ("card-4", "card-5", "card-6")
    assert all(game.props[c]["high"] is True for c in ("card-4", "card-5", "card-6"))
    assert game.props["card-6"]["value"] == 6


def test_each_wrong_range_is_one_error_at_its_place():
    _g, problems = build(REACH, [BAD])
    shown = [str(d) for d in sorted(set(problems))]
    assert shown == [
        f"{BAD}:7:22: each: 'n' starts or ends at 'm', a later variable: a bound names only those before it",
        f"{BAD}:8:14: each: the ranges make no entry (a first value is after its last)",
        f"{BAD}:9:46: each: {{k}} in name names no range variable (they are n; a brace itself is written {{{{ or }}}})",
        f"{BAD}:10:31: card 'card-1' is already defined at tests/fixtures/reach/cards.yaml:2; "
        "an overlay changes it with 'replace'",
        f"{BAD}:10:31: card 'card-2' is already defined at tests/fixtures/reach/cards.yaml:2; "
        "an overlay changes it with 'replace'",
        f"{BAD}:11:14: each: the ranges make more than 5000 entries",
    ]


def test_the_schemas_take_a_range_and_refuse_a_bad_one():
    for name, kind in (("cards.yaml", "cards"), ("components.yaml", "components")):
        loaded, problems = read_part(REACH / name, name, kind)
        assert loaded is not None and not problems
    bad = {"cards": [{"each": {"n": [1, "2x"]}, "id": "c-{n}", "name": "C", "start": "deck",
                      "provenance": {"kind": "invented"}}]}
    assert list(validator("cards").iter_errors(bad))
    with pytest.raises(JsonSchemaValueException):
        fast_check("cards")(bad)
