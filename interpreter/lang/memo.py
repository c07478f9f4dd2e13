"""Programs compiled once for all the builds of one check (`cairn validate`).

Validate builds a game once per variant and once more for each combination its scenario
files name: one of the shipped games builds eight games of about 125 programs each, and
most programs are the same text in all of them. A program's compile depends on its text, its
parameters and what it looks up in the compiler's Env (is `foo` a procedure, and with
which parameters? is `gold` a game variable? what is params.start_hand?), nothing else.
So a build that is only checked (a lean build: it is never played) records those
look-ups while it compiles a program, and a later build takes the program as it is
whenever each look-up gives the same answer in its own Env. A different answer anywhere
(a variant that changes a procedure's parameters, removes a zone, changes a parameter's
value) compiles the program again. Programs with problems are never kept: they are
compiled again, so their messages are always this build's own.

What a compile does besides returning its program (the events it emits with their
fields, the windows it opens, the attributes it assigns) is recorded too and done again.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from .registry import INTERNAL, REGISTRY

# The Env tables a compile may look things up in; each is watched in a lean build.
TABLES = ("procedures", "functions", "positional", "places", "zones", "objects", "spaces", "dice",
          "game_vars", "attributes", "params", "player_vars", "kinds", "props")
MAX_KEPT = 20_000                # texts kept in one process; past this the memo starts again
MAX_ALIKE = 8                    # compiles of one text kept (in Envs that answer otherwise)
_MISSING = object()


class _Log:
    """The look-ups of the compile being recorded (None: no compile is recorded now)."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, str, Any, Any]] | None = None


_LOG = threading.local()


def _log() -> _Log:
    log = getattr(_LOG, "log", None)
    if log is None:
        log = _LOG.log = _Log()
    return log


def _note(table: str, how: str, key: Any, answer: Any) -> None:
    reads = _log().reads
    if reads is not None:
        reads.append((table, how, key, answer))


class _Watched:
    """What a watched table of the Env notes of a recorded compile's look-ups."""

    table = ""

    def __contains__(self, key: object) -> bool:
        found = super().__contains__(key)            # type: ignore[misc]
        _note(self.table, "in", key, found)
        return found

    def _whole(self) -> None:
        _note(self.table, "all", None, self.copy_out())

    def copy_out(self) -> Any:
        raise NotImplementedError

    def __iter__(self):
        self._whole()
        return super().__iter__()                    # type: ignore[misc]

    def __len__(self) -> int:
        self._whole()
        return super().__len__()                     # type: ignore[misc]


class WatchedDict(_Watched, dict):
    """A dict of the Env (procedures, functions, params ...), watched."""

    def copy_out(self) -> dict:
        return dict(dict.items(self))

    def __getitem__(self, key: Any) -> Any:
        value = dict.get(self, key, _MISSING)
        _note(self.table, "get", key, value)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        value = dict.get(self, key, _MISSING)
        _note(self.table, "get", key, value)
        return default if value is _MISSING else value

    def keys(self):
        self._whole()
        return dict.keys(self)

    def values(self):
        self._whole()
        return dict.values(self)

    def items(self):
        self._whole()
        return dict.items(self)


class WatchedSet(_Watched, set):
    """A set of the Env (zones, objects, game variables ...), watched."""

    def copy_out(self) -> set:
        return set(set.__iter__(self))

    def __or__(self, other: Any) -> set:          # set operations read the whole set
        return self.copy_out_noted() | other

    __ror__ = __or__

    def __and__(self, other: Any) -> set:
        return self.copy_out_noted() & other

    def __sub__(self, other: Any) -> set:
        return self.copy_out_noted() - other

    def copy_out_noted(self) -> set:
        self._whole()
        return self.copy_out()


def watch(env: Any) -> None:
    """Makes the look-ups of a lean build's Env recordable (its tables keep their content)."""
    for name in TABLES:
        table = getattr(env, name)
        watched: Any = WatchedDict(table) if isinstance(table, dict) else WatchedSet(table)
        watched.table = name
        setattr(env, name, watched)


def _same(env: Any, reads: list[tuple[str, str, Any, Any]]) -> bool:
    """Whether every recorded look-up gives the same answer in `env` (read unwatched)."""
    for table, how, key, answer in reads:
        t = getattr(env, table)
        if how == "in":
            now: Any = dict.__contains__(t, key) if isinstance(t, dict) else set.__contains__(t, key)
        elif how == "get":
            now = dict.get(t, key, _MISSING)
        else:
            now = t.copy_out()
        if now is not answer and now != answer:
            return False
    return True


class Kept:
    """One compiled result with what its compile read and did."""

    __slots__ = ("reads", "value", "effects")

    def __init__(self, reads: list, value: Any, effects: list) -> None:
        self.reads, self.value, self.effects = reads, value, effects


_KEPT: dict[tuple, list[Kept]] = {}


def _key(env: Any, key: tuple) -> tuple:
    # the verbs a program may call: the same in every build unless one was registered since
    return key + (env.internal, len(REGISTRY), len(INTERNAL))


def recall(env: Any, key: tuple) -> Kept | None:
    """Returns what was compiled earlier from the same key (kind, name, text, parameters)
    in an Env that answers its look-ups the same, or None."""
    for kept in _KEPT.get(_key(env, key), ()):
        if _same(env, kept.reads):
            return kept
    return None


def recording(env: Any) -> Callable[[], list] | None:
    """Starts recording a lean build's compile; returns the function that stops it and
    returns the look-ups (None where the Env is not watched)."""
    if not isinstance(env.procedures, WatchedDict):
        return None
    log = _log()
    outer, log.reads = log.reads, []

    def stop() -> list:
        reads, log.reads = log.reads, outer
        if outer is not None:
            outer.extend(reads or [])     # what an inner compile read, the outer one read too
        return reads or []
    return stop


def keep(env: Any, key: tuple, reads: list, value: Any, effects: list) -> None:
    """Keeps what compiled without a problem, for the next build to take."""
    if len(_KEPT) >= MAX_KEPT:
        _KEPT.clear()
    alike = _KEPT.setdefault(_key(env, key), [])
    if len(alike) >= MAX_ALIKE:
        del alike[0]
    alike.append(Kept(reads, value, effects))
