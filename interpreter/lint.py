"""Finds rules that dispatch on what a card is instead of letting the card say what it does.

A base rule (procedure, function, quantity, step, trigger, scoring formula) should never
branch on an object's id or on a kind name that stands for a power: that power belongs
on the object, as an ability, and a new card would otherwise need the rule edited. Two
checks, on the syntax trees of every base rule's text:

- id: a comparison (==, !=, in, not in) with a string that is an object's id;
- dispatch: an if/elif chain or a chain of ?: whose arms compare one expression with
  three or more different strings (`k == "fury" ... elif k == "calm" ... elif ...`),
  unless the expression is the option a player just chose (`let a = choose(...)`).

Card effects and abilities are not checked: an object may name itself and its own kin.

A third check, `quantity` (lint_quantities.py), is advice rather than an error: a base
function that computes a rule number (from a parameter, a numeric property or a bare
number) and is not a quantity, so no card can change it. `lint(..., quantities=True)`
adds its findings; `cairn lint` prints them and fails on them only with `--strict`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from lark import Token, Tree

from .lang.parser import SyntaxProblem, parse
from .lint_quantities import findings as quantity_findings
from .load.abilities import instances
from .load.spec import Src


@dataclass(frozen=True)
class Finding:
    """One rule that dispatches, at file:line:col."""

    file: str
    line: int
    column: int
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: [{self.check}] {self.message}"

    def as_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "check": self.check,
                "message": self.message}


def rule_texts(spec) -> Iterator[tuple[str, str, Src, bool]]:
    """Yields (what, text, src, is_expression) for every base rule of a merged spec."""
    for section, key in (("procedures", "do"), ("functions", "expr"), ("quantities", "expr")):
        for name, (item, src) in spec.sections[section].items():
            yield f"{section[:-1] if section != 'quantities' else 'quantity'} {name}", str(item[key]), \
                src.at(key), key == "expr"
    for name, exts in spec.extensions.items():
        for ext, src in exts:
            for k in ("before", "after"):
                if k in ext:
                    yield f"extension of {name}", ext[k], src.at(k), False
    for n in spec.nodes():
        for k in ("do", "resolve"):
            if k in n.data:
                yield f"{n.kind} {n.id}", n.data[k], n.src.at(k), False
        for k in ("if", "while", "until", "skip"):
            if k in n.data:
                yield f"{n.kind} {n.id}", str(n.data[k]), n.src.at(k), True
    for i, (t, src) in enumerate(spec.triggers):
        yield f"trigger on {t['on']}", t["do"], src.at("do"), False
    if spec.scoring:
        scoring, src = spec.scoring
        for k in ("score", "win_if"):
            if k in scoring:
                yield "scoring", str(scoring[k]), src.at(k), True


def lint(folder: Path, variants: list[str] = (), quantities: bool = False) -> list[Finding]:
    """Returns every finding in a game (with variants applied); the game must compile.
    With `quantities`, also the functions that should be quantities (lint_quantities.py)."""
    from .diff import load_spec
    spec = load_spec(folder, list(variants))
    ids: set[str] = set()
    for section in ("components", "cards"):
        for key, (item, _src) in spec.sections[section].items():
            ids.add(key)
            ids.update(instances(item))
    out: list[Finding] = []
    for what, text, src, is_expr in rule_texts(spec):
        tree = parse(text, expression=is_expr)
        if isinstance(tree, SyntaxProblem):
            continue
        for node, check, message in _findings(tree, text, ids):
            line, col = _pos(node)
            p = src.loaded.locate(src.path, line, col)
            out.append(Finding(src.loaded.file, p.line, p.column, check, f"{what}: {message}"))
    if quantities:
        for _name, src, message in quantity_findings(spec):
            p = src.loaded.pos(src.path)
            out.append(Finding(src.loaded.file, p.line, p.column, "quantity", message))
    return out


def _pos(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    meta = node.meta
    return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)


def _src_text(node: Tree, text: str) -> str:
    meta = node.meta
    if getattr(meta, "empty", True):
        return repr(node)
    return " ".join(text[meta.start_pos:meta.end_pos].split())


def _literal(node: Tree | Token) -> str | None:
    if isinstance(node, Tree) and node.data == "string":
        raw = str(node.children[0])[1:-1]
        return None if "{" in raw else raw
    return None


def _compared(cond: Tree, text: str) -> list[tuple[str, str]]:
    """Returns (expression, string) pairs a condition tests for equality, through `or`."""
    if cond.data == "or_op":
        return _compared(cond.children[0], text) + _compared(cond.children[1], text)
    if cond.data == "compare" and str(cond.children[1]) == "==":
        a, b = cond.children[0], cond.children[2]
        for x, y in ((a, b), (b, a)):
            lit = _literal(y)
            if lit is not None and isinstance(x, Tree):
                return [(_src_text(x, text), lit)]
    return []


def _arms(node: Tree) -> list[Tree]:
    """Returns the conditions of an if/elif chain or of a ?: chain (through the else side)."""
    if node.data == "if_stmt":
        conds = [node.children[0]]
        conds += [p.children[0] for p in node.children[2:] if isinstance(p, Tree) and p.data == "elif_clause"]
        return conds
    conds = []
    while isinstance(node, Tree) and node.data == "cond_expr":
        conds.append(node.children[0])
        node = node.children[2]
    return conds


def _chosen(tree: Tree) -> set[str]:
    """Returns the locals a program binds to a decision (`let a = choose(...)`): branching
    on the option a player picked is the rule itself, not dispatch on a card."""
    out = set()
    for node in tree.iter_subtrees():
        if node.data == "let_stmt":
            value = node.children[1]
            if isinstance(value, Tree) and value.data == "call" and str(value.children[0]) == "choose":
                out.add(str(node.children[0]))
    return out


def _decision(expr: str, chosen: set[str]) -> bool:
    head = expr.split("[", 1)[0].strip()
    return head in chosen


def _findings(tree: Tree, text: str, ids: set[str]) -> Iterator[tuple[Tree, str, str]]:
    inner_ternary: set[int] = set()
    chosen = _chosen(tree)
    for node in tree.iter_subtrees_topdown():
        if node.data in ("compare", "in_op", "not_in"):
            for side in (node.children[0], node.children[-1]):
                for lit in _strings(side):
                    if lit in ids:
                        yield node, "id", f"compares with the id of the object '{lit}'; let the object carry " \
                                          "what it does (an ability or a property)"
        if node.data in ("if_stmt", "cond_expr") and id(node) not in inner_ternary:
            if node.data == "cond_expr":
                rest = node.children[2]
                while isinstance(rest, Tree) and rest.data == "cond_expr":
                    inner_ternary.add(id(rest))
                    rest = rest.children[2]
            groups: dict[str, set[str]] = {}
            for cond in _arms(node):
                for expr, lit in _compared(cond, text):
                    groups.setdefault(expr, set()).add(lit)
            for expr, lits in groups.items():
                if len(lits) >= 3 and not _decision(expr, chosen):
                    yield node, "dispatch", f"branches on `{expr}` ({len(lits)} values: " \
                                            f"{', '.join(sorted(lits))}); give each case its own ability or data"


def _strings(node: Tree | Token) -> Iterator[str]:
    lit = _literal(node)
    if lit is not None:
        yield lit
    elif isinstance(node, Tree) and node.data == "list_expr":
        for ch in node.children:
            if isinstance(ch, Tree):
                yield from _strings(ch)

