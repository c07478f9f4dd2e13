"""The cache entries a wheel ships, built when the wheel is built (hatch_build.py).

The first run after an install would otherwise build the effect grammar's parser tables
(lark) and turn every schema into a compiled check (fastjsonschema), about a second
before anything of the game is read, and then read, check and parse the game's files,
and compile the Python its rules become (the code of a random game or two each is kept).
All of it is a pure function of Cairn's own files and of the library versions, and the
cache entries are named by exactly those, so the wheel carries them as a seed: a cache
entry that is missing is read from the seed, if the seed has one of that name. An entry
built by another version of a library or of Python has another name, and is then built
on first use as before.

    python -m interpreter.load.seed DIR     # writes the seed entries into DIR
"""
from __future__ import annotations

import os
import shutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

SEED = "seed-cache"
GRAMMAR = "effect-grammar.lark-cache"


@lru_cache(maxsize=1)
def seed_dir() -> Path | None:
    """Returns the seed folder (in an installed wheel; in a source checkout, the one an
    editable install wrote), or None: none there, or `CAIRN_SEED=off`. Looked for once:
    every entry a first run misses asks."""
    if os.environ.get("CAIRN_SEED") == "off":
        return None
    from .files import data_root
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


def fill() -> list[str]:
    """Builds the seed's entries in the cache folder (CAIRN_CACHE, set by the caller) and
    returns their names: the grammar's tables, every schema's compiled check, and what
    checking and loading the shipped games derives (their files read, checked and parsed)."""
    from ..cli.inspect_cmds import verdict
    from ..lang.parser import _parser
    from . import cache
    from . import code_cache
    from .build import load_game
    from .files import data_root, definitions_root, fast_check
    base = cache.cache_dir()
    if base is None:
        raise SystemExit("no cache folder to fill (set CAIRN_CACHE)")
    _parser()
    for schema in sorted((data_root() / "schemas").glob("*.schema.json")):
        kind = schema.name.split(".")[0]
        if kind != "defs":               # the shared definitions, not a kind of file
            fast_check(kind)
    for folder in sorted(p for p in definitions_root().iterdir() if (p / "game.yaml").is_file()):
        problems, _checked = verdict(folder.name, folder, [])
        if problems:
            raise SystemExit(f"{folder.name} does not validate: {problems[0]}")
        _play_random(load_game(folder))
    for store in code_cache._STORES.values():
        store.save()
    return sorted(p.name for p in base.iterdir() if p.name == GRAMMAR or p.name.startswith(PORTABLE))


def _play_random(game: Any) -> None:
    """Plays a game of random choices, with a log, at the fewest and at the most players
    the game takes: what they run is compiled, and kept (code_cache.py)."""
    import random
    for seed, n in enumerate(sorted({game.min_players, game.max_players})):
        rnd = random.Random(seed)
        state = game.new_initial_state(n, seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])


if __name__ == "__main__":
    os.environ["CAIRN_CACHE"] = sys.argv[1]
    print("\n".join(fill()))
