"""Fast paths found by profiling the shipped games (issue 26): an object's own attribute
read in place, a data function inlined with a dear argument computed once, an empty list
walked with no call, ints added and subtracted as plain Python, the board's neighbour
table read once, sort_by reading properties at once, runners writing choose's options,
a loop's list and a call's arguments in place. Each must give the checked form's value,
raise where it raises and count the same work; and a `for` loop counts one unit of work a
turn wherever it runs (the VM, a runner, a block), so a build only checked (lean) stops a
rule that does too much at the same place as a played one."""
from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import pytest

from interpreter.lang.compiler import LET, Compiler, Env
from interpreter.lang.runtime import MAX_INT, Ctx, RuntimeProblem
from interpreter.load.build import build, resolve_game
from interpreter.verbs import load_all

from fast_forms import compile_functions, play as _play

ROOT = Path(__file__).resolve().parents[1]

FUNCTIONS = {
    "owner_of": (("x",), "x.owner"),
    "free": (("s",), "s != 'a' and len([o for o in contents(s) if o.side == 1]) == 0"),
    "free_end": (("xs",), "free(last(xs))"),                     # a dear argument, used twice
    "free_ends": (("ls",), "[x for x in ls if free(last(x))]"),
    "count_in": (("xs",), "len([x for x in xs if x > 0])"),
    "twice": (("xs",), "len([a for a in xs]) + len([b for b in xs])"),
    "twice_of": (("n",), "twice([k for k in range(n)])"),      # the argument's work counted once
    "some": (("xs",), "any([x > 1 for x in xs])"),
    "every": (("xs",), "all([x > 1 for x in xs])"),
    "plus1": (("a",), "a + 1"),
    "minus1": (("a",), "a - 1"),
    "one_plus": (("a",), "1 + a"),
    "plus": (("a", "b"), "a + b"),
    "minus": (("a", "b"), "a - b"),
    "owner_plus": (("x",), "x.owner + 1"),                      # a dear operand: computed once
    "label": (("a",), "'n' + a + 'x'"),                         # texts: the one call
    "spot": (("x",), "is_space(x)"),
    "spots": (("xs",), "[x for x in xs if is_space(x)]"),
    "by_side": (("xs",), "sort_by(xs, 'side')"),
    "side_of": (("r",), "r.side"),
    "tag_of": (("r",), "r.tag"),                                # no entity has it: records only
    "tags": (("rs",), "[r.tag for r in rs]"),
    "hand": (("p",), "zone('hand', p)"),
    "hand_size": (("p",), "size(zone('hand', p))"),
    "seat_owner": ((), "0.owner"),                              # a seat written as a number
    "far_seat_owner": ((), "9.owner"),
    "seat_side": ((), "1.side"),                                # no seat has it: the call
    # a comprehension's variable over ids (a place's contents, objects(kind), spaces()) or
    # seats (players()): its attributes read with no type test (anything else: the checked form)
    "sides_in": (("s",), "[o.side for o in contents(s)]"),
    "owners_in": (("s",), "[o.owner for o in contents(s) if o.side == 1]"),
    "piece_owners": ((), "[o.owner for o in objects('piece')]"),
    "space_ids": ((), "[s.id for s in spaces()]"),
    "seat_owners": ((), "[p.owner for p in players()]"),
}
WALKED = ("sides_in", "owners_in", "piece_owners", "space_ids", "seat_owners")
PROPS = {"x1": {"side": 0, "owner": 5}, "x2": {"side": 1}, "x3": {"side": 1}, "a": {}, "b": {}, "e": {}}
DEFAULTS = {"owner": None}


def _compile(fast: bool) -> dict:
    """The functions with fast forms, or only checked (a lean build's). `owner` is written
    by some rule, so an object's own value may hide the printed one."""
    return compile_functions(FUNCTIONS, fast, ("owner",), places={"a", "b", "e"}, zones={"hand"},
                             objects={"x1", "x2", "x3"}, props=PROPS, attributes={"side", "owner", "tag", "id"},
                             attr_defaults=DEFAULTS, player_vars={"owner"}, kinds={"piece": ("x1", "x2", "x3")})


@pytest.fixture(scope="module")
def forms():
    return _compile(True), _compile(False)


def _ctx(attrs: dict | None = None, work: int = 1_000_000) -> Ctx:
    s = {"places": {"a": ["x1", "x2"], "b": ["x3"], "e": [], "hand/0": [], "hand/1": ["x1"], "hand/70": [],
                    "r": [{"side": 1, "owner": 2}, "x3"], "q": [0], "t": ["x2", "zz"]},   # (not only ids)
         "loc": {"x1": "a", "x2": "a", "x3": "b"},
         "attrs": attrs or {}, "n": 2, "pvars": [{"owner": 7}, {"owner": 8}]}
    g = SimpleNamespace(props=PROPS, attr_defaults=DEFAULTS, adj={"a": ("b",), "b": ("a", "e"), "e": ("b",)},
                        spaces=["a", "b", "e"])
    return Ctx(s, g, {}, [work])


BIG = MAX_INT
CASES = [
    ("owner_of", ("x1",)), ("owner_of", ("x2",)), ("owner_of", ("a",)), ("owner_of", ({"owner": 3},)),
    ("owner_of", (1,)), ("owner_of", ("zz",)), ("owner_of", (None,)), ("owner_of", (5,)),
    ("free", ("a",)), ("free", ("b",)), ("free", ("e",)), ("free", ("zz",)),
    ("free_end", (["b", "e"],)), ("free_end", (["e", "b"],)), ("free_end", ([],)), ("free_end", ("e",)),
    ("free_ends", ([["b"], ["a", "e"], ["e", "b"]],)), ("free_ends", ([[], ["e"]],)),
    ("count_in", ([],)), ("count_in", ([1, -1, 2],)), ("count_in", ("",)), ("count_in", (None,)),
    ("count_in", ("ab",)), ("twice", ([1, 2, 3],)), ("twice", ([],)), ("twice_of", (4,)), ("twice_of", (0,)),
    ("some", ([],)), ("some", ([0, 2, 0],)), ("some", ([0],)), ("some", (None,)),
    ("every", ([],)), ("every", ([2, 3],)), ("every", ([2, 0, 5],)), ("every", ("",)),
    ("plus1", (3,)), ("plus1", (BIG - 1,)), ("plus1", (BIG,)), ("plus1", (-BIG,)), ("plus1", (True,)),
    ("plus1", ("x",)), ("plus1", (None,)), ("minus1", (-BIG + 1,)), ("minus1", (-BIG,)), ("minus1", (BIG,)),
    ("one_plus", (BIG,)), ("one_plus", (-BIG,)), ("one_plus", (2,)), ("plus", (BIG, 1)), ("plus", (BIG, -1)),
    ("plus", (-BIG, -1)), ("plus", ("ab", "cd")), ("plus", ([1], [2, 3])), ("plus", (1, "x")),
    ("plus", (False, 2)), ("minus", (-BIG, 1)), ("minus", (-BIG, -1)), ("minus", (5, 7)), ("minus", ([1], 1)),
    ("owner_plus", ("x1",)), ("owner_plus", ("x2",)), ("owner_plus", (0,)), ("owner_plus", ("zz",)),
    ("label", ("b",)), ("label", (1,)),
    ("spot", ("a",)), ("spot", ("zz",)), ("spot", (["a"],)), ("spot", (3,)),
    ("spots", (["a", "zz", "e"],)), ("spots", ([["a"], "b"],)),
    ("by_side", (["x2", "x1", "x3"],)), ("by_side", (["x3", {"side": -1}, "x1"],)), ("by_side", (["x1", "zz"],)),
    ("by_side", ([0, 1],)),
    ("side_of", ({"side": 4},)), ("side_of", ({},)), ("side_of", ("x2",)), ("side_of", (3,)),
    ("tag_of", ({"tag": 1},)), ("tag_of", ({},)), ("tag_of", ("x1",)), ("tag_of", (None,)),
    ("tags", ([{"tag": 1}, {"tag": [2]}],)), ("tags", ([{"tag": 1}, {}],)),
    ("hand", (0,)), ("hand", (1,)), ("hand", (2,)), ("hand", (True,)), ("hand", (-1,)), ("hand", (70,)),
    ("hand", ("x",)), ("hand", (None,)), ("hand_size", (1,)), ("hand_size", (3,)), ("hand_size", (70,)),
    ("seat_owner", ()), ("far_seat_owner", ()), ("seat_side", ()),
    ("sides_in", ("a",)), ("sides_in", ("e",)), ("sides_in", ("r",)), ("sides_in", ("q",)), ("sides_in", ("t",)),
    ("sides_in", ("zz",)), ("owners_in", ("a",)), ("owners_in", ("b",)), ("owners_in", ("r",)),
    ("owners_in", ("q",)), ("piece_owners", ()), ("space_ids", ()), ("seat_owners", ()),
]


def _run(fn, attrs, args, work=1_000_000, adj=None):
    """Returns what a call gives (or the problem it raises) and the work it counted.
    `adj`: a board assembled in play (the state's neighbour table)."""
    c = _ctx(attrs, work)
    if adj is not None:
        c.s["adj"] = adj
    try:
        got = fn(c, *args)
    except RuntimeProblem as e:
        got = ("problem", str(e))
    return got, type(got), c.w[0]


@pytest.mark.parametrize("attrs", [{}, {"x1": {"owner": 1}, "x2": {"owner": 2}, "zz": {"owner": 4}}],
                         ids=["printed", "own"])
def test_the_fast_forms_give_the_checked_values_and_work(forms, attrs):
    fast, checked = forms
    for name, args in CASES:
        want = _run(checked[name], attrs, args)
        assert _run(fast[name], attrs, args) == want, (name, args, want)


def test_a_board_assembled_in_play_is_the_one_read(forms):
    fast, checked = forms
    for name, args in [("spot", ("a",)), ("spot", ("b",)), ("spots", (["a", "b", "e"],))]:
        want = _run(checked[name], {}, args, adj={"b": ()})
        assert _run(fast[name], {}, args, adj={"b": ()}) == want, (name, args, want)
    assert _run(fast["spot"], {}, ("a",), adj={"b": ()})[0] is False


AUGMENTED = """let n = k
n += d
n -= 1
game.g = n"""


def test_an_augmented_assignment_adds_as_the_checked_form_does():
    load_all()
    values = []
    for lean in (False, True):
        comp = Compiler(Env(game_vars={"g"}, lean=lean))
        prog = comp.program("t", AUGMENTED, params=("k", "d"))
        assert not comp.errors
        adds = [ins[2] for ins in prog.code if ins[0] == LET and ins[1] == "n"][-2:]   # (the first: a BLOCK)
        assert len(adds) == 2 and all((getattr(f, "fast_body", None) is not None) != lean for f in adds)
        got = []
        for k, d in [(3, 4), (BIG - 1, 1), (BIG, 1), (-BIG, -1), ("a", "b"), ([1], [2]), (True, 1), (1, None)]:
            c = _ctx()
            c.l = {"k": k, "d": d, "n": k}
            try:
                got.append((adds[0](c), c.w[0]))
                c.l["n"] = k
                got.append((adds[1](c), c.w[0]))
            except RuntimeProblem as e:
                got.append(str(e))
        values.append(got)
    assert values[0] == values[1]
    assert values[0][0] == (7, 1_000_000) and "beyond" in values[0][4]


@pytest.mark.parametrize("name,args", [("twice_of", (6,)), ("count_in", ([1, 2, 3, 4],)), ("some", ([0, 0, 0],)),
                                       ("owners_in", ("a",)), ("piece_owners", ()), ("seat_owners", ()),
                                       ("free_ends", ([["b"], ["e"], ["b", "e"]],)), ("plus", ([1, 2], [3]))])
def test_a_small_budget_stops_the_fast_forms_where_it_stops_the_checked(forms, name, args):
    fast, checked = forms
    stopped = 0
    for work in range(0, 30):
        want = _run(checked[name], {}, args, work)
        assert _run(fast[name], {}, args, work) == want, (name, args, work, want)
        stopped += type(want[0]) is tuple and want[0][0] == "problem"
    assert 0 < stopped < 30


def test_the_new_fast_paths_are_plain_python(forms):
    text = {name: fn.lazy for name, fn in _compile(True).items()}     # the source, before the first call
    assert "_attr(" not in text["owner_of"].split("else _attr")[0] and "_A.get(v_x" in text["owner_of"]
    assert "_U[" not in text["free_end"] and ":=" in text["free_end"]       # inlined, its argument bound once
    assert "_U[" not in text["free_ends"]      # in a comprehension's condition it is bound too
    assert "== [] else" in text["free"] and "== [] else" in text["some"]
    for name in ("plus1", "minus1", "one_plus", "plus", "minus", "owner_plus"):
        assert " if " in text[name].split("return", 1)[1].split("\n")[0], name    # no call for two ints
    assert "_t" in text["owner_plus"] and ":=" in text["owner_plus"]
    assert " if " not in text["label"].split("return", 1)[1].split("\n")[0]    # a text: _add at once
    for name in ("side_of", "tag_of", "tags"):       # a record's field read with no call
        assert "if type(" in text[name] and "is dict" in text[name], name
    assert "zone(" not in text["hand_size"].split("if type")[0] and ".get(v_p) in _P" in text["hand_size"]
    assert "_J = c.s.get('adj') or c.g.adj" in text["spots"] and "c.s.get('adj')" not in text["spots"].split("try:")[1]
    # an attribute some rule assigns (owner): an object's own value looked at first, no flag
    # tested; one none assigns (side): the flag, then the printed table alone
    assert "_PR['owner']" not in text["owner_of"] and "_PR['side']" in text["sides_in"]
    for name in WALKED:             # a variable over ids or seats: its one read, no type test
        body = text[name].split("return", 1)[1].split("\n")[0]
        assert "type(" not in body and "_attr(" not in body, (name, body)


# ---- whole programs: runners, blocks and the VM -------------------------------------------

@pytest.mark.parametrize("game,players,seeds,budgets", [
    ("tests/fixtures/games/ttt-plain", 2, 2, (40, 60)),
    ("big-foot", 3, 3, (120, 160, 200)),
])
def test_a_lean_build_stops_a_rule_where_a_played_one_does(game, players, seeds, budgets):
    """A lean build (cairn validate, scenarios) runs every instruction in the VM; a played
    one runs blocks and runners. A `for` loop counts one unit of work a turn in each, so a
    small work budget stops the same rule at the same line (ttt-plain at 40 stopped at
    game.yaml:70:10 played but 55:7 lean when the VM's loops counted nothing)."""
    folder = resolve_game(str(ROOT / game) if "/" in game else game)
    played, _ = build(folder, [])
    lean, _ = build(folder, [], lean=True)
    aborted = 0
    for budget in budgets:
        for seed in range(seeds):
            a, b = _play(played, seed, budget, players), _play(lean, seed, budget, players)
            assert a[1] == b[1], (budget, seed, a[1].get("aborted"), b[1].get("aborted"))
            assert a == b, (budget, seed)
            aborted += "aborted" in a[1]
    assert 0 < aborted < seeds * len(budgets)


def test_a_loop_in_the_vm_counts_one_unit_of_work_a_turn():
    folder = resolve_game(str(ROOT / "tests/fixtures/games/ttt-plain"))
    lean, _ = build(folder, [], lean=True)
    result = _play(lean, 0, 40)[1]
    assert "game.yaml:70:10: work budget exceeded" in result.get("aborted", ""), result


RUNNER = """let xs = [s for s in ss if size(s) == 0]
let t = choose([s for s in ss if size(s) > 0], player=0)
for s in [s for s in ss if size(s) == 0] {
  log("{s}")
}
t.side = len([s for s in ss if size(s) > 0])
game.g = len([s for s in ss if size(s) > 0])
note([s for s in ss if size(s) > 0])
let u = choose(ss, player=0)"""


def test_a_runner_writes_queries_in_place():
    """choose's options and a procedure call's arguments in a runner, a loop's list and
    assigned values in a block: their fast source written in place (`len(_P[...])`), not
    a call of their function."""
    from interpreter.lang.compiler import BLOCK, CALL, CHOOSE, FOR_INIT, SETATTR, SETGAME
    from interpreter.lang.runner import Within, runner_text
    load_all()
    env = Env(places={"a", "b"}, objects={"x1"}, props=PROPS, attributes={"side"}, game_vars={"g"},
              procedures={"note": ("ys",)})
    comp = Compiler(env)
    prog = comp.program("t", RUNNER, params=("ss",))
    assert not comp.errors, comp.errors
    code = prog.code
    runner = runner_text(code, comp.const, Within(frozenset({"proc:note"})))   # note() never stops
    block = next(ins[1] for ins in code if ins[0] == BLOCK)
    assert [ins[0] for ins in code if ins[0] in (CHOOSE, CALL)] == [CHOOSE, CALL, CHOOSE]
    options = next(ins[2].parts[0] for ins in code if ins[0] == CHOOSE)
    args = next(ins[2] for ins in code if ins[0] == CALL)
    for fn in (options, args):
        assert fn.fast_body in runner, fn.fast_body
    fused = [ins[2] for ins in code if ins[0] in (FOR_INIT, SETGAME)] + [ins[3] for ins in code if ins[0] == SETATTR]
    for fn in fused:
        assert fn.fast_body in block.lazy, fn.fast_body
    assert runner.count("len(_P[") == 3 and block.lazy.count("len(_P[") == 3


def test_sort_by_reads_what_get_attr_reads():
    """sort_by reads an entity's property at once unless it has attributes of its own."""
    from interpreter.lang.runtime import get_attr
    from interpreter.verbs.ordering import sort_by
    load_all()
    items = ["x3", "x2", "x1", {"side": 0}, "x2"]
    for attrs in ({}, {"x2": {"side": -1}}, {"x1": {"owner": 3}, "x3": {"side": 0}}):
        for descending in (False, True):
            c = _ctx(attrs)
            keyed = [(get_attr(c, x, "side"), k) for k, x in enumerate(items)]
            order = sorted(keyed, key=lambda t: t[0], reverse=descending)
            assert sort_by(c, items, "side", descending) == [items[k] for _v, k in order], (attrs, descending)


@pytest.mark.parametrize("items", [["x3", "x2", "x1", "x2"], ["x3", "x1", 0], ["x2", "a"], ["x1", ["x2"]], []])
def test_sort_by_reads_printed_properties_with_no_step_an_item(items):
    """Entities with no attributes of their own, every one with the property: sorted with
    no read of each (no get_attr); anything else (a seat, an entity without it, a list)
    read in turn as before, giving the same order or the same problem."""
    from interpreter.lang import runtime
    from interpreter.verbs import ordering
    load_all()
    for attrs, descending, k in itertools.product(({}, {"x2": {"side": -1}}, {"x1": {"owner": 3}}), (False, True),
                                                  (1, 3)):      # (own attributes or a short list: read in turn)
        its = items * k
        c = _ctx(attrs)
        try:
            keyed = [(runtime.get_attr(c, x, "side"), n) for n, x in enumerate(its)]
            want = [its[n] for _v, n in sorted(keyed, key=lambda t: t[0], reverse=descending)]
        except RuntimeProblem as e:
            want = str(e)
        try:
            got = ordering.sort_by(c, its, "side", descending)
        except RuntimeProblem as e:
            got = str(e)
        assert got == want, (its, attrs, descending)


def _steps(module: object, run) -> int:
    """The Python steps (bytecodes) `run()` takes in `module`'s own code."""
    import sys
    n = [0]

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != module.__file__:
            return None
        frame.f_trace_opcodes = True

        def local(frame, event, arg):
            n[0] += event == "opcode"
            return local
        return local
    before = sys.gettrace()          # (a coverage run's tracer, given back after)
    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(before)
    return n[0]


def test_sort_by_reads_a_long_list_of_entities_at_once():
    """A board's spaces sorted by their printed number: their numbers read with no Python
    step a space (only the sorted list is written out one by one), where reading each in
    turn takes some twenty steps a space (a short list still is: quicker for a few)."""
    from interpreter.verbs import ordering
    load_all()
    few = ["x3", "x2", "x1", "x2"] * (ordering.SORT_AT_ONCE // 4)
    more = _steps(ordering, lambda: ordering.sort_by(_ctx(), few * 50, "side", False)) \
        - _steps(ordering, lambda: ordering.sort_by(_ctx(), few, "side", False))
    assert 0 < more < 8 * len(few) * 49


def test_a_loop_in_a_block_stops_at_its_for_line():
    """A turn a block's loop cannot count fails at the loop's FOR_NEXT, as in the VM (not
    at the last statement of the turn before)."""
    from interpreter.lang.compiler import BLOCK, FOR_NEXT
    load_all()
    comp = Compiler(Env())
    prog = comp.program("t", "let n = 0\nfor s in xs {\n  n = n + 1\n}\nlet m = n", params=("xs",))
    assert prog.code[0][0] == BLOCK
    head = next(k for k, ins in enumerate(prog.code) if ins[0] == FOR_NEXT)
    c = _ctx(work=2)
    c.l = {"xs": [1, 2, 3, 4]}
    with pytest.raises(RuntimeProblem, match="work budget"):
        prog.code[0][1](c)
    assert c.at == head and c.l["n"] == 2


def test_a_query_written_in_place_that_falls_back_counts_its_work_once():
    """A fast source in a block that raises a Python error gives back the work it counted
    before its checked form runs: the checked form's own problem is reported, not a work
    budget spent twice."""
    load_all()
    comp = Compiler(Env(places={"a"}))
    prog = comp.program("t", "let a = 1\nlet y = len([x for x in xs]) + size(xs[0])", params=("xs",))
    block = prog.code[0][1]
    assert "_w0" in block.lazy
    for form in (block, prog.code[1][2].checked):
        c = _ctx(work=5)
        c.l = {"xs": [1, 2, 3]}
        with pytest.raises(RuntimeProblem) as err:
            form(c)
        assert "work budget" not in str(err.value)


def test_paths_found_before_are_the_search_s_walks():
    """paths() on the fixed board: a kept (start, length) answered before any other look,
    filtered by one or more blocked spaces, gives the search's walks and counts the whole
    search's work, as a first call does."""
    from interpreter.verbs.graph import _walks, paths
    load_all()
    adj = {"a": ("b", "c"), "b": ("a", "c", "d"), "c": ("a", "b", "d"), "d": ("b", "c")}
    g = SimpleNamespace(props={}, attr_defaults={}, adj=adj, spaces=list(adj), walks={}, walks_kept=0)
    for start in adj:
        for length in (1, 2, 3):
            for avoid in (None, [], ["b"], ["d", "c"], ["zz"]):
                for _twice in range(2):            # searched, then kept
                    c = Ctx({"attrs": {}}, g, {}, [1000])
                    got = paths(c, start, length, avoid)
                    assert got == _walks(Ctx({}, g, {}, [1000]), adj, start, length, set(avoid or ()))
                    s = Ctx({}, g, {}, [1000])
                    _walks(s, adj, start, length, set())     # the whole search's work, kept or not
                    assert c.w[0] == s.w[0], (start, length, avoid)
    assert g.walks
    with pytest.raises(RuntimeProblem, match="work budget"):
        paths(Ctx({"attrs": {}}, g, {}, [1]), "a", 3, ["b"])


def test_a_seat_written_as_a_number_reads_its_variable_with_no_dead_branch():
    """`0.owner` reads seat 0's variable directly: no branch subscripting the literal (which
    Python warns of when it compiles, even where a type test never takes it)."""
    import re
    text = _compile(True)["seat_owner"].lazy            # the source, before the first call
    assert "_V[0]['owner']" in text and not re.search(r"[^\w\]]0\[", text)


def test_a_game_variable_given_no_list_nor_record_is_kept_with_no_check():
    """`game.g = ...` checks that the state can keep a list or a record; a value that is
    never one (a comparison, a number, a text, len(...)) is kept at once, in a block or a
    runner; a list is still checked, and one the state cannot keep still refused."""
    from interpreter.lang.compiler import BLOCK, SETGAME
    from interpreter.lang.runner import runner_text
    load_all()
    comp = Compiler(Env(game_vars={"g", "h"}))
    text = "let a = xs\ngame.g = len(a) > 1 and a != []\ngame.h = a"
    prog = comp.program("t", text, params=("xs",))
    assert not comp.errors and prog.code[0][0] == BLOCK
    sets = {ins[1]: ins[2] for ins in prog.code if ins[0] == SETGAME}
    assert sets["g"].scalar and not sets["h"].scalar
    block, runner = prog.code[0][1].lazy, runner_text(prog.code[1:], comp.const)
    for src in (block, runner):
        assert src.count("_save_check(") == 1, src       # game.h's alone
    for xs, g in (([1, 2], True), ([], False), ({1: 2}, None)):     # (a record's keys are texts)
        c = _ctx()
        c.s["gvars"] = {}
        c.l = {"xs": xs}
        c.g.measured = {}
        if g is None:
            with pytest.raises(RuntimeProblem, match="cannot keep"):
                prog.code[0][1](c)
            assert c.at == 2
        else:
            prog.code[0][1](c)
            assert c.s["gvars"] == {"g": g, "h": xs}


BLOCK_LINES = """let a = 1
if a == 1 {
  let b = a + 'x'
}
let y = 4"""
LOOP_LINES = """let t = 0
for x in xs {
  if x != 0 {
    t = t + x
  }
}
let z = t + w"""


@pytest.mark.parametrize("text,params,args,line,problem", [
    (BLOCK_LINES, (), {}, 3, "cannot compute 1 \\+ 'x'"),                       # a statement under an if
    (LOOP_LINES, ("xs", "w"), {"xs": [1, 0, "x"], "w": 0}, 4, "cannot compute 1 \\+ 'x'"),   # a loop's body
    (LOOP_LINES, ("xs", "w"), {"xs": [1, 2], "w": "x"}, 7, "cannot compute"),   # after the loop
    (LOOP_LINES, ("xs", "w"), {"xs": 3, "w": 0}, 2, "'for' needs a list"),      # the loop's list
    (LOOP_LINES, ("xs", "w"), {"xs": [1, 2]}, 7, "has no value|'w'"),          # a local with no value
])
def test_a_block_names_the_statement_that_failed_from_its_line(text, params, args, line, problem):
    """A block notes no statement as it goes: when one fails, the line Python failed on
    says which (blocks.statement_lines), under an if, in a loop and after it alike."""
    from interpreter.lang.compiler import BLOCK
    load_all()
    comp = Compiler(Env())
    prog = comp.program("t", text, params=params)
    assert not comp.errors and prog.code[0][0] == BLOCK and "\n        i = " not in prog.code[0][1].lazy
    c = _ctx()
    c.l = dict(args)
    with pytest.raises((RuntimeProblem, KeyError)) as err:
        prog.code[0][1](c)
    assert prog.where[c.at][0] == line, (c.at, prog.where[c.at])
    import re
    assert re.search(problem, str(err.value)), err.value


def test_a_runner_with_many_labels_resumes_at_each_as_one_tested_in_turn():
    """A runner finds its label by halves (`if pc < ...`), so a loop's next turn passes
    about log2 of the labels before it: resumed at any label (or at none) it runs as the
    labels tested one by one would."""
    from interpreter.lang import runner as rn
    load_all()
    comp = Compiler(Env(procedures={"note": ("ys",)}, game_vars={"g"}))
    text = "\n".join(f"let a{k} = {k}\nnote([a{k}])\ngame.g = a{k}" for k in range(12))
    prog = comp.program("t", "let t = 0\nfor x in xs {\n  t = t + x\n  note([t])\n}\n" + text, params=("xs",))
    assert not comp.errors
    grouped = rn.runner_text(prog.code, comp.const)
    assert grouped.count("if pc < ") >= 3
    flat = "def _r(c, pc):\n" + grouped.split("\n", 1)[1]
    flat_body = rn._dispatch                      # the labels tested one by one
    try:
        rn._dispatch = lambda labels, chunks: [x for at, ch in zip(labels, chunks)
                                               for x in [f"if pc == {at}:", *rn._indent(ch)]]
        flat = rn.runner_text(prog.code, comp.const)
    finally:
        rn._dispatch = flat_body
    assert "if pc < " not in flat
    labels = rn.labels_of(prog.code, rn.dead_ranges(prog.code))
    runs = []
    for src in (grouped, flat):
        fn = comp.define(src)
        got = []
        for pc in labels + [len(prog.code) + 5]:
            c = _ctx()
            c.g.step_budget = 10_000
            c.s["gvars"] = {}
            c.l = {"xs": [1, 2, 3], "t": 1, "x": 1, "#it1": [[1, 2, 3], 1],
                   **{f"a{k}": k for k in range(12)}}
            got.append((fn(c, pc), c.n, dict(c.l), dict(c.s["gvars"]), c.w[0]))
        runs.append(got)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("items", [[], ["a", "b", "a", "c", "b"], [1, True, 1.0, 0, False, "1"], [None, None, "x"],
                                   [[1], [1], "a", [2], "a"], [{"k": 1}, {"k": 1}, 3, 3], [0, [0], 0]])
def test_unique_keeps_the_first_of_equal_items(items):
    """unique() gives what comparing each item with those kept gives, hashable or not, and
    counts the same work; for a long list of texts and numbers, with no Python step an item."""
    from interpreter.verbs import core
    load_all()
    want = []
    for x in items:
        if x not in want:
            want.append(x)
    for k in (1, 2, 3):              # (a long list: by a dict's keys where they hash)
        c = _ctx()
        got = core.unique(c, items * k)
        assert got == want and [type(x) for x in got] == [type(x) for x in want]
        assert c.w[0] == 1_000_000 - (len(items * k) ** 2 // 4 + 1)
    if items and all(type(x) in (str, int) for x in items):
        long = items * (core.UNIQUE_BY_DICT // len(items) + 1)
        assert _steps(core, lambda: core.unique(_ctx(), long * 50)) == _steps(core, lambda: core.unique(_ctx(), long))
