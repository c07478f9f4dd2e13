"""Which folders and files Cairn's cache may trust, and the secret its entries are sealed with.

A cache entry becomes live objects (a pickle, marshalled code): whoever can write one can
run code as the user who loads it. So a folder is only used when no one else can change
what is in it: it and every folder above it belong to the user (or to root), and none of
them can be written by others, except a folder with the sticky bit (as /tmp), where no
one can remove or rename what is not theirs. A file is only read when it is a regular
file of its owner's (never a link, a FIFO or a device) and no larger than asked; it is
inspected with fstat on the descriptor that is read, so it cannot be changed in between.

The checks of the folder are not the only guard: each entry is also sealed (cache.py)
with an HMAC under a secret that only this user can read, kept in the folder itself.
"""
from __future__ import annotations

import os
import secrets
import stat
import sys
from pathlib import Path

MARK = b"cairn-cache-1\n"                   # what every sealed cache entry starts with
HEADER = len(MARK) + 32                       # the mark and the HMAC-SHA256 of name and payload
MAX_ENTRY = 64 * 2**20                        # an entry larger than this is not read

SECRET = ".secret"          # the key the cache's entries are sealed with (no entry's name starts with ".")
SECRET_BYTES = 32
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0))
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_TOLD: set[tuple[str, str]] = set()      # refusals already told this process (once each)


def me() -> int | None:
    """Returns this process's user id, or None where there is none (Windows: not checked)."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def _who(uid: int) -> str:
    try:
        import pwd
        return f"user {pwd.getpwuid(uid).pw_name!r} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _writable_by_others(mode: int) -> bool:
    return bool(mode & (stat.S_IWGRP | stat.S_IWOTH))


def folder_problem(folder: Path, owners: frozenset[int]) -> str | None:
    """Returns why a folder cannot be trusted with what runs as this user, or None: it (or
    what a link to it points at) must be a folder one of `owners` owns that no one else can
    write to, below folders root or those owners own where only a sticky one (as /tmp)
    may be writable by others. A sticky folder's other users cannot rename ours away."""
    if me() is None:
        return None
    given = Path(os.path.abspath(folder))
    real = Path(os.path.realpath(given))
    try:
        if given.is_symlink() and os.lstat(given).st_uid not in owners | {0}:
            return f"it is a link made by {_who(os.lstat(given).st_uid)}"
        st = os.stat(real)
    except OSError as err:
        return f"it cannot be looked at ({err.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    if st.st_uid not in owners:
        return f"it belongs to {_who(st.st_uid)}, not to you ({_who(me())})"
    if _writable_by_others(st.st_mode):
        return f"other users can write to it (mode {stat.S_IMODE(st.st_mode):04o})"
    for parent in dict.fromkeys([*given.parents, *real.parents]):
        try:
            pst = os.stat(parent)
        except OSError as err:
            return f"its parent {parent} cannot be looked at ({err.strerror})"
        if pst.st_uid not in owners | {0}:
            return f"its parent {parent} belongs to {_who(pst.st_uid)}, who could replace it"
        if _writable_by_others(pst.st_mode) and not pst.st_mode & stat.S_ISVTX:
            return (f"other users can write to its parent {parent} (mode {stat.S_IMODE(pst.st_mode):04o}, "
                    f"no sticky bit) and so replace it")
    return None


def tell_refused(what: str, folder: Path, why: str, fix: str) -> None:
    """Writes, once a process, why a folder is not used (to stderr: the cache sits below
    every command, the web server and library callers alike, and a refusal no one sees
    would leave a user wondering why every run is slow)."""
    key = (what, str(folder))
    if key in _TOLD:
        return
    _TOLD.add(key)
    sys.stderr.write(f"cairn: not using the {what} {folder}: {why}. Cairn goes on without it. {fix}\n")


def read_regular(path: Path, max_bytes: int, owners: frozenset[int] | None, *,
                 follow: bool = False, private: bool = False) -> bytes | str:
    """Returns a file's bytes, or why it was not read: missing, not a regular file (never
    opened when a look at it shows a FIFO, a device or a folder; a link is refused unless
    `follow`), owned by no one of `owners` (None: anyone), writable by others (with
    `private`, readable by others too), or larger than `max_bytes`."""
    try:
        seen = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        return "missing"
    except OSError as err:
        return f"cannot be looked at ({err.strerror})"
    if not stat.S_ISREG(seen.st_mode):
        return "not a regular file"
    try:
        fd = os.open(path, _READ_FLAGS | (0 if follow else _NOFOLLOW))
    except OSError as err:
        return f"cannot be opened ({err.strerror})"
    with open(fd, "rb", closefd=True) as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (seen.st_dev, seen.st_ino):
            return "not a regular file"
        problem = _owner_problem(st, owners, private)
        if problem:
            return problem
        if st.st_size > max_bytes:
            return f"larger than {max_bytes} bytes"
        data = f.read(st.st_size + 1)             # no buffer of max_bytes for a small file
        if len(data) > st.st_size:                 # grown meanwhile: read on, to the cap
            data += f.read(max_bytes + 1 - len(data))
    return data if len(data) <= max_bytes else f"larger than {max_bytes} bytes"


def _owner_problem(st: os.stat_result, owners: frozenset[int] | None, private: bool) -> str | None:
    if me() is None or owners is None:
        return None
    if st.st_uid not in owners:
        return f"owned by {_who(st.st_uid)}"
    if st.st_mode & (0o077 if private else 0o022):
        return f"mode {stat.S_IMODE(st.st_mode):04o}"
    return None


def secret_of(base: Path) -> bytes | None:
    """Returns the cache folder's secret, made if it is missing or cannot be trusted (not
    this user's, not 0600, not 32 bytes): a new secret makes every entry sealed with the
    old one a miss, which is what an entry nobody can vouch for should be. Made under a
    name of its own (O_CREAT|O_EXCL, 0600) and linked into place, so two processes
    starting together agree on one. None when the folder takes no file."""
    owners = frozenset({me()}) if me() is not None else None
    path = base / SECRET
    for _ in range(3):
        got = read_regular(path, SECRET_BYTES, owners, private=True)
        if isinstance(got, bytes) and len(got) == SECRET_BYTES:
            return got
        if got != "missing":
            _unlink(path)
        made = _make_secret(base, path)
        if made is not None:
            return made
    return None


def _make_secret(base: Path, path: Path) -> bytes | None:
    """Returns a new secret written to `path`, or None if another process put one there first."""
    key = secrets.token_bytes(SECRET_BYTES)
    tmp = base / f"{SECRET}-{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
        with open(fd, "wb", closefd=True) as f:
            f.write(key)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return None         # another process's secret: read it on the next round
        except OSError:         # a file system without hard links: put it in place
            os.replace(tmp, path)
        return key
    except OSError:
        return None
    finally:
        _unlink(tmp)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
