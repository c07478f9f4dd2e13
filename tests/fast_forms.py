"""Compiles a table of data functions as a build would, with fast forms or only checked (a
lean build's), for the tests that compare the two (test_plain_fast.py, test_rules_fast.py)."""
from __future__ import annotations

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
