"""Microseconds per copy of a game state mid-game, the cost every search bot pays per node.

A game is played 60 random decisions in (seeded, so the state is the same each run) at its
default player count, then timed: `GameState.clone()` (the API; its save check of what
waits for the decision runs once a decision, so a repeated copy skips it), `first` (the
save check, engine/vm.py check_waiting, and the plain copy: a copy at a fresh decision) and
`engine.state.clone_state` (the plain copy). The best of several timeit runs counts, since
noise on a shared machine only ever slows a run down.

Usage:
  python3 tools/bench_clone.py [GAME ...] [--decisions N] [--runs R] [--number K] [--tree PATH]

--tree measures another Cairn checkout (e.g. the main worktree) in this same process
layout, so two trees can be compared side by side.
"""
from __future__ import annotations

import argparse
import random
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def played(load_game, game: str, decisions: int):
    """Returns the state after `decisions` random decisions (fewer if the game ends)."""
    g = load_game(game)
    s = g.new_initial_state(None, 1, log=False)
    r = random.Random(3)
    for _ in range(decisions):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[r.randrange(len(legal))])
    return s


def best_us(fn, runs: int, number: int) -> float:
    """Returns the best time of `runs` timeit runs, in microseconds per call."""
    return min(timeit.repeat(fn, repeat=runs, number=number)) / number * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", default=["big-foot", "footprints"])
    ap.add_argument("--decisions", type=int, default=60, help="random decisions played first")
    ap.add_argument("--runs", type=int, default=7, help="timeit runs; the best counts")
    ap.add_argument("--number", type=int, default=2000, help="clones per run")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the Cairn checkout to measure")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(a.tree.resolve()))
    from interpreter.load.build import load_game
    from interpreter.engine.state import clone_state
    from interpreter.engine.vm import check_waiting
    print(f"tree {a.tree.resolve()}")
    for game in a.games:
        s = played(load_game, game, a.decisions)
        api = best_us(s.clone, a.runs, a.number)
        first = best_us(lambda: (check_waiting(s.game, s.d), clone_state(s.d)), a.runs, a.number)
        plain = best_us(lambda: clone_state(s.d), a.runs, a.number)
        print(f"{game:18} GameState.clone {api:6.2f} us   first {first:6.2f} us   "
              f"clone_state {plain:6.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
