"""Reads a game folder into one merged Spec that remembers where every entry was written.

The Spec is the definition before compiling: sections of entries keyed by id or name,
each with its Src (file and path inside it), the turn structure as a tree of nodes, and
the overlays found in variants/. Overlays are applied to it by overlay.py.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, suggest
from . import formats
from .files import PART_FILES, display_path, read_part
from .ranges import expand
from .yaml_safe import Loaded

KEYED = ("zones", "dice", "components", "cards", "spaces")
INDEXED = ("clauses", "readings")     # the rulebook's clause index (rules.yaml), keyed by id
NAMED = ("procedures", "functions", "quantities", "params")
NODE_KINDS = ("round", "turn", "phase", "step")


@dataclass(frozen=True)
class Src:
    """Where an entry was written: a loaded file and the path inside it."""

    loaded: Loaded
    path: tuple

    def diag(self, message: str, sub: tuple = (), at_key: bool = False) -> Diagnostic:
        return self.loaded.diag(self.path + sub, message, at_key=at_key)

    def at(self, *sub: Any) -> "Src":
        return Src(self.loaded, self.path + sub)

    @property
    def where(self) -> str:
        pos = self.loaded.pos(self.path)
        return f"{self.loaded.file}:{pos.line}"

    @property
    def place(self) -> str:
        """Returns file:line:col, for a message that names a second location."""
        pos = self.loaded.pos(self.path)
        return f"{self.loaded.file}:{pos.line}:{pos.column}"


@dataclass
class Node:
    """One part of the turn structure (a round, turn, phase or step) and its children."""

    kind: str
    id: str
    data: dict
    src: Src
    children: list["Node"] = field(default_factory=list)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


def make_node(item: dict, here: Src, diags: list[Diagnostic]) -> Node | None:
    """Returns the node of one structure entry (None, with a diagnostic, if it names no kind)."""
    kinds = [k for k in NODE_KINDS if k in item]
    if len(kinds) != 1:
        diags.append(here.diag("a structure entry needs exactly one of round, turn, phase or step "
                               f"(its id); found {', '.join(kinds) or 'none'}"))
        return None
    kind = kinds[0]
    node = Node(kind, item[kind], item, here)
    if "steps" in item:
        node.children = make_nodes(item["steps"], here.at("steps"), diags)
        if "do" in item:
            diags.append(here.diag(f"{kind} '{node.id}' has both steps and do; a part either runs "
                                   "its own steps or its do", ("do",), at_key=True))
    return node


def make_nodes(items: list, src: Src, diags: list[Diagnostic]) -> list[Node]:
    """Returns the nodes of a structure list (entries left out for schema problems skipped)."""
    out = [make_node(item, src.at(i), diags) for i, item in enumerate(items) if item is not None]
    return [n for n in out if n is not None]


@dataclass
class Spec:
    """The merged definition before compiling; every entry keeps its Src."""

    meta: dict = field(default_factory=dict)
    meta_src: Src | None = None
    limits: dict = field(default_factory=dict)
    sections: dict[str, dict[str, tuple[Any, Src]]] = field(
        default_factory=lambda: {k: {} for k in KEYED + NAMED + INDEXED})
    rulebook: str = ""                  # rules.yaml: the rulebook the clauses index
    edges: list[tuple[list, Src]] = field(default_factory=list)
    triggers: list[tuple[dict, Src]] = field(default_factory=list)
    game_vars: dict[str, tuple[Any, Src]] = field(default_factory=dict)
    player_vars: dict[str, tuple[Any, Src]] = field(default_factory=dict)
    private: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    legend: str = ""
    attributes: dict[str, tuple[Any, Src]] = field(default_factory=dict)
    box: dict[str, tuple[int, Src]] = field(default_factory=dict)
    structure: list[Node] | None = None
    structure_src: Src | None = None
    scoring: tuple[dict, Src] | None = None
    extensions: dict[str, list[tuple[dict, Src]]] = field(default_factory=dict)   # procedure -> before/after
    extra_abilities: dict[str, list[tuple[dict, Src]]] = field(default_factory=dict)  # object id -> abilities
    has_board: bool = False
    assembled_in_play: bool = False
    pruned: bool = False          # some entries were left out for schema problems
    variants: dict[str, tuple[Loaded, Path]] = field(default_factory=dict)
    # (section, key) -> what each overlay did to it: [(overlay id, action, Src, value)]
    changed_by: dict[tuple[str, str], list[tuple[str, str, Src, Any]]] = field(default_factory=dict)
    box_parts: dict[str, list[tuple[int, Src]]] = field(default_factory=dict)   # kind -> base count, deltas
    contested: set[tuple[str, str]] = field(default_factory=set)   # what two overlays fight over (reported)
    removal_rules: list[tuple[Any, Src]] = field(default_factory=list)   # clauses overlays' removals carry
    # what overlays took away, where: (the names it answered to, a Diagnostic at the
    # removal saying what it was), so a problem it causes blames the overlay (build.py)
    removed: list[tuple[tuple[str, ...], Diagnostic]] = field(default_factory=list)
    terminal: tuple[dict, Src] | None = None   # terminal.yaml: hints for the readable terminal (no rules)
    # board.yaml's groups: each grouped space's group defaults, and each kind's (the first
    # group that gives it), so an overlay that changes a space's kind re-bases it (overlay_set.py)
    space_defaults: dict[str, dict] = field(default_factory=dict)
    kind_defaults: dict[str, dict] = field(default_factory=dict)

    def note_removal(self, section: str, key: str, src: Src) -> None:
        """Records that an overlay removed `key` from `section` at `src` (before it goes):
        the names a broken reference may give it are its id and, for a card or component,
        its kind (the box counts by kind)."""
        item = self.sections.get(section, {}).get(key, (None,))[0]
        kind = item.get("kind", "card" if section == "cards" else None) if isinstance(item, dict) else None
        names = (key,) + ((kind,) if section in ("cards", "components") and isinstance(kind, str) else ())
        what = {"quantities": "quantity", "dice": "die"}.get(section, section.removesuffix("s"))
        self.removed.append((names, src.diag(f"{what} '{key}'")))

    def nodes(self):
        """Yields every node of the turn structure, depth first."""
        for n in self.structure or ():
            yield from n.walk()


def _keyed(spec: Spec, name: str, value: list, here: Src, diags: list[Diagnostic], mode: str) -> None:
    table = spec.sections[name]
    for i, item in enumerate(value):
        if item is None:   # left out for a schema problem already reported
            continue
        src = here.at(i)
        if "entries" in item:   # an overlay's group: entries merged onto its defaults (files.py)
            _keyed(spec, name, item["entries"], src.at("entries"), diags, mode)
            continue
        for entry in expand(item, src, diags) if "each" in item else (item,):
            _keyed_entry(table, name, entry, src, here, diags, mode)


def _keyed_entry(table: dict, name: str, item: dict, src: Src, here: Src, diags: list[Diagnostic],
                 mode: str) -> None:
    """Adds or replaces one entry of a keyed section."""
    key = item["id"]
    if mode == "add" and key in table:
        first = table[key][1]
        diags.append(src.diag(f"{name[:-1]} '{key}' is already defined at {first.where}"
                              + ("; an overlay changes it with 'replace'" if here.path[0] == "add" else ""),
                              ("id",)))
        return
    if mode == "replace" and key not in table:
        diags.append(src.diag(f"replace: no {name[:-1]} '{key}' to replace" + suggest(key, table), ("id",)))
        return
    table[key] = (keep_citation(table[key][0], item) if mode == "replace" else item, src)


def _named(table: dict, what: str, value: dict, here: Src, diags: list[Diagnostic], mode: str) -> None:
    for key, item in value.items():
        src = here.at(key)
        if mode == "add" and key in table:
            diags.append(src.diag(f"{what} '{key}' is already defined at {table[key][1].where}; use replace",
                                  at_key=True))
            continue
        if mode == "replace" and key not in table:
            diags.append(src.diag(f"replace: no {what} '{key}'" + suggest(key, table), at_key=True))
            continue
        table[key] = (keep_citation(table[key][0], item) if mode == "replace" else item, src)


KEPT = ("rule", "doc")


def keep_citation(old: Any, new: Any) -> Any:
    """Returns a replacing entry with the replaced one's `rule:` and `doc:` where it gives
    none: a replace changes what a rule does, not which clause it carries (coverage would
    silently lose the clause otherwise)."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return new
    kept = {k: old[k] for k in KEPT if k in old and k not in new}
    return {**new, **kept} if kept else new


def add_section(spec: Spec, name: str, value: Any, loaded: Loaded, base: tuple,
                diags: list[Diagnostic], mode: str) -> None:
    """Merges one section (as found in a base file or an overlay's add/replace)."""
    here = Src(loaded, base)
    if name in KEYED or name in INDEXED:
        _keyed(spec, name, value, here, diags, mode)
    elif name in NAMED:
        what = {"procedures": "procedure", "functions": "function", "quantities": "quantity",
                "params": "parameter"}[name]
        _named(spec.sections[name], what, value, here, diags, mode)
    elif name == "edges":
        spec.edges.extend((e, here.at(i)) for i, e in enumerate(value) if e is not None)
    elif name == "triggers":
        if mode == "replace":
            events = {t["on"] for t in value if t is not None}
            spec.triggers = [t for t in spec.triggers if t[0]["on"] not in events]
        spec.triggers.extend((t, here.at(i)) for i, t in enumerate(value) if t is not None)
    elif name == "structure":
        if mode == "add" and spec.structure is not None:
            diags.append(here.diag("'structure' is already defined; an overlay inserts steps with 'insert' "
                                   "or changes the whole with 'replace'", at_key=True))
            return
        spec.structure, spec.structure_src = make_nodes(value, here, diags), here
    elif name == "scoring":
        if mode == "add" and spec.scoring is not None:
            diags.append(here.diag("'scoring' is already defined; an overlay changes it with 'replace'", at_key=True))
            return
        spec.scoring = (value, here)
    elif name == "vars":
        for scope, table in (("game", spec.game_vars), ("player", spec.player_vars)):
            _named(table, f"{scope} variable", value.get(scope, {}), here.at(scope), diags, mode)
        spec.private.extend(x for x in value.get("private", []) if x not in spec.private)
        spec.internal.extend(x for x in value.get("internal", []) if x not in spec.internal)
    elif name in ("attributes", "box"):
        _named(getattr(spec, name), f"{name} entry", value, here, diags, mode)


def read_spec(folder: Path) -> tuple[Spec, list[Diagnostic]]:
    """Returns the merged base spec of a game folder and every problem found reading it."""
    spec = Spec()
    diags: list[Diagnostic] = []
    for fname, kind in PART_FILES.items():
        path = folder / fname
        if not formats.reads(formats.game_format(spec.meta), fname):
            continue        # a file the game's (older) format did not read
        if not os.path.lexists(path):      # anything there is read (and refused if not a file)
            if kind == "game":
                diags.append(Diagnostic(display_path(path), 1, 1, "missing game.yaml"))
            continue
        loaded, problems = read_part(path, display_path(path), kind, partial=True)
        diags.extend(problems)
        spec.pruned = spec.pruned or bool(problems)
        if loaded is None:
            continue
        data = loaded.data
        if kind == "game":
            spec.meta, spec.meta_src = data["game"], Src(loaded, ("game",))
            spec.limits = data.get("limits", {})
            for key in ("vars", "attributes", "box", "params", "procedures", "functions", "quantities",
                        "triggers", "structure", "scoring"):
                if key in data:
                    add_section(spec, key, data[key], loaded, (key,), diags, "base")
        elif kind == "rules":
            spec.rulebook = data["rulebook"]
            for key in INDEXED:
                if key in data:
                    add_section(spec, key, data[key], loaded, (key,), diags, "add")
        elif kind == "board":
            spec.has_board = True
            spec.assembled_in_play = data["board"].get("assembled_in_play", False)
            spec.legend = data["board"].get("legend", "")
            add_section(spec, "spaces", data["board"]["spaces"], loaded, ("board", "spaces"), diags, "add")
            for g, group in enumerate(data["board"].get("groups", ())):
                add_section(spec, "spaces", group["entries"], loaded, ("board", "groups", g, "entries"), diags, "add")
                _note_group(spec, group)
            add_section(spec, "edges", data["board"]["edges"], loaded, ("board", "edges"), diags, "add")
        else:
            for key, value in data.items():
                if key == "groups":
                    for g, group in enumerate(value):
                        add_section(spec, kind, group["entries"], loaded, ("groups", g, "entries"), diags, "add")
                else:
                    add_section(spec, key, value, loaded, (key,), diags, "add")
    _read_terminal(spec, folder, diags)
    vdir = folder / "variants"
    if vdir.is_dir():
        for path in sorted(vdir.glob("*.yaml")):
            loaded, problems = read_part(path, display_path(path), "variant")
            diags.extend(problems)
            if loaded is None:
                continue
            vid = loaded.data["variant"]["id"]
            if vid in spec.variants:
                diags.append(loaded.diag(("variant", "id"), f"variant id '{vid}' is used twice"))
            spec.variants[vid] = (loaded, path)
    return spec, diags


def _note_group(spec: Spec, group: dict) -> None:
    """Remembers a board group's defaults for its spaces and for its kind."""
    defaults = group["defaults"]
    for entry in group["entries"]:
        if isinstance(entry, dict):
            spec.space_defaults[entry["id"]] = defaults
    if isinstance(defaults.get("kind"), str):
        spec.kind_defaults.setdefault(defaults["kind"], defaults)


def _read_terminal(spec: Spec, folder: Path, diags: list[Diagnostic]) -> None:
    """Reads terminal.yaml, the terminal's hints: looks only, so not part of the rules'
    content hash (a record stays valid when the hints change)."""
    path = folder / "terminal.yaml"
    if not os.path.lexists(path) or not formats.reads(formats.game_format(spec.meta), path.name):
        return
    loaded, problems = read_part(path, display_path(path), "terminal")
    diags.extend(problems)
    if loaded is not None:
        spec.terminal = (loaded.data["terminal"], Src(loaded, ("terminal",)))
