"""Many bot games, in one process or several: each game's seed comes from (master seed,
game index), so the records, and their digest, do not depend on the number of workers or
on where they run (interpreter/scale.py chooses that)."""
from __future__ import annotations

from typing import Any, Callable

from .agents import make_agents, rotated
from .engine import rng
from .engine.game import CompiledGame
from .load.build import load_game
from .records import is_builtin, make_record, play
from .scale import map_batches

# One compiled game per (spec, variants) per process: a worker compiles a game once, not
# once a batch; forked workers inherit the parent's.
_GAMES: dict[tuple, Any] = {}


class WorkerMismatch(Exception):
    """A worker played other definitions than the caller's (another Cairn or game version)."""


def keep(spec: str, variants: tuple[str, ...], game: CompiledGame) -> None:
    """Remembers a game the caller has already compiled, so this process (and workers
    forked from it) does not compile it again."""
    _GAMES[(spec, tuple(variants))] = game


def compiled(spec: str, variants: tuple[str, ...] = ()) -> CompiledGame:
    """Returns the game compiled once in this process (the adapters share it too)."""
    key = (spec, tuple(variants))
    if key not in _GAMES:
        _GAMES[key] = load_game(spec, list(variants))
    return _GAMES[key]


def play_range(spec: str, variants: tuple[str, ...], players: int, master: int, start: int,
               stop: int, agents: list[str], rotate: bool = False,
               final: Callable[[CompiledGame, dict], Any] | None = None) -> list[dict]:
    """Returns the records of games start..stop-1 of a batch (compiling the game once here);
    with `rotate`, game i seats the bots turned by i (agents.rotated), and its record
    names the bot of each seat. `final` (a module-level function, so it travels to
    workers) is applied to each game's last state where it was played, its result kept
    under the record's "final" key: a report need not replay the games again."""
    g = compiled(spec, variants)
    out = []
    for i in range(start, stop):
        seed = rng.derive(master, i)
        seats = rotated(agents, players, i) if rotate else agents
        state = play(g, players, seed, make_agents(seats, players, seed), log=False)
        rec = make_record(state, seats)
        if final is not None:
            rec["final"] = final(g, state.d)
        out.append(rec)
    return out


def batch_size(games: int, workers: int) -> int:
    """Returns games per task: about sixteen tasks per worker, so the last batch to finish
    holds the others back by little (games of one job differ in length by 3x or more);
    a task costs a process pool or dask about a millisecond, far less than a game. At
    most 50 games (progress moves), at least 1."""
    return max(1, min(50, games // (max(1, workers) * 16) or 1))


def simulate(spec: str, variants: tuple[str, ...], players: int, games: int, master: int,
             agents: list[str], workers: int = 1,
             progress: Callable[[int], None] | None = None,
             scheduler: str | None = None, rotate: bool = False,
             final: Callable[[CompiledGame, dict], Any] | None = None) -> list[dict]:
    """Returns one record per game, in game order; `scheduler` is None (this machine:
    `workers` processes), 'local' (a dask LocalCluster of `workers`) or a dask address;
    with `rotate` the seats turn game by game; `final` as in play_range."""
    g = compiled(spec, variants)
    # Workers elsewhere find a built-in game by its id in their own Cairn install.
    where = g.id if is_builtin(g) else spec
    keep(where, variants, g)
    return in_batches(play_range, lambda s, e: (where, tuple(variants), players, master, s, e, list(agents),
                                                 rotate, final),
                      games, g, workers=workers, scheduler=scheduler, progress=progress)


def in_batches(task: Callable, args: Callable[[int, int], tuple], games: int, g: CompiledGame, *,
               workers: int = 1, scheduler: str | None = None,
               progress: Callable[[int], None] | None = None) -> list[dict]:
    """Returns the records of games 0..games-1, played by `task(*args(start, end))` in batches
    sized for the workers there (processes or dask), in game order; each record must come
    from these definitions (`g`), or a worker elsewhere has another Cairn: WorkerMismatch."""
    def spans(workers_there: int) -> list[tuple]:
        chunk = batch_size(games, workers_there)
        return [args(s, min(s + chunk, games)) for s in range(0, games, chunk)]
    done = 0

    def tick(batch: list[dict]) -> None:
        nonlocal done
        done += len(batch)
        if progress:
            progress(done)
    records = [r for batch in map_batches(task, spans, workers=workers, scheduler=scheduler, on_done=tick)
               for r in batch]
    for r in records:
        if r.get("definitions_sha256") != g.content_hash:
            raise WorkerMismatch(f"a worker played definitions {str(r.get('definitions_sha256'))[:12]}..., "
                                 f"not these ({g.content_hash[:12]}...): install the same Cairn and "
                                 "definitions on every worker")
    return records
