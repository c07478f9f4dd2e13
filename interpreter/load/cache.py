"""Where Cairn keeps what it derives once from its own grammar and schemas (the parser's
tables, the compiled schema checks), so a fresh process does not derive them again.

The cache holds only what Cairn's own files determine (names carry the digest of their
source), never anything read from a game's definitions: a stale or broken entry is
ignored and rewritten. `CAIRN_CACHE=off` turns it off; `CAIRN_CACHE=DIR` moves it."""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Callable


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    """Returns the cache folder (created if need be), or None when there is none to use."""
    chosen = os.environ.get("CAIRN_CACHE")
    if chosen == "off":
        return None
    if chosen:
        base = Path(chosen)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) / "cairn" if xdg else Path.home() / ".cache" / "cairn"
    try:
        base.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=base, delete=True)
        probe.close()
    except OSError:
        return None
    return base


def digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:20]


def read_bytes(name: str) -> bytes | None:
    base = cache_dir()
    if base is None:
        return None
    try:
        return (base / name).read_bytes()
    except OSError:
        return None


def write_bytes(name: str, data: bytes) -> None:
    """Writes an entry atomically (another process may be reading or writing it too)."""
    base = cache_dir()
    if base is None:
        return
    try:
        with tempfile.NamedTemporaryFile("wb", dir=base, delete=False, suffix=".tmp") as f:
            f.write(data)
        os.replace(f.name, base / name)
    except OSError:
        pass


def compiled(name: str, source: Callable[[], str]) -> CodeType:
    """Returns the code object of generated Python source, kept compiled (as a .pyc is):
    `source` is only called when the entry is missing or unreadable."""
    key = f"{name}-py{sys.version_info[0]}{sys.version_info[1]}.bin"
    data = read_bytes(key)
    if data is not None:
        try:
            code = marshal.loads(data)
            if isinstance(code, CodeType):
                return code
        except (ValueError, EOFError, TypeError):
            pass
    code = compile(source(), name, "exec")
    write_bytes(key, marshal.dumps(code))
    return code
