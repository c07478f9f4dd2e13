"""The games being played on the server, each its own GameState, a person in one seat
and bots in the others. A table is named by a random token (the page keeps it in its
address: whoever has it may watch, as a spectator); the person's seat has a secret of its
own, given only to whoever started the game, and every choice needs it. Tables are kept
until their game has been idle IDLE_PLAYING seconds (IDLE_OVER once it is over), at
most MAX_TABLES; a full server closes a finished game to make room, never one in play.

Bots move as soon as it is their turn, so a table always waits for the person or is
over. Undo is interpreter/undo.py's, the terminal's own: the game replayed from its seed."""
from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..agents import AGENTS, make_agents
from ..engine.game import CompiledGame, GameState
from ..records import make_record
from ..undo import Checkpoint, checkpoint, undo
from ..words import span
from .errors import WebError, excerpt
from .shelf import Keeping, Shelf

MAX_TABLES = 400             # about 0.1-0.6 MB each (a finished 4-player game): at most ~250 MB
IDLE_PLAYING = 2 * 3600      # seconds a game in play is kept without a request
IDLE_OVER = 30 * 60          # seconds a finished game is kept (to look at, to take its record)
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
    seat_secrets: dict[int, str] = field(default_factory=dict)    # seat -> its secret (the person's seat)

    def seat_of(self, secret: str) -> int | None:
        """Returns the seat whose secret this is, or None (compared in constant time)."""
        given = secret.encode("utf-8", "surrogatepass")
        found = None
        for seat, mine in self.seat_secrets.items():
            if hmac.compare_digest(given, mine.encode()):
                found = seat
        return found

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
        for name, value in (("option", option), ("at", at)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise WebError(f"expected '{name}' to be a whole number, got {excerpt(value)}")
        if at != len(self.state.d["actions"]):
            raise WebError("the game has moved on since this page was drawn: it is shown again", 409)
        if self.state.is_terminal():
            raise WebError("the game is over", 409)
        n = len(self.state.d["pending"]["options"])
        if not 0 <= option < n:
            raise WebError(f"expected an option from 0 to {n - 1}, got {excerpt(option)}")
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
        """Returns the game record: it holds the seed, which tells the whole deal, so only
        a finished game's is given out (WebError 409 before)."""
        if not self.state.is_terminal():
            raise WebError("the record is given when the game is over (it holds the seed, which tells the deal)", 409)
        return make_record(self.state, self.seats)

    def record_so_far(self) -> dict:
        """Returns the record of the game so far, for the server's own use (a replay that
        shows each step as one seat may see it); never to be sent as it is."""
        return make_record(self.state, self.seats)

    def summary(self, token: str) -> dict:
        return {"table": token, "game": self.g.name, "game_id": self.g.id, "variants": list(self.g.variants),
                "players": self.n, "seat": self.human, "seat_name": self.g.player_name(self.human),
                "choices": len(self.state.d["actions"]),
                "over": self.state.is_terminal()}


def new_table(g: CompiledGame, players: Any, seat: Any, bot: Any, seed: Any) -> Table:
    """Returns a table set up and played to the person's first decision; raises WebError
    when a setting is out of range."""
    if isinstance(players, bool) or not isinstance(players, int) or not g.min_players <= players <= g.max_players:
        raise WebError(f"{g.id} takes {span(g.min_players, g.max_players, 'player')}, got {excerpt(players)}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise WebError(f"expected your seat from 0 to {players - 1}, got {excerpt(seat)}")
    if not isinstance(bot, str) or bot not in AGENTS:
        raise WebError(f"unknown bot {excerpt(bot)}; known: {', '.join(AGENTS)}")
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise WebError(f"expected a seed from 0 to 2**63 - 1, got {excerpt(seed)}")
    seats = [bot] * players
    seats[seat] = "human"
    bots = make_agents([s if s != "human" else "random" for s in seats], players, seed)
    table = Table(g, players, seed, seats, seat, g.new_initial_state(players, seed), bots,
                  seat_secrets={seat: secrets.token_urlsafe(24)})
    table.advance()
    return table


def table_shelf(limit: int = MAX_TABLES, clock: Callable[[], float] = time.monotonic) -> Shelf[Table]:
    """Token -> table, at most `limit`; a finished game may make room, one in play never."""
    keeping = Keeping(limit, lambda t: IDLE_OVER if t.state.is_terminal() else IDLE_PLAYING,
                      lambda t: t.state.is_terminal(), "game", "start a new one")
    return Shelf(keeping, clock)
