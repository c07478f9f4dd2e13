"""Checks that rules cite the clauses of the rulebook they carry.

When a game has a clause index (rules.yaml, and the clauses its overlays add), every
`rule:` names clause ids of it, and every part of the turn structure, procedure,
ability and parameter cites at least one: that is what lets a rule checker see which
clause is carried by which rule (`cairn coverage`). A game without rules.yaml is not
checked. Scenarios' citations are checked by the scenario loader (scenarios.py).
"""
from __future__ import annotations

from typing import Any, Iterator

from ..diagnostics import suggest
from .abilities import bearers
from .context import Compiling
from .spec import Src

REQUIRED = ("step", "procedure", "ability", "parameter")


def cited(value: Any) -> list[str]:
    """Returns the clause ids of a `rule:` value (one id or a list)."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]


def citing(cx: Compiling) -> Iterator[tuple[str, str, Any, Src]]:
    """Yields (what, name, rule value, src) for every entry that may cite clauses."""
    spec = cx.spec
    for n in spec.nodes():
        yield "step", n.id, n.data.get("rule"), n.src
    for section, what in (("procedures", "procedure"), ("functions", "function"), ("quantities", "quantity"),
                          ("params", "parameter")):
        for name, (item, src) in spec.sections[section].items():
            yield what, name, item.get("rule"), src
    for def_id, _section, _objs, abilities in bearers(cx):
        for i, (a, src) in enumerate(abilities):
            yield "ability", f"{def_id}#{i}", a.get("rule"), src
    for section in ("components", "cards", "spaces", "zones"):
        for key, (item, src) in spec.sections[section].items():
            yield section[:-1], key, item.get("rule"), src
    for i, (t, src) in enumerate(spec.triggers):
        yield "trigger", t["on"], t.get("rule"), src
    if spec.scoring:
        yield "scoring", "scoring", spec.scoring[0].get("rule"), spec.scoring[1]
    for key, (r, src) in spec.sections["readings"].items():
        yield "reading", key, r.get("clause"), src
    for i, (value, src) in enumerate(spec.removal_rules):
        yield "removal", str(i), value, src


def check_citations(cx: Compiling) -> None:
    """Adds a diagnostic for every unknown clause id, and every required citation missing."""
    clauses = cx.spec.sections["clauses"]
    if not clauses:
        return
    for what, name, value, src in citing(cx):
        ids = cited(value)
        key = "clause" if what == "reading" else "rule"
        if not ids and what in REQUIRED:
            cx.diags.append(src.diag(f"{what} '{name}' cites no clause of the rulebook: add {key}: <clause id>"))
        for cid in ids:
            if cid not in clauses:
                cx.diags.append(src.diag(f"{key}: no clause '{cid}' in rules.yaml" + suggest(cid, clauses), (key,)))
