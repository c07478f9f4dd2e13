"""Runs the games of a balance report (through batch.simulate, seats rotated game by game
so every seat position gets every bot equally) and compares a base game with a variant."""
from __future__ import annotations

from typing import Any, Callable

from ..batch import compiled, simulate
from ..engine.game import CompiledGame
from ..records import digest
from . import report
from .stats import diff_means, diff_rates, share


def batch_report(folder: str, variants: tuple[str, ...], players: int, games: int, seed: int,
                 seats: list[str], workers: int = 1, scheduler: str | None = None,
                 progress: Callable[[int], None] | None = None) -> tuple[dict[str, Any], list[dict]]:
    """Returns (report, records) for one game with some variants."""
    g = compiled(folder, variants)
    records = simulate(folder, variants, players, games, seed, seats, workers=workers, progress=progress,
                       scheduler=scheduler, rotate=True, final=report.holdings)
    held = [r.pop("final") for r in records]    # worked out where each game was played
    rep = report.build(g, records, held)
    rep.update({"seed": seed, "seats_spec": seats, "heuristic": bool(g.heuristic), "digest": digest(records)})
    return rep, records


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
