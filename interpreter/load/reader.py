"""The one way Cairn reads a file it was given: bounded, and only if it is a regular file.

Every definition, overlay, scenario, terminal hint and rulebook file (and the digests
made of them) is read here, so no path can make Cairn wait forever (a FIFO), read
without end (/dev/zero, a growing file) or fill memory: the file is opened without
blocking, refused unless it is a regular file, and read to at most `limit` + 1 bytes.
A refusal is one FileRefused naming the file and why, never a traceback.
"""
from __future__ import annotations

import os
import stat

MAX_FILE_BYTES = 1_000_000      # a definition file (or overlay, scenario...) is at most 1 MB

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class FileRefused(ValueError):
    """A file Cairn will not read: not a regular file, over the size limit or unreadable.
    `reason` is the part after the file's name (what a Diagnostic at 1:1 says)."""

    def __init__(self, path: str | os.PathLike, reason: str):
        self.path = os.fsdecode(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def size_text(n: int) -> str:
    """Returns a byte count as a person reads it: 50 bytes, 2.1 MB, 1.8 GB (powers of 1000)."""
    if n < 1000:
        return f"{n} byte{'s' if n != 1 else ''}"
    for unit, scale in (("GB", 10 ** 9), ("MB", 10 ** 6), ("kB", 10 ** 3)):
        if n >= scale:
            return f"{n / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"     # pragma: no cover (unreachable)


def over_limit(size: int | None, limit: int) -> str:
    """The reason a file or text too large is refused (its size when it is known)."""
    return f"{size_text(size) if size is not None else 'it'} is over the {size_text(limit)} limit"


def not_regular(mode: int) -> str:
    """The reason a file of this mode is refused."""
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return f"not a regular file ({kind})"


def read_capped(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> bytes:
    """Returns a regular file's bytes, at most `limit` of them; raises FileRefused for
    anything else. The open cannot block (O_NONBLOCK: a FIFO opens at once and is then
    refused by fstat), and what it reads cannot exceed limit + 1 bytes whatever the file
    claims, so a file that grows while read is still refused."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise FileRefused(path, f"cannot read file: {err.strerror or err}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(path, not_regular(st.st_mode))
        if st.st_size > limit:
            raise FileRefused(path, over_limit(st.st_size, limit))
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, limit + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as err:
        raise FileRefused(path, f"cannot read file: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if got > limit:
        raise FileRefused(path, over_limit(None, limit))
    return b"".join(chunks)


def read_text_capped(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> str:
    """Returns a regular file's text (UTF-8, a leading BOM dropped); raises FileRefused,
    naming the line and column of the first byte that is not UTF-8."""
    raw = read_capped(path, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line, column = utf8_position(raw, err.start)
        raise FileRefused(path, f"line {line}, column {column}: not valid UTF-8 (byte 0x{raw[err.start]:02x})") from None


def utf8_position(raw: bytes, offset: int) -> tuple[int, int]:
    """Returns the 1-based (line, column) of byte `offset` (columns count characters)."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, len(raw[line_start:offset].decode("utf-8", "replace")) + 1
