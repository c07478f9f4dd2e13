"""The fast form of data functions (interpreter/lang/fast.py): same values as the checked
form, other functions written inline, and a rule's problem reported as before."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from interpreter.lang.compiler import Compiler, Env
from interpreter.verbs import load_all
from interpreter.lang.runtime import Ctx, RuntimeProblem

GAMES = Path(__file__).resolve().parents[1] / "definitions"

FUNCTIONS = {
    "free": (("s",), "size(s) == 0"),
    "count_free": (("xs",), "len([s for s in xs if free(s)])"),
    "owner_of": (("s",), "size(s) > 0 and top(s) == 'x1'"),
    "same": (("x",), "[o for o in objects('mark') if o == x]"),       # binds o, as its caller does
    "pairs": ((), "[same(o) for o in objects('mark')]"),
    "spot": (("x",), "is_space(x)"),
    "side_of": (("x",), "x.side"),
    "ask": (("f",), "call_function(f, ['b'])"),         # a function named by data
    "owns2": (("s", "p"), "size(s) > 0 and p == 1"),
}
PROPS = {"x1": {"side": 0}, "x2": {"side": 1}}


@pytest.fixture(scope="module")
def compiled():
    load_all()
    env = Env(functions={k: p for k, (p, _t) in FUNCTIONS.items()}, positional=set(FUNCTIONS),
              places={"a", "b"}, objects={"x1", "x2"}, kinds={"mark": ("x1", "x2")},
              props=PROPS, attributes={"side"})
    comp = Compiler(env)
    from interpreter.lang.parser import parse
    for name, (params, text) in FUNCTIONS.items():
        env.fn_trees[name] = (params, parse(text, expression=True))
    for name, (params, text) in FUNCTIONS.items():
        assert comp.positional(name, text, params) is not None, comp.errors
    assert not comp.errors
    return env.compiled


def ctx() -> Ctx:
    s = {"places": {"a": ["x1"], "b": []}, "loc": {"x1": "a", "x2": "b"}, "attrs": {}, "n": 2}
    g = SimpleNamespace(props=PROPS, adj={"a": ("b",), "b": ("a",)}, spaces=["a", "b"], attr_defaults={})
    return Ctx(s, g, {})


def test_fast_form_gives_the_checked_values(compiled):
    c = ctx()
    assert compiled["free"](c, "b") is True and compiled["free"](c, "a") is False
    assert compiled["count_free"](c, ["a", "b", "b"]) == 2
    assert compiled["owner_of"](c, "a") is True and compiled["owner_of"](c, "b") is False
    assert compiled["pairs"](c) == [["x1"], ["x2"]]
    assert compiled["spot"](c, "a") is True and compiled["spot"](c, "zz") is False


def test_an_attribute_reads_its_own_value_first_then_the_property(compiled):
    c = ctx()
    assert compiled["side_of"](c, "x2") == 1
    c.s["attrs"]["x2"] = {"side": 7}
    assert compiled["side_of"](c, "x2") == 7
    assert compiled["side_of"](c, {"side": 3}) == 3            # a record's field
    with pytest.raises(RuntimeProblem, match="has no attribute 'side'"):
        compiled["side_of"](c, "a")


def test_cheap_calls_are_written_inline(compiled):
    # count_free reads no other function at run time: free(s) is part of its own code.
    names = set(compiled["count_free"].__code__.co_names)
    for const in compiled["count_free"].__code__.co_consts:
        names |= set(getattr(const, "co_names", ()))
    assert "_U" not in names


def test_a_rule_problem_reads_as_the_checked_form_reports_it(compiled):
    with pytest.raises(RuntimeProblem, match="no place named 'nowhere'"):
        compiled["free"](ctx(), "nowhere")
    with pytest.raises(RuntimeProblem, match="no place named 'nowhere'"):
        compiled["count_free"](ctx(), ["a", "nowhere"])


def test_a_value_only_the_checked_form_takes_falls_back(compiled):
    # is_space of a list: Python cannot hash it; the checked form answers False.
    assert compiled["spot"](ctx(), ["a"]) is False


def test_work_is_still_counted(compiled):
    c = ctx()
    c.w[0] = 2
    with pytest.raises(RuntimeProblem, match="work budget"):
        compiled["count_free"](c, ["a", "b", "b", "a"])


def test_a_block_runs_its_statements_and_names_the_one_that_failed():
    from interpreter.lang.compiler import BLOCK
    load_all()
    prog = Compiler(Env()).program("t", "let a = 1\nlet b = a + 1\nlet z = b + 'x'\nlet y = 4\n")
    assert prog.code[0][0] == BLOCK and prog.code[0][2] == 4
    c = ctx()
    with pytest.raises(RuntimeProblem, match="cannot compute 2 \\+ 'x'"):
        prog.code[0][1](c)
    assert c.l == {"a": 1, "b": 2}                    # the statements before it ran, in order
    assert c.at == 2 and prog.where[c.at][0] == 3     # the VM reports that statement's line


@pytest.mark.parametrize("gid,n", [("big-foot", 4), ("footprints", 3), ("stonefire", 4), ("fantastic-trails", 2)])
def test_a_clone_shares_nothing_the_game_changes(gid, n):
    # Clones share the entries of attrs, pvars and gvars (written anew, never in place):
    # playing the original on must leave the clone as it was, and the clone replays the same.
    import random
    from interpreter.load.build import load_game
    g = load_game(gid)
    state, rnd, played = g.new_initial_state(n, 11), random.Random(2), []
    for _ in range(40):
        if state.is_terminal():
            break
        a = rnd.randrange(len(state.legal_actions()))
        state.apply_action(a)
        played.append(a)
    copy, before = state.clone(), state.clone().digest()
    rest = []
    while not state.is_terminal():
        rest.append(rnd.randrange(len(state.legal_actions())))
        state.apply_action(rest[-1])
    assert copy.digest() == before
    for a in rest:
        copy.apply_action(a)
    assert copy.digest() == state.digest()


def test_a_set_up_without_chance_is_kept_and_copied_with_the_new_seed():
    from interpreter.load.build import build
    a, _ = build(GAMES / "tic-tac-toe", [])
    b, _ = build(GAMES / "tic-tac-toe", [])
    a.new_initial_state(2, 3)                     # a keeps this set-up (no chance in it)
    assert a._setups
    copied, fresh = a.new_initial_state(2, 5), b.new_initial_state(2, 5)
    assert copied.d["seed"] == 5 and copied.digest() == fresh.digest()
    copied.apply_action(0)
    assert copied.digest() != fresh.digest()     # its own state, not the kept one
    assert a.new_initial_state(2, 5).digest() == fresh.digest()


def test_a_set_up_with_chance_is_not_kept():
    from interpreter.load.build import build
    g, _ = build(GAMES / "footprints", [])
    g.new_initial_state(3, 1)
    assert not g._setups


def test_generated_code_compiles_when_first_called():
    load_all()
    comp = Compiler(Env())
    fn = comp.expression("1 + 2")
    assert hasattr(fn, "lazy")                    # loaded, not compiled yet
    assert fn(ctx()) == 3 and not hasattr(fn, "lazy")
    assert fn(ctx()) == 3


@pytest.mark.parametrize("x,expect", [(1, {"x": 1, "y": 10, "z": 11}), (2, {"x": 2, "y": 20, "z": 21}),
                                      (3, {"x": 3, "y": 30, "z": 31})])
def test_an_if_without_decisions_runs_in_one_block(x, expect):
    from interpreter.lang.compiler import BLOCK
    load_all()
    text = ("let y = 0\nif x == 1 {\n  y = 10\n} elif x == 2 {\n  y = 20\n} else {\n  y = 30\n}\n"
            "let z = y + 1\n")
    prog = Compiler(Env()).program("t", text, params=("x",))
    assert prog.code[0][0] == BLOCK and prog.code[0][2] == len(prog.code) - 1   # all but the RET
    c = ctx()
    c.l = {"x": x}
    prog.code[0][1](c)
    assert c.l == expect


def test_a_failing_statement_in_a_branch_names_its_own_line():
    load_all()
    prog = Compiler(Env()).program("t", "let y = 0\nif x == 1 {\n  y = 1\n} else {\n  y = x + 'a'\n}\n",
                                   params=("x",))
    c = ctx()
    c.l = {"x": 2}
    with pytest.raises(RuntimeProblem, match="cannot compute 2 \\+ 'a'"):
        prog.code[0][1](c)
    assert prog.where[c.at][0] == 5


LOOP = ("let t = 0\nfor v in xs {\n  if v == 3 {\n    continue\n  }\n  if v == 9 {\n    break\n  }\n"
        "  t = t + v\n}\nlet done = t\n")


@pytest.mark.parametrize("xs,total", [([1, 2, 3, 4], 7), ([5, 9, 100], 5), ([], 0)])
def test_a_loop_without_decisions_runs_in_the_block(xs, total):
    from interpreter.lang.compiler import BLOCK
    load_all()
    prog = Compiler(Env()).program("t", LOOP, params=("xs",))
    assert prog.code[0][0] == BLOCK and prog.code[0][2] == len(prog.code) - 1
    c = ctx()
    c.l = {"xs": xs}
    prog.code[0][1](c)
    assert c.l["done"] == total and c.l.get("v") == (xs[-1] if xs and 9 not in xs else (9 if xs else None))


def test_a_loop_in_a_block_keeps_its_checks():
    load_all()
    prog = Compiler(Env()).program("t", LOOP, params=("xs",))
    c = ctx()
    c.l = {"xs": 5}
    with pytest.raises(RuntimeProblem, match="'for' needs a list, got 5"):
        prog.code[0][1](c)
    c.l = {"xs": [1, "a"]}
    with pytest.raises(RuntimeProblem, match="cannot compute 1 \\+ 'a'"):
        prog.code[0][1](c)
    assert prog.where[c.at][0] == 9                 # t = t + v
    c = ctx()
    c.l, c.w[0] = {"xs": list(range(10, 60))}, 10  # each turn counts as work
    with pytest.raises(RuntimeProblem, match="work budget"):
        prog.code[0][1](c)


def test_a_list_walked_for_a_verb_that_changes_the_game_has_its_own_fast_form():
    # move(first([...]), to): the move must run once, so the statement has no fast form; the
    # list it is given only queries, so it is computed by a function with one (a procedure's
    # argument list likewise). A problem in it still reads as the checked form reports it.
    load_all()
    env = Env(places={"a", "b"}, objects={"x1", "x2"}, kinds={"mark": ("x1", "x2")}, props=PROPS,
              attributes={"side", "nope"})
    comp = Compiler(env)
    prog = comp.program("t", 'move(first([o for o in objects("mark") if o.side == 0]), "b")\n')
    assert prog is not None, comp.errors
    parts = [v for k, v in comp.ns.items() if k.startswith("k") and getattr(v, "fast", False)]
    assert len(parts) == 1                        # the walked list, with its fast form
    c = ctx()
    prog.code[0][1](c)
    assert c.s["places"] == {"a": [], "b": ["x1"]} and c.s["loc"]["x1"] == "b"
    bad = comp.program("u", 'move(first([o for o in objects("mark") if o.nope == 1]), "b")\n')
    with pytest.raises(RuntimeProblem, match="has no attribute 'nope'"):
        bad.code[0][1](ctx())


def test_a_printed_value_no_rule_changes_is_read_from_its_table_until_one_can_hide_it():
    # Once a build is sealed, an attribute no program assigns cannot be an object's own,
    # so its fast read skips the object's own attributes; a loaded state or a scenario
    # that gives it turns that back off (lang/fast.py mark_written).
    from interpreter.lang.fast import mark_written, seal
    load_all()
    env = Env(functions={"side_of": ("x",)}, positional={"side_of"}, objects={"x1", "x2"}, props=PROPS,
              attributes={"side", "other"})
    assert Compiler(env).positional("side_of", "x.side", ("x",)) is not None
    seal(env)
    c = ctx()
    c.s["attrs"]["x2"] = {"side": 7}       # no rule could have written this
    assert env.compiled["side_of"](c, "x2") == 1
    mark_written(env, "side")
    assert env.compiled["side_of"](c, "x2") == 7
    assert env.compiled["side_of"](c, "x1") == 0


def test_a_loaded_state_that_gives_a_printed_attribute_is_read_as_it_says():
    import json

    from interpreter.engine.game import deserialize
    from interpreter.load.build import load_game
    g = load_game(GAMES / "tic-tac-toe")
    comp = Compiler(g.env)                     # as a scenario's program is compiled, after the build
    side_of = comp.positional("side_of", "x.side", ("x",))
    assert side_of is not None and not comp.errors
    state = g.new_initial_state(2, 1)
    data = json.loads(state.serialize())
    mark = next(o for o, props in g.props.items() if props.get("side") == 0)
    data["state"]["attrs"][mark] = {"side": 1}          # no rule of the game writes `side`
    assert side_of(Ctx(data["state"], g, {}), mark) == 0   # so its printed value is read at once
    loaded = deserialize(g, json.dumps(data))
    assert side_of(Ctx(loaded.d, g, {}), mark) == 1


def test_a_function_named_by_data_is_called_at_once(compiled):
    # call_function(f, [written list]) is `_U[f](c, ...)` in the fast form: no verb between.
    c = ctx()
    c.g.functions = dict(compiled)
    c.g.env = SimpleNamespace(functions={k: p for k, (p, _t) in FUNCTIONS.items()}, compiled=compiled)
    assert compiled["ask"](c, "free") is True
    assert "_U" in compiled["ask"].__code__.co_names
    with pytest.raises(RuntimeProblem, match="no function named 'nope'"):   # the checked form says so
        compiled["ask"](c, "nope")
    with pytest.raises(RuntimeProblem, match="takes 2 argument"):
        compiled["ask"](c, "owns2")


def test_an_end_of_a_list_and_a_printed_attribute_of_a_computed_object():
    # first/last of a list and `top(s).side` are plain Python in the fast form; a value
    # the checked form refuses still reads as it reports it.
    from interpreter.lang.fast import seal
    load_all()
    env = Env(functions={"tail": ("xs",), "head": ("xs", "d"), "top_side": ("s",)},
              positional={"tail", "head", "top_side"}, places={"a", "b"}, objects={"x1", "x2"},
              props=PROPS, attributes={"side"})
    comp = Compiler(env)
    for name, params, text in (("tail", ("xs",), "last(xs)"), ("head", ("xs", "d"), "first(xs, d)"),
                               ("top_side", ("s",), "top(s).side")):
        assert comp.positional(name, text, params) is not None, comp.errors
    seal(env)
    f = env.compiled
    c = ctx()
    assert f["tail"](c, [1, 2]) == 2 and f["tail"](c, []) is None
    assert "_FAIL" in f["tail"].__code__.co_names             # compiled on its first call
    assert f["head"](c, [3], 5) == 3 and f["head"](c, [], 5) == 5
    with pytest.raises(RuntimeProblem, match=r"last\(\) needs a list"):
        f["tail"](c, "ab")
    with pytest.raises(RuntimeProblem, match=r"first\(\) needs a list"):
        f["head"](c, {"k": 1}, 0)
    assert f["top_side"](c, "a") == 0
    c.s["places"]["b"] = ["x2"]
    assert f["top_side"](c, "b") == 1
    c.s["places"]["b"] = [{"side": 4}]          # a record on a place: the checked form reads it
    assert f["top_side"](c, "b") == 4
    c.s["places"]["b"] = []
    with pytest.raises(RuntimeProblem):
        f["top_side"](c, "b")


def test_a_record_read_through_a_computed_object_does_not_run_the_checked_form():
    # A fast form that raises runs its whole checked form again, so a common value (a
    # record, not an entity) must be read without raising.
    from interpreter.lang.fast import seal
    load_all()
    env = Env(functions={"first_side": ("rs",)}, positional={"first_side"}, objects={"x1", "x2"},
              props=PROPS, attributes={"side"})
    assert Compiler(env).positional("first_side", "first(rs).side", ("rs",)) is not None
    seal(env)
    f = env.compiled["first_side"]
    c = ctx()
    assert f(c, ["x2"]) == 1                     # compiles it
    ns = f.__globals__
    checked = [k for k in f.__code__.co_names if k[0] == "k" and k[1:].isdigit() and callable(ns[k])]
    assert checked
    calls = []
    for k in checked:
        ns[k] = (lambda fn: lambda *a: calls.append(1) or fn(*a))(ns[k])
    assert f(c, [{"side": 5}]) == 5 and f(c, ["x1"]) == 0 and f(c, ["x2"]) == 1
    assert calls == []
    with pytest.raises(RuntimeProblem):          # nothing to read: the same problem as before
        f(c, [])
