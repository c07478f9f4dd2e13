"""What every `cairn` command shares: the usage error, finding and loading games (saying
when a local folder shadows a built-in game), plurals, and the progress bar."""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..engine.game import CompiledGame
from ..load.build import load_game
from ..load.files import definitions_root, game_ids, resolve_game
from ..words import plural, span  # noqa: F401 - plural is used by the commands


class UsageError(Exception):
    """A bad command line (exit status 2)."""




def game_folder(target: str) -> Path:
    """Returns the folder of a game id or path; says so when a folder here shadows a
    built-in game of the same name."""
    folder = resolve_game(target)
    if folder is None:
        raise UsageError(f"no game '{target}' (a game id or a folder with game.yaml); known: {', '.join(game_ids())}")
    builtin = definitions_root() / target
    if (builtin / "game.yaml").is_file() and folder.resolve() != builtin.resolve():
        print(f"note: using the folder {target}/ here, not the built-in game {target}", file=sys.stderr)
    return folder


def load(target: str, variants: Sequence[str]) -> CompiledGame:
    """Returns a compiled game (DefinitionError carries its problems); says on stderr which
    of its files are written in an older format (they load, read as the current one)."""
    folder = game_folder(target)
    warn_old_formats(folder, variants)
    return load_game(folder, list(variants))


def warn_old_formats(folder: Path | None, variants: Sequence[str]) -> None:
    """Prints one deprecation warning per file of an older format (docs/FORMAT.md)."""
    from ..load.expansion import overlay_path
    from ..load.migrate import deprecations
    overlays = [p for p in map(overlay_path, variants) if p is not None]
    for d in deprecations(folder, overlays):
        print(d, file=sys.stderr)


def check_players(g: CompiledGame, n: int) -> None:
    if not g.min_players <= n <= g.max_players:
        raise UsageError(f"{g.id} takes {span(g.min_players, g.max_players, 'player')}, got {n}")


def bot_seats(spec: str | None, players: int | None, default_players: int) -> tuple[list[str], int]:
    """Returns the bots of a batch of games (`--seats`, default random) and the number of
    players. A list of N bots means N players: a batch of one-player games for the list
    `mcts:50,random` would drop the second bot without a word. One bot serves every seat;
    a list of another length than `--players` is an error naming both."""
    names = [s.strip() for s in (spec or "random").split(",") if s.strip()]
    if not names:
        raise UsageError("--seats names no bot")
    if players is None:
        return names, len(names) if spec and len(names) > 1 else default_players
    if len(names) > 1 and len(names) != players:
        raise UsageError(f"--players {players} but --seats names {plural(len(names), 'bot')} ({', '.join(names)}): "
                         "give one bot per player, or one bot for every seat")
    return names, players


def colour_ok(stream=sys.stderr) -> bool:
    """Whether to colour output: a terminal, and NO_COLOR not set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


@contextmanager
def progress(total: int, what: str, enabled: bool) -> Iterator[Callable[[int], None]]:
    """Yields a function taking the number done so far; draws a bar on stderr when enabled."""
    if not enabled:
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    console = Console(file=sys.stderr, no_color=bool(os.environ.get("NO_COLOR")))
    # Redrawn on each update, not by a thread of its own: a process with one thread can
    # fork its workers safely (interpreter/scale.py).
    with Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(what, total=total)
        yield lambda done: bar.update(task, completed=done, refresh=True)
