"""The seat registry: which bot a seat spec names. random and first (bots/simple.py)
decide from the legal options alone, each with its own seeded RNG; greedy and mcts
(interpreter/bots/) search on samples of what their seat may know. A seat spec is a name
with options: `mcts:500:depth=20`. The bots never import this registry (it sits above
them): the simple bots' names are kept here for the callers that import them from here."""
from __future__ import annotations

from .bots.simple import Agent, FirstAgent, RandomAgent, SeededBot
from .engine import rng

__all__ = ["AGENTS", "PARAMS", "Agent", "FirstAgent", "RandomAgent", "SeededBot", "make_agent", "make_agents",
           "parse_seat", "rotated"]


def _kinds() -> dict[str, type]:
    # The searching bots are imported when a seat is first made: most runs seat only random ones.
    from .bots.greedy import GreedyAgent
    from .bots.mcts import MctsAgent
    return {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "mcts": MctsAgent}


AGENTS = ("random", "first", "greedy", "mcts")
# What each kind takes after its name: the first bare number, then key=value options.
PARAMS = {"mcts": ("playouts", {"playouts": int, "depth": int, "c": float}), "random": None, "first": None,
          "greedy": None}


def parse_seat(spec: str) -> tuple[str, dict]:
    """Returns (kind, options) of a seat spec such as `mcts:500:depth=20`; raises
    ValueError saying what is expected."""
    name, *parts = spec.strip().split(":")
    if name not in PARAMS:
        raise ValueError(f"unknown bot '{name}'; known: {', '.join(AGENTS)}")
    takes = PARAMS[name]
    if parts and takes is None:
        raise ValueError(f"bot '{name}' takes no options, got '{spec}'")
    opts: dict = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            key, value = takes[0], part
        kind = takes[1].get(key)
        if kind is None:
            raise ValueError(f"bot '{name}' has no option '{key}'; options: {', '.join(takes[1])}")
        try:
            opts[key] = kind(value)
        except ValueError:
            raise ValueError(f"bot option {key} expects a number, got '{value}' in '{spec}'") from None
    return name, opts


def make_agent(spec: str, seed: int) -> Agent:
    """Returns one bot from a seat spec (`random`, `greedy`, `mcts:500`, ...)."""
    name, opts = parse_seat(spec)
    return _kinds()[name](seed, **opts)


def rotated(names: list[str], n: int, index: int) -> list[str]:
    """Returns the seats of game `index` of a batch: the list (the last name repeated to n
    seats) turned by the game index, so over n games each seat plays each bot once."""
    full = [names[min(i, len(names) - 1)] for i in range(n)] if names else ["random"] * n
    k = index % n
    return full[n - k:] + full[:n - k]


def make_agents(names: list[str], n: int, seed: int) -> list[Agent]:
    """Returns one agent per seat (the last name repeats), each seeded from (seed, seat)."""
    if not names:
        names = ["random"]
    return [make_agent(names[min(seat, len(names) - 1)], rng.derive(seed, 1000 + seat)) for seat in range(n)]
