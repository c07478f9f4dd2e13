"""Checks that must hold after every action: nothing lost, nothing duplicated."""
from __future__ import annotations

from typing import Any


def conservation_problems(g: Any, d: dict) -> list[str]:
    """Returns what is wrong with object bookkeeping (empty when all is well): every object
    of the manifest is in exactly one place, and the location index agrees."""
    out: list[str] = []
    seen: dict[str, str] = {}
    for place, objs in d["places"].items():
        for obj in objs:
            if obj in seen:
                out.append(f"{obj} is in both {seen[obj]} and {place}")
            seen[obj] = place
            if d["loc"].get(obj) != place:
                out.append(f"{obj} is in {place} but indexed in {d['loc'].get(obj)}")
    expected = {o for o, _k, _s in g.components}
    missing = expected - set(seen)
    extra = set(seen) - expected
    if missing:
        out.append(f"lost: {sorted(missing)[:5]}")
    if extra:
        out.append(f"unknown objects appeared: {sorted(extra)[:5]}")
    if len(d["loc"]) != len(expected):
        out.append(f"location index has {len(d['loc'])} entries for {len(expected)} objects")
    return out
