"""Undo against bots, shared by every place a person plays (the terminal, the web page).

Undo replays the game's choices from its seed, minus the person's last decision and the
bots' decisions after it, with the bots' random states as they were then: the same game,
never a hand-made inverse. A checkpoint is taken at each of the person's decisions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine.game import CompiledGame, GameState


@dataclass
class Checkpoint:
    """A person's decision: how many choices were made before it, and the bots' states."""

    at: int
    seat: int
    bots: list[dict]


def checkpoint(state: GameState, seat: int, bots: list[Any]) -> Checkpoint:
    """Returns the checkpoint of the decision `seat` is about to make in `state`."""
    return Checkpoint(len(state.d["actions"]), seat, [b.get_state() for b in bots])


class UndoError(ValueError):
    """A checkpoint that does not fit the game (a save's were checked as it was read, so
    this is a safeguard): the undo is refused and nothing changes."""


def checkpoint_problem(cp: Checkpoint, state: GameState, bots: list[Any]) -> str | None:
    """Returns why going back to checkpoint `cp` of this game cannot be done, or None."""
    if type(cp.at) is not int or not 0 <= cp.at <= len(state.d["actions"]):
        return f"the checkpoint stands at {cp.at!r} choices, but the game has made {len(state.d['actions'])}"
    if type(cp.bots) is not list or len(cp.bots) != len(bots) \
            or any(type(saved) is not dict or set(saved) != set(bot.get_state()) for saved, bot in zip(cp.bots, bots)):
        return f"the checkpoint holds no state for each of the {len(bots)} bots"
    return None


def replay(g: CompiledGame, n: int, seed: int, actions: list[int]) -> GameState:
    """Returns the game from its seed with these choices made (the log kept, for the screens)."""
    state = g.new_initial_state(n, seed)
    for a in actions:
        state.apply_action(a)
    return state


def undo(g: CompiledGame, state: GameState, checkpoints: list[Checkpoint],
         bots: list[Any]) -> tuple[GameState, Checkpoint] | None:
    """Returns the game replayed back to the person's previous decision and that decision's
    checkpoint, or None when there is nothing to undo.

    `checkpoints` ends with the decision being asked now: it and the one before it are
    popped (the one before is asked again, so it gets a new checkpoint then), and the bots
    get their random states from then back."""
    if len(checkpoints) < 2:
        return None
    problem = checkpoint_problem(checkpoints[-2], state, bots)
    if problem is not None:
        raise UndoError(f"cannot undo: {problem}")   # nothing popped: the game goes on as it was
    checkpoints.pop()
    back = checkpoints.pop()
    for bot, saved in zip(bots, back.bots):
        bot.set_state(saved)
    return replay(g, state.d["n"], state.d["seed"], state.d["actions"][:back.at]), back
