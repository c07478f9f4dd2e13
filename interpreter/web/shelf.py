"""What the server holds in memory (games in play, open replays): each under a random
token, a bounded number of them, so a busy or hostile client cannot grow the server's
memory without end, and no item lost without a word.

An item is kept until it has been idle longer than its keeping time (a game in play
longer than a finished one). When the shelf is full, an item that may go (a finished
game, any replay) makes room, the one used longest ago first; when none may go, the new
one is refused (503), never an old one dropped. A closed token is remembered (a bounded
number of them) so its owner is told why it went (410 Gone), not just "no such thing"."""
from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Generic, Iterator, TypeVar

from .games import WebError

T = TypeVar("T")
REMEMBER_CLOSED = 10_000     # closed tokens remembered, to answer 410 rather than 404


@dataclass(frozen=True)
class Keeping:
    """How a shelf keeps its items: how many, how long idle, which may make room."""

    limit: int
    idle: Callable[[object], float]       # item -> seconds it is kept without a request
    may_go: Callable[[object], bool]      # item -> whether it may be closed to make room
    what: str                             # "game", "replay": for the messages
    again: str                            # what to do when it is gone


class Shelf(Generic[T]):
    """Token -> item, at most `keeping.limit` of them; `clock` is injectable for tests."""

    def __init__(self, keeping: Keeping, clock: Callable[[], float] = time.monotonic):
        self.keeping = keeping
        self.clock = clock
        self._items: OrderedDict[str, tuple[T, float]] = OrderedDict()    # least recently used first
        self._closed: OrderedDict[str, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: T) -> str:
        """Returns the new item's token; raises WebError (503) when the shelf is full of
        items that may not go."""
        self.sweep()
        while len(self._items) >= self.keeping.limit:
            victim = next((k for k, (it, _) in self._items.items() if self.keeping.may_go(it)), None)
            if victim is None:
                raise WebError(f"this server is full: {self.keeping.limit} {self.keeping.what}s in use; "
                               "try again when one ends", 503)
            self._close(victim, f"it was closed to make room for a new one ({self.keeping.limit} at most)")
        token = secrets.token_urlsafe(16)
        self._items[token] = (item, self.clock())
        return token

    def get(self, token: str) -> T:
        """Returns the item (and counts this as a use); raises WebError 410 when it was
        closed, 404 when there never was one."""
        self.sweep()
        held = self._items.get(token)
        if held is None:
            why = self._closed.get(token)
            if why is not None:
                raise WebError(f"this {self.keeping.what} is gone: {why}; {self.keeping.again}", 410)
            raise WebError(f"no such {self.keeping.what} on this server; {self.keeping.again}", 404)
        self._items[token] = (held[0], self.clock())
        self._items.move_to_end(token)
        return held[0]

    def peek(self, token: str) -> T | None:
        """Returns the item or None, without counting a use (for listings)."""
        held = self._items.get(token)
        return None if held is None else held[0]

    def sweep(self) -> None:
        """Closes the items idle longer than their keeping time."""
        now = self.clock()
        for token, (item, used) in list(self._items.items()):
            idle = self.keeping.idle(item)
            if now - used > idle:
                self._close(token, f"it was closed after {_duration(idle)} without a request")

    def items(self) -> Iterator[tuple[str, T]]:
        return ((k, it) for k, (it, _) in self._items.items())

    def _close(self, token: str, why: str) -> None:
        del self._items[token]
        self._closed[token] = why
        while len(self._closed) > REMEMBER_CLOSED:
            self._closed.popitem(last=False)


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        n = int(seconds // 3600)
        return f"{n} hour{'s' if n != 1 else ''}"
    n = max(1, round(seconds / 60))
    return f"{n} minute{'s' if n != 1 else ''}"
