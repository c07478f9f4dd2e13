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
    head = "game: big-foot\nvariants: [deep-snow, lucky-charm.yaml]\n"
    assert BOTH.read_text("utf-8").startswith(head) and f"```yaml\n{head}```" in (ROOT / "docs" / "MODDING.md").read_text()
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
    assert got[0] in (ROOT / "docs" / "MODDING.md").read_text("utf-8")     # the reference shows this very error


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


# ---- groups in an overlay's add: ----------------------------------------------------------

GROUP = """\
add:
  clauses:
    - {id: weather, section: Weather, kind: variant, summary: weather cards}
  box: {card: 3}
  cards:
    - {id: sun, name: Sun, start: deck, rule: weather, effect: 'log("sun")', provenance: {kind: reconstructed}}
    - doc: two weather cards sharing their defaults
      defaults: {start: deck, rule: weather, props: {type: weather}, effect: 'log("weather")',
                 provenance: {kind: reconstructed}}
      entries:
        - {id: fog, name: Fog}
        - {id: sleet, name: Sleet, props: {wet: true}}
"""


def test_add_cards_takes_a_group_with_defaults(work):
    game, diags = build(BIG_FOOT, [overlay("weather", GROUP)])
    assert diags == []
    assert game.props["fog"] == {"kind": "card", "name": "Fog", "def": "fog", "type": "weather"}
    assert game.props["sleet"] == {"kind": "card", "name": "Sleet", "def": "sleet", "type": "weather", "wet": True}
    assert [c for c in game.components if c[0] in ("sun", "fog", "sleet")] == [
        ("sun", "card", "deck"), ("fog", "card", "deck"), ("sleet", "card", "deck")]   # in the order written
    assert game.effects["sleet"] == "effect:sleet"


def test_an_error_in_a_group_entry_points_at_the_entry(work):
    bad = overlay("weather", GROUP.replace("{id: sleet, name: Sleet,", "{id: sleet, name: Sleet, start: dek,"))
    assert problems(bad) == [place(bad, "dek") + ": start 'dek' is neither a zone nor a board space (did you mean 'deck'?)"]
    bad = overlay("weather", GROUP.replace("{id: fog, name: Fog}", "{id: fog, nmae: Fog}"))
    got = problems(bad)
    assert place(bad, "nmae") + ": unknown key 'nmae' in add/cards/1/entries/0 (did you mean 'name'?)" in got


# ---- replace keeps the clauses it does not restate; set cites them ----------------------

STOMP = "replace:\n  procedures:\n    stomp: {params: [p, t, s, scared], do: 'return true'}\n"


def test_replace_keeps_the_replaced_entrys_rule_and_doc(work):
    from interpreter.diff import load_spec
    base = load_spec(BIG_FOOT, [])
    quiet = overlay("quiet", STOMP)
    spec = load_spec(BIG_FOOT, [quiet])
    old, new = base.sections["procedures"]["stomp"][0], spec.sections["procedures"]["stomp"][0]
    assert new["do"] == "return true"
    assert (new["rule"], new["doc"]) == (old["rule"], old["doc"])
    game, diags = build(BIG_FOOT, [quiet])
    assert diags == []          # without the kept rule: "procedure 'stomp' cites no clause"
    cited = [c for what, name, c, _ in game.citations if (what, name) == ("procedure", "stomp")]
    assert cited == [list(old["rule"])]


def test_a_replaced_step_keeps_its_rule(work):
    from interpreter.diff import load_spec
    old = next(n for n in load_spec(BIG_FOOT, []).nodes() if n.id == "lost-turn").data
    quiet = overlay("quiet", "replace:\n  steps:\n    lost-turn: {do: 'log(\"no turn is lost\")'}\n")
    new = next(n for n in load_spec(BIG_FOOT, [quiet]).nodes() if n.id == "lost-turn").data
    assert new["rule"] == old["rule"] and "do" in new


def test_diff_shows_the_clauses_a_replace_drops(work, capsys):
    narrow = overlay("narrow", STOMP.replace("do:", "rule: spot-b-stomp, do:"))
    assert main(["diff", "big-foot", "--variant", narrow]) == 1
    out = capsys.readouterr().out
    from interpreter.diff import load_spec
    old = load_spec(BIG_FOOT, []).sections["procedures"]["stomp"][0]["rule"]
    assert len(old) > 1
    line = next(x for x in out.splitlines() if x.strip().startswith("rule:"))
    assert line.endswith("(drops " + ", ".join(c for c in old if c != "spot-b-stomp") + ")")


def test_set_cites_a_clause_and_coverage_counts_it(work, capsys):
    cite = overlay("cite", "add:\n  clauses:\n    - {id: triple, section: T, kind: variant, summary: three times}\n"
                           "set:\n  params:\n    double_factor: {value: 3, rule: triple, doc: three times the roll}\n")
    assert main(["coverage", "big-foot", "--variant", cite, "--games", "1", "--json"]) in (0, 1)
    clause = next(c for c in json.loads(capsys.readouterr().out)["clauses"] if c["id"] == "triple")
    assert clause["encoded_by"] == [{"what": "parameter", "name": "double_factor", "where": place(cite, "{value: 3")[:-3]}]


# ---- cairn diff of several overlays ---------------------------------------------------------

def test_diff_of_two_expansions_lists_both_and_says_which_makes_each_change(capsys):
    assert main(["diff", "big-foot", "--variant", "deep-snow", "--variant", str(LUCKY), "--json"]) == 1
    changes = {(c["category"], c["key"]): c.get("by") for c in json.loads(capsys.readouterr().out)["changes"]}
    assert changes[("objects", "snowshoes")] == ["deep-snow"]
    assert changes[("objects", "lucky-charm")] == [str(LUCKY)]
    assert changes[("objects", "to-gold-mine")] == ["deep-snow"]
    assert changes[("box", "card")] == ["deep-snow", str(LUCKY)]
    assert changes[("parameters", "double_factor")] == [str(LUCKY)]


# ---- board edits --------------------------------------------------------------------------

THAW = """\
add:
  clauses:
    - {id: thaw, section: Thaw, kind: variant, summary: "a new spot on the first trail, a path closed"}
  spaces:
    - {id: a3x, kind: blue, between: [a4, a3], at: [7, 10], props: {number: 4}, rule: thaw}
remove:
  edges: [[a6, a5]]
"""


def test_a_space_goes_between_two_and_an_edge_is_removed(work, capsys):
    thaw = overlay("thaw", THAW)
    game, diags = build(BIG_FOOT, [thaw])
    assert diags == []
    assert (set(game.adj["a3"]), set(game.adj["a3x"]), set(game.adj["a5"])) == ({"a2", "a3x"}, {"a3", "a4"}, {"a4"})
    base, _ = build(BIG_FOOT, [])
    assert "a4" in base.adj["a3"] and "a6" in base.adj["a5"]
    assert main(["diff", "big-foot", "--variant", thaw, "--json"]) == 1
    edges = {(c["key"], c["what"]) for c in json.loads(capsys.readouterr().out)["changes"] if c["category"] == "edges"}
    assert edges == {("a3 - a3x", "added"), ("a3x - a4", "added"), ("a3 - a4", "removed"), ("a5 - a6", "removed")}


def test_board_edits_that_find_no_edge_or_fight_over_one_are_refused(work):
    gone = overlay("gone", "remove:\n  edges: [[a3, a6]]\n")
    assert problems(gone) == [place(gone, "[a3, a6]") + ": remove: no edge between 'a3' and 'a6'"]
    thaw = overlay("thaw", THAW)
    other = overlay("other", THAW.replace("a3x", "a3y").replace("[a6, a5]", "[a5, a6]").replace("thaw", "frost"))
    got = problems(thaw, other)
    assert len(got) == 1                    # the closed path a5-a6 agrees; the spot between a3 and a4 does not
    assert ("both change edge 'a3 - a4': " + place(thaw, "[a4, a3]") + " replaces it, "
            + place(other, "[a4, a3]") + " replaces it") in got[0]


def test_two_player_counts_contradict_and_one_agrees(work):
    five = "five.yaml"
    Path(five).write_text("variant: {id: five, name: F, description: x, players: {min: 2, max: 3}}\n")
    Path("six.yaml").write_text("variant: {id: six, name: S, description: x, players: {min: 2, max: 4}}\n")
    Path("same.yaml").write_text("variant: {id: same, name: S, description: x, players: {min: 2, max: 3}}\n")
    assert problems(five, "same.yaml") == []
    got = problems(five, "six.yaml")
    assert len(got) == 1 and "both change player count 'max'" in got[0]
    assert place(five, "max: 3", 5) + " sets it to 3" in got[0] and place("six.yaml", "max: 4", 5) + " sets it to 4" in got[0]


def test_a_box_count_below_none_and_a_space_between_no_edge_are_refused(work):
    less = overlay("less", "add:\n  box: {monster: -2}\n")
    assert problems(less) == [place(less, "-2") + ": box: 1 'monster' -2 leaves fewer than none"]
    nowhere = overlay("nowhere", THAW.replace("between: [a4, a3]", "between: [a4, zz]"))
    assert place(nowhere, "[a4, zz]") + ": between: no edge between 'a4' and 'zz' to put 'a3x' into" in problems(nowhere)


def test_diff_lists_the_clauses_an_expansion_adds(capsys):
    assert main(["diff", "big-foot", "--variant", "deep-snow", "--json"]) == 1
    keys = {(c["category"], c["key"], c["what"]) for c in json.loads(capsys.readouterr().out)["changes"]}
    assert ("clauses", "deep-snow-deck", "added") in keys and ("readings", "dozes-one-per-move", "added") in keys


def test_between_on_a_replaced_space_is_refused_not_ignored(work):
    moved = overlay("moved", "replace:\n  spaces:\n    - {id: a5, kind: blue, between: [a3, a4], props: {number: 6}}\n")
    assert problems(moved) == [place(moved, "between") + ": between: only a new space (add:) goes between two; "
                               "a replaced one keeps its edges"]
