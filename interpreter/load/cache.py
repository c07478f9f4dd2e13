"""Where Cairn keeps what it derives from text, so a fresh process does not derive it
again: its own grammar's parser tables and compiled schema checks, and the pure
functions of a definition's text that loading costs most (a YAML file read into data
with positions, a game's effect texts parsed into syntax trees, which files passed their
schema, and `cairn validate`'s verdict on a whole game folder).

Every entry is named by a digest of all it depends on: the text itself and the source of
the code that derives it (and that code's library versions). An entry can therefore only
be missing, never stale: an edited file or a changed loader is simply a new name. A
broken entry is ignored and rewritten; past LIMIT bytes the entries used longest ago go.
`CAIRN_CACHE=off` turns it off; `CAIRN_CACHE=DIR` moves it. Entries are trusted as this
user's own files are (pickle, as a .pyc is code)."""
from __future__ import annotations

import gc
import hashlib
import marshal
import os
import pickle
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any, Callable


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
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:20]


LIMIT = 256 * 2**20     # bytes the cache may hold; past it, the entries used longest ago go
_STORED = 0             # entries this process wrote (it looks at the cache's size now and then)


def read_bytes(name: str, base: Path | None = None) -> bytes | None:
    """Returns an entry's bytes (and marks it used), or None; an entry the cache lacks may
    come from the seed a wheel ships (seed.py). `base`: the cache folder to read (default:
    the current one)."""
    base = base or cache_dir()
    if base is None:
        return None
    try:
        data = (base / name).read_bytes()
        os.utime(base / name)
        return data
    except OSError:
        from .seed import seeded
        return seeded(name)


def prune(base: Path, limit: int = LIMIT) -> None:
    """Keeps the cache under `limit` bytes: an edited game leaves entries no one will read
    again (and every test's copy of a game its own), so when the cache has grown past the
    limit, the entries used longest ago are removed until it holds three quarters of it."""
    entries = []
    try:
        for path in base.iterdir():
            try:
                st = path.stat()
            except OSError:      # removed meanwhile by another process
                continue
            entries.append((st.st_mtime_ns, st.st_size, path))
    except OSError:
        return
    total = sum(size for _t, size, _p in entries)
    if total <= limit:
        return
    for _t, size, path in sorted(entries):
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        if total <= limit * 3 // 4:
            return


def write_bytes(name: str, data: bytes, base: Path | None = None) -> None:
    """Writes an entry atomically (another process may be reading or writing it too), into
    the cache folder, or into `base` (the folder that was the cache when it was read)."""
    base = base or cache_dir()
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


@lru_cache(maxsize=None)
def source_digest(*modules: str) -> str:
    """Returns a digest of the source files of Cairn's own modules (dotted names under
    `interpreter`), so an entry derived by changed code is never read back."""
    root = Path(__file__).resolve().parents[1]
    parts = [f"py{sys.version_info[0]}.{sys.version_info[1]}"]
    for module in modules:
        path = root.joinpath(*module.split(".")).with_suffix(".py")
        try:
            parts.append(hashlib.sha256(path.read_bytes()).hexdigest())
        except OSError:
            parts.append(f"missing:{module}")
    return digest(*parts)


def load(name: str) -> Any | None:
    """Returns a stored value, or None when there is none or it cannot be read. The
    collector is paused meanwhile: unpickling thousands of small objects otherwise
    triggers it again and again (five times the cost)."""
    data = read_bytes(name)
    if data is None:
        return None
    paused = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    except Exception:  # a broken or foreign entry is only a miss
        return None
    finally:
        if paused:
            gc.enable()


def store(name: str, value: Any) -> None:
    """Keeps a value (written atomically), then keeps the cache under its limit; a value
    that cannot be pickled is not kept."""
    base = cache_dir()
    if base is None:
        return
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # pragma: no cover - only plain data and syntax trees are stored
        return
    write_bytes(name, data)
    global _STORED
    _STORED += 1
    if _STORED % 200 == 1:      # the first entry a process writes, then every 200th
        prune(base)


def folder_digest(folder: Path, *, suffixes: tuple[str, ...] = ()) -> str:
    """Returns a digest of every file under a folder (names and bytes; only names ending in
    one of `suffixes` when given), so a result derived from the folder is named by it."""
    h = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogateescape"))
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and (not suffixes or p.name.endswith(suffixes))):
        h.update(b"\0" + str(path.relative_to(folder)).encode("utf-8", "surrogateescape") + b"\0")
        try:
            h.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()


@lru_cache(maxsize=1)
def cairn_digest() -> str:
    """Returns a digest of all of Cairn's own code and data (its modules, schemas and
    grammar) and the versions of the libraries whose messages reach a user: a result kept
    under it is never read back by a changed Cairn."""
    from importlib.util import find_spec
    from .root import data_root
    parts = [sys.version, folder_digest(Path(__file__).resolve().parents[1], suffixes=(".py",))]
    for sub in ("schemas", "grammar"):
        where = data_root() / sub
        parts.append(folder_digest(where) if where.is_dir() else f"no {sub}")
    for lib in ("lark", "yaml", "jsonschema", "fastjsonschema", "referencing"):
        # Where each library is and when it was installed (reading versions through
        # importlib.metadata costs more than the rest of this together).
        try:
            origin = find_spec(lib).origin or ""
            st = os.stat(origin)
            parts.append(f"{lib}:{origin}:{st.st_mtime_ns}:{st.st_size}")
        except (AttributeError, ImportError, OSError, ValueError):
            parts.append(f"{lib}:none")
    return digest(*parts)
