"""Writes the seed cache a wheel ships (read by interpreter/load/seed.py), run by
hatch_build.py when the wheel is built: the grammar's tables, every schema's compiled
check, validate's verdict on each shipped game, and what loading and playing each derives.
It validates, loads and plays games, so it sits on top, beside the commands.

    python -m interpreter.cli.seed_fill DIR     # writes the seed entries and MANIFEST into DIR
"""
from __future__ import annotations

import os
import random
import sys
from typing import Any

from ..lang.parser import _parser
from ..load import cache, code_cache
from ..load.build import load_game
from ..load.files import data_root, definitions_root, fast_check
from ..load.seed import GRAMMAR, MANIFEST, PORTABLE, write_manifest
from .inspect_cmds import verdict


def fill() -> list[str]:
    """Builds the seed's entries in the cache folder (CAIRN_CACHE, set by the caller) and
    returns their names: the grammar's tables, every schema's compiled check, what
    checking and loading the shipped games derives (their files read, checked and parsed),
    and MANIFEST, the digest of each (seed.py serves only entries it names)."""
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
    names = sorted(p.name for p in base.iterdir() if p.name == GRAMMAR or p.name.startswith(PORTABLE))
    write_manifest(base, names)
    return names + [MANIFEST]


def _play_random(game: Any) -> None:
    """Plays a game of random choices, with a log, at the fewest and at the most players
    the game takes: what they run is compiled, and kept (code_cache.py)."""
    for seed, n in enumerate(sorted({game.min_players, game.max_players})):
        rnd = random.Random(seed)
        state = game.new_initial_state(n, seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])


if __name__ == "__main__":
    os.environ["CAIRN_CACHE"] = sys.argv[1]
    print("\n".join(fill()))
