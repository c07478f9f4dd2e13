"""What the server holds in memory (games in play, open replays): each under a random
token, a bounded number of them, the least recently used dropped first, so a busy or
hostile client cannot grow the server's memory without end."""
from __future__ import annotations

import secrets
from collections import OrderedDict
from typing import Generic, TypeVar

from .games import WebError

T = TypeVar("T")


class Shelf(Generic[T]):
    """Token -> item, at most `limit` items; `missing` says what to do when a token is gone."""

    def __init__(self, limit: int, missing: str):
        self.limit = limit
        self.missing = missing
        self._items: OrderedDict[str, T] = OrderedDict()

    def add(self, item: T) -> str:
        token = secrets.token_urlsafe(12)
        self._items[token] = item
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
        return token

    def get(self, token: str) -> T:
        item = self._items.get(token)
        if item is None:
            raise WebError(self.missing, 404)
        self._items.move_to_end(token)
        return item

    def summaries(self) -> list[dict]:
        return [item.summary(k) for k, item in reversed(self._items.items())]  # type: ignore[attr-defined]
