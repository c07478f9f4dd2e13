"""Compares the CPU cost of `cairn validate` (or of `load_game`, or of a whole `cairn play`
of bots) in this tree and in another checkout, run alternately, best of N: each run is a
fresh process, and its user+sys CPU seconds are what counts (wall time swings with
everyone else's load).

    git worktree add /tmp/old 1b4e5e4            # or: git archive 1b4e5e4 | tar -x -C /tmp/old
    python3 tools/load_bench.py --old /tmp/old --what validate --modes off,cold,warm,edit

Modes: off (CAIRN_CACHE=off), cold (an empty cache each run), warm (a cache primed by an
earlier run), edit (warm but with no kept validate verdict: what an edit to one file costs,
give or take that file). Each tree's code runs through PYTHONPATH, with its own caches,
and with Python's .pyc files on (PYTHONDONTWRITEBYTECODE is dropped for the runs).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GAMES = ["big-foot", "footprints", "stonefire", "fantastic-trails"]
LOAD = "import sys; from interpreter.load.build import load_game; load_game(sys.argv[1])"


def cpu(cmd: list[str], env: dict, cwd: Path) -> float:
    """Returns the user+sys CPU seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed in {cwd}:\n{done.stderr[-800:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def run(tree: Path, game: str, mode: str, warm: str, what: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    # Python's own .pyc files are used as on an installed copy (pip writes them), even
    # where the caller's shell turns them off: else every run compiles Cairn's modules.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cold = tempfile.mkdtemp(prefix="cairn-bench-") if mode == "cold" else None
    env["CAIRN_CACHE"] = "off" if mode == "off" else cold or warm
    if mode == "edit":
        for entry in Path(warm).glob("validate-*"):
            entry.unlink()
    cmd = {"validate": [sys.executable, "-m", "interpreter", "validate", f"definitions/{game}"],
           "load_game": [sys.executable, "-c", LOAD, game],
           "play": [sys.executable, "-m", "interpreter", "play", game, "--seats", "random,random,random",
                    "--seed", "1"]}[what]
    try:
        return cpu(cmd, env, tree)
    finally:
        if cold:
            shutil.rmtree(cold)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, type=Path, help="another checkout of Cairn to compare with")
    ap.add_argument("--what", choices=["validate", "load_game", "play"], default="validate",
                    help="what each run does (play: a whole game of three random seats, seed 1)")
    ap.add_argument("--modes", default="off,cold,warm,edit")
    ap.add_argument("-n", type=int, default=3, help="runs of each, the best counts (default 3)")
    ap.add_argument("games", nargs="*", default=GAMES)
    args = ap.parse_args()
    trees = {"old": args.old.resolve(), "new": HERE}
    warm = {name: tempfile.mkdtemp(prefix=f"cairn-bench-{name}-") for name in trees}
    try:
        for name, tree in trees.items():
            for game in args.games:
                run(tree, game, "warm", warm[name], args.what)       # primes the warm caches
        print(f"{args.what}: CPU s (user+sys), best of {args.n}, old and new alternately")
        for mode in args.modes.split(","):
            for game in args.games:
                best = {name: float("inf") for name in trees}
                for _ in range(args.n):
                    for name, tree in trees.items():
                        best[name] = min(best[name], run(tree, game, mode, warm[name], args.what))
                print(f"{game:18} {mode:5} old {best['old']:6.2f}  new {best['new']:6.2f}", flush=True)
    finally:
        for folder in warm.values():
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
