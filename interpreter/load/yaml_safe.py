"""Strict, bounded YAML loading that remembers where every value came from.

Definition files are written by modders, so loading must never run code (no tags), never
blow up (no aliases, size/depth/node caps) and never guess (YAML 1.1 `yes`/`no`, `012`,
`12:30`).  Every problem becomes a Diagnostic with file:line:col, and every loaded value
keeps its position so later checks can point at the exact spot too.

The document is built straight from pyyaml's event stream (not `compose`/the constructor):
one pass, no recursion, and limits are enforced before anything large is built.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import math
import os
import re
from typing import Any

import yaml

from interpreter.diagnostics import Diagnostic, DefinitionError
from interpreter.lang.runtime import MAX_INT
from interpreter.load.reader import MAX_FILE_BYTES, FileRefused, over_limit, read_capped, utf8_position

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple[str | int, ...]
_STYLES = {"": "plain", None: "plain", "'": "single", '"': "double", "|": "literal", ">": "folded"}
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what the YAML reader counts as a line break
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_AMBIGUOUS = re.compile(r"(?i)yes|no|on|off")
_NONFINITE = re.compile(r"(?i)[-+]?\.(inf|nan)")
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")
_RADIX_INT = re.compile(r"0x[0-9a-fA-F]+|0o[0-7]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_MAX_ERRORS = 100
_KIND = {"null": "null", "bool": "a boolean", "int": "a number", "float": "a number", "nonfinite": "a number"}


@dataclass(frozen=True)
class Pos:
    """A 1-based line/column in the source file."""

    line: int
    column: int


@dataclass
class Loaded:
    """Plain data plus the position tables needed to report problems at the right spot."""

    file: str
    data: Any
    value_pos: dict[Path, Pos] = field(default_factory=dict)
    key_pos: dict[Path, Pos] = field(default_factory=dict)
    # string scalars: (style, start, indent); style is plain/single/double/literal/folded,
    # start is the first character of the node (quote or `|`/`>` indicator), indent is the
    # block content indent for literal/folded and start.column - 1 otherwise.
    scalar_info: dict[Path, tuple[str, Pos, int]] = field(default_factory=dict)
    _lines: list[str] = field(default_factory=list, repr=False)

    def pos(self, path: Path) -> Pos:
        """Position of the deepest existing prefix of `path`, so a diagnostic about a missing
        entry still points at its parent."""
        for n in range(len(path), -1, -1):
            p = self.value_pos.get(tuple(path[:n]))
            if p is not None:
                return p
        return Pos(1, 1)

    def diag(self, path: Path, message: str, *, at_key: bool = False) -> Diagnostic:
        """A Diagnostic at the value (or, with at_key, the key) of `path`."""
        p = self.key_pos.get(tuple(path)) if at_key else None
        p = p or self.pos(path)
        return Diagnostic(self.file, p.line, p.column, message)

    def locate(self, path: Path, line: int, column: int) -> Pos:
        """Maps a 1-based (line, column) inside the string scalar at `path` to the position in
        the YAML file, so errors in embedded text (expressions, scripts) point into the file.
        Exact for plain and quoted text on its first physical line and for literal blocks;
        folded blocks and later lines of multi-line flow scalars get the scalar's start."""
        info = self.scalar_info.get(tuple(path))
        if info is None:
            return self.pos(path)
        style, start, indent = info
        line, column = max(line, 1), max(column, 1)
        if style == "literal":
            return Pos(start.line + line, indent + column)
        if style == "folded":
            return Pos(start.line + 1, indent + 1)
        if line != 1 or start.line > len(self._lines):
            return start
        raw = self._lines[start.line - 1]
        col0 = start.column - 1
        if style == "plain":
            value = self._value(path)
            n = min(column, len(value))
            exact = value and raw[col0:col0 + n] == value[:n]
            return Pos(start.line, start.column + column - 1) if exact else start
        offsets = _quoted_offsets(raw, col0 + 1, style == "double", column)
        return Pos(start.line, col0 + 2 + offsets) if offsets is not None else start

    def _value(self, path: Path) -> str:
        node = self.data
        try:
            for step in path:
                node = node[step]
        except (KeyError, IndexError, TypeError):
            return ""
        return node if isinstance(node, str) else ""


def _quoted_offsets(raw: str, i: int, double: bool, column: int) -> int | None:
    """Raw offset (from the opening quote + 1) of decoded character `column` on this line,
    undoing '' and backslash escapes; None if the text continues on a later line."""
    begin, n = i, 1
    widths = {"x": 4, "u": 6, "U": 10}
    while i < len(raw):
        if n == column:
            return i - begin
        ch = raw[i]
        if double and ch == "\\" and i + 1 < len(raw):
            i += widths.get(raw[i + 1], 2)
        elif not double and raw.startswith("''", i):
            i += 2
        elif ch == ("\"" if double else "'"):
            return i - begin  # past the end of the text: point at the closing quote
        else:
            i += 1
        n += 1
    return None


def _resolve(text: str) -> tuple[str, Any]:
    """Reads an untagged plain scalar the way a modder expects (roughly the YAML 1.2 core
    schema); returns (kind, value) with kind 'ambiguous'/'nonfinite' for rejected text."""
    if text in _NULL:
        return "null", None
    if text in _BOOL:
        return "bool", _BOOL[text]
    if _AMBIGUOUS.fullmatch(text):
        return "ambiguous", text
    if _NONFINITE.fullmatch(text):
        return "nonfinite", text
    if _LEADING_ZERO.fullmatch(text):
        return "str", text  # 012 is octal 10 in YAML 1.1: keep what was typed
    if _INT.fullmatch(text) or _RADIX_INT.fullmatch(text):
        if len(text) > 40:
            return "huge", text
        value = int(text, 0) if _RADIX_INT.fullmatch(text) else int(text)
        return ("int", value) if -MAX_INT <= value <= MAX_INT else ("huge", text)
    if _FLOAT.fullmatch(text):
        value = float(text)
        return ("float", value) if math.isfinite(value) else ("nonfinite", text)
    return "str", text


def _pos(mark: Any) -> Pos:
    return Pos(mark.line + 1, mark.column + 1)


def _read(path: str | os.PathLike, display: str, text: str | None, max_bytes: int) -> str:
    """Returns the decoded text, enforcing the size cap before reading more than needed."""
    def fail(line: int, column: int, message: str) -> DefinitionError:
        return DefinitionError([Diagnostic(display, line, column, message)])

    if text is not None:
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError as e:
            head = text[:e.start]  # e.g. a lone surrogate
            raise fail(head.count("\n") + 1, e.start - head.rfind("\n"), "text is not valid Unicode") from None
        if len(raw) > max_bytes:
            raise fail(1, 1, over_limit(len(raw), max_bytes))
    else:
        try:
            raw = read_capped(path, max_bytes)
        except FileRefused as e:
            raise fail(1, 1, e.reason) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise fail(*utf8_position(raw, e.start), f"file is not valid UTF-8 (byte 0x{raw[e.start]:02x})") from None


def _syntax_diag(display: str, text: str, e: yaml.YAMLError) -> Diagnostic:
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        message = f"YAML syntax error: {e.problem or e.context or 'invalid YAML'}"
        if e.context and e.problem:
            cm = e.context_mark
            where = f" started at line {cm.line + 1}, column {cm.column + 1}" if cm else ""
            message += f" ({e.context}{where})"
        return Diagnostic(display, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1, message)
    position = getattr(e, "position", None)
    if isinstance(e, yaml.reader.ReaderError) and isinstance(position, int):
        breaks = list(_BREAK.finditer(text, 0, position))
        column = position - (breaks[-1].end() if breaks else 0) + 1
        return Diagnostic(display, len(breaks) + 1, column,
                          f"YAML error: {e.reason} (character #x{e.character:04x})")
    return Diagnostic(display, 1, 1, f"YAML error: {e}")


_NOKEY, _BAD = object(), object()


def load_yaml(path: str | os.PathLike, *, display: str | None = None, text: str | None = None,
              max_bytes: int = MAX_FILE_BYTES, max_depth: int = 50, max_nodes: int = 200_000) -> Loaded:
    """Loads one YAML document as plain data with positions.  Raises DefinitionError with one
    or more Diagnostics on any problem; never any other exception for bad input."""
    display = display if display is not None else os.fsdecode(path)
    source = _read(path, display, text, max_bytes)
    out = Loaded(display, None, _lines=_BREAK.split(source))
    errors: list[Diagnostic] = []

    def error(mark: Any, message: str) -> None:
        errors.append(Diagnostic(display, mark.line + 1, mark.column + 1, message))

    # frame: [container, path or None (discarded subtree), pending key, {key: first line}]
    stack: list[list[Any]] = []
    shared: list[Any] = []      # anchors and aliases (only the first is reported)
    nodes = documents = 0
    try:
        for ev in yaml.parse(source, Loader=_Loader):
            if len(errors) >= _MAX_ERRORS:
                break
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    error(ev.start_mark, "only one YAML document per file is allowed")
                    break
                continue
            if isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                stack.pop()
                continue
            if not isinstance(ev, yaml.NodeEvent):
                continue
            nodes += 1
            if nodes > max_nodes:
                error(ev.start_mark, f"too many values (more than {max_nodes})")
                break
            if isinstance(ev, yaml.CollectionStartEvent) and len(stack) >= max_depth:
                error(ev.start_mark, f"nesting is deeper than the limit of {max_depth} levels")
                break
            if isinstance(ev, yaml.AliasEvent) or ev.anchor is not None:
                shared.append(ev)   # one error for them all: the parser expands none of them
            if getattr(ev, "tag", None) is not None:
                tag = ev.tag.replace("tag:yaml.org,2002:", "!!")
                error(ev.start_mark, f"tags ({tag}) are not allowed; use plain YAML values")

            parent = stack[-1] if stack else None
            if parent is not None and isinstance(parent[0], dict) and parent[2] is _NOKEY:
                parent[2] = _BAD  # this node is a mapping key
                if not isinstance(ev, yaml.ScalarEvent):
                    if not isinstance(ev, yaml.AliasEvent):
                        error(ev.start_mark, "mapping keys must be strings, not a "
                              + ("list" if isinstance(ev, yaml.SequenceStartEvent) else "mapping"))
                        stack.append([[] if isinstance(ev, yaml.SequenceStartEvent) else {}, None, _NOKEY, {}])
                    continue
                key = ev.value
                if (ev.style or "") == "" and ev.tag is None:
                    kind, value = _resolve(key)
                    if kind not in ("str", "ambiguous"):
                        shown = "(empty)" if key == "" else key
                        error(ev.start_mark, f"mapping key {shown} is {_KIND[kind]}, but keys must be"
                              f" strings; quote it ('{key}') if you mean the text")
                        continue
                first = parent[3].get(key)
                if first is not None:
                    error(ev.start_mark, f"duplicate key '{key}' (first defined at line {first})")
                    continue
                parent[3][key] = ev.start_mark.line + 1
                parent[2] = key
                if parent[1] is not None:
                    out.key_pos[parent[1] + (key,)] = _pos(ev.start_mark)
                continue

            # a value: work out its path, build it, attach it
            if parent is None:
                path: Path | None = ()
            elif isinstance(parent[0], list):
                path = parent[1] + (len(parent[0]),) if parent[1] is not None else None
            else:
                key, parent[2] = parent[2], _NOKEY
                path = parent[1] + (key,) if parent[1] is not None and key is not _BAD else None
            if isinstance(ev, yaml.CollectionStartEvent):
                value: Any = [] if isinstance(ev, yaml.SequenceStartEvent) else {}
                stack.append([value, path, _NOKEY, {}])
            elif isinstance(ev, yaml.AliasEvent):
                value = None
            else:
                style = _STYLES.get(ev.style, "plain")
                value = ev.value
                if style == "plain" and ev.tag is None:
                    kind, value = _resolve(ev.value)
                    if kind == "ambiguous":
                        error(ev.start_mark, f"'{ev.value}' is ambiguous (YAML 1.1 reads it as a boolean);"
                              f" write true/false, or quote it ('{ev.value}') if you mean the text")
                    elif kind == "huge":
                        error(ev.start_mark, f"the number {ev.value[:30]}{'...' if len(ev.value) > 30 else ''} is "
                              f"beyond ±{MAX_INT}; quote it if you mean the text")
                    elif kind == "nonfinite":
                        error(ev.start_mark, f"'{ev.value}' is not a finite number;"
                              f" quote it ('{ev.value}') if you mean the text")
                if isinstance(value, str) and path is not None:
                    out.scalar_info[path] = (style, _pos(ev.start_mark), _indent(out._lines, ev, style, value))
            if path is None:
                continue
            out.value_pos[path] = _pos(ev.start_mark)
            if parent is None:
                out.data = value
            elif isinstance(parent[0], list):
                parent[0].append(value)
            else:
                parent[0][path[-1]] = value
    except yaml.YAMLError as e:
        errors.append(_syntax_diag(display, source, e))
    if shared:
        errors.append(_shared_diag(display, shared))
    if errors:
        raise DefinitionError(errors)
    return out


def _shared_diag(display: str, shared: list[Any]) -> Diagnostic:
    """The one error for a file's anchors and aliases, at the first (a billion laughs is one
    mistake, not eighty)."""
    ev = shared[0]
    sign = "*" if isinstance(ev, yaml.AliasEvent) else "&"
    what = "aliases" if sign == "*" else "anchors"
    more = f" ({len(shared) - 1} more anchors or aliases follow)" if len(shared) > 1 else ""
    return Diagnostic(display, ev.start_mark.line + 1, ev.start_mark.column + 1,
                      f"{what} ({sign}{ev.anchor}) are not allowed; write the value out{more}")


def _indent(lines: list[str], ev: Any, style: str, value: str) -> int:
    """Content indent of a block scalar (found from its first non-blank line); the start
    column offset for flow scalars."""
    if style not in ("literal", "folded"):
        return ev.start_mark.column
    first = ev.start_mark.line + 1
    for k, text_line in enumerate(value.split("\n")):
        if first + k >= len(lines):
            break
        file_line = lines[first + k]
        if text_line.strip(" "):
            if style == "literal" and file_line.endswith(text_line):
                return len(file_line) - len(text_line)
            return len(file_line) - len(file_line.lstrip(" "))
    return 0
