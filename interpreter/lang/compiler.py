"""Compiles effect programs, once at load, into flat instruction lists.

Statements become a list of instruction tuples run by `engine.vm` (expressions inside
them become closures, see expressions.py). Control state (program id, pc, locals) is
plain data, so a game can be cloned or saved in the middle of a multi-step effect.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from lark import Token, Tree

from ..diagnostics import suggest
from . import blocks, memo
from . import fast as fastsrc
from .expressions import CONSTANTS, SPECIAL_CALLS, EffectError, Env, ExpressionCompiler
from .parser import SyntaxProblem, parse
from .registry import INTERNAL


__all__ = ["Compiler", "Program", "Env", "EffectError", "CONSTANTS", "SPECIAL_CALLS"]

# Opcodes (small ints keep the VM's dispatch cheap).
EXPR, LET, SETATTR, JUMP, JUMPF, FOR_INIT, FOR_NEXT, CHOOSE, CALL, RET, RUN, END, EMIT, SETGAME, CALLD, BLOCK = range(16)
OPS = {"EXPR": EXPR, "LET": LET, "SETATTR": SETATTR, "SETGAME": SETGAME, "JUMP": JUMP, "JUMPF": JUMPF,
       "FOR_NEXT": FOR_NEXT, "FOR_INIT": FOR_INIT, "BLOCK": BLOCK}   # what lang/blocks.py needs to know
WINDOW = "engine:window"   # the program that offers activated abilities (see load/abilities.py)


def _offers(window: str, player: Callable, usable: Callable) -> Callable:
    """Returns whether a window must be opened: a seat with an ability to use there, or a
    value that is no seat (the window's own program then reports it)."""
    def offers(c: Any) -> bool:
        p = player(c)
        if type(p) is not int or not 0 <= p < c.s["n"]:
            return True
        return bool(usable(c, window, p))
    return offers


@dataclass
class Program:
    """A compiled effect: instructions plus, for each, where it came from."""

    name: str
    params: tuple[str, ...]
    code: list[tuple]
    where: list[tuple[int, int]]
    file: str = ""
    runner: Callable | None = None     # runs it between control points (lang/runner.py)


class Compiler(ExpressionCompiler):
    """Compiles one program (or one expression) at a time against an Env, collecting
    EffectErrors."""

    # ---- entry points -------------------------------------------------------------
    def program(self, name: str, text: str, params: tuple[str, ...] = (),
                predefined: tuple[str, ...] = ()) -> Program | None:
        """Returns the compiled program, or None with self.errors filled."""
        return self.kept(("program", name, text, params, predefined),
                         lambda: self._program(name, text, params, predefined),
                         keep=lambda p: (p.code, list(p.where)),
                         thaw=lambda k: Program(name, params, k[0], list(k[1])))

    def kept(self, key: tuple, compile: Callable[[], Any], keep: Callable[[Any], Any] = lambda v: v,
             thaw: Callable[[Any], Any] = lambda k: k) -> Any:
        """Returns compile(), or in a build only checked what an earlier such build compiled
        from the same key in an Env that answers alike (memo.py). `keep` turns a result
        into what is kept and `thaw` what is kept into a result: a program's instructions
        and places are kept, not the program object its build goes on to change."""
        if not self.env.lean:
            return compile()
        found = memo.recall(self.env, key)
        if found is not None:
            for effect in found.effects:
                self.effect(*effect)
            return thaw(found.value)
        stop = memo.recording(self.env)
        outer, self.effects = self.effects, []
        try:
            value = compile()
        finally:
            reads = stop() if stop is not None else None
            effects, self.effects = self.effects, outer
            if outer is not None:
                outer.extend(effects)     # what an inner compile did, the outer one did too
        if value is not None and reads is not None:
            memo.keep(self.env, key, reads, keep(value), effects)
        return value

    def effect(self, kind: str, *args: object) -> None:
        """Notes what compiling a program does besides returning it: an event it emits
        (with the fields it gives), a window it opens, an attribute it assigns."""
        if self.effects is not None:
            self.effects.append((kind, *args))
        if kind == "emit":
            event, named = args
            self.emitted[event] = self.emitted.get(event, set(named)) & set(named)
        elif kind == "window":
            self.windows.add(args[0])
        elif kind == "function":
            self.ns["_U"][args[0]] = args[1]
        else:
            fastsrc.mark_written(self.env, args[0])

    def _program(self, name: str, text: str, params: tuple[str, ...], predefined: tuple[str, ...]
                 ) -> Program | None:
        self.origin = name
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
        code = self.code if self.env.lean else blocks.fuse(self.code, OPS, self.define, self.const)
        return Program(name, params, code, self.where)

    def expression(self, text: str, scope: tuple[str, ...] = ()) -> Callable | None:
        """Returns a closure for a condition or formula, or None with errors filled."""
        return self.kept(("expression", text, tuple(scope)), lambda: self._expression(text, scope))

    def _expression(self, text: str, scope: tuple[str, ...]) -> Callable | None:
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

    def positional(self, name: str, text: str, params: tuple[str, ...]) -> Callable | None:
        """Compiles a data function to a Python function `f(c, *args)`, its parameters plain
        Python arguments: calls between rules (the commonest thing a rule does) then cost
        one Python call, with no argument dict. Call sites find it as `_U[name]`."""
        return self.kept(("positional", name, text, params), lambda: self._positional(name, text, params))

    def _positional(self, name: str, text: str, params: tuple[str, ...]) -> Callable | None:
        self.origin = f"fn:{name}"
        tree = parse(text, expression=True)
        if isinstance(tree, SyntaxProblem):
            self.errors.append(EffectError(tree.line, tree.column, tree.message))
            return None
        self.scope, self.bound, self.reads = set(), list(params), set()
        before = len(self.errors)
        self.pure_only = True
        try:
            body = self.src(tree)
        finally:
            self.pure_only, self.bound = False, []
        if len(self.errors) > before:
            return None
        args = "".join(f", v_{p}" for p in params)
        text = (f"def _f(c{args}):\n    try:\n        return {body}\n"
                f"    except TypeError as e:\n"
                f"        raise _RP(f'cannot compute this: {{e}}') from None\n")
        fn = self.define(text)
        if not self.env.lean:
            fn = self.fast_form(name, tree, params, fn)
        self.effect("function", name, fn)
        return fn

    def fast_form(self, name: str, tree: Tree, params: tuple[str, ...], checked: Callable) -> Callable:
        """Returns the fast form of a data function (lang/fast.py), falling back to `checked`
        on any Python error (which then reports the problem as the checked form always did)."""
        self.env.fn_trees.setdefault(name, (params, tree))
        before = len(self.errors)
        self.bound, self.fast = list(params), True
        try:
            body = self.src(tree)
        finally:
            self.fast, self.bound = False, []
        if len(self.errors) > before:          # not expected: the checked form compiled
            del self.errors[before:]
            return checked
        return self.define(fastsrc.function_text(params, body, self.const(checked)))

    # ---- helpers ------------------------------------------------------------------
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
    def augmented(self, node: Tree, target: Tree, sign: str, value: Tree) -> Callable:
        """Returns the function of the value `x += v` (`x -= v`) assigns: with a fast form
        (plain Python for ints, lang/fast.py arith_src) when it only queries."""
        self.reads, self.impure = set(), False

        def src(_node: Tree) -> str:
            t, v = self.src(target), self.src(value)
            if self.fast:
                quick = fastsrc.arith_src(sign, t, v, self.temp)
                if quick is not None:
                    return quick
            return f"_{'add' if sign == '+' else 'sub'}(c, {t}, {v})"
        text = src(node)
        fn = self.function(text)
        fn.pure = not self.impure
        if self.impure or not self.fast_forms():
            return fn
        return self.fast_expr(node, text, fn, src)

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
            self.assign(node, target, self.augmented(node, target, str(op)[0], value))
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
                what, reads = self.choose_spec(value)
                self.scope.add(name)
                self.emit_ins((CHOOSE, name, what, reads), node)
                return
            if fname in self.env.procedures:
                args = self.proc_args(value, fname)
                self.scope.add(name)
                self.emit_ins((CALL, "proc:" + fname, args, name), node)
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
                self.effect("written", attr)
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
            self.emit_ins((CALL, "proc:" + fname, self.proc_args(node, fname), None), node)
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
            self.effect("emit", event, frozenset(named))
            self.reads = set()
            fields = self.function("{" + ", ".join(f"{k!r}: {self.src(v)}" for k, v in named.items()) + "}")
            self.emit_ins((EMIT, event, fields), node)
        elif fname == "window":
            self.window_call(node)
        elif fname == "use_ability":
            args, named = self.split_args(node)
            if len(args) != 2 or named:
                self.err(node, "use_ability(option, player) takes an option of usable_abilities() and a player")
                return
            a, p = self.expr(args[0]), self.expr(args[1])
            note = INTERNAL["_note_use"].impl
            self.emit_ins((EXPR, lambda c: note(c, a(c))), node)
            self.emit_ins((CALLD, lambda c: c.g.abilities.by_key[a(c)[0]].program,
                           lambda c: {"me": p(c), "this": a(c)[1], "p": p(c)}, None), node)
        elif fname == "_call" and self.env.internal:
            args, _named = self.split_args(node)
            key, argsf = self.expr(args[0]), self.expr(args[1])
            self.emit_ins((CALLD, key, argsf, None), node)
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
        # `while true` tests nothing: its loop leaves by break, return or end_game only
        at = None if cond.data == "true" else self.emit_ins((JUMPF, self.expr(cond), -1), cond)
        self.loops.append((head, []))
        self.block(block)
        self.emit_ins((JUMP, head), block)
        _, breaks = self.loops.pop()
        end = len(self.code)
        if at is not None:
            self.patch(at, end)
        for b in breaks:
            self.patch(b, end)

    # ---- calls that change the flow ------------------------------------------------
    def window_call(self, node: Tree) -> None:
        """window("name", player): offers the activated abilities of that window."""
        args, named = self.split_args(node)
        if len(args) != 2 or named or args[0].data != "string" or "{" in str(args[0].children[0]):
            self.err(node, 'window("name", player) takes a window name (a plain string) and a player')
            return
        name = str(args[0].children[0])[1:-1]
        self.effect("window", name)
        p = self.expr(args[1])
        # A window that offers the player nothing (the common case in a playout) costs no
        # call; one that may offer something, or a player the window would refuse, calls.
        # (A player computed with effects is computed once, by the call.)
        at = None if self.impure else self.emit_ins((JUMPF, _offers(name, p, INTERNAL["_usable"].impl), -1), node)
        self.emit_ins((CALL, WINDOW, lambda c: {"w": name, "p": p(c)}, None), node)
        if at is not None:
            self.patch(at, len(self.code))

    def proc_args(self, node: Tree, fname: str) -> Callable:
        params = self.env.procedures[fname]
        return self.bind(node, fname, params)

    def choose_spec(self, node: Tree) -> tuple[Callable, Callable]:
        """Returns two closures: what the decision is (options, player, always) and how it
        reads (prompt, labels). The second runs only when someone looks (a person, a view, a
        logged game), so its expressions must be pure: they are read again, later."""
        args, named = self.split_args(node)
        allowed = {"player", "prompt", "labels", "always"}
        if len(args) != 1:
            self.err(node, "choose(options, player=..., prompt=\"...\") takes exactly one list of options")
            return (lambda c: ([], None, False)), (lambda c: ("", None))
        for k, v in named.items():
            if k not in allowed:
                self.err(self.arg_names.get(id(v), v), f"choose() has no argument '{k}'" + suggest(k, allowed))
        opts = self.expr(args[0])
        player = self.expr(named["player"]) if "player" in named else _written(lambda c: c.l.get("me"), "l.get('me')")
        always = self.expr(named["always"]) if "always" in named else _written(lambda c: False, "False")
        pure, self.pure_only = self.pure_only, True
        try:
            prompt = self.expr(named["prompt"]) if "prompt" in named else (lambda c: "Choose")
            labels = self.expr(named["labels"]) if "labels" in named else None
        finally:
            self.pure_only = pure
        what = lambda c: (opts(c), player(c), always(c))
        what.parts = (opts, player, always)      # a runner writes them inline (runner.py)
        return what, (lambda c: (prompt(c), labels(c) if labels else None))


def _written(fn: Callable, src: str) -> Callable:
    """A default argument's function, with the source a runner writes inline for it."""
    fn.src, fn.reads = src, ()
    return fn
