"""Compiles a table of data functions as a build would, with fast forms or only checked (a
lean build's), and plays whole games under a work budget, for the tests that compare the
two (test_plain_fast.py, test_rules_fast.py)."""
from __future__ import annotations

import random

from interpreter.lang.compiler import Compiler, Env
from interpreter.lang.fast import mark_written, seal
from interpreter.lang.parser import parse
from interpreter.verbs import load_all


def compile_functions(functions: dict, fast: bool, written: tuple[str, ...] = (), **env: object) -> dict:
    """Returns the compiled functions of `functions` (name -> (params, text)) in an Env made
    of `env`; `written`: attributes some rule assigns, so an object's own value may hide the
    printed one."""
    load_all()
    e = Env(functions={k: p for k, (p, _t) in functions.items()}, positional=set(functions), lean=not fast, **env)
    for name in written:
        mark_written(e, name)
    comp = Compiler(e)
    for name, (params, text) in functions.items():
        e.fn_trees[name] = (params, parse(text, expression=True))
    for name, (params, text) in functions.items():
        assert comp.positional(name, text, params) is not None, comp.errors
    seal(e)
    return e.compiled


def play(game, seed: int, budget: int | None, players: int = 2) -> tuple:
    """A random game under a work budget (None: the game's own): what it leaves behind,
    from its decisions to its places, to compare a fast build's with a checked one's."""
    if budget is not None:
        game.work_budget = budget
    s = game.new_initial_state(players, seed)
    rnd = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rnd.randrange(len(s.legal_actions())))
    d = s.d
    return d["actions"], d["result"], d["log"], d["gvars"], d["places"], d["pvars"]
