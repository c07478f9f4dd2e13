"""Where Cairn keeps what it derives from text, so a fresh process does not derive it
again: its own grammar's parser tables and compiled schema checks, and the pure
functions of a definition's text that loading costs most (a YAML file read into data
with positions, a game's effect texts parsed into syntax trees, which files passed their
schema, a board's neighbours, and `cairn validate`'s verdict on a whole game folder).

Every entry is named by a digest of all it depends on: the text itself and the source of
the code that derives it (and that code's library versions). An entry can therefore only
be missing, never stale: an edited file or a changed loader is simply a new name. Past
LIMIT bytes the entries used longest ago go. `CAIRN_CACHE=off` turns it off;
`CAIRN_CACHE=DIR` moves it.

An entry may hold a pickle or marshalled code, which run code when read, so nothing in the
cache is taken on trust (cache_trust.py). A folder someone else could write to (owned by
another user, writable by group or others, or below such a folder) is refused with one
message and play goes on without a cache; the folder Cairn makes is 0700, its entries
0600. Each entry is sealed: HEADER is a mark and an HMAC-SHA256, under a secret only this
user can read, of the entry's name and bytes, checked before anything is unpickled or
unmarshalled. A replaced, swapped (one entry's bytes under another's name), foreign
(another cache's), truncated or corrupted entry fails the check, is removed and built
again. Plain data (a board's neighbours, validate's verdict) is kept as JSON, which
cannot run code even if read.
"""
from __future__ import annotations

import gc
import hashlib
import hmac
import json
import marshal
import os
import pickle
import re
import stat
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any, Callable

from . import cache_trust
from .cache_trust import HEADER, MARK, MAX_ENTRY, SECRET, folder_problem, read_regular, secret_of, tell_refused
from .reader import MAX_FILE_BYTES

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    """Returns the cache folder (created 0700 if need be), or None when there is none to use:
    off, not creatable, or one that others could write to (refused, said once on stderr)."""
    chosen = os.environ.get("CAIRN_CACHE")
    if chosen == "off":
        return None
    if chosen:
        base = Path(os.path.abspath(chosen))
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) / "cairn" if xdg else Path.home() / ".cache" / "cairn"
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    mine = cache_trust.me()
    why = folder_problem(base, frozenset({mine}) if mine is not None else frozenset())
    if why is not None:
        tell_refused("cache folder", base, why,
                     f"Make it a folder only you can write (chmod 700 {base}) or choose another "
                     f"with CAIRN_CACHE=DIR (CAIRN_CACHE=off turns the cache off).")
        return None
    if not chosen:
        _tighten(base)
    key = secret_of(base)
    if key is None:
        tell_refused("cache folder", base, f"its secret ({base / SECRET}) can be neither read nor made",
                     f"Remove {base / SECRET} or choose another folder with CAIRN_CACHE=DIR.")
        return None
    _SECRETS[base] = key
    return base


_SECRETS: dict[Path, bytes] = {}      # cache folder -> the secret its entries are sealed with


def _tighten(base: Path) -> None:
    """Makes Cairn's own default folder 0700 (earlier versions made it 0755: readable by
    others, though writable by no one else, so it passed the checks above)."""
    try:
        if stat.S_IMODE(os.stat(base).st_mode) & 0o077:
            os.chmod(base, 0o700)
    except OSError:
        pass


def _key(base: Path) -> bytes | None:
    key = _SECRETS.get(base)
    if key is None:
        key = secret_of(base)
        if key is not None:
            _SECRETS[base] = key
    return key


def seal(key: bytes, name: str, payload: bytes | memoryview) -> bytes:
    """Returns the HMAC-SHA256 binding an entry's bytes to its name."""
    h = hmac.new(key, name.encode("ascii"), "sha256")
    h.update(b"\0")
    h.update(payload)
    return h.digest()


def digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:20]


LIMIT = 256 * 2**20     # bytes the cache may hold; past it, the entries used longest ago go
_STORED = 0             # entries this process wrote (it looks at the cache's size now and then)


def read_bytes(name: str, base: Path | None = None) -> bytes | None:
    """Returns an entry's bytes once its seal is checked (and marks it used), or None; an
    entry that fails the check is removed. An entry the cache lacks may come from the
    seed a wheel ships (seed.py). `base`: the cache folder to read (default: the current
    one)."""
    base = base or cache_dir()
    if base is None or not _NAME.fullmatch(name):
        return None
    key = _key(base)
    mine = cache_trust.me()
    got = read_regular(base / name, MAX_ENTRY, frozenset({mine}) if mine is not None else None)
    if isinstance(got, bytes):
        payload = unseal(got, name, key)
        if payload is not None:
            _touch(base / name)
            return payload
    if got != "missing":
        _drop(base / name)
    from .seed import seeded
    return seeded(name)


def unseal(data: bytes, name: str, key: bytes | None) -> bytes | None:
    """Returns an entry's payload when its seal is the one `key` gives it under `name`."""
    if key is None or len(data) < HEADER or not data.startswith(MARK):
        return None
    payload = memoryview(data)[HEADER:]
    if not hmac.compare_digest(data[len(MARK):HEADER], seal(key, name, payload)):
        return None
    return data[HEADER:]


def _touch(path: Path) -> None:
    try:
        os.utime(path, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass


def _drop(path: Path) -> None:
    """Removes an entry that failed its check (it is built again and written anew)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def prune(base: Path, limit: int = LIMIT) -> None:
    """Keeps the cache under `limit` bytes: an edited game leaves entries no one will read
    again (and every test's copy of a game its own), so when the cache has grown past the
    limit, the entries used longest ago are removed until it holds three quarters of it.
    The secret stays (without it every entry would be a miss)."""
    entries = []
    try:
        for path in base.iterdir():
            if path.name == SECRET:
                continue
            try:
                st = path.lstat()
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
    """Writes an entry, sealed, atomically (another process may be reading or writing it
    too) and 0600, into the cache folder, or into `base` (the folder that was the cache
    when it was read)."""
    base = base or cache_dir()
    if base is None or not _NAME.fullmatch(name):
        return
    key = _key(base)
    if key is None:
        return
    try:
        with tempfile.NamedTemporaryFile("wb", dir=base, delete=False, suffix=".tmp") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), 0o600)      # mkstemp's mode already; said, not assumed
            f.write(MARK + seal(key, name, data))
            f.write(data)
        os.replace(f.name, base / name)
    except OSError:
        pass


def compiled(name: str, source: Callable[[], str]) -> CodeType:
    """Returns the code object of generated Python source, kept compiled (as a .pyc is):
    `source` is only called when the entry is missing or fails its check."""
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
    """Returns a stored value, or None when there is none or it fails its check (only a
    sealed entry, checked, is unpickled). The collector is paused meanwhile: unpickling
    thousands of small objects otherwise triggers it again and again (five times the cost)."""
    data = read_bytes(name)
    if data is None:
        return None
    paused = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    except Exception:  # written by a Cairn whose classes differ: only a miss
        return None
    finally:
        if paused:
            gc.enable()


def store(name: str, value: Any) -> None:
    """Keeps a value, pickled (written atomically), then keeps the cache under its limit; a
    value that cannot be pickled is not kept."""
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # pragma: no cover - only plain data and syntax trees are stored
        return
    _keep(name, data)


def load_json(name: str) -> Any | None:
    """Returns a value kept as JSON (plain data needs no pickle), or None."""
    data = read_bytes(name)
    if data is None:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def store_json(name: str, value: Any) -> None:
    """Keeps plain data (lists, dicts, text, numbers) as JSON."""
    try:
        data = json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")
    except (TypeError, ValueError):  # pragma: no cover - only plain data is stored
        return
    _keep(name, data)


def _keep(name: str, data: bytes) -> None:
    base = cache_dir()
    if base is None:
        return
    write_bytes(name, data)
    global _STORED
    _STORED += 1
    if _STORED % 200 == 1:      # the first entry a process writes, then every 200th
        prune(base)


def file_digest(path: Path) -> bytes:
    """Returns a digest of a file's bytes, read through the loader's size cap (files.py),
    or of what it is when it is not read: a FIFO, a device or a folder is never opened, a
    file past the cap never read (the loader refuses both; their digest, by kind, size and
    time, still changes when they do)."""
    got = read_regular(path, MAX_FILE_BYTES, None, follow=True)
    if isinstance(got, bytes):
        return hashlib.sha256(got).digest()
    try:
        st = os.stat(path)
        got += f":{st.st_mode:o}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        pass
    return hashlib.sha256(b"not read:" + got.encode("utf-8", "surrogateescape")).digest()


MAX_FOLDER_FILES = 20_000      # files a folder's digest looks at; past it, the rest are counted


def folder_digest(folder: Path, *, suffixes: tuple[str, ...] = ()) -> str:
    """Returns a digest of every file under a folder (names and bytes; only names ending in
    one of `suffixes` when given), so a result derived from the folder is named by it.
    Each file goes through file_digest (capped, no FIFO or device opened); a linked folder
    is walked as the loader's globs walk it, but each folder once (a link to a folder
    above is no endless loop), and past MAX_FOLDER_FILES only the count is added."""
    h = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogateescape"))
    found = _files_under(folder, suffixes)
    for path in found[:MAX_FOLDER_FILES]:
        h.update(b"\0" + str(path.relative_to(folder)).encode("utf-8", "surrogateescape") + b"\0")
        h.update(file_digest(path))
    h.update(b"\0files:%d" % len(found))
    return h.hexdigest()


def _files_under(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """Returns the paths of the non-folders under a folder, sorted, each folder walked once."""
    seen: set[tuple[int, int]] = set()
    found: list[Path] = []
    todo = [folder]
    while todo and len(found) <= MAX_FOLDER_FILES:
        where = todo.pop()
        try:
            st = os.stat(where)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = list(os.scandir(where))
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir()              # a link to a folder too
            except OSError:
                is_dir = False
            if is_dir:
                todo.append(Path(entry.path))
            elif not suffixes or entry.name.endswith(suffixes):
                found.append(Path(entry.path))
    return sorted(found)


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
