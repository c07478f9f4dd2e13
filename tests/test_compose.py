"""Expansions that combine: any number of overlays of a game apply together unless two
really contradict each other, and then ONE error names both places and what they fight
over. The tutorial's Lucky Charm (docs/modding/) plays with the shipped Deep Snow.

The overlays written here are out-of-tree files in tmp_path (the working folder), so
diagnostics name them briefly (`quad.yaml:6:27`)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.load.build import build

ROOT = Path(__file__).resolve().parents[1]
BIG_FOOT = ROOT / "definitions" / "big-foot"
LUCKY = ROOT / "docs" / "modding" / "lucky-charm.yaml"
BOTH = ROOT / "docs" / "modding" / "with-deep-snow.yaml"
DEEP_SNOW = "definitions/big-foot/variants/deep-snow.yaml"


@pytest.fixture
def work(tmp_path, monkeypatch):
    """Runs inside tmp_path, with a copy of the tutorial's overlay there."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(LUCKY, tmp_path / "lucky-charm.yaml")
    return tmp_path


def overlay(name: str, body: str) -> str:
    """Writes an overlay `name`.yaml in the working folder; returns its file name."""
    head = f"variant: {{id: {name}, name: {name}, description: a test overlay}}\n"
    Path(f"{name}.yaml").write_text(head + body, "utf-8")
    return f"{name}.yaml"


def place(file: str | Path, needle: str, offset: int = 0) -> str:
    """Returns `file:line:col` of the unique `needle` in a file (plus `offset` columns)."""
    text = Path(file).read_text("utf-8")
    assert text.count(needle) == 1, f"{needle!r} is not unique in {file}"
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    return f"{file}:{line}:{i - (text.rfind(chr(10), 0, i) + 1) + 1 + offset}"


def problems(*variants: str) -> list[str]:
    game, diags = build(BIG_FOOT, list(variants))
    assert (game is None) == bool(diags)
    return [str(d) for d in diags]


# ---- the tutorial's expansion with the shipped one ----------------------------------------

def test_lucky_charm_and_deep_snow_validate_simulate_and_play_together(capsys):
    v = ["--variant", "deep-snow", "--variant", str(LUCKY)]
    assert main(["validate", "big-foot", *v]) == 0
    capsys.readouterr()
    assert main(["simulate", "big-foot", *v, "--games", "50", "--seed", "1", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["finished"], out["aborted"]) == (50, [])
    game, diags = build(BIG_FOOT, ["deep-snow", str(LUCKY)])
    assert diags == []
    assert game.manifest()["card"] == 24 - 2 + 2 + 2 + 2       # both expansions' box counts add up
    assert main(["scenarios", str(BOTH)]) == 0                 # both expansions' cards in one game
    assert "3 passed, 0 failed" in capsys.readouterr().out


def test_either_order_builds_the_same_cards(work):
    one, _ = build(BIG_FOOT, ["deep-snow", "lucky-charm.yaml"])
    two, _ = build(BIG_FOOT, ["lucky-charm.yaml", "deep-snow"])
    assert sorted(one.components) == sorted(two.components)
    assert one.manifest() == two.manifest()


# ---- real contradictions: one error, both places ----------------------------------------

def test_two_overlays_setting_one_parameter_to_two_values_name_both_places(work):
    quad = overlay("quad", "set:\n  params: {double_factor: 4}\n")
    assert problems(quad) == []                                  # each alone is accepted
    assert problems("lucky-charm.yaml") == []
    got = problems("lucky-charm.yaml", quad)
    mine = place("lucky-charm.yaml", "double_factor: 3", len("double_factor: "))
    theirs = place(quad, "double_factor: 4", len("double_factor: "))
    assert got == [f"{theirs}: variants 'lucky-charm' and 'quad' both change parameter 'double_factor': "
                   f"{mine} sets it to 3, {theirs} sets it to 4; they cannot be played together"]
    assert mine.startswith("lucky-charm.yaml:9:") and theirs.startswith("quad.yaml:3:")


def test_two_overlays_setting_one_parameter_to_the_same_value_agree(work):
    triple = overlay("triple", "set:\n  params: {double_factor: {value: 3}}\n")
    assert problems("lucky-charm.yaml", triple) == []


def test_the_same_entry_replaced_twice_is_refused(work):
    body = "replace:\n  procedures:\n    stomp: {params: [p, t, s, scared], rule: {rule}, do: 'return true'}\n"
    a = overlay("a", body.replace("{rule}", "spot-b-stomp"))
    b = overlay("b", body.replace("{rule}", "spot-b-stomp"))
    assert problems(a) == []
    got = problems(a, b)
    assert len(got) == 1
    assert "both change procedure 'stomp'" in got[0]
    assert place(a, "stomp:", len("stomp: ")) + " replaces it" in got[0]
    assert place(b, "stomp:", len("stomp: ")) + " replaces it" in got[0]


def test_a_step_removed_by_one_and_built_on_by_another_is_refused_in_either_order(work):
    gone = overlay("gone", "remove:\n  steps: [lost-turn]\n")
    after = overlay("after", "insert:\n  - after: lost-turn\n    steps:\n"
                             "      - {step: rest, rule: to-play-2-roll, do: 'log(\"rest\")'}\n")
    assert problems(gone) == [] and problems(after) == []
    removes = place(gone, "[lost-turn]", 1) + " removes it"
    inserts = place(after, "after: lost-turn", len("after: ")) + " inserts steps after it"
    for order in ([gone, after], [after, gone]):
        got = problems(*order)
        assert len(got) == 1, got
        assert "both change step 'lost-turn'" in got[0] and removes in got[0] and inserts in got[0]


def test_removing_the_same_card_twice_agrees_and_takes_it_out_of_the_box_once(work):
    also = overlay("also", "remove:\n  cards: [to-gold-mine]\n")
    alone, diags = build(BIG_FOOT, [also])
    assert diags == [] and alone.manifest()["card"] == 22     # the removed cards leave the count
    game, diags = build(BIG_FOOT, ["deep-snow", also])
    assert diags == []
    assert game.manifest()["card"] == 26                       # 24 - 2 + 4, not - 2 twice


def test_a_box_count_replaced_by_one_and_added_to_by_another_is_refused(work):
    total = overlay("total", "replace:\n  box: {card: 26}\nadd:\n  cards:\n"
                             "    - {id: spare, name: Spare, count: 2, start: deck, provenance: {kind: reconstructed}}\n")
    assert problems(total) == []
    got = problems(total, "lucky-charm.yaml")
    assert len(got) == 1
    assert "both change box entry 'card'" in got[0]
    assert place(total, "card: 26", len("card: ")) + " replaces it" in got[0]
    assert place("lucky-charm.yaml", "card: 2}", len("card: ")) + " adds 2 to it" in got[0]


# ---- requires and conflicts ---------------------------------------------------------------

def test_requires_is_applied_first_whatever_the_order_given(work):
    text = "extend:\n  objects:\n    lucky-charm:\n      abilities:\n" \
           "        - {on: turn_start, if: p == me, while_in: [charms], rule: lucky-charm-keep, do: 'log(\"lucky\")'}\n"
    Path("on-it.yaml").write_text(f"variant: {{id: on-it, name: On it, description: x, requires: [lucky-charm]}}\n"
                                  + text, "utf-8")
    assert problems("on-it.yaml", "lucky-charm.yaml") == []      # lucky-charm applied first
    Path("loose.yaml").write_text("variant: {id: loose, name: Loose, description: x}\n" + text, "utf-8")
    assert any("no card, component or space 'lucky-charm'" in p for p in problems("loose.yaml", "lucky-charm.yaml"))
    got = problems("on-it.yaml")
    assert got[0] == (place("on-it.yaml", "[lucky-charm]", 1) + ": requires unknown variant 'lucky-charm'; an "
                      "expansion kept outside the game is given by its file (--variant FILE)")
    assert problems("on-it.yaml", "deep-snow")[0].startswith(place("on-it.yaml", "[lucky-charm]", 1))
    Path("needs-snow.yaml").write_text("variant: {id: needs-snow, name: N, description: x, requires: [deep-snow]}\n")
    assert problems("needs-snow.yaml") == [place("needs-snow.yaml", "[deep-snow]", 1) + ": variant 'needs-snow' "
                                           "requires variant 'deep-snow': add --variant deep-snow"]
    assert problems("needs-snow.yaml", "deep-snow") == []


def test_requires_in_a_circle_is_refused(work):
    Path("a.yaml").write_text("variant: {id: a, name: A, description: x, requires: [b]}\n", "utf-8")
    Path("b.yaml").write_text("variant: {id: b, name: B, description: x, requires: [a]}\n", "utf-8")
    got = problems("a.yaml", "b.yaml")
    assert got == [place("a.yaml", "[b]") + ": variants require each other in a circle: a -> b; "
                   "none can be applied first"]


def test_conflicts_is_refused_and_names_the_other(work):
    Path("rival.yaml").write_text("variant: {id: rival, name: Rival, description: x, conflicts: [deep-snow]}\n")
    assert problems("rival.yaml") == []
    got = problems("deep-snow", "rival.yaml")
    assert got == [place("rival.yaml", "[deep-snow]", 1) + f": variant 'rival' conflicts with 'deep-snow' "
                   f"({DEEP_SNOW}): they cannot be played together"]
