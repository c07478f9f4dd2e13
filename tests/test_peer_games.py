"""The peer games written plainly in Cairn (tests/fixtures/games) play by their rules:
Kuhn poker and block dominoes as OpenSpiel's pure-Python games do, and the plain
tic-tac-toe, Connect Four and Pig exactly as the shipped encodings (same seed, same
choices: same options at every decision, same end). tools/bench_peers.py measures them."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "fixtures" / "games"
_LOADED: dict = {}


def _game(name: str):
    if name not in _LOADED:
        _LOADED[name] = load_game(str(GAMES / name) if (GAMES / name).is_dir() else name)
    return _LOADED[name]


@pytest.mark.parametrize("name", ["kuhn-poker", "block-dominoes", "ttt-plain", "connect-four-plain", "pig-plain"])
def test_the_game_folders_validate(name):
    """`cairn validate` accepts each folder as it is (exit 0)."""
    out = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(GAMES / name)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


# ---- Kuhn poker ---------------------------------------------------------------------------
def _kuhn_deals() -> dict[tuple[str, str], object]:
    """The state after the deal of each of the 6 deals, found by trying seeds."""
    g, deals = _game("kuhn-poker"), {}
    seed = 0
    while len(deals) < 6:
        state = g.new_initial_state(2, seed=seed)
        places = state.d["places"]
        deals.setdefault((places["hand/0"][0], places["hand/1"][0]), state)
        seed += 1
        assert seed < 200, "a deal of Kuhn poker never comes up"
    return deals


def _tree(state, path=()) -> list[tuple[Fraction, tuple, list[float]]]:
    """Every betting sequence from a state: (its chance under uniform play, the actions, returns)."""
    if state.is_terminal():
        return [(Fraction(1), path, state.returns())]
    legal = state.legal_actions()
    out = []
    for a in legal:
        child = state.clone()
        child.apply_action(a)
        out += [(w / len(legal), p, r) for w, p, r in _tree(child, path + (a,))]
    return out


def test_kuhn_poker_uniform_play_by_full_enumeration():
    """Six deals and every betting sequence: player 0 expects +0.125 chips and wins 56.25%
    (OpenSpiel's figures for uniform random play), and returns are chips, zero-sum."""
    deals = _kuhn_deals()
    assert len(deals) == 6
    ev, win, sequences = Fraction(0), Fraction(0), set()
    for state in deals.values():
        for w, path, r in _tree(state):
            assert r[0] == -r[1] and r[0] in (-2, -1, 1, 2)
            ev += w * Fraction(r[0]) / 6
            win += w * (r[0] > 0) / 6
            sequences.add(path)
    assert sequences == {(0, 0), (0, 1, 0), (0, 1, 1), (1, 0), (1, 1)}   # pass 0, bet 1
    assert ev == Fraction(1, 8) and win == Fraction(9, 16)


def test_kuhn_poker_each_deal_and_sequence_pays_as_openspiel():
    """The same deal and the same pass/bet sequence give OpenSpiel's returns, every one."""
    pyspiel = pytest.importorskip("pyspiel")
    import open_spiel.python.games  # noqa: F401  (registers the pure-Python games)
    spiel = pyspiel.load_game("python_kuhn_poker")
    rank = {"jack": 0, "queen": 1, "king": 2}
    compared = 0
    for (c0, c1), state in _kuhn_deals().items():
        for _w, path, r in _tree(state):
            theirs = spiel.new_initial_state()
            for a in (rank[c0], rank[c1]) + path:
                theirs.apply_action(a)
            assert theirs.is_terminal() and theirs.returns() == r, (c0, c1, path)
            compared += 1
    assert compared == 30


# ---- block dominoes -----------------------------------------------------------------------
def _spiel_action(bd, player: int, option: list) -> int:
    tile, edge = option
    a, b = (float(x) for x in tile[1:].split("-"))
    return bd._ACTIONS_STR.index(f"p{player} tile:{(a, b)} pip:{None if edge == -1 else float(edge)}")


def test_block_dominoes_replays_as_openspiel():
    """300 seeded deals replayed in OpenSpiel's pure-Python block_dominoes, random moves:
    at every move both offer the same moves to the same player, and the games end
    together with the same returns (lighter hand wins the other's pips)."""
    pytest.importorskip("pyspiel")
    from open_spiel.python.games import block_dominoes as bd
    g, rnd = _game("block-dominoes"), random.Random(4)
    spiel = bd.BlockDominoesGame()
    outcomes = set()
    for seed in range(300):
        state = g.new_initial_state(2, seed=seed)
        theirs = spiel.new_initial_state()
        for p in (0, 1):
            for tile in state.d["places"][f"hand/{p}"]:
                a, b = (float(x) for x in tile[1:].split("-"))
                theirs.apply_action(bd._DECK.index((a, b)))
        while not theirs.is_terminal():
            legal = theirs.legal_actions()
            if len(legal) > 1:          # a move of one option Cairn plays without asking
                pending = state.d["pending"]
                assert pending["player"] == theirs.current_player(), seed
                mine = [_spiel_action(bd, pending["player"], o) for o in pending["options"]]
                assert sorted(mine) == legal, seed
                k = rnd.randrange(len(mine))
                state.apply_action(k)
                theirs.apply_action(mine[k])
            else:
                theirs.apply_action(legal[0])
        assert state.is_terminal(), seed
        assert state.returns() == [float(x) for x in theirs.returns()], seed
        outcomes.add(tuple(state.win_flags()))
    assert outcomes == {(1.0, 0.0), (0.0, 1.0), (1.0, 1.0)}   # wins both ways, and a draw


# ---- the plain encodings ------------------------------------------------------------------
@pytest.mark.parametrize("plain,shipped,games", [
    ("ttt-plain", "tic-tac-toe", 100),
    ("connect-four-plain", "connect-four", 60),
    ("pig-plain", "pig", 60),
])
def test_plain_encoding_plays_as_the_shipped_one(plain, shipped, games):
    """Same seed and same choices: the same player decides among the same options at every
    decision, and the games end at the same decision with the same scores."""
    a, b, rnd = _game(plain), _game(shipped), random.Random(9)
    lengths = set()
    for seed in range(games):
        s, t = a.new_initial_state(2, seed=seed), b.new_initial_state(2, seed=seed)
        while not t.is_terminal():
            assert not s.is_terminal(), seed
            assert s.decision()["labels"] == t.decision()["labels"], seed   # options by their labels
            assert s.current_player() == t.current_player(), seed
            k = rnd.randrange(len(t.legal_actions()))
            s.apply_action(k)
            t.apply_action(k)
        assert s.is_terminal() and s.scores() == t.scores(), seed
        lengths.add(len(t.d["actions"]))
    assert len(lengths) > 3     # the games differ


def test_bench_peers_runs_every_contender():
    """tools/bench_peers.py times Big Foot beside the hand-written one and tic-tac-toe
    beside its plain encoding (a smoke run: two playouts a contender)."""
    import json
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_peers.py"), "big-foot", "tic-tac-toe",
                          "--games", "2", "--rounds", "1", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    big_foot, ttt = json.loads(out.stdout)
    assert set(big_foot["playouts_per_cpu_second"]) >= {"cairn", "hand-written"} and big_foot["players"] == 3
    assert big_foot["cairn_speed_relative_to"]["hand-written"] > 0
    assert "cairn" in ttt["cairn_plain_speed_relative_to"]


def test_bench_peers_plays_cairn_through_the_openspiel_adapter():
    """Kuhn poker is timed through Cairn's OpenSpiel adapter too, in both chance modes."""
    pytest.importorskip("pyspiel")
    import json
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_peers.py"), "kuhn-poker",
                          "--games", "2", "--rounds", "1", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    kuhn, = json.loads(out.stdout)
    assert {"cairn via adapter", "adapter, dealt seed", "openspiel python"} <= set(kuhn["playouts_per_cpu_second"])


def test_adapter_floor_is_measured_beside_openspiel_kuhn():
    """tools/bench_adapter_floor.py plays a game that does nothing through pyspiel: it must
    run faster than OpenSpiel's Kuhn poker (it does strictly less), and say by how much."""
    pytest.importorskip("pyspiel")
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_adapter_floor.py"), "--games", "300",
                          "--rounds", "1"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    ratio = float(out.stdout.rsplit("reach: ", 1)[1].split("x")[0])
    assert ratio > 1.0


def test_engine_floor_splits_a_playout_into_the_engines_share_and_the_rules():
    """tools/bench_floor.py measures the engine with rules that do nothing: the fixture plays
    exactly its decisions, its floor for a game is a game's cost plus its decisions' cost,
    and tic-tac-toe's rules (most of its playout) leave a ceiling above Cairn's speed now."""
    sys.path.insert(0, str(ROOT / "tools"))
    import bench_floor
    assert bench_floor.decisions(bench_floor.NULL, 3, 2) == bench_floor.SHORT
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_floor.py"), "tic-tac-toe", "--games", "40",
                          "--rounds", "1", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["decision_us"] > 0 and r["game_us"] > 0
    ttt = r["by_game"]["tic-tac-toe"]
    assert 5 <= ttt["decisions"] <= 9
    assert abs(ttt["floor_us"] - (r["game_us"] + ttt["decisions"] * r["decision_us"])) < 0.2
    hand = ttt["against"]["hand-written"]
    assert 0 < ttt["rules_share"] < 1 and hand["ceiling"] > hand["cairn"] > 0


def test_bytecodes_of_the_same_games_counted_both_ways():
    """tools/count_bytecodes.py counts what a playout executes, Cairn's (split into the
    rules' compiled code and the engine's) beside the hand-written game's own, over the
    same games; the totals are the sums of the parts."""
    sys.path.insert(0, str(ROOT / "tools"))
    import count_bytecodes
    r = count_bytecodes.report("tic-tac-toe", 3)
    assert set(r["cairn"]) >= {"rules", "engine"} and "game" in r["hand"] and "rules" not in r["hand"]
    for who in ("cairn", "hand"):
        parts = sum(sum(kinds.values()) for kinds in r[who].values())
        assert abs(parts - r[f"{who}_total"]) <= 20          # rounded a playout, part by part
    assert r["cairn"]["rules"]["subscript"] > 0 and r["hand"]["game"]["call"] > 0
    assert r["ratio"] > r["ratio_without_subscripts"] > 0
    floor = count_bytecodes.report("null-decisions", 2)       # the engine alone: no hand-written game
    assert "hand" not in floor and set(floor["cairn"]) >= {"engine", "rules"}
    assert 0 < floor["a_decision"] < r["a_decision"]           # tic-tac-toe's rules do some work
