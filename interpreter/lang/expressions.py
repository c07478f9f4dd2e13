"""Compiles effect-language expressions, once at load, into Python closures `f(ctx)`.

Every name, verb, argument and literal reference (zone, object, die, game variable) is
checked here, with the nearest known name suggested; calls to verbs that change the
game are refused where only a query may stand (functions, conditions, formulas).
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from lark import Token, Tree

from ..diagnostics import suggest
from .parser import SyntaxProblem, parse
from .registry import REGISTRY, Verb
from .runtime import MAX_INT, MAX_SEQUENCE, Ctx, RuntimeProblem, checked, get_attr, spend, text_of

SPECIAL_CALLS = {"choose", "run", "end_game", "emit", "window", "_call"}
CONSTANTS = {"num_players"}


class EffectError(Exception):
    """A compile problem at a line/column of the effect text."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


@dataclass
class Env:
    """What the compiler may refer to; filled by the loader from the definitions."""

    procedures: dict[str, tuple[str, ...]] = field(default_factory=dict)
    functions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    places: set[str] = field(default_factory=set)
    zones: set[str] = field(default_factory=set)
    objects: set[str] = field(default_factory=set)
    spaces: set[str] = field(default_factory=set)
    dice: set[str] = field(default_factory=set)
    game_vars: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)
    params: dict[str, dict] = field(default_factory=dict)        # rule constants: {value} or {by_players}
    registry: dict[str, Verb] = field(default_factory=lambda: REGISTRY)
    internal: bool = False                                       # engine-written programs may use _call



_INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def _binop(op: str) -> Callable[[Any, Any], Any]:
    return {"+": operator.add, "-": operator.sub, "*": operator.mul,
            "//": operator.floordiv, "%": operator.mod}[op]


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}



class ExpressionCompiler:
    """Compiles expressions to closures and checks every call; the statement compiler
    (compiler.Compiler) builds on it."""

    def __init__(self, env: Env):
        self.env = env
        self.errors: list[EffectError] = []
        self.pure_only = False
        # events some program emits, with the fields every emit of it gives (a trigger on
        # another event is a typo; an ability may use only fields the event always has)
        self.emitted: dict[str, set[str]] = {}
        self.windows: set[str] = set()   # names passed to window(...) by any program
        self.scope: set[str] = set()
        self.arg_names: dict[int, Token] = {}

    # ---- helpers ------------------------------------------------------------------
    def err(self, node: Tree | Token, message: str) -> None:
        line = getattr(node, "line", None) or getattr(getattr(node, "meta", None), "line", 1) or 1
        col = getattr(node, "column", None) or getattr(getattr(node, "meta", None), "column", 1) or 1
        self.errors.append(EffectError(line, col, message))

    # ---- calls --------------------------------------------------------------------
    def split_args(self, node: Tree) -> tuple[list[Tree], dict[str, Tree]]:
        args: list[Tree] = []
        named: dict[str, Tree] = {}
        self.arg_names: dict[int, Token] = {}
        for a in node.children[1:]:
            if isinstance(a, Tree) and a.data == "named_arg":
                key = str(a.children[0])
                if key in named:
                    self.err(a.children[0], f"argument '{key}' given twice")
                named[key] = a.children[1]
                self.arg_names[id(a.children[1])] = a.children[0]
            else:
                if named:
                    self.err(a, "a positional argument cannot follow a named one")
                args.append(a)
        return args, named

    def bind(self, node: Tree, fname: str, params: tuple[str, ...]) -> Callable:
        """Returns a closure giving the argument dict of a procedure or data function call."""
        args, named = self.split_args(node)
        if len(args) > len(params):
            self.err(node, f"{fname}() takes {len(params)} argument(s), got {len(args)}")
        fns: dict[str, Callable] = {}
        for p, a in zip(params, args):
            fns[p] = self.expr(a)
        for k, v in named.items():
            if k not in params:
                self.err(self.arg_names.get(id(v), v), f"{fname}() has no argument '{k}'" + suggest(k, params))
            fns[k] = self.expr(v)
        missing = [p for p in params if p not in fns]
        if missing:
            self.err(node, f"{fname}() is missing argument(s): {', '.join(missing)}")
        items = tuple(fns.items())
        if len(items) == 0:
            return lambda c: {}
        if len(items) == 1:
            (k0, f0), = items
            return lambda c: {k0: f0(c)}
        if len(items) == 2:
            (k0, f0), (k1, f1) = items
            return lambda c: {k0: f0(c), k1: f1(c)}
        if len(items) == 3:
            (k0, f0), (k1, f1), (k2, f2) = items
            return lambda c: {k0: f0(c), k1: f1(c), k2: f2(c)}
        return lambda c: {k: f(c) for k, f in items}

    def call(self, node: Tree) -> Callable:
        fname = str(node.children[0])
        if fname in SPECIAL_CALLS or fname in self.env.procedures:
            what = "choose(...)" if fname == "choose" else f"{fname}(...)"
            self.err(node, f"{what} changes the flow of play and must stand as a statement"
                     + (" or as 'let x = ...'" if fname != "run" else ""))
            return lambda c: None
        if fname in self.env.functions:
            params = self.env.functions[fname]
            argf = self.bind(node, fname, params)

            def call_fn(c: Ctx, _n: str = fname) -> Any:
                # The function's arguments are its locals for the call (no new context).
                args, saved = argf(c), c.l
                c.l = args
                try:
                    return c.g.functions[_n](c)
                finally:
                    c.l = saved
            return call_fn
        verb = self.env.registry.get(fname)
        if verb is None:
            known = list(self.env.registry) + list(self.env.functions) + list(self.env.procedures)
            self.err(node, f"unknown function '{fname}'" + suggest(fname, known))
            return lambda c: None
        if self.pure_only and not verb.pure:
            self.err(node, f"{fname}() changes the game, so it cannot be used in a function, "
                     "condition or scoring formula (use it in a procedure)")
        args, named = self.split_args(node)
        params = verb.params
        if len(args) > len(params):
            self.err(node, f"{fname}() takes at most {len(params)} argument(s), got {len(args)}")
        slots: list[Callable | None] = [None] * len(params)
        for i, a in enumerate(args[:len(params)]):
            self.check_literal(a, verb, params[i])
            slots[i] = self.expr(a)
        names = [p.name for p in params]
        for k, v in named.items():
            if k not in names:
                self.err(self.arg_names.get(id(v), v), f"{fname}() has no argument '{k}'" + suggest(k, names))
                continue
            i = names.index(k)
            if slots[i] is not None:
                self.err(v, f"{fname}() got argument '{k}' twice")
            self.check_literal(v, verb, params[i])
            slots[i] = self.expr(v)
        for i, p in enumerate(params):
            if slots[i] is None:
                if p.required:
                    self.err(node, f"{fname}() is missing argument '{p.name}'")
                    slots[i] = lambda c: None
                else:
                    d = p.default
                    slots[i] = lambda c, _d=d: _d
        impl = verb.impl
        fs = tuple(slots)
        if fname == "log":
            # Log lines are only formatted when the game keeps a log (playouts run without).
            a0, a1 = fs[0], fs[1]
            return lambda c: impl(c, a0(c), a1(c)) if c.s.get("log_on", True) else None
        if len(fs) == 0:
            return lambda c: impl(c)
        if len(fs) == 1:
            a0 = fs[0]
            return lambda c: impl(c, a0(c))
        if len(fs) == 2:
            a0, a1 = fs
            return lambda c: impl(c, a0(c), a1(c))
        if len(fs) == 3:
            a0, a1, a2 = fs
            return lambda c: impl(c, a0(c), a1(c), a2(c))
        return lambda c: impl(c, *[f(c) for f in fs])

    def check_literal(self, node: Tree, verb: Verb, param: Any) -> None:
        kind = param.kind
        if not isinstance(node, Tree):
            return
        lit = node.data
        if lit == "number" and kind in ("str", "bool", "list", "place", "zone", "obj", "die", "space"):
            self.err(node, f"{verb.name}() argument '{param.name}' expects {kind}, got a number")
        if lit == "string":
            text = str(node.children[0])[1:-1]
            if "{" in text:
                return
            table = {"place": self.env.places, "zone": self.env.zones, "obj": self.env.objects,
                     "die": self.env.dice, "space": self.env.spaces}.get(kind)
            if table is not None and text not in table:
                self.err(node, f"{verb.name}() argument '{param.name}': no {kind} named '{text}'"
                         + suggest(text, table))
            if kind in ("int", "bool", "list"):
                self.err(node, f"{verb.name}() argument '{param.name}' expects {kind}, got a string")

    def param(self, node: Tree, name: str) -> Callable:
        """Returns a rule constant: fixed at load, or looked up by the number of players."""
        entry = self.env.params.get(name)
        if entry is None:
            self.err(node, f"no parameter '{name}' (declare it under params)" + suggest(name, self.env.params))
            return lambda c: None
        if "by_players" in entry:
            table = {int(k): v for k, v in entry["by_players"].items()}

            def by_players(c: Ctx) -> Any:
                try:
                    return table[c.s["n"]]
                except KeyError:
                    raise RuntimeProblem(f"parameter {name} has no value for {c.s['n']} players") from None
            return by_players
        value = entry.get("value")
        return lambda c: value

    def check_game_var(self, node: Tree, name: str) -> None:
        if name not in self.env.game_vars:
            self.err(node, f"no game variable '{name}' (declare it under vars.game)"
                     + suggest(name, self.env.game_vars))

    def check_attr(self, node: Tree, name: str) -> None:
        if name not in self.env.attributes:
            self.err(node, f"no attribute or player variable named '{name}'" + suggest(name, self.env.attributes))

    # ---- expressions --------------------------------------------------------------

    def expr(self, node: Tree) -> Callable:
        kind = node.data
        ch = node.children
        if kind == "number":
            if len(ch[0]) > 19 or int(ch[0]) > MAX_INT:
                self.err(node, f"the number {str(ch[0])[:30]}{'...' if len(ch[0]) > 30 else ''} is beyond "
                         f"{MAX_INT}")
                return lambda c: 0
            v = int(ch[0])
            return lambda c: v
        if kind == "string":
            return self.string(ch[0])
        if kind == "true":
            return lambda c: True
        if kind == "false":
            return lambda c: False
        if kind == "none":
            return lambda c: None
        if kind == "name":
            name = str(ch[0])
            if name in self.scope:
                def local(c: Ctx) -> Any:
                    try:
                        return c.l[name]
                    except KeyError:
                        raise RuntimeProblem(f"'{name}' has no value here") from None
                return local
            if name == "num_players":
                return lambda c: c.s["n"]
            if name in ("game", "params"):
                self.err(node, f"'{name}' is only used as {name}.<name>")
                return lambda c: None
            self.err(node, f"unknown name '{name}'" + suggest(name, self.scope | CONSTANTS))
            return lambda c: None
        if kind == "attr":
            base, attr = ch[0], str(ch[1])
            if base.data == "name" and str(base.children[0]) == "game" and "game" not in self.scope:
                self.check_game_var(node, attr)
                return lambda c: c.s["gvars"][attr]
            if base.data == "name" and str(base.children[0]) == "params" and "params" not in self.scope:
                return self.param(node, attr)
            self.check_attr(node, attr)
            b = self.expr(base)
            return lambda c: get_attr(c, b(c), attr)
        if kind == "index":
            b, i = self.expr(ch[0]), self.expr(ch[1])

            def index(c: Ctx) -> Any:
                seq, k = b(c), i(c)
                try:
                    return seq[k]
                except (IndexError, KeyError, TypeError):
                    raise RuntimeProblem(f"no item [{k!r}] in {seq!r}") from None
            return index
        if kind == "call":
            return self.call(node)
        if kind == "list_expr":
            items = [self.expr(x) for x in ch if x is not None]
            return lambda c: [f(c) for f in items]
        if kind == "comprehension":
            body, var, seq = ch[0], str(ch[1]), ch[2]
            cond = ch[3] if len(ch) > 3 else None
            seqf = self.expr(seq)
            had = var in self.scope
            self.scope.add(var)
            bodyf = self.expr(body)
            condf = self.expr(cond) if cond is not None else None
            if not had:
                self.scope.discard(var)

            def comp(c: Ctx) -> list:
                l = c.l
                saved = l.get(var, _MISSING)
                out = []
                seq = seqf(c)
                w = c.w
                try:
                    w[0] -= len(seq)
                except TypeError:
                    raise RuntimeProblem(f"'for' in [...] needs a list, got {seq!r}") from None
                if w[0] < 0:
                    spend(c, 0)
                try:
                    if condf is None:
                        for x in seq:
                            l[var] = x
                            out.append(bodyf(c))
                    else:
                        for x in seq:
                            l[var] = x
                            if condf(c):
                                out.append(bodyf(c))
                finally:
                    if saved is _MISSING:
                        l.pop(var, None)
                    else:
                        l[var] = saved
                return out
            return comp
        if kind == "binop":
            a, op, b = self.expr(ch[0]), str(ch[1]), self.expr(ch[2])
            f = _binop(op)

            def binop(c: Ctx) -> Any:
                x, y = a(c), b(c)
                if op == "*" and (type(x) in (str, list) or type(y) in (str, list)):
                    n = y if type(y) is int else x
                    if type(n) is int and n * len(x if type(y) is int else y) > MAX_SEQUENCE:
                        raise RuntimeProblem(f"a list or text of more than {MAX_SEQUENCE} items")
                try:
                    r = f(x, y)
                except TypeError:
                    raise RuntimeProblem(f"cannot compute {x!r} {op} {y!r}") from None
                except ZeroDivisionError:
                    raise RuntimeProblem(f"division by zero in {x!r} {op} {y!r}") from None
                t = type(r)
                if t is int:
                    if -MAX_INT <= r <= MAX_INT:
                        return r
                    raise RuntimeProblem(f"{x!r} {op} {y!r} is beyond ±{MAX_INT}")
                if t is str or t is list:
                    checked(r)
                    spend(c, len(r))
                return r
            return binop
        if kind == "compare":
            a, op, b = self.expr(ch[0]), str(ch[1]), self.expr(ch[2])
            f = _COMPARE[op]
            # == and != never raise, so they need no wrapper (they are most comparisons).
            if op == "==":
                if ch[2].data in ("string", "number") and "{" not in str(ch[2].children[0]):
                    k = b(None)
                    return lambda c: a(c) == k
                return lambda c: a(c) == b(c)
            if op == "!=":
                return lambda c: a(c) != b(c)

            def compare(c: Ctx) -> Any:
                x, y = a(c), b(c)
                try:
                    return f(x, y)
                except TypeError:
                    raise RuntimeProblem(f"cannot compare {x!r} {op} {y!r}") from None
            return compare
        if kind == "in_op":
            a, b = self.expr(ch[0]), self.expr(ch[1])
            return lambda c: a(c) in b(c)
        if kind == "not_in":
            a, b = self.expr(ch[0]), self.expr(ch[1])
            return lambda c: a(c) not in b(c)
        if kind == "and_op":
            a, b = self.expr(ch[0]), self.expr(ch[1])
            return lambda c: a(c) and b(c)
        if kind == "or_op":
            a, b = self.expr(ch[0]), self.expr(ch[1])
            return lambda c: a(c) or b(c)
        if kind == "not_op":
            a = self.expr(ch[0])
            return lambda c: not a(c)
        if kind == "neg":
            a = self.expr(ch[0])
            return lambda c: -a(c)
        if kind == "cond_expr":
            t, a, b = self.expr(ch[0]), self.expr(ch[1]), self.expr(ch[2])
            return lambda c: a(c) if t(c) else b(c)
        if kind == "named_arg":
            self.err(node, "named arguments (x=...) only go inside a call")
            return lambda c: None
        self.err(node, f"unsupported expression {kind}")  # pragma: no cover
        return lambda c: None

    def string(self, tok: Token) -> Callable:
        raw = str(tok)[1:-1]
        text = raw
        if "\\" in raw:
            text, bad = _unescape(raw)
            if bad is not None:
                self.errors.append(EffectError(tok.line, tok.column + 1 + bad,
                                               f"unknown escape '{raw[bad:bad + 2]}' in a string "
                                               "(use \\n, \\t, \\\\, \\\" or \\')"))
                return lambda c: text
        if "{" not in text and "}" not in text:
            return lambda c: text
        parts: list[Any] = []
        pos = 0
        for m in _INTERP.finditer(text):
            parts.append(text[pos:m.start()])
            if m.group(0) in ("{{", "}}"):
                parts.append(m.group(0)[0])
            else:
                # Where the {...} starts in the file (exact when the string has no escapes).
                col0 = tok.column + 1 + m.start(1)
                sub = parse(m.group(1), expression=True)
                if isinstance(sub, SyntaxProblem):
                    self.errors.append(EffectError(tok.line, col0 + sub.column - 1,
                                                   "in {...} of a string: " + sub.message))
                    parts.append("")
                else:
                    before = len(self.errors)
                    parts.append(self.expr(sub))
                    for i in range(before, len(self.errors)):
                        e = self.errors[i]
                        self.errors[i] = EffectError(tok.line, col0 + e.column - 1, e.message)
            pos = m.end()
        parts.append(text[pos:])
        fixed = tuple(parts)
        return lambda c: "".join(p if type(p) is str else text_of(c, p(c)) for p in fixed)


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


def _unescape(raw: str) -> tuple[str, int | None]:
    """Returns the text with its escapes applied, and the index of a bad escape or None."""
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt not in _ESCAPES:
                return raw, i
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out), None


_MISSING = object()
