"""`cairn mutate`'s operators on the effect code: each makes the mutant it says, at the
place in the YAML it says, and nothing else."""
from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from interpreter.mutate import _Checker, apply, choose, mutants
from interpreter.mutate_ops import edits

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "definitions" / "tic-tac-toe"
FOOTPRINTS = ROOT / "definitions" / "footprints"


def changed(text: str, expression: bool = False) -> set[tuple[str, str, str]]:
    """Returns (operator, old text, new text) of every edit of a text."""
    return {(e.op, text[e.start:e.end], e.new) for e in edits(text, expression)}


def test_numbers_are_moved_by_one_and_comparisons_to_their_neighbours():
    found = changed("if size(s) < 2 { gain(0) }")
    assert {("number", "2", "3"), ("number", "2", "1"), ("number", "0", "1")} <= found
    assert ("number", "0", "-1") not in {f for f in found}            # no negative literal made
    assert ("compare", "<", "<=") in found
    for op, new in (("<=", "<"), (">", ">="), (">=", ">"), ("==", "!="), ("!=", "==")):
        assert ("compare", op, new) in changed(f"a {op} b", expression=True)


def test_and_or_swapped_and_each_side_dropped():
    found = changed("a < 1 and b", expression=True)
    assert ("and/or", "and", "or") in found
    assert {("condition", "a < 1", "true"), ("condition", "b", "true")} <= found
    found = changed("a or b", expression=True)
    assert ("and/or", "or", "and") in found and ("condition", "a", "false") in found


def test_conditions_forced_and_filters_dropped():
    found = changed("if won(p) { x = 1 } elif full() { x = 2 }\nlet k = [s for s in xs if s.kind != \"house\"]")
    assert {("condition", "won(p)", "true"), ("condition", "won(p)", "false"),
            ("condition", "full()", "true"), ("condition", "full()", "false")} <= found
    assert ("condition", 's.kind != "house"', "true") in found            # the filter dropped
    assert ("compare", "!=", "==") in found
    # a whole condition (an ability's `if:`, a function's expr) held and cut off
    assert {("condition", "card == this", "true"), ("condition", "card == this", "false")} <= \
        changed("card == this", expression=True)


def test_statements_are_removed_but_not_lets_and_text_in_strings_is_never_touched():
    found = changed('let a = 2\ngain(a); log("1 < 2 and more")\n')
    assert ("statement", "gain(a);", "") in found and ("statement", 'log("1 < 2 and more")', "") in found
    assert not any(op == "statement" and old.startswith("let") for op, old, _ in found)
    assert {op for op, old, _ in found if old in ("<", "1", "and")} == set()   # inside the string
    assert edits("this is ( not code", False) == []


def test_each_mutant_lands_at_its_place_in_the_yaml(tmp_path):
    found = {m.change: m for m in mutants(TTT)}
    m = found["game.yaml:30: function free: compare == -> !="]
    assert (m.line, m.column, m.old, m.new) == (30, 19, "==", "!=")
    m = found["game.yaml:49: procedure mark: statement log(\"{player_name(p)} marks {s}\") -> (removed)"]
    copy = tmp_path / "ttt"
    shutil.copytree(TTT, copy)
    apply(m, copy)
    before = (TTT / "game.yaml").read_text("utf-8").split("\n")
    after = (copy / "game.yaml").read_text("utf-8").split("\n")
    assert [i + 1 for i, (a, b) in enumerate(zip(before, after)) if a != b] == [49]   # one line changed
    assert after[48].strip() == ""
    # a whole plain expression becomes a quoted text, not YAML's true
    m = found["game.yaml:30: function free: condition size(s) == 0 -> true"]
    assert m.new == "'true'"
    # every candidate of the game lands exactly where it says
    assert all(_Checker(TTT).lands(m) for m in found.values())


def test_a_step_is_removed_from_its_list():
    m = next(m for m in mutants(TTT) if m.op == "step" and m.param == "step mark")
    assert m.change == "game.yaml:70: step mark: step {step: mark, rule: turn-mark, do: mark(p)} -> (removed)"
    text = (TTT / "game.yaml").read_text("utf-8")
    from interpreter.mutate import _applied
    data = yaml.safe_load(_applied(m, text))
    assert data["structure"][1]["steps"][0]["steps"] == []


def test_an_ability_is_removed_from_its_card(tmp_path):
    found = [m for m in mutants(FOOTPRINTS, "leader-no-fire") if m.op == "ability"]
    assert [m.change for m in found] == \
        ["cards.yaml:38: horse-leader-a ability 0: ability modifies: may_play_fire -> (removed)"]
    copy = tmp_path / "fp"
    (copy).mkdir()
    shutil.copy(FOOTPRINTS / "cards.yaml", copy / "cards.yaml")
    apply(found[0], copy)
    card = yaml.safe_load((copy / "cards.yaml").read_text("utf-8"))["groups"][0]["entries"][13]
    assert card["id"] == "horse-leader-a" and card["abilities"] == []


def test_a_limit_is_a_seeded_sample_in_file_order():
    found = mutants(TTT)
    a, total = choose(found, TTT, limit=10, seed=3)
    b, _ = choose(found, TTT, limit=10, seed=3)
    c, _ = choose(found, TTT, limit=10, seed=4)
    assert total == len(found) > 10 and len(a) == 10 and a == b and a != c
    assert a == sorted(a, key=found.index)
    each, _ = choose(found, TTT, per_clause=2, seed=0)
    counts: dict[str, int] = {}
    for m in each:
        for cid in m.clauses:
            counts[cid] = counts.get(cid, 0) + 1
    assert set(counts) == {"turn-mark", "win-line", "setup-marks", "turn-order", "end-draw"}
    available = {c: sum(c in m.clauses for m in found) for c in counts}
    assert all(counts[c] >= min(2, available[c]) for c in counts)        # each clause has its 2 (or all)
    assert available["turn-order"] == 1 and len(each) <= 2 * len(counts)


def test_a_variant_s_overlay_is_mutated_where_it_is_written():
    stonefire = ROOT / "definitions" / "stonefire"
    base = mutants(stonefire)
    found = mutants(stonefire, variants=["riverfolk"])
    assert not any(m.file.startswith("variants/") for m in base)
    mine = [m for m in found if m.file == "variants/riverfolk.yaml"]
    text = (stonefire / "variants" / "riverfolk.yaml").read_text("utf-8").splitlines()
    line = next(i for i, t in enumerate(text, 1) if "hand_size" in t and "6" in t)
    assert f"variants/riverfolk.yaml:{line}: hand_size 6 -> 7" in [m.change for m in mine]
    assert {m.op for m in mine} >= {"parameter", "statement", "condition"}
    assert all(_Checker(stonefire).lands(m) for m in mine)
