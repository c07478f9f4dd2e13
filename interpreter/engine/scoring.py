"""Ends a game: scores, tie-breaks, winners and returns, from the definition's formulas."""
from __future__ import annotations

from typing import Any

from ..lang.runtime import Ctx, RuntimeProblem


_FORMULA_ERRORS = (RuntimeProblem, TypeError, KeyError, IndexError, ValueError)


def _stop(d: dict) -> None:
    d["frames"] = []
    d["pending"] = None
    d["terminal"] = True


def abort(g: Any, d: dict, message: str) -> None:
    """Ends the game as aborted, keeping the reason; never raises."""
    _stop(d)
    n = d["n"]
    d["log"].append([f"game aborted: {message}", None])
    d["result"] = {"reason": "aborted", "aborted": message, "scores": [0] * n,
                   "tiebreaks": [[] for _ in range(n)], "winners": [], "returns": [0.0] * n}


def finish(g: Any, d: dict, reason: str) -> None:
    """Marks the game over and records its result; a formula error aborts cleanly."""
    n = d["n"]
    _stop(d)
    if getattr(g, "trace", None) is not None:
        g.trace.add("scoring")
    # one context a seat for all its formulas (they are pure: they read `me` and the state;
    # a seat's score and tie-breaks share one work budget, a million items)
    seats = [Ctx(d, g, {"me": p}) for p in range(n)]
    try:
        scores = [g.score(c) for c in seats]
        ties = [[f(c) for f in g.tiebreaks] for c in seats] if g.tiebreaks else [[] for _ in seats]
    except _FORMULA_ERRORS as err:
        abort(g, d, f"scoring failed: {err}")
        return
    keys = [(scores[p], *ties[p]) for p in range(n)]
    best = max(keys)
    winners = [p for p in range(n) if keys[p] == best]
    if g.win_if is not None:
        # e.g. a solo game is won only from a target score up: the best may still lose.
        try:
            winners = [p for p in winners if g.win_if(seats[p])]
        except _FORMULA_ERRORS as err:
            abort(g, d, f"win_if failed: {err}")
            return
    returns = [1.0 if p in winners else 0.0 for p in range(n)]
    d["result"] = {"reason": reason, "scores": scores, "tiebreaks": ties, "winners": winners,
                   "returns": returns}
    if getattr(g, "payoff", None) is not None:
        problem = _payoffs(g, d, scores)
        if problem:
            abort(g, d, problem)
            return
    if not d.get("log_on", True):
        return                           # a playout keeps no log: its result says it all
    d["log"].append([f"game over ({reason}): scores {scores}; "
                     + ("winner(s) " + ", ".join(g.player_name(p) for p in winners) if winners
                        else "nobody wins"), None])


def _payoffs(g: Any, d: dict, scores: list) -> str | None:
    """Adds the declared payoffs to the result (`returns` keeps the win flags); returns
    what went wrong instead, so a payoff off its declared range never passes silently."""
    n = d["n"]
    if g.payoff == "zero-sum":
        mean = sum(scores) / n
        pay = [float(s - mean) for s in scores]
    else:
        try:
            pay = [g.payoff(Ctx(d, g, {"me": p})) for p in range(n)]
        except _FORMULA_ERRORS as err:
            return f"payoff failed: {err}"
        if any(type(x) not in (int, float) for x in pay):
            return f"payoff is not a number: {pay}"
        pay = [float(x) for x in pay]
    lo, hi = g.payoff_range
    if any(not lo <= x <= hi for x in pay):
        return f"payoff {pay} is outside its declared range [{lo:g}, {hi:g}]"
    d["result"]["payoffs"] = pay
    return None
