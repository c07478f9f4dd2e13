"""`cairn diff` (what an overlay or an edited copy changes, rule by rule) and `cairn lint`
(base rules that branch on an object's id or on power names)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from interpreter.cli.main import main
from interpreter.diff import diff, load_spec, model
from interpreter.lint import lint

RELAY = Path(__file__).parent / "fixtures" / "relay"
ROOT = Path(__file__).resolve().parents[1]


def _changes(left, right):
    return {(c.category, c.key, c.what) for c in diff(left, right)}


def test_diff_of_an_overlay_lists_its_rules():
    base = model(load_spec(RELAY, []))
    got = _changes(base, model(load_spec(RELAY, ["bonus-step"])))
    assert got == {("steps", "bonus", "added"), ("abilities", "plain#0", "added"),
                   ("procedures", "lose_point", "changed")}
    got = _changes(base, model(load_spec(RELAY, ["bigger-hand"])))
    assert got == {("parameters", "hand_size", "changed")}


def test_diff_of_an_edited_copy(tmp_path):
    copy = tmp_path / "relay"
    shutil.copytree(RELAY, copy)
    game = (copy / "game.yaml").read_text()
    game = game.replace("rounds: {value: 2}", "rounds: {value: 3}")
    game = game.replace("          - step: penalty\n            do: lose_point(p)\n", "")
    (copy / "game.yaml").write_text(game)
    cards = (copy / "cards.yaml").read_text().replace("props: {value: 1}", "props: {value: 2}")
    (copy / "cards.yaml").write_text(cards)
    changes = {(c.category, c.key, c.what): c for c in diff(model(load_spec(RELAY, [])), model(load_spec(copy, [])))}
    assert set(changes) == {("parameters", "rounds", "changed"), ("steps", "penalty", "removed"),
                            ("objects", "plain", "changed")}
    assert changes[("parameters", "rounds", "changed")].fields == {"value": [2, 3]}
    assert changes[("objects", "plain", "changed")].fields == {"props": [{"value": 1}, {"value": 2}]}


def test_diff_command(capsys, tmp_path):
    assert main(["diff", str(RELAY), "--variant", "bigger-hand"]) == 1
    out = capsys.readouterr().out
    assert "parameters (1):" in out and "~ hand_size" in out and "value: 2 -> 3" in out
    assert main(["diff", str(RELAY), str(RELAY)]) == 0
    assert "no rule differs" in capsys.readouterr().out
    assert main(["diff", str(RELAY), "--variant", "bonus-step", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert {c["category"] for c in doc["changes"]} == {"steps", "abilities", "procedures"}
    assert main(["diff", str(RELAY)]) == 2


def test_lint_finds_dispatch_on_ids_and_power_names(tmp_path):
    assert lint(RELAY) == []
    copy = tmp_path / "relay"
    shutil.copytree(RELAY, copy)
    game = (copy / "game.yaml").read_text().replace("""      p.score -= 1
      p.lost += 1""", """      let k = p.score
      if k == "fury" {
        p.score -= 1
      } elif k == "calm" {
        p.score -= 2
      } elif k == "build" {
        p.lost += 1
      }
      if top("deck") == "spark" {
        p.lost += 1
      }""")
    (copy / "game.yaml").write_text(game)
    found = lint(copy)
    assert [f.check for f in found] == ["dispatch", "id"]
    assert "branches on `k` (3 values: build, calm, fury)" in found[0].message
    assert "the object 'spark'" in found[1].message
    line = game.splitlines().index("      if k == \"fury\" {") + 1
    assert found[0].file.endswith("game.yaml") and (found[0].line, found[0].column) == (line, 7)
    # a choice the player just made may be branched on
    chosen = game.replace("let k = p.score", 'let k = choose(["fury", "calm", "build"], player=p)')
    (copy / "game.yaml").write_text(chosen)
    assert [f.check for f in lint(copy)] == ["id"]


def _shipped() -> list:
    from interpreter.load.build import list_variants
    root = Path(__file__).resolve().parents[1] / "definitions"
    games = sorted(p for p in root.iterdir() if (p / "game.yaml").is_file())
    return [(g, v) for g in games for v in [None, *sorted(list_variants(g))]]


def test_no_shipped_rule_dispatches_on_a_card():
    """Every shipped game and variant: no base rule branches on an object's id or power."""
    for folder, variant in _shipped():
        found = lint(folder, [variant] if variant else [])
        assert found == [], f"{folder.name} {variant or ''}: {found[0].message}"


def test_model_entries_are_what_a_json_round_trip_gives():
    """The rule model compares plain data; it is built directly now, and must equal (keys in
    the same order) what a sorted JSON round trip of each entry gave."""
    import interpreter.diff as diffmod

    def round_trip(x):
        return json.loads(json.dumps(x, sort_keys=True, default=str))

    class Named(str):
        pass

    odd = {"b": (1, 2.5, None), "a": [True, {"z": Named("q"), "y": 1e300}], "c": Path("p"), 3: "three"}
    assert json.dumps(diffmod._clean({k: v for k, v in odd.items() if k != 3})) == json.dumps(round_trip(
        {k: v for k, v in odd.items() if k != 3}))
    assert diffmod._clean({3: "x", 1: "y"}) == round_trip({3: "x", 1: "y"})
    assert type(diffmod._clean(Named("q"))) is str
    folder = ROOT / "definitions" / "footprints"
    for variants in ([], ["ja-edition"]):
        spec = load_spec(folder, variants)
        fast = model(spec)
        saved = diffmod._clean
        diffmod._clean = round_trip
        try:
            slow = model(spec)
        finally:
            diffmod._clean = saved
        assert json.dumps(fast) == json.dumps(slow)


def test_diff_shows_each_changed_value_whole(capsys):
    """A rule checker reads the change itself: a reading, a procedure's text, shown whole on
    its line (values were cut at 60-90 characters with "…")."""
    assert main(["diff", "big-foot", "--variant", "deep-snow"]) == 1
    out = capsys.readouterr().out
    assert "…" not in out
    assert ("A Big Foot move that a dozing card cancels has no roll and threatens nobody, so no "
            "PROTECTION card is laid for it.") in out
