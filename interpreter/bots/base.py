"""What the searching bots share: their own RNG (simple.SeededBot) and one sampler of
hidden information a game, made when the bot first sees that game."""
from __future__ import annotations

from ..engine.game import GameState
from .determinize import Deal, Sampler
from .simple import SeededBot


class SamplingBot(SeededBot):
    """A seeded bot that looks at the position only through samples of what its seat
    may know (bots/determinize.py), never through the true hidden state."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self._sampler: Sampler | None = None

    def sample(self, state: GameState, seat: int) -> GameState:
        """Returns a copy of `state` with what `seat` cannot see drawn anew by this bot's RNG."""
        return self.deal(state, seat).draw(self._d, last=True)

    def deal(self, state: GameState, seat: int) -> Deal:
        """Returns the sampler of one position, for many samples of it: each `draw(self._d)`
        gives what `sample` would."""
        if self._sampler is None or self._sampler.game is not state.game:
            self._sampler = Sampler(state.game)
        return self._sampler.deal(state, seat)
