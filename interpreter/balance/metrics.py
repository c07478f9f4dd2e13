"""How a game unfolds, after Ludii's evaluation metrics (Ludeme/Ludii, Evaluation/src/
metrics/single: outcome/Drawishness, stateEvaluation/LeadChange, decisiveness/
DecisivenessThreshold and DecisivenessMoves), computed from each seat's rating after every
decision of the game's turns (bots/rating.py: the game's bot heuristic, else its score):

- lead changes: how many times the set of seats rated highest differs from the one before
  (Ludii divides by the moves; both are kept);
- decisiveness: the highest rating any seat that did not win ever reached is the game's
  threshold; the game is decided at the first decision after which a winner is rated
  above it, given as a fraction of the game's decisions (1.0: only at the very end;
  smaller: decided earlier);
- drawishness: finished games with no single winner (a shared win, or none);
- first-player advantage: win rate by turn order (the order in which the seats first
  decide once the first turn has begun: the seat order where a game picks its first
  player), with Wilson intervals.

A game whose ratings never move (its score is only written at the end and it names no
heuristic) has no readable trajectory: its lead and decisiveness figures are left out.
"""
from __future__ import annotations

from typing import Any

from .stats import mean_ci, rate, share


def _leaders(row: list[float]) -> tuple[int, ...]:
    top = max(row)
    return tuple(p for p, v in enumerate(row) if v == top)


def game_metrics(path: list[list[float]], winners: list[int]) -> dict[str, Any]:
    """Returns one game's trajectory metrics from its ratings after each decision."""
    n = len(path)
    readable = n > 1 and any(len({row[p] for row in path}) > 1 for p in range(len(path[0])))
    if not readable:
        return {"readable": False, "decisions": n}
    changes = sum(1 for a, b in zip(path, path[1:]) if _leaders(a) != _leaders(b))
    out: dict[str, Any] = {"readable": True, "decisions": n, "lead_changes": changes,
                           "lead_change_rate": round(changes / n, 4)}
    losers = [p for p in range(len(path[0])) if p not in winners]
    if winners and losers:
        threshold = max(row[p] for row in path for p in losers)
        at = next((i + 1 for i, row in enumerate(path) if any(row[w] > threshold for w in winners)), n)
        out["decided_at"] = round(at / n, 4)
    return out


def summary(records: list[dict]) -> dict[str, Any]:
    """Returns the batch's first-player advantage, draws, lead changes and decisiveness."""
    n = records[0]["players"]
    games = len(records)
    by_order = []
    for k in range(n):
        won = sum(share(r, r["order"][k]) for r in records if "order" in r)
        by_order.append({"position": k, "win": rate(won, games)})
    finished = [r for r in records if r["result"]["reason"] != "aborted"]
    draws = sum(1 for r in finished if len(r["result"]["winners"]) != 1)
    ms = [r["metrics"] for r in records if r.get("metrics", {}).get("readable")]
    return {
        "by_turn_order": by_order,
        "draws": rate(draws, len(finished)),
        "readable": len(ms),
        "lead_changes": mean_ci([float(m["lead_changes"]) for m in ms]),
        "lead_change_rate": mean_ci([m["lead_change_rate"] for m in ms]),
        "decided_at": mean_ci([m["decided_at"] for m in ms if "decided_at" in m]),
    }
