"""Compiles what the box holds: ids (one namespace), objects with their static properties,
the board graph, the zones, and the box inventory checked against the data."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import suggest
from .abilities import instances
from .context import Compiling
from .spec import KEYED, Src


@dataclass
class World:
    """The fixed objects and places of a game."""

    props: dict[str, dict[str, Any]] = field(default_factory=dict)
    components: list[tuple[str, str, str]] = field(default_factory=list)   # (object, kind, start)
    effects: dict[str, str] = field(default_factory=dict)                  # object -> program key
    effects_src: dict[str, tuple[str, Src]] = field(default_factory=dict)
    adj: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kind_index: dict[str, tuple[str, ...]] = field(default_factory=dict)
    printed: set[str] = field(default_factory=set)     # objects printed on others: not in the box


def compile_objects(cx: Compiling) -> World:
    """Returns the world; problems go to cx.diags."""
    w = World()
    owner = _namespace(cx)
    _things(cx, w, owner)
    _board(cx, w)
    _zones(cx, w)
    _box(cx, w)
    meta = cx.spec.meta
    if meta["players"]["min"] > meta["players"]["max"]:
        cx.diags.append(cx.spec.meta_src.diag("players: min is more than max", ("players",)))
    kinds: dict[str, list[str]] = {}
    for obj, kind, _ in w.components:
        kinds.setdefault(kind, []).append(obj)
    w.kind_index = {k: tuple(v) for k, v in kinds.items()}
    return w


def _namespace(cx: Compiling) -> dict[str, str]:
    owner: dict[str, str] = {}
    for section in KEYED:
        for key, (_item, src) in cx.spec.sections[section].items():
            if key in owner and owner[key] != section:
                cx.diags.append(src.diag(f"id '{key}' is also used by a {owner[key][:-1]}", ("id",)))
            owner.setdefault(key, section)
    return owner


MAX_OBJECTS = 20_000   # cards, pieces and tokens in one game, all counts added


def _things(cx: Compiling, w: World, owner: dict[str, str]) -> None:
    zones, spaces = cx.spec.sections["zones"], cx.spec.sections["spaces"]
    total = 0
    for section in ("components", "cards"):
        for key, (item, src) in cx.spec.sections[section].items():
            total += item.get("count", 1)
            if total > MAX_OBJECTS:
                cx.diags.append(src.diag(f"more than {MAX_OBJECTS} objects in all (counts added); the "
                                         "definitions stop here", ("count",)))
                return
            start = item["start"]
            if start not in zones and start not in spaces:
                cx.diags.append(src.diag(f"start '{start}' is neither a zone nor a board space"
                                         + suggest(start, list(zones) + list(spaces)), ("start",)))
            elif start in zones and zones[start][0].get("per_player"):
                cx.diags.append(src.diag(f"start zone '{start}' is per player; start in a shared zone "
                                         "and deal in the flow", ("start",)))
            kind = item.get("kind", "card" if section == "cards" else item.get("kind"))
            base = {"kind": kind, "name": item.get("name", key), "def": key, **item.get("props", {})}
            if "text" in item:
                base["text"] = item["text"]
            if "effect" in item:
                w.effects_src[key] = (item["effect"], src.at("effect"))
            objs = instances(item)
            for i, obj in enumerate(objs, 1):
                if obj in owner and obj != key:
                    cx.diags.append(src.diag(f"object id '{obj}' clashes with a {owner[obj][:-1]}", ("id",)))
                w.props[obj] = base if len(objs) == 1 else {**base, "name": f"{base['name']} {i}",
                                                            "set_name": base["name"]}
                w.components.append((obj, kind, start))
                if item.get("printed"):
                    w.printed.add(obj)
                if "effect" in item:
                    w.effects[obj] = f"effect:{key}"


def _board(cx: Compiling, w: World) -> None:
    spec = cx.spec
    spaces = spec.sections["spaces"]
    for key, (item, _src) in spaces.items():
        # An unnamed space reads as "id (kind)" in logs and option labels.
        w.props[key] = {"kind": item["kind"], "name": item.get("name", f"{key} ({item['kind']})"),
                        **({"at": item["at"]} if "at" in item else {}),
                        **({"text": item["text"]} if "text" in item else {}), **item.get("props", {})}
    edges: list[tuple[str, str]] = []
    for (a, b), src in spec.edges:
        for i, end in enumerate((a, b)):
            if end not in spaces:
                cx.diags.append(src.diag(f"edge end '{end}' is not a space" + suggest(end, spaces), (i,)))
        if a == b:
            cx.diags.append(src.diag(f"edge joins '{a}' to itself"))
        if a in spaces and b in spaces:
            edges.append((a, b))
    w.adj, apart = board_graph(list(spaces), edges, bool(spaces) and not spec.assembled_in_play)
    if apart is not None and not any(what == "edges" for what, _key in spec.contested):   # reported once
        count, lonely = apart
        src = spaces[lonely[0]][1] if lonely[0] in spaces else spec.meta_src
        cx.diags.append(src.diag(f"the board is not connected: {count} separate parts; "
                                 f"e.g. {', '.join(lonely)} cannot be reached from the rest"))


def board_graph(spaces: list[str], edges: list[tuple[str, str]],
                connected: bool) -> tuple[dict[str, tuple[str, ...]], tuple[int, list[str]] | None]:
    """Returns the board's neighbour tuples (what play walks) and, when the board must be
    connected and is not, how many parts it has and a few spaces of the smallest. Built
    as a networkx graph; kept in Cairn's cache (as JSON: plain data) under a digest of the
    spaces and edges (a warm load then does not import networkx, which costs more than
    the rest of it)."""
    import json

    from . import cache
    key = cache.digest(json.dumps([spaces, edges, connected]), cache.source_digest("load.objects"))
    hit = _kept_graph(cache.load_json(f"board-{key}.json"), spaces)
    if hit is not None:
        return hit
    import networkx as nx
    graph = nx.Graph()
    graph.add_nodes_from(spaces)
    graph.add_edges_from(edges)
    apart = None
    if connected and not nx.is_connected(graph):
        parts = sorted(nx.connected_components(graph), key=len)
        apart = (len(parts), sorted(parts[0])[:5])
    out = ({s: tuple(graph.neighbors(s)) for s in spaces}, apart)
    cache.store_json(f"board-{key}.json", {"next": out[0], "apart": apart})
    return out


def _kept_graph(kept: Any, spaces: list[str]) -> tuple[dict[str, tuple[str, ...]], tuple[int, list[str]] | None] | None:
    """Returns board_graph's answer from its JSON entry, or None if it is not of that shape
    (sealed entries are Cairn's own, but a shape is cheap to check)."""
    if not isinstance(kept, dict) or not isinstance(kept.get("next"), dict):
        return None
    nxt, apart = kept["next"], kept.get("apart")
    if set(nxt) != set(spaces) or not all(isinstance(v, list) and all(isinstance(x, str) for x in v)
                                          for v in nxt.values()):
        return None
    if apart is not None and not (isinstance(apart, list) and len(apart) == 2 and isinstance(apart[0], int)
                                  and isinstance(apart[1], list)):
        return None
    return {s: tuple(nxt[s]) for s in spaces}, (None if apart is None else (apart[0], apart[1]))


def _zones(cx: Compiling, w: World) -> None:
    functions = cx.spec.sections["functions"]
    for key, (item, src) in cx.spec.sections["zones"].items():
        w.props[key] = {"kind": "zone", "name": key}
        show = item.get("show")
        if show is not None and len(functions.get(show, ({}, None))[0].get("params", ())) != 1:
            cx.diags.append(src.diag(f"show: '{show}' is not a function of one object"
                                     + suggest(show, functions), ("show",)))


def _box(cx: Compiling, w: World) -> None:
    spec = cx.spec
    counts: dict[str, int] = {}
    for obj, kind, _start in w.components:
        if obj not in w.printed:
            counts[kind] = counts.get(kind, 0) + 1
    if not spec.box or spec.pruned:   # counts are meaningless with entries left out
        return
    for kind, (n, src) in spec.box.items():
        if counts.get(kind, 0) != n and ("box", kind) not in spec.contested:   # a fight is reported once
            parts = spec.box_parts.get(kind)
            made = f" ({', '.join(f'{k:+d} at {at.place}' for k, at in parts).lstrip('+')})" if parts else ""
            cx.diags.append(src.diag(f"box declares {n} '{kind}'{made} but the definitions hold {counts.get(kind, 0)}"))
    for kind in counts:
        if kind not in spec.box:
            cx.diags.append(spec.meta_src.diag(f"components of kind '{kind}' are not declared in 'box'"))
