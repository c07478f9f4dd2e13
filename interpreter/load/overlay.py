"""Applies a variant or expansion overlay to a Spec.

An overlay holds only what is new: it removes, replaces and adds entries, sets
parameters, attaches abilities to existing objects, extends procedures (runs something
before or after them) and inserts steps into the turn structure. It never changes the
base by a silent name collision, and two overlays that replace, remove or set the same
thing are an error that names both.
"""
from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, suggest
from .spec import KEYED, NODE_KINDS, Node, Spec, Src, add_section, make_node, make_nodes

ORDER = ("remove", "replace", "add", "set", "extend", "insert")


def _claim(spec: Spec, vid: str, what: str, key: str, src: Src, diags: list[Diagnostic]) -> None:
    """Notes that overlay `vid` changes (section, key); a second overlay doing so is an error."""
    other = spec.changed_by.get((what, key))
    if other is not None and other != vid:
        diags.append(src.diag(f"variants '{other}' and '{vid}' both change {what} '{key}'; "
                              "they cannot be played together"))
    spec.changed_by[(what, key)] = vid


def apply_variant(spec: Spec, vid: str, chosen: list[str], diags: list[Diagnostic]) -> None:
    """Applies one overlay to the spec, in the order remove, replace, add, set, extend, insert."""
    loaded, _ = spec.variants[vid]
    data = loaded.data
    here = Src(loaded, ())
    _requires(spec, vid, chosen, data["variant"], here.at("variant"), diags)
    for part in ORDER:
        if part in data:
            _PARTS[part](spec, vid, data[part], here.at(part), diags)
    players = data["variant"].get("players")
    if players:
        spec.meta = dict(spec.meta)
        spec.meta["players"] = {"min": players.get("min", spec.meta["players"]["min"]),
                                "max": players.get("max", spec.meta["players"]["max"])}


def _requires(spec: Spec, vid: str, chosen: list[str], head: dict, src: Src, diags: list[Diagnostic]) -> None:
    for req in head.get("requires", []):
        if req not in spec.variants:
            diags.append(src.diag(f"requires unknown variant '{req}'" + suggest(req, spec.variants), ("requires",)))
        elif req not in chosen:
            diags.append(src.diag(f"variant '{vid}' requires variant '{req}'", ("requires",)))
    for ex in head.get("excludes", []):
        if ex in chosen:
            diags.append(src.diag(f"variant '{vid}' cannot be played with '{ex}'", ("excludes",)))


def _remove(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    for name, ids in value.items():
        if name == "rule":
            spec.removal_rules.append((ids, src.at("rule")))
            continue
        for i, key in enumerate(ids):
            at = src.at(name, i)
            _claim(spec, vid, name, key, at, diags)
            if name == "triggers":
                before = len(spec.triggers)
                spec.triggers = [t for t in spec.triggers if t[0]["on"] != key]
                if len(spec.triggers) == before:
                    diags.append(at.diag(f"remove: no trigger on event '{key}'"))
            elif name == "steps":
                if not _detach(spec, key):
                    diags.append(at.diag(f"remove: no step '{key}' in the structure"
                                         + suggest(key, [n.id for n in spec.nodes()])))
                else:
                    spec.note_removal(name, key, at)    # provenance only (for blame_removals)
            else:
                table = spec.sections[name]
                if key not in table:
                    diags.append(at.diag(f"remove: no {name[:-1]} '{key}'" + suggest(key, table)))
                    continue
                spec.note_removal(name, key, at)    # provenance only (for blame_removals)
                del table[key]
                if name == "spaces":
                    spec.edges = [e for e in spec.edges if key not in e[0]]


def _replace(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    for name, body in value.items():
        if name == "steps":
            for key, node in body.items():
                _claim(spec, vid, "steps", key, src.at(name, key), diags)
                _replace_step(spec, key, node, src.at(name, key), diags)
            continue
        for key in _keys(name, body):
            _claim(spec, vid, name, key, src.at(name), diags)
        add_section(spec, name, body, src.loaded, src.path + (name,), diags, "replace")


def _keys(name: str, body: Any) -> list[str]:
    if name in KEYED:
        return [x["id"] for x in body if x is not None]
    if isinstance(body, dict) and name not in ("scoring",):
        if name == "vars":
            return [f"{s}.{k}" for s in ("game", "player") for k in body.get(s, {})]
        return list(body)
    return [name]


def _add(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    for name, body in value.items():
        if name == "steps":
            diags.append(src.diag("steps are added with 'insert' (before or after a named step)", (name,),
                                  at_key=True))
            continue
        add_section(spec, name, body, src.loaded, src.path + (name,), diags, "add")


def _set(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    params = spec.sections["params"]
    for key, new in value.get("params", {}).items():
        at = src.at("params", key)
        _claim(spec, vid, "params", key, at, diags)
        if key not in params:
            diags.append(at.diag(f"set: no parameter '{key}'" + suggest(key, params), at_key=True))
            continue
        old, _old_src = params[key]
        entry = dict(new) if isinstance(new, dict) and ("by_players" in new or "value" in new) else {"value": new}
        cite = entry.pop("rule", None)
        problem = _type_change(old, entry)
        if problem:
            diags.append(at.diag(f"set: parameter '{key}' {problem}"))
            continue
        kept = {k: v for k, v in old.items() if k in ("doc", "rule")}
        if cite is not None:        # the overlay's clause carries the new value too
            kept["rule"] = [*([kept["rule"]] if isinstance(kept.get("rule"), str) else kept.get("rule", [])),
                            *([cite] if isinstance(cite, str) else cite)]
        params[key] = ({**kept, **entry}, at)


def _kind(v: Any) -> str:
    return {bool: "a boolean", int: "a number", str: "a text", list: "a list", dict: "a record",
            type(None): "none"}.get(type(v), "a value")


def _type_change(old: dict, new: dict) -> str:
    """Returns why a new parameter value does not fit the declared one, or ''."""
    def values(e: dict) -> list:
        return list(e["by_players"].values()) if "by_players" in e else [e.get("value")]
    kinds = {_kind(v) for v in values(old)} - {"none"}
    for v in values(new):
        if kinds and _kind(v) not in kinds and _kind(v) != "none":
            return f"is {' or '.join(sorted(kinds))}, not {_kind(v)} ({v!r})"
    return ""


def _extend(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    procs = spec.sections["procedures"]
    for name, ext in value.get("procedures", {}).items():
        at = src.at("procedures", name)
        if name not in procs:
            diags.append(at.diag(f"extend: no procedure '{name}'" + suggest(name, procs), at_key=True))
            continue
        spec.extensions.setdefault(name, []).append((ext, at))
    known = {k for section in ("components", "cards", "spaces") for k in spec.sections[section]}
    for oid, ext in value.get("objects", {}).items():
        at = src.at("objects", oid)
        if oid not in known:
            diags.append(at.diag(f"extend: no card, component or space '{oid}'" + suggest(oid, known), at_key=True))
            continue
        spec.extra_abilities.setdefault(oid, []).extend(
            (a, at.at("abilities", i)) for i, a in enumerate(ext["abilities"]) if a is not None)


def _insert(spec: Spec, vid: str, value: list, src: Src, diags: list[Diagnostic]) -> None:
    for i, ins in enumerate(value):
        if ins is None:
            continue
        at = src.at(i)
        anchors = [k for k in ("before", "after", "into") if k in ins]
        if len(anchors) != 1:
            diags.append(at.diag("insert needs exactly one of before, after or into (a step id)"))
            continue
        how = anchors[0]
        target = ins[how]
        nodes = make_nodes(ins["steps"], at.at("steps"), diags)
        if how == "into":
            parent = _find(spec, target)
            if parent is None or parent[0].kind == "step" and not parent[0].children and "do" in parent[0].data:
                diags.append(at.diag(f"insert: no round, turn or phase '{target}' to insert into"
                                     + suggest(target, [n.id for n in spec.nodes()]), (how,)))
                continue
            node = parent[0]
            node.children = nodes + node.children if ins.get("at", "end") == "start" else node.children + nodes
            continue
        found = _find(spec, target)
        if found is None:
            diags.append(at.diag(f"insert: no step '{target}' in the structure"
                                 + suggest(target, [n.id for n in spec.nodes()]), (how,)))
            continue
        node, siblings = found
        k = siblings.index(node) + (1 if how == "after" else 0)
        siblings[k:k] = nodes


def _find(spec: Spec, key: str) -> tuple[Node, list[Node]] | None:
    """Returns a node with its list of siblings, or None."""
    stack = [spec.structure or []]
    while stack:
        siblings = stack.pop()
        for n in siblings:
            if n.id == key:
                return n, siblings
            stack.append(n.children)
    return None


def _detach(spec: Spec, key: str) -> bool:
    found = _find(spec, key)
    if found is None:
        return False
    node, siblings = found
    siblings.remove(node)
    return True


def _replace_step(spec: Spec, key: str, body: dict, src: Src, diags: list[Diagnostic]) -> None:
    found = _find(spec, key)
    if found is None:
        diags.append(src.diag(f"replace: no step '{key}' in the structure"
                              + suggest(key, [n.id for n in spec.nodes()]), at_key=True))
        return
    node, siblings = found
    # `replace: {steps: {id: {...}}}` names the part by its key; the entry may leave its kind out.
    item = body if any(k in body for k in NODE_KINDS) else {node.kind: key, **body}
    new = make_node(item, src, diags)
    if new is not None:
        siblings[siblings.index(node)] = new


_PARTS = {"remove": _remove, "replace": _replace, "add": _add, "set": _set, "extend": _extend, "insert": _insert}
