"""Playing in the terminal: people and bots in their seats, a screen per decision, undo
against bots, save and resume, and a pass-the-terminal screen between people.

Undo is interpreter/undo.py's (replay from the seed without the person's last decision),
shared with the web page. A save is the game record plus the seats and the bots' states.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from ..agents import make_agents
from ..diagnostics import DefinitionError
from ..engine.game import CompiledGame, GameState
from ..engine.view import log_lines
from ..records import make_record
from ..undo import Checkpoint, UndoError, checkpoint, undo
from .save_check import SAVE_FORMAT, read_save, save_problem, verify_save
from .screen import HELP, Screens
from .style import MAX_ROWS, colour_wanted, screen_width

CLEAR = "\033[2J\033[H"


class Quit(Exception):
    """The person asked to stop (q, or Ctrl-C): the game is saved where asked."""


@dataclass
class Session:
    g: CompiledGame
    n: int
    seed: int
    seats: list[str]
    save_path: Path | None = None
    out: TextIO | None = None                     # default: sys.stdout, looked up when the session starts
    ask: Callable[[str], str] | None = None       # reads a line (default: input, looked up when called)
    state: GameState | None = None
    bots: list[Any] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    screens: dict[int, Screens] = field(default_factory=dict)
    log_at: dict[int, int] = field(default_factory=dict)
    last_human: int | None = None
    printed: int = 0

    def __post_init__(self) -> None:
        if self.out is None:
            self.out = sys.stdout
        if self.ask is None:
            self.ask = lambda prompt: input(prompt)
        self.colour = colour_wanted(self.out)
        self.width = screen_width()
        self.humans = [i for i, s in enumerate(self.seats) if s == "human"]
        if not self.bots:
            self.bots = make_agents([s if s != "human" else "random" for s in self.seats], self.n, self.seed)
        if self.state is None:
            self.state = self.g.new_initial_state(self.n, self.seed)

    # -- output ------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def lines(self, lines: list[str]) -> None:
        self.out.write("".join(line + "\n" for line in lines))
        self.out.flush()

    def paged(self, lines: list[str]) -> None:
        """Shows long text a screenful at a time."""
        page = MAX_ROWS - 1
        for i in range(0, len(lines), page):
            self.lines(lines[i:i + page])
            if i + page < len(lines) and self.ask("-- more: Enter (q stops) -- ").strip() == "q":
                break

    # -- the game loop -------------------------------------------------------------------
    def run(self) -> GameState:
        """Plays to the end (raises Quit when the person stops)."""
        while not self.state.is_terminal():
            p = self.state.current_player()
            if self.seats[p] == "human":
                self.human(p)
            else:
                if not self.humans:
                    self.flush_log()
                self.state.apply_action(self.bots[p].step(self.state))
        self.finish()
        return self.state

    def flush_log(self) -> None:
        """Bots only: the whole log as it happens (nobody's secrets to keep)."""
        d = self.state.d
        for text in log_lines(self.g, d, None, self.printed, everything=True):
            self.say(_indented(text))
        self.printed = len(d["log"])

    def finish(self) -> None:
        g, d = self.g, self.state.d
        if self.humans:
            for p in self.humans[:1] if len(self.humans) == 1 else []:
                self.lines(self.screen(p).screen(d, self.new_log(p)))
        else:
            self.flush_log()
        r = d["result"]
        self.say(f"Result ({r['reason']}): " + ", ".join(f"{g.player_name(p)} {r['scores'][p]}" for p in range(self.n)))
        self.say("Winner(s): " + (", ".join(g.player_name(p) for p in r["winners"]) or "none"))

    def screen(self, p: int) -> Screens:
        if p not in self.screens:
            # a row is kept for the "> " line, and one for the game's first line
            self.screens[p] = Screens(self.g, p, self.width, self.colour, rows=MAX_ROWS - 2)
        return self.screens[p]

    def new_log(self, p: int) -> list[str]:
        d = self.state.d
        start = self.log_at.get(p, 0)
        self.log_at[p] = len(d["log"])
        return log_lines(self.g, d, p, start)

    def human(self, p: int) -> None:
        """One decision of a person: the screen, then keys until a choice is made."""
        if len(self.humans) > 1 and p != self.last_human:
            self.pass_to(p)
        self.last_human = p
        self.checkpoints.append(checkpoint(self.state, p, self.bots))
        self.lines(self.screen(p).screen(self.state.d, self.new_log(p)))
        self.autosave()
        while True:
            try:
                raw = self.ask("> ").strip().lower()
            except EOFError:
                raise Quit("input ended before the game did") from None
            i = self.screen(p).keys.pick(raw)
            if i is not None:
                self.state.apply_action(i)
                return
            if self.key(raw, p):
                return

    def key(self, raw: str, p: int) -> bool:
        """Handles a key other than a choice; returns True when the decision is to be asked
        again from the start (after an undo)."""
        if raw == "v":
            self.paged(self.screen(p).whole(self.state.d))
        elif raw == "l":
            self.paged([line for t in log_lines(self.g, self.state.d, p)
                        for line in _indented(t).split("\n")] or ["(the log is empty)"])
        elif raw == "u":
            return self.undo(p)
        elif raw == "s":
            self.say(f"saved to {self.save()}")
        elif raw in ("q", "quit"):
            raise Quit("stopped")
        elif raw in ("?", "h", "help"):
            self.say(HELP)
            for entry in self.screen(p).legend:
                self.say(f"  {entry}")
        else:
            n = len(self.state.d["pending"]["options"])
            self.say(f"type a number from 1 to {n}, or the id of a space or card an option names "
                     f"({HELP.split(' · ', 1)[1]})")
        return False

    def pass_to(self, p: int) -> None:
        """Hides the screen between two people at one terminal."""
        if self.out.isatty():
            self.out.write(CLEAR)
        else:
            self.say("\n" * 3 + "-" * 40)
        self.say(f"Pass the terminal to {self.g.player_name(p)} (seat {p + 1}) and press Enter.")
        try:
            self.ask("")
        except EOFError:
            raise Quit("input ended before the game did") from None
        if self.out.isatty():
            self.out.write(CLEAR)

    # -- undo, save, resume ----------------------------------------------------------------
    def undo(self, p: int) -> bool:
        """Goes back to this person's previous decision (only when the others are bots)."""
        if len(self.humans) > 1:
            self.say("undo works only when the other seats are bots")
            return False
        try:
            went = undo(self.g, self.state, self.checkpoints, self.bots)
        except UndoError as err:
            self.say(str(err))
            return False
        if went is None:
            self.say("nothing to undo yet")
            return False
        self.state, back = went
        self.screens.pop(p, None)
        self.log_at[p] = len(self.state.d["log"])
        self.say(f"undone: back to your decision before choice {back.at + 1}")
        return True

    def save(self) -> Path:
        path = self.save_path or Path(f"{self.g.id}-{self.seed}.save.json")
        data = {"cairn_save": SAVE_FORMAT, "record": make_record(self.state, self.seats), "seats": self.seats,
                "bots": [b.get_state() for b in self.bots],
                "checkpoints": [[c.at, c.seat, c.bots] for c in self.checkpoints]}
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data), "utf-8")
        tmp.replace(path)
        return path

    def autosave(self) -> None:
        if self.save_path is not None:
            self.save()


def load_save(path: Path, load: Callable[[str, list[str]], CompiledGame], **kw: Any) -> Session:
    """Returns the session a save file holds, replayed to where it was saved. Raises
    ValueError with one line naming the file and what is wrong when it is not a sound save
    of these definitions: a field of the wrong kind, or choices that do not make the state
    it says (terminal/save_check.py)."""
    data = read_save(path)
    problem = save_problem(data)
    if problem is not None:
        raise ValueError(f"{path} {problem}" if problem.startswith("is ") else f"{path}: {problem}")
    rec = data["record"]
    try:
        g = load(rec.get("definitions_path") or rec["game"], list(rec.get("variants", [])))
    except DefinitionError as err:
        first = err.diagnostics[0] if err.diagnostics else "it does not load"
        raise ValueError(f"{path}: the game it names ({rec['game']} {rec.get('variants', [])}) cannot be "
                         f"loaded here: {first}") from None
    state, problem = verify_save(g, data)
    if problem is not None:
        raise ValueError(f"{path}: {problem}")
    s = Session(g, rec["players"], rec["seed"], list(data["seats"]), state=state, **kw)
    for bot, saved in zip(s.bots, data["bots"]):
        bot.set_state(saved)
    s.checkpoints = [Checkpoint(at, seat, bots) for at, seat, bots in data["checkpoints"]]
    if s.checkpoints and s.checkpoints[-1].at == len(rec["actions"]):
        s.checkpoints.pop()      # the decision it was saved at is asked again
    return s


def _indented(text: str) -> str:
    """A log entry as printed: every line of it (a drawing may have several) indented."""
    return "  " + text.replace("\n", "\n  ")
