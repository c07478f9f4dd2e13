"""Plays the games of a balance report or a sweep, and works out where each game is
played what the report needs of it: what each seat holds at the end, the turn order,
the trajectory metrics (bots/rating.py's ratings after every decision), which cards and
powers the seats chose, and, for restricted play, how often the restriction bit.

Games are seeded and seated exactly as `cairn simulate --rotate` seats them (game i turns
the bot list by i, seeds from (master, i)), so a report's records replay with `cairn
replay` and, unrestricted, are the records simulate makes. Batches run through
scale.map_batches: one process, a process pool, or dask (`--scheduler`)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..agents import make_agents, rotated
from ..batch import compiled, in_batches, keep
from ..bots.rating import ratings
from ..engine import rng
from ..engine.game import CompiledGame
from ..records import is_builtin, make_record
from .metrics import game_metrics
from .report import holdings
from .restrict import Naming, Restricted

Restriction = tuple[str, str] | None      # (subject, "never" | "always")
_NAMINGS: dict[int, tuple[CompiledGame, Naming]] = {}


def naming(game: CompiledGame) -> Naming:
    """Returns the game's option naming, made once a process."""
    hit = _NAMINGS.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _NAMINGS[id(game)] = (game, Naming(game))
    return hit[1]


def play_one(g: CompiledGame, players: int, seed: int, seats: list[str], watched: int,
             restrict: Restriction = None, trace: bool = True) -> dict[str, Any]:
    """Plays one game; returns its record with the report's extras: `final` (holdings),
    `order` (seats in the order they first decided once the first turn began), `metrics`
    (lead changes, decisiveness), `plays` (subject -> real choices naming it) and, with
    a restriction on seat `watched`, `bites`."""
    bots = make_agents(seats, players, seed)
    names = list(seats)
    nm = naming(g)
    if restrict is not None:
        bots[watched] = Restricted(bots[watched], restrict[0], restrict[1], nm)
        names[watched] = restricted_name(seats[watched], restrict)
    state = g.new_initial_state(players, seed, log=False)
    d = state.d
    order: list[int] = []
    plays: Counter = Counter()
    path: list[list[float]] = []
    while not d["terminal"]:
        p = d["pending"]["player"]
        options = d["pending"]["options"]
        a = bots[p].step(state)
        if len(options) > 1:
            plays.update(nm.subjects(options[a]))
        if d["turns"] >= 1 and p not in order:
            order.append(p)
        state.apply_action(a)
        if trace and d["turns"] >= 1:
            path.append(ratings(state))
    rec = make_record(state, names)
    rec["final"] = holdings(g, d)
    rec["order"] = order + [p for p in range(players) if p not in order]
    rec["plays"] = dict(plays)
    if trace:
        rec["metrics"] = game_metrics(path, d["result"]["winners"] if d["result"] else [])
    if restrict is not None:
        rec["bites"] = bots[watched].bites
    return rec


def restricted_name(bot: str, restrict: tuple[str, str]) -> str:
    """Returns how a restricted seat's bot is named in records: `greedy[never fisher]`."""
    return f"{bot}[{restrict[1]} {restrict[0]}]"


def play_span(spec: str, variants: tuple[str, ...], players: int, master: int, start: int, stop: int,
              agents: list[str], restrict: Restriction = None, trace: bool = True) -> list[dict]:
    """Returns the records of games start..stop-1: game i seeds from (master, i) and turns
    the bot list by i, so the list's first bot (the restricted one) sits at seat i % players."""
    g = compiled(spec, variants)
    return [play_one(g, players, rng.derive(master, i), rotated(agents, players, i), i % players, restrict, trace)
            for i in range(start, stop)]


def play_games(spec: str, variants: tuple[str, ...], players: int, games: int, master: int, agents: list[str],
               *, workers: int = 1, scheduler: str | None = None, restrict: Restriction = None,
               trace: bool = True, progress: Callable[[int], None] | None = None) -> list[dict]:
    """Returns one record per game, in game order, wherever they were played (the same
    records for any number of workers)."""
    g = compiled(spec, variants)
    where = g.id if is_builtin(g) else spec          # workers elsewhere find a built-in game by id
    keep(where, variants, g)

    return in_batches(play_span, lambda s, e: (where, tuple(variants), players, master, s, e, list(agents),
                                                restrict, trace),
                      games, g, workers=workers, scheduler=scheduler, progress=progress)
