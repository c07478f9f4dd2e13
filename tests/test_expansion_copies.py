"""Issue 24's measure as a test: a shipped overlay holds only what is new. No line of it
stands as it is in its base game's files (citations, a lone `section:`, `rule:` or
`clause:` key naming the base's ids, aside), and it replaces no base procedure, function,
quantity or step whole (interpreter/load/copies.py; tools/expansion_copies.py prints it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.copies import base_lines, counted, is_citation, measure, measure_text, shipped_overlays

ROOT = Path(__file__).resolve().parents[1]
OVERLAYS = shipped_overlays(ROOT)


@pytest.mark.parametrize("overlay,game", OVERLAYS, ids=[str(o.relative_to(ROOT)) for o, _ in OVERLAYS])
def test_a_shipped_overlay_copies_nothing_from_its_base(overlay, game):
    m = measure(overlay, game)
    name = overlay.relative_to(ROOT)
    wrong = [f"{name}:{n}: copied from {game.name}'s base files: {line}" for n, line in m.copied]
    wrong += [f"{name}: replaces the base's {section} whole: {', '.join(keys)}" for section, keys in m.whole.items()]
    assert not wrong, f"{len(m.copied)} lines copied, {len(m.whole)} whole replaces:\n" + "\n".join(wrong)


def test_the_shipped_overlays_are_all_measured():
    names = {o.name for o, _ in OVERLAYS}
    assert {"deep-snow.yaml", "riverfolk.yaml", "lucky-charm.yaml"} <= names
    assert "scenarios.yaml" not in names      # a scenario file of docs/modding is no overlay


BASE = """\
procedures:
  draw_card:
    rule: [setup-1, spot-a-draw]
    do: |
      move(this, "deck", bottom=true)
      log("{player_name(p)} draws a card")
clauses:
  - {id: spot-a-draw, section: A. Blue Spot, kind: turn, summary: x}
"""

OVERLAY = """\
variant: {id: v, name: V, description: d}
add:
  clauses:
    - id: my-clause
      section: A. Blue Spot
      clause: [setup-1, spot-a-draw]
  procedures:
    mine:
      rule: [setup-1, spot-a-draw]
      do: |
        move(this, "deck", bottom=true)
        # log("{player_name(p)} draws a card")
        else {
replace:
  procedures:
    draw_card: {do: 'log("{player_name(p)} draws a card")'}
  steps:
    land: {do: stomp()}
"""


def test_the_measure_counts_copied_lines_but_not_citations(tmp_path):
    (tmp_path / "game.yaml").write_text(BASE, "utf-8")
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "v.yaml").write_text(OVERLAY, "utf-8")
    m = measure(tmp_path / "variants" / "v.yaml", tmp_path)
    # the do: line is copied; the rule: and section: lines cite the base; the comment and
    # the short `else {` do not count; the replaced procedure and step are whole replaces
    assert m.copied == [(11, 'move(this, "deck", bottom=true)')]
    assert m.whole == {"procedures": ["draw_card"], "steps": ["land"]}
    assert m.lines == len(OVERLAY.splitlines())
    assert base_lines(tmp_path) >= {'move(this, "deck", bottom=true)'}     # variants/ is not the base


def test_what_is_a_citation():
    for line in ("rule: [setup-1, spot-a-draw]", "- rule: hunt", "section: A. Blue Spot",
                 "clause: [advance-track-bonus, bonus-skill]", 'section: "End: of a Round"', "rule: []",
                 "while_in: [clan-discard]", "modifies: writes_revealed"):
        assert is_citation(line) and not counted(line), line
    for line in ("props: {type: action, rule: x}", "- {id: a, rule: b, section: c}",
                 "if: not game.turn_lost", "rule: a, do: b: c", "rules: [setup-1, spot-a-draw]",
                 "while_in: [clan-discard], add: 1"):
        assert not is_citation(line), line
    assert counted("if: not game.turn_lost")


def test_an_overlay_that_adds_only_new_lines_measures_nothing():
    m = measure_text("variant: {id: v, name: V, description: d}\nset:\n  params: {hand_size: 6}\n",
                     {"hand_size: {value: 5, rule: hand}"})
    assert (m.copied, m.whole) == ([], {})
