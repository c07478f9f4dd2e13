"""Finds base functions that compute a rule number a card could change, but are not
quantities (the `[quantity]` check of `cairn lint`).

A number the rules use as a limit, a cost or a value (a hand size, how far a token moves,
what a card is worth) should be a **quantity** (`quantities:` in game.yaml): a static
ability (`modifies:`) or `modify(...)` can then change it, and an expansion's card that
does so needs no base rule edited. A plain function cannot be modified.

The check is deliberately narrow. It looks only at `functions:` of the merged game (not
quantities, procedures or steps), and flags one when the value of its expression is a
number that comes from rule data, through these forms only:
- the whole expression is a number (`expr: 3`), or a `?:` whose every arm is one
  (`p.solo ? 2 : 3`); a number beside other arms (`what in t ? t[what] : 0`) is a default;
- it reads a parameter whose value is a number or a list of numbers (`params.hand_size`,
  `params.table[i]`);
- it reads a property that some card, component or space gives as a number (`c.cost`),
  unless the name is also a game or player variable or an attribute (state, not data);
- any of the above inside arithmetic (`+ - * / // %`), a negation, or `min(...)`,
  `max(...)`, `abs(...)` (a number literal counts there only beside one of the others).
Anything else (a comparison, a count of a zone, a call of another function, a list, a
text) is not a rule number here, so it is never flagged.

A function that is deliberately fixed (the reading order of spots, a picture's layout)
says so as data: `fixed: <why>` on the function (game.yaml), and is not flagged.
"""
from __future__ import annotations

from typing import Any, Iterator

from lark import Token, Tree

from .lang.parser import SyntaxProblem, parse

ARITH = {"+", "-", "*", "/", "//", "%"}
NUMERIC_CALLS = {"min", "max", "abs"}


def numeric_params(spec) -> set[str]:
    """Returns the parameters whose value is a number, or a list or table of numbers."""
    def numeric(v: Any) -> bool:
        if isinstance(v, list):
            return bool(v) and all(numeric(x) for x in v)
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    out = set()
    for name, (entry, _src) in spec.sections["params"].items():
        values = list(entry["by_players"].values()) if "by_players" in entry else [entry.get("value")]
        if values and all(numeric(v) for v in values):
            out.add(name)
    return out


def numeric_props(spec) -> set[str]:
    """Returns the property names some card, component or space gives as a number, less
    those that also name state (a game or player variable, an attribute)."""
    out = set()
    for section in ("cards", "components", "spaces"):
        for item, _src in spec.sections[section].values():
            for k, v in (item.get("props") or {}).items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    out.add(k)
    state = set(spec.game_vars) | set(spec.player_vars) | set(spec.attributes)
    return out - state


def sources(node: Tree | Token, params: set[str], props: set[str], top: bool) -> list[str]:
    """Returns where a numeric expression's rule number comes from ([] when it is none)."""
    if not isinstance(node, Tree):
        return []
    kind = node.data
    if kind == "number":
        return [f"the number {node.children[0]}"] if top else []
    if top and kind == "cond_expr" and _literal_arms(node):    # `p.solo ? 2 : 3`
        return [f"the numbers {', '.join(_literal_arms(node))}"]
    if kind == "attr":
        base, name = node.children
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "params":
            return [f"parameter '{name}'"] if str(name) in params else []
        return [f"property '{name}'"] if str(name) in props else []
    if kind == "index":
        return [s for s in sources(node.children[0], params, props, False) if s.startswith("parameter")]
    if kind == "neg":
        return sources(node.children[0], params, props, top)
    if kind == "cond_expr":       # a number in an arm is a default beside data, not data itself
        return sources(node.children[1], params, props, False) + sources(node.children[2], params, props, False)
    if kind == "binop" and str(node.children[1]) in ARITH:
        found = sources(node.children[0], params, props, False) + sources(node.children[2], params, props, False)
        return found
    if kind == "call" and str(node.children[0]) in NUMERIC_CALLS:
        found = []
        for arg in node.children[1:]:
            if isinstance(arg, Tree) and arg.data != "named_arg":
                found += sources(arg, params, props, False)
        return found
    return []


def _literal_arms(node: Tree | Token) -> list[str]:
    """Returns the numbers of a ?: chain whose every arm is a number ([] otherwise)."""
    if isinstance(node, Tree) and node.data == "number":
        return [str(node.children[0])]
    if isinstance(node, Tree) and node.data == "cond_expr":
        a, b = _literal_arms(node.children[1]), _literal_arms(node.children[2])
        return a + b if a and b else []
    return []


def findings(spec) -> Iterator[tuple[str, Any, str]]:
    """Yields (function name, its src at expr, message) for every function flagged."""
    params, props = numeric_params(spec), numeric_props(spec)
    for name, (item, src) in spec.sections["functions"].items():
        if item.get("fixed"):
            continue
        tree = parse(str(item["expr"]), expression=True)
        if isinstance(tree, SyntaxProblem):
            continue
        found = list(dict.fromkeys(sources(tree, params, props, True)))
        if found:
            yield name, src, (f"function {name} computes a rule number from {', '.join(found)}: a card could "
                              "change it only if it were a quantity (quantities: in game.yaml); "
                              "or mark the function `fixed: <why>`")
