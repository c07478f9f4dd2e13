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

Why the seed is checked otherwise than the cache. A cache entry is sealed with an HMAC
under a secret of the user's (cache.py); the seed is made on another machine before any
user exists, so no secret of theirs can vouch for it. It needs none: the seed is part of
the installed package, beside Cairn's own modules, and whoever can write it can as well
write `interpreter/*.py`, which runs anyway. So the seed is trusted exactly as far as
Cairn's code is, and no further: its folder (and those above it) must belong to root,
to the user or to whoever owns Cairn's package, and be writable by no one else (else it
is refused, as a cache folder would be, and entries are built instead). Within it,
MANIFEST, written at build time, gives the SHA-256 of each entry's bytes under its name;
an entry is served only when its bytes have that digest, so an entry corrupted,
truncated, renamed (one entry's bytes under another's name) or left from another build
is never loaded. Each entry keeps the seal it was built with (under the build's throwaway
secret, not shipped); the manifest check takes its place.

    python -m interpreter.cli.seed_fill DIR     # writes the seed entries and MANIFEST into DIR

It is written by interpreter/cli/seed_fill.py, which loads and plays the games (far above
the cache that reads it).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
from functools import lru_cache
from pathlib import Path

SEED = "seed-cache"
GRAMMAR = "effect-grammar.lark-cache"
MANIFEST = "seed-manifest.json"
_MAX_MANIFEST = 1_000_000


@lru_cache(maxsize=1)
def seed_dir() -> Path | None:
    """Returns the seed folder (in an installed wheel; in a source checkout, the one an
    editable install wrote), or None: none there, `CAIRN_SEED=off`, or a folder others
    could write to (refused, said once on stderr). Looked for once: every entry a first
    run misses asks."""
    if os.environ.get("CAIRN_SEED") == "off":
        return None
    from .root import data_root
    where = data_root() / SEED
    if not where.is_dir():
        return None
    from .cache_trust import folder_problem, tell_refused
    why = folder_problem(where, _owners())
    if why is not None:
        tell_refused("seed folder", where, why, "Reinstall Cairn, or set CAIRN_SEED=off.")
        return None
    return where


def _owners() -> frozenset[int]:
    """Returns who may own the seed: root, this user, and the owner of Cairn's own code."""
    from .cache_trust import me
    owners = {0} | ({me()} if me() is not None else set())
    try:
        owners.add(os.stat(Path(__file__).resolve().parents[1]).st_uid)
    except OSError:
        pass
    return frozenset(owners)


@lru_cache(maxsize=4)
def manifest(where: Path) -> dict[str, str]:
    """Returns the seed's MANIFEST (entry name -> SHA-256 of its bytes), or {} when it is
    missing or not of that shape (then no entry of the seed is served)."""
    from .cache_trust import read_regular
    got = read_regular(where / MANIFEST, _MAX_MANIFEST, _owners())
    if not isinstance(got, bytes):
        return {}
    try:
        found = json.loads(got)
    except ValueError:
        return {}
    if not isinstance(found, dict) or not all(isinstance(k, str) and isinstance(v, str) and len(v) == 64
                                              for k, v in found.items()):
        return {}
    return found


def seeded(name: str) -> bytes | None:
    """Returns the payload of the seed's entry of that name, or None: none there, or its
    bytes are not those MANIFEST names."""
    where = seed_dir()
    if where is None:
        return None
    want = manifest(where).get(name)
    if want is None:
        return None
    from .cache_trust import HEADER, MARK, MAX_ENTRY, read_regular
    got = read_regular(where / name, MAX_ENTRY, _owners())
    if not isinstance(got, bytes) or not got.startswith(MARK):
        return None
    if not hmac.compare_digest(hashlib.sha256(got).hexdigest(), want):
        return None
    return got[HEADER:]


def write_manifest(where: Path, names: list[str]) -> None:
    """Writes MANIFEST for the entries `names` in the folder `where`."""
    digests = {name: hashlib.sha256((where / name).read_bytes()).hexdigest() for name in names}
    (where / MANIFEST).write_text(json.dumps(digests, indent=0, sort_keys=True), "utf-8")
    manifest.cache_clear()


# Entries named by what they are derived from alone (no path, no user's folder): these
# serve an installed copy as they served the build. validate's verdicts are not among
# them (named by the working folder and by where Cairn is installed).
PORTABLE = ("schema-", "yaml-", "valid-", "trees-", "board-", "code-")
