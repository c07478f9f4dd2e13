"""The table of verbs and queries the effect language may call.

Each entry is a small Python function with a typed signature, registered by name; the
compiler checks every call against it at load, so a misspelt verb or argument is an
error with a suggestion, never a silent no-op. New verbs go in a module under
`interpreter/verbs/` and never touch the grammar.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

# Argument kinds the compiler can check on literal arguments.
#   place: a zone or board space id; zone: a zone id; obj: an object id; die: a die id;
#   program-level kinds (int, str, bool, list, any) are checked only on literals.
KINDS = {"any", "int", "str", "bool", "list", "place", "zone", "obj", "die", "space", "player"}

_NO_DEFAULT = object()


@dataclass(frozen=True)
class Param:
    name: str
    kind: str = "any"
    default: Any = _NO_DEFAULT

    @property
    def required(self) -> bool:
        return self.default is _NO_DEFAULT


@dataclass(frozen=True)
class Verb:
    """One callable name: `impl(ctx, *args)` with positional args in `params` order."""

    name: str
    params: tuple[Param, ...]
    impl: Callable[..., Any]
    pure: bool          # a query (no state change): allowed in conditions and scoring
    doc: str


REGISTRY: dict[str, Verb] = {}
INTERNAL: dict[str, Verb] = {}   # verbs only the engine's own programs may call (names start with _)


def register(name: str, *params: Param, pure: bool = False, internal: bool = False) -> Callable:
    """Returns a decorator that adds `impl` to the registry under `name`."""
    table = INTERNAL if internal else REGISTRY

    def wrap(impl: Callable) -> Callable:
        old = table.get(name)
        if old is not None and (old.impl.__module__, old.impl.__qualname__) != (impl.__module__, impl.__qualname__):
            raise ValueError(f"verb {name!r} is registered by both {old.impl.__module__} and {impl.__module__}")
        for p in params:
            assert p.kind in KINDS, p.kind
        table[name] = Verb(name, tuple(params), impl, pure, (impl.__doc__ or "").strip())
        return impl
    return wrap


def P(name: str, kind: str = "any", default: Any = _NO_DEFAULT) -> Param:
    """Returns a parameter description (short name keeps verb tables readable)."""
    return Param(name, kind, default)
