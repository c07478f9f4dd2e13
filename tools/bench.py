"""Playouts per second for each game and player count (random agents, log off).

Usage: python3 tools/bench.py [GAME ...] [--games N] [--seed S] [--json]
Reports a rate, never a pass/fail: speed is measured here, not asserted in tests.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.agents import make_agents  # noqa: E402
from interpreter.engine import rng  # noqa: E402
from interpreter.load.build import load_game  # noqa: E402
from interpreter.load.files import game_ids  # noqa: E402
from interpreter.records import play  # noqa: E402


def bench(game_id: str, players: int, games: int, seed: int) -> dict:
    """Returns timing of `games` random playouts (loading and compiling excluded)."""
    g = load_game(game_id)
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        s = rng.derive(seed, i)
        state = play(g, players, s, make_agents(["random"], players, s), log=False)
        decisions += len(state.d["actions"])
    elapsed = time.perf_counter() - start
    return {"game": game_id, "players": players, "games": games,
            "playouts_per_s": round(games / elapsed, 2),
            "decisions_per_s": round(decisions / elapsed, 1),
            "mean_decisions": round(decisions / games, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games_ids", nargs="*", metavar="GAME")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for gid in args.games_ids or game_ids():
        g = load_game(gid)
        for n in range(g.min_players, g.max_players + 1):
            rows.append(bench(gid, n, args.games, args.seed))
            if not args.json:
                r = rows[-1]
                print(f"{gid:18} {n}p  {r['playouts_per_s']:>9} playouts/s  "
                      f"{r['decisions_per_s']:>10} decisions/s  ({r['mean_decisions']} decisions a game)")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
