"""The versions of the definition format, and how a file of an older one is read today.

A game (`game:` in game.yaml) or an overlay (`variant:`) may state `format: N`, the
version it was written for. A file that states none is read as the current format,
unless it uses a key only an older format had (a top-level `flow:`): then it is that
older format. Content must outlast the format it was written in, so every change between
versions is one Rewrite here, applied in two places from the same table: the loader
upgrades an old file in memory (it loads, and the commands warn once per file), and
`cairn migrate` makes the same change to the file's text (load/migrate.py), checking that
what it writes reads back as exactly what the loader made of the old file.

What changed since format 1 (docs/FORMAT.md, "Format versions and migrating"): the
turn structure replaced the flow program (commit 37bbbb9), and three files that format 1
left unread are read by their name (rules.yaml and *-differences.yaml from d2effab,
terminal.yaml from dc372c5): a format-1 game is read without them (UNREAD). Every other
change to the schemas since then only added keys or widened what a key takes, so a
format-1 file needs no other rewrite.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic
from .yaml_safe import Loaded, Pos

CURRENT = 2
FORMATS: dict[int, str] = {
    1: "the whole game is one `flow:` program (Cairn up to commit 4d21bf7)",
    2: "the turn structure is declared: `structure:` lists its rounds, turns, phases and steps",
}
HEADERS = {"game": "game", "variant": "variant"}   # file kind -> the section that may state `format:`
PLAY_STEP = "play"          # the one step a format-1 flow program becomes
# Files of a game folder that a format did not read ("other files are not loaded") but a
# later one reads by their name: a game of that format is loaded without them.
UNREAD: dict[int, tuple[str, ...]] = {1: ("rules.yaml", "terminal.yaml", "*-differences.yaml")}


class Hole:
    """Marks where the old value goes inside a Rewrite's template."""

    def __repr__(self) -> str:
        return "<the old value>"


HOLE = Hole()


@dataclass(frozen=True)
class Rewrite:
    """One key of an older format: where it was, the key that replaced it, and the shape
    its value takes there (`template`, with HOLE where the old value goes)."""

    kind: str                 # the file kind it applies to
    old: tuple[str, ...]      # the key path of the older format
    new: tuple[str, ...]      # the key path that replaced it
    template: Any
    last: int                 # the last format that had the old key
    why: str                  # what replaced it, for warnings and migrate's report

    def inner(self) -> tuple:
        """Returns the path of the HOLE inside the template."""
        return _hole_path(self.template, ()) or ()

    def wrap(self, value: Any) -> Any:
        """Returns the new value: the template with the old value in its hole."""
        return _fill(self.template, value)


def _hole_path(node: Any, at: tuple) -> tuple | None:
    if node is HOLE:
        return at
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        found = _hole_path(v, at + (k,))
        if found is not None:
            return found
    return None


def _fill(node: Any, value: Any) -> Any:
    if node is HOLE:
        return value
    if isinstance(node, dict):
        return {k: _fill(v, value) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill(v, value) for v in node]
    return node


_FLOW = [{"step": PLAY_STEP, "do": HOLE}]
_WHY = (f"format 2 replaced `flow:` by `structure:`, the declared turn structure; the flow program "
        f"is now its one step '{PLAY_STEP}'")
REWRITES: tuple[Rewrite, ...] = (
    Rewrite("game", ("flow",), ("structure",), _FLOW, 1, _WHY),
    Rewrite("variant", ("replace", "flow"), ("replace", "structure"), _FLOW, 1, _WHY),
    Rewrite("variant", ("add", "flow"), ("add", "structure"), _FLOW, 1, _WHY),
)


def reads(fmt: int, name: str) -> bool:
    """Whether a game of format `fmt` reads the file of its folder called `name`."""
    return not any(fnmatch(name, pattern) for pattern in UNREAD.get(fmt, ()))


def unread_files(folder: Path, fmt: int) -> list[Path]:
    """Returns the files of a game folder that its format does not read but the current one would."""
    return sorted(p for p in folder.iterdir() if p.is_file() and not reads(fmt, p.name)) if folder.is_dir() else []


def game_format(meta: dict) -> int:
    """Returns the format of a game from its (upgraded) `game:` section."""
    said = meta.get("format") if isinstance(meta, dict) else None
    return said if type(said) is int else CURRENT


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _has(data: Any, path: tuple) -> bool:
    return isinstance(_get(data, path[:-1]), dict) and path[-1] in _get(data, path[:-1])


def stated(data: Any, kind: str) -> Any:
    """Returns the `format:` a file states (None if it states none)."""
    header = _get(data, (HEADERS[kind],)) if kind in HEADERS else None
    return header.get("format") if isinstance(header, dict) else None


def old_keys(data: Any, kind: str) -> list[Rewrite]:
    """Returns the rewrites whose older key the file uses."""
    return [r for r in REWRITES if r.kind == kind and _has(data, r.old)]


def format_of(data: Any, kind: str) -> int:
    """Returns the format a file is read as: the one it states, else the oldest one whose
    keys it uses, else the current one."""
    said = stated(data, kind)
    if type(said) is int:
        return said
    found = old_keys(data, kind)
    return min(r.last for r in found) if found else CURRENT


def problems(loaded: Loaded, kind: str) -> list[Diagnostic]:
    """Returns why a file cannot be read in any format (a format stated that this Cairn
    does not know, an old key in a file that says it is current, both an old key and its
    replacement), each at its place; [] when it can."""
    if kind not in HEADERS or not isinstance(loaded.data, dict):
        return []
    said, header = stated(loaded.data, kind), HEADERS[kind]
    if type(said) is int and said > CURRENT:
        return [loaded.diag((header, "format"), f"format {said} is newer than this Cairn reads "
                            f"(formats {min(FORMATS)} to {CURRENT}); update Cairn to load this file")]
    out = []
    for r in old_keys(loaded.data, kind):
        old, new = ".".join(r.old), ".".join(r.new)
        if type(said) is int and said > r.last:
            out.append(loaded.diag(r.old, f"'{old}' is a key of format {r.last}, but this file states format: {said}; "
                                   f"{r.why}: write `{new}:`, or remove `format:` and run "
                                   f"`cairn migrate {_folder(loaded.file)}`", at_key=True))
        elif _has(loaded.data, r.new):
            out.append(loaded.diag(r.old, f"both '{old}' (format {r.last}) and '{new}' (format {r.last + 1}); "
                                   f"{r.why}: keep only `{new}:`", at_key=True))
    return out


def _folder(file: str) -> str:
    """Returns the game folder of a game.yaml or of an overlay in its variants/ (as shown)."""
    parent = Path(file).parent
    return str(parent.parent if parent.name == "variants" else parent)


def upgrade(loaded: Loaded, kind: str) -> list[Rewrite]:
    """Rewrites a file of an older format into the current one in memory: each old key's
    value moves to its new place, with the positions of everything in it, so a problem
    in an old file is still reported where it was written (new keys point at the old
    key); the header then states the format the file was written for. Returns what
    changed; call only when `problems` found none."""
    if kind not in HEADERS or not isinstance(loaded.data, dict):
        return []
    out, fmt = [], format_of(loaded.data, kind)
    for r in old_keys(loaded.data, kind):
        at = loaded.key_pos.get(r.old) or loaded.pos(r.old)
        parent = _get(loaded.data, r.old[:-1])
        value = parent[r.old[-1]]
        # the new key takes the old one's place among its siblings (the file's order)
        moved = {(r.new[-1] if k == r.old[-1] else k): (r.wrap(value) if k == r.old[-1] else v)
                 for k, v in parent.items()}
        parent.clear()
        parent.update(moved)
        _move_positions(loaded, r, at)
        out.append(r)
    header = loaded.data.get(HEADERS[kind])
    if out and isinstance(header, dict) and "format" not in header:
        header["format"] = fmt          # what it was written for, so later steps read it as such
    return out


def _move_positions(loaded: Loaded, r: Rewrite, at: Pos) -> None:
    inner, n = r.new + r.inner(), len(r.old)
    for table in (loaded.value_pos, loaded.key_pos, loaded.scalar_info):
        for path in [p for p in table if p[:n] == r.old]:
            table[inner + path[n:]] = table.pop(path)
    for path in _paths(r.template, ()):        # what the template adds: at the old key
        if path != r.inner():
            loaded.value_pos.setdefault(r.new + path, at)
            if path and isinstance(path[-1], str) or not path:
                loaded.key_pos.setdefault(r.new + path, at)
    loaded.key_pos.setdefault(inner, at)


def _paths(node: Any, at: tuple) -> list[tuple]:
    out = [at]
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        out.extend(_paths(v, at + (k,)))
    return out
