"""Ends a game: scores, tie-breaks, winners and returns, from the definition's formulas."""
from __future__ import annotations

from typing import Any

from ..lang.runtime import WORK_BUDGET, Ctx, RuntimeProblem


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
    trace = getattr(g, "trace", None)
    if trace is not None:
        trace.add("scoring")
    # One context for every seat's formulas (they are pure: they read `me` and the state),
    # given each seat's locals and work budget in turn: a seat's score, tie-breaks and
    # win_if share one budget, a million items.
    c = Ctx(d, g, None)
    budgets = []
    score, tiebreaks = g.score, g.tiebreaks
    try:
        scores, ties = [], []
        for p in range(n):
            c.l = {"me": p}
            c.w = w = [WORK_BUDGET]
            budgets.append(w)
            scores.append(score(c))
            ties.append([f(c) for f in tiebreaks] if tiebreaks else [])
    except _FORMULA_ERRORS as err:
        abort(g, d, f"scoring failed: {err}")
        return
    if n == 2 and not tiebreaks:     # the common case, compared as max() compares the keys
        s0, s1 = scores
        winners = [0, 1] if s0 == s1 else [1] if s1 > s0 else [0]
    else:
        keys = [(scores[p], *ties[p]) for p in range(n)]
        best = max(keys)
        winners = [p for p in range(n) if keys[p] == best]
    if g.win_if is not None:
        # e.g. a solo game is won only from a target score up: the best may still lose.
        try:
            kept = []
            for p in winners:
                c.l, c.w = {"me": p}, budgets[p]
                if g.win_if(c):
                    kept.append(p)
            winners = kept
        except _FORMULA_ERRORS as err:
            abort(g, d, f"win_if failed: {err}")
            return
    returns = [0.0] * n                  # (no comprehension: a game's end is part of its floor)
    for p in winners:
        returns[p] = 1.0
    d["result"] = {"reason": reason, "scores": scores, "tiebreaks": ties, "winners": winners,
                   "returns": returns}
    if getattr(g, "payoff", None) is not None:
        problem = _payoffs(g, d, scores, c)
        if problem:
            abort(g, d, problem)
            return
    if not d.get("log_on", True):
        return                           # a playout keeps no log: its result says it all
    d["log"].append([f"game over ({reason}): scores {scores}; "
                     + ("winner(s) " + ", ".join(g.player_name(p) for p in winners) if winners
                        else "nobody wins"), None])


def _payoffs(g: Any, d: dict, scores: list, c: Ctx) -> str | None:
    """Adds the declared payoffs to the result (`returns` keeps the win flags); returns
    what went wrong instead, so a payoff off its declared range never passes silently."""
    n = d["n"]
    if g.payoff == "zero-sum":
        mean = sum(scores) / n
        pay = [float(s - mean) for s in scores]
    else:
        pay = []
        try:
            for p in range(n):                   # each seat's formula with a budget of its own
                c.l, c.w = {"me": p}, [WORK_BUDGET]
                pay.append(g.payoff(c))
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
