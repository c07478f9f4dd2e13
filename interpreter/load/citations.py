"""Checks that rules cite the clauses of the rulebook they carry.

When a game has a clause index (rules.yaml, and the clauses its overlays add), every
`rule:` names clause ids of it, and every part of the turn structure, procedure,
ability and parameter cites at least one: that is what lets a rule checker see which
clause is carried by which rule (`cairn coverage`). A game without rules.yaml is not
checked. Scenarios' citations are checked by the scenario loader (scenarios.py).
A clause's `applies` (the player counts and variants it is about) must name counts the
game allows and variants it has: coverage plays those games to measure the clause.
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


def applies_of(clause: dict) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Returns (player counts, variants) a clause declares it is about (`applies:`);
    empty when it is about every game."""
    a = clause.get("applies") or {}
    v = a.get("variant", ())
    return tuple(a.get("players", ())), (v,) if isinstance(v, str) else tuple(v)


def check_applies(cx: Compiling, base: bool) -> None:
    """Adds a diagnostic for every `applies` naming a variant the game does not have, or (in
    the base game: a variant may narrow the counts) a player count it does not allow; a
    typo would silently measure nothing."""
    players = cx.spec.meta.get("players", {})
    lo = players.get("min", 1)
    hi = players.get("max", lo)
    for cid, (clause, src) in cx.spec.sections["clauses"].items():
        counts, variants = applies_of(clause)
        for n in counts if base else ():
            if not lo <= n <= hi:
                cx.diags.append(src.diag(f"applies: clause '{cid}' names {n} players; the game is for {lo} to {hi}",
                                         ("applies", "players")))
        for v in variants:
            if cx.spec.variants and v not in cx.spec.variants:
                cx.diags.append(src.diag(f"applies: no variant '{v}'" + suggest(v, cx.spec.variants),
                                         ("applies", "variant")))
