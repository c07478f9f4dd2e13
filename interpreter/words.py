"""Counts in words, so every message reads "1 player", "2 players", "2-4 players"."""
from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """Returns "1 player", "2 players" (`words`: an irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def span(lo: int, hi: int, word: str, words: str | None = None) -> str:
    """Returns "2-4 players", or "2 players" when the range is one number."""
    return plural(lo, word, words) if lo == hi else f"{lo}-{hi} {words or word + 's'}"
