"""Turns a game folder plus chosen variants into a CompiledGame, or a list of problems.

Pipeline: read and schema-check every file -> merge into one spec that remembers where
each entry was written -> apply variant overlays (add / replace / remove, never a silent
collision) -> semantic checks (references, counts, board connectivity) -> compile every
effect once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from ..diagnostics import Diagnostic, DefinitionError, suggest
from ..engine.game import CompiledGame, Trigger
from ..lang.compiler import Compiler, Env, Program
from ..lang.registry import load_all
from .files import PART_FILES, display_path, read_part, resolve_game
from .yaml_safe import Loaded

KEYED = ("zones", "dice", "components", "cards", "spaces")
NAMED = ("procedures", "functions")


@dataclass(frozen=True)
class Src:
    """Where an entry was written: a loaded file and the path inside it."""

    loaded: Loaded
    path: tuple

    def diag(self, message: str, sub: tuple = (), at_key: bool = False) -> Diagnostic:
        return self.loaded.diag(self.path + sub, message, at_key=at_key)


@dataclass
class Spec:
    """The merged definition before compiling; every entry keeps its Src."""

    meta: dict = field(default_factory=dict)
    meta_src: Src | None = None
    limits: dict = field(default_factory=dict)
    sections: dict[str, dict[str, tuple[dict, Src]]] = field(
        default_factory=lambda: {k: {} for k in KEYED + NAMED})
    edges: list[tuple[list, Src]] = field(default_factory=list)
    triggers: list[tuple[dict, Src]] = field(default_factory=list)
    game_vars: dict[str, tuple[Any, Src]] = field(default_factory=dict)
    player_vars: dict[str, tuple[Any, Src]] = field(default_factory=dict)
    private: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    legend: str = ""
    attributes: dict[str, tuple[Any, Src]] = field(default_factory=dict)
    box: dict[str, tuple[int, Src]] = field(default_factory=dict)
    flow: tuple[str, Src] | None = None
    scoring: tuple[dict, Src] | None = None
    has_board: bool = False
    assembled_in_play: bool = False
    pruned: bool = False          # some entries were left out for schema problems
    variants: dict[str, tuple[Loaded, Path]] = field(default_factory=dict)


def _add_section(spec: Spec, name: str, value: Any, loaded: Loaded, base: tuple,
                 diags: list[Diagnostic], mode: str) -> None:
    """Merges one section (as found in a base file or an overlay's add/replace)."""
    here = Src(loaded, base)
    if name in KEYED:
        table = spec.sections[name]
        for i, item in enumerate(value):
            if item is None:   # left out for a schema problem already reported
                continue
            src = Src(loaded, base + (i,))
            key = item["id"]
            if mode == "add" and key in table:
                first = table[key][1]
                diags.append(src.diag(f"{name[:-1]} '{key}' is already defined at "
                                      f"{first.loaded.file}:{first.loaded.pos(first.path).line}"
                                      + ("; an overlay changes it with 'replace'" if base[0] == "add" else ""),
                                      ("id",)))
                continue
            if mode == "replace" and key not in table:
                diags.append(src.diag(f"replace: no {name[:-1]} '{key}' to replace" + suggest(key, table), ("id",)))
                continue
            table[key] = (item, src)
    elif name in NAMED:
        table = spec.sections[name]
        for key, item in value.items():
            src = Src(loaded, base + (key,))
            if mode == "add" and key in table:
                diags.append(src.diag(f"{name[:-1]} '{key}' is already defined; use replace", at_key=True))
                continue
            if mode == "replace" and key not in table:
                diags.append(src.diag(f"replace: no {name[:-1]} '{key}'" + suggest(key, table), at_key=True))
                continue
            table[key] = (item, src)
    elif name == "edges":
        spec.edges.extend((e, Src(loaded, base + (i,))) for i, e in enumerate(value) if e is not None)
    elif name == "triggers":
        if mode == "replace":
            events = {t["on"] for t in value if t is not None}
            spec.triggers = [t for t in spec.triggers if t[0]["on"] not in events]
        spec.triggers.extend((t, Src(loaded, base + (i,))) for i, t in enumerate(value) if t is not None)
    elif name in ("flow", "scoring"):
        if mode == "add" and getattr(spec, name) is not None:
            diags.append(here.diag(f"'{name}' is already defined; an overlay changes it with 'replace'", at_key=True))
            return
        setattr(spec, name, (value, here))
    elif name == "vars":
        for scope, table in (("game", spec.game_vars), ("player", spec.player_vars)):
            for key, v in value.get(scope, {}).items():
                src = Src(loaded, base + (scope, key))
                if mode == "add" and key in table:
                    diags.append(src.diag(f"{scope} variable '{key}' is already defined; use replace", at_key=True))
                    continue
                if mode == "replace" and key not in table:
                    diags.append(src.diag(f"replace: no {scope} variable '{key}'" + suggest(key, table), at_key=True))
                    continue
                table[key] = (v, src)
        spec.private.extend(x for x in value.get("private", []) if x not in spec.private)
        spec.internal.extend(x for x in value.get("internal", []) if x not in spec.internal)
    elif name in ("attributes", "box"):
        table = getattr(spec, name)
        for key, v in value.items():
            src = Src(loaded, base + (key,))
            if mode == "replace" and key not in table:
                diags.append(src.diag(f"replace: no {name} entry '{key}'" + suggest(key, table), at_key=True))
                continue
            if mode == "add" and key in table:
                diags.append(src.diag(f"{name} entry '{key}' is already defined; use replace", at_key=True))
                continue
            table[key] = (v, src)


def read_spec(folder: Path) -> tuple[Spec, list[Diagnostic]]:
    """Returns the merged base spec of a game folder and every problem found reading it."""
    spec = Spec()
    diags: list[Diagnostic] = []
    for fname, kind in PART_FILES.items():
        path = folder / fname
        if not path.is_file():
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
            for key in ("vars", "attributes", "box", "procedures", "functions", "triggers", "flow", "scoring"):
                if key in data:
                    _add_section(spec, key, data[key], loaded, (key,), diags, "base")
        elif kind == "board":
            spec.has_board = True
            spec.assembled_in_play = data["board"].get("assembled_in_play", False)
            spec.legend = data["board"].get("legend", "")
            _add_section(spec, "spaces", data["board"]["spaces"], loaded, ("board", "spaces"), diags, "add")
            _add_section(spec, "edges", data["board"]["edges"], loaded, ("board", "edges"), diags, "add")
        else:
            for key, value in data.items():
                _add_section(spec, key, value, loaded, (key,), diags, "add")
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


def apply_variant(spec: Spec, vid: str, chosen: list[str], diags: list[Diagnostic]) -> None:
    """Applies one overlay to the spec: remove, then replace, then add."""
    loaded, _ = spec.variants[vid]
    data = loaded.data
    for req in data["variant"].get("requires", []):
        if req not in spec.variants:
            diags.append(loaded.diag(("variant", "requires"), f"requires unknown variant '{req}'"
                                     + suggest(req, spec.variants)))
        elif req not in chosen:
            diags.append(loaded.diag(("variant", "requires"), f"variant '{vid}' requires variant '{req}'"))
    for ex in data["variant"].get("excludes", []):
        if ex in chosen:
            diags.append(loaded.diag(("variant", "excludes"), f"variant '{vid}' cannot be played with '{ex}'"))
    for name, ids in data.get("remove", {}).items():
        for i, key in enumerate(ids):
            src = Src(loaded, ("remove", name, i))
            if name == "triggers":
                before = len(spec.triggers)
                spec.triggers = [t for t in spec.triggers if t[0]["on"] != key]
                if len(spec.triggers) == before:
                    diags.append(src.diag(f"remove: no trigger on event '{key}'"))
                continue
            table = spec.sections[name]
            if key not in table:
                diags.append(src.diag(f"remove: no {name[:-1]} '{key}'" + suggest(key, table)))
                continue
            del table[key]
            if name == "spaces":
                spec.edges = [e for e in spec.edges if key not in e[0]]
    for mode in ("replace", "add"):
        for name, value in data.get(mode, {}).items():
            _add_section(spec, name, value, loaded, (mode, name), diags, mode)
    players = data["variant"].get("players")
    if players:
        spec.meta = dict(spec.meta)
        spec.meta["players"] = {"min": players.get("min", spec.meta["players"]["min"]),
                                "max": players.get("max", spec.meta["players"]["max"])}


def _instances(item: dict) -> list[str]:
    n = item.get("count", 1)
    return [item["id"]] if n == 1 else [f"{item['id']}.{i}" for i in range(1, n + 1)]


def build(folder: Path, variants: list[str]) -> tuple[CompiledGame | None, list[Diagnostic]]:
    """Returns the compiled game (or None) and every problem found on the way."""
    load_all()
    spec, diags = read_spec(folder)
    for vid in variants:
        if vid not in spec.variants:
            diags.append(Diagnostic(display_path(folder), 1, 1, f"no variant '{vid}'"
                                    + suggest(vid, spec.variants)
                                    + (f"; known: {', '.join(sorted(spec.variants))}" if spec.variants else "")))
            continue
        apply_variant(spec, vid, variants, diags)
    if spec.meta_src is None or spec.flow is None or spec.scoring is None:
        return None, diags
    # Compile even after problems (entries with schema problems were left out), so one run
    # reports every problem; the game is only returned when there were none.
    return _compile(spec, folder, variants, diags)


def _compile(spec: Spec, folder: Path, variants: list[str], diags: list[Diagnostic]
             ) -> tuple[CompiledGame | None, list[Diagnostic]]:
    zones, dice = spec.sections["zones"], spec.sections["dice"]
    spaces = spec.sections["spaces"]
    # -- ids are one namespace ------------------------------------------------------
    owner: dict[str, str] = {}
    for section in KEYED:
        for key, (_item, src) in spec.sections[section].items():
            if key in owner and owner[key] != section:
                diags.append(src.diag(f"id '{key}' is also used by a {owner[key][:-1]}", ("id",)))
            owner.setdefault(key, section)
    # -- objects ---------------------------------------------------------------------
    props: dict[str, dict[str, Any]] = {}
    effects_src: dict[str, tuple[str, Src]] = {}
    components: list[tuple[str, str, str]] = []
    effects: dict[str, str] = {}
    for section in ("components", "cards"):
        for key, (item, src) in spec.sections[section].items():
            start = item["start"]
            if start not in zones and start not in spaces:
                diags.append(src.diag(f"start '{start}' is neither a zone nor a board space"
                                      + suggest(start, list(zones) + list(spaces)), ("start",)))
            elif start in zones and zones[start][0].get("per_player"):
                diags.append(src.diag(f"start zone '{start}' is per player; start in a shared zone "
                                      "and deal in the flow", ("start",)))
            kind = item.get("kind", "card" if section == "cards" else item.get("kind"))
            base = {"kind": kind, "name": item.get("name", key), "def": key, **item.get("props", {})}
            if "text" in item:
                base["text"] = item["text"]
            if "effect" in item:
                effects_src[key] = (item["effect"], Src(src.loaded, src.path + ("effect",)))
            instances = _instances(item)
            for i, obj in enumerate(instances, 1):
                if obj in owner and obj != key:
                    diags.append(src.diag(f"object id '{obj}' clashes with a {owner[obj][:-1]}", ("id",)))
                props[obj] = base if len(instances) == 1 else {**base, "name": f"{base['name']} {i}",
                                                               "set_name": base["name"]}
                components.append((obj, kind, start))
                if "effect" in item:
                    effects[obj] = f"effect:{key}"
    # -- board -----------------------------------------------------------------------
    graph = nx.Graph()
    for key, (item, _src) in spaces.items():
        graph.add_node(key)
        # An unnamed space reads as "id (kind)" in logs and option labels.
        props[key] = {"kind": item["kind"], "name": item.get("name", f"{key} ({item['kind']})"),
                      **({"at": item["at"]} if "at" in item else {}), **item.get("props", {})}
    for (a, b), src in spec.edges:
        for i, end in enumerate((a, b)):
            if end not in spaces:
                diags.append(src.diag(f"edge end '{end}' is not a space" + suggest(end, spaces), (i,)))
        if a == b:
            diags.append(src.diag(f"edge joins '{a}' to itself"))
        if a in spaces and b in spaces:
            graph.add_edge(a, b)
    if spaces and not spec.assembled_in_play and not nx.is_connected(graph):
        parts = sorted(nx.connected_components(graph), key=len)
        lonely = sorted(parts[0])[:5]
        src = spaces[lonely[0]][1] if lonely[0] in spaces else spec.meta_src
        diags.append(src.diag(f"the board is not connected: {len(parts)} separate parts; "
                              f"e.g. {', '.join(lonely)} cannot be reached from the rest"))
    for key, (item, src) in zones.items():
        props[key] = {"kind": "zone", "name": key}
        show = item.get("show")
        if show is not None and len(spec.sections["functions"].get(show, ({}, None))[0].get("params", ())) != 1:
            diags.append(src.diag(f"show: '{show}' is not a function of one object"
                                  + suggest(show, spec.sections["functions"]), ("show",)))
    # -- box inventory ---------------------------------------------------------------
    counts: dict[str, int] = {}
    for _obj, kind, _start in components:
        counts[kind] = counts.get(kind, 0) + 1
    if spec.box and not spec.pruned:   # counts are meaningless with entries left out
        for kind, (n, src) in spec.box.items():
            if counts.get(kind, 0) != n:
                diags.append(src.diag(f"box declares {n} '{kind}' but the definitions hold {counts.get(kind, 0)}"))
        for kind in counts:
            if kind not in spec.box:
                diags.append(spec.meta_src.diag(f"components of kind '{kind}' are not declared in 'box'"))
    meta = spec.meta
    if meta["players"]["min"] > meta["players"]["max"]:
        diags.append(spec.meta_src.diag("players: min is more than max", ("players",)))
    # -- compile effects -------------------------------------------------------------
    attributes = {"id", "name", "kind", "def", "text"} | set(spec.player_vars) | set(spec.attributes)
    for p in props.values():
        attributes |= set(p)
    env = Env(procedures={k: tuple(v[0].get("params", ())) for k, v in spec.sections["procedures"].items()},
              functions={k: tuple(v[0].get("params", ())) for k, v in spec.sections["functions"].items()},
              places=set(zones) | set(spaces), zones=set(zones),
              objects={o for o, _k, _s in components}, spaces=set(spaces), dice=set(dice),
              game_vars=set(spec.game_vars), attributes=attributes)
    comp = Compiler(env)
    programs: dict[str, Program] = {}

    def report(src: Src) -> None:
        for e in comp.errors:
            pos = src.loaded.locate(src.path, e.line, e.column)
            diags.append(Diagnostic(src.loaded.file, pos.line, pos.column, e.message))
        comp.errors.clear()

    def program(key: str, text: str, src: Src, params: tuple = (), predefined: tuple = ()) -> None:
        prog = comp.program(key, text, params, predefined)
        if prog is None:
            report(src)
            return
        prog.file = src.loaded.file
        prog.where = [(p.line, p.column) for p in (src.loaded.locate(src.path, l, c) for l, c in prog.where)]
        programs[key] = prog

    flow_text, flow_src = spec.flow
    program("main", flow_text, flow_src)
    for name, (item, src) in spec.sections["procedures"].items():
        program("proc:" + name, item["do"], Src(src.loaded, src.path + ("do",)), tuple(item.get("params", ())))
    for key, (text, src) in effects_src.items():
        program(f"effect:{key}", text, src, predefined=("me", "this"))
    triggers: dict[str, list[Trigger]] = {}
    for i, (t, src) in enumerate(spec.triggers):
        params = tuple(t.get("params", ()))
        cond = None
        if "if" in t:
            cond = comp.expression(t["if"], params)
            report(Src(src.loaded, src.path + ("if",)))
        program(f"trigger:{i}", t["do"], Src(src.loaded, src.path + ("do",)), params)
        triggers.setdefault(t["on"], []).append(Trigger(t["on"], cond, f"trigger:{i}"))
    for t, src in spec.triggers:
        if t["on"] not in comp.emitted:
            diags.append(src.diag(f"trigger on '{t['on']}': no effect emits that event"
                                  + suggest(t["on"], comp.emitted), ("on",)))
    functions: dict[str, Any] = {}
    for name, (item, src) in spec.sections["functions"].items():
        fn = comp.expression(item["expr"], tuple(item.get("params", ())))
        report(Src(src.loaded, src.path + ("expr",)))
        if fn is not None:
            functions[name] = fn
    scoring, ssrc = spec.scoring
    score = comp.expression(scoring["score"], ("me",))
    report(Src(ssrc.loaded, ssrc.path + ("score",)))
    tiebreaks = []
    for i, text in enumerate(scoring.get("tiebreak", [])):
        tiebreaks.append(comp.expression(text, ("me",)))
        report(Src(ssrc.loaded, ssrc.path + ("tiebreak", i)))
    win_if = None
    if "win_if" in scoring:
        win_if = comp.expression(scoring["win_if"], ("me",))
        report(Src(ssrc.loaded, ssrc.path + ("win_if",)))
    for table in (spec.game_vars, spec.player_vars, spec.attributes):
        for name, (value, src) in table.items():
            if isinstance(value, str) and value.lower() in ("none", "nil"):
                diags.append(src.diag(f"'{name}: {value}' is the text \"{value}\" in YAML; write null "
                                      "for no value (the effect language's none)"))
    for name in spec.internal:
        if name not in spec.game_vars and name not in spec.player_vars:
            diags.append(spec.meta_src.diag(f"vars.internal names '{name}', which is not a variable"
                                            + suggest(name, list(spec.game_vars) + list(spec.player_vars))))
    if diags:
        return None, diags
    adj = {s: tuple(graph.neighbors(s)) for s in spaces}
    kinds: dict[str, list[str]] = {}
    for obj, kind, _ in components:
        kinds.setdefault(kind, []).append(obj)
    game = CompiledGame(
        id=meta["id"], name=meta["name"], version=meta["version"], variants=tuple(variants),
        min_players=meta["players"]["min"], max_players=meta["players"]["max"],
        programs=programs, main="main", functions=functions, effects=effects, props=props,
        attr_defaults={k: v for k, (v, _) in spec.attributes.items()},
        zones={k: v[0] for k, v in zones.items()},
        dice={k: list(v[0]["faces"]) for k, v in dice.items()},
        spaces=list(spaces), adj=adj, edge_list=[tuple(e) for e, _ in spec.edges],
        components=components,
        player_vars={k: v for k, (v, _) in spec.player_vars.items()}, private_vars=set(spec.private),
        game_vars={k: v for k, (v, _) in spec.game_vars.items()},
        score=score, tiebreaks=tiebreaks, triggers=triggers, win_if=win_if,
        internal_vars=set(spec.internal), legend=spec.legend,
        player_names=list(meta.get("player_names", [])),
        step_budget=spec.limits.get("steps", 200_000), max_depth=spec.limits.get("depth", 64),
        max_trigger_depth=spec.limits.get("trigger_depth", 16),
        source_dir=str(folder),
        meta={"rulebook": meta.get("rulebook", ""), "description": meta.get("description", ""),
              "box": {k: v for k, (v, _) in spec.box.items()},
              "variants": {k: v[0].data["variant"]["name"] for k, v in spec.variants.items()}},
    )
    game.kind_index = {k: tuple(v) for k, v in kinds.items()}
    game.env = env
    return game, []


def load_game(spec: str | Path, variants: list[str] | tuple[str, ...] = ()) -> CompiledGame:
    """Returns the compiled game for an id or folder; raises DefinitionError with every problem."""
    folder = resolve_game(spec)
    if folder is None:
        raise DefinitionError([Diagnostic(str(spec), 1, 1, f"no game '{spec}' (a game id or a folder with game.yaml)")])
    game, diags = build(folder, list(variants))
    if game is None:
        raise DefinitionError(diags)
    return game


def list_variants(spec: str | Path) -> dict[str, str]:
    """Returns {variant id: name} for a game, without compiling it."""
    folder = resolve_game(spec)
    if folder is None:
        return {}
    s, _ = read_spec(folder)
    return {k: v[0].data["variant"]["name"] for k, v in s.variants.items()}
