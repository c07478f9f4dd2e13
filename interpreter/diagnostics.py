"""Problems found while loading or checking definitions, as values with a location.

Errors are collected and reported together (file:line:col: message) rather than raised
one at a time, so a modder sees every mistake in one run. What a diagnostic echoes of
the input (a value, a key, an effect's text, a path) is cut to a short excerpt here,
once for every message, and a report shows a bounded number per file: a hostile or
broken file gives a readable report, never a line of a megabyte.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import difflib
import re
from collections import Counter
from typing import Iterable, Sequence

EXCERPT = 80            # characters of one echoed value kept in a message
MAX_MESSAGE = 240       # characters of a whole message (a line stays under ~300 with its place)
MAX_FILE_NAME = 200     # characters of the file a diagnostic names
PER_FILE = 20           # diagnostics shown per file in a report, then "and K more"
PER_REPORT = 100        # diagnostics shown in a whole report

# a quoted value (quotes kept) or a run without spaces longer than an excerpt
_LONG = re.compile(r"(['\"])([^'\"\n]{%d,})\1|\S{%d,}" % (EXCERPT + 1, EXCERPT + 1))
_SUGGESTION = re.compile(r" \(did you mean '[^']*'\?\)")
_CONTROL = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")      # written as escapes (one line each)


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """Returns a value as one line of text of at most about `limit` characters: line breaks
    and other control characters written as escapes, and when it is longer, its start, "…"
    and its whole length."""
    text = value if isinstance(value, str) else repr(value)
    head = text[:limit]
    if _CONTROL.search(head):
        head = _CONTROL.sub(lambda m: repr(m.group(0))[1:-1], head)
    return head if len(text) <= limit else f"{head}… ({len(text):,} characters)"


def short_message(message: str, own: str = "") -> str:
    """Returns a message with every long quoted value and long word cut to an excerpt, and
    the whole cut to MAX_MESSAGE characters. A path within `own` (the file the diagnostic
    is at, or its folder: a command to run on it) is the user's own, already shown in full
    before the message: it is kept whole and not counted."""
    if len(message) <= MAX_MESSAGE:
        return message

    def owned(word: str) -> bool:
        path = word.strip("`'\"(),;:")
        return bool(own) and "/" in path and len(path) <= MAX_FILE_NAME and path in own
    kept = sum(len(w) for w in message.split() if owned(w))
    out = _LONG.sub(lambda m: m.group(1) + excerpt(m.group(2)) + m.group(1) if m.group(1)
                    else m.group(0) if owned(m.group(0)) else excerpt(m.group(0)), message)
    return excerpt(out, MAX_MESSAGE + kept)


def short_lines(text: str, limit: int = MAX_MESSAGE) -> str:
    """Returns a message of several lines (a usage error, a record's problem) with each
    line cut like a diagnostic's message, and at most 40 of them."""
    lines = text.splitlines() or [""]
    out = [short_message(line) if len(line) > limit else line for line in lines[:40]]
    return "\n".join(out + ([f"… and {len(lines) - 40} more lines"] if len(lines) > 40 else []))


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem at one place in a definition file."""

    file: str
    line: int
    column: int
    message: str
    severity: str = field(default="error", compare=False)

    def __post_init__(self) -> None:
        # The one place every message is made short: each echoed value becomes an excerpt.
        if len(self.message) > MAX_MESSAGE:
            object.__setattr__(self, "message", short_message(self.message, self.file))
        if len(self.file) > MAX_FILE_NAME:
            object.__setattr__(self, "file", excerpt(self.file, MAX_FILE_NAME))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"

    def as_json(self) -> dict[str, object]:
        """Returns the JSON shape the validator's --format json prints."""
        return {"file": self.file, "line": self.line, "column": self.column,
                "message": self.message}


def bounded(diagnostics: Sequence[Diagnostic], per_file: int = PER_FILE,
            total: int = PER_REPORT) -> list[Diagnostic]:
    """Returns the diagnostics a report shows: at most `per_file` of each file and `total`
    in all, in their order; where some are left out, one more diagnostic (at the first
    left out) says how many. One broken file cannot bury the others, or the terminal."""
    shown: list[Diagnostic] = []
    seen: Counter[str] = Counter()
    left: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if seen[d.file] < per_file and len(shown) < total:
            seen[d.file] += 1
            shown.append(d)
        else:
            left.setdefault(d.file, []).append(d)
    for file, rest in left.items():
        first = rest[0]
        shown.append(Diagnostic(file, first.line, first.column,
                                f"and {len(rest)} more problem{'s' if len(rest) != 1 else ''} in this file"))
    return shown


def blame_removals(diagnostics: Sequence[Diagnostic],
                   removals: Sequence[tuple[tuple[str, ...], Diagnostic]]) -> list[Diagnostic]:
    """Returns the diagnostics with those an overlay's removal caused put on the removal.
    A removal is (the names it took away, a diagnostic at the overlay's line whose message
    says what was removed). A problem elsewhere that names one of them in quotes (a
    suggestion aside) is the removal's doing: it becomes one diagnostic at the overlay's
    line naming the first such place and how many more, so the overlay is blamed, once."""
    if not removals:
        return list(diagnostics)
    caused: dict[int, list[Diagnostic]] = {}
    kept: list[Diagnostic] = []
    for d in diagnostics:
        text = _SUGGESTION.sub("", d.message)
        hit = next((i for i, (names, at) in enumerate(removals)
                    if at.file != d.file and any(f"'{n}'" in text for n in names)), None)
        if hit is None:
            kept.append(d)
        else:
            caused.setdefault(hit, []).append(d)
    for i, found in caused.items():
        at = removals[i][1]
        more = len(set(found)) - 1
        kept.append(Diagnostic(at.file, at.line, at.column,
                               f"removing {at.message} breaks {min(found)}"
                               + (f" (and {more} more place{'s' if more != 1 else ''})" if more else "")))
    return kept


def blame_overlays(diagnostics: Sequence[Diagnostic], base_files: set[str],
                   overlays: Sequence[tuple[str, Diagnostic]]) -> list[Diagnostic]:
    """Returns the diagnostics with those in the base game's files put on the overlays, as
    one diagnostic at the first overlay's id naming the first place and how many more.
    The caller passes only problems the base alone does not have, so a problem in a base
    file is the overlays' doing (a replaced procedure that takes other parameters, say).
    `overlays`: (id, a diagnostic at its `variant: id`) for each overlay applied."""
    caused = sorted({d for d in diagnostics if d.file in base_files})
    if not overlays or not caused:
        return list(diagnostics)
    ids = [vid for vid, _at in overlays]
    who = f"variant '{ids[0]}' breaks" if len(ids) == 1 else \
        "variants " + ", ".join(f"'{v}'" for v in ids[:-1]) + f" and '{ids[-1]}' together break"
    at, more = overlays[0][1], len(caused) - 1
    return [d for d in diagnostics if d.file not in base_files] + [Diagnostic(
        at.file, at.line, at.column, f"{who} the base game: {min(caused)}"
        + (f" (and {more} more place{'s' if more != 1 else ''})" if more else ""))]


class DefinitionError(Exception):
    """Raised when loading cannot go on; carries every diagnostic found so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = sorted(diagnostics)
        super().__init__("\n".join(str(d) for d in bounded(self.diagnostics)))


def suggest(name: str, known: Iterable[str]) -> str:
    """Returns " (did you mean 'x'?)" for the nearest known name, or ""."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
