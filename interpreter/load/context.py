"""What every section compiler shares: the spec, the problems found, the effect compiler,
and the programs compiled so far, with helpers that map effect-text positions back to
the YAML file where the text was written."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..diagnostics import Diagnostic
from ..lang.compiler import Compiler, Program
from .spec import Spec, Src


@dataclass
class Compiling:
    """One compile of one spec: section compilers add programs and problems here."""

    spec: Spec
    diags: list[Diagnostic]
    comp: Compiler | None = None
    programs: dict[str, Program] = field(default_factory=dict)
    trace: bool = False          # every step a program of its own (coverage notes them)
    lean: bool = False           # only checked, never played (no fast forms, no runners)
    bearers: list | None = None  # the objects that carry abilities (abilities.bearers), found once

    def report(self, src: Src) -> None:
        """Moves the effect compiler's errors to diagnostics at their place in the file."""
        for e in self.comp.errors:
            pos = src.loaded.locate(src.path, e.line, e.column)
            self.diags.append(Diagnostic(src.loaded.file, pos.line, pos.column, e.message))
        self.comp.errors.clear()

    def program(self, key: str, text: str, src: Src, params: tuple = (), predefined: tuple = ()) -> bool:
        """Compiles one effect program under `key`; returns whether it compiled."""
        prog = self.comp.program(key, text, params, predefined)
        if prog is None:
            self.report(src)
            return False
        prog.file = src.loaded.file
        prog.where = [(p.line, p.column) for p in (src.loaded.locate(src.path, l, c) for l, c in prog.where)]
        self.programs[key] = prog
        return True

    def expression(self, text: str | int | bool, src: Src, scope: tuple = ()) -> Callable | None:
        """Compiles one pure expression (a condition or formula; YAML may give a plain number)."""
        if type(text) is bool:
            text = "true" if text else "false"
        fn = self.comp.expression(str(text), scope)
        self.report(src)
        return fn

    def generated(self, key: str, code: list[tuple], src: Src, params: tuple = ()) -> None:
        """Adds a program the loader wrote itself (wrappers, the turn structure)."""
        pos = src.loaded.pos(src.path)
        self.programs[key] = Program(key, params, code, [(pos.line, pos.column)] * len(code), src.loaded.file)

    def internal(self, key: str, text: str, src: Src, params: tuple = ()) -> None:
        """Compiles an engine-written effect program (it may use the internal verbs)."""
        env, self.comp.env = self.comp.env, _internal_env(self.comp.env)
        try:
            ok = self.program(key, text, src, params)
        finally:
            self.comp.env = env
        assert ok, f"engine program {key} does not compile"


def _internal_env(env: Any) -> Any:
    from dataclasses import replace

    from ..lang.registry import INTERNAL, REGISTRY
    return replace(env, registry={**REGISTRY, **INTERNAL}, internal=True)
