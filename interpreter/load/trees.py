"""Syntax trees and parser tables kept in Cairn's cache, so a fresh process does not parse
a game's effect texts again, nor build the grammar's tables. The parser (lang/parser.py)
remembers trees only within a process and knows nothing of the cache: the cache belongs to
the loader, a layer above the language, so the keeping is done here and handed down."""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from ..lang import parser
from . import cache, files
from .seed import GRAMMAR

_KEPT: dict[str, set[tuple[str, bool]]] = {}  # cache entry -> the texts it holds (read this process)
_KEPT_MAX = 5_000     # a game's kept trees beyond this start over from those it uses


def _read_tables() -> bytes | None:
    """Returns the parser's tables kept in the cache (sealed: checked before lark reads
    them), or those a wheel ships (checked against the seed's manifest), or None."""
    return cache.read_bytes(GRAMMAR)


def _write_tables(data: bytes) -> None:
    if cache.cache_dir() is not None:
        cache.write_bytes(GRAMMAR, data)


parser.keep_tables(_read_tables, _write_tables)


@contextmanager
def kept_trees(scope: str) -> Iterator[None]:
    """Parses, while it lasts, from the trees kept in Cairn's cache for `scope` (a game
    folder: its texts are parsed together), and keeps the new ones there afterwards.
    Trees are a pure function of the text, the grammar, the parser and lark, and the
    entry's name holds a digest of all of them, so a kept tree is the tree parse gives."""
    name = _entry(scope)
    kept = _KEPT.get(name)
    if kept is None:                 # read once a process: later builds find them in the parser's memory
        found = cache.load(name)
        found = found if isinstance(found, dict) else {}
        kept = _KEPT[name] = set(found)
        parser.remember(found)
    used: set[tuple[str, bool]] = set()
    try:
        with parser.noting_use() as used:
            yield
    finally:
        if not used <= kept:
            # What this run parsed, and what was kept and is still in memory (another
            # variant's texts); past _KEPT_MAX, only what this run parsed.
            wanted = used | kept if len(kept) < _KEPT_MAX else used
            keep = parser.remembered(wanted)
            cache.store(name, keep)
            _KEPT[name] = set(keep)


@lru_cache(maxsize=64)
def _entry(scope: str) -> str:
    """Returns the name of the cache entry holding a scope's trees. A folder Cairn ships is
    named by its place among Cairn's data, so a wheel's seed (seed.py) serves it wherever
    Cairn is installed; any other folder by its full path."""
    import lark
    try:
        scope = "cairn:" + Path(scope).relative_to(files.data_root().resolve()).as_posix()
    except ValueError:
        pass
    return "trees-" + cache.digest(scope, parser.grammar_text(), lark.__version__,
                                   cache.source_digest("lang.parser", "load.trees")) + ".pkl"
