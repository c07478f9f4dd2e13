"""Moves a game folder written in an older format to the current one, in its text.

Each change is one of formats.REWRITES, made on the file's text at the positions the YAML
loader gives (yaml_safe), never by dumping the data again: comments, quoting, blank lines
and the order of keys stay as written. The text written is then read back and must be
exactly what the loader makes of the old file in memory (plus `format:` stated); a file
whose rewrite would read otherwise is left alone and reported at its file:line:col.
Files that an older format did not read but the current one does (rules.yaml, ...) are
kept when they read as what their name now means, and otherwise renamed out of the way.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..diagnostics import DefinitionError, Diagnostic
from . import formats
from .files import cached_yaml, display_path, read_part
from .yaml_safe import Loaded, Pos, load_yaml

_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")     # the line breaks yaml_safe counts
_KINDS = {"rules.yaml": "rules", "terminal.yaml": "terminal"}     # newer files by name -> kind


@dataclass
class FilePlan:
    """What migrating one file does: its new text and/or new name, what changed (each
    `file:line:col: ...`), and what could not be rewritten mechanically."""

    path: Path
    display: str
    old: str = ""
    new: str | None = None          # the rewritten text (None: the text stays)
    rename: Path | None = None      # the name it moves to (a newer format would misread it)
    changes: list[str] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)   # changed, but worth a look by hand

    @property
    def needed(self) -> bool:
        return self.new is not None or self.rename is not None or bool(self.problems)


def folder_format(folder: Path) -> int:
    """Returns the format a game folder is written in: its game.yaml's."""
    raw = _raw(folder / "game.yaml")
    return formats.format_of(raw.data, "game") if raw is not None else formats.CURRENT


def _raw(path: Path) -> Loaded | None:
    """Returns a file as written (not upgraded), or None if it cannot be read as YAML."""
    if not path.is_file():
        return None
    try:
        loaded, _key = cached_yaml(path, display_path(path))
    except DefinitionError:
        return None
    return loaded


def overlay_files(folder: Path) -> list[Path]:
    vdir = folder / "variants"
    return sorted(vdir.glob("*.yaml")) if vdir.is_dir() else []


def deprecations(folder: Path | None, overlays: list[Path] = ()) -> list[Diagnostic]:
    """Returns one warning for each file of a game folder (and each overlay file given)
    written in an older format, at its first old key: the loader reads it as the current
    format, and `cairn migrate` would rewrite it."""
    paths = [(p, "variant", p) for p in overlays]          # an overlay kept apart migrates by itself
    if folder is not None:
        paths = [(folder / "game.yaml", "game", folder)] + [(p, "variant", folder) for p in overlay_files(folder)] + paths
    out = []
    for path, kind, target in paths:
        raw = _raw(path)
        if raw is None or not isinstance(raw.data, dict) or formats.format_of(raw.data, kind) >= formats.CURRENT:
            continue
        if formats.problems(raw, kind):
            continue            # a file that cannot be read in any format gets its error instead
        out.append(_deprecation(raw, kind, path, target))
    return out


def _deprecation(raw: Loaded, kind: str, path: Path, target: Path) -> Diagnostic:
    """The warning for one file of an older format, at its first old key (or its `format:`)."""
    fmt, found = formats.format_of(raw.data, kind), formats.old_keys(raw.data, kind)
    if found:
        at = _at(raw, found[0].old)
        what = f"format {fmt} key {', '.join(repr('.'.join(r.old)) for r in found)}: {found[0].why}"
    else:
        at = _at(raw, (formats.HEADERS[kind], "format"))
        what = f"written for format {fmt}, {formats.FORMATS.get(fmt, 'an unknown one')}"
    unread = [p.name for p in formats.unread_files(path.parent, fmt)] if kind == "game" else []
    return Diagnostic(raw.file, *at, f"warning: {what}; read as format {formats.CURRENT} for now"
                      + (f" (without {', '.join(unread)}, which format {fmt} did not read)" if unread else "")
                      + f": run `cairn migrate {display_path(target)}` to rewrite it", severity="warning")


def _at(loaded: Loaded, path: tuple) -> tuple[int, int]:
    p = loaded.key_pos.get(path) or loaded.pos(path)
    return p.line, p.column


def plan_folder(folder: Path) -> list[FilePlan]:
    """Returns the plan of every file of a game folder that migrating would touch or check."""
    out = [plan_file(folder / "game.yaml", "game")]
    out += [plan_file(p, "variant") for p in overlay_files(folder)]
    if folder_format(folder) < formats.CURRENT:
        out += [_plan_newer(p) for p in formats.unread_files(folder, folder_format(folder))]
    return out


def plan_file(path: Path, kind: str) -> FilePlan:
    """Returns what migrating one game.yaml or overlay file does."""
    plan = FilePlan(path, display_path(path))
    if path.is_symlink():
        plan.problems.append(Diagnostic(plan.display, 1, 1, "is a symbolic link: migrate the file it points to"))
        return plan
    try:
        raw = load_yaml(path, display=plan.display)     # bounded, decoded, checked: or an error with its place
        plan.old = path.read_bytes().decode("utf-8-sig")
    except DefinitionError as err:
        plan.problems.extend(err.diagnostics)
        return plan
    if not isinstance(raw.data, dict) or formats.format_of(raw.data, kind) >= formats.CURRENT:
        return plan
    plan.problems.extend(formats.problems(raw, kind))
    if plan.problems:
        return plan
    edits: list[tuple[int, int, str]] = []
    for r in formats.old_keys(raw.data, kind):
        edit = _rewrite_edit(raw, plan.old, r)
        if isinstance(edit, Diagnostic):
            plan.problems.append(edit)
            continue
        edits.append(edit)
        line, col = _at(raw, r.old)
        plan.changes.append(f"{plan.display}:{line}:{col}: `{'.'.join(r.old)}:` -> `{'.'.join(r.new)}:` ({r.why})")
    if plan.problems:
        return plan
    stamp = _stamp_edit(raw, plan.old, kind)
    if stamp is not None:
        edits.append(stamp)
        plan.changes.append(f"{plan.display}: states `format: {formats.CURRENT}` in `{formats.HEADERS[kind]}:`")
    plan.new = _apply(plan.old, edits)
    _verify(plan, raw, kind, stamp is not None)
    plan.notes.extend(_engine_events(raw, kind))
    return plan


def _plan_newer(path: Path) -> FilePlan:
    """A file an older format did not read that the current one reads by its name: kept
    if it reads as such a file, else renamed so that it stays unread (as it was)."""
    plan = FilePlan(path, display_path(path))
    kind = _KINDS.get(path.name, "differences")
    _loaded, problems = read_part(path, plan.display, kind)
    if not problems:
        plan.changes.append(f"{plan.display}: kept: format {formats.CURRENT} reads it as a {kind} file, and it is one")
        return plan
    plan.rename = path.with_name(path.name[:-len(".yaml")] + ".notes.yaml")
    if plan.rename.exists() or path.is_symlink():
        plan.problems.append(Diagnostic(plan.display, 1, 1, f"format {formats.CURRENT} reads {path.name} as a {kind} "
                                        f"file, and this one is not; rename it by hand ({plan.rename.name} is taken)"
                                        if plan.rename.exists() else "is a symbolic link: rename it by hand"))
        plan.rename = None
        return plan
    first = problems[0]
    plan.changes.append(f"{plan.display}: renamed to {plan.rename.name}: format {formats.CURRENT} reads "
                        f"{path.name} as a {kind} file (schemas/{kind}.schema.json), and this one is not "
                        f"({first.line}:{first.column}: {first.message}); rename it back once it is one")
    return plan


# -- text edits --------------------------------------------------------------------------

def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _BREAK.finditer(text)]


def _offset(starts: list[int], p: Pos) -> int:
    return starts[p.line - 1] + p.column - 1


def _newline(text: str) -> str:
    m = _BREAK.search(text)
    return m.group(0) if m else "\n"


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _flow_style(raw: Loaded, text: str, starts: list[int], path: tuple) -> bool:
    """Whether the mapping at `path` is written in flow style ({...})."""
    p = raw.value_pos.get(path)
    return p is not None and text[_offset(starts, p):].startswith("{")


def _next_start(raw: Loaded, path: tuple, after: Pos) -> Pos | None:
    """Returns where the first node after `after` that is not inside `path` starts: the
    end of the value at `path`."""
    n = len(path)
    later = [p for table in (raw.key_pos, raw.value_pos) for q, p in table.items()
             if q[:n] != path and (p.line, p.column) > (after.line, after.column)]
    return min(later, key=lambda p: (p.line, p.column)) if later else None


def _rewrite_edit(raw: Loaded, text: str, r: formats.Rewrite) -> tuple[int, int, str] | Diagnostic:
    """Returns the edit that moves an old key's value under its new key, or why it cannot."""
    starts = _line_starts(text)
    at = raw.key_pos[r.old]
    key = r.old[-1]
    start = _offset(starts, at)
    width = len(key) if text.startswith(key, start) else (_scalar_end(text, start) or start) - start
    if width <= 0 or text[start] not in key[0] + "'\"" or "\n" in text[start:start + width]:
        return raw.diag(r.old, f"cannot rewrite `{key}:` mechanically: its key is not written on one line; "
                        f"rewrite it by hand as `{r.new[-1]}:`", at_key=True)
    if _flow_style(raw, text, starts, r.old[:-1]):
        return _flow_edit(raw, text, starts, r, start, width)
    nl = _newline(text)
    end = _next_start(raw, r.old, raw.value_pos[r.old])
    last = (end.line - 1 if end is not None else len(starts)) - 1          # 0-based last line of the value
    lines = [text[starts[i]:(starts[i + 1] if i + 1 < len(starts) else len(text))] for i in range(len(starts))]
    while last > at.line - 1 and _outside(lines[last], at.column - 1):
        last -= 1
    head, shift = _block_head(r, at.column - 1, nl)
    body = "".join((" " * shift + ln) if ln.strip() else ln for ln in lines[at.line:last + 1])
    line_start, stop = starts[at.line - 1], (starts[last + 1] if last + 1 < len(starts) else len(text))
    rest = lines[at.line - 1][at.column - 1 + width:]
    return line_start, stop, head + rest + body


def _outside(line: str, column: int) -> bool:
    """Whether a line after a value is blank, or a comment no deeper than its key (it
    belongs to what follows)."""
    stripped = line.strip()
    return not stripped or (stripped.startswith("#") and len(line) - len(line.lstrip(" ")) <= column)


def _block_head(r: formats.Rewrite, column: int, nl: str) -> tuple[str, int]:
    """Returns the lines that open the new key in block style, up to the hole's key (its
    `:` and value follow from the old line), and how far the old value's lines move in.
    Templates are a list of one mapping whose last key is the hole."""
    template = r.template
    if not (isinstance(template, list) and len(template) == 1 and isinstance(template[0], dict)
            and list(template[0].values())[-1] is formats.HOLE):
        raise NotImplementedError(f"no block form for the template of {r.old}")
    pad = " " * column
    out = [f"{pad}{r.new[-1]}:{nl}"]
    keys = list(template[0].items())
    for i, (k, v) in enumerate(keys):
        lead = pad + ("  - " if i == 0 else "    ")
        out.append(f"{lead}{k}" + ("" if v is formats.HOLE else f": {v}{nl}"))
    return "".join(out), 4


def _flow_edit(raw: Loaded, text: str, starts: list[int], r: formats.Rewrite, start: int, width: int
               ) -> tuple[int, int, str] | Diagnostic:
    """The edit of an old key inside a {...} mapping: `key: value` -> `new: [{...: value}]`."""
    begin = _offset(starts, raw.value_pos[r.old])
    if begin < start + width:
        return raw.diag(r.old, f"cannot rewrite `{r.old[-1]}:` mechanically: rewrite it by hand as `{r.new[-1]}:`",
                        at_key=True)
    end = _scalar_end(text, begin)
    if end is None:
        return raw.diag(r.old, f"cannot rewrite `{r.old[-1]}:` mechanically: its value is not one line of text "
                        f"here; rewrite it by hand as `{r.new[-1]}:`", at_key=True)
    item = ", ".join(f"{k}: {text[begin:end] if v is formats.HOLE else v}" for k, v in r.template[0].items())
    return start, end, f"{r.new[-1]}: [{{{item}}}]"


def _scalar_end(text: str, begin: int) -> int | None:
    """Returns where a quoted or plain scalar starting at `begin` in a flow mapping ends."""
    quote = text[begin] if begin < len(text) else ""
    i = begin + 1
    if quote in "\"'":
        while i < len(text):
            if quote == '"' and text[i] == "\\":
                i += 2
                continue
            if text[i] == quote:
                if quote == "'" and text.startswith("''", i):
                    i += 2
                    continue
                return i + 1
            i += 1
        return None
    m = re.compile(r"[^,}\]\r\n]*").match(text, begin)
    end = m.end() if m else begin
    while end > begin and text[end - 1] == " ":
        end -= 1
    if " #" in text[begin:end]:
        return None
    return end if end > begin else None


def _stamp_edit(raw: Loaded, text: str, kind: str) -> tuple[int, int, str] | None:
    """The edit that states `format: CURRENT` in the file's header (replacing a stated one);
    None without a header to state it in (the file's own error says so)."""
    header = formats.HEADERS[kind]
    if not isinstance(raw.data.get(header), dict) or not raw.data[header]:
        return None
    starts = _line_starts(text)
    if (header, "format") in raw.value_pos:
        begin = _offset(starts, raw.value_pos[(header, "format")])
        end = begin + len(str(raw.data[header]["format"]))
        return begin, end, str(formats.CURRENT)
    firsts = [p for q, p in raw.key_pos.items() if len(q) == 2 and q[0] == header]
    first = min(firsts, key=lambda p: (p.line, p.column))
    if _flow_style(raw, text, starts, (header,)):
        at = _offset(starts, first)
        return at, at, f"format: {formats.CURRENT}, "
    at = starts[first.line - 1]
    return at, at, f"{' ' * (first.column - 1)}format: {formats.CURRENT}{_newline(text)}"


def _verify(plan: FilePlan, raw: Loaded, kind: str, stamped: bool) -> None:
    """Refuses a rewrite whose text does not read back as the old file read in memory
    (with the current format stated, if it was)."""
    expected = load_yaml(plan.path, display=plan.display, text=plan.old)
    formats.upgrade(expected, kind)
    header = expected.data.get(formats.HEADERS[kind])
    if isinstance(header, dict):
        header.pop("format", None)
        if stamped:
            header["format"] = formats.CURRENT
    try:
        got = load_yaml(plan.path, display=plan.display, text=plan.new).data
    except DefinitionError as err:
        got = err
    if got != expected.data:
        line, col = _at(raw, formats.old_keys(raw.data, kind)[0].old)
        plan.problems.append(Diagnostic(plan.display, line, col, "cannot rewrite this file mechanically: the "
                                        "rewritten text would not read the same (" + _why(got, expected.data)
                                        + "); rewrite it by hand (docs/FORMAT.md, Format versions)"))
        plan.new = None


def _why(got: Any, want: Any) -> str:
    if isinstance(got, DefinitionError):
        return str(got.diagnostics[0])
    keys = sorted(set(got) ^ set(want)) if isinstance(got, dict) and isinstance(want, dict) else []
    differs = keys or sorted(k for k in want if got.get(k) != want.get(k)) if isinstance(got, dict) else []
    return "it differs at " + ", ".join(map(str, differs)) if differs else "it differs"


def _engine_events(raw: Loaded, kind: str) -> list[Diagnostic]:
    """Triggers of an old game on events that the current engine now announces itself at
    the start and end of the step the flow became: they fire there too."""
    if kind != "game":
        return []
    step = formats.PLAY_STEP
    names = {"step_start", "step_end", f"step_start:{step}", f"step_end:{step}"}
    out = []
    for i, t in enumerate(raw.data.get("triggers") or ()):
        if isinstance(t, dict) and t.get("on") in names:
            d = raw.diag(("triggers", i, "on"), f"check by hand: format {formats.CURRENT} announces '{t['on']}' "
                         f"itself when the step '{step}' starts or ends, so this trigger also runs then")
            out.append(replace(d, severity="warning"))
    return out


def write(plans: list[FilePlan]) -> bool:
    """Writes every plan (new text, then new name), or none if any has a problem: a folder
    half migrated would be read as neither format. Returns whether it wrote."""
    if any(plan.problems for plan in plans):
        return False
    for plan in plans:
        if plan.new is not None:
            raw = plan.path.read_bytes()
            bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
            plan.path.write_text(bom + plan.new, "utf-8", newline="")
        if plan.rename is not None:
            plan.path.rename(plan.rename)
    return True


def diff(plan: FilePlan) -> str:
    """Returns the unified diff of a plan's text (for --dry-run)."""
    if plan.new is None:
        return ""
    return "".join(difflib.unified_diff(plan.old.splitlines(True), plan.new.splitlines(True),
                                        plan.display, plan.display + " (migrated)"))


__all__ = ["FilePlan", "deprecations", "diff", "folder_format", "plan_file", "plan_folder", "write"]
