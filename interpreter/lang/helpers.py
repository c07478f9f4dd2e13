"""What compiled expressions call at run time.

Expressions are compiled to Python source (expressions.py): arithmetic, comparisons,
lists, comprehensions and locals become plain Python; what needs a check or the game
(an attribute of an object, an item, a data function, an operator that must not grow a
value past the language's sizes) calls one of these."""
from __future__ import annotations

import operator
from types import MappingProxyType
from typing import Any

from .runtime import (MAX_INT, MAX_SEQUENCE, Ctx, RuntimeProblem, direct_call, frozen, get_attr, save_check, set_attr,
                      spend, text_of)

_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}


def attr(c: Ctx, x: Any, name: str) -> Any:
    """x.name: an object's changing attribute, else its property (or a player's variable,
    a record's field)."""
    t = type(x)
    if t is str:
        dyn = c.s["attrs"].get(x)
        if dyn is not None and name in dyn:
            return dyn[name]
        props = c.g.props.get(x)
        if props is not None and name in props:
            return props[name]
    elif t is dict:
        if name in x:
            return x[name]
    elif t is int:
        pvars = c.s["pvars"]
        if 0 <= x < len(pvars):
            pv = pvars[x]
            if name in pv:
                return pv[name]
    return get_attr(c, x, name)


def printed_attr(c: Ctx, x: Any, name: str, table: dict, printed: dict) -> Any:
    """x.name where no object can have `name` of its own while printed[name] holds: its
    printed value at once, from the table of every entity's (lang/fast.py)."""
    t = type(x)
    if t is str:
        if printed[name]:
            v = table.get(x, _ABSENT)
            if v is not _ABSENT:
                return v
    elif t is dict and name in x:           # a record's field
        return x[name]
    return attr(c, x, name)


_ABSENT = object()


def item(seq: Any, k: Any) -> Any:
    """seq[k]."""
    try:
        return seq[k]
    except (IndexError, KeyError, TypeError):
        raise RuntimeProblem(f"no item [{k!r}] in {seq!r}") from None


def call(c: Ctx, name: str, args: dict) -> Any:
    """A data function of game.yaml: its arguments are its locals for the call."""
    saved = c.l
    c.l = args
    try:
        return c.g.functions[name](c)
    finally:
        c.l = saved


def each(c: Ctx, seq: Any) -> Any:
    """The list a comprehension walks, its length counted as work (a list within the work
    left, the common case, with the fewest steps: every comprehension of a rule calls this)."""
    if type(seq) is list:
        w = c.w
        left = w[0] - len(seq)
        if left > 0:
            w[0] = left
            return seq
    try:
        spend(c, len(seq))
    except TypeError:
        raise RuntimeProblem(f"'for' in [...] needs a list, got {seq!r}") from None
    return seq


def op(c: Ctx, sign: str, x: Any, y: Any) -> Any:
    """x + y, x - y, x * y, x // y, x % y: numbers stay within ±MAX_INT, lists and texts
    within MAX_SEQUENCE items, and what they build counts as work."""
    if sign == "*" and (type(x) in (str, list) or type(y) in (str, list)):
        n = y if type(y) is int else x
        if type(n) is int and n * len(x if type(y) is int else y) > MAX_SEQUENCE:
            raise RuntimeProblem(f"a list or text of more than {MAX_SEQUENCE} items")
    try:
        r = _OPS[sign](x, y)
    except TypeError:
        raise RuntimeProblem(f"cannot compute {x!r} {sign} {y!r}") from None
    except ZeroDivisionError:
        raise RuntimeProblem(f"division by zero in {x!r} {sign} {y!r}") from None
    t = type(r)
    if t is int:
        if -MAX_INT <= r <= MAX_INT:
            return r
        raise RuntimeProblem(f"{x!r} {sign} {y!r} is beyond ±{MAX_INT}")
    if t is str or t is list:
        if len(r) > MAX_SEQUENCE:
            raise RuntimeProblem(f"a list or text of more than {MAX_SEQUENCE} items")
        spend(c, len(r))
    return r


def add(c: Ctx, x: Any, y: Any) -> Any:
    """x + y (the commonest operator: numbers first, without the general checks)."""
    t = type(x)
    if t is int and type(y) is int:
        r = x + y
        if -MAX_INT <= r <= MAX_INT:
            return r
    elif (t is str or t is list) and type(y) is t:
        r = x + y                   # texts and lists: what op() does for them, in one call
        n = len(r)
        w = c.w
        if n <= MAX_SEQUENCE and w[0] > n:
            w[0] -= n
            return r
    return op(c, "+", x, y)


def sub(c: Ctx, x: Any, y: Any) -> Any:
    if type(x) is int and type(y) is int:
        r = x - y
        if -MAX_INT <= r <= MAX_INT:
            return r
    return op(c, "-", x, y)


def compare(x: Any, sign: str, y: Any) -> bool:
    """x < y and the like, with a clear problem for values that do not compare."""
    try:
        return {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[sign](x, y)
    except TypeError:
        raise RuntimeProblem(f"cannot compare {x!r} {sign} {y!r}") from None


def within(x: Any, y: Any) -> bool:
    """x in y."""
    try:
        return x in y
    except TypeError:
        raise RuntimeProblem(f"cannot look for {x!r} in {y!r}") from None


def by_players(c: Ctx, table: dict, name: str) -> Any:
    try:
        return table[c.s["n"]]
    except KeyError:
        raise RuntimeProblem(f"parameter {name} has no value for {c.s['n']} players") from None


def budget(c: Ctx) -> None:
    """Raises the problem of a run that took more steps than the game allows between two
    decisions (engine/vm.py counts them the same way)."""
    raise RuntimeProblem(f"step budget of {c.g.step_budget} exceeded (an endless loop?)")


def one_option(options: Any, player: Any, always: Any) -> Any:
    """A choose() that asks no one: returns its one option, taken without asking, or raises
    what is wrong with it (a decision that asks is set up by the VM or a runner, which
    check first that it can ask: a list of options, more than one or `always`, a seat)."""
    if type(options) is not list:
        raise RuntimeProblem(f"choose() needs a list of options, got {options!r}")
    if not options:
        raise RuntimeProblem("choose() has no options")
    if len(options) == 1 and not always:
        return options[0]
    raise RuntimeProblem(f"choose() needs player=<seat>, got {player!r}")


def missing(name: str) -> RuntimeProblem:
    return RuntimeProblem(f"'{name}' has no value here")


NAMESPACE = {"_attr": attr, "_pattr": printed_attr, "_item": item, "_call": call, "_each": each, "_op": op,
             "_add": add, "_sub": sub, "_cmp": compare, "_in": within, "_text": text_of, "_byp": by_players,
             "_missing": missing, "_RP": RuntimeProblem, "_NONE1": (None,), "_NOATTR": MappingProxyType({}), "_FAIL": {}, "_frozen": frozen, "_save_check": save_check,
             "_set_attr": set_attr, "_spend": spend, "_budget": budget, "_pcall": direct_call,
             "_one": one_option,
             "_KEPT": (list, dict)}       # the values a game variable is checked for (blocks.py)
