"""Where each clause stands in the rulebook: a game's anchors files (`anchors/*.yaml`).

One anchors file per rulebook text file ties the ids of the clause index to line spans of
that file, and marks the lines that carry no clause (a title, a heading, an example...),
each span with a digest of its text. The rulebook file is the user's and never in the
project: only line numbers and digests are. This module reads and checks the files on
their own (schema, clause ids, spans, names); anchors_text.py holds them against a
rulebook file. Every problem is a Diagnostic at its file:line:col.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, suggest
from .load.files import display_path, read_part
from .load.yaml_safe import Loaded

FOLDER = "anchors"
MARK_KINDS = ("title", "contents", "heading", "example", "flavour", "picture", "credits", "advice",
              "cross-reference")
MAX_LINE = 1_000_000            # a line number past any rulebook the reader would read
_SPAN = re.compile(r"([0-9]+)(?:-([0-9]+))?")
_DIGEST = re.compile(r"[0-9a-f]{8}")

Spans = list[tuple[int, int]]


@dataclass
class Anchor:
    """One entry of an anchors file: a clause's span, or a mark (`kind` is then its kind)."""

    kind: str                  # "clause", or a mark kind
    clause: str | None         # the clause anchored, or the clause a mark illustrates
    spans: Spans
    digest: str
    path: tuple                # where in the YAML file (for diagnostics and --fix-digests)

    @property
    def lines(self) -> str:
        """Returns the spans as the file writes them ("12-14, 20")."""
        return span_text(self.spans)

    @property
    def where(self) -> str:
        """Returns "line 7" or "lines 12-14" (how a message names the spans)."""
        return f"line {self.lines}" if len(self.spans) == 1 and self.spans[0][0] == self.spans[0][1] else f"lines {self.lines}"

    def label(self) -> str:
        """Returns how a message names the entry."""
        return f"clause '{self.clause}'" if self.kind == "clause" else f"mark {self.kind} ({self.where})"


@dataclass
class AnchorsFile:
    """One anchors file, read and checked: its rulebook's name and its entries."""

    path: Path
    loaded: Loaded
    rulebook: str
    anchors: list[Anchor] = field(default_factory=list)

    @property
    def file(self) -> str:
        return self.loaded.file

    def clause_anchors(self) -> dict[str, Anchor]:
        """Returns {clause id: its anchor}."""
        return {a.clause: a for a in self.anchors if a.kind == "clause" and a.clause is not None}

    def place(self, anchor: Anchor) -> str:
        """Returns file:line of an entry (where a message sends the reader)."""
        return f"{self.file}:{self.loaded.pos(anchor.path).line}"


@dataclass
class ClauseIndex:
    """The clause ids an anchors file may name, in the index's order, with where each comes
    from: "rulebook" (rules.yaml, or an overlay whose provenance is the rulebook), or the
    overlay and its provenance kind otherwise ("invented: firekeepers")."""

    origin: dict[str, str] = field(default_factory=dict)
    reference: str = ""        # the rulebook file rules.yaml indexes (its bare name)

    def required(self) -> list[str]:
        """Returns the clauses the reference rulebook must anchor: the rulebook's own."""
        return [c for c, o in self.origin.items() if o == "rulebook"]


def span_text(spans: Spans) -> str:
    """Returns spans written as in an anchors file: "7", "12-14", "40-41, 45"."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def parse_lines(value: object) -> Spans | str:
    """Returns the spans of a `lines:` value, or why it is not one: 1-based line numbers
    and inclusive ranges separated by ", ", ascending and not overlapping."""
    text = str(value) if type(value) is int else value
    if not isinstance(text, str) or not text.strip():
        return "lines: give line numbers and ranges as text, e.g. \"12-14, 20\""
    spans: Spans = []
    for part in text.split(","):
        m = _SPAN.fullmatch(part.strip())
        if m is None:
            return f"lines: '{part.strip()}' is neither a line number nor a range such as 12-14"
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if a < 1 or b > MAX_LINE:
            return f"lines: {part.strip()} is not a line of a rulebook (lines count from 1)"
        if b < a:
            return f"lines: the range {a}-{b} runs backwards; write {b}-{a}"
        if spans and a <= spans[-1][1]:
            return f"lines: {part.strip()} comes after {span_text(spans[-1:])}: write the spans in ascending order, " \
                   "without overlap"
        spans.append((a, b))
    return spans


def anchor_paths(folder: Path) -> list[Path]:
    """Returns a game's anchors files (none: the game ties no clause to a rulebook's lines)."""
    where = folder / FOLDER
    return sorted(where.glob("*.yaml")) if where.is_dir() else []


def clause_index(folder: Path, variants: list[str] = ()) -> tuple[ClauseIndex, list[Diagnostic]]:
    """Returns the clause ids an anchors file may name: rules.yaml's, and those the game's
    overlays (and the overlays given as --variant) add, each with its origin."""
    from .load.build import overlay_files
    from .load.spec import read_spec
    spec, diags = read_spec(folder)
    overlay_files(spec, list(variants), diags)
    index = ClauseIndex({cid: "rulebook" for cid in spec.sections["clauses"]}, spec.rulebook)
    for vid, (loaded, _path) in spec.variants.items():
        head = loaded.data.get("variant", {})
        kind = str((head.get("provenance") or {}).get("kind", "")) if isinstance(head, dict) else ""
        added = (loaded.data.get("add") or {}).get("clauses") or []
        for item in added:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                index.origin.setdefault(item["id"], "rulebook" if kind == "rulebook" else f"{kind or 'no provenance'}: {vid}")
    return index, diags


def read_anchors(folder: Path, index: ClauseIndex) -> tuple[list[AnchorsFile], list[Diagnostic]]:
    """Returns a game's anchors files that read without problems, and every problem found."""
    files, problems = [], []
    for path in anchor_paths(folder):
        loaded, found = read_part(path, display_path(path), "anchors")
        problems.extend(found)
        if loaded is None:
            continue
        one, found = _checked(path, loaded, index)
        problems.extend(found)
        if not found:
            files.append(one)
    return files, problems


def _checked(path: Path, loaded: Loaded, index: ClauseIndex) -> tuple[AnchorsFile, list[Diagnostic]]:
    """Returns one schema-valid anchors file as entries, and what is wrong with it."""
    data = loaded.data
    out = AnchorsFile(path, loaded, data["rulebook"])
    problems = _name_problems(path, loaded, data["rulebook"])
    for cid, entry in (data.get("clauses") or {}).items():
        at = ("clauses", cid)
        if cid not in index.origin:
            problems.append(loaded.diag(at, f"no clause '{cid}' in rules.yaml or an overlay's clauses"
                                        + suggest(cid, index.origin), at_key=True))
        elif index.origin[cid] != "rulebook":
            problems.append(loaded.diag(at, f"clause '{cid}' is not the rulebook's ({index.origin[cid]}): "
                                        "the rulebook has no lines for it", at_key=True))
        out.anchors.append(_entry(loaded, at, "clause", cid, entry, problems))
    for i, entry in enumerate(data.get("marks") or []):
        at = ("marks", i)
        cid = entry.get("clause")
        if cid is not None and cid not in index.origin:
            problems.append(loaded.diag(at + ("clause",), f"no clause '{cid}' in rules.yaml or an overlay's clauses"
                                        + suggest(cid, index.origin)))
        out.anchors.append(_entry(loaded, at, entry["kind"], cid, entry, problems))
    return out, problems


def _entry(loaded: Loaded, at: tuple, kind: str, cid: str | None, entry: dict,
           problems: list[Diagnostic]) -> Anchor:
    """Returns one entry as an Anchor; its malformed spans or digest become problems."""
    spans = parse_lines(entry["lines"])
    if isinstance(spans, str):
        problems.append(loaded.diag(at + ("lines",), spans))
        spans = []
    digest = entry["digest"]
    if not isinstance(digest, str):     # 12345678 or 0e123456 unquoted: a number, as YAML reads it
        digest = _written(loaded, at + ("digest",)) or repr(digest)
    if not _DIGEST.fullmatch(digest):
        problems.append(loaded.diag(at + ("digest",), f"digest: '{digest}' is not 8 lowercase hex digits "
                                    "(the start of the SHA-256 of the lines' text)"))
        digest = ""
    return Anchor(kind, cid, spans, digest, at + ("digest",))


def _written(loaded: Loaded, path: tuple) -> str:
    """Returns a plain scalar as it is written in the file (a digest of digits, or digits
    and one e, is a number to YAML: the digest is what was typed)."""
    pos = loaded.pos(path)
    if not 0 < pos.line <= len(loaded._lines):
        return ""
    return re.split(r"[\s,}\]#]", loaded._lines[pos.line - 1][pos.column - 1:], maxsplit=1)[0]


def _name_problems(path: Path, loaded: Loaded, rulebook: str) -> list[Diagnostic]:
    """The rulebook is named by its bare file name, and the anchors file after it."""
    if "/" in rulebook or "\\" in rulebook or rulebook in (".", "..") or not rulebook.endswith(".txt"):
        return [loaded.diag(("rulebook",), f"rulebook: '{rulebook}' is not the bare name of a text file "
                            "(e.g. my-game.en.txt); it is found with --rulebook FILE or $CAIRN_RULEBOOKS")]
    if path.name != rulebook[:-len(".txt")] + ".yaml":
        return [loaded.diag(("rulebook",), f"the anchors of {rulebook} belong in {FOLDER}/{rulebook[:-4]}.yaml, "
                            f"not {path.name}")]
    return []


def problems(folder: Path, variants: list[str] = ()) -> list[Diagnostic]:
    """Returns what is wrong with a game's anchors files on their own (no rulebook read):
    what `cairn validate` reports. A game without anchors files has none."""
    if not anchor_paths(folder):
        return []
    index, _diags = clause_index(folder, list(variants))     # the build reports these
    return read_anchors(folder, index)[1]
