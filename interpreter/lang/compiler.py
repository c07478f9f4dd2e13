"""Compiles effect syntax trees, once at load, into flat instruction lists.

Expressions become Python closures `f(ctx)`; statements become a list of instruction
tuples run by `engine.vm`. Control state (program id, pc, locals) is plain data, so a
game can be cloned or saved in the middle of a multi-step effect. Every name, verb and
argument is checked here, with the nearest known name suggested.
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

# Opcodes (small ints keep the VM's dispatch cheap).
EXPR, LET, SETATTR, JUMP, JUMPF, FOR_INIT, FOR_NEXT, CHOOSE, CALL, RET, RUN, END, EMIT, SETGAME = range(14)

# Calls that are statements with control effects rather than verbs.
SPECIAL_CALLS = {"choose", "run", "end_game", "emit"}
MAX_SEQUENCE = 100_000   # no effect builds a list or text longer than this
CONSTANTS = {"num_players"}


class EffectError(Exception):
    """A compile problem at a line/column of the effect text."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


class RuntimeProblem(Exception):
    """A rule could not be carried out (a definition bug found in play)."""


@dataclass
class Program:
    """A compiled effect: instructions plus, for each, where it came from."""

    name: str
    params: tuple[str, ...]
    code: list[tuple]
    where: list[tuple[int, int]]
    file: str = ""


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
    events: set[str] = field(default_factory=set)
    registry: dict[str, Verb] = field(default_factory=lambda: REGISTRY)


class Ctx:
    """What a running closure sees: the state data, the compiled game, its locals."""

    __slots__ = ("s", "g", "l")

    def __init__(self, s: dict, g: Any, l: dict):
        self.s, self.g, self.l = s, g, l


def get_attr(c: Ctx, x: Any, name: str) -> Any:
    """Returns attribute `name` of an entity id (str), a record (dict) or a player (int)."""
    t = type(x)
    if t is str:
        dyn = c.s["attrs"].get(x)
        if dyn is not None and name in dyn:
            return dyn[name]
        props = c.g.props.get(x)
        if props is not None and name in props:
            return props[name]
        if name == "id":
            return x
        if name in c.g.attr_defaults:
            return c.g.attr_defaults[name]
        raise RuntimeProblem(f"{x!r} has no attribute {name!r}")
    if t is dict:
        if name in x:
            return x[name]
        raise RuntimeProblem(f"record has no field {name!r}")
    if t is int:  # a seat (bool is not int here: type(True) is bool)
        try:
            return c.s["pvars"][x][name]
        except (IndexError, KeyError):
            raise RuntimeProblem(f"player {x} has no variable {name!r}") from None
    raise RuntimeProblem(f"cannot read .{name} of {x!r}")


def set_attr(c: Ctx, x: Any, name: str, value: Any) -> None:
    """Writes a player variable (int) or an entity's dynamic attribute (str)."""
    if type(x) is int and not isinstance(x, bool):
        pv = c.s["pvars"][x]
        if name not in pv:
            raise RuntimeProblem(f"player {x} has no variable {name!r}")
        pv[name] = value
    elif type(x) is str:
        c.s["attrs"].setdefault(x, {})[name] = value
    else:
        raise RuntimeProblem(f"cannot set .{name} of {x!r}")


_INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def _binop(op: str) -> Callable[[Any, Any], Any]:
    return {"+": operator.add, "-": operator.sub, "*": operator.mul,
            "//": operator.floordiv, "%": operator.mod}[op]


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def text_of(c: Ctx, v: Any) -> str:
    """Returns how a value reads in a log line or an option label."""
    if type(v) is str:
        props = c.g.props.get(v)
        if props is not None and "name" in props:
            return str(props["name"])
        return v
    if type(v) is bool:
        return "yes" if v else "no"
    if type(v) is list:
        return " → ".join(text_of(c, x) for x in v)
    if type(v) is dict:
        return ", ".join(f"{k} {text_of(c, x)}" for k, x in v.items())
    if v is None:
        return "nothing"
    return str(v)


class Compiler:
    """Compiles one program at a time against an Env, collecting EffectErrors."""

    def __init__(self, env: Env):
        self.env = env
        self.errors: list[EffectError] = []
        self.pure_only = False
        self.emitted: set[str] = set()   # events some program emits (a trigger on another is a typo)

    # ---- entry points -------------------------------------------------------------
    def program(self, name: str, text: str, params: tuple[str, ...] = (),
                predefined: tuple[str, ...] = ()) -> Program | None:
        """Returns the compiled program, or None with self.errors filled."""
        tree = parse(text)
        if isinstance(tree, SyntaxProblem):
            self.errors.append(EffectError(tree.line, tree.column, tree.message))
            return None
        self.code: list[tuple] = []
        self.where: list[tuple[int, int]] = []
        self.scope: set[str] = set(params) | set(predefined)
        self.loops: list[tuple[int, list[int]]] = []
        self.loop_id = 0
        before = len(self.errors)
        for stmt in tree.children:
            self.stmt(stmt)
        self.emit_ins((RET, None), tree)
        if len(self.errors) > before:
            return None
        return Program(name, params, self.code, self.where)

    def expression(self, text: str, scope: tuple[str, ...] = ()) -> Callable | None:
        """Returns a closure for a condition or formula, or None with errors filled."""
        tree = parse(text, expression=True)
        if isinstance(tree, SyntaxProblem):
            self.errors.append(EffectError(tree.line, tree.column, tree.message))
            return None
        self.scope = set(scope)
        before = len(self.errors)
        self.pure_only = True
        try:
            fn = self.expr(tree)
        finally:
            self.pure_only = False
        return None if len(self.errors) > before else fn

    # ---- helpers ------------------------------------------------------------------
    def err(self, node: Tree | Token, message: str) -> None:
        line = getattr(node, "line", None) or getattr(getattr(node, "meta", None), "line", 1) or 1
        col = getattr(node, "column", None) or getattr(getattr(node, "meta", None), "column", 1) or 1
        self.errors.append(EffectError(line, col, message))

    def emit_ins(self, ins: tuple, node: Tree | Token) -> int:
        meta = getattr(node, "meta", None)
        line = getattr(meta, "line", None) or getattr(node, "line", 1) or 1
        col = getattr(meta, "column", None) or getattr(node, "column", 1) or 1
        self.code.append(ins)
        self.where.append((line, col))
        return len(self.code) - 1

    def patch(self, at: int, target: int) -> None:
        ins = self.code[at]
        self.code[at] = ins[:-1] + (target,)

    # ---- statements ---------------------------------------------------------------
    def block(self, node: Tree) -> None:
        for stmt in node.children:
            self.stmt(stmt)

    def stmt(self, node: Tree) -> None:
        kind = node.data
        if kind == "let_stmt":
            name, value = str(node.children[0]), node.children[1]
            self.let(node, name, value)
        elif kind == "assign_stmt":
            self.assign(node, node.children[0], self.expr(node.children[1]))
        elif kind == "augassign_stmt":
            target, op, value = node.children
            get, val = self.expr(target), self.expr(value)
            f = _binop(str(op)[0])
            self.assign(node, target, lambda c: f(get(c), val(c)))
        elif kind == "expr_stmt":
            self.expr_stmt(node.children[0])
        elif kind == "if_stmt":
            self.if_stmt(node)
        elif kind == "for_stmt":
            self.for_stmt(node)
        elif kind == "while_stmt":
            self.while_stmt(node)
        elif kind in ("break_stmt", "continue_stmt"):
            if not self.loops:
                self.err(node, f"'{kind.split('_')[0]}' outside a loop")
                return
            head, breaks = self.loops[-1]
            if kind == "break_stmt":
                breaks.append(self.emit_ins((JUMP, -1), node))
            else:
                self.emit_ins((JUMP, head), node)
        elif kind == "return_stmt":
            fn = self.expr(node.children[0]) if node.children else None
            self.emit_ins((RET, fn), node)
        else:  # pragma: no cover - grammar and compiler out of step
            self.err(node, f"unsupported statement {kind}")

    def let(self, node: Tree, name: str, value: Tree) -> None:
        if value.data == "call":
            fname = str(value.children[0])
            if fname == "choose":
                spec = self.choose_spec(value)
                self.scope.add(name)
                self.emit_ins((CHOOSE, name, spec), node)
                return
            if fname in self.env.procedures:
                args = self.proc_args(value, fname)
                self.scope.add(name)
                self.emit_ins((CALL, fname, args, name), node)
                return
        fn = self.expr(value)
        self.scope.add(name)
        self.emit_ins((LET, name, fn), node)

    def assign(self, node: Tree, target: Tree, fn: Callable) -> None:
        if target.data == "name":
            name = str(target.children[0])
            if name not in self.scope:
                self.err(target, f"'{name}' is not defined; use 'let {name} = ...' first"
                         + suggest(name, self.scope))
            self.emit_ins((LET, name, fn), node)
        elif target.data == "attr":
            base, attr = target.children
            attr = str(attr)
            if base.data == "name" and str(base.children[0]) == "game":
                self.check_game_var(target, attr)
                self.emit_ins((SETGAME, attr, fn), node)
            else:
                self.check_attr(target, attr)
                self.emit_ins((SETATTR, self.expr(base), attr, fn), node)
        else:
            self.err(target, "can only assign to a name or to an attribute (x.name)")

    def expr_stmt(self, node: Tree) -> None:
        if node.data != "call":
            self.err(node, "this expression does nothing; a statement must be a call or an assignment")
            return
        fname = str(node.children[0])
        if fname == "choose":
            self.err(node, "choose(...) must be the right-hand side of let, e.g. 'let x = choose(...)'")
        elif fname in self.env.procedures:
            self.emit_ins((CALL, fname, self.proc_args(node, fname), None), node)
        elif fname == "run":
            args, named = self.split_args(node)
            if len(args) != 1 or set(named) - {"me"}:
                self.err(node, "run(obj, me=player) takes one object and an optional 'me'")
                return
            me = self.expr(named["me"]) if "me" in named else (lambda c: c.l.get("me"))
            self.emit_ins((RUN, self.expr(args[0]), me), node)
        elif fname == "end_game":
            args, named = self.split_args(node)
            if args or set(named) - {"reason"}:
                self.err(node, "end_game(reason=\"...\") takes only an optional reason")
            reason = self.expr(named["reason"]) if "reason" in named else (lambda c: "")
            self.emit_ins((END, reason), node)
        elif fname == "emit":
            args, named = self.split_args(node)
            if len(args) != 1 or args[0].data != "string":
                self.err(node, "emit(\"event\", name=value, ...) needs the event name as a string")
                return
            event = str(args[0].children[0])[1:-1]
            self.emitted.add(event)
            fields = {k: self.expr(v) for k, v in named.items()}
            self.emit_ins((EMIT, event, lambda c: {k: f(c) for k, f in fields.items()}), node)
        else:
            self.emit_ins((EXPR, self.expr(node)), node)

    def if_stmt(self, node: Tree) -> None:
        parts = node.children
        branches = [(parts[0], parts[1])]
        else_block = None
        for part in parts[2:]:
            if part.data == "elif_clause":
                branches.append((part.children[0], part.children[1]))
            else:
                else_block = part.children[0]
        ends: list[int] = []
        for cond, block in branches:
            at = self.emit_ins((JUMPF, self.expr(cond), -1), cond)
            self.block(block)
            ends.append(self.emit_ins((JUMP, -1), block))
            self.patch(at, len(self.code))
        if else_block is not None:
            self.block(else_block)
        for at in ends:
            self.patch(at, len(self.code))

    def for_stmt(self, node: Tree) -> None:
        var, seq, block = str(node.children[0]), node.children[1], node.children[2]
        self.loop_id += 1
        slot = f"#it{self.loop_id}"
        self.emit_ins((FOR_INIT, slot, self.expr(seq)), node)
        self.scope.add(var)
        head = self.emit_ins((FOR_NEXT, slot, var, -1), node)
        self.loops.append((head, []))
        self.block(block)
        self.emit_ins((JUMP, head), block)
        _, breaks = self.loops.pop()
        end = len(self.code)
        self.patch(head, end)
        for at in breaks:
            self.patch(at, end)

    def while_stmt(self, node: Tree) -> None:
        cond, block = node.children
        head = len(self.code)
        at = self.emit_ins((JUMPF, self.expr(cond), -1), cond)
        self.loops.append((head, []))
        self.block(block)
        self.emit_ins((JUMP, head), block)
        _, breaks = self.loops.pop()
        end = len(self.code)
        self.patch(at, end)
        for b in breaks:
            self.patch(b, end)

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

    def proc_args(self, node: Tree, fname: str) -> Callable:
        params = self.env.procedures[fname]
        return self.bind(node, fname, params, ())

    def bind(self, node: Tree, fname: str, params: tuple[str, ...], defaults: tuple) -> Callable:
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

    def choose_spec(self, node: Tree) -> Callable:
        args, named = self.split_args(node)
        allowed = {"player", "prompt", "labels", "always"}
        if len(args) != 1:
            self.err(node, "choose(options, player=..., prompt=\"...\") takes exactly one list of options")
            return lambda c: ([], None, "", None, False)
        for k, v in named.items():
            if k not in allowed:
                self.err(self.arg_names.get(id(v), v), f"choose() has no argument '{k}'" + suggest(k, allowed))
        opts = self.expr(args[0])
        player = self.expr(named["player"]) if "player" in named else (lambda c: c.l.get("me"))
        prompt = self.expr(named["prompt"]) if "prompt" in named else (lambda c: "Choose")
        labels = self.expr(named["labels"]) if "labels" in named else None
        always = self.expr(named["always"]) if "always" in named else (lambda c: False)
        return lambda c: (opts(c), player(c), prompt(c), labels(c) if labels else None, always(c))

    def call(self, node: Tree) -> Callable:
        fname = str(node.children[0])
        if fname in SPECIAL_CALLS or fname in self.env.procedures:
            what = "choose(...)" if fname == "choose" else f"{fname}(...)"
            self.err(node, f"{what} changes the flow of play and must stand as a statement"
                     + (" or as 'let x = ...'" if fname != "run" else ""))
            return lambda c: None
        if fname in self.env.functions:
            params = self.env.functions[fname]
            argf = self.bind(node, fname, params, ())

            def call_fn(c: Ctx, _n: str = fname) -> Any:
                return c.g.functions[_n](Ctx(c.s, c.g, argf(c)))
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
        if len(args) > len(params) and not verb.variadic:
            self.err(node, f"{fname}() takes at most {len(params)} argument(s), got {len(args)}")
        slots: list[Callable | None] = [None] * len(params)
        extra: list[Callable] = []
        for i, a in enumerate(args):
            if i < len(params):
                self.check_literal(a, verb, params[i])
                slots[i] = self.expr(a)
            else:
                extra.append(self.expr(a))
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
        fs = tuple(slots) + tuple(extra)
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
            if name == "game":
                self.err(node, "'game' is only used as game.<variable>")
                return lambda c: None
            self.err(node, f"unknown name '{name}'" + suggest(name, self.scope | CONSTANTS))
            return lambda c: None
        if kind == "attr":
            base, attr = ch[0], str(ch[1])
            if base.data == "name" and str(base.children[0]) == "game" and "game" not in self.scope:
                self.check_game_var(node, attr)
                return lambda c: c.s["gvars"][attr]
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
                try:
                    for x in seqf(c):
                        l[var] = x
                        if condf is None or condf(c):
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
                    return f(x, y)
                except TypeError:
                    raise RuntimeProblem(f"cannot compute {x!r} {op} {y!r}") from None
                except ZeroDivisionError:
                    raise RuntimeProblem(f"division by zero in {x!r} {op} {y!r}") from None
            return binop
        if kind == "compare":
            a, op, b = self.expr(ch[0]), str(ch[1]), self.expr(ch[2])
            f = _COMPARE[op]

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
