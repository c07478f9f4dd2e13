"""Rules written the natural way run through fast paths (issue 26: speed must not depend on
knowing what is cheap): `-1` is a literal, `len(contents(s))` counts without a copy,
`top(s).side` reads the printed table with the top computed once, and a block or runner
writes a query's fast source in place. Each must give the checked form's value and count
the same work, so a game plays byte-identically with and without them."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from interpreter.lang.compiler import Compiler, Env
from interpreter.lang.runtime import Ctx, RuntimeProblem
from interpreter.load.build import build, resolve_game
from interpreter.verbs import load_all

from fast_forms import compile_functions, play as _play

ROOT = Path(__file__).resolve().parents[1]
PLAIN = ROOT / "tests" / "fixtures" / "games"

FUNCTIONS = {
    "minus": ((), "-1"),
    "count": (("s",), "len(contents(s))"),
    "mark_on": (("s",), "len(contents(s)) > 0 ? top(s).side : -1"),
    "under": (("s",), "bottom_of(s).side"),
    "holds": (("l", "p"), "len([s for s in l if mark_on(s) == p]) == 2"),
    "first_side": (("xs",), "first(xs).side"),
    "sides": (("ss",), "[top(s).side for s in ss]"),
    "in_list": (("ls",), "[x for x in [first(t).side for t in ls]]"),   # no `:=` in a comprehension's list
    "in_list_top": (("ss",), "[x for x in [top(s).side for s in ss]]"),
    "through": (("s",), "[x for x in [mark_on(s)]]"),
}
PROPS = {"x1": {"side": 0}, "x2": {"side": 1}, "x3": {"side": 1}}


def _compile(fast: bool, written: bool) -> dict:
    """The functions with fast forms, or only checked (a lean build's); `written`: some
    rule assigns `side`, so an object's own value may hide the printed one."""
    return compile_functions(FUNCTIONS, fast, ("side",) if written else (), places={"a", "b", "e"},
                             objects=set(PROPS), props=PROPS, attributes={"side"})


@pytest.fixture(scope="module", params=[False, True], ids=["printed", "written"])
def forms(request):
    return _compile(True, request.param), _compile(False, request.param), request.param


def _ctx(places: dict, attrs: dict | None = None) -> Ctx:
    s = {"places": places, "loc": {}, "attrs": attrs or {}, "n": 2, "pvars": [{}, {}]}
    return Ctx(s, SimpleNamespace(props=PROPS, attr_defaults={}), {})


CASES = [
    ("minus", ()), ("count", ("a",)), ("count", ("e",)), ("mark_on", ("a",)), ("mark_on", ("e",)),
    ("mark_on", ("b",)), ("under", ("a",)), ("holds", (["a", "b"], 1)), ("holds", (["a", "b"], 0)),
    ("holds", (["a", "e"], 1)), ("first_side", (["x2"],)), ("first_side", ([{"side": 5}],)),
    ("sides", (["a", "b"],)), ("in_list", ([["x2"], [{"side": 3}]],)),
    ("in_list_top", (["a", "b"],)), ("through", ("a",)), ("through", ("e",)),
]


def test_the_fast_forms_give_the_checked_values(forms):
    fast, checked, written = forms
    attrs = {"x2": {"side": 7}} if written else {}
    for name, args in CASES:
        places = {"a": ["x1", "x2"], "b": ["x3"], "e": []}
        want = checked[name](_ctx(places, attrs), *args)
        got = fast[name](_ctx(places, attrs), *args)
        assert got == want and type(got) is type(want), (name, args, got, want)
    c = _ctx({"a": ["x1", "x2"], "b": ["x3"], "e": []}, attrs)
    assert fast["minus"](c) == -1 and fast["count"](c, "a") == 2 and fast["count"](c, "e") == 0
    assert fast["mark_on"](c, "a") == (7 if attrs else 1) and fast["mark_on"](c, "e") == -1
    assert fast["holds"](c, ["a", "b"], 1) is (not attrs)
    # a record on a place is read as the checked form reads it
    r = _ctx({"a": [{"side": 4}], "b": [], "e": []})
    assert fast["mark_on"](r, "a") == checked["mark_on"](r, "a") == 4


def test_what_the_checked_form_refuses_the_fast_form_refuses_alike(forms):
    fast, checked, _written = forms
    for form in (fast, checked):
        with pytest.raises(RuntimeProblem, match="cannot read .side of None"):
            form["under"](_ctx({"a": [], "b": [], "e": []}), "a")
        with pytest.raises(RuntimeProblem, match="'zz' has no attribute 'side'"):
            form["mark_on"](_ctx({"a": ["zz"], "b": [], "e": []}), "a")


def test_the_fast_forms_are_plain_python():
    fast = _compile(True, False)
    text = {name: fn.lazy for name, fn in fast.items()}        # their source, before the first call
    assert "_sub" not in text["minus"] and "(-1)" in text["minus"]        # -1 is a literal
    assert "len(_P[v_s])" in text["count"] and "[:]" not in text["count"]  # counted, not copied
    assert "_sub" not in text["mark_on"] and "_pattr" not in text["mark_on"]
    assert ":=" in text["mark_on"] and ":=" in text["holds"]     # the top computed once, no call
    assert "_pattr" in text["in_list"] and ":=" not in text["in_list"]   # no `:=` there: a call
    assert "_pattr" not in text["in_list_top"]   # the top of a place is cheap to write twice
    c = _ctx({"a": ["x1", "x2"], "b": ["x3"], "e": ["x1"]})
    for name, args in CASES:
        fast[name](c, *args)                    # every text compiles and runs


@pytest.mark.parametrize("name,seeds,budgets", [
    ("ttt-plain", 30, (20, 40, 60, 90)),
    ("connect-four-plain", 12, (60, 150, 300, 400, 425, 440, 500)),
    ("pig-plain", 12, ()),
])
def test_a_plain_game_plays_as_its_checked_form(name, seeds, budgets, monkeypatch):
    """The build with fast forms against one with none (every query its checked form, in
    the same blocks and runners): the same decisions, log, end and state, and, with a small
    work budget, the same rule stopped at the same place (the same work counted)."""
    folder = resolve_game(str(PLAIN / name))
    fast, _ = build(folder, [])
    with monkeypatch.context() as m:
        m.setattr(Compiler, "fast_form", lambda self, name, tree, params, checked: checked)
        m.setattr(Compiler, "fast_forms", lambda self: False)
        checked, _ = build(folder, [])
    if budgets:       # pig-plain's one query with a fast form is its trigger's condition
        assert any(getattr(f, "fast_body", None) for p in fast.programs.values() for ins in p.code for f in ins)
    assert not any(getattr(f, "fast_body", None) for p in checked.programs.values() for ins in p.code for f in ins)
    aborted = 0
    for seed in range(seeds):
        assert _play(fast, seed, None) == _play(checked, seed, None), seed
    for budget in budgets:
        for seed in range(3):
            a, b = _play(fast, seed, budget), _play(checked, seed, budget)
            assert a == b, (budget, seed)
            aborted += "aborted" in a[1]
    assert not budgets or 0 < aborted < 3 * len(budgets)    # some budgets run out, some do not


COUNT_LOOP = """let n = 0
for s in xs {
  %s
  if size(s) > 0 {
    n = n + 1
  }
}"""


def test_a_loop_that_only_reads_reads_the_state_tables_once():
    load_all()
    env = Env(places={"a", "b"}, objects={"x1"}, props=PROPS, attributes={"side"})
    reads = Compiler(env).program("t", COUNT_LOOP % "let t = 1", params=("xs",))
    block = reads.code[0][1]
    text = block.lazy
    assert "len(_P[l['s']])" in text                            # the query written in place
    assert text.count("_P = c.s['places']") == 1 and text.index("_P = c.s['places']") < text.index("for _v")
    c = _ctx({"a": ["x1"], "b": [], "e": []})
    c.l = {"xs": ["a", "b", "a"]}
    block(c)
    assert c.l["n"] == 2 and c.w[0] == 1_000_000 - 3            # one unit of work a turn
    # a loop that changes the game reads them again after each change
    moves = Compiler(env).program("t", COUNT_LOOP % 'move("x1", s)', params=("xs",))
    text = moves.code[0][1].lazy
    assert text.index("_P = c.s['places']") > text.index("for _v")
