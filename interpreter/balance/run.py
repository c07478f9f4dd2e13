"""Runs the games of a balance report (play.py: seats rotated game by game so every seat
position gets every bot equally) and compares a base game with a variant."""
from __future__ import annotations

from typing import Any, Callable

from ..batch import compiled
from ..engine.game import CompiledGame
from ..records import digest
from . import metrics, report
from .play import play_games
from .stats import diff_means, diff_rates, share

EXTRAS = ("final", "order", "plays", "metrics", "bites")


def split(records: list[dict]) -> list[dict]:
    """Takes the report's extras out of each record (so records are what simulate writes,
    and store as they do); returns them, one dict a game."""
    return [{k: r.pop(k) for k in EXTRAS if k in r} for r in records]


def batch_report(folder: str, variants: tuple[str, ...], players: int, games: int, seed: int,
                 seats: list[str], workers: int = 1, scheduler: str | None = None,
                 progress: Callable[[int], None] | None = None) -> tuple[dict[str, Any], list[dict], list[dict]]:
    """Returns (report, records, extras) for one game with some variants."""
    g = compiled(folder, variants)
    records = play_games(folder, variants, players, games, seed, seats, workers=workers, scheduler=scheduler,
                         progress=progress)
    extras = split(records)
    rep = report.build(g, records, [e["final"] for e in extras])
    rep["flow"] = metrics.summary([{**r, **e} for r, e in zip(records, extras)])
    rep.update({"seed": seed, "seats_spec": seats, "heuristic": bool(g.heuristic), "digest": digest(records)})
    return rep, records, extras


def defs(game: CompiledGame) -> set[str]:
    """Returns the object definitions of a game (copies of a card count once)."""
    return {str(game.props.get(o, {}).get("def", o)) for o, _k, _s in game.components}


def compare(base: dict, other: dict, base_records: list[dict], other_records: list[dict],
            base_defs: set[str]) -> dict[str, Any]:
    """Returns what a variant shifts against the base (other minus base), with 95%
    intervals: seat win rates, mean scores, game length; objects new in the variant."""
    n = base["players"]
    seats = []
    for p in range(n):
        wa = sum(share(r, p) for r in base_records)
        wb = sum(share(r, p) for r in other_records)
        sa = [float(r["result"]["scores"][p]) for r in base_records]
        sb = [float(r["result"]["scores"][p]) for r in other_records]
        seats.append({"seat": p, "win": diff_rates(wa, len(base_records), wb, len(other_records)),
                      "score": diff_means(sa, sb)})
    return {
        "base": base["variants"], "variant": other["variants"], "seats": seats,
        "score": diff_means(base["scores"]["values"], other["scores"]["values"]),
        "winning_score": {"base": base["winning_score"]["mean"], "variant": other["winning_score"]["mean"]},
        "turns": diff_means([float(x) for x in base["turns"]["values"]], [float(x) for x in other["turns"]["values"]]),
        "new_objects": [o for o in other["objects"] if o["object"] not in base_defs],
    }
