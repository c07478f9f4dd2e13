"""Playouts per second of random games, and the ratio against another revision of Cairn.

This machine is shared and noisy, so speed is reported as a ratio from one run: the two
trees are measured in turns (A, B, A, B ...), each turn a fresh process timing its own CPU,
and the best turn of each side counts (noise only ever slows a turn down).

Usage:
  python3 tools/bench.py [GAME ...] [--players N] [--games K] [--rounds R] [--against REV]
                         [--seats BOT,BOT...] [--json]

--seats plays those bots instead of random ones (e.g. `--seats mcts:50,random`); the searching
bots' simulations (playouts of the search) per CPU-second are then reported too, the measure
of issue 26's bots goal.

--against takes a git revision (e.g. HEAD~3, a tag, a commit) or the path of another
Cairn tree; without it only this tree is measured.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNNER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from interpreter.load.build import load_game
from interpreter.agents import make_agents
from interpreter.records import play
from interpreter.engine import rng
game, players, games, seats = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(",")
g = load_game(game)
sims = [0]


def agents(seed):
    out = make_agents(seats, players, seed)
    for a in out:
        if hasattr(a, "playouts"):            # a searching bot: count the simulations it runs
            step = a.step
            def counted(state, step=step, a=a):
                if len(state.legal_actions()) > 1:
                    sims[0] += a.playouts
                return step(state)
            a.step = counted
    return out


play(g, players, rng.derive(2, 0), agents(0), log=False)   # warm-up: first-call costs
decisions, sims[0] = 0, 0
start = time.process_time()
for i in range(games):
    seed = rng.derive(1, i)
    state = play(g, players, seed, agents(seed), log=False)
    decisions += len(state.d["actions"])
print(json.dumps({"cpu": time.process_time() - start, "decisions": decisions, "simulations": sims[0]}))
"""


def checkout(rev: str, into: Path) -> Path:
    """Returns a tree to measure: a path as it is, or a git revision written out."""
    p = Path(rev)
    if (p / "interpreter").is_dir():
        return p
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def measure(tree: Path, game: str, players: int, games: int, seats: str = "random") -> dict:
    out = subprocess.run([sys.executable, "-c", RUNNER, str(tree), game, str(players), str(games), seats],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench(trees: dict[str, Path], game: str, players: int, games: int, rounds: int,
          seats: str = "random") -> dict:
    best: dict[str, dict] = {}
    for _ in range(rounds):
        for name, tree in trees.items():
            r = measure(tree, game, players, games, seats)
            if name not in best or r["cpu"] < best[name]["cpu"]:
                best[name] = r
    row: dict = {"game": game, "players": players, "games": games, "rounds": rounds}
    for name, r in best.items():
        row[name] = {"playouts_per_s": round(games / r["cpu"], 2), "decisions_per_s": round(r["decisions"] / r["cpu"], 1),
                     "decisions_a_game": round(r["decisions"] / games, 1),
                     "simulations_per_s": round(r.get("simulations", 0) / r["cpu"], 1)}
    if len(best) == 2:
        a, b = (best[k] for k in trees)
        row["ratio_playouts"] = round(b["cpu"] / a["cpu"], 3)          # this tree's speed / the other's
        row["ratio_decisions"] = round((a["decisions"] / a["cpu"]) / (b["decisions"] / b["cpu"]), 3)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games_ids", nargs="*", metavar="GAME")
    ap.add_argument("--players", type=int, help="players a game (default: each count the game takes)")
    ap.add_argument("--games", type=int, default=10, help="games a turn (default 10)")
    ap.add_argument("--rounds", type=int, default=3, help="turns per side (default 3); the best counts")
    ap.add_argument("--against", metavar="REV", help="a git revision or a Cairn tree to compare with")
    ap.add_argument("--seats", default="random", metavar="BOT,BOT...",
                    help="the bots that play (default random; e.g. mcts:50,random)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from interpreter.load.build import load_game
    from interpreter.load.files import game_ids
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this": ROOT}
        if args.against:
            trees = {"this": ROOT, "other": checkout(args.against, Path(tmp))}
        rows = []
        for gid in args.games_ids or game_ids():
            g = load_game(gid)
            for n in ([args.players] if args.players else range(g.min_players, g.max_players + 1)):
                rows.append(bench(trees, gid, n, args.games, args.rounds, args.seats))
                if not args.json:
                    r = rows[-1]
                    line = f"{gid:18} {n}p  {r['this']['playouts_per_s']:>8} playouts/s {r['this']['decisions_per_s']:>9} decisions/s"
                    if r["this"]["simulations_per_s"]:
                        line += f" {r['this']['simulations_per_s']:>9} simulations/s"
                    if "other" in r:
                        line += f"   other {r['other']['playouts_per_s']:>8} playouts/s"
                        if r["other"]["simulations_per_s"]:
                            line += f" {r['other']['simulations_per_s']:>9} simulations/s"
                        line += f"   ratio {r['ratio_playouts']:.2f} (decisions {r['ratio_decisions']:.2f})"
                    print(line, flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
