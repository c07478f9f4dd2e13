"""Calling a game function that a piece of data names.

Some rules are chosen by the data they apply to: a card's task names the check it needs
("all the spaces of this line written", "3 adjacent patterns"), and the check is written
once, as a function of game.yaml, for every card that names it. A new card with a new
kind of task then adds a function and names it; no rule that checks tasks is edited.
"""
from __future__ import annotations

from typing import Any

from ..lang.runtime import Ctx, RuntimeProblem
from ..lang.registry import P, register


@register("call_function", P("name", "str"), P("args", "list", []), pure=True)
def call_function(c: Ctx, name: str, args: list) -> Any:
    """Returns the value of the game function (or quantity) called `name`, given `args` in
    the order of its parameters: for data that names the rule it needs (e.g. a card's task
    naming the function that checks it, `call_function(t["check"], [c, w, t])`). An unknown
    name or a wrong number of arguments is a problem of the running rule."""
    fn = c.g.functions.get(name) if type(name) is str else None
    params = c.g.env.functions.get(name) if fn is not None and c.g.env is not None else None
    if params is None:
        raise RuntimeProblem(f"call_function(): no function named {name!r}")
    if type(args) is not list or len(args) != len(params):
        raise RuntimeProblem(f"call_function(): {name} takes {len(params)} argument(s) "
                             f"({', '.join(params)}), got {args!r}")
    direct = c.g.env.compiled.get(name)
    if direct is not None:
        return direct(c, *args)          # a data function: its arguments as Python's own
    return fn(Ctx(c.s, c.g, dict(zip(params, args)), c.w))
