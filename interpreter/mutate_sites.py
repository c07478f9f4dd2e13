"""Where a game's rules are written: the effect texts, numbers, abilities and steps of the
entries that cite clauses, found in the YAML as written so a mutant changes the file at
the exact place and its diff line points there.

The walk is over the files as a person wrote them (not the merged spec), so group
defaults and overlays are found where their text is. The clauses a piece of code carries
are those of the nearest enclosing `rule:` (an ability's own, else its card's, else its
group's defaults). Which keys hold code is the schemas' word (`$defs/effect` and
`$defs/expr`): prose (text, doc, names) is never touched.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .load.citations import cited
from .load.yaml_safe import Loaded, load_yaml

PROGRAM_KEYS = frozenset({"effect", "do", "resolve"})
EXPR_KEYS = frozenset({"if", "expr", "add", "times", "set", "while", "until", "order", "score", "items"})
REMOVABLE = {"abilities": "ability", "steps": "step"}
FILES = ("game.yaml", "components.yaml", "cards.yaml", "board.yaml")
_SKIP = frozenset({"params", "clauses", "readings", "provenance", "text", "doc", "vars", "terminal"})
_IDS = ("id", "step", "phase", "turn", "round")
_SECTIONS = {"procedures": "procedure", "functions": "function", "quantities": "quantity"}


@dataclass(frozen=True, eq=False)
class Site:
    """One piece of a rule: an effect text or number (key in PROGRAM_KEYS/EXPR_KEYS), or a
    list entry that can be removed (key 'ability' or 'step')."""

    loaded: Loaded
    file: str                 # relative to the game folder
    path: tuple
    key: str
    value: Any
    clauses: tuple[str, ...]
    owner: str                # what the rule is, for people: "procedure mark", "horse-leader-a ability 0"


def game_files(folder: Path, overlays: list[Path]) -> list[tuple[str, Path]]:
    """Returns (name relative to the folder, path) of the files holding the game's rules:
    its part files and the overlays of the variants asked for that live in the folder."""
    out = [(name, folder / name) for name in FILES if (folder / name).is_file()]
    for path in overlays:
        try:
            out.append((str(path.resolve().relative_to(folder.resolve())), path))
        except ValueError:
            continue                   # an overlay kept elsewhere is not copied with the game
    return out


def sites(folder: Path, overlays: list[Path] = ()) -> Iterator[Site]:
    """Yields every site of the game's rule files, file by file in the order of the text."""
    for rel, path in game_files(folder, list(overlays)):
        loaded = load_yaml(path, display=rel)
        yield from _walk(loaded, rel, loaded.data, (), (), "")


def _owner(node: dict, path: tuple, owner: str) -> str:
    for k in _IDS:
        if isinstance(node.get(k), str):
            return f"{k if k != 'id' else ''} {node[k]}".strip()
    if len(path) >= 2 and path[-2] in _SECTIONS:
        return f"{_SECTIONS[path[-2]]} {path[-1]}"
    if path and path[-1] == "defaults":
        return f"group {path[-2]} defaults" if len(path) >= 2 else "defaults"
    if path and path[0] == "scoring":
        return "scoring"
    return owner


def _walk(loaded: Loaded, rel: str, node: Any, path: tuple, clauses: tuple, owner: str) -> Iterator[Site]:
    if isinstance(node, dict):
        if "rule" in node:
            clauses = tuple(cited(node["rule"]))
        owner = _owner(node, path, owner)
        for key, value in node.items():
            if key in _SKIP or key == "rule":
                continue
            here = path + (key,)
            if clauses and key in PROGRAM_KEYS | EXPR_KEYS and isinstance(value, (str, int)):
                yield Site(loaded, rel, here, key, value, clauses, owner)
            elif key in REMOVABLE and isinstance(value, list):
                for i, item in enumerate(value):
                    if not isinstance(item, dict):
                        continue
                    mine = tuple(cited(item["rule"])) if "rule" in item else clauses
                    name = _owner(item, here + (i,), f"{owner} ability {i}" if key == "abilities" else owner)
                    if mine:
                        yield Site(loaded, rel, here + (i,), REMOVABLE[key], item, mine, name)
                    yield from _walk(loaded, rel, item, here + (i,), mine, name)
            else:
                yield from _walk(loaded, rel, value, here, clauses, owner)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk(loaded, rel, item, path + (i,), clauses, owner)
