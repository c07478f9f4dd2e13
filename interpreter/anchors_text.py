"""A game's anchors held against the rulebook text files themselves.

The rulebook files are the user's: found with `--rulebook FILE` or in the folder
`$CAIRN_RULEBOOKS` under the name an anchors file gives, read through the capped reader
(a regular file, bounded, UTF-8) and never copied into the project: what is kept of them
is line numbers and digests. Here: finding and reading a rulebook, the digest of a span,
which lines each anchors file accounts for, the digests that no longer match (an edited
or a different file), and `--fix-digests`, which rewrites only those digests' text.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from .anchors import MARK_KINDS, Anchor, AnchorsFile, ClauseIndex, Spans, span_text
from .diagnostics import Diagnostic
from .load.reader import MAX_FILE_BYTES, FileRefused, read_capped, utf8_position

ENV = "CAIRN_RULEBOOKS"
MAX_RULEBOOK_LINES = 100_000


class RulebookProblem(ValueError):
    """A rulebook file that cannot be used: missing, refused by the reader, not text."""


def digest(lines: list[str], spans: Spans) -> str:
    """Returns the digest of the spans' text: each non-blank line with its whitespace runs
    made one space, joined by newlines, SHA-256, the first 8 hex digits (docs/FORMAT.md)."""
    parts = []
    for a, b in spans:
        for n in range(a, b + 1):
            t = " ".join(lines[n - 1].split())
            if t:
                parts.append(t)
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:8]


def read_rulebook(path: Path) -> list[str]:
    """Returns a rulebook file's lines (as str.splitlines makes them); raises
    RulebookProblem naming the file and why it cannot be read as text."""
    try:
        raw = read_capped(path, MAX_FILE_BYTES)
    except FileRefused as err:
        raise RulebookProblem(str(err)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = utf8_position(raw, err.start)
        raise RulebookProblem(f"{path}: line {line}, column {column}: not valid UTF-8 (byte 0x{raw[err.start]:02x})") from None
    if "\0" in text:
        line, column = utf8_position(raw, raw.index(b"\0"))
        raise RulebookProblem(f"{path}: line {line}, column {column}: a NUL byte: not a text file")
    lines = text.splitlines()
    if len(lines) > MAX_RULEBOOK_LINES:
        raise RulebookProblem(f"{path}: {len(lines):,} lines is over the limit of {MAX_RULEBOOK_LINES:,}")
    return lines


def locate(files: list[AnchorsFile], given: list[str], reference: str) -> dict[str, Path | None]:
    """Returns {rulebook name: the file to read, or None when not found} for each anchors
    file. A --rulebook FILE serves the anchors file of its name; one of another name serves
    the reference rulebook's (so a different file given in its place is caught by the
    digests). Otherwise $CAIRN_RULEBOOKS/<name>, when that variable is set and it exists."""
    names = [f.rulebook for f in files]
    out: dict[str, Path | None] = {}
    stray = []
    for g in given:
        name = Path(g).name
        (stray if name not in names or name in out else []).append(g)
        if name in names and name not in out:
            out[name] = Path(g)
    if stray:
        target = reference if reference in names else names[0] if len(names) == 1 else None
        if target is None or target in out or len(stray) > 1:
            wanted = ", ".join(names) or "none (the game has no anchors files)"
            raise RulebookProblem(f"--rulebook {stray[0]}: no anchors file of the game is for a file of that name; "
                                  f"its rulebooks: {wanted}")
        out[target] = Path(stray[0])
    folder = os.environ.get(ENV, "")
    for name in names:
        if name not in out:
            found = Path(folder) / name if folder else None
            out[name] = found if found is not None and os.path.lexists(found) else None
    return out


def where_looked(name: str) -> str:
    """Says where a rulebook was looked for, for the message that it was not found."""
    folder = os.environ.get(ENV, "")
    return (f"not in ${ENV} ({folder})" if folder else f"${ENV} is not set") + \
        f"; give --rulebook FILE or set {ENV} to the folder holding {name}"


@dataclass
class Mismatch:
    """An anchor whose digest is not its lines' digest (or whose lines the file lacks)."""

    anchor: Anchor
    place: str                 # anchors file:line:col of the digest
    actual: str | None         # None: some line is past the end of the rulebook

    def message(self, rulebook: Path, length: int) -> str:
        a = self.anchor
        if self.actual is None:
            return f"{a.label()}: {a.where} past the end of {rulebook} ({length} lines)"
        return (f"{a.label()}: digest {a.digest} does not match {a.where} of {rulebook} (their digest is "
                f"{self.actual}): the rulebook file was edited or is another one; check the anchor, then "
                "`cairn anchors GAME --fix-digests`")


@dataclass
class Check:
    """One anchors file held against its rulebook: what each line is, what is missing."""

    anchors: AnchorsFile
    rulebook: Path
    lines: list[str]
    owners: dict[int, list[Anchor]] = field(default_factory=dict)     # line -> the anchors holding it
    mismatches: list[Mismatch] = field(default_factory=list)
    unanchored: list[str] = field(default_factory=list)               # clauses the rulebook must anchor
    reference: bool = True

    def unaccounted(self) -> list[int]:
        """Returns the non-blank lines no clause or mark holds."""
        return [n for n, t in enumerate(self.lines, 1) if t.strip() and not self.owners.get(n)]

    def counts(self) -> dict[str, int]:
        """Returns the non-blank lines held by clauses and by each mark kind (a line held
        by a clause and a mark counts in both)."""
        out = {k: 0 for k in ("clause",) + MARK_KINDS}
        for n, held in self.owners.items():
            if self.lines[n - 1].strip():
                for kind in {a.kind for a in held}:
                    out[kind] = out.get(kind, 0) + 1
        return {k: v for k, v in out.items() if v}

    def failed(self) -> bool:
        return bool(self.unaccounted() or self.mismatches or (self.reference and self.unanchored))

    def diagnostics(self) -> list[Diagnostic]:
        """Returns each mismatch as one diagnostic at the digest's place."""
        out = []
        for m in self.mismatches:
            file, line, column = m.place.rsplit(":", 2)
            out.append(Diagnostic(file, int(line), int(column), m.message(self.rulebook, len(self.lines))))
        return out


def check(anchors: AnchorsFile, rulebook: Path, index: ClauseIndex) -> Check:
    """Returns one anchors file held against its rulebook file (RulebookProblem when the
    file cannot be read)."""
    lines = read_rulebook(rulebook)
    out = Check(anchors, rulebook, lines, reference=anchors.rulebook == index.reference)
    for a in anchors.anchors:
        past = any(b > len(lines) for _a, b in a.spans)
        actual = None if past else digest(lines, a.spans)
        if actual != a.digest:
            pos = anchors.loaded.pos(a.path)
            out.mismatches.append(Mismatch(a, f"{anchors.file}:{pos.line}:{pos.column}", actual))
        for lo, hi in a.spans:
            for n in range(lo, min(hi, len(lines)) + 1):
                out.owners.setdefault(n, []).append(a)
    held = anchors.clause_anchors()
    out.unanchored = [cid for cid in index.required() if cid not in held]
    return out


def fix_digests(c: Check) -> int:
    """Rewrites, in the anchors file's text, each digest that does not match its lines
    (within the file) with the right one, leaving every other character as it was
    (comments, layout, quotes). Returns how many were rewritten."""
    from .load.reader import read_text_capped
    path = c.anchors.path
    text = read_text_capped(path)
    rows = text.split("\n")
    fixed = 0
    for m in c.mismatches:
        if m.actual is None:
            continue
        pos = c.anchors.loaded.pos(m.anchor.path)
        row = rows[pos.line - 1]
        start = pos.column - 1
        old = m.anchor.digest
        for quote in ("", '"', "'"):
            written = f"{quote}{old}{quote}"
            end = start + len(written)
            if row[start:end] == written and (quote or _plain_ends(row, end)):
                new = f"{quote}{m.actual}{quote}" if quote else _yaml_digest(m.actual)
                rows[pos.line - 1] = row[:start] + new + row[end:]
                break
        else:
            raise RulebookProblem(f"{c.anchors.file}:{pos.line}:{pos.column}: the digest is not written as "
                                  f"{old} there; fix it by hand")
        fixed += 1
    if fixed:
        path.write_text("\n".join(rows), "utf-8")
    return fixed


def _plain_ends(row: str, end: int) -> bool:
    """Whether a plain scalar ends at `end` (the rest of the row is a separator or comment)."""
    rest = row[end:]
    return not rest or rest[0] in " ,}]#\t\r"


def _yaml_digest(value: str) -> str:
    """Returns a digest as plain YAML text when Cairn's loader reads it back as that text,
    else quoted (digits only read as a number; 1e5... as a float)."""
    from .load.yaml_safe import _resolve     # the loader's own reading of a plain scalar
    kind, _v = _resolve(value)
    return value if kind == "str" else f'"{value}"'


def summary_of(checks: list[Check]) -> dict:
    """Returns the checks as plain data for --json: numbers and line numbers only (the
    rulebook's text stays out of anything that may be saved)."""
    return {"rulebooks": [{
        "rulebook": c.anchors.rulebook, "anchors": c.anchors.file, "reference": c.reference,
        "lines": len(c.lines), "non_blank": sum(1 for t in c.lines if t.strip()),
        "counts": c.counts(), "clauses_anchored": len(c.anchors.clause_anchors()),
        "unaccounted": c.unaccounted(), "unanchored": c.unanchored,
        "digest_mismatches": [{"where": m.place, "entry": m.anchor.label(), "lines": m.anchor.lines,
                               "digest": m.anchor.digest, "actual": m.actual} for m in c.mismatches],
        "ok": not c.failed()} for c in checks]}


def spans_of(lines: list[str], spans: Spans) -> list[tuple[int, str]]:
    """Returns the numbered lines of spans that the file has (for a page read beside it)."""
    return [(n, lines[n - 1]) for a, b in spans for n in range(a, min(b, len(lines)) + 1)]




@dataclass
class RulebookView:
    """Where the clauses stand in a game's rulebooks, for the pages read beside them.
    `places`: {clause id: one dict per rulebook anchoring it (first the primary one: the
    one --rulebook names, else the reference), {rulebook, lines, where (anchors file:line),
    spans, digest_ok (None when the file was not found), text (numbered lines read now
    from the user's file, [] when not found)}}; `marks`: the primary rulebook's marks,
    alike with `kind` and `clause`."""

    primary: str = ""
    found: bool = False
    places: dict[str, list[dict]] = field(default_factory=dict)
    marks: list[dict] = field(default_factory=list)


def view(files: list[AnchorsFile], index: ClauseIndex, given: list[str]) -> RulebookView:
    """Returns the RulebookView of a game's anchors files (RulebookProblem when a rulebook
    file given or found cannot be read)."""
    where = locate(files, given, index.reference)
    named = {Path(g).name for g in given}
    primary = (next((f.rulebook for f in files if f.rulebook in named), "") or
               (index.reference if given or any(f.rulebook == index.reference for f in files) else files[0].rulebook))
    out = RulebookView(primary)
    for f in sorted(files, key=lambda f: f.rulebook != primary):
        path = where[f.rulebook]
        c = check(f, path, index) if path is not None else None
        out.found = out.found or (c is not None and f.rulebook == primary)
        wrong = {id(m.anchor) for m in c.mismatches} if c else set()
        for a in f.anchors:
            place = {"rulebook": f.rulebook, "lines": a.lines, "where": f.place(a), "spans": a.spans,
                     "digest_ok": None if c is None else id(a) not in wrong,
                     "text": spans_of(c.lines, a.spans) if c else [], "kind": a.kind, "clause": a.clause}
            if a.kind == "clause" and a.clause is not None:
                out.places.setdefault(a.clause, []).append(place)
            elif f.rulebook == primary:
                out.marks.append(place)
    return out


__all__ = ["Check", "ENV", "Mismatch", "RulebookView", "RulebookProblem", "check", "digest", "fix_digests", "locate",
           "read_rulebook", "span_text", "spans_of", "summary_of", "view", "where_looked"]
