"""The games being played on the server, each its own GameState, a person in one seat
and bots in the others. A table is named by a random token (the page keeps it in its
address); the number of tables is bounded, the one used longest ago goes first.

Bots move as soon as it is their turn, so a table always waits for the person or is
over. Undo is interpreter/undo.py's, the terminal's own: the game replayed from its seed."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from ..agents import AGENTS, make_agents
from ..engine.game import CompiledGame, GameState
from ..records import make_record
from ..undo import Checkpoint, checkpoint, undo
from ..words import span
from .shelf import Shelf
from .games import WebError

MAX_TABLES = 32
MAX_BOT_STEPS = 100_000      # bot decisions in a row before the table gives up


@dataclass
class Table:
    """One game: the state, the person's seat, the bots, the person's checkpoints."""

    g: CompiledGame
    n: int
    seed: int
    seats: list[str]
    human: int
    state: GameState
    bots: list[Any]
    checkpoints: list[Checkpoint] = field(default_factory=list)

    def advance(self) -> None:
        """Lets the bots play until the person decides or the game ends; takes the
        checkpoint of the person's decision (for undo)."""
        steps = 0
        while not self.state.is_terminal() and self.state.current_player() != self.human:
            p = self.state.current_player()
            self.state.apply_action(self.bots[p].step(self.state))
            steps += 1
            if steps > MAX_BOT_STEPS:
                raise WebError(f"the bots made {steps} decisions in a row without the game ending", 500)
        if not self.state.is_terminal():
            self.checkpoints.append(checkpoint(self.state, self.human, self.bots))

    def choose(self, option: Any, at: Any) -> None:
        """Makes the person's choice; `at` is the number of choices the page saw made, so a
        second click on an old page changes nothing."""
        if at != len(self.state.d["actions"]):
            raise WebError("the game has moved on since this page was drawn: it is shown again", 409)
        if self.state.is_terminal():
            raise WebError("the game is over", 409)
        n = len(self.state.d["pending"]["options"])
        if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < n:
            raise WebError(f"expected an option from 0 to {n - 1}, got {option!r}")
        self.state.apply_action(option)
        self.advance()

    def undo(self) -> None:
        """Goes back to the person's previous decision."""
        went = undo(self.g, self.state, self.checkpoints, self.bots)
        if went is None:
            raise WebError("nothing to undo yet", 409)
        self.state = went[0]
        self.advance()

    def record(self) -> dict:
        return make_record(self.state, self.seats)

    def summary(self, token: str) -> dict:
        return {"table": token, "game": self.g.name, "game_id": self.g.id, "variants": list(self.g.variants),
                "players": self.n, "seat": self.human, "seat_name": self.g.player_name(self.human), "choices": len(self.state.d["actions"]),
                "over": self.state.is_terminal()}


def new_table(g: CompiledGame, players: Any, seat: Any, bot: Any, seed: Any) -> Table:
    """Returns a table set up and played to the person's first decision; raises WebError
    when a setting is out of range."""
    if isinstance(players, bool) or not isinstance(players, int) or not g.min_players <= players <= g.max_players:
        raise WebError(f"{g.id} takes {span(g.min_players, g.max_players, 'player')}, got {players!r}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise WebError(f"expected your seat from 0 to {players - 1}, got {seat!r}")
    if bot not in AGENTS:
        raise WebError(f"unknown bot {bot!r}; known: {', '.join(AGENTS)}")
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise WebError(f"expected a seed from 0 to 2**63 - 1, got {seed!r}")
    seats = [bot] * players
    seats[seat] = "human"
    bots = make_agents([s if s != "human" else "random" for s in seats], players, seed)
    table = Table(g, players, seed, seats, seat, g.new_initial_state(players, seed), bots)
    table.advance()
    return table


def table_shelf(limit: int = MAX_TABLES) -> Shelf[Table]:
    """Token -> table, at most MAX_TABLES (the least recently used is dropped)."""
    return Shelf(limit, "no such game on this server (it may have been closed to make room): start a new one")
