"""What both adapters need: the fixed action bound, the deal drawn by chance, and what a
seat may see (always through the engine's own views, never the raw state).

Action bound: a Cairn decision is a numbered list of options whose length depends on the
position, while OpenSpiel and PettingZoo want one fixed action space. `ACTION_BOUND` is
that size (an action is an option's index). The largest decision met in random playouts
of every shipped game at every player count is far below 256 (docs/ADAPTERS.md has the
measured numbers). A decision with more options than the bound is refused with an
`ActionBoundError` naming the bound to raise (a game parameter), never silently cut.
"""
from __future__ import annotations

import json
from typing import Any

from ..engine import rng
from ..engine.action_ids import LABEL_SLOTS, NUMBERS, ActionSpace, Step, slot
from ..engine.game import CompiledGame, GameState
from ..engine.tensor import BAG, Encoder, leaves

ACTION_BOUND = 256
DEALS = 1024          # chance picks one of this many seeds at the start (a game parameter)
ACTION_MODES = ("ids", "options")   # stable game-wide ids (engine/action_ids.py), or option indices
MY_ACTIONS = 64       # slots of the information state's bag of the seat's own actions

_LAYOUTS: dict[tuple, tuple[CompiledGame, ActionSpace, Encoder]] = {}


class ActionBoundError(ValueError):
    """A decision has more options than the adapter's fixed action space."""


def deal_seed(rng_seed: int, deal: int) -> int:
    """Returns the Cairn seed of chance outcome `deal` (a family of deals per rng_seed)."""
    return rng.derive(rng_seed, deal)


def legal(state: GameState, bound: int) -> list[int]:
    """Returns the legal option indices, refusing a decision larger than the bound."""
    actions = state.legal_actions()
    if len(actions) > bound:
        raise ActionBoundError(f"{state.game.id}: a decision has {len(actions)} options, more than the "
                               f"action bound {bound}: raise max_actions (an OpenSpiel game parameter, a PettingZoo env argument)")
    return actions


def observation_text(state: GameState, player: int) -> str:
    """Returns what `player` sees now, as canonical JSON (Cairn's own view: hidden places
    as counts, others' private data and options left out; the log is history, not now)."""
    seen = state.observation(player)
    seen.pop("log", None)
    return json.dumps(seen, sort_keys=True, ensure_ascii=False)


def information_text(state: GameState, player: int, own: list[int]) -> str:
    """Returns `player`'s information state: what they see now (whose visible log keeps
    the public past) plus every choice they made themselves (perfect recall)."""
    return json.dumps({"seen": state.observation(player), "my_choices": own}, sort_keys=True, ensure_ascii=False)


def label(state: GameState, action: int) -> str:
    """Returns an option's label when it is legal now, else 'option N'."""
    try:
        return state.action_to_string(action)
    except ValueError:
        return f"option {action}"


def hashed_features(text: str, size: int) -> Any:
    """Returns a fixed-size float32 vector of counts: each `key=value` leaf of the JSON
    view hashed into one of `size` slots (engine/tensor.py's leaves and slots)."""
    import numpy as np
    out = np.zeros(size, np.float32)
    for token in leaves(json.loads(text)):
        out[slot(token, size)] += 1.0
    return out


def players_of(game: CompiledGame, players: int | None) -> int:
    """Returns a valid player count (the game's fewest for None)."""
    n = game.min_players if players is None else int(players)
    if not game.min_players <= n <= game.max_players:
        raise ValueError(f"{game.id} takes {game.min_players}-{game.max_players} players, got {n}")
    return n


def layouts(g: CompiledGame, players: int, label_slots: int = LABEL_SLOTS, bag: int = BAG,
            numbers: tuple[int, int] = NUMBERS) -> tuple[ActionSpace, Encoder]:
    """Returns the game's action space and tensor layout at a player count, built once
    per process (states hold only plain data, so a copy of one never copies these)."""
    key = (id(g), players, label_slots, bag, tuple(numbers))
    hit = _LAYOUTS.get(key)
    if hit is None or hit[0] is not g:
        space = ActionSpace(g, numbers, label_slots)
        hit = _LAYOUTS[key] = (g, space, Encoder(g, players, space.atoms, space.families, bag))
    return hit[1], hit[2]


def id_step(space: ActionSpace, state: GameState, prefix: tuple) -> Step:
    """Returns the pending decision's sub-step after the atoms chosen so far."""
    return space.step(state.d, tuple(prefix))


def mode_of(actions: str) -> str:
    """Returns a valid action mode, refusing another with the ones there are."""
    if actions not in ACTION_MODES:
        raise ValueError(f"expected actions 'ids' or 'options', got {actions!r}")
    return actions


def bag_index(value: int, size: int) -> int:
    """Returns the slot of an action in the information state's bag of own actions."""
    return slot(str(value), size)
