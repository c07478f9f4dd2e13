"""Checks terminal.yaml's hints against the game they describe: every function, zone,
space and variable they name must exist, so a typo is a problem at load, not a blank
screen in play."""
from __future__ import annotations

from typing import Any

from ..diagnostics import suggest
from .context import Compiling


def check_hints(cx: Compiling, functions: dict[str, Any], props: dict[str, dict] | None = None,
                hints_src: tuple[dict, Any] | None = None) -> None:
    """Adds a diagnostic for each name in the hints (the game's, or `hints_src`: an
    expansion folder's, at its own lines) that the game does not define."""
    spec = cx.spec
    if hints_src is None and spec.terminal is None:
        return
    hints, src = hints_src or spec.terminal
    params = {k: tuple(v[0].get("params", ())) for k, v in spec.sections["functions"].items()}

    def need_function(name: str, arity: int, where: tuple) -> None:
        if name not in functions:
            cx.diags.append(src.diag(f"no function '{name}'" + suggest(name, functions), where))
        elif name in params and len(params[name]) != arity:
            cx.diags.append(src.diag(f"function '{name}' takes {len(params[name])} parameter(s); "
                                     f"the terminal calls it with {arity}", where))

    for i, w in enumerate(hints.get("why_not", ())):
        need_function(w["function"], 2, ("why_not", i, "function"))
    if "option_space" in hints:
        need_function(hints["option_space"], 1, ("option_space",))
    for var, fname in hints.get("key_names", {}).items():
        need_function(fname, 1, ("key_names", var))
    zones = spec.sections["zones"]
    for z, zh in hints.get("zones", {}).items():
        if z not in zones:
            cx.diags.append(src.diag(f"no zone '{z}'" + suggest(z, zones), ("zones", z), at_key=True))
        if "show" in zh:
            need_function(zh["show"], 1, ("zones", z, "show"))
    for t, table in enumerate(hints.get("tables", ())):
        for r, z in enumerate(table["rows"]):
            if z not in zones:
                cx.diags.append(src.diag(f"no zone '{z}'" + suggest(z, zones), ("tables", t, "rows", r)))
    spaces = spec.sections["spaces"]
    for s in hints.get("board", {}).get("labels", {}):
        if s not in spaces:
            cx.diags.append(src.diag(f"no space '{s}'" + suggest(s, spaces), ("board", "labels", s), at_key=True))
    variables = list(spec.game_vars) + list(spec.player_vars)
    for key in ("hide", "names"):
        for i, name in enumerate(hints.get(key, ())):
            if name not in variables:
                where = (key, i) if key == "hide" else (key, name)
                cx.diags.append(src.diag(f"terminal {key} names '{name}', which is not a variable"
                                         + suggest(name, variables), where, at_key=key == "names"))
    _check_picture(cx, hints.get("picture", {}), src, props or {})


def _check_picture(cx: Compiling, picture: dict, src: Any, props: dict[str, dict]) -> None:
    """The picture's fill_by and icon_by must name a property some space has (when the
    game has spaces), and its pieces, glyphs and grids an object id, def or kind, so a
    typo is a problem at load, not a grey map."""
    known = set(props) | {str(p.get(k)) for p in props.values() for k in ("def", "kind") if p.get(k)}
    for section in ("pieces", "glyphs", "grids"):
        for key in picture.get(section, {}):
            if props and key not in known:
                cx.diags.append(src.diag(f"picture {section} names '{key}', which is no object id, def or kind"
                                         + suggest(key, sorted(known)), ("picture", section, key), at_key=True))
    spaces = cx.spec.sections["spaces"]
    if not spaces:
        return
    props = {k for item, _ in spaces.values() for k in item.get("props", {})} | {"kind"}
    for key in ("fill_by", "icon_by"):
        name = picture.get(key)
        if name is not None and name not in props:
            cx.diags.append(src.diag(f"picture {key} names '{name}', which no space has" + suggest(name, props),
                                     ("picture", key)))
