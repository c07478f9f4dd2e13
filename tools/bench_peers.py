"""Random playouts per CPU-second of Cairn's tic-tac-toe, Connect Four and Pig beside the
same games hand-written in plain Python (tools/reference_games.py) and in OpenSpiel
(pip `open_spiel`, if installed: its pure-Python tic-tac-toe and its C++ games).

Every contender is driven the same way, through its own public API: ask the legal moves,
pick one uniformly at random, apply it, until the game ends (OpenSpiel's chance nodes are
sampled from their outcome distribution). Cairn plays its playouts as `cairn simulate` and
the bots do, without a game log (`log=False`: no log line is formatted); the line "cairn,
with a log" keeps one, as `new_initial_state` does by default. Contenders run in turns
(A, B, C, A, B, C ...), each turn a fresh process timing its own CPU; the best turn of
each counts, since noise on this shared machine only ever slows a turn down. Speeds are printed as ratios to Cairn.

Usage:
  python3 tools/bench_peers.py [GAME ...] [--games K] [--rounds R] [--json]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAMES = {
    # Cairn id: (hand-written class, OpenSpiel C++ name, OpenSpiel pure-Python name)
    "tic-tac-toe": ("TicTacToe", "tic_tac_toe", "python_tic_tac_toe"),
    "connect-four": ("ConnectFour", "connect_four", None),
    "pig": ("Pig", "pig", None),
}

RUNNERS = {
    "cairn": r"""
from interpreter.load.build import load_game
g = load_game(GAME)
def playout(i):
    state = g.new_initial_state(2, i, log=ARG == "log")
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
""",
    "hand-written": r"""
sys.path.insert(0, str(ROOT / "tools"))
import reference_games as ref
cls = getattr(ref, ARG)
def playout(i):
    ref.random_playout(cls(rnd) if ARG == "Pig" else cls(), rnd)
""",
    "openspiel": r"""
import pyspiel
import open_spiel.python.games  # registers the pure-Python games
g = pyspiel.load_game(ARG)
def playout(i):
    state = g.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rnd.choices(outcomes, probs)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
""",
}

PROLOGUE = r"""
import json, random, sys, time
from pathlib import Path
ROOT = Path(sys.argv[1]); sys.path.insert(0, str(ROOT))
GAME, ARG, GAMES = sys.argv[2], sys.argv[3], int(sys.argv[4])
rnd = random.Random(5)
"""

EPILOGUE = r"""
playout(0)  # warm-up: loading, first-call caches
start = time.process_time()
for i in range(GAMES):
    playout(i + 1)
print(json.dumps({"cpu": time.process_time() - start}))
"""


def contenders(game: str) -> list[tuple[str, str, str]]:
    """(label, runner, argument) for each contender available on this machine."""
    hand, cpp, py = GAMES[game]
    out = [("cairn", "cairn", "-"), ("cairn, with a log", "cairn", "log"), ("hand-written", "hand-written", hand)]
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return out
    if py:
        out.append(("openspiel python", "openspiel", py))
    out.append(("openspiel c++", "openspiel", cpp))
    return out


def measure(runner: str, game: str, arg: str, games: int) -> float:
    code = PROLOGUE + RUNNERS[runner] + EPILOGUE
    out = subprocess.run([sys.executable, "-c", code, str(ROOT), game, arg, str(games)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["cpu"]


def bench(game: str, games: int, rounds: int) -> dict:
    best: dict[str, float] = {}
    who = contenders(game)
    for _ in range(rounds):
        for label, runner, arg in who:
            cpu = measure(runner, game, arg, games)
            best[label] = min(best.get(label, cpu), cpu)
    rate = {label: games / max(cpu, 1e-9) for label, cpu in best.items()}
    base = rate["cairn"]
    return {"game": game, "games": games, "rounds": rounds,
            "playouts_per_cpu_second": {k: round(v, 1) for k, v in rate.items()},
            "cairn_speed_relative_to": {k: round(base / v, 3) for k, v in rate.items() if k != "cairn"}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"default: all of {', '.join(GAMES)}")
    ap.add_argument("--games", dest="n", type=int, default=300, help="playouts per turn (default 300)")
    ap.add_argument("--rounds", type=int, default=3, help="turns per contender (default 3)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    a = ap.parse_args(argv)
    unknown = [g for g in a.games if g not in GAMES]
    if unknown:
        ap.error(f"unknown game {unknown[0]!r} (expected one of {', '.join(GAMES)})")
    a.games = a.games or list(GAMES)
    results = [bench(g, a.n, a.rounds) for g in a.games]
    if a.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(f"{r['game']}  ({r['games']} playouts x {r['rounds']} rounds, best round)")
        for k, v in r["playouts_per_cpu_second"].items():
            rel = "" if k == "cairn" else f"   Cairn is {r['cairn_speed_relative_to'][k]:.3f}x this"
            print(f"  {k:18} {v:10.1f} playouts/s{rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
