"""The fast form of a data function: the same rule as Python source without the checks.

A data function is pure (only queries), so it may run twice with the same result. Each
one is compiled twice: the checked form (every verb call, every error a problem with a
message) and a fast form in which the commonest queries are plain Python on the state
(`size(s)` is `len(places[s])`), `xs[i]` is Python's own, and calls to other data functions
whose arguments are cheap are written inline. When the fast form raises a Python error,
the checked form runs instead and reports the problem exactly as before (the work the
fast form counted is given back first, so the checked form counts it once); a valid rule
never gets there, so it pays for no check.

What the fast form may not do: count less work (`_each` stays, so budgets hold), or differ
in any value from the checked form (each template below returns what its verb returns).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from .registry import REGISTRY
from .runtime import MAX_INT

# Errors after which the checked form runs (and reports the problem, if there is one).
FALLBACK = "(KeyError, TypeError, IndexError, AttributeError, ValueError, ZeroDivisionError, OverflowError)"

# An argument source that is cheap and side-effect free to write more than once.
CHEAP = re.compile(r"^\(*(v\w+|k\d+|-?\d+|True|False|None|l\['\w+'\])(\[(v\w+|k\d+|-?\d+)\])*\)*$")

# top(s) or bottom_of(s) of a cheap s, as _VERBS writes them: two lookups, cheaper to
# write again than a call where Python takes no `:=` (in a comprehension's list)
END_OF_PLACE = re.compile(r"^\(_P\[(\(*(v\w+|k\d+|l\['\w+'\])\)*)\] or _NONE1\)\[(-1|0)\]$")

# The list a comprehension walks, where a fast form tests it for [] first (`[] if xs == []
# else [...]`, any()/all() alike): a place's contents or a name, cheap to write twice. A
# board's places are mostly empty, and an empty list needs no walk: no call of the
# comprehension nor of _each (which counts no work for it). Only an empty list equals [].
EMPTY_SKIPPED = re.compile(r"^(\(*(v\w+|_t\d+|l\['\w+'\])\)*|_P\[\(*(v\w+|_t\d+|k\d+|l\['\w+'\])\)*\])$")

# the state's table of attributes, as the fast sources name it
_USES_A = re.compile(r"\b_A\b")
# the state's table of places
_USES_P = re.compile(r"\b_P\b")
ZONE_SEATS = 64     # zone("name", p): the ids of seats below this are read from a table

# the board's neighbour table (verbs/graph.py adjacency: assembled in play, else board.yaml's)
_USES_J = re.compile(r"\b_J\b")

MAX_INLINE = 3   # nested inlining depth


# Query -> (fast source when its value is kept, when it is only walked); {0} is the
# first argument's source.
_VERBS: dict[str, tuple[str, str]] = {
    "size": ("len(_P[{0}])",) * 2,
    "top": ("(_P[{0}] or _NONE1)[-1]",) * 2,
    "bottom_of": ("(_P[{0}] or _NONE1)[0]",) * 2,
    "contents": ("_P[{0}][:]", "_P[{0}]"),
    "place_of": ("_L[{0}]",) * 2,
    "len": ("len({0})",) * 2,
    "is_space": ("({0} in _J)",) * 2,         # _J: the board's neighbour table (prologue)
    "players": ("list(range(c.s['n']))", "range(c.s['n'])"),
}


def verb_src(fname: str, args: list[str], iterable: bool) -> str | None:
    """Returns the fast source of a query with argument sources `args` (None: keep the
    call). `iterable`: the value is only walked by a comprehension, never kept, so a
    list the engine holds may be walked without a copy."""
    forms = _VERBS.get(fname)
    if forms is None:
        if fname in _ENDS and len(args) == 2 and CHEAP.match(args[0]) and CHEAP.match(args[1]):
            # anything but a list raises (_FAIL is empty), and the checked form says why
            return f"(({args[0]}[{_ENDS[fname]}] if {args[0]} else {args[1]}) if type({args[0]}) is list else _FAIL[0])"
        return None
    return forms[iterable].format(*args[:1])


# first(xs, default) and last(xs, default): the index of the item they return
_ENDS = {"first": "0", "last": "-1"}


def iter_src(fname: str, args: list[str], iterable: bool, const: Callable[[Any], str],
             kinds: dict[str, tuple[str, ...]], kind: str | None = None) -> str | None:
    """Returns the source of objects(kind) and spaces() walked by a comprehension: the
    fixed lists themselves (safe in checked code too: nothing is kept or changed).
    `kind`: the literal kind given to objects(), if any."""
    if not iterable:
        return None
    if fname == "objects" and kind is not None:
        return const(list(kinds.get(kind, ())))
    if fname == "spaces" and args and args[0] == const(None):
        return f"(c.g.spaces if c.s.get('adj') is None else {const(_spaces)}(c, None))"
    return None


def walked_kind(seq: str, ns: dict[str, Any]) -> str | None:
    """Returns what every item of a list walked by a comprehension is, from its fast source:
    "id" (an entity id) for a place's contents, spaces() and objects(kind) (a fixed list of
    ids), "seat" for players(); None when unknown. The engine keeps only ids in places."""
    s = seq[1:-1] if seq.startswith("(") and seq.endswith(")") and _closes_at_end(seq, 0) else seq
    if s.endswith("[:]"):
        s = s[:-3]
    if s.startswith("_P[") and _closes_at_end(s, 2):
        return "id"
    if s == "range(c.s['n'])":
        return "seat"
    if s.startswith("c.g.spaces if c.s.get('adj') is None else "):
        return "id"
    if CONST.match(s):
        value = ns.get(s.strip("()"))
        if type(value) is list and all(type(x) is str for x in value):
            return "id"
    return None


def _closes_at_end(src: str, at: int) -> bool:
    """Whether the bracket opened at `at` closes at the end of `src` (and no sooner)."""
    depth = 0
    for k in range(at, len(src)):
        ch = src[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return k == len(src) - 1
    return False


INT_LITERAL = re.compile(r"^\(*-?\d+\)*$")
CONST = re.compile(r"^\(*k\d+\)*$")         # a fixed value, as ExpressionCompiler.const names it


def arith_src(sign: str, a: str, b: str, names: Callable[[], str] | None) -> str | None:
    """Returns the fast source of a + b or a - b (sign "+" or "-") for two ints as plain
    Python, the result checked within ±MAX_INT as _add and _sub check it; any other
    values (texts, lists, an int out of range, a bool) go to _add/_sub, which give them
    their meaning or their problem. An operand dear to repeat is computed once, first,
    into a name from `names` (None: no `:=` may stand here; None is returned)."""
    helper = "_add" if sign == "+" else "_sub"
    lit_a, lit_b = INT_LITERAL.match(a) is not None, INT_LITERAL.match(b) is not None
    if lit_a and lit_b:
        return None
    pre = ""
    if not (CHEAP.match(a) or lit_a):
        if names is None:
            return None
        t = names()
        pre, a = f"(({t} := {a}), ", t
    if not (CHEAP.match(b) or lit_b):
        if names is None:
            return None
        t = names()
        pre, b = (pre or "(") + f"({t} := {b}), ", t
    if pre:
        pre += "True) and "        # both computed first, in order, as a call computes them
    if lit_b:                       # a ± k within range: a between two bounds
        k = int(b.strip("()"))
        lo, hi = (-MAX_INT - k, MAX_INT - k) if sign == "+" else (-MAX_INT + k, MAX_INT + k)
        test = f"type({a}) is int and {lo} <= {a} <= {hi}"
    elif lit_a and sign == "+":
        k = int(a.strip("()"))
        test = f"type({b}) is int and {-MAX_INT - k} <= {b} <= {MAX_INT - k}"
    else:
        test = f"type({a}) is int and type({b}) is int and {-MAX_INT} <= {a} {sign} {b} <= {MAX_INT}"
    return f"({a} {sign} {b} if {pre}{test} else {helper}(c, {a}, {b}))"


def _spaces(c: Any, kind: Any) -> list:
    """The spaces() query, as the verb table holds it: the verbs sit above the language
    and register themselves there (verbs/graph.py), so the language never imports them."""
    return REGISTRY["spaces"].impl(c, kind)


def function_text(params: tuple[str, ...], fast: str, slow: str) -> str:
    """Returns the Python source of a data function's fast form, which falls back to the
    checked form `slow` (a name in the namespace) on any Python error."""
    args = "".join(f", v_{p}" for p in params)
    keep, give_back = _work_kept(fast)
    return (f"def _f(c{args}):\n"
            + prologue(fast)
            + (f"    {keep}\n" if keep else "")
            + f"    try:\n"
            f"        return {fast}\n"
            f"    except {FALLBACK}:\n"
            + (f"        {give_back}\n" if give_back else "")
            + f"        return {slow}(c{args})\n")


# calls that read an attribute: they count no work
_READS = re.compile(r"\b_p?attr\(c\b")


def _work_kept(fast: str) -> tuple[str, str]:
    """The lines that note the work left before a fast source and give back what it
    counted before falling back (none for a source that calls nothing with the context,
    so counts no work)."""
    if "(c" not in _READS.sub("", fast):
        return "", ""
    return "_w0 = c.w[0]", "c.w[0] = _w0"


def expression_text(fast: str, slow: str) -> str:
    """Returns the Python source of an expression's fast form (locals read from `c.l`),
    falling back to the checked form `slow` on any Python error (a missing local included)."""
    keep, give_back = _work_kept(fast)
    return ("def _f(c):\n    l = c.l\n"
            + prologue(fast)
            + (f"    {keep}\n" if keep else "")
            + f"    try:\n        return {fast}\n"
            f"    except {FALLBACK}:\n"
            + (f"        {give_back}\n" if give_back else "")
            + f"        return {slow}(c)\n")


def inline_text(into: str, fast: str, slow: str, tables: bool = True) -> str:
    """Returns the lines that put an expression's value into `into` in a block of statements
    (blocks.py), as its fast form would return it: no call, the checked form `slow` run on
    any Python error. `l` is the frame's locals there, as in the fast form. `tables`: read
    the state's tables it uses first (else the lines before did, and nothing since changed
    the game)."""
    lines = [x.strip() for x in prologue(fast).splitlines()] if tables else []
    lines.append(f"{into} = {fast}")
    keep, give_back = _work_kept(fast)
    return ((f"{keep}\n" if keep else "") + "try:\n" + "\n".join("    " + x for x in lines)
            + f"\nexcept {FALLBACK}:\n" + (f"    {give_back}\n" if give_back else "") + f"    {into} = {slow}(c)")


def prologue(fast: str) -> str:
    """Returns the lines that read the state's tables a fast form uses, once a call."""
    return (("    _P = c.s['places']\n" if _USES_P.search(fast) else "")
            + ("    _L = c.s['loc']\n" if "_L[" in fast else "")
            + ("    _A = c.s['attrs']\n" if _USES_A.search(fast) else "")
            + ("    _V = c.s['pvars']\n" if "_V[" in fast else "")
            + ("    _J = c.s.get('adj') or c.g.adj\n" if _USES_J.search(fast) else ""))


def printed_flag(env: Any, name: str) -> str:
    """Returns the source of a flag that is true while no object can have an attribute
    `name` of its own (no program assigns it, no scenario gives it, no loaded state holds
    it): a printed value is then read from its table with no look at the object's own
    attributes. The flags are false until the whole build is compiled (seal); the
    generated code finds them as `_PR`, the Env's own table."""
    if name not in env.printed:
        env.printed[name] = env.sealed[0] and name not in env.written
    return f"_PR[{name!r}]"


def mark_written(env: Any, name: str) -> None:
    """Notes that objects may now have an attribute `name` of their own (a program assigns
    it, a scenario gives it, a loaded state holds it): its reads look at them from now on."""
    env.written.add(name)
    if name in env.printed:
        env.printed[name] = False


def seal(env: Any) -> None:
    """Every program of the build is compiled: the attributes none assigns are printed only."""
    env.sealed[0] = True
    for name in env.printed:
        env.printed[name] = name not in env.written


def static_table(env: Any, name: str) -> dict[str, Any]:
    """Returns `x.name` for every entity x without attributes of its own, as the checked
    read (runtime.get_attr) gives it: its property, else its id for `id`, else the default."""
    out: dict[str, Any] = {}
    for x, props in env.props.items():
        if name in props:
            out[x] = props[name]
        elif name == "id":
            out[x] = x
        elif name in env.attr_defaults:
            out[x] = env.attr_defaults[name]
    return out
