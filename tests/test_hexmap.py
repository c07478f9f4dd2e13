"""Hex tiles placed in play: rotation, linking, straight lines."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from interpreter.lang.runtime import Ctx, RuntimeProblem
from interpreter.verbs.hexmap import hex_direction, hex_step, link_hex, place_tile


def ctx():
    cells = {"a": (0, 0), "b": (1, 0), "c": (0, 1), "x": (0, 0)}
    g = SimpleNamespace(props={k: {"q": q, "r": r} for k, (q, r) in cells.items()},
                        attr_defaults={}, adj={k: () for k in cells}, spaces=list(cells))
    return Ctx({"attrs": {}}, g, {})


def test_place_rotate_link_and_step():
    c = ctx()
    place_tile(c, ["a", "b", "c"], 10, 0, 0)
    assert link_hex(c) == 3                       # a-b, a-c, b-c are all neighbours
    assert sorted(c.s["adj"]["a"]) == ["b", "c"]
    assert hex_step(c, "a", 0) == "b" and hex_step(c, "a", 5) == "c"
    assert hex_direction(c, "b", "a") == 3 and hex_direction(c, "a", "a") == -1
    place_tile(c, ["b"], 10, 0, 3)                # half a turn about the tile origin: (1,0) -> (-1,0)
    link_hex(c)
    assert c.s["pos"]["b"] == [9, 0] and hex_step(c, "a", 3) == "b"


def test_two_cells_on_one_hex_is_an_error():
    c = ctx()
    place_tile(c, ["a", "x"], 0, 0, 0)
    with pytest.raises(RuntimeProblem):
        link_hex(c)
