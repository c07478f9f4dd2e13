"""A board assembled in play from hex tiles: place each tile's cells at an offset and
rotation, then link neighbouring cells. The resulting neighbour table lives in the state
("adj"), and every graph query (neighbors, paths, distance ...) uses it.

Coordinates are axial (q, r); the six directions, in order, are
E (+1, 0), NE (+1, -1), NW (0, -1), W (-1, 0), SW (-1, +1), SE (0, +1).
A straight line keeps one direction.
"""
from __future__ import annotations

from typing import Any

from ..lang.runtime import Ctx, RuntimeProblem, get_attr
from ..lang.registry import P, register

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


@register("place_tile", P("cells", "list"), P("dq", "int"), P("dr", "int"), P("rotate", "int", 0))
def place_tile(c: Ctx, cells: list, dq: int, dr: int, rotate: int) -> None:
    """Puts each cell (a space whose properties q, r are its tile-local axial position) at
    its position turned `rotate` sixths about the tile's (0, 0), then moved by (dq, dr)."""
    pos = dict(c.s.get("pos", {}))   # a new table: clones share the old one (state.SHARED)
    for cell in cells:
        q, r = _rotate(get_attr(c, cell, "q"), get_attr(c, cell, "r"), rotate)
        pos[cell] = [q + dq, r + dr]
    c.s["pos"] = pos


@register("link_hex")
def link_hex(c: Ctx) -> int:
    """Joins every two placed cells one hex step apart (plus the edges of board.yaml) and
    makes that the board; returns the number of links. Two cells on one position is an error."""
    pos: dict[str, list[int]] = c.s.get("pos", {})
    at: dict[tuple[int, int], str] = {}
    for cell, (q, r) in pos.items():
        if (q, r) in at:
            raise RuntimeProblem(f"{cell} and {at[(q, r)]} were placed on the same hex ({q}, {r})")
        at[(q, r)] = cell
    adj: dict[str, list[str]] = {s: list(n) for s, n in c.g.adj.items() if s in pos or n}
    links = 0
    for cell in c.g.spaces:
        at_cell = pos.get(cell)
        if at_cell is None:
            continue
        q, r = at_cell
        row = adj.setdefault(cell, [])
        near = [other for dq, dr in DIRS if (other := at.get((q + dq, r + dr))) is not None and other not in row]
        row.extend(near)
        links += len(near)
    c.s["adj"] = adj
    c.s["hex_at"] = {f"{q},{r}": s for (q, r), s in at.items()}
    return links // 2


def _pos(c: Ctx, space: Any) -> list[int]:
    try:
        return c.s["pos"][space]
    except (KeyError, TypeError):
        raise RuntimeProblem(f"{space!r} has not been placed on the hex map") from None


@register("hex_pos", P("space", "space"), pure=True)
def hex_pos(c: Ctx, space: str) -> list[int]:
    """Returns a placed cell's axial position [q, r]."""
    return list(_pos(c, space))


@register("hex_at", P("q", "int"), P("r", "int"), pure=True)
def hex_at(c: Ctx, q: int, r: int) -> Any:
    """Returns the cell at an axial position, or none."""
    return c.s.get("hex_at", {}).get(f"{q},{r}")


@register("hex_step", P("space", "space"), P("direction", "int"), pure=True)
def hex_step(c: Ctx, space: str, direction: int) -> Any:
    """Returns the cell one step from `space` in a direction 0-5, or none."""
    q, r = _pos(c, space)
    dq, dr = DIRS[direction % 6]
    return c.s.get("hex_at", {}).get(f"{q + dq},{r + dr}")


@register("hex_direction", P("a", "space"), P("b", "space"), pure=True)
def hex_direction(c: Ctx, a: str, b: str) -> int:
    """Returns the direction 0-5 from a to an adjacent cell b, or -1."""
    qa, ra = _pos(c, a)
    qb, rb = _pos(c, b)
    try:
        return DIRS.index((qb - qa, rb - ra))
    except ValueError:
        return -1
