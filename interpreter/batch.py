"""Many bot games, in one process or several: each game's seed comes from (master seed,
game index), so the records, and their digest, do not depend on the number of workers."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable

from .agents import make_agents, rotated
from .engine import rng
from .load.build import load_game
from .records import make_record, play

_GAMES: dict[tuple, Any] = {}


def _game(spec: str, variants: tuple[str, ...]) -> Any:
    key = (spec, variants)
    if key not in _GAMES:
        _GAMES[key] = load_game(spec, list(variants))
    return _GAMES[key]


def play_range(spec: str, variants: tuple[str, ...], players: int, master: int, start: int,
               stop: int, agents: list[str], rotate: bool = False) -> list[dict]:
    """Returns the records of games start..stop-1 of a batch (compiling the game once here);
    with `rotate`, game i seats the bots turned by i (agents.rotated), and its record
    names the bot of each seat."""
    g = _game(spec, variants)
    out = []
    for i in range(start, stop):
        seed = rng.derive(master, i)
        seats = rotated(agents, players, i) if rotate else agents
        state = play(g, players, seed, make_agents(seats, players, seed), log=False)
        out.append(make_record(state, seats))
    return out


def simulate(spec: str, variants: tuple[str, ...], players: int, games: int, master: int,
             agents: list[str], workers: int = 1,
             progress: Callable[[int], None] | None = None, rotate: bool = False) -> list[dict]:
    """Returns one record per game, in game order (seats turned game by game with `rotate`)."""
    chunk = max(1, min(50, games // (workers * 4) or 1))
    spans = [(s, min(s + chunk, games)) for s in range(0, games, chunk)]
    done = 0
    if workers <= 1:
        records: list[dict] = []
        for start, stop in spans:
            records.extend(play_range(spec, variants, players, master, start, stop, agents, rotate))
            done += stop - start
            if progress:
                progress(done)
        return records
    results: dict[int, list[dict]] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_range, spec, variants, players, master, s, e, agents, rotate): s
                   for s, e in spans}
        for fut in as_completed(futures):
            results[futures[fut]] = fut.result()
            done += len(results[futures[fut]])
            if progress:
                progress(done)
    return [r for s, _e in spans for r in results[s]]
