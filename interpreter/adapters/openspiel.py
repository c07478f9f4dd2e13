"""Every Cairn game as an OpenSpiel Python game (extra `openspiel`), so OpenSpiel's own
bots, algorithms and conformance tests (`pyspiel.random_sim_test`) run on it.

    from interpreter.adapters import openspiel
    openspiel.register("my-game")                    # a game id; or register_all()
    game = pyspiel.load_game("cairn_my_game", {"players": 3})

Shape of each game (docs/ADAPTERS.md says why):
- Chance is explicit and honest: the first node is a chance node that deals one of
  `deals` equally likely seeds (derived from `rng_seed`); every later die and shuffle is
  drawn from the state's own RNG, fixed by that seed and hidden from every player. So
  the game is EXPLICIT_STOCHASTIC, replays exactly from its history, and is declared
  IMPERFECT_INFORMATION (the seed, and any hidden zone, is unseen).
- Actions are option indices, bounded by `max_actions` (adapters/common.py).
- Observation strings are the seat's own Cairn view; information state strings add the
  seat's log and its own past choices. Returns: the game's declared payoff (`scoring:
  payoff:`), by default 1 for each winner and 0 for the others.
"""
from __future__ import annotations

from typing import Any

try:
    import pyspiel
except ImportError as err:   # the extra is missing: say which
    raise ImportError("the OpenSpiel adapter needs the openspiel extra: pip install 'cairn[openspiel]'") from err

from ..engine.game import CompiledGame, GameState
from ..engine.state import clone_state, dumps
from ..engine.vm import check_waiting
from ..batch import compiled as cached
from ..load.files import game_ids
from .common import (ACTION_BOUND, DEALS, deal_seed, information_text, label, legal, observation_text,
                     players_of)

PREFIX = "cairn_"
MAX_GAME_LENGTH = 1_000_001    # Cairn's own bound on decisions in a played game, plus the deal


def short_name(game_id: str) -> str:
    """Returns the OpenSpiel name of a Cairn game: cairn_ plus the id with '_' for '-'."""
    return PREFIX + game_id.replace("-", "_")


def register(game: str, variants: tuple[str, ...] = ()) -> str:
    """Returns the OpenSpiel short name after registering a game id or folder (compiled
    once; a name already registered is kept)."""
    compiled = cached(game, tuple(variants))
    name = short_name(compiled.id) + "".join(f"__{v.replace('-', '_')}" for v in variants)
    if name in pyspiel.registered_names():
        return name
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"Cairn {compiled.name}" + (f" ({', '.join(variants)})" if variants else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if compiled.payoff == "zero-sum"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=compiled.max_players, min_num_players=compiled.min_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification={"players": compiled.min_players, "deals": DEALS, "rng_seed": 0,
                                 "max_actions": ACTION_BOUND})
    key = name.replace("-", "_")
    state_cls = type(f"State_{key}", (CairnState,), {"compiled": compiled, "__module__": __name__})
    game_cls = type(f"Game_{key}", (CairnGame,), {"compiled": compiled, "game_type": game_type,
                                                  "state_class": state_cls, "__module__": __name__})
    # pickle (OpenSpiel's serialization) finds classes by module and name
    globals()[game_cls.__name__], globals()[state_cls.__name__] = game_cls, state_cls
    pyspiel.register_game(game_type, game_cls)
    return name


def register_all() -> list[str]:
    """Returns the OpenSpiel names of every game shipped with Cairn, registering them."""
    return [register(g) for g in game_ids()]


class CairnGame(pyspiel.Game):
    """One Cairn game with its parameters (players, deals, rng_seed, max_actions)."""

    compiled: CompiledGame
    game_type: Any
    state_class: type

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        self.players = players_of(self.compiled, params.get("players"))
        self.deals = int(params.get("deals", DEALS))
        self.rng_seed = int(params.get("rng_seed", 0))
        self.max_actions = int(params.get("max_actions", ACTION_BOUND))
        if self.deals < 1 or self.max_actions < 1:
            raise ValueError(f"expected deals and max_actions of at least 1, got {self.deals}, {self.max_actions}")
        info = pyspiel.GameInfo(num_distinct_actions=self.max_actions, max_chance_outcomes=self.deals,
                                num_players=self.players, min_utility=self.compiled.payoff_range[0],
                                max_utility=self.compiled.payoff_range[1],
                                utility_sum=0.0 if self.compiled.payoff == "zero-sum" else None,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> "CairnState":
        """Returns the start of a game: the chance node that deals the seed."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "CairnObserver":
        """Returns the observer OpenSpiel asks for strings (perfect recall: information state)."""
        return CairnObserver(bool(iig_obs_type is not None and iig_obs_type.perfect_recall), params)


class CairnState(pyspiel.State):
    """One playthrough: a chance deal, then the Cairn state it started. Only plain data
    lives on the instance (OpenSpiel clones a Python state by deep copy); the compiled
    game is the class's."""

    compiled: CompiledGame

    def __init__(self, game: CairnGame):
        super().__init__(game)
        self.players, self.deals, self.rng_seed = game.players, game.deals, game.rng_seed
        self.max_actions = game.max_actions
        self.plain: _Plain | None = None    # the Cairn state's data, once dealt
        self.own: list[list[int]] = [[] for _ in range(game.players)]

    @property
    def inner(self) -> GameState | None:
        """Returns the Cairn state (a view on the plain data), None before the deal."""
        return None if self.plain is None else GameState(self.compiled, self.plain.d)

    def current_player(self) -> int:
        """Returns the seat to move, CHANCE before the deal, or TERMINAL."""
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """Returns the option indices of the pending decision."""
        return legal(self.inner, self.max_actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the deals, equally likely."""
        p = 1.0 / self.deals
        return [(k, p) for k in range(self.deals)]

    def _apply_action(self, action: int) -> None:
        """Deals (at the chance node) or answers the pending decision."""
        if self.plain is None:
            start = self.compiled.new_initial_state(self.players, deal_seed(self.rng_seed, int(action)))
            self.plain = _Plain(start.d, self.compiled)
            return
        inner = self.inner
        self.own[inner.current_player()].append(int(action))
        inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """Returns 'deal K' for chance, else the option's label."""
        if player == pyspiel.PlayerId.CHANCE or self.inner is None:
            return f"deal {action}"
        return label(self.inner, action)

    def is_terminal(self) -> bool:
        """Returns whether the game is over."""
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        """Returns 1.0 for each winner, 0.0 for the others (all 0.0 before the end)."""
        return [0.0] * self.players if self.plain is None else self.inner.returns()

    def __str__(self) -> str:
        """Returns the whole state as canonical JSON, the log left out (debug text, as
        OpenSpiel's ToString: hidden contents included; seats see observation strings)."""
        if self.plain is None:
            return "before the deal"
        return dumps({k: v for k, v in self.plain.d.items() if k not in ("log", "log_on")})


class _Plain:
    """A Cairn state's plain data, deep-copied by the engine's own fast clone (after the
    engine's check that everything waiting on the decision can be copied exactly)."""

    __slots__ = ("d", "g")

    def __init__(self, d: dict, g: CompiledGame | None):
        self.d, self.g = d, g

    def __deepcopy__(self, memo: dict) -> "_Plain":
        if self.g is not None:
            check_waiting(self.g, self.d)
        return _Plain(clone_state(self.d), self.g)

    def __getstate__(self) -> dict:
        return {"d": self.d}

    def __setstate__(self, saved: dict) -> None:
        self.d, self.g = saved["d"], None


class CairnObserver:
    """Strings only (OpenSpiel's PyObserver interface): the seat's view or information state."""

    def __init__(self, perfect_recall: bool, params: Any):
        if params:
            raise ValueError(f"expected no observation parameters, got {params}")
        self.perfect_recall = perfect_recall
        import numpy as np
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict = {}

    def set_from(self, state: CairnState, player: int) -> None:
        """Does nothing: Cairn games give strings, not tensors."""

    def string_from(self, state: CairnState, player: int) -> str:
        """Returns the seat's observation (or information state) as JSON text."""
        if state.plain is None:
            return "before the deal"
        if self.perfect_recall:
            return information_text(state.inner, player, state.own[player])
        return observation_text(state.inner, player)
