"""Queries on the board graph: spaces, neighbours, walks and distances.

networkx builds and checks the board at load; these queries use the precomputed
neighbour tuples instead, which is what a profile of playouts asks for.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from ..lang.runtime import Ctx, RuntimeProblem, spend
from ..lang.registry import P, register


def adjacency(c: Ctx) -> dict:
    """Returns the board's neighbour table: the one assembled in play (state "adj", see
    verbs/hexmap) if any, else the one fixed by board.yaml."""
    return c.s.get("adj") or c.g.adj


def _adj(c: Ctx, space: Any) -> tuple[str, ...]:
    try:
        return adjacency(c)[space]
    except (KeyError, TypeError):
        raise RuntimeProblem(f"no board space named {space!r}") from None


@register("spaces", P("kind", "str", None), pure=True)
def spaces(c: Ctx, kind: str | None) -> list[str]:
    """Returns the board's spaces (of one kind), in definition order."""
    table = c.s.get("adj")
    order = c.g.spaces if table is None else [s for s in c.g.spaces if s in table]
    if kind is None:
        return list(order)
    return [s for s in order if c.g.props[s].get("kind") == kind]


@register("neighbors", P("space", "space"), pure=True)
def neighbors(c: Ctx, space: str) -> list[str]:
    """Returns the spaces joined to `space` by one step."""
    return list(_adj(c, space))


@register("adjacent", P("a", "space"), P("b", "space"), pure=True)
def adjacent(c: Ctx, a: str, b: str) -> bool:
    """Returns whether two spaces are one step apart."""
    return b in _adj(c, a)


@register("is_space", P("x"), pure=True)
def is_space(c: Ctx, x: Any) -> bool:
    """Returns whether a value is a space of the board (as assembled so far)."""
    return type(x) is str and x in adjacency(c)


@register("paths", P("start", "space"), P("length", "int"), P("avoid", "list", None), pure=True)
def paths(c: Ctx, start: str, length: int, avoid: list | None) -> list[list[str]]:
    """Returns every walk of exactly `length` steps from `start` that never visits a space
    twice (so never turns back) and never enters a space in `avoid`; each walk lists the
    spaces entered, the end last."""
    if type(start) is str and type(length) is int and length > 0 and c.s.get("adj") is None:
        known = c.g.walks.get((start, length))
        if known is not None and known[0] is not None:
            # found before on the fixed board (so `start` is a space): as below, sooner
            blocked = set(avoid or ())
            spend(c, known[1])
            return _kept(known[0], blocked)
    adj = adjacency(c)
    _adj(c, start)
    blocked = set(avoid or ())
    if length <= 0:
        return []
    if c.s.get("adj") is None and type(length) is int:
        return _known_walks(c, start, length, blocked)
    return _walks(c, adj, start, length, blocked)


MAX_KEPT_WALKS = 4096       # walks of one (start, length) kept per compiled game, at most
MAX_KEPT_IN_ALL = 200_000   # walks kept per compiled game in all (beyond: searched each time)


def _known_walks(c: Ctx, start: str, length: int, blocked: set) -> list[list[str]]:
    """The walks of the fixed board, found once per game definition and then filtered: a
    walk that enters a blocked space is exactly one the search would have cut, and the
    order is the search's. Its work is counted as the whole search's every time, kept or
    not, so a game's budget never depends on what an earlier game left here."""
    key = (start, length)
    known = c.g.walks.get(key)
    if known is None:
        # Searched within the work left: too long a search fails here as it would below.
        left = [c.w[0]]
        found = _walks(Ctx(c.s, c.g, c.l, left), c.g.adj, start, length, set())
        keep = len(found) <= MAX_KEPT_WALKS and c.g.walks_kept + len(found) <= MAX_KEPT_IN_ALL
        known = (found if keep else None, c.w[0] - left[0])
        if len(c.g.walks) < MAX_KEPT_WALKS:      # (start, length) pairs kept, at most
            c.g.walks_kept += len(found) if keep else 0
            c.g.walks[key] = known
    walks, work = known
    spend(c, work)
    if walks is None:
        return _walks(c, c.g.adj, start, length, blocked)
    return _kept(walks, blocked)


def _kept(walks: list[list[str]], blocked: set) -> list[list[str]]:
    """Copies of the kept walks that enter no blocked space."""
    if not blocked:
        return [list(w) for w in walks]
    if len(blocked) == 1:
        b = next(iter(blocked))         # (the values a rule holds are equal exactly when their hashes say so)
        return [list(w) for w in walks if b not in w]
    return [list(w) for w in walks if blocked.isdisjoint(w)]


def _walks(c: Ctx, adj: dict, start: str, length: int, blocked: set) -> list[list[str]]:
    """Every walk of `length` steps from `start`, entering no space twice nor a blocked one."""
    out: list[list[str]] = []
    path = [start]
    seen = {start}

    if length > len(adj):
        return out          # no walk visits a space twice, so none is longer than the board
    work = c.w

    def walk(at: str, left: int) -> None:
        work[0] -= len(adj[at])
        if work[0] < 0:
            spend(c, 0)
        for nxt in adj[at]:
            if nxt in seen or nxt in blocked:
                continue
            path.append(nxt)
            if left == 1:
                out.append(path[1:])
            else:
                seen.add(nxt)
                walk(nxt, left - 1)
                seen.discard(nxt)
            path.pop()
    walk(start, length)
    return out


@register("distance", P("a", "space"), P("b", "space"), P("avoid", "list", None), pure=True)
def distance(c: Ctx, a: str, b: str, avoid: list | None) -> int:
    """Returns the fewest steps from a to b not entering `avoid`, or -1 if unreachable."""
    adj = adjacency(c)
    _adj(c, a)
    _adj(c, b)
    blocked = set(avoid or ())
    seen = {a: 0}
    q = deque([a])
    while q:
        x = q.popleft()
        if x == b:
            return seen[x]
        for y in adj[x]:
            if y not in seen and y not in blocked:
                seen[y] = seen[x] + 1
                q.append(y)
    return -1


@register("within", P("start", "space"), P("steps", "int"), P("avoid", "list", None), pure=True)
def within(c: Ctx, start: str, steps: int, avoid: list | None) -> list[str]:
    """Returns the spaces reachable in 1..steps steps without entering `avoid`."""
    adj = adjacency(c)
    _adj(c, start)
    blocked = set(avoid or ())
    seen = {start: 0}
    q = deque([start])
    order: list[str] = []
    while q:
        x = q.popleft()
        if seen[x] == steps:
            continue
        for y in adj[x]:
            if y not in seen and y not in blocked:
                seen[y] = seen[x] + 1
                order.append(y)
                q.append(y)
    return order
