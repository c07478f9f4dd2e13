"""Queries on small graphs given as data (node ids, value records and link lists).

Some games print little graphs on cards or sheets rather than on a shared board: the
nodes and their links are card properties, the values written into the nodes are
attributes. These queries take such a graph as plain values, so they work for any game.
"""
from __future__ import annotations

from typing import Any

from ..lang.runtime import Ctx, RuntimeProblem, spend
from ..lang.registry import P, register


def _links(links: Any, who: str) -> list[tuple[str, str]]:
    if type(links) is not list:
        raise RuntimeProblem(f"{who}() needs a list of [a, b] links, got {links!r}")
    out = []
    for ln in links:
        if type(ln) is not list or len(ln) != 2:
            raise RuntimeProblem(f"{who}(): a link must be [a, b], got {ln!r}")
        out.append((ln[0], ln[1]))
    return out


@register("longest_rising_trail", P("values"), P("links", "list"), P("all_linked", "bool", False),
          P("rises", "list", None), pure=True)
def longest_rising_trail(c: Ctx, values: Any, links: list, all_linked: bool, rises: Any) -> list:
    """Returns the nodes, in walking order, of a longest trail through a small graph that
    visits each node at most once, steps only along `links` (or between any two nodes when
    `all_linked`), and where each next node's value minus the previous one is in `rises`
    (default [0, 1]: equal or one higher). `values` is a record node -> number; nodes
    without a value are not part of any trail. Ties go to the trail first in node order."""
    if type(values) is not dict:
        raise RuntimeProblem(f"longest_rising_trail() needs a record of values, got {values!r}")
    steps = {0, 1} if rises is None else set(rises)
    if any(type(r) is not int or r < 0 for r in steps):
        raise RuntimeProblem("longest_rising_trail(): rises must be numbers >= 0")
    nodes = sorted(values)
    if all_linked:
        return _complete_trail(values, nodes, steps)
    adj: dict[Any, list] = {n: [] for n in nodes}
    for a, b in _links(links, "longest_rising_trail"):
        if a in adj and b in adj:
            if b not in adj[a]:
                adj[a].append(b)
            if a not in adj[b]:
                adj[b].append(a)
    for n in nodes:
        adj[n].sort()
    nxt = {n: [m for m in adj[n] if values[m] - values[n] in steps] for n in nodes}
    # With rises >= 0 a trail never returns to a lower value, so only the nodes of the
    # current value already visited matter (0 rises are the only way to meet them again).
    memo: dict[tuple, tuple] = {}

    def best(n: Any, same: frozenset) -> tuple:
        key = (n, same)
        hit = memo.get(key)
        if hit is not None:
            return hit
        spend(c, 1 + len(nxt[n]))
        out: tuple = (n,)
        for m in nxt[n]:
            if values[m] == values[n]:
                if m in same:
                    continue
                tail = best(m, same | {m})
            else:
                tail = best(m, frozenset((m,)))
            if len(tail) + 1 > len(out):
                out = (n,) + tail
        memo[key] = out
        return out

    result: tuple = ()
    for n in nodes:
        t = best(n, frozenset((n,)))
        if len(t) > len(result):
            result = t
    return list(result)


def _complete_trail(values: dict, nodes: list, steps: set) -> list:
    """Longest trail when every two nodes are linked: the trail takes value groups in
    rising order, each next group's value a permitted rise above the last; a group is
    walked whole when 0 is a permitted rise, else one node of it is used."""
    groups: dict[Any, list] = {}
    for n in nodes:
        groups.setdefault(values[n], []).append(n)
    best: dict[Any, list] = {}
    for v in sorted(groups):
        own = groups[v] if 0 in steps else groups[v][:1]
        prev: list = []
        for u in sorted(best):
            if u < v and v - u in steps and len(best[u]) > len(prev):
                prev = best[u]
        best[v] = prev + own
    out: list = []
    for v in sorted(best):
        if len(best[v]) > len(out):
            out = best[v]
    return out


@register("connected_groups", P("nodes", "list"), P("links", "list"), pure=True)
def connected_groups(c: Ctx, nodes: list, links: list) -> list:
    """Returns the given nodes split into groups joined by `links` (links to nodes not
    given are ignored); each group lists its nodes in the given order, groups in the order
    of their first node."""
    if type(nodes) is not list:
        raise RuntimeProblem(f"connected_groups() needs a list of nodes, got {nodes!r}")
    spend(c, len(nodes) + len(links) if type(links) is list else len(nodes))
    keep = set(nodes)
    adj: dict[Any, set] = {n: set() for n in nodes}
    for a, b in _links(links, "connected_groups"):
        if a in keep and b in keep:
            adj[a].add(b)
            adj[b].add(a)
    seen: set = set()
    groups = []
    for n in nodes:
        if n in seen:
            continue
        seen.add(n)
        group = {n}
        todo = [n]
        while todo:
            x = todo.pop()
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    group.add(y)
                    todo.append(y)
        groups.append([m for m in nodes if m in group])
    return groups
