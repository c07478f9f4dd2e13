"""One-ply lookahead: try each option on a sample of the position (hidden parts redrawn
from what the seat sees, as mcts does) and keep the one that leaves the seat standing best
by the game's heuristic (bots/rating.py); ties are broken by the bot's own RNG."""
from __future__ import annotations

from ..engine import rng
from ..engine.game import GameState
from .base import SamplingBot
from .rating import forced, standing


class GreedyAgent(SamplingBot):
    """Picks the option whose result rates best for its seat, one decision ahead."""

    name = "greedy"

    def step(self, state: GameState) -> int:
        """Returns the best-rated option (forced follow-ups played before rating)."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        base = self.sample(state, seat)
        best: list[int] = []
        top = None
        for a in actions:
            s = base.clone()
            s.apply_action(a)
            forced(s)
            v = standing(s, seat)
            if top is None or v > top:
                top, best = v, [a]
            elif v == top:
                best.append(a)
        return best[rng.below(self._d, len(best))]
