"""Every Cairn game as an OpenSpiel Python game (extra `openspiel`), so OpenSpiel's own
bots, algorithms and conformance tests (`pyspiel.random_sim_test`) run on it.

    from interpreter.adapters import openspiel
    openspiel.register("my-game")                    # a game id; or register_all()
    game = pyspiel.load_game("cairn_my_game", {"players": 3})

Shape of each game (docs/ADAPTERS.md says why):
- Chance where it happens (`chance="explicit"`, the default): every die, step of a
  shuffle and random pick is a chance node with its equally likely outcomes, so
  chance-aware algorithms see it. `chance="deals"` keeps the sampled mode: the first node
  deals one of `deals` seeds (derived from `rng_seed`) and later draws come from the
  state's own RNG, hidden from every player. Either way the game is EXPLICIT_STOCHASTIC,
  replays exactly from its history, and is declared IMPERFECT_INFORMATION.
- Actions are stable game-wide ids (`actions="ids"`, the default; engine/action_ids.py):
  the same move has the same id in every state, and an option that is a list is chosen
  an atom at a time. `actions="options"` keeps option indices below `max_actions`.
- Observation strings are the seat's own Cairn view; information state strings add the
  seat's log and its own past choices. Tensors (engine/tensor.py) encode the same view
  in a fixed shape; the information state adds a bag of the seat's own actions.
  Returns: the game's declared payoff (`scoring: payoff:`), by default 1 for each
  winner and 0 for the others.
"""
from __future__ import annotations

import json
from typing import Any

try:
    import pyspiel
except ImportError as err:   # the extra is missing: say which
    raise ImportError("the OpenSpiel adapter needs the openspiel extra: pip install 'cairn[openspiel]'") from err

from ..engine.game import CompiledGame, GameState
from ..engine.rng import ChanceNeeded
from ..engine.state import clone_state, dumps
from ..engine.vm import check_waiting
from ..batch import compiled as cached
from ..load.files import game_ids
from ..engine.action_ids import LABEL_SLOTS
from ..engine.tensor import BAG
from .common import (ACTION_BOUND, DEALS, MY_ACTIONS, bag_index, deal_seed, id_step, information_text, label,
                     layouts, legal, mode_of, observation_text, players_of)

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
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": compiled.min_players, "chance": "explicit", "deals": DEALS,
                                 "rng_seed": 0, "max_actions": ACTION_BOUND, "actions": "ids",
                                 "label_slots": LABEL_SLOTS, "bag": BAG, "single_moves": "skip"})
    key = name.replace("-", "_")
    state_cls = type(f"State_{key}", (CairnState,), {"compiled": compiled, "__module__": __name__})
    game_cls = type(f"Game_{key}", (CairnGame,), {"compiled": compiled, "game_type": game_type,
                                                  "state_class": state_cls, "__module__": __name__})
    # pickle (OpenSpiel's serialization) finds classes by module and name
    globals()[game_cls.__name__], globals()[state_cls.__name__] = game_cls, state_cls
    pyspiel.register_game(game_type, game_cls)
    return name


def chance_bound(g: CompiledGame) -> int:
    """Returns a bound on the outcomes of one draw: a shuffle or a pick draws among at most
    every object or space of the game, a die among its faces (a larger draw is refused)."""
    faces = max((len(f) for f in g.dice.values()), default=0)
    return max(2, len(g.components), len(g.spaces), faces, len(g.zones))


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
        self.chance = str(params.get("chance", "explicit"))
        self.single_moves = str(params.get("single_moves", "skip"))
        if self.single_moves not in ("skip", "ask"):
            raise ValueError(f"expected single_moves 'skip' or 'ask', got {self.single_moves!r}")
        self.actions = mode_of(str(params.get("actions", "ids")))
        self.label_slots, self.bag = int(params.get("label_slots", LABEL_SLOTS)), int(params.get("bag", BAG))
        if min(self.deals, self.max_actions, self.label_slots, self.bag) < 1:
            raise ValueError(f"expected deals, max_actions, label_slots and bag of at least 1, got "
                             f"{self.deals}, {self.max_actions}, {self.label_slots}, {self.bag}")
        if self.chance not in ("explicit", "deals"):
            raise ValueError(f"expected chance 'explicit' or 'deals', got {self.chance!r}")
        outcomes = self.deals if self.chance == "deals" else chance_bound(self.compiled)
        self.space, self.encoder = layouts(self.compiled, self.players, self.label_slots, self.bag)
        distinct = self.space.size if self.actions == "ids" else self.max_actions
        info = pyspiel.GameInfo(num_distinct_actions=distinct, max_chance_outcomes=outcomes,
                                num_players=self.players, min_utility=self.compiled.payoff_range[0],
                                max_utility=self.compiled.payoff_range[1],
                                utility_sum=0.0 if self.compiled.payoff == "zero-sum" else None,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> "CairnState":
        """Returns the start of a game: the chance node that deals the seed."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "CairnObserver":
        """Returns the observer OpenSpiel asks for strings and tensors (perfect recall:
        the information state)."""
        return CairnObserver(self, bool(iig_obs_type is not None and iig_obs_type.perfect_recall), params)


class CairnState(pyspiel.State):
    """One playthrough. Only plain data lives on the instance (OpenSpiel clones a Python
    state by deep copy); the compiled game is the class's.

    With `chance="explicit"` (the default) every random draw of the rules (a die, a step of
    a shuffle, a random pick) is a chance node with its equally likely outcomes: the step
    that drew is run again from the state before it, its draws scripted by the outcomes
    chosen so far, until it completes (rng.ChanceNeeded asks for the next one). With
    `chance="deals"` the first node deals one of `deals` seeds and later draws are hidden
    inside the engine's seeded RNG (sampled chance)."""

    compiled: CompiledGame

    def __init__(self, game: CairnGame):
        super().__init__(game)
        self.players, self.deals, self.rng_seed = game.players, game.deals, game.rng_seed
        self.max_actions, self.explicit = game.max_actions, game.chance == "explicit"
        self.ask_one = game.single_moves == "ask"    # a decision of one option is asked too
        self.ids = game.actions == "ids"
        self.layout_key = (game.players, game.label_slots, game.bag)
        self.prefix: tuple = ()             # atoms chosen so far of a list option (action ids)
        self.plain: _Plain | None = None    # the Cairn state's data: once set up (or dealt)
        self.own: list[list[int]] = [[] for _ in range(game.players)]
        self.step: int | None = None        # the action whose draws are being chosen (None: the set-up)
        self.script: list[int] = []         # the outcomes chosen so far in that step
        self.chance_n = 0                   # outcomes of the pending chance node (0: none)
        self.more: list[int] = []           # outcomes of the draws known to follow it in the step
        if self.explicit:
            self._root(game)

    def _root(self, game: CairnGame) -> None:
        """Sets up the game, or stops at its first draw: run once per game object, then
        copied (OpenSpiel makes initial states often, to learn shapes among others)."""
        kept = getattr(game, "kept_root", None)
        if kept is None:
            self._advance()
            kept = game.kept_root = (None if self.plain is None else clone_state(self.plain.d), self.chance_n,
                                     tuple(self.more))
        d, self.chance_n, more = kept
        self.more = list(more)
        self.plain = None if d is None else _Plain(clone_state(d), self.compiled)

    @property
    def inner(self) -> GameState | None:
        """Returns the Cairn state (a view on the plain data), None before the set-up ends."""
        return None if self.plain is None else self.plain.state(self.compiled)

    def current_player(self) -> int:
        """Returns the seat to move, CHANCE at a draw (or the deal), or TERMINAL."""
        if self.chance_n or self.plain is None:
            return pyspiel.PlayerId.CHANCE
        d = self.plain.d           # read directly: OpenSpiel asks this several times a move
        if d["terminal"]:
            return pyspiel.PlayerId.TERMINAL
        return d["pending"]["player"]

    @property
    def space(self) -> Any:
        """Returns the game's action space (built once, never copied with the state)."""
        return layouts(self.compiled, *self.layout_key)[0]

    def _legal_actions(self, player: int) -> list[int]:
        """Returns the legal ids (or option indices) of the pending decision (the
        outcomes at chance)."""
        if player == pyspiel.PlayerId.CHANCE or self.chance_n or self.plain is None:
            return [k for k, _p in self.chance_outcomes()]
        if self.ids:
            return self.plain.step(self.space, self.inner, self.prefix).legal()
        return legal(self.inner, self.max_actions)

    def _option(self, action: int) -> int | None:
        """Returns the option index an action settles (None: an atom of a list option was
        chosen, more follow), keeping the seat's own action."""
        self.own[self.inner.current_player()].append(action)
        if not self.ids:
            return action
        step = self.plain.step(self.space, self.inner, self.prefix)
        option = step.answer(action)
        self.prefix = () if option is not None else self.prefix + (step.atom(action),)
        return option

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the outcomes of the pending draw (or the deals), equally likely."""
        n = self.chance_n if self.explicit else self.deals
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        """Chooses a draw's outcome or a deal, or answers the pending decision."""
        action = int(action)
        if self.explicit and self.chance_n:
            if not 0 <= action < self.chance_n:
                raise ValueError(f"chance outcome {action} is not in [0, {self.chance_n})")
            self.script.append(action)
            if self.more:               # the draw that follows is known: no need to run the step yet
                self.chance_n = self.more.pop(0)
                return
            self._advance()
        elif self.plain is None:
            start = self.compiled.new_initial_state(self.players, deal_seed(self.rng_seed, action),
                                                    ask_one=self.ask_one)
            self.plain = _Plain(start.d, self.compiled)
        else:
            option = self._option(action)
            if option is None:
                return
            if self.explicit:
                self.step, self.script = option, []
                self._advance()
            else:
                self.inner.apply_action(option)

    def _advance(self) -> None:
        """Runs the set-up or the pending step with the outcomes chosen so far: it either
        completes (the new state is kept) or stops at the next draw (a chance node)."""
        try:
            if self.plain is None:
                d = self.compiled.new_initial_state(self.players, 0, chance=list(self.script),
                                                    ask_one=self.ask_one).d
            else:
                d = clone_state(self.plain.d)
                d["chance"] = list(self.script)
                GameState(self.compiled, d).apply_action(self.step)
                if d["chance"]:
                    raise ValueError("a step left scripted chance outcomes unused")
        except ChanceNeeded as need:
            if need.n > self.get_game().max_chance_outcomes():
                raise ValueError(f"a draw among {need.n} outcomes exceeds the game's "
                                 f"max_chance_outcomes {self.get_game().max_chance_outcomes()}") from None
            self.chance_n, self.more = need.n, list(need.more)
            return
        self.plain, self.step, self.script, self.chance_n = _Plain(d, self.compiled), None, [], 0
        self.more = []

    def _action_to_string(self, player: int, action: int) -> str:
        """Returns 'draw K of N' or 'deal K' for chance, else the option's label."""
        if self.explicit and self.chance_n:
            return f"draw {action} of {self.chance_n}"
        if player == pyspiel.PlayerId.CHANCE or self.inner is None:
            return f"deal {action}"
        if not self.ids:
            return label(self.inner, action)
        return self._id_text(action)

    def _id_text(self, action: int) -> str:
        """Returns a legal id's option label (or the atom it adds to a list option), else
        its family and atom index."""
        space = self.space
        if not self.inner.is_terminal():
            step = id_step(space, self.inner, self.prefix)
            if action in step.ids:
                option = step.answer(action)
                return label(self.inner, option) if option is not None else f"{step.atom(action)} ..."
        return f"family {action // space.atoms.size} atom {action % space.atoms.size}"

    def is_terminal(self) -> bool:
        """Returns whether the game is over."""
        return not self.chance_n and self.plain is not None and self.plain.d["terminal"]

    def returns(self) -> list[float]:
        """Returns the game's payoffs (all 0.0 before the end)."""
        return [0.0] * self.players if self.plain is None else self.inner.returns()

    def __str__(self) -> str:
        """Returns the whole state as canonical JSON, the log left out (debug text, as
        OpenSpiel's ToString: hidden contents included; seats see observation strings)."""
        if self.plain is None:
            return f"setting up; draws {self.script}" if self.explicit else "before the deal"
        text = dumps({k: v for k, v in self.plain.d.items() if k not in ("log", "log_on")})
        text += f"; chosen so far {list(self.prefix)}" if self.prefix else ""
        return text + (f"; drawing for {self.step}: {self.script}" if self.chance_n else "")


class _Plain:
    """A Cairn state's plain data, deep-copied by the engine's own fast clone (after the
    engine's check that everything waiting on the decision can be copied exactly). It
    keeps the GameState view on the data and the pending decision's action-id step, made
    once: OpenSpiel asks the current player and the legal actions many times a move."""

    __slots__ = ("d", "g", "s", "kept")

    def __init__(self, d: dict, g: CompiledGame | None):
        self.d, self.g, self.s, self.kept = d, g, None, None

    def state(self, g: CompiledGame) -> GameState:
        """Returns the GameState view on the data (made once)."""
        if self.s is None:
            self.s = GameState(g, self.d)
        return self.s

    def step(self, space: Any, inner: GameState, prefix: tuple) -> Any:
        """Returns the pending decision's action-id step after `prefix`, kept while the
        same decision (the same pending record) waits with the same prefix."""
        pending, kept = self.d["pending"], self.kept
        if kept is not None and kept[0] is pending and kept[1] == prefix:
            return kept[2]
        found = id_step(space, inner, prefix)
        self.kept = (pending, prefix, found)
        return found

    def __deepcopy__(self, memo: dict) -> "_Plain":
        if self.g is not None:
            check_waiting(self.g, self.d)
        return _Plain(clone_state(self.d), self.g)

    def __getstate__(self) -> dict:
        return {"d": self.d}

    def __setstate__(self, saved: dict) -> None:
        self.d, self.g, self.s, self.kept = saved["d"], None, None, None


class CairnObserver:
    """OpenSpiel's PyObserver: the seat's view (or information state) as JSON text, and as
    a fixed-shape tensor (engine/tensor.py) whose named pieces are in `dict`."""

    def __init__(self, game: CairnGame, perfect_recall: bool, params: Any):
        if params:
            raise ValueError(f"expected no observation parameters, got {params}")
        import numpy as np
        self.perfect_recall, self.encoder = perfect_recall, game.encoder
        pieces = [(name, shape) for name, shape, _at in self.encoder.layout()]
        if perfect_recall:
            pieces.append(("my_actions", (1 + MY_ACTIONS,)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _n, shape in pieces), np.float32)
        self.dict: dict = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: CairnState, player: int) -> None:
        """Fills `tensor` with what `player` sees (before the set-up ends: who looks only)."""
        self.tensor.fill(0)
        if state.plain is None:
            self.dict["observer"][player] = 1.0
            return
        d = state.plain.d
        deciding = d["pending"] is not None and d["pending"]["player"] == player
        self.encoder.fill(self.tensor, d, player, len(state.prefix) if deciding else 0)
        if self.perfect_recall:
            mine = self.dict["my_actions"]
            mine[0] = len(state.own[player])
            for a in state.own[player]:
                mine[1 + bag_index(a, MY_ACTIONS)] += 1.0

    def string_from(self, state: CairnState, player: int) -> str:
        """Returns the seat's observation (or information state) as JSON text."""
        if state.plain is None:
            return "before the deal"
        if self.perfect_recall:
            return information_text(state.inner, player, state.own[player])
        text = observation_text(state.inner, player)
        if state.prefix and state.inner.current_player() == player:
            seen = json.loads(text)     # the atoms of a list option chosen so far: the decider's
            seen["decision"]["chosen_so_far"] = list(state.prefix)
            text = json.dumps(seen, sort_keys=True, ensure_ascii=False)
        return text
