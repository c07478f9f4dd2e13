"""The verbs and queries the effect language calls, a module per family; each registers
its own in the language's table (lang/registry.py) when imported. Loading them all is done
from here, above the language, so the language never imports the verbs it is given."""
from __future__ import annotations

import importlib
import pkgutil

from ..lang.registry import REGISTRY, Verb


def load_all() -> dict[str, Verb]:
    """Returns the registry after importing every module in interpreter/verbs/ (each
    registers its verbs on import, so a new module needs no other change)."""
    for mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{mod}")
    return REGISTRY
