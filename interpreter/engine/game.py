"""The compiled game and the state API researchers expect (OpenSpiel's shape).

`CompiledGame` is fixed after load (programs, static properties, board, zones);
`GameState` wraps one playthrough's plain-data state with legal_actions, apply_action,
current_player, is_terminal, returns, clone and serialize.
"""
from __future__ import annotations

import hashlib
import json
import operator
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from ..lang.compiler import Program
from ..lang.fast import mark_written
from ..lang.runtime import Ctx
from . import state as st
from .abilities import AbilityTable
from .rng import seed_state
from .vm import answer, check_waiting, decision_text, run
from ..words import span

TERMINAL = -4   # OpenSpiel's kTerminalPlayerId


@dataclass
class ZoneInfo:
    id: str
    visibility: str          # public | owner | hidden
    owner: int | None


@dataclass
class CompiledGame:
    """Everything fixed for one game definition with its variants applied."""

    id: str
    name: str
    version: str
    variants: tuple[str, ...]
    min_players: int
    max_players: int
    programs: dict[str, Program]
    main: str
    functions: dict[str, Callable]
    effects: dict[str, str]                       # object id -> program key
    props: dict[str, dict[str, Any]]              # entity id -> static properties
    attr_defaults: dict[str, Any]
    zones: dict[str, dict]                        # zone id -> declaration
    dice: dict[str, list]
    spaces: list[str]
    adj: dict[str, tuple[str, ...]]
    edge_list: list[tuple[str, str]]
    components: list[tuple[str, str, str]]        # (object id, kind, start zone pattern)
    player_vars: dict[str, Any]
    private_vars: set[str]
    game_vars: dict[str, Any]
    score: Callable
    tiebreaks: list[Callable]
    abilities: AbilityTable = field(default_factory=AbilityTable)   # triggers and abilities, indexed
    win_if: Callable | None = None
    payoff: Callable | str | None = None          # None: win flags; "zero-sum"; or a formula of `me`
    payoff_range: tuple[float, float] = (0.0, 1.0)
    internal_vars: set[str] = field(default_factory=set)
    legend: str = ""
    player_names: list[str] = field(default_factory=list)
    step_budget: int = 200_000
    work_budget: int = 1_000_000
    max_depth: int = 64
    max_trigger_depth: int = 16
    source_dir: str = ""
    content_hash: str = ""                         # SHA-256 of the definition files it was built from
    meta: dict[str, Any] = field(default_factory=dict)
    kind_index: dict[str, tuple[str, ...]] = field(default_factory=dict)
    params: dict[str, dict] = field(default_factory=dict)      # rule constants as declared
    quantities: set[str] = field(default_factory=set)         # functions static abilities may modify
    window_names: dict[str, str] = field(default_factory=dict)  # step id -> its name, for prompts
    printed: set[str] = field(default_factory=set)             # objects printed on others (icons)
    clauses: dict[str, dict] = field(default_factory=dict)     # the rulebook's clause index (rules.yaml)
    readings: dict[str, dict] = field(default_factory=dict)    # readings of ambiguous or silent clauses
    citations: list = field(default_factory=list)              # (what, name, clause ids, file:line)
    env: Any = None                               # the compiler Env, for scenarios and tools
    measured: dict = field(default_factory=dict, repr=False)   # values known to save (engine/state.py)
    _zone_places: dict = field(default_factory=dict, repr=False)
    _setups: dict = field(default_factory=dict, repr=False)    # (players, log) -> a set-up with no chance in it (state.Kept)
    _blanks: dict = field(default_factory=dict, repr=False)    # players -> a state before its set-up runs
    walks: dict = field(default_factory=dict, repr=False)      # (start, length) -> walks on the fixed board (verbs/graph.py)
    walks_kept: int = field(default=0, repr=False)             # how many walks `walks` holds in all
    trace: set | None = field(default=None, repr=False)      # coverage: programs entered (engine/vm.py)
    terminal: dict = field(default_factory=dict)              # terminal.yaml's hints (interpreter/terminal/)
    heuristic: Callable | None = None                         # scoring.bots.heuristic: bots' mid-game rating
    tell_apart: dict[str, tuple[str, ...]] = field(default_factory=dict)  # kind -> props seen face down (bots)

    def objects_of_kind(self, kind: str | None) -> tuple[str, ...]:
        """Returns object ids of one kind (all objects for None), in definition order."""
        if kind is None:
            return tuple(o for o, _k, _s in self.components)
        return self.kind_index.get(kind, ())

    def player_name(self, p: int) -> str:
        """Returns a seat's display name."""
        return self.player_names[p] if p < len(self.player_names) else f"Player {p + 1}"

    def place_ids(self, n: int) -> list[str]:
        """Returns every place (zones expanded per player, then board spaces) for n players."""
        out: list[str] = []
        for z in self.zones.values():
            if z.get("per_player"):
                out.extend(f"{z['id']}/{p}" for p in range(n))
            else:
                out.append(z["id"])
        out.extend(self.spaces)
        return out

    def zone_places(self, n: int, zones: frozenset[str]) -> frozenset[str] | None:
        """Returns the places of some zones and spaces at n players (None if `board`, any
        space, is among them); remembered, as abilities ask for them in play."""
        key = (n, zones)
        hit = self._zone_places.get(key)
        if hit is None and key not in self._zone_places:
            if "board" in zones:
                hit = None
            else:
                out = set()
                for z in zones:
                    zone = self.zones.get(z)
                    if zone is not None and zone.get("per_player"):
                        out.update(f"{z}/{p}" for p in range(n))
                    else:
                        out.add(z)
                hit = frozenset(out)
            self._zone_places[key] = hit
        return hit

    def zone_info(self, place: str) -> ZoneInfo:
        """Returns who may see a place's contents."""
        base, _, owner = place.partition("/")
        z = self.zones.get(base)
        if z is None:
            return ZoneInfo(place, "public", None)
        return ZoneInfo(place, z.get("visibility", "public"), int(owner) if owner else None)

    def new_initial_state(self, num_players: int | None = None, seed: int = 0,
                          log: bool = True, chance: list[int] | None = None,
                          ask_one: bool = False) -> "GameState":
        """Returns a new game, set up and run to its first decision. With `chance` (a list
        of outcomes, [] at first) every random draw takes the list's next outcome instead
        of the seeded RNG, and raises rng.ChanceNeeded when the list is used up: the state
        keeps an empty list, so later draws are scripted too (explicit chance nodes). With
        `ask_one`, a decision of a single option is asked too, not taken for the player (as
        OpenSpiel's games ask every move)."""
        if type(seed) is not int:            # a plain int needs no conversion (the common case)
            seed = integral(seed, "seed")
        n = self.min_players if num_players is None else (
            num_players if type(num_players) is int else integral(num_players, "num_players"))
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.id} takes {span(self.min_players, self.max_players, 'player')}, got {n}")
        if chance is not None or ask_one:
            return self._fresh_start(n, seed, log, chance, ask_one)
        key = (n, bool(log))
        known = self._setups.get(key) if self.trace is None else None
        if known is not None:
            d = known.copy()
            d["seed"], d["rng"] = seed, seed_state(seed)
            return GameState(self, d)
        d = self._blank(n, seed, log)
        s = GameState(self, d)
        s._c = c = Ctx(d, self, d["frames"][0]["l"], [self.work_budget])
        run(self, d, c)            # in the context its decisions reuse
        if d["rng"] == seed_state(seed) and self.trace is None and not d["terminal"]:
            # The set-up drew nothing at random, so it is the same for every seed: kept,
            # a later game of this size starts as a copy of it with its own seed.
            self._setups[key] = st.Kept(st.clone_state(d))
        return s

    def _blank(self, n: int, seed: int, log: bool) -> dict:
        """Returns a new state of n players before its set-up runs: every object in its
        starting place. Built once per size, then copied (a copy costs less than placing
        each object again)."""
        blank = self._blanks.get(n)
        if blank is None:
            places: dict[str, list[str]] = {p: [] for p in self.place_ids(n)}
            for obj, _kind, start in self.components:
                places[start].append(obj)
            blank = st.new_state(n, 0, places, self.player_vars, self.game_vars, self.main)
            self._blanks[n] = blank
        d = st.copy_blank(blank)
        d["seed"], d["rng"], d["log_on"] = seed, seed_state(seed), log
        return d

    def _fresh_start(self, n: int, seed: int, log: bool, chance: list[int] | None,
                     ask_one: bool) -> "GameState":
        """Sets up a game whose draws follow `chance` (None: the seed) or that asks every
        decision; never from or into the kept set-ups."""
        d = self._blank(n, seed, log)
        if ask_one:
            d["ask_one"] = True
        if chance is not None:
            d["chance"] = [int(k) for k in chance]
        run(self, d)
        if d.get("chance"):
            raise ValueError(f"{len(d['chance'])} scripted chance outcome(s) left unused")
        return GameState(self, d)

    def manifest(self) -> dict[str, int]:
        """Returns the box inventory: how many objects of each kind (printed icons left out)."""
        counts: dict[str, int] = {}
        for obj, kind, _start in self.components:
            if obj not in self.printed:
                counts[kind] = counts.get(kind, 0) + 1
        return counts


class GameState:
    """One playthrough: a plain-data dict plus the compiled game it runs on."""

    __slots__ = ("game", "d", "_checked", "_c")

    def __init__(self, game: CompiledGame, d: dict):
        self.game, self.d = game, d
        self._checked = None       # the pending decision whose waiting values were checked
        self._c = None             # the context its runs reuse (engine/vm.py run), made at the first

    # -- OpenSpiel-shaped API --------------------------------------------------------
    def current_player(self) -> int:
        """Returns the seat that must decide, or TERMINAL."""
        if self.d["terminal"]:
            return TERMINAL
        return self.d["pending"]["player"]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Returns the indices of the pending decision's options."""
        p = self.d["pending"]
        if player is not None:
            player = self._seat(player)
        if p is None or (player is not None and player != p["player"]):
            return []
        return list(range(len(p["options"])))

    def apply_action(self, action: int) -> None:
        """Answers the pending decision and plays on to the next one, in a context of this
        game's own that every run reuses (a new one each decision costs more than the
        decision's own work in a small game)."""
        d = self.d
        p = d["pending"]
        if not (type(action) is int and p is not None and 0 <= action < len(p["options"])):
            action = self._action(action)  # converted, or refused with the reason
        c = self._c
        if c is None or c.s is not d:
            c = self._c = Ctx(d, self.game, {}, [0])
        answer(self.game, d, action, c)

    def _action(self, action: Any) -> int:
        p = self.d["pending"]
        if type(action) is int and p is not None and 0 <= action < len(p["options"]):
            return action                  # the common case, checked in one line
        a = integral(action, "action")
        if p is None:
            raise ValueError("no decision is pending (the game is over)")
        if not 0 <= a < len(p["options"]):
            raise ValueError(f"illegal action {a}: expected 0..{len(p['options']) - 1}")
        return a

    def _seat(self, player: Any) -> int:
        p = integral(player, "player")
        if not 0 <= p < self.d["n"]:
            raise ValueError(f"no player {p}: expected 0..{self.d['n'] - 1}")
        return p

    def is_terminal(self) -> bool:
        return self.d["terminal"]

    def is_chance_node(self) -> bool:
        """Returns False: dice and shuffles draw on the state's own seeded RNG (recorded
        by the seed), so every decision node belongs to a player."""
        return False

    def information_state_string(self, player: int) -> str:
        """Returns what `player` knows now (their observation, as JSON text)."""
        return json.dumps(self.observation(self._seat(player)), sort_keys=True, ensure_ascii=False)

    def returns(self) -> list[float]:
        """Returns each seat's payoff as the game declares it (`scoring: payoff:`; by default
        1.0 for each winner, 0.0 for the others), all 0.0 before the end."""
        r = self.d["result"]
        if not r:
            return [0.0] * self.d["n"]
        return list(r.get("payoffs", r["returns"]))

    def win_flags(self) -> list[float]:
        """Returns 1.0 for each winner, 0.0 for the others, whatever payoff the game declares."""
        r = self.d["result"]
        return list(r["returns"]) if r else [0.0] * self.d["n"]

    def scores(self) -> list[int]:
        r = self.d["result"]
        return list(r["scores"]) if r else [0] * self.d["n"]

    def num_players(self) -> int:
        return self.d["n"]

    def clone(self) -> "GameState":
        """Returns an independent copy (a state holding a value that cannot be copied is
        ended as aborted first, naming the rule). The check runs once a decision: a later
        copy at the same pending decision (the same dict; answering makes a new one) skips it."""
        d = self.d
        pending = d["pending"]
        if pending is None or pending is not self._checked:
            check_waiting(self.game, d)
            self._checked = pending = d["pending"]
        out = GameState(self.game, st.clone_state(d))
        if pending is not None:
            out._checked = out.d["pending"]     # a copy of what was checked
        return out

    def serialize(self) -> str:
        """Returns the canonical JSON of the game: definition id, variants, state."""
        check_waiting(self.game, self.d)
        return json.dumps({"game": self.game.id, "version": self.game.version,
                           "variants": list(self.game.variants), "state": self.d},
                          sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def decision(self) -> dict | None:
        """Returns the pending decision (player, prompt, options, labels) or None."""
        p = self.d["pending"]
        if p is None:
            return None
        prompt, labels = decision_text(self.game, self.d)
        return {**p, "prompt": prompt, "labels": labels}

    def action_to_string(self, action: int) -> str:
        """Returns the label of an option of the pending decision."""
        a = self._action(action)
        return decision_text(self.game, self.d)[1][a]

    def observation(self, player: int) -> dict:
        """Returns what `player` may see: hidden places as counts, others' private data removed."""
        from .view import observe
        return observe(self.game, self.d, None if player is None else self._seat(player))

    def observation_string(self, player: int) -> str:
        from .view import render
        return render(self.game, self.d, None if player is None else self._seat(player))

    def digest(self) -> str:
        return hashlib.sha256(st.dumps(self.d).encode()).hexdigest()


def deserialize(game: CompiledGame, text: str) -> GameState:
    """Returns the state saved by GameState.serialize; raises ValueError (one clear message)
    if the text is not a sound saved state of this game with these variants."""
    if not isinstance(text, (str, bytes)):
        raise ValueError(f"expected the saved text of a game, got {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"not a saved game: {err}") from None
    if type(data) is not dict or not {"game", "state"} <= set(data):
        raise ValueError("not a saved game (expected a record with 'game' and 'state')")
    if data.get("game") != game.id or list(data.get("variants") or []) != list(game.variants):
        raise ValueError(f"saved game is {data.get('game')} {data.get('variants')}, "
                         f"not {game.id} {list(game.variants)}")
    from .checkstate import state_problem
    problem = state_problem(game, data["state"])
    if problem:
        raise ValueError(f"not a sound saved state of {game.id}: {problem}")
    if game.env is not None:
        for attrs in data["state"]["attrs"].values():
            for name in attrs:
                mark_written(game.env, name)   # a printed value may be hidden (lang/fast.py)
    return GameState(game, data["state"])


def integral(x: Any, what: str) -> int:
    """Returns x as an int if it is a whole number of an integer type (numpy's included);
    booleans, floats and text are refused."""
    if isinstance(x, bool) or not hasattr(type(x), "__index__"):
        raise ValueError(f"{what} must be an integer, got {x!r}")
    return operator.index(x)


def python_version() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"
