"""What each card (and each named power) is worth: restricted play.

For a subject (a card's definition, or one named ability: restrict.py), games are played
with the first bot of the seat list restricted (it never chooses an option naming the
subject, or always does when it can) against the others unrestricted. Game i of the
restricted batch has the seed, the seats and the bots' own seeds of game i of the
report's unrestricted batch, so the two games are the same game until the restriction
first bites (a game where it never bites is the very same game, record for record). The
effect is the mean, over the games, of the restricted seat's win share minus that same
seat's share in the unrestricted game: a paired difference (common random numbers), with
a normal 95% interval, far tighter than comparing two independent batches. A card whose
`never` effect is well below zero wins games for whoever plays it.

Which subjects: those named (`--cards`), else the most played in the unrestricted games,
and with a comparison every card and named power the variant adds.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..engine.game import CompiledGame
from .names import known_subjects, label
from .play import play_games, restricted_name
from .stats import mean_ci, rate, share, wilson


def most_played(records: list[dict], top: int, among: set[str]) -> list[str]:
    """Returns the `top` subjects chosen most often in the games (ties by id)."""
    count: Counter = Counter()
    for r in records:
        count.update({s: c for s, c in r.get("plays", {}).items() if s in among})
    return [s for s, _c in sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]


def new_subjects(base: CompiledGame, variant: CompiledGame) -> list[str]:
    """Returns the cards and named powers a variant adds, sorted."""
    return sorted(known_subjects(variant) - known_subjects(base))


def paired_effect(diffs: list[float]) -> dict[str, float | None]:
    """Returns the mean paired difference with its 95% interval: the normal one, except
    where no game's outcome changed (every difference 0, so no spread to measure): then
    |effect| <= the chance a game's outcome changes, whose Wilson upper bound for 0 of n
    (about 3.8/n) bounds the interval."""
    m = mean_ci(diffs)
    if m["n"] == 0:
        return {"diff": None, "low": None, "high": None}
    if any(diffs):
        return {"diff": m["mean"], "low": m["low"], "high": m["high"]}
    bound = round(wilson(0, len(diffs))[1], 4)
    return {"diff": 0.0, "low": -bound, "high": bound}


def free_shares(records: list[dict]) -> list[float]:
    """Returns, game by game, the win share of the seat the restricted bot takes in the
    same game of restricted play (seat i % players: the bot list turned by i)."""
    return [share(r, i % r["players"]) for i, r in enumerate(records)]


def restricted_play(spec: str, variants: tuple[str, ...], game: CompiledGame, players: int, master: int,
                    seats: list[str], subjects: list[str], mode: str, free: list[float],
                    plays: dict[str, int], *, workers: int = 1, scheduler: str | None = None,
                    progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Returns one row per subject, ranked: the strongest first (for `never`, the most
    negative effect; for `always`, the most positive). `free` holds the unrestricted
    games' shares (free_shares), one a game to play."""
    games = len(free)
    rows = []
    for k, subject in enumerate(subjects):
        restrict = (subject, mode)
        records = play_games(spec, variants, players, games, master, seats, workers=workers, scheduler=scheduler,
                             restrict=restrict, trace=False,
                             progress=(lambda d, k=k: progress(k * games + d)) if progress else None)
        who = restricted_name(seats[0], restrict)
        mine = [share(r, r["agents"].index(who)) for r in records]
        bites = [float(r.get("bites", 0)) for r in records]
        rows.append({"subject": subject, "name": label(game, subject), "mode": mode, "games": games,
                     "played": plays.get(subject, 0), "win": rate(sum(mine), games),
                     "free": rate(sum(free), games),
                     "effect": paired_effect([a - b for a, b in zip(mine, free)]),
                     "changed": sum(1 for a, b in zip(mine, free) if a != b),
                     "bites": mean_ci(bites), "bitten": sum(1 for b in bites if b > 0)})
    sign = 1 if mode == "never" else -1
    rows.sort(key=lambda r: (r["bitten"] == 0, sign * (r["effect"]["diff"] or 0), r["subject"]))
    return rows
