"""The bots' own draws, made fast: the same numbers as engine/rng.py's `below` and
`shuffle` on a bot's RNG state (a dict holding only `rng`, never a chance script), with
SplitMix64 written out in the loop instead of a call a number, since a search draws
millions of them. tests/test_bots_same_moves.py checks they match the engine's draws."""
from __future__ import annotations

from ..engine.rng import GOLDEN, MASK

_SPAN = 1 << 64


def below(r: dict, n: int) -> int:
    """Returns rng.below(r, n) for n >= 1 (a bot's RNG has no chance script)."""
    limit = (_SPAN // n) * n
    s = r["rng"]
    while True:
        s = (s + GOLDEN) & MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        v = z ^ (z >> 31)
        if v < limit:
            r["rng"] = s
            return v % n


def shuffle(r: dict, items: list) -> None:
    """Shuffles in place as rng.shuffle(r, items) does (Fisher-Yates, the same draws)."""
    s = r["rng"]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = (_SPAN // n) * n
        while True:
            s = (s + GOLDEN) & MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            v = z ^ (z >> 31)
            if v < limit:
                break
        j = v % n
        items[i], items[j] = items[j], items[i]
    r["rng"] = s
