"""The cache entries a wheel ships, built when the wheel is built (hatch_build.py).

The first run after an install would otherwise build the effect grammar's parser tables
(lark) and turn every schema into a compiled check (fastjsonschema), about a second
before anything of the game is read, and then read, check and parse the game's files,
and compile the Python its rules become (the code of a random game or two each is kept).
All of it is a pure function of Cairn's own files and of the library versions, and the
cache entries are named by exactly those, so the wheel carries them as a seed: a cache
entry that is missing is read from the seed, if the seed has one of that name. An entry
built by another version of a library or of Python has another name, and is then built
on first use as before. Here the seed is read; it is written by interpreter/cli/seed_fill.py,
which loads and plays the games (far above the cache that reads it):

    python -m interpreter.cli.seed_fill DIR     # writes the seed entries into DIR
"""
from __future__ import annotations

import os
import shutil
from functools import lru_cache
from pathlib import Path

SEED = "seed-cache"
GRAMMAR = "effect-grammar.lark-cache"


@lru_cache(maxsize=1)
def seed_dir() -> Path | None:
    """Returns the seed folder (in an installed wheel; in a source checkout, the one an
    editable install wrote), or None: none there, or `CAIRN_SEED=off`. Looked for once:
    every entry a first run misses asks."""
    if os.environ.get("CAIRN_SEED") == "off":
        return None
    from .root import data_root
    where = data_root() / SEED
    return where if where.is_dir() else None


def seeded(name: str) -> bytes | None:
    """Returns the seed's entry of that name, or None."""
    where = seed_dir()
    if where is None:
        return None
    try:
        return (where / name).read_bytes()
    except OSError:
        return None


def grammar_tables(base: Path) -> None:
    """Puts the seed's parser tables into the cache folder `base` if it has none (lark
    reads and checks them itself: tables for another grammar or version are rebuilt)."""
    target = base / GRAMMAR
    where = seed_dir()
    if where is not None and not target.exists() and (where / GRAMMAR).is_file():
        try:
            shutil.copyfile(where / GRAMMAR, target)
        except OSError:
            pass


# Entries named by what they are derived from alone (no path, no user's folder): these
# serve an installed copy as they served the build. validate's verdicts are not among
# them (named by the working folder and by where Cairn is installed).
PORTABLE = ("schema-", "yaml-", "valid-", "trees-", "board-", "code-")
