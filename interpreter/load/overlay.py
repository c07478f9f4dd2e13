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
from .overlay_set import set_objects
from .ranges import made_ids
from .spec import KEYED, NODE_KINDS, Node, Spec, Src, add_section, keep_citation, make_node, make_nodes

ORDER = ("remove", "replace", "add", "set", "extend", "insert")


# What two overlays may both do to one entry: remove it, set it to the same value, add to
# a box count, build on it (extend it, insert next to it), or set its properties (each
# property is claimed on its own: one set to two values contradicts). Anything else contradicts.
_AGREE = {("remove", "remove"), ("delta", "delta"), ("use", "use"), ("use", "replace"), ("replace", "use"),
          ("use", "set"), ("set", "use"), ("props", "props"), ("props", "use"), ("use", "props")}
_SINGULAR = {"params": "parameter", "cards": "card", "components": "component", "spaces": "space",
             "zones": "zone", "dice": "die", "procedures": "procedure", "functions": "function",
             "quantities": "quantity", "steps": "step", "triggers": "trigger on", "box": "box entry",
             "vars": "variable", "attributes": "attribute", "clauses": "clause", "readings": "reading",
             "edges": "edge", "players": "player count", "props": "property"}


def _claim(spec: Spec, vid: str, what: str, key: str, src: Src, diags: list[Diagnostic],
           action: str = "replace", value: Any = None) -> bool:
    """Notes that overlay `vid` changes (section, key); returns False (with ONE error naming
    both places) when an earlier overlay did something to it this contradicts."""
    claims = spec.changed_by.setdefault((what, key), [])
    for other, how, at, was in claims:
        if other == vid or (how, action) in _AGREE:
            continue
        if how in ("set", "replace") and action in ("set", "replace") and value is not None and was == value:
            continue        # the same value twice: no contradiction
        spec.contested.add((what, key))
        diags.append(src.diag(f"variants '{other}' and '{vid}' both change {_SINGULAR.get(what, what)} '{key}': "
                              f"{at.place} {_doing(how, was)}, {src.place} {_doing(action, value)}; "
                              "they cannot be played together"))
        return False
    claims.append((vid, action, src, value))
    return True


def _doing(action: str, value: Any) -> str:
    """Returns what an overlay does to an entry, for a conflict message."""
    if action == "set" or action == "replace" and value is not None:
        return f"sets it to {_shown(value)}"
    if action == "delta":
        return f"adds {value} to it" if value >= 0 else f"takes {-value} from it"
    if action in ("use", "props"):
        return value
    return {"remove": "removes it", "replace": "replaces it"}.get(action, action)


def _shown(value: Any) -> str:
    """Returns a parameter value as a conflict message shows it."""
    if isinstance(value, dict) and set(value) == {"value"}:
        value = value["value"]
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _param_value(entry: Any) -> Any:
    """Returns the value part of a parameter entry (what two overlays may agree on)."""
    if isinstance(entry, dict) and ("by_players" in entry or "value" in entry):
        return {k: entry[k] for k in ("value", "by_players") if k in entry}
    return {"value": entry}


def apply_variants(spec: Spec, variants: list[str], diags: list[Diagnostic]) -> list[str]:
    """Applies the chosen overlays; returns them in the order applied: the order given,
    except that an overlay comes after every chosen overlay it `requires`."""
    known = [v for v in variants if v in spec.variants]
    order = _ordered(spec, known, diags)
    for vid in order:
        apply_variant(spec, vid, variants, diags)
    return order


def _ordered(spec: Spec, chosen: list[str], diags: list[Diagnostic]) -> list[str]:
    """Returns the chosen overlays, each after those it requires (stable; a cycle is an error)."""
    needs = {v: [r for r in spec.variants[v][0].data["variant"].get("requires", []) if r in chosen and r != v]
             for v in chosen}
    out: list[str] = []
    waiting = list(dict.fromkeys(chosen))
    while waiting:
        ready = next((v for v in waiting if all(r in out for r in needs[v])), None)
        if ready is None:
            loaded = spec.variants[waiting[0]][0]
            diags.append(loaded.diag(("variant", "requires"), "variants require each other in a circle: "
                                     + " -> ".join(waiting) + "; none can be applied first"))
            return out
        out.append(ready)
        waiting.remove(ready)
    return out


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
    if players and all([_claim(spec, vid, "players", k, here.at("variant", "players", k), diags, "set", players[k])
                        for k in ("min", "max") if k in players]):
        spec.meta = dict(spec.meta)
        base = spec.meta.get("players") if isinstance(spec.meta.get("players"), dict) else {}
        # (a base whose own `players:` was refused has none: its error is reported already)
        spec.meta["players"] = {"min": players.get("min", base.get("min", 1)),
                                "max": players.get("max", base.get("max", players.get("min", 1)))}


def _requires(spec: Spec, vid: str, chosen: list[str], head: dict, src: Src, diags: list[Diagnostic]) -> None:
    for i, req in enumerate(head.get("requires", [])):
        if req not in spec.variants:
            diags.append(src.diag(f"requires unknown variant '{req}'" + suggest(req, spec.variants)
                                  + "; an expansion kept outside the game is given by its file (--variant FILE)",
                                  ("requires", i)))
        elif req not in chosen:
            diags.append(src.diag(f"variant '{vid}' requires variant '{req}': add --variant {req}", ("requires", i)))
    for key in ("conflicts", "excludes"):         # excludes: the older name of conflicts
        for i, ex in enumerate(head.get(key, [])):
            if ex in chosen and ex != vid:
                theirs = spec.variants[ex][0]
                diags.append(src.diag(f"variant '{vid}' conflicts with '{ex}' ({theirs.file}): "
                                      "they cannot be played together", (key, i)))


def _remove(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    for name, ids in value.items():
        if name == "rule":
            spec.removal_rules.append((ids, src.at("rule")))
            continue
        for i, key in enumerate(ids):
            at = src.at(name, i)
            if name == "edges":
                _remove_edge(spec, vid, key, at, diags)
                continue
            if not _claim_removal(spec, vid, name, key, at, diags):
                continue
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
                if name in ("cards", "components"):
                    _box_removed(spec, vid, name, table[key][0], at, diags)
                del table[key]
                if name == "spaces":
                    spec.edges = [e for e in spec.edges if key not in e[0]]


def _edge_key(a: str, b: str) -> str:
    """Returns the name of an edge whichever way it is written (the board is undirected)."""
    return " - ".join(sorted((a, b)))


def _take_edge(spec: Spec, a: str, b: str) -> bool:
    """Removes the edge a-b (written either way); returns whether there was one."""
    kept = [e for e in spec.edges if sorted(e[0]) != sorted((a, b))]
    found = len(kept) != len(spec.edges)
    spec.edges = kept
    return found


def _remove_edge(spec: Spec, vid: str, ends: list, at: Src, diags: list[Diagnostic]) -> None:
    a, b = ends
    key = _edge_key(a, b)
    done = any(o != vid and how == "remove" for o, how, _at, _v in spec.changed_by.get(("edges", key), ()))
    if _claim(spec, vid, "edges", key, at, diags, "remove") and not done and not _take_edge(spec, a, b):
        diags.append(at.diag(f"remove: no edge between '{a}' and '{b}'"))


def _between(spec: Spec, vid: str, items: list, src: Src, diags: list[Diagnostic]) -> None:
    """A new space with `between: [a, b]` takes the place of the edge a-b: a-x and x-b."""
    for i, item in enumerate(items):
        if item is None:
            continue
        if "entries" in item:
            _between(spec, vid, item["entries"], src.at(i, "entries"), diags)
            continue
        if "between" not in item:
            continue
        a, b = item["between"]
        at = src.at(i, "between")
        if not _claim(spec, vid, "edges", _edge_key(a, b), at, diags, "replace", None):
            continue
        if not _take_edge(spec, a, b):
            diags.append(at.diag(f"between: no edge between '{a}' and '{b}' to put '{item['id']}' into"))
            continue
        spec.edges += [([a, item["id"]], at), ([item["id"], b], at)]


def _claim_removal(spec: Spec, vid: str, name: str, key: str, at: Src, diags: list[Diagnostic]) -> bool:
    """Claims a removal (a step's parts with it); returns whether it is still to be done:
    not if it contradicts another overlay, nor if another overlay removed it already."""
    done = any(o != vid and how == "remove" for o, how, _at, _v in spec.changed_by.get((name, key), ()))
    found = _find(spec, key) if name == "steps" else None
    inner = [n.id for n in found[0].walk()][1:] if found else []
    ok = all([_claim(spec, vid, name, k, at, diags, "remove") for k in [key, *inner]])
    return ok and not done


def _box_removed(spec: Spec, vid: str, section: str, item: dict, at: Src, diags: list[Diagnostic]) -> None:
    """A removed entry's pieces leave the box's count of their kind by themselves: the base
    counted them, and two overlays that remove the same entry take them out once."""
    kind = item.get("kind", "card" if section == "cards" else None)
    n = item.get("count", 1)
    if kind not in spec.box or item.get("printed") or not _claim(spec, vid, "box", kind, at, diags, "delta", -n):
        return
    total, first = spec.box[kind]
    spec.box_parts.setdefault(kind, [(total, first)]).append((-n, at))
    spec.box[kind] = (total - n, at)


def _replace(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    for name, body in value.items():
        if name == "steps":
            for key, node in body.items():
                if _claim(spec, vid, "steps", key, src.at(name, key), diags):
                    _replace_step(spec, key, node, src.at(name, key), diags)
            continue
        for key, sub in _keys(name, body):
            _claim(spec, vid, name, key, src.at(name, *sub), diags, "replace",
                   _param_value(body[key]) if name == "params" else None)
            if name == "spaces" and "between" in _entry(body, sub):
                diags.append(src.at(name, *sub).diag("between: only a new space (add:) goes between two; "
                                                     "a replaced one keeps its edges", ("between",), at_key=True))
        add_section(spec, name, body, src.loaded, src.path + (name,), diags, "replace")


def _entry(body: list, sub: tuple) -> dict:
    """Returns the entry of a keyed section at its path (i, or i, "entries", j)."""
    return body[sub[0]] if len(sub) == 1 else body[sub[0]]["entries"][sub[2]]


def _keys(name: str, body: Any) -> list[tuple[str, tuple]]:
    """Returns the keys a replace changes, each with its path inside the section."""
    if name in KEYED:
        out = []
        for i, x in enumerate(body):
            if x is not None and "entries" in x:
                out += [(k, (i, "entries", j)) for j, e in enumerate(x["entries"]) if e is not None
                        for k in made_ids(e)]
            elif x is not None:
                out += [(k, (i,)) for k in made_ids(x)]
        return out
    if isinstance(body, dict) and name not in ("scoring",):
        if name == "vars":
            return [(f"{s}.{k}", (s, k)) for s in ("game", "player") for k in body.get(s, {})]
        return [(k, (k,)) for k in body]
    return [(name, ())]


def _add(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    for name, body in value.items():
        if name == "steps":
            diags.append(src.diag("steps are added with 'insert' (before or after a named step)", (name,),
                                  at_key=True))
            continue
        if name == "box":
            _add_box(spec, vid, body, src.at(name), diags)
            continue
        add_section(spec, name, body, src.loaded, src.path + (name,), diags, "add")
        if name == "spaces":
            _between(spec, vid, body, src.at(name), diags)


def _add_box(spec: Spec, vid: str, counts: dict, src: Src, diags: list[Diagnostic]) -> None:
    """`add: box: {kind: n}` adds n (or takes -n) to the box's count of a kind: expansions
    that each add cards then combine, since none restates the total."""
    for kind, n in counts.items():
        at = src.at(kind)
        if not _claim(spec, vid, "box", kind, at, diags, "delta", n):
            continue
        old, first = spec.box.get(kind, (0, None))
        parts = spec.box_parts.setdefault(kind, [(old, first)] if first is not None else [])
        parts.append((n, at))
        if old + n < 0:
            diags.append(at.diag(f"box: {old} '{kind}' {n:+d} leaves fewer than none"))
            continue
        spec.box[kind] = (old + n, at)    # a wrong total is shown at the last change, with every part


def _set(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic]) -> None:
    if "objects" in value:
        set_objects(spec, vid, value["objects"], src.at("objects"), diags, _claim)
    params = spec.sections["params"]
    for key, new in value.get("params", {}).items():
        at = src.at("params", key)
        if not _claim(spec, vid, "params", key, at, diags, "set", _param_value(new)):
            continue
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
        if not _claim(spec, vid, "procedures", name, at, diags, "use", "extends it"):
            continue
        if name not in procs:
            diags.append(at.diag(f"extend: no procedure '{name}'" + suggest(name, procs), at_key=True))
            continue
        spec.extensions.setdefault(name, []).append((ext, at))
    known = {k for section in ("components", "cards", "spaces") for k in spec.sections[section]}
    for oid, ext in value.get("objects", {}).items():
        at = src.at("objects", oid)
        if not all([_claim(spec, vid, section, oid, at, diags, "use", "gives it abilities")
                    for section in ("components", "cards", "spaces")]):
            continue
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
        if not _claim(spec, vid, "steps", target, at.at(how), diags, "use", f"inserts steps {how} it"):
            continue
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
    new = make_node(keep_citation(node.data, item), src, diags)
    if new is not None:
        siblings[siblings.index(node)] = new


_PARTS = {"remove": _remove, "replace": _replace, "add": _add, "set": _set, "extend": _extend, "insert": _insert}
