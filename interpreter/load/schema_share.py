"""A schema with its repeated parts written once, for the fast check (files.fast_check).

The schemas in schemas/ have their shared definitions written in wherever they are used
(tools/schemas.py), so that jsonschema resolves no reference. fastjsonschema turns a schema
into Python code, one copy per place a part is written: the variant schema came to 1.9 MB
of code, and generating and compiling the nine kinds cost more than a whole validate
of a game. Written once under `$defs` and referred to, each part becomes one function.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

MIN_SIZE = 50       # characters of JSON: a part this small costs less written out than called

_ONE = ("items", "additionalProperties", "additionalItems", "propertyNames", "not", "if", "then", "else",
        "contains", "unevaluatedItems", "unevaluatedProperties")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def shared(schema: dict) -> dict:
    """Returns the schema with every part that occurs twice or more (and is not tiny)
    written once under `$defs` and referred to by `$ref` where it stood. Only whole
    subschemas are shared (never a `properties` map or a value of `enum`), so the schema
    accepts exactly what it accepted."""
    counts = Counter(_key(part) for part in _parts(schema))
    names: dict[str, str] = {}
    defs: dict[str, Any] = {}

    def rewrite(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        key = _key(node)
        if counts[key] < 2 or len(key) < MIN_SIZE:
            return _inside(node, rewrite)
        name = names.get(key)
        if name is None:
            name = names[key] = f"_shared{len(names)}"
            defs[name] = _inside(node, rewrite)
        return {"$ref": f"#/$defs/{name}"}

    out = _inside(schema, rewrite)
    if defs:
        out["$defs"] = {**out.get("$defs", {}), **defs}
    return out


def _key(node: Any) -> str:
    return json.dumps(node, sort_keys=True, separators=(",", ":"))


def _parts(node: dict) -> list[dict]:
    """Every subschema below the root, at any depth."""
    found: list[dict] = []

    def visit(x: Any) -> Any:
        if isinstance(x, dict):
            found.append(x)
            _inside(x, visit)
        return x
    _inside(node, visit)
    return found


def _inside(node: dict, rewrite: Any) -> dict:
    """A copy of a schema with each of its subschemas passed through `rewrite`."""
    out = {}
    for k, v in node.items():
        if k in _ONE and isinstance(v, dict):
            out[k] = rewrite(v)
        elif (k in _MANY or k == "items") and isinstance(v, list):
            out[k] = [rewrite(x) for x in v]
        elif k in _MAP and isinstance(v, dict):
            out[k] = {name: rewrite(x) for name, x in v.items()}
        else:
            out[k] = v
    return out
