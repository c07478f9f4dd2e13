"""Random playouts per CPU-second of Cairn's games beside the same games written otherwise:
tic-tac-toe, Connect Four and Pig hand-written in plain Python (tools/reference_games.py),
Big Foot hand-written (tools/reference/big_foot.py, the engine's random stream), and
OpenSpiel's (pip `open_spiel`, if installed: its pure-Python tic-tac-toe, Kuhn poker and
block dominoes, and its C++ games; Cairn's encodings of those three also through Cairn's
OpenSpiel adapter, as `pyspiel.load_game` gives them). Kuhn poker and block dominoes are Cairn games written
plainly (tests/fixtures/games); so are the "cairn plain" contenders of tic-tac-toe, Connect
Four and Pig, written without docs/MODDING.md's "What is cheap" habits, beside the shipped
encodings. Connect Four's plain encoding checks all 69 lines after each disc; "hand-written
plain" is the hand-written game checking that way, so the cost of that choice in plain
Python stands beside its cost in Cairn.

Every contender is driven the same way, through its own public API: ask the legal moves,
pick one uniformly at random, apply it, until the game ends (OpenSpiel's chance nodes are
sampled from their outcome distribution). Cairn plays its playouts as `cairn simulate` and
the bots do, without a game log (`log=False`: no log line is formatted); the line "cairn,
with a log" keeps one, as `new_initial_state` does by default. Contenders run in turns
(A, B, C, A, B, C ...), each turn a fresh process timing its own CPU; the best turn of
each counts, since noise on this shared machine only ever slows a turn down. Speeds are printed as ratios to Cairn.

Usage:
  python3 tools/bench_peers.py [GAME ...] [--games K] [--rounds R] [--players N] [--json]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FIXTURES = "tests/fixtures/games/"


@dataclass(frozen=True)
class Peer:
    """One game's contenders: what Cairn loads, its plain encoding, the hand-written
    version (runner, argument) and one written the plain encoding's way, OpenSpiel's C++
    and pure-Python names; players a game."""

    cairn: str
    plain: str | None = None
    hand: tuple[str, str] | None = None
    cpp: str | None = None
    py: str | None = None
    players: int = 2
    hand_plain: tuple[str, str] | None = None


GAMES = {
    "tic-tac-toe": Peer("tic-tac-toe", FIXTURES + "ttt-plain", ("hand-written", "TicTacToe"), "tic_tac_toe",
                        "python_tic_tac_toe"),
    "connect-four": Peer("connect-four", FIXTURES + "connect-four-plain", ("hand-written", "ConnectFour"),
                         cpp="connect_four", hand_plain=("hand-written", "ConnectFourEveryLine")),
    "pig": Peer("pig", FIXTURES + "pig-plain", ("hand-written", "Pig"), "pig"),
    "big-foot": Peer("big-foot", hand=("big-foot", "BigFoot"), players=3),
    "kuhn-poker": Peer(FIXTURES + "kuhn-poker", cpp="kuhn_poker", py="python_kuhn_poker"),
    "block-dominoes": Peer(FIXTURES + "block-dominoes", py="python_block_dominoes"),
}

RUNNERS = {
    "cairn": r"""
from interpreter.load.build import load_game
g = load_game(GAME if not GAME.startswith("tests/") else str(ROOT / GAME),
              [ARG.removeprefix("variant:")] if ARG.startswith("variant:") else [])
def playout(i):
    state = g.new_initial_state(PLAYERS, i, log=ARG == "log")
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
    "big-foot": r"""
sys.path.insert(0, str(ROOT / "tools"))
from reference import big_foot as ref
def playout(i):
    ref.random_playout(ref.BigFoot(PLAYERS, i), rnd)
""",
    "adapter": r"""
import pyspiel
sys.path.insert(0, str(ROOT / "tools"))
from spiel_playout import random_playout
from interpreter.adapters import openspiel as adapter
g = pyspiel.load_game(adapter.register(GAME if not GAME.startswith("tests/") else str(ROOT / GAME)),
                      {"players": PLAYERS, "chance": ARG})
def playout(i):
    random_playout(g, rnd)
""",
    "openspiel": r"""
import pyspiel
sys.path.insert(0, str(ROOT / "tools"))
from spiel_playout import random_playout
import open_spiel.python.games  # registers the pure-Python games
g = pyspiel.load_game(ARG)
def playout(i):
    random_playout(g, rnd)
""",
}

PROLOGUE = r"""
import json, random, sys, time
from pathlib import Path
ROOT = Path(sys.argv[1]); sys.path.insert(0, str(ROOT))
GAME, ARG, GAMES, PLAYERS = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(5)
"""

EPILOGUE = r"""
playout(0)  # warm-up: loading, first-call caches
start = time.process_time()
for i in range(GAMES):
    playout(i + 1)
print(json.dumps({"cpu": time.process_time() - start}))
"""


def contenders(game: str) -> list[tuple[str, str, str, str]]:
    """(label, runner, what it loads, argument) for each contender available here."""
    peer = GAMES[game]
    out = [("cairn", "cairn", peer.cairn, "-"), ("cairn, with a log", "cairn", peer.cairn, "log")]
    if peer.plain:
        out.append(("cairn plain", "cairn", peer.plain, "-"))
    if peer.hand:
        out.append(("hand-written", peer.hand[0], game, peer.hand[1]))
    if peer.hand_plain:
        out.append(("hand-written plain", peer.hand_plain[0], game, peer.hand_plain[1]))
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return out
    if peer.py:
        # Cairn's own game through its OpenSpiel adapter, driven as OpenSpiel's are: every
        # draw a chance node (the default), and with one chance node that deals a seed
        out.append(("cairn via adapter", "adapter", peer.cairn, "explicit"))
        out.append(("adapter, dealt seed", "adapter", peer.cairn, "deals"))
        out.append(("openspiel python", "openspiel", game, peer.py))
    if peer.cpp:
        out.append(("openspiel c++", "openspiel", game, peer.cpp))
    return out


def measure(runner: str, game: str, arg: str, games: int, players: int = 2) -> float:
    code = PROLOGUE + RUNNERS[runner] + EPILOGUE
    out = subprocess.run([sys.executable, "-c", code, str(ROOT), game, arg, str(games), str(players)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["cpu"]


def bench(game: str, games: int, rounds: int, players: int | None = None) -> dict:
    best: dict[str, float] = {}
    who = contenders(game)
    players = players or GAMES[game].players
    for _ in range(rounds):
        for label, runner, target, arg in who:
            cpu = measure(runner, target, arg, games, players)
            best[label] = min(best.get(label, cpu), cpu)
    rate = {label: games / max(cpu, 1e-9) for label, cpu in best.items()}
    base = rate["cairn"]
    out = {"game": game, "players": players, "games": games, "rounds": rounds,
           "playouts_per_cpu_second": {k: round(v, 1) for k, v in rate.items()},
           "cairn_speed_relative_to": {k: round(base / v, 3) for k, v in rate.items() if k != "cairn"}}
    if "cairn plain" in rate:
        out["cairn_plain_speed_relative_to"] = {k: round(rate["cairn plain"] / v, 3) for k, v in rate.items()
                                                if k != "cairn plain"}
    return out


def parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of the benchmarks that set Cairn beside its peers (this one and
    tools/bench_floor.py): the games, playouts a turn, turns, JSON."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"default: all of {', '.join(GAMES)}")
    ap.add_argument("--games", dest="n", type=int, default=300, help="playouts per turn (default 300)")
    ap.add_argument("--rounds", type=int, default=3, help="turns per contender (default 3)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    return ap


def parsed(ap: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The arguments, checked: known games (all of them if none is named), positive counts."""
    a = ap.parse_args(argv)
    unknown = [g for g in a.games if g not in GAMES]
    if unknown:
        ap.error(f"unknown game {unknown[0]!r} (expected one of {', '.join(GAMES)})")
    if a.n < 1 or a.rounds < 1:
        ap.error("--games and --rounds take a positive number")
    a.games = a.games or list(GAMES)
    return a


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--players", type=int, help="players a game (big-foot: 2-4, default 3; the others take 2)")
    a = parsed(ap, argv)
    if a.players is not None and not all(g == "big-foot" for g in a.games):
        ap.error("--players is for big-foot alone (the other games take 2 players)")
    if a.players is not None and not 2 <= a.players <= 4:
        ap.error("big-foot takes 2 to 4 players")
    results = [bench(g, a.n, a.rounds, a.players) for g in a.games]
    if a.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(f"{r['game']}  ({r['players']} players, {r['games']} playouts x {r['rounds']} rounds, best round)")
        for k, v in r["playouts_per_cpu_second"].items():
            rel = "" if k == "cairn" else f"   Cairn is {r['cairn_speed_relative_to'][k]:.3f}x this"
            print(f"  {k:18} {v:10.1f} playouts/s{rel}")
        plain = r.get("cairn_plain_speed_relative_to")
        if plain:
            print("  cairn plain is " + ", ".join(f"{v:.3f}x {k}" for k, v in plain.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
