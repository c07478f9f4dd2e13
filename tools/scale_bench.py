"""Compares one process, forked processes and dask on the same batch of bot games,
interleaved, and prints for each run: wall seconds, a CPU-aware estimate, the load
average and the digest (which must be the same on every line).

    python3 tools/scale_bench.py big-foot --players 4 --games 200 --reps 5 \
        --scheduler tcp://127.0.0.1:8786      # add a running `dask scheduler` + `dask worker`

CPU-aware: on a shared machine wall-time ratios swing with everyone else's load, so each
task also reports the CPU seconds its process spent on it. The estimate is the parent's
CPU plus the busiest worker's CPU: what the job would take with a free core per worker.
The dask rows leave out the CPU of starting a cluster (spawning and importing), which the
wall column includes.
"""
from __future__ import annotations

import argparse
import os
import time

from interpreter import batch
from interpreter.engine.game import CompiledGame
from interpreter.records import digest
from interpreter.scale import map_batches


class Timed(list):
    """A batch's records, with the worker's pid and the CPU seconds the batch took there."""


def timed_play_range(*args: object) -> Timed:
    start = time.process_time()
    out = Timed(batch.play_range(*args))
    out.pid, out.cpu = os.getpid(), time.process_time() - start
    return out


def job(game: str, players: int, games: int, seed: int, workers: int, scheduler: str | None) -> dict:
    """Returns wall, cpu-aware seconds and digest of one run, made as batch.simulate makes it."""
    batch._GAMES.clear()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    g: CompiledGame = batch.compiled(game)
    where = g.id
    batch.keep(where, (), g)
    chunk = batch.batch_size(games, workers)
    spans = [(where, (), players, seed, s, min(s + chunk, games), ["random"]) for s in range(0, games, chunk)]
    results = map_batches(timed_play_range, spans, workers=workers, scheduler=scheduler)
    wall, parent = time.perf_counter() - wall0, time.process_time() - cpu0
    per_worker: dict[int, float] = {}
    for r in results:
        per_worker[r.pid] = per_worker.get(r.pid, 0.0) + r.cpu
    if scheduler is None and workers <= 1:
        aware = parent
    else:
        aware = parent + max(per_worker.values())
    return {"wall": wall, "aware": aware, "workers_used": len(per_worker),
            "digest": digest([rec for r in results for rec in r])}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--scheduler", help="a running dask scheduler to include (tcp://HOST:PORT)")
    p.add_argument("--no-local-dask", action="store_true", help="leave out the dask LocalCluster runs")
    a = p.parse_args()
    k = a.workers
    modes: dict[str, tuple[int, str | None]] = {"1 process": (1, None), f"{k} processes": (k, None)}
    if a.scheduler:
        modes["dask scheduler"] = (k, a.scheduler)
    if not a.no_local_dask:
        modes[f"dask local {k}"] = (k, "local")
    best: dict[str, tuple[float, float]] = {}
    digests = set()
    for rep in range(a.reps):
        for name, (workers, scheduler) in modes.items():
            r = job(a.game, a.players, a.games, a.seed, workers, scheduler)
            digests.add(r["digest"])
            w, c = best.get(name, (float("inf"), float("inf")))
            best[name] = (min(w, r["wall"]), min(c, r["aware"]))
            print(f"rep {rep} {name:16} wall {r['wall']:6.2f}s  cpu-aware {r['aware']:6.2f}s  "
                  f"workers used {r['workers_used']}  load {os.getloadavg()[0]:.2f}  digest {r['digest'][:16]}",
                  flush=True)
    w1, c1 = best["1 process"]
    for name, (w, c) in best.items():
        print(f"best {name:16} wall {w:6.2f}s ({w1 / w:.2f}x)  cpu-aware {c:6.2f}s ({c1 / c:.2f}x)")
    print("same digest everywhere" if len(digests) == 1 else f"DIGESTS DIFFER: {sorted(digests)}")


if __name__ == "__main__":
    main()
