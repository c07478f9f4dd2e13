"""Bots that fill seats: each decides from the legal options alone, with its own seeded RNG."""
from __future__ import annotations

from typing import Protocol

from .engine import rng
from .engine.game import GameState


class Agent(Protocol):
    def step(self, state: GameState) -> int: ...


class RandomAgent:
    """Picks uniformly among legal options; its RNG is apart from the game's."""

    name = "random"

    def __init__(self, seed: int):
        self._d = {"rng": rng.seed_state(seed)}

    def step(self, state: GameState) -> int:
        actions = state.legal_actions()
        return actions[rng.below(self._d, len(actions))]

    def get_state(self) -> dict:
        """Returns the bot's RNG state (plain data), so undo and resume replay it exactly."""
        return {"rng": self._d["rng"]}

    def set_state(self, saved: dict) -> None:
        self._d = {"rng": int(saved["rng"])}


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


AGENTS = {"random": RandomAgent, "first": FirstAgent}


def make_agents(names: list[str], n: int, seed: int) -> list[Agent]:
    """Returns one agent per seat (the last name repeats), each seeded from (seed, seat)."""
    if not names:
        names = ["random"]
    out: list[Agent] = []
    for seat in range(n):
        name = names[min(seat, len(names) - 1)]
        if name not in AGENTS:
            raise ValueError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
        out.append(AGENTS[name](rng.derive(seed, 1000 + seat)))
    return out
