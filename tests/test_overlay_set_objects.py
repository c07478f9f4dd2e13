"""`set: objects:` of an overlay (interpreter/load/overlay_set.py): a property of a card,
component or board space, or a space's kind, changed in one line and checked. On the
fixture game tests/fixtures/reach (a token walks s1-s4; the bonus spot s4 scores)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.build import build
from tests.playout import checked_game

ROOT = Path(__file__).resolve().parents[1]
REACH = ROOT / "tests" / "fixtures" / "reach"
BAD = "tests/fixtures/overlays/reach-bad-set.yaml"


def _game(*variants: str):
    game, problems = build(REACH, list(variants))
    assert not problems, [str(d) for d in problems]
    return game


def _score(game) -> int:
    state, _ = checked_game(game, 1, 1)
    return state.scores()[0]


def test_a_property_is_set_in_one_line_and_the_rest_of_the_entry_kept():
    assert _game().props["score-card"]["ant_spaces"] == 4
    six = _game("six-ants").props["score-card"]
    assert (six["ant_spaces"], six["title"], six["hot"]) == (6, "Six ants", False)
    assert _game("more-ants").props["score-card"]["ant_spaces"] == 5


def test_the_long_form_cites_its_clause_on_the_object():
    game = _game("six-ants")
    cited = [c for c in game.citations if "six-ants" in c[2]]
    assert cited and any("score-card" in str(c[1]) for c in cited), game.citations[-5:]


def test_a_space_changed_to_a_kind_takes_that_kinds_group_defaults():
    assert _score(_game()) == 1                 # only s4 (bonus) scores
    more = _game("more-ants")
    assert more.props["s2"]["kind"] == "bonus" and more.props["s2"]["text"] == "Score when you land here."
    assert more.props["s2"]["number"] == 2 and more.props["s2"]["shiny"] is True
    assert _score(more) == 2                    # s2 now carries the bonus group's ability


def test_a_space_changed_off_its_kind_leaves_its_old_groups_defaults_but_keeps_its_own():
    game = _game("plain-end")
    s4 = game.props["s4"]
    assert s4["kind"] == "plain" and s4["text"] == "Nothing happens here."
    assert s4["number"] == 4 and "shiny" not in s4          # own prop kept, the bonus group's gone
    assert game.props["s3"]["number"] == 30
    assert _score(game) == 0                    # no bonus ability left on s4


def test_each_wrong_set_is_one_error_at_its_line():
    _game_none, problems = build(REACH, [BAD])
    shown = [str(d) for d in sorted(problems)]
    assert len(shown) == 4, shown
    assert shown[0].startswith(f"{BAD}:7:5: set: no card, component or space 'score-crad' (did you mean 'score-card'?)")
    assert shown[1].startswith(f"{BAD}:8:5: set: component 'score-card' has no property 'ant_space' "
                               "(did you mean 'ant_spaces'?)")
    assert shown[2] == f"{BAD}:9:5: set: component 'score-card' property 'ant_spaces' is a number (4), not a text ('five')"
    assert shown[3].startswith(f"{BAD}:10:5: set: space 's3' cannot take kind 'blue'")


@pytest.mark.parametrize("order", [("more-ants", "six-ants"), ("six-ants", "more-ants")])
def test_two_overlays_setting_one_property_to_two_values_conflict_naming_both(order):
    _g, problems = build(REACH, list(order))
    shown = [str(d) for d in problems]
    assert len(shown) == 1, shown
    first, second = order
    vals = {"more-ants": 5, "six-ants": 6}
    assert (f"variants '{first}' and '{second}' both change property 'score-card.ant_spaces': "
            f"tests/fixtures/reach/variants/{first}.yaml:7:28 sets it to {vals[first]}, "
            f"tests/fixtures/reach/variants/{second}.yaml:7:28 sets it to {vals[second]}") in shown[0]


def test_the_same_value_twice_and_different_properties_of_one_object_combine():
    assert _game("more-ants", "same-ants").props["score-card"]["ant_spaces"] == 5
    game = _game("plain-end", "six-ants")
    assert game.props["score-card"]["ant_spaces"] == 6 and game.props["s4"]["kind"] == "plain"


def test_a_cited_clause_that_does_not_exist_is_an_error_at_the_overlay(tmp_path):
    overlay = tmp_path / "cite.yaml"
    overlay.write_text("variant: {id: cite, name: C, description: d}\nset:\n  objects:\n"
                       "    score-card.ant_spaces: {value: 7, rule: bonsu}\n", "utf-8")
    _g, problems = build(REACH, [str(overlay)])
    shown = [str(d) for d in problems]
    assert len(shown) == 1 and shown[0].endswith(
        "cite.yaml:4:45: set: rule: no clause 'bonsu' in rules.yaml or an overlay's clauses (did you mean 'bonus'?)"), shown
