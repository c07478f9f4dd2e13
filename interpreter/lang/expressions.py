"""Compiles effect-language expressions, once at load, into Python functions `f(ctx)`.

Every name, verb, argument and literal reference (zone, object, die, game variable) is
checked here, with the nearest known name suggested; calls to verbs that change the
game are refused where only a query may stand (functions, conditions, formulas).

An expression becomes Python source: locals are read from the frame's dict, the variable
of a comprehension is a Python variable, arithmetic and comparisons are Python's, and
only what needs the game or a check calls a helper (lang/helpers.py). Each expression an
instruction needs is one function, compiled from that source.
"""
from __future__ import annotations

import hashlib
import operator
import re
import threading
import warnings
from types import CodeType, FunctionType
from dataclasses import dataclass, field
from typing import Any, Callable

from lark import Token, Tree

from ..diagnostics import suggest
from .parser import SyntaxProblem, parse
from .registry import REGISTRY, Verb
from . import fast as fastsrc
from . import helpers
from .runtime import MAX_INT, Ctx, RuntimeProblem

SPECIAL_CALLS = {"choose", "run", "end_game", "emit", "window", "use_ability", "_call"}
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
    positional: set[str] = field(default_factory=set)           # data functions called as _U[name](c, ...)
    compiled: dict[str, Callable] = field(default_factory=dict)  # those functions, once compiled (_U)
    kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)   # object ids by kind
    inline: bool = True                                          # fast forms may inline data functions
    # a build that is only checked (cairn validate): no fast forms, fused blocks or runners,
    # which are for speed and find no problem the checked forms do not
    lean: bool = False
    fn_trees: dict[str, tuple[tuple[str, ...], Any]] = field(default_factory=dict)  # name -> (params, tree)
    props: dict[str, dict[str, Any]] = field(default_factory=dict)  # entity id -> static properties
    attr_defaults: dict[str, Any] = field(default_factory=dict)     # declared attributes' defaults
    player_vars: set[str] = field(default_factory=set)
    # attributes some program assigns (or a scenario gives, or a loaded state holds): only
    # these can hide a printed property, so the fast forms of the others read the table of
    # printed values at once (fast.py, "printed" flags)
    written: set[str] = field(default_factory=set)
    printed: dict[str, bool] = field(default_factory=dict)   # name -> no object can hide it (_PR)
    sealed: list[bool] = field(default_factory=lambda: [False])   # every program of the build compiled



def _const_key(value: Any) -> Any:
    """A plain value is named by what it is, anything else by its identity."""
    return (type(value).__name__, repr(value)) if isinstance(value, (str, int, bool, type(None))) else id(value)


def _lazy(*args: Any, _fn: Any = None) -> Any:
    """What a generated function runs the first time: compiles its text, then runs as it."""
    return _compiled(_fn)(*args)


# Held while generated code is compiled or written after load (on a first call): games of
# one compiled definition may run in several threads (the web server), and writing a
# runner (lang/runner.py) allocates the compiler's constants.
WRITING = threading.RLock()


def _compiled(fn: FunctionType) -> FunctionType:
    """Gives a generated function its compiled code (from then on calls cost nothing more)."""
    with WRITING:
        text = getattr(fn, "lazy", None)
        if text is None:                    # another thread compiled it meanwhile
            return fn
        origin = f"<{getattr(fn, 'origin', 'effect')}>"
        kept = fn.__globals__.get("_CODES")      # compiled by an earlier process (load/code_cache.py)
        code = kept.get(origin, text) if kept is not None else None
        if code is None:
            with warnings.catch_warnings():
                # a branch a type test never takes may subscript a literal; Python warns of it
                warnings.simplefilter("ignore", SyntaxWarning)
                module = compile(text, origin, "exec")
            code = next(k for k in module.co_consts if isinstance(k, CodeType))
            if kept is not None:
                kept.put(origin, text, code)
        fn.__code__ = code
        fn.__kwdefaults__ = None
        del fn.lazy
    return fn


_LAZY = _lazy.__code__


_INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def _binop(op: str) -> Callable[[Any, Any], Any]:
    return {"+": operator.add, "-": operator.sub, "*": operator.mul,
            "//": operator.floordiv, "%": operator.mod}[op]



# expressions whose value is a number, a text, a truth value or none, whatever they read:
# literals, texts with {...}, comparisons, `in`, `not`, a negated number
_SCALARS = frozenset({"number", "string", "true", "false", "none", "compare", "in_op", "not_in", "not_op", "neg"})


def _scalar(node: Tree, env: Env) -> bool:
    """Whether an expression's value is never a list or a record (so a game variable given
    it needs no check that the state can keep it): what _SCALARS names, the verb `len(...)`,
    and `a if c else b`, `a and b`, `a or b` of such values."""
    if not isinstance(node, Tree):
        return False
    if node.data in _SCALARS:
        return True
    if node.data == "call":
        name = str(node.children[0])
        return name == "len" and name not in env.functions and name not in env.procedures
    if node.data == "cond_expr":
        return _scalar(node.children[1], env) and _scalar(node.children[2], env)
    if node.data in ("and_op", "or_op"):
        return _scalar(node.children[0], env) and _scalar(node.children[1], env)
    return False


def _walks(node: Tree) -> bool:
    """Whether an expression builds or walks a list with a comprehension."""
    return isinstance(node, Tree) and any(t.data == "comprehension" for t in node.iter_subtrees())


class ExpressionCompiler:
    """Compiles expressions to functions and checks every call; the statement compiler
    (compiler.Compiler) builds on it."""

    def __init__(self, env: Env):
        self.env = env
        self.errors: list[EffectError] = []
        self.pure_only = False
        # events some program emits, with the fields every emit of it gives (a trigger on
        # another event is a typo; an ability may use only fields the event always has)
        self.emitted: dict[str, set[str]] = {}
        self.windows: set[str] = set()   # names passed to window(...) by any program
        self.effects: list[tuple] | None = None   # what the program being compiled did (memo.py)
        self.scope: set[str] = set()
        self.arg_names: dict[int, Token] = {}
        self.ns: dict[str, Any] = dict(helpers.NAMESPACE)   # what the generated code refers to
        self.ns["_compiled"] = _compiled
        self.ns["_U"] = env.compiled       # the data functions, by name (compiler.positional)
        self.ns["_PR"] = env.printed       # the attributes no object can have of its own (fast.py)
        self.consts: dict[Any, str] = {}
        self.built_consts: int | None = None   # how many the build named (runner.attach sets it)
        self.bound: list[str] = []       # comprehension variables in scope, innermost last
        # comprehension variables (their Python names) whose list holds only entity ids
        # ("id": a place's contents, objects(kind), spaces()) or seats ("seat": players())
        self.walked: dict[str, str] = {}
        self.reads: set[str] = set()     # program locals the expression being built reads
        self.fast = False                # building a data function's fast form (fast.py)
        self.subst: dict[str, str] = {}  # parameter -> argument source, in a function written inline
        self.inlining: list[str] = []    # the functions being written inline, outermost first
        self.vtag = ""                   # the suffix of comprehension variables (unique per inline)
        self.vcount = 0
        self.tcount = 0                  # names a fast form computes a value into once (`_t3 :=`)
        self.in_iter = 0                 # inside a comprehension's list, where Python takes no `:=`
        self.iterable = False            # the next call's value is only walked by a comprehension
        self.impure = False              # the expression being built calls a verb that changes the game
        self.origin = "effect"           # what generated code is part of: its file name in tracebacks and profiles
        self.static_tables: dict[Any, str] = {}   # attribute (or zone) -> the const name of its table (fast.py)

    # ---- helpers ------------------------------------------------------------------
    def err(self, node: Tree | Token, message: str) -> None:
        line = getattr(node, "line", None) or getattr(getattr(node, "meta", None), "line", 1) or 1
        col = getattr(node, "column", None) or getattr(getattr(node, "meta", None), "column", 1) or 1
        self.errors.append(EffectError(line, col, message))

    def const(self, value: Any) -> str:
        """Returns the name under which the generated code finds a fixed value."""
        key = _const_key(value)
        name = self.consts.get(key)
        if name is None:
            name = f"k{len(self.consts)}"
            self.consts[key] = name
            self.ns[name] = value
        return name

    def scoped_const(self, scope: str) -> Callable[[Any], str]:
        """Returns how code written after the build (a program's runner, on its first run)
        names fixed values: a value the build named keeps its name, any other gets a name
        of this scope. So the text is the same whatever ran first in the process, and its
        compiled code is found again (load/code_cache.py)."""
        tag = "r" + hashlib.sha1(scope.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        built = len(self.consts) if self.built_consts is None else self.built_consts
        own: dict[Any, str] = {}

        def const(value: Any) -> str:
            key = _const_key(value)
            name = self.consts.get(key)
            if name is not None and int(name[1:]) < built:
                return name
            name = own.get(key)
            if name is None:
                name = own[key] = f"{tag}_{len(own)}"
                self.ns[name] = value
            return name
        return const

    def function(self, src: str) -> Callable:
        """Returns the function of one expression's source."""
        reads = tuple(sorted(self.reads))
        self.reads = set()
        text = (f"def _f(c):\n    l = c.l\n    try:\n        return {src}\n"
                f"    except KeyError as e:\n"
                f"        if e.args and e.args[0] in {reads!r}:\n"
                f"            raise _missing(e.args[0]) from None\n"
                f"        raise\n"
                f"    except TypeError as e:\n"
                f"        raise _RP(f'cannot compute this: {{e}}') from None\n")
        fn = self.define(text)
        fn.src, fn.reads = src, reads      # a block of statements (blocks.py) is built from these
        return fn

    # ---- compiling generated source -------------------------------------------------
    def define(self, text: str) -> FunctionType:
        """Returns the function a generated `def` defines, compiled when first called:
        compile() is most of what loading costs, and most of a game's code (a variant's
        rules, a card no playout draws, a check no one asks) never runs in one process."""
        fn = FunctionType(_LAZY, self.ns, "_lazy")
        fn.__kwdefaults__ = {"_fn": fn}
        fn.lazy = text
        fn.origin = self.origin
        return fn

    def expr(self, node: Tree) -> Callable:
        """Returns the function computing one expression (a condition, a value, arguments)."""
        self.reads = set()
        self.impure = False
        src = self.src(node)
        fn = self.function(src)
        fn.pure = not self.impure      # it only reads the game (a loop of such reads, blocks.py)
        fn.scalar = _scalar(node, self.env)
        if self.impure or not self.fast_forms():
            return fn
        out = self.fast_expr(node, src, fn)
        out.scalar = fn.scalar
        return out

    def fast_forms(self) -> bool:
        """Whether what is being compiled now gets fast forms: not inside one already, not
        for coverage (which counts each function's calls), not in a build only checked."""
        return not self.fast and self.env.inline and not self.env.lean

    def fast_expr(self, node: Tree, src: str, checked: Callable,
                  build: Callable[[Tree], str] | None = None) -> Callable:
        """Returns the fast form of an expression that only queries (lang/fast.py), falling
        back to `checked`; or `checked` itself when the fast form would be the same code.
        `build`: how the source is written (default: the expression's own)."""
        before = len(self.errors)
        self.fast = True
        try:
            body = (build or self.src)(node)
        finally:
            self.fast = False
        if len(self.errors) > before or body == src:
            del self.errors[before:]
            return checked
        fn = self.define(fastsrc.expression_text(body, self.const(checked)))
        fn.src, fn.reads = checked.src, checked.reads
        fn.fast = True          # a block writes its fast source, not the checked one, inline
        fn.fast_body, fn.checked, fn.pure = body, checked, True
        return fn

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

    def bind_src(self, node: Tree, fname: str, params: tuple[str, ...]) -> str:
        """Returns the source of the argument dict of a procedure or data function call."""
        parts = self.bind_parts(node, fname, params)
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in parts.items()) + "}"

    def bind_parts(self, node: Tree, fname: str, params: tuple[str, ...]) -> dict[str, str]:
        """Returns the source of each argument of a call by parameter name (errors noted)."""
        args, named = self.split_args(node)
        if len(args) > len(params):
            self.err(node, f"{fname}() takes {len(params)} argument(s), got {len(args)}")
        parts: dict[str, str] = {}
        for p, a in zip(params, args):
            parts[p] = self.src(a)
        for k, v in named.items():
            if k not in params:
                self.err(self.arg_names.get(id(v), v), f"{fname}() has no argument '{k}'" + suggest(k, params))
            parts[k] = self.src(v)
        missing = [p for p in params if p not in parts]
        if missing:
            self.err(node, f"{fname}() is missing argument(s): {', '.join(missing)}")
        return parts

    def positional_args(self, node: Tree, fname: str) -> list[str]:
        """Returns the sources of a data function call's arguments, in its parameters' order."""
        params = self.env.functions[fname]
        parts = self.bind_parts(node, fname, params)
        return [parts.get(p, "None") for p in params]

    def bind(self, node: Tree, fname: str, params: tuple[str, ...]) -> Callable:
        """Returns a function giving the argument dict of a procedure or data function call
        (with a fast form when the arguments only query: a list built by a comprehension is
        a common argument)."""
        self.reads = set()
        self.impure = False
        src = self.bind_src(node, fname, params)
        fn = self.function(src)
        if self.impure or not self.fast_forms() or not _walks(node):
            return fn
        return self.fast_expr(node, src, fn, lambda n: self.bind_src(n, fname, params))

    def part_src(self, node: Tree) -> str:
        """Returns the source of an argument of a verb that changes the game: a part that
        only queries and walks a list is computed by a function of its own with a fast form
        (the whole call cannot have one: it must not run twice), else written in place."""
        if self.bound or self.subst or not self.fast_forms() or not _walks(node):
            return self.src(node)
        outer, impure = self.reads, self.impure
        self.reads, self.impure = set(), False
        src = self.src(node)
        reads, changes = self.reads, self.impure
        fn = checked = None
        if not changes:
            checked = self.function(src)       # reads self.reads
            fn = self.fast_expr(node, src, checked)
        self.reads, self.impure = outer | reads, impure or changes
        if fn is checked:
            return src
        return f"{self.const(fn)}(c)"

    def call(self, node: Tree) -> str:
        fname = str(node.children[0])
        if fname in SPECIAL_CALLS or fname in self.env.procedures:
            what = "choose(...)" if fname == "choose" else f"{fname}(...)"
            self.err(node, f"{what} changes the flow of play and must stand as a statement"
                     + (" or as 'let x = ...'" if fname != "run" else ""))
            return "None"
        iterable, self.iterable = self.iterable, False
        if fname in self.env.positional:
            args = self.positional_args(node, fname)
            inline = self.inline(fname, args) if self.fast else None
            return inline or f"_U[{fname!r}](c{''.join(', ' + a for a in args)})"
        if fname in self.env.functions:
            return f"_call(c, {fname!r}, {self.bind_src(node, fname, self.env.functions[fname])})"
        verb = self.env.registry.get(fname)
        if verb is None:
            known = list(self.env.registry) + list(self.env.functions) + list(self.env.procedures)
            self.err(node, f"unknown function '{fname}'" + suggest(fname, known))
            return "None"
        if not verb.pure:
            self.impure = True
        if self.pure_only and not verb.pure:
            self.err(node, f"{fname}() changes the game, so it cannot be used in a function, "
                     "condition or scoring formula (use it in a procedure)")
        args, named = self.split_args(node)
        if fname in ("any", "all") and len(args) == 1 and not named and isinstance(args[0], Tree) \
                and args[0].data == "comprehension":
            # any([... for x in xs]) stops at the first true (all: false) item, as Python's does
            # with a generator: a rule written as a comprehension costs no more than a loop.
            seq, walk = self.comprehension_parts(args[0])
            out = f"{fname}({walk})"
            # an empty list walked: the value with no call (fast.py, EMPTY_SKIPPED)
            return f"({fname == 'all'} if {seq} == [] else {out})" if self.skips_empty(seq) else out
        params = verb.params
        if len(args) > len(params):
            self.err(node, f"{fname}() takes at most {len(params)} argument(s), got {len(args)}")
        slots: list[str | None] = [None] * len(params)
        part = self.src if verb.pure else self.part_src
        for i, a in enumerate(args[:len(params)]):
            self.check_literal(a, verb, params[i])
            # len() only counts its argument's items: a list the engine holds is counted
            # where it is, not copied first (`len(contents(s))` is `len(_P[s])`)
            self.iterable = fname == "len" and isinstance(a, Tree) and a.data == "call"
            try:
                slots[i] = part(a)
            finally:
                self.iterable = False
        names = [p.name for p in params]
        for k, v in named.items():
            if k not in names:
                self.err(self.arg_names.get(id(v), v), f"{fname}() has no argument '{k}'" + suggest(k, names))
                continue
            i = names.index(k)
            if slots[i] is not None:
                self.err(v, f"{fname}() got argument '{k}' twice")
            self.check_literal(v, verb, params[i])
            slots[i] = part(v)
        for i, p in enumerate(params):
            if slots[i] is None:
                if p.required:
                    self.err(node, f"{fname}() is missing argument '{p.name}'")
                    slots[i] = "None"
                else:
                    slots[i] = self.const(p.default)
        kind = None
        if fname == "objects" and args and isinstance(args[0], Tree) and args[0].data == "string" \
                and "{" not in str(args[0].children[0]):
            kind = str(args[0].children[0])[1:-1]
        quick = fastsrc.verb_src(fname, slots, iterable) if self.fast else None
        if self.fast and fname == "zone":
            quick = self.zone_src(slots, self.const(verb.impl))
        if self.fast and fname == "call_function":
            quick = self.named_call(args[1] if len(args) > 1 else named.get("args"), slots[0])
        if quick is None:
            quick = fastsrc.iter_src(fname, slots, iterable, self.const, self.env.kinds, kind)
        if quick is not None:
            return quick
        impl = self.const(verb.impl)
        out = f"{impl}(c{''.join(', ' + x for x in slots)})"
        if fname == "log":
            # Log lines are only formatted when the game keeps a log (playouts run without).
            return f"({out} if c.s.get('log_on', True) else None)"
        return out

    def zone_src(self, slots: list[str], impl: str) -> str | None:
        """The fast source of zone("name", p) with a written name and a cheap seat: the id
        read from a table of the first seats' ids, if the state has that place; any other
        seat, or no such place, asks the verb (which gives its id or its problem)."""
        name = self.ns.get(slots[0]) if fastsrc.CONST.match(slots[0]) else None
        if type(name) is not str or not fastsrc.CHEAP.match(slots[1]):
            return None
        key = ("zone", name)
        table = self.static_tables.get(key)
        if table is None:
            table = self.static_tables[key] = self.const({k: f"{name}/{k}" for k in range(fastsrc.ZONE_SEATS)})
        p = slots[1]
        return f"({table}[{p}] if type({p}) is int and {table}.get({p}) in _P else {impl}(c, {slots[0]}, {p}))"

    def named_call(self, arg_list: Any, name: str) -> str | None:
        """The fast source of call_function(name, [a, b, ...]) with a written list: the data
        function called at once, `_U[name](c, a, b, ...)`. A name that is no data function
        (a quantity) or a call that does not fit raises, and the checked form runs."""
        if not isinstance(arg_list, Tree) or arg_list.data != "list_expr":
            return None
        return f"_U[{name}](c{''.join(', ' + self.src(x) for x in arg_list.children if x is not None)})"

    def inline(self, fname: str, args: list[str]) -> str | None:
        """Returns a data function's fast form written inline with these argument sources,
        or None (not known yet, recursive, too deep, or an argument too dear to repeat)."""
        entry = self.env.fn_trees.get(fname)
        if entry is None or not self.env.inline or fname in self.inlining or len(self.inlining) >= fastsrc.MAX_INLINE:
            return None
        params, tree = entry
        if any(":=" in a for a in args) and self.in_iter:
            return None     # an argument could land in a comprehension's list, which takes no `:=`
        # An argument dear to repeat is computed once, first, into a name of its own, as a
        # call computes it (`(_t3 := a, body)[-1]`); in a comprehension's list, which takes
        # no `:=`, only one used once is written in place.
        bound: list[str] = []
        subst: dict[str, str] = {}
        for p, a in zip(params, args):
            if fastsrc.CHEAP.match(a):
                subst[p] = f"({a})"
                continue
            uses = sum(1 for t in tree.scan_values(lambda v: isinstance(v, Token) and str(v) == p))
            if self.in_iter:
                if uses > 1 or ":=" in a:
                    return None
                subst[p] = f"({a})"
                continue
            self.tcount += 1
            subst[p] = f"_t{self.tcount}"
            bound.append(f"(_t{self.tcount} := ({a}))")
        saved = (self.bound, self.subst, self.scope, self.vtag, len(self.errors))
        self.vcount += 1
        self.bound, self.scope, self.vtag = [], set(), str(self.vcount)
        self.subst = subst
        self.inlining.append(fname)
        try:
            body = self.src(tree)
        finally:
            self.inlining.pop()
            self.bound, self.subst, self.scope, self.vtag, before = saved
        if len(self.errors) > before:
            del self.errors[before:]
            return None
        if bound:
            return f"({', '.join(bound)}, {body})[-1]"
        return f"({body})"

    def static_attr(self, base: str, name: str) -> str | None:
        """Returns the fast source of `base.name`: a player's variable read from the state, an
        entity's read from a table of every entity's value (props, else `id`, else the
        declared default) while no attribute of its own can hide it; None where the name is
        neither. A base dear to repeat is computed once, into a name of its own (`_t3 :=`);
        a record or a value that is no entity is read as `_attr` reads it, not by raising
        (a fast form that raises runs its whole checked form again)."""
        printed = bool(self.env.props) and (name not in self.env.player_vars
                                            or any(name in props for props in self.env.props.values()))
        player = name in self.env.player_vars
        if not (printed or player):
            if fastsrc.CHEAP.match(base):       # a record's field, as _attr reads it
                return f"({base}[{name!r}] if type({base}) is dict else _attr(c, {base}, {name!r}))"
            return None
        if fastsrc.INT_LITERAL.match(base):
            # a seat written as a number (`0.in_pot`): its variable, with no type test
            # (Python warns of subscripting a literal, even in a branch never taken)
            return f"_V[{base}][{name!r}]" if player else None
        known = self.walked.get(base.strip("()"))
        if known is not None:
            quick = self.known_attr(base, name, known, printed, player)
            if quick is not None:
                return quick
        b = first = base
        if not fastsrc.CHEAP.match(base) and self.in_iter:
            if not fastsrc.END_OF_PLACE.match(base):
                # Python takes no `:=` in a comprehension's list: read by a call
                if player or not printed:
                    return None
                fastsrc.printed_flag(self.env, name)         # its flag, kept in _PR
                return f"_pattr(c, {base}, {name!r}, {self.static_table(name)}, _PR)"
        elif not fastsrc.CHEAP.match(base):
            self.tcount += 1
            b = f"_t{self.tcount}"
            first = f"({b} := {base})"
        out = f"_attr(c, {b}, {name!r})"
        # a record's field (one it lacks raises, and the checked form says so)
        layers = [lambda x, inner: f"({b}[{name!r}] if type({x}) is dict else {inner})"]
        if printed:
            # an entity's own value (the state's attrs table) if it has one, else the
            # printed one; the table of printed values alone while no object can have one
            read = self.entity_attr(b, name)
            layers.append(lambda x, inner: f"({read} if type({x}) is str else {inner})")
        if player:
            layers.append(lambda x, inner: f"(_V[{b}][{name!r}] if type({x}) is int else {inner})")
        for k, layer in enumerate(layers):
            out = layer(first if k == len(layers) - 1 else b, out)
        return out

    def known_attr(self, b: str, name: str, known: str, printed: bool, player: bool) -> str | None:
        """Returns the fast source of `b.name` for a comprehension variable whose list holds
        only entity ids (or seats): the one read that fits, with no type test. Should it
        hold anything else after all, the read raises (no such key) and the checked form runs."""
        if known == "id" and printed:
            return self.entity_attr(b, name)
        if known == "seat" and player:
            return f"_V[{b}][{name!r}]"
        return None

    def entity_attr(self, b: str, name: str) -> str:
        """Returns the fast source of `b.name` for an entity id b: its own value (the state's
        attrs table) if it has one, else the printed one. While no object can have one (the
        attribute's flag, fast.printed_flag) the table of printed values alone is read; an
        attribute some program already assigns looks at the object's own first, with no
        flag to test (its flag is false once the build is sealed)."""
        table = self.static_table(name)
        if name in self.env.written:
            return f"(_A[{b}][{name!r}] if {name!r} in _A.get({b}, _NOATTR) else {table}[{b}])"
        flag = fastsrc.printed_flag(self.env, name)
        return f"({table}[{b}] if {flag} or {name!r} not in _A.get({b}, _NOATTR) else _A[{b}][{name!r}])"

    def numeric(self, a: str, b: str) -> bool:
        """Whether a + b (a - b) of these sources is worth writing for two ints: one is a
        number (a literal, a fixed number, a len()) and neither a fixed text or list, or
        both are names. Texts built with + (a log line) keep the one call."""
        kinds = [self.kind_of(x) for x in (a, b)]
        if "other" in kinds:
            return False
        return "int" in kinds or all(fastsrc.CHEAP.match(x) for x in (a, b))

    def kind_of(self, src: str) -> str | None:
        """'int' for a source known to give an int, 'other' for one known not to, else None."""
        if fastsrc.INT_LITERAL.match(src) or src.startswith("len("):
            return "int"
        if fastsrc.CONST.match(src):
            value = self.ns.get(src.strip("()"))
            return "int" if type(value) is int else "other"
        return "other" if src.startswith("''.join(") else None

    def temp(self) -> str:
        """Returns a new name a fast form computes a value into once (`_t3 :=`)."""
        self.tcount += 1
        return f"_t{self.tcount}"

    def static_table(self, name: str) -> str:
        """Returns the constant holding every entity's printed `name` (fast.static_table)."""
        table = self.static_tables.get(name)
        if table is None:
            table = self.static_tables[name] = self.const(fastsrc.static_table(self.env, name))
        return table

    def check_literal(self, node: Tree, verb: Verb, param: Any) -> None:
        kind = param.kind
        if not isinstance(node, Tree):
            return
        lit = node.data
        if kind == "player" and lit in ("string", "list_expr", "comprehension"):
            self.err(node, f"{verb.name}() argument '{param.name}' expects a seat number, got a "
                     + ("string" if lit == "string" else "list"))
            return
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

    def param(self, node: Tree, name: str) -> str:
        """Returns a rule constant: fixed at load, or looked up by the number of players."""
        entry = self.env.params.get(name)
        if entry is None:
            self.err(node, f"no parameter '{name}' (declare it under params)" + suggest(name, self.env.params))
            return "None"
        if "by_players" in entry:
            table = {int(k): v for k, v in entry["by_players"].items()}
            return f"_byp(c, {self.const(table)}, {name!r})"
        return self.const(entry.get("value"))

    def check_game_var(self, node: Tree, name: str) -> None:
        if name not in self.env.game_vars:
            self.err(node, f"no game variable '{name}' (declare it under vars.game)"
                     + suggest(name, self.env.game_vars))

    def check_attr(self, node: Tree, name: str) -> None:
        if name not in self.env.attributes:
            self.err(node, f"no attribute or player variable named '{name}'" + suggest(name, self.env.attributes))

    # ---- expressions --------------------------------------------------------------
    def src(self, node: Tree) -> str:
        """Returns the Python source of an expression (errors go to self.errors)."""
        kind = node.data
        ch = node.children
        if kind == "number":
            if len(ch[0]) > 19 or int(ch[0]) > MAX_INT:
                self.err(node, f"the number {str(ch[0])[:30]}{'...' if len(ch[0]) > 30 else ''} is beyond "
                         f"{MAX_INT}")
                return "0"
            return str(int(ch[0]))
        if kind == "string":
            return self.string(ch[0])
        if kind in ("true", "false", "none"):
            return {"true": "True", "false": "False", "none": "None"}[kind]
        if kind == "name":
            return self.name(node, str(ch[0]))
        if kind == "attr":
            base, attr = ch[0], str(ch[1])
            if base.data == "name" and str(base.children[0]) == "game" and "game" not in self.scope:
                self.check_game_var(node, attr)
                return f"c.s['gvars'][{attr!r}]"
            if base.data == "name" and str(base.children[0]) == "params" and "params" not in self.scope:
                return self.param(node, attr)
            self.check_attr(node, attr)
            base_src = self.src(base)
            if self.fast:
                quick = self.static_attr(base_src, attr)
                if quick is not None:
                    return quick
            return f"_attr(c, {base_src}, {attr!r})"
        if kind == "index":
            if self.fast:
                return f"{self.src(ch[0])}[{self.src(ch[1])}]"
            return f"_item({self.src(ch[0])}, {self.src(ch[1])})"
        if kind == "call":
            return self.call(node)
        if kind == "list_expr":
            return "[" + ", ".join(self.src(x) for x in ch if x is not None) + "]"
        if kind == "comprehension":
            return self.comprehension(node)
        if kind == "binop":
            a, sign, b = self.src(ch[0]), str(ch[1]), self.src(ch[2])
            if self.fast and sign in ("+", "-") and self.numeric(a, b):
                quick = fastsrc.arith_src(sign, a, b, None if self.in_iter else self.temp)
                if quick is not None:
                    return quick
            if sign == "+":
                return f"_add(c, {a}, {b})"
            if sign == "-":
                return f"_sub(c, {a}, {b})"
            return f"_op(c, {sign!r}, {a}, {b})"
        # Comparisons and `in` are Python's: values that do not compare raise TypeError,
        # which every compiled expression turns into a problem of the rule (function()).
        if kind == "compare":
            return f"({self.src(ch[0])} {ch[1]} {self.src(ch[2])})"
        if kind == "in_op":
            return f"({self.src(ch[0])} in {self.src(ch[1])})"
        if kind == "not_in":
            return f"({self.src(ch[0])} not in {self.src(ch[1])})"
        if kind == "and_op":
            return f"({self.src(ch[0])} and {self.src(ch[1])})"
        if kind == "or_op":
            return f"({self.src(ch[0])} or {self.src(ch[1])})"
        if kind == "not_op":
            return f"(not {self.src(ch[0])})"
        if kind == "neg":
            if isinstance(ch[0], Tree) and ch[0].data == "number":
                return f"(-{self.src(ch[0])})"     # a negative literal (-1): what 0 - 1 gives
            return f"_sub(c, 0, {self.src(ch[0])})"
        if kind == "cond_expr":
            return f"({self.src(ch[1])} if {self.src(ch[0])} else {self.src(ch[2])})"
        if kind == "named_arg":
            self.err(node, "named arguments (x=...) only go inside a call")
            return "None"
        self.err(node, f"unsupported expression {kind}")  # pragma: no cover
        return "None"

    def name(self, node: Tree, name: str) -> str:
        if name in self.bound:
            return f"v{self.vtag}_{name}"
        if name in self.subst:
            return self.subst[name]
        if name in self.scope:
            self.reads.add(name)
            return f"l[{name!r}]"
        if name == "num_players":
            return "c.s['n']"
        if name in ("game", "params"):
            self.err(node, f"'{name}' is only used as {name}.<name>")
            return "None"
        self.err(node, f"unknown name '{name}'" + suggest(name, self.scope | set(self.bound) | CONSTANTS))
        return "None"

    def comprehension(self, node: Tree) -> str:
        seq, walk = self.comprehension_parts(node)
        if self.skips_empty(seq):
            # an empty list built or walked with no call (fast.py, EMPTY_SKIPPED)
            return f"([] if {seq} == [] else [{walk}])"
        return f"[{walk}]"

    def skips_empty(self, seq: str) -> bool:
        """Whether a fast form tests the list a comprehension walks for [] first: cheap to
        write twice (fast.py, EMPTY_SKIPPED)."""
        return self.fast and fastsrc.EMPTY_SKIPPED.match(seq) is not None

    def comprehension_parts(self, node: Tree) -> tuple[str, str]:
        """Returns the source of the list a comprehension walks, and its walk (the
        comprehension without its brackets, `body for v in _each(c, seq) if cond`)."""
        ch = node.children
        body, var, seq = ch[0], str(ch[1]), ch[2]
        cond = ch[3] if len(ch) > 3 else None
        self.iterable = seq.data == "call"
        self.in_iter += 1
        try:
            seq_src = self.src(seq)      # the list is read outside the comprehension's own name
        finally:
            self.iterable = False
            self.in_iter -= 1
        self.bound.append(var)
        name = f"v{self.vtag}_{var}"
        outer = self.walked.get(name)
        self.walked[name] = fastsrc.walked_kind(seq_src, self.ns) if self.fast else None
        try:
            body_src = self.src(body)
            cond_src = self.src(cond) if cond is not None else None
        finally:
            self.bound.pop()
            self.walked[name] = outer
        out = f"{body_src} for {name} in _each(c, {seq_src})"
        return seq_src, out + (f" if {cond_src}" if cond_src is not None else "")

    def string(self, tok: Token) -> str:
        raw = str(tok)[1:-1]
        text = raw
        if "\\" in raw:
            text, bad = _unescape(raw)
            if bad is not None:
                self.errors.append(EffectError(tok.line, tok.column + 1 + bad,
                                               f"unknown escape '{raw[bad:bad + 2]}' in a string "
                                               "(use \\n, \\t, \\\\, \\\" or \\')"))
                return self.const(text)
        if "{" not in text and "}" not in text:
            return self.const(text)
        parts: list[str] = []
        pos = 0
        for m in _INTERP.finditer(text):
            if text[pos:m.start()]:
                parts.append(self.const(text[pos:m.start()]))
            if m.group(0) in ("{{", "}}"):
                parts.append(self.const(m.group(0)[0]))
            else:
                # Where the {...} starts in the file (exact when the string has no escapes).
                col0 = tok.column + 1 + m.start(1)
                sub = parse(m.group(1), expression=True)
                if isinstance(sub, SyntaxProblem):
                    self.errors.append(EffectError(tok.line, col0 + sub.column - 1,
                                                   "in {...} of a string: " + sub.message))
                else:
                    before = len(self.errors)
                    parts.append(f"_text(c, {self.src(sub)})")
                    for i in range(before, len(self.errors)):
                        e = self.errors[i]
                        self.errors[i] = EffectError(tok.line, col0 + e.column - 1, e.message)
            pos = m.end()
        if text[pos:]:
            parts.append(self.const(text[pos:]))
        return "''.join((" + ", ".join(parts) + ",))" if parts else self.const("")


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

