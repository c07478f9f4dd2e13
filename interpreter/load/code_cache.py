"""The generated Python a game runs, kept compiled between processes.

A game's rules become Python source (lang/expressions.py, lang/runner.py), compiled when a
function first runs. That compile() was a quarter of a one-game `cairn play` and is paid
again by every process (each `simulate` worker included). A code object is a pure
function of its source text, its name in tracebacks and the Python version, so a game
folder's code objects are kept in one cache entry (marshal, as a .pyc is), read on the
first compile a process needs, and written back when the process ends if it compiled
anything new. The entry is named by the folder (a folder Cairn ships by its place among
Cairn's data, so a wheel's seed serves it) and the Python version; a key is the whole
source, so a changed rule is a new key, never a stale answer. Like every cache entry it
is sealed (cache.py): marshal is only given bytes whose HMAC, bound to the entry's name,
checks (a code object changed by one number would play other rules; a corrupted one can
crash the interpreter).
"""
from __future__ import annotations

import atexit
import marshal
import sys
import threading
from pathlib import Path
from types import CodeType

from . import cache

# Code objects one entry keeps: a game compiles about 400 a run, and each edit of a rule
# adds one; past this, the code this process did not use is dropped first at the save.
MAX_CODES = 2_000

_STORES: dict[tuple[Path, str], "CodeStore"] = {}   # (cache folder, entry name) -> store
_LOCK = threading.Lock()


class CodeStore:
    """The code objects of one game folder: read once a process, written at its end."""

    def __init__(self, name: str, base: Path):
        self.name, self.base = name, base         # written back where it was read from
        self.codes: dict[tuple[str, str], CodeType] | None = None
        self.used: set[tuple[str, str]] = set()    # read or compiled by this process
        self.added = 0
        self.registered = False

    def get(self, origin: str, text: str) -> CodeType | None:
        if self.codes is None:
            self.codes = _read(self.name, self.base)
        code = self.codes.get((origin, text))
        if code is not None:
            self.used.add((origin, text))
        return code

    def put(self, origin: str, text: str, code: CodeType) -> None:
        if self.codes is None:
            self.codes = _read(self.name, self.base)
        self.codes[(origin, text)] = code
        self.used.add((origin, text))
        self.added += 1
        if not self.registered:
            self.registered = True
            atexit.register(self.save)

    def save(self) -> None:
        """Writes what this process compiled, with what it read (another process may have
        written the entry meanwhile: the last to end keeps its own)."""
        if self.added and self.codes is not None:
            if len(self.codes) > MAX_CODES:
                kept = sorted(self.codes, key=lambda k: k not in self.used)[:MAX_CODES]
                self.codes = {k: self.codes[k] for k in kept}
            cache.write_bytes(self.name, marshal.dumps(self.codes), self.base)
            self.added = 0


def store_for(folder: Path) -> CodeStore | None:
    """Returns the store of a game folder's code, or None when there is no cache."""
    base = cache.cache_dir()
    if base is None:
        return None
    from .files import data_root
    scope = str(Path(folder).resolve())
    try:
        scope = "cairn:" + Path(scope).relative_to(data_root().resolve()).as_posix()
    except ValueError:
        pass
    name = f"code-{cache.digest(scope)}-py{sys.version_info[0]}{sys.version_info[1]}.bin"
    with _LOCK:
        found = _STORES.get((base, name))
        if found is None:
            found = _STORES[(base, name)] = CodeStore(name, base)
    return found


def _read(name: str, base: Path) -> dict[tuple[str, str], CodeType]:
    data = cache.read_bytes(name, base)
    if data is None:
        return {}
    try:
        codes = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return {}           # written by another Python: a miss
    if not isinstance(codes, dict) or not all(isinstance(c, CodeType) for c in codes.values()):
        return {}
    return codes
