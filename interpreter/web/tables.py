"""The games being played on the server, each its own GameState, people in one or more
seats and bots (any of agents.py's, `mcts:N` too) in the others. A table is named by a
random token (the page keeps it in its address: whoever has it may watch, as a
spectator); each person's seat has a secret of its own, all given to whoever started the
game (to keep, or to hand out as links), and every choice needs the deciding seat's.
Tables are kept until their game has been idle IDLE_PLAYING seconds (IDLE_OVER once it
is over), at most MAX_TABLES; a full server closes a finished game to make room, never
one in play.

Bots move as soon as it is their turn, so a table always waits for a person or is over.
Undo (one person only: with two, it would take back the other's moves) is
interpreter/undo.py's, the terminal's own: the game replayed from its seed. A past
moment is the game replayed from its seed too (`state_at`), and a branch is a new table
from one of a person's past decisions, with the bots' random states of then."""
from __future__ import annotations

import bisect
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..agents import AGENTS, make_agents, parse_seat
from ..engine.game import CompiledGame, GameState
from ..records import make_record
from ..undo import Checkpoint, checkpoint, replay, undo
from ..words import span
from .errors import WebError, excerpt
from .shelf import Keeping, Shelf

MAX_TABLES = 400             # about 0.1-0.6 MB each (a finished 4-player game): at most ~250 MB
IDLE_PLAYING = 2 * 3600      # seconds a game in play is kept without a request
IDLE_OVER = 30 * 60          # seconds a finished game is kept (to look at, to take its record)
MAX_BOT_STEPS = 100_000      # bot decisions in a row before the table gives up
MAX_PLAYOUTS = 2000          # mcts:N on this server: a request waits for the bots' moves
MAX_DEPTH = 200
HUMAN = "human"


@dataclass
class Table:
    """One game: the state, the people's seats, the bots, the people's checkpoints, and
    for each choice made who made it and how long the log was after it (so a log line
    can be taken back to its moment)."""

    g: CompiledGame
    n: int
    seed: int
    seats: list[str]            # per seat: "human" or a bot's spec
    human: int                  # the seat of whoever started the game
    state: GameState
    bots: list[Any]
    checkpoints: list[Checkpoint] = field(default_factory=list)
    seat_secrets: dict[int, str] = field(default_factory=dict)    # seat -> its secret (each person's seat)
    deciders: list[int] = field(default_factory=list)            # choice k -> the seat that made it
    marks: list[int] = field(default_factory=list)               # k choices made -> the log's length then

    @property
    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s == HUMAN]

    def apply(self, option: int) -> None:
        """Makes a choice, noting who made it and where the log stood after it."""
        if not self.marks:
            self.marks.append(len(self.state.d["log"]))
        self.deciders.append(self.state.current_player())
        self.state.apply_action(option)
        self.marks.append(len(self.state.d["log"]))

    def decisions_of(self, seat: int) -> list[int]:
        """The moments (choices made before) at which `seat` decided or decides now."""
        return [cp.at for cp in self.checkpoints if cp.seat == seat]

    def state_at(self, k: int) -> GameState:
        """The game after its first k choices, replayed from its seed (never a guess)."""
        if not 0 <= k <= len(self.state.d["actions"]):
            raise WebError(f"expected a moment from 0 to {len(self.state.d['actions'])}, got {excerpt(k)}")
        if k == len(self.state.d["actions"]):
            return self.state
        return replay(self.g, self.n, self.seed, self.state.d["actions"][:k])

    def moment_of_lines(self) -> list[int]:
        """For each line of the whole log, the number of choices made once it was written
        (the first mark past it: marks[k] is the log's length after k choices)."""
        marks = self.marks or [len(self.state.d["log"])]
        return [min(bisect.bisect_right(marks, i), len(marks) - 1) for i in range(len(self.state.d["log"]))]

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
        if not self.marks:
            self.marks.append(len(self.state.d["log"]))
        while not self.state.is_terminal() and self.state.current_player() not in self.humans:
            p = self.state.current_player()
            self.apply(self.bots[p].step(self.state))
            steps += 1
            if steps > MAX_BOT_STEPS:
                raise WebError(f"the bots made {steps} decisions in a row without the game ending", 500)
        if not self.state.is_terminal():
            self.checkpoints.append(checkpoint(self.state, self.state.current_player(), self.bots))

    def choose(self, option: Any, at: Any, seat: int | None = None) -> None:
        """Makes the choice of the person in `seat` (default: the starter's); `at` is the
        number of choices the page saw made, so a second click on an old page changes
        nothing."""
        for name, value in (("option", option), ("at", at)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise WebError(f"expected '{name}' to be a whole number, got {excerpt(value)}")
        if at != len(self.state.d["actions"]):
            raise WebError("the game has moved on since this page was drawn: it is shown again", 409)
        if self.state.is_terminal():
            raise WebError("the game is over", 409)
        if self.state.current_player() != (self.human if seat is None else seat):
            raise WebError(f"it is {self.g.player_name(self.state.current_player())}'s decision, not yours", 409)
        n = len(self.state.d["pending"]["options"])
        if not 0 <= option < n:
            raise WebError(f"expected an option from 0 to {n - 1}, got {excerpt(option)}")
        self.apply(option)
        self.advance()

    def undo(self) -> None:
        """Goes back to the person's previous decision (only with one person at the table)."""
        if len(self.humans) > 1:
            raise WebError("undo would take back another person's moves: branch from a past decision instead", 409)
        went = undo(self.g, self.state, self.checkpoints, self.bots)
        if went is None:
            raise WebError("nothing to undo yet", 409)
        self.state = went[0]
        k = len(self.state.d["actions"])
        del self.deciders[k:], self.marks[k + 1:]
        self.advance()

    def branch(self, seat: int, at: Any) -> "Table":
        """Returns a new table whose game is this one up to `seat`'s decision at moment
        `at` (a checkpoint of that seat), the bots with their random states of then, and
        new secrets for every person's seat; this table goes on unchanged."""
        cps = [cp for cp in self.checkpoints if cp.seat == seat and cp.at == at]
        if isinstance(at, bool) or not isinstance(at, int) or not cps:
            raise WebError(f"expected the moment of one of your decisions ({', '.join(map(str, self.decisions_of(seat)[-8:]))}), "
                           f"got {excerpt(at)}")
        bots = make_agents([s if s != HUMAN else "random" for s in self.seats], self.n, self.seed)
        for bot, saved in zip(bots, cps[-1].bots):
            bot.set_state(saved)
        t = Table(self.g, self.n, self.seed, list(self.seats), seat, self.state_at(at), bots,
                  checkpoints=[cp for cp in self.checkpoints if cp.at < at],
                  seat_secrets={p: secrets.token_urlsafe(24) for p in self.humans},
                  deciders=self.deciders[:at], marks=self.marks[:at + 1])
        t.advance()
        return t

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

    def summary(self, token: str, seat: int | None = None) -> dict:
        seat = self.human if seat is None else seat
        return {"table": token, "game": self.g.name, "game_id": self.g.id, "variants": list(self.g.variants),
                "players": self.n, "seat": seat, "seat_name": self.g.player_name(seat),
                "choices": len(self.state.d["actions"]),
                "over": self.state.is_terminal()}


def check_seat(spec: Any) -> str:
    """Returns a seat's spec ("human" or a bot's, `mcts:50`) as given; raises WebError
    when it names no bot or asks more search than a request should wait for."""
    if spec == HUMAN:
        return spec
    if not isinstance(spec, str) or len(spec) > 40:
        raise WebError(f"unknown bot {excerpt(spec)}; known: {', '.join(AGENTS)}")
    try:
        _name, opts = parse_seat(spec)
    except ValueError as err:
        raise WebError(str(err)) from None
    if not 1 <= opts.get("playouts", 1) <= MAX_PLAYOUTS or not 0 <= opts.get("depth", 0) <= MAX_DEPTH \
            or not 0 <= opts.get("c", 0) <= 10:
        raise WebError(f"expected mcts:N with N from 1 to {MAX_PLAYOUTS} (depth up to {MAX_DEPTH}), got {excerpt(spec)}")
    return spec


def new_table(g: CompiledGame, players: Any, seat: Any, bot: Any, seed: Any, seats: Any = None) -> Table:
    """Returns a table set up and played to the first person's decision; raises WebError
    when a setting is out of range. `seats`: each seat's spec ("human" or a bot's);
    without it, `seat` is the person's and `bot` every other seat's."""
    if isinstance(players, bool) or not isinstance(players, int) or not g.min_players <= players <= g.max_players:
        raise WebError(f"{g.id} takes {span(g.min_players, g.max_players, 'player')}, got {excerpt(players)}")
    if seats is None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise WebError(f"expected your seat from 0 to {players - 1}, got {excerpt(seat)}")
        if not isinstance(bot, str) or bot not in AGENTS:
            raise WebError(f"unknown bot {excerpt(bot)}; known: {', '.join(AGENTS)}")
        seats = [bot] * players
        seats[seat] = HUMAN
    if not isinstance(seats, list) or len(seats) != players:
        raise WebError(f"expected a seat for each of the {players} players, got {excerpt(seats)}")
    seats = [check_seat(s) for s in seats]
    people = [p for p, s in enumerate(seats) if s == HUMAN]
    if not people:
        raise WebError("expected at least one seat for a person")
    if seat is None or seat not in people:
        seat = people[0]
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise WebError(f"expected a seed from 0 to 2**63 - 1, got {excerpt(seed)}")
    bots = make_agents([s if s != HUMAN else "random" for s in seats], players, seed)
    table = Table(g, players, seed, seats, seat, g.new_initial_state(players, seed), bots,
                  seat_secrets={p: secrets.token_urlsafe(24) for p in people})
    table.advance()
    return table


def table_shelf(limit: int = MAX_TABLES, clock: Callable[[], float] = time.monotonic) -> Shelf[Table]:
    """Token -> table, at most `limit`; a finished game may make room, one in play never."""
    keeping = Keeping(limit, lambda t: IDLE_OVER if t.state.is_terminal() else IDLE_PLAYING,
                      lambda t: t.state.is_terminal(), "game", "start a new one")
    return Shelf(keeping, clock)
