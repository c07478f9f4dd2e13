"""How bots rate a position: the game's heuristic (scoring.bots.heuristic in game.yaml,
else the final-score formula) per seat, and a reward in [0, 1] per seat for search."""
from __future__ import annotations

from ..engine.game import GameState
from ..engine.vm import resume
from ..lang.runtime import Ctx, RuntimeProblem

_ERRORS = (RuntimeProblem, TypeError, KeyError, IndexError, ValueError, ZeroDivisionError)


def ratings(state: GameState) -> list[float]:
    """Returns each seat's heuristic value now (a formula that fails counts as 0): at the
    end, the final scores."""
    g, d = state.game, state.d
    if d["terminal"] and d["result"]:
        return [float(x) for x in d["result"]["scores"]]
    fn = g.heuristic or g.score
    out = []
    for p in range(d["n"]):
        try:
            v = fn(Ctx(d, g, {"me": p}))
            out.append(float(v) if isinstance(v, (int, float)) else 0.0)
        except _ERRORS:
            out.append(0.0)
    return out


def rewards(state: GameState) -> list[float]:
    """Returns one reward in [0, 1] per seat: at the end the game's returns (a winner 1);
    before, the share of other seats it rates above (ties half), so scales never matter.
    Alone at the table, the rating squashed into (0, 1)."""
    d = state.d
    n = d["n"]
    if d["terminal"]:
        return [float(x) for x in state.returns()]
    h = ratings(state)
    if n == 1:
        return [0.5 + 0.5 * h[0] / (1.0 + abs(h[0]))]
    out = []
    for p in range(n):
        above = sum(1.0 if h[p] > h[q] else 0.5 if h[p] == h[q] else 0.0 for q in range(n) if q != p)
        out.append(above / (n - 1))
    return out


def standing(state: GameState, seat: int) -> float:
    """Returns one number to maximise for `seat` (greedy's measure): a won end first, then
    the lead over the best other seat, then the seat's own rating."""
    h = ratings(state)
    n = len(h)
    lead = h[seat] - max((h[q] for q in range(n) if q != seat), default=0.0)
    won = 0.0
    if state.d["terminal"]:
        won = 1e9 if state.returns()[seat] > 0 else -1e9
    return won + lead * 1000.0 + h[seat] if n > 1 else won + h[seat]


def forced(state: GameState, limit: int = 10_000) -> None:
    """Plays every decision that has a single option (they need no thought)."""
    g, d = state.game, state.d
    while limit and not d["terminal"] and len(d["pending"]["options"]) == 1:
        resume(g, d, 0)             # option 0 of one: no need of the state API's checks
        limit -= 1

