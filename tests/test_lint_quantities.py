"""`cairn lint`'s quantity check (interpreter/lint_quantities.py): base functions that
compute a rule number a card could change, but are not quantities. On the functions of
tests/fixtures/reach/game.yaml, each commented with what the check should say."""
from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.cli.main import main
from interpreter.lint import lint

ROOT = Path(__file__).resolve().parents[1]
REACH = ROOT / "tests" / "fixtures" / "reach"


def _flagged(folder: Path) -> dict[str, str]:
    return {f.message.split()[1]: f"{Path(f.file).name}:{f.line}: {f.message}"
            for f in lint(folder, quantities=True) if f.check == "quantity"}


def test_functions_computing_rule_numbers_are_flagged_and_nothing_else():
    found = _flagged(REACH)
    assert sorted(found) == ["best", "card_cost", "solo_or_duo", "two", "walk_far"]
    assert found["card_cost"].startswith("game.yaml:20: function card_cost computes a rule number "
                                         "from property 'value'")
    assert "from parameter 'walk'" in found["walk_far"]
    assert "from the number 2:" in found["two"]
    assert "from the numbers 2, 3:" in found["solo_or_duo"]
    assert "from property 'value', parameter 'walk'" in found["best"]
    assert "quantities: in game.yaml" in found["two"] and "fixed: <why>" in found["two"]


def test_the_check_is_advice_the_dispatch_checks_stay_as_they_were():
    assert lint(REACH) == []                        # without quantities=True: the id and dispatch checks only
    assert main(["lint", str(REACH)]) == 0          # printed, but not a failure
    assert main(["lint", str(REACH), "--strict"]) == 1


def test_a_function_marked_fixed_is_not_flagged_until_the_mark_goes(tmp_path):
    assert "order_of" not in _flagged(REACH)
    copy = tmp_path / "reach"
    shutil.copytree(REACH, copy)
    game = copy / "game.yaml"
    text = game.read_text("utf-8")
    marked = ", fixed: \"the spots' reading order, no rule amount\"}"
    assert marked in text
    game.write_text(text.replace(marked, "}"), "utf-8")
    assert "from property 'number'" in _flagged(copy)["order_of"]


def test_a_quantity_is_not_flagged():
    from interpreter.diff import load_spec
    spec = load_spec(REACH, [])
    assert "bonus" in spec.sections["quantities"] and "bonus" not in _flagged(REACH)


def test_every_shipped_game_keeps_its_rule_numbers_in_quantities():
    """Issue 24's extension points: in every shipped game, a function that computes a rule
    number is a quantity (a card's static ability can change it) or says why it is fixed."""
    games = sorted(p for p in (ROOT / "definitions").iterdir() if (p / "game.yaml").exists())
    assert len(games) >= 7
    for game in games:
        assert _flagged(game) == {}, game.name
        assert main(["lint", str(game), "--strict"]) == 0, game.name
