"""Programs run by their runners (interpreter/lang/runner.py) exactly as the VM runs them
one instruction at a time: same games, same problems at the same file:line, the same step
budget; and the walks of a fixed board found once give what the search gives."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.agents import make_agents
from interpreter.engine import rng
from interpreter.load.build import build, load_game
from interpreter.records import make_record, play

GAMES = Path(__file__).resolve().parents[1] / "definitions"


def _without_runners(g):
    for prog in g.programs.values():
        prog.runner = None
    return g


@pytest.mark.parametrize("game,players", [("big-foot", 4), ("footprints", 3), ("stonefire", 4),
                                          ("fantastic-trails", 4), ("tic-tac-toe", 2), ("pig", 2)])
def test_runners_play_the_same_games_as_one_instruction_at_a_time(game, players):
    fast, slow = load_game(game), _without_runners(build(GAMES / game, [])[0])
    assert sum(p.runner is not None for p in fast.programs.values()) > len(fast.programs) // 2
    for i in range(2):
        seed = rng.derive(7, i)
        a = play(fast, players, seed, make_agents(["random"], players, seed), log=False)
        b = play(slow, players, seed, make_agents(["random"], players, seed), log=False)
        assert make_record(a)["final_state_sha256"] == make_record(b)["final_state_sha256"]
        assert a.d["actions"] == b.d["actions"] and a.d["result"] == b.d["result"]


BOOM = """
  boom:
    rule: turn-mark
    params: [k]
    do: |
      let xs = [1, 2]
      return xs[k]
"""


def _tiny_game(tmp_path: Path, body: str) -> Path:
    src = GAMES / "tic-tac-toe"
    for f in src.glob("*.yaml"):
        (tmp_path / f.name).write_text(f.read_text())
    game = (tmp_path / "game.yaml").read_text()
    start = game.index("procedures:")
    end = game.index("structure:")
    proc = textwrap.indent("procedures:\n  mark:\n    rule: turn-mark\n    params: [p]\n    do: |\n"
                           + textwrap.indent(textwrap.dedent(body), "      "), "") + BOOM
    (tmp_path / "game.yaml").write_text(game[:start] + proc + "\n" + game[end:])
    return tmp_path


@pytest.mark.parametrize("body,message", [
    ("let xs = [1, 2]\nlet n = 0\nfor x in xs {\n  n += x\n}\nlet y = xs[5]\n", "no item [5]"),
    ("let n = 0\nwhile true {\n  n += 1\n}\n", "step budget"),
    ("let t = 1\nif t == 1 {\n  let u = t + \"a\"\n}\n", "cannot compute"),
    ("let a = boom(1)\nlet b = boom(7)\n", "no item [7]"),      # in a procedure called directly
    ("let s = choose([], player=p)\n", "choose() has no options"),   # decisions a runner sets up
    ("let s = choose(5, player=p)\n", "choose() needs a list of options, got 5"),
    ("let s = choose([1, 2], player=9)\n", "choose() needs player=<seat>, got 9"),
    ("let s = choose([1], player=p)\nlet y = [1][s]\n", "no item [1]"),   # one option: taken, on it goes
])
def test_a_failing_rule_names_the_same_line_with_and_without_runners(tmp_path, body, message):
    folder = _tiny_game(tmp_path, body)
    fast = build(folder, [])[0]
    slow = _without_runners(build(folder, [])[0])
    a, b = fast.new_initial_state(2, 1), slow.new_initial_state(2, 1)
    assert a.d["result"]["reason"] == "aborted"
    assert message in a.d["result"]["aborted"] and message in b.d["result"]["aborted"]
    if message != "step budget":
        assert a.d["result"]["aborted"] == b.d["result"]["aborted"]
    else:   # a runner counts steps as the VM does but checks them where a loop jumps back
        line = lambda text: int(text.split("game.yaml:")[1].split(":")[0])   # noqa: E731
        assert abs(line(a.d["result"]["aborted"]) - line(b.d["result"]["aborted"])) <= 2


def test_a_runner_asks_a_decision_itself():
    # The VM no longer steps in to ask (engine/vm.py): the runner of a procedure that asks
    # returns DECIDED + the place to resume at.
    from interpreter.lang.compiler import CHOOSE
    from interpreter.lang.runner import DECIDED, runner_text
    g = load_game(GAMES / "tic-tac-toe")
    code = g.programs["proc:mark"].code
    k = next(i for i, ins in enumerate(code) if ins[0] == CHOOSE)
    assert f"return {DECIDED + k + 1}" in runner_text(code, lambda v: "k0")
    state = g.new_initial_state(2, 1)
    assert state.d["frames"][-1]["pc"] == k + 1 and state.legal_actions() == list(range(9))


def test_known_walks_are_the_searched_walks_and_cost_the_same_work_cold_or_warm():
    from interpreter.lang.runtime import Ctx
    from interpreter.verbs.graph import _walks, paths
    g = load_game("big-foot")
    d = g.new_initial_state(2, 1).d
    start = g.spaces[0]
    blocked = list(g.spaces[3:6])
    costs = []
    for _ in range(2):                        # cold, then from what the first call kept
        c = Ctx(d, g, {}, [10 ** 9])
        got = paths(c, start, 4, blocked)
        costs.append(10 ** 9 - c.w[0])
        searched = _walks(Ctx(d, g, {}, [10 ** 9]), g.adj, start, 4, set(blocked))
        assert got == searched and got
    assert costs[0] == costs[1] > 0
    g.walks.clear()
    c = Ctx(d, g, {}, [5])                   # too little work left: the search stops, kept or not
    with pytest.raises(Exception, match="work budget"):
        paths(c, start, 4, blocked)


def test_kept_walks_are_bounded_and_the_rest_searched_each_time(monkeypatch):
    from interpreter.lang.runtime import Ctx
    from interpreter.verbs import graph
    g = load_game("big-foot")
    g.walks.clear()
    g.walks_kept = 0
    monkeypatch.setattr(graph, "MAX_KEPT_IN_ALL", 8)
    d = g.new_initial_state(2, 1).d
    for start in g.spaces[:6]:
        c = Ctx(d, g, {}, [10 ** 9])
        got = graph.paths(c, start, 3, None)
        assert got == graph._walks(Ctx(d, g, {}, [10 ** 9]), g.adj, start, 3, set())
    assert 0 < g.walks_kept <= 8
    assert sum(len(w) for w, _work in g.walks.values() if w is not None) == g.walks_kept
    assert any(w is None for w, _work in g.walks.values())       # the rest are searched each time


def test_games_of_one_fresh_compile_in_several_threads_play_as_alone():
    """Generated code and runners are written and compiled on first call: several threads
    starting games of one fresh compile (the web server does) get the same games."""
    import threading
    alone = {}
    g = load_game("stonefire")
    for i in range(4):
        alone[i] = make_record(play(g, 3, i, make_agents(["random"], 3, i), log=False))["final_state_sha256"]
    fresh = build(GAMES / "stonefire", [])[0]
    together: dict[int, str] = {}

    def one(i: int) -> None:
        together[i] = make_record(play(fresh, 3, i, make_agents(["random"], 3, i), log=False))["final_state_sha256"]
    threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


def test_a_runner_is_written_alike_whatever_ran_first(monkeypatch):
    # Runners are written when their program first runs; the names of the values they
    # use must not depend on which ran first, or the compiled code kept between processes
    # (load/code_cache.py) would never be found again.
    from collections import defaultdict

    from interpreter.lang import expressions
    from interpreter.load import code_cache
    monkeypatch.setattr(code_cache, "store_for", lambda folder: None)     # compile every text
    written: dict[str, list[str]] = defaultdict(list)
    real = compile
    monkeypatch.setattr(expressions, "compile",
                        lambda text, origin, mode: written[origin].append(text) or real(text, origin, mode),
                        raising=False)

    def runners(seeds: list[int]) -> dict[str, list[str]]:
        written.clear()
        game = build(GAMES / "big-foot", [])[0]
        for seed in seeds:
            state = game.new_initial_state(3, seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[seed % len(legal)])
        return {o: sorted(t for t in texts if t.startswith("def _r(")) for o, texts in written.items()}

    first, second = runners([1, 2]), runners([2, 1])
    assert first == second and sum(map(len, first.values())) > 5
