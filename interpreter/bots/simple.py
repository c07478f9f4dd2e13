"""The simplest bots and what every bot is: the Agent protocol, a bot with its own seeded
RNG (SeededBot, which the searching bots build on), and random and first, which decide
from the legal options alone."""
from __future__ import annotations

from typing import Protocol

from ..engine import rng
from ..engine.game import GameState


class Agent(Protocol):
    def step(self, state: GameState) -> int: ...


class SeededBot:
    """A bot with its own RNG, apart from the game's, kept as plain data."""

    def __init__(self, seed: int):
        self._d = {"rng": rng.seed_state(seed)}

    def get_state(self) -> dict:
        """Returns the bot's RNG state (plain data), so undo and resume replay it exactly."""
        return {"rng": self._d["rng"]}

    def set_state(self, saved: dict) -> None:
        self._d = {"rng": int(saved["rng"])}


class RandomAgent(SeededBot):
    """Picks uniformly among legal options."""

    name = "random"

    def step(self, state: GameState) -> int:
        actions = state.legal_actions()
        return actions[rng.below(self._d, len(actions))]


class FirstAgent:
    """Always takes the first option: a fixed, fast baseline for tests and benchmarks."""

    name = "first"

    def __init__(self, seed: int):
        pass

    def step(self, state: GameState) -> int:
        return state.legal_actions()[0]

    def get_state(self) -> dict:
        return {}

    def set_state(self, saved: dict) -> None:
        pass
