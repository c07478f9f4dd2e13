"""Records to step through: the state after any number of choices, computed by replaying
the record from its seed. Every stride-th state is kept (STRIDE, or more for a record so
long that MAX_KEPT states would not do), so step K costs at most a stride of choices from
the nearest kept one; the number of replays held is bounded.

A record is input: it opens only when it replays (records.replay) to the result and the
final state it claims, against the definitions it was played with (its sha256), and only
games in the server's catalogue replay (the record names its game by id).

A replay of a game still in play (opened from its table) is that game's secret: while the
game is on, it shows each step only as the seat that opened it may see it (or as a
spectator), and neither the seed nor the result."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engine.game import CompiledGame, GameState
from ..records import RECORD_FORMAT, make_record, replay, shape_problem
from ..words import plural
from .errors import WebError, cut, excerpt, kind
from .games import Catalogue
from .shelf import Keeping, Shelf

STRIDE = 20
MAX_KEPT = 100               # states kept per replay
MAX_REPLAYS = 32
IDLE_REPLAY = 3600           # seconds a replay is kept without a request (it can be opened again)
MAX_CHOICES = 200_000


@dataclass
class Replay:
    """One record and the states kept along it (step -> state after that many choices);
    `live`: the table of the game it was opened from, `seat`: the seat that opened it."""

    g: CompiledGame
    record: dict
    kept: dict[int, GameState] = field(default_factory=dict)
    live: Any = None
    seat: int | None = None

    @property
    def steps(self) -> int:
        return len(self.record["actions"])

    @property
    def stride(self) -> int:
        return max(STRIDE, -(-self.steps // MAX_KEPT))

    @property
    def secret(self) -> bool:
        """Whether the game it shows is still in play (so each seat's secrets are kept)."""
        return self.live is not None and not self.live.state.is_terminal()

    def seats(self) -> list[int]:
        """Returns the seats whose view may be asked (a spectator's always may)."""
        if not self.secret:
            return list(range(self.record["players"]))
        return [] if self.seat is None else [self.seat]

    def check(self) -> GameState:
        """Replays the whole record once, keeping every stride-th state, and returns the
        last; raises WebError at the first choice that is not legal where it was made."""
        state = self.g.new_initial_state(self.record["players"], self.record["seed"])
        self.kept[0] = state.clone()
        for i, a in enumerate(self.record["actions"]):
            if state.is_terminal():
                raise WebError(f"the game ended after {plural(i, 'choice')}, the record goes on")
            if not 0 <= a < len(state.d["pending"]["options"]):
                raise WebError(f"choice {i + 1} ({excerpt(a)}) is not one of the options there")
            state.apply_action(a)
            if (i + 1) % self.stride == 0:
                self.kept[i + 1] = state.clone()
        return state

    def state_at(self, step: Any) -> GameState:
        """Returns the state after `step` choices (a copy: the kept ones stay as they are)."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.steps:
            raise WebError(f"expected a step from 0 to {self.steps}, got {excerpt(step)}")
        base = max(k for k in self.kept if k <= step)
        state = self.kept[base].clone()
        for a in self.record["actions"][base:step]:
            state.apply_action(a)
        return state

    def summary(self, token: str) -> dict:
        r, hide = self.record, self.secret
        return {"replay": token, "game": self.g.name, "game_id": self.g.id, "variants": list(self.g.variants),
                "players": [self.g.player_name(p) for p in range(r["players"])], "seats": self.seats(),
                "seed": None if hide else r["seed"], "steps": self.steps, "result": None if hide else r.get("result")}


def record_problem(record: Any) -> str | None:
    """Returns what makes a record unfit to replay here (its fields' kinds and sizes), or None."""
    problem = shape_problem(record)
    if problem is not None:
        return f"the file {problem}"
    if record["cairn_record"] != RECORD_FORMAT or isinstance(record["cairn_record"], bool):
        return f"the record is of format {excerpt(record['cairn_record'])}; this server reads format {RECORD_FORMAT}"
    if len(record["actions"]) > MAX_CHOICES:
        return f"the record has more than {MAX_CHOICES} choices"
    if not 0 <= record["seed"] < 2 ** 63:
        return f"the record's seed is not from 0 to 2**63 - 1: {excerpt(record['seed'])}"
    sha = record.get("definitions_sha256")
    if sha is not None and not isinstance(sha, str):
        return f"the record's definitions_sha256 should be text, got {kind(sha)}: {excerpt(sha)}"
    agents = record.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        return f"the record's agents should be a list of names, got {excerpt(agents)}"
    return None


def open_record(catalogue: Catalogue, record: Any, live: Any = None, seat: int | None = None) -> Replay:
    """Returns the replay of a record, verified; raises WebError saying what is wrong."""
    problem = record_problem(record)
    if problem is not None:
        raise WebError(problem)
    g = catalogue.game(record["game"], record.get("variants", []))
    recorded = record.get("definitions_sha256")
    if recorded and recorded != g.content_hash:
        raise WebError(f"the record was played with other definitions of {g.id} (sha256 {excerpt(recorded[:12])}...), "
                       "not the ones this server has")
    if not g.min_players <= record["players"] <= g.max_players:
        raise WebError(f"the record has {plural(record['players'], 'player')}; {g.id} takes "
                       f"{g.min_players} to {g.max_players}")
    rep = Replay(g, record, live=live, seat=seat)
    last = rep.check()
    if last.is_terminal():
        ok, why = replay(g, record)
        if not ok:
            raise WebError(f"the record does not replay to what it claims: {cut(why)}")
    elif record["result"] is not None or make_record(last)["final_state_sha256"] != record["final_state_sha256"]:
        raise WebError("the record does not replay to what it claims: its game is unfinished, but its result "
                       "or final state is not that of its choices")
    return rep


def replay_shelf(limit: int = MAX_REPLAYS, clock: Callable[[], float] = time.monotonic) -> Shelf[Replay]:
    """Token -> replay, at most `limit` (the one used longest ago makes room)."""
    keeping = Keeping(limit, lambda r: IDLE_REPLAY, lambda r: True, "replay", "open it again")
    return Shelf(keeping, clock)
