"""Entries generated from ranges: one written entry that stands for a set of distinct
pieces, such as the 28 tiles of a double-six domino set or cards numbered 1 to 10.

    components:
      - each: {a: [0, 6], b: [a, 6]}     # a from 0 to 6, then b from a to 6: 28 tiles
        id: "domino-{a}-{b}"
        kind: domino
        name: "{a}|{b}"
        start: boneyard
        props: {low: "{a}", high: "{b}"}
        provenance: {kind: external, source: the traditional double-six set}

`each:` names the range variables in order, each with its first and last value (both
included): a whole number, or an earlier variable. The entry is made once for every
combination, in order (the last variable varies fastest). In its `id`, `name`, `text` and
`props` (at any depth), `{v}` is the variable's value; a text that is only `{v}` becomes the
number itself (so `props: {value: "{n}"}` is a number a rule can add). `{{` and `}}` are
braces. Effects and abilities are kept as written (their braces are the effect
language's own): a generated object tells itself apart by its props (`this.value`).

Ludii declares dominoes as a built-in `(dominoes upTo:6)`; this is the same set from one
general form. Every problem is one error at the range's own line and column.
"""
from __future__ import annotations

import re
from itertools import product
from typing import Any, Iterator, Protocol

from ..diagnostics import Diagnostic


class Src(Protocol):
    """Where an entry was written (spec.Src, which calls this module: named by its shape,
    so imports point one way)."""

    def diag(self, message: str, sub: tuple = (), at_key: bool = False) -> Diagnostic: ...

    def at(self, *sub: Any) -> "Src": ...


MAX_MADE = 5000          # entries one range may make (a list's own limit)
FILLED = ("id", "name", "text", "props")
_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def expand(item: dict, src: Src, diags: list[Diagnostic]) -> list[dict]:
    """Returns the entries a range entry stands for (none, with the problems in `diags`)."""
    combos = _combinations(item["each"], src.at("each"), diags)
    if combos is None:
        return []
    template = {k: v for k, v in item.items() if k != "each"}
    names = list(item["each"])
    if not _fields_known(template, names, src, diags):
        return []
    out = []
    for values in combos:
        env = dict(zip(names, values))
        entry = {k: _fill(v, env) if k in FILLED else v for k, v in template.items()}
        if not isinstance(entry.get("id"), str) or not _ID.match(entry["id"]):
            diags.append(src.diag(f"each: the id made for {_shown(env)} is {entry.get('id')!r}, not a valid id "
                                  "(lower-case letters, digits, _ . -)", ("id",)))
            return []
        out.append(entry)
    return out


def _combinations(each: dict, src: Src, diags: list[Diagnostic]) -> list[tuple[int, ...]] | None:
    """Returns every combination of the range variables, in order, or None (a problem)."""
    names = list(each)
    for i, (name, bounds) in enumerate(each.items()):
        for j, bound in enumerate(bounds):
            if isinstance(bound, str) and bound not in names[:i]:
                later = bound in names
                diags.append(src.diag(f"each: '{name}' starts or ends at '{bound}', "
                                      + ("a later variable: a bound names only those before it" if later
                                         else "which is no variable before it (a bound is a number or an earlier variable)"),
                                      (name, j)))
                return None
    combos: list[tuple[int, ...]] = [()]
    for i, name in enumerate(names):
        lo, hi = each[name]
        grown = []
        for c in combos:
            env = dict(zip(names[:i], c))
            a, b = (env[x] if isinstance(x, str) else x for x in (lo, hi))
            grown.extend(c + (v,) for v in range(a, b + 1))
            if len(grown) > MAX_MADE:
                diags.append(src.diag(f"each: the ranges make more than {MAX_MADE} entries"))
                return None
        combos = grown
    if not combos:
        diags.append(src.diag("each: the ranges make no entry (a first value is after its last)"))
        return None
    return combos


def _strings(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, path + (i,))


def _fields_known(template: dict, names: list[str], src: Src, diags: list[Diagnostic]) -> bool:
    """Checks that every `{...}` of the filled keys names a range variable."""
    ok = True
    for key in FILLED:
        for path, text in _strings(template.get(key), (key,)):
            for m in _FIELD.finditer(text):
                if m.group(0) in ("{{", "}}"):
                    continue
                if m.group(1) is None or m.group(1).strip() not in names:
                    what = m.group(0) if m.group(1) is None else "{" + m.group(1) + "}"
                    diags.append(src.diag(f"each: {what} in {'.'.join(map(str, path))} names no range variable "
                                          f"(they are {', '.join(names)}; a brace itself is written {{{{ or }}}})",
                                          path))
                    ok = False
    return ok


def _fill(value: Any, env: dict[str, int]) -> Any:
    """Returns a value with the range variables written in."""
    if isinstance(value, str):
        whole = re.fullmatch(r"\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}", value)
        if whole:
            return env[whole.group(1)]
        return _FIELD.sub(lambda m: {"{{": "{", "}}": "}"}.get(m.group(0)) or str(env[m.group(1).strip()]), value)
    if isinstance(value, dict):
        return {k: _fill(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, env) for v in value]
    return value


def _shown(env: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in env.items())


class _Quiet:
    """A place that keeps no problems: for naming the ids a range makes, whose problems
    are reported where the range is read (spec.py)."""

    def at(self, *_sub: Any) -> "_Quiet":
        return self

    def diag(self, *_args: Any, **_kw: Any) -> None:
        return None


def made_ids(item: dict) -> list[str]:
    """Returns the ids an entry stands for: its own, or those its ranges make."""
    if "each" not in item:
        return [item["id"]]
    return [e["id"] for e in expand(item, _Quiet(), [])]   # type: ignore[arg-type]
