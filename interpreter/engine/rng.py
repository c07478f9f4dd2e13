"""A seeded random source whose whole state is one integer.

Python's `random.shuffle` and `randrange` may change between minor versions, and a
`random.Random` object is awkward to keep in plain-data state; SplitMix64 is tiny,
stable everywhere and makes the RNG part of a saved game.
"""
from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Returns the RNG state for a seed (any int, negative or huge included)."""
    return (seed * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Returns (new state, 64 random bits)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class ChanceNeeded(BaseException):
    """A draw found its state's chance scripted (`d["chance"]`) and the script used up: the
    caller (the OpenSpiel adapter's explicit chance nodes) offers the `n` equally likely
    outcomes, then runs the same step again with the outcome chosen added to the script.
    A BaseException, so no rule's error handling turns it into an aborted game.

    `more`: the sizes of the draws known to follow this one whatever its outcome (the rest
    of a shuffle), so the caller may offer them in turn and run the step again only once
    all are chosen."""

    def __init__(self, n: int, more: tuple[int, ...] = ()):
        super().__init__(n)
        self.n, self.more = n, more


def below(d: dict, n: int) -> int:
    """Returns a uniform int in [0, n) and advances the RNG kept in state `d`; in a state
    whose chance is scripted, the script's next outcome instead (ChanceNeeded when none)."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    script = d.get("chance")
    if script is not None:
        if not script:
            raise ChanceNeeded(n)
        k = script.pop(0)
        if not 0 <= k < n:
            raise ValueError(f"scripted chance outcome {k} is not in [0, {n})")
        return k
    limit = ((1 << 64) // n) * n
    s = d["rng"]
    while True:
        s, v = next_u64(s)
        if v < limit:
            d["rng"] = s
            return v % n


def shuffle(d: dict, items: list) -> None:
    """Shuffles `items` in place (Fisher-Yates on the state's RNG). Scripted, a shuffle whose
    outcomes run out says which draws of it are still to come (ChanceNeeded.more)."""
    script = d.get("chance")
    for i in range(len(items) - 1, 0, -1):
        if script is not None and not script:
            raise ChanceNeeded(i + 1, tuple(range(i, 1, -1)))
        j = below(d, i + 1)
        items[i], items[j] = items[j], items[i]


def derive(master: int, index: int) -> int:
    """Returns the seed of game `index` in a batch, independent of worker count."""
    _, v = next_u64(seed_state(master) ^ ((index * GOLDEN) & MASK))
    return v >> 1
