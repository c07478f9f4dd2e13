"""Where a random playout's time goes, and how much faster the engine alone could make it.

Plays the games `tools/bench.py` plays (random seats, no log) under the py-spy sampling
profiler (`pip install '.[bench]'`; it samples from outside, so the program runs at its
own speed) and sorts every sample by the frame it was taken in:

- rules: the Python that the game's own procedures, functions and abilities compile to;
- verbs: the engine's primitives that rules ask for (moves, graph walks, dice, shuffles),
  work a hand-written game does too;
- machinery: the rest of the engine (the VM, contexts, attribute reads, abilities and
  events, checks and budgets), which a hand-written game does not have;
- harness: the bots' choices and the loop that asks them (`--loop peers`: the loop of
  tools/bench_peers.py, which draws from Python's `random` beside the hand-written games).

The last line is Amdahl's bound: how many times faster a playout would be if the
machinery took no time at all, while the rules, verbs and harness stayed as they are.
A speed goal above it cannot be reached by engine work alone.

    python3 tools/time_shares.py big-foot --players 4 --games 100
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNNER = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from interpreter.load.build import load_game
from interpreter.agents import make_agents
from interpreter.records import play
from interpreter.engine import rng
game, players, games, loop = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
g = load_game(game)
rnd = random.Random(5)

def one(i):
    if loop == "bench":          # as tools/bench.py plays: random agents through records.play
        seed = rng.derive(1, i)
        play(g, players, seed, make_agents(["random"], players, seed), log=False)
        return
    state = g.new_initial_state(players, i, log=False)   # as tools/bench_peers.py plays
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])

def timed_games():
    for i in range(games):
        one(i + 1)

one(0)   # warm-up: first-call costs
timed_games()
"""

MARK = "timed_games ("                 # only samples taken inside the timed loop count
HARNESS = ("interpreter/agents.py", "interpreter/records.py", "interpreter/bots/")
VERBS = ("interpreter/verbs/",)
SHARED = ("interpreter/engine/rng.py",)   # used by verbs and bots alike: counts for its caller


def kind(stack: list[str]) -> tuple[str, str]:
    """Returns (share, detail) of one sample's stack (outermost frame first). The innermost
    frame of Cairn's own (a rule, an engine module, the runner) decides; the standard
    library's frames count for the one that called them."""
    for frame in reversed(stack):
        where = frame[frame.rfind("(") + 1:].rsplit(":", 1)[0]
        if where.startswith("<") and not where.startswith(("<frozen", "<string")):
            return "rules", where
        if "interpreter/" in where:
            where = where[where.find("interpreter/"):]
            if where.startswith(SHARED):
                continue
            if where.startswith(VERBS):
                return "verbs", where
            return ("harness" if where.startswith(HARNESS) else "machinery"), where
        if where == "<string>":
            return "harness", where
    return "other", stack[-1]


def shares(raw: str) -> tuple[Counter, Counter, int]:
    """Returns samples by share and by (share, detail), and their total, from py-spy's raw
    output (one line a distinct stack: frames joined by ';', then a count)."""
    by_share: Counter = Counter()
    by_detail: Counter = Counter()
    total = 0
    for line in raw.splitlines():
        stack_text, _, count = line.rpartition(" ")
        if not count.isdigit() or MARK not in stack_text:
            continue
        stack = stack_text.split(";")
        stack = stack[next(i for i, f in enumerate(stack) if f.startswith(MARK)) + 1:] or stack
        share, detail = kind(stack)
        by_share[share] += int(count)
        by_detail[share, detail] += int(count)
        total += int(count)
    return by_share, by_detail, total


def bound(by_share: Counter, total: int) -> float:
    """Amdahl: the speed-up if the machinery's share took no time."""
    rest = total - by_share["machinery"]
    return total / rest if rest else float("inf")


def sample(tree: Path, game: str, players: int, games: int, rate: int, loop: str) -> tuple[str, str]:
    """Returns py-spy's raw samples of the games, and what the run wrote to stderr."""
    spy = shutil.which("py-spy")
    if spy is None:
        raise SystemExit("py-spy is not installed: pip install '.[bench]'")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "samples.txt"
        done = subprocess.run([spy, "record", "--format", "raw", "--rate", str(rate), "--output", str(out), "--",
                               sys.executable, "-c", RUNNER, str(tree), game, str(players), str(games), loop],
                              capture_output=True, text=True)
        if done.returncode != 0 or not out.is_file():
            # py-spy needs to read another process's memory (ptrace): some containers forbid it
            raise SystemExit(f"py-spy could not sample the games:\n{done.stderr[-1500:]}")
        return out.read_text(), done.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--loop", choices=("bench", "peers"), default="bench",
                    help="play as tools/bench.py does (random agents) or as tools/bench_peers.py does")
    ap.add_argument("--rate", type=int, default=400, help="samples a second (default 400)")
    ap.add_argument("--top", type=int, default=8, help="modules or rules listed per share")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    raw, errors = sample(ROOT, args.game, args.players, args.games, args.rate, args.loop)
    by_share, by_detail, total = shares(raw)
    if not total:
        raise SystemExit("no sample was taken inside the timed games (too few games, or they failed):\n"
                         + errors[-1500:])
    row = {"game": args.game, "players": args.players, "samples": total,
           "shares": {k: round(100 * v / total, 1) for k, v in by_share.most_common()},
           "bound_without_machinery": round(bound(by_share, total), 2)}
    if args.json:
        print(json.dumps(row))
        return
    print(f"{args.game} {args.players}p, {total} samples")
    for share, n in by_share.most_common():
        top = [(d, m) for (s, d), m in by_detail.most_common() if s == share][:args.top]
        print(f"  {share:10} {100 * n / total:5.1f}%   " + ", ".join(f"{d} {100 * m / total:.1f}" for d, m in top))
    print(f"  without the machinery at all: at most {row['bound_without_machinery']:.2f}x as fast")


if __name__ == "__main__":
    main()
