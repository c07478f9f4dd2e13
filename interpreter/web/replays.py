"""Records to step through: the state after any number of choices, computed by replaying
the record from its seed. Every STRIDE-th state is kept, so step K costs at most STRIDE
choices from the nearest kept one; the number of records held is bounded.

Only games in the server's catalogue replay (the record names its game by id), and only
with the definitions it was played with (the record's sha256)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.game import CompiledGame, GameState
from ..records import shape_problem
from ..words import plural
from .shelf import Shelf
from .games import Catalogue, WebError

STRIDE = 20
MAX_REPLAYS = 16
MAX_CHOICES = 200_000


@dataclass
class Replay:
    """One record and the states kept along it (step -> state after that many choices)."""

    g: CompiledGame
    record: dict
    kept: dict[int, GameState] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        return len(self.record["actions"])

    def check(self) -> None:
        """Replays the whole record once, keeping every STRIDE-th state; raises WebError at
        the first choice that is not legal where it was made."""
        state = self.g.new_initial_state(self.record["players"], self.record["seed"])
        self.kept[0] = state.clone()
        for i, a in enumerate(self.record["actions"]):
            if state.is_terminal():
                raise WebError(f"the game ended after {plural(i, 'choice')}, the record goes on")
            if not 0 <= a < len(state.d["pending"]["options"]):
                raise WebError(f"choice {i + 1} ({a}) is not one of the options there")
            state.apply_action(a)
            if (i + 1) % STRIDE == 0:
                self.kept[i + 1] = state.clone()

    def state_at(self, step: Any) -> GameState:
        """Returns the state after `step` choices (a copy: the kept ones stay as they are)."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.steps:
            raise WebError(f"expected a step from 0 to {self.steps}, got {step!r}")
        base = max(k for k in self.kept if k <= step)
        state = self.kept[base].clone()
        for a in self.record["actions"][base:step]:
            state.apply_action(a)
        return state

    def summary(self, token: str) -> dict:
        r = self.record
        return {"replay": token, "game": self.g.name, "game_id": self.g.id, "variants": list(self.g.variants),
                "players": [self.g.player_name(p) for p in range(r["players"])], "seed": r["seed"],
                "steps": self.steps, "result": r.get("result")}


def open_record(catalogue: Catalogue, record: Any) -> Replay:
    """Returns the replay of a record, checked; raises WebError saying what is wrong."""
    problem = shape_problem(record)
    if problem is not None:
        raise WebError(f"the file {problem}")
    if len(record["actions"]) > MAX_CHOICES:
        raise WebError(f"the record has more than {MAX_CHOICES} choices")
    g = catalogue.game(record["game"], record.get("variants", []))
    recorded = record.get("definitions_sha256")
    if recorded and recorded != g.content_hash:
        raise WebError(f"the record was played with other definitions of {g.id} (sha256 {recorded[:12]}...), "
                       "not the ones this server has")
    if not g.min_players <= record["players"] <= g.max_players:
        raise WebError(f"the record has {plural(record['players'], 'player')}")
    rep = Replay(g, record)
    rep.check()
    return rep


def replay_shelf(limit: int = MAX_REPLAYS) -> Shelf[Replay]:
    """Token -> replay, at most MAX_REPLAYS (the least recently used is dropped)."""
    return Shelf(limit, "no such replay on this server (it may have been closed to make room): open it again")
