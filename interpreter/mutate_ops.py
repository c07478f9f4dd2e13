"""The mutation operators of the effect language: small, plausible mistakes in one rule.

Each operator is an edit of the effect text (a span of characters and what replaces it),
found on the Lark tree so it only ever touches a real number, operator, condition or
statement, never text inside a string or a comment. The edits are what a person
encoding a rule could get wrong: a number off by one, a boundary (`<` for `<=`), `and`
for `or`, a condition forgotten, a statement left out. Removing an ability or a step,
and changing a parameter, are edits of the YAML around the code (mutate_sites.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Tree

from .lang.parser import SyntaxProblem, parse

# Each comparison swapped for its neighbour: the boundary moved, or the test negated.
NEIGHBOUR = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
# Operators whose surviving mutant, playing like the original, means the rule never fired.
GUARDS = ("condition", "ability", "step")
_KEYWORD = re.compile(r"\b(and|or)\b")


@dataclass(frozen=True)
class Edit:
    """One change of an effect text: characters start..end become `new`."""

    start: int
    end: int
    new: str
    op: str        # number, compare, and/or, condition, statement


def edits(text: str, expression: bool) -> list[Edit]:
    """Returns every operator's edit of one effect text (none if it does not parse), in
    the order of the text, each once."""
    tree = parse(text, expression=expression)
    if isinstance(tree, SyntaxProblem):
        return []
    out: list[Edit] = []
    if expression and not isinstance(tree, Token) and _span(tree) is not None:
        start, end = _span(tree)
        if tree.data in ("and_op", "or_op", "compare", "not_op", "in_op", "not_in", "call", "name", "attr"):
            out += [Edit(start, end, "true", "condition"), Edit(start, end, "false", "condition")]
    _walk(tree, text, out)
    seen: set[tuple] = set()
    unique = []
    for e in sorted(out, key=lambda e: (e.start, e.end, e.op, e.new)):
        key = (e.start, e.end, e.new)
        if key not in seen and text[e.start:e.end] != e.new:
            seen.add(key)
            unique.append(e)
    return unique


def _span(node: Tree | Token) -> tuple[int, int] | None:
    if isinstance(node, Token):      # a kept tree's tokens have no end_pos: their text is the source's
        return (node.start_pos, node.start_pos + len(node)) if node.start_pos is not None else None
    meta = node.meta
    return None if getattr(meta, "empty", True) else (meta.start_pos, meta.end_pos)


def _walk(node: Tree | Token, text: str, out: list[Edit]) -> None:
    """Adds the edits of a node and of everything below it."""
    if isinstance(node, Token):
        if node.type == "NUMBER":
            n = int(node)
            start, end = _span(node)
            out += [Edit(start, end, str(n + 1), "number")]
            if n > 0:
                out.append(Edit(start, end, str(n - 1), "number"))
        elif node.type == "COMPOP":
            start, end = _span(node)
            out.append(Edit(start, end, NEIGHBOUR[str(node)], "compare"))
        return
    kind = node.data
    if kind in ("and_op", "or_op"):
        _logic(node, text, out)
    elif kind in ("if_stmt", "elif_clause"):
        _constant(node.children[0], out)
    elif kind == "cond_expr":
        _constant(node.children[0], out)
    elif kind == "comprehension" and len(node.children) == 4:
        span = _span(node.children[3])
        if span is not None:                       # the filter dropped: every item kept
            out.append(Edit(span[0], span[1], "true", "condition"))
    if kind in ("program", "block"):
        for stmt in node.children:
            _removal(stmt, text, out)
    for child in node.children:
        if isinstance(child, (Tree, Token)):
            _walk(child, text, out)


def _constant(test: Tree | Token, out: list[Edit]) -> None:
    """A test that always holds, and one that never does (a branch forced or cut off)."""
    span = _span(test)
    if span is not None:
        out += [Edit(span[0], span[1], "true", "condition"), Edit(span[0], span[1], "false", "condition")]


def _logic(node: Tree, text: str, out: list[Edit]) -> None:
    """`and` for `or` (and back), and each side of it dropped: `a and b` keeps b alone
    (a becomes true), `a or b` keeps b alone (a becomes false)."""
    left, right = _span(node.children[0]), _span(node.children[1])
    if left is None or right is None:
        return
    found = _KEYWORD.search(text, left[1], right[0])
    if found is not None:
        other = "or" if found.group() == "and" else "and"
        out.append(Edit(found.start(), found.end(), other, "and/or"))
    dropped = "true" if node.data == "and_op" else "false"
    for span in (left, right):
        out.append(Edit(span[0], span[1], dropped, "condition"))


def _removal(stmt: Tree | Token, text: str, out: list[Edit]) -> None:
    """A statement left out (not a `let`: the names it makes are used below it, so the
    mutant would only fail to compile, which tests no scenario)."""
    if isinstance(stmt, Token) or stmt.data == "let_stmt":
        return
    span = _span(stmt)
    if span is None:
        return
    end = span[1]
    rest = text[end:]
    stripped = rest.lstrip(" \t")
    if stripped.startswith(";"):
        end += len(rest) - len(stripped) + 1
    out.append(Edit(span[0], end, "", "statement"))
