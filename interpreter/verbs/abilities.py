"""Verbs about abilities and quantities: temporary modifiers ("this turn, +2 strength"),
and the internal queries the engine's window program uses to offer activated abilities."""
from __future__ import annotations

from typing import Any

from ..engine import abilities as ab
from ..lang.values import MAX_MODIFIERS
from ..lang.runtime import Ctx, RuntimeProblem, save_check
from ..lang.registry import P, register

_UNTIL = ("turn", "round", "game")


@register("modify", P("quantity", "str"), P("add", "any", None), P("times", "any", None),
          P("set", "any", None), P("until", "str", "turn"), P("args", "list", []))
def modify(c: Ctx, quantity: str, add: Any, times: Any, set: Any, until: str, args: list) -> None:
    """Changes a quantity until the end of this turn, round or game (e.g. `modify("strength",
    add=2, args=[p])`); `args` are the quantity's leading arguments it applies to."""
    if quantity not in c.g.quantities:
        raise RuntimeProblem(f"modify(): no quantity named {quantity!r}")
    if until not in _UNTIL:
        raise RuntimeProblem(f"modify(): until must be one of {', '.join(_UNTIL)}, got {until!r}")
    if type(args) is not list:
        raise RuntimeProblem(f"modify(): args must be a list, got {args!r}")
    mod: dict[str, Any] = {"q": quantity, "until": until, "args": list(args)}
    for op, v in (("add", add), ("times", times), ("set", set)):
        if v is not None:
            mod[op] = v
    if len(mod) == 3:
        raise RuntimeProblem("modify() needs add=, times= or set=")
    mods = c.s.setdefault("mods", [])
    if len(mods) >= MAX_MODIFIERS:
        raise RuntimeProblem(f"modify(): {MAX_MODIFIERS} modifiers are in force already (the most a game keeps)")
    save_check(c, mod)             # a modifier is kept in the state: measured as a saved state reads it
    mods.append(mod)


@register("usable_abilities", P("window", "str"), P("player", "player"), pure=True)
def usable_abilities(c: Ctx, window: str, player: int) -> list:
    """Returns the activated abilities `player` may use now in a window, as options a rule
    may offer in its own decision (label them with ability_label; use one with use_ability)."""
    if window not in c.g.abilities.activated and window not in c.g.window_names:
        raise RuntimeProblem(f"usable_abilities(): no window named {window!r}")
    return ab.usable(c.g, c.s, window, player)


@register("ability_label", P("option", "list"), pure=True)
def ability_label(c: Ctx, option: list) -> str:
    """Returns how an option of usable_abilities() reads: the ability's name and text."""
    _option(c, option)
    return ab.label(c.g, option[0], option[1])


def _option(c: Ctx, option: Any) -> None:
    if type(option) is not list or len(option) != 2 or option[0] not in c.g.abilities.by_key:
        raise RuntimeProblem(f"not an ability option of usable_abilities(): {option!r}")


@register("_usable", P("window", "str"), P("player", "player"), pure=True, internal=True)
def usable(c: Ctx, window: str, player: int) -> list:
    """The activated abilities `player` may use now in a window, as [key, object]."""
    return ab.usable(c.g, c.s, window, player)


@register("_ability_labels", P("options", "list"), pure=True, internal=True)
def ability_labels(c: Ctx, options: list) -> list:
    return [ab.label(c.g, key, obj) for key, obj in options]


@register("_window_prompt", P("window", "str"), pure=True, internal=True)
def window_prompt(c: Ctx, window: str) -> str:
    return f"{c.g.window_names.get(window, window)}: use an ability?"


@register("_note_use", P("option", "list"), internal=True)
def note_use(c: Ctx, option: list) -> None:
    _option(c, option)
    ab.note_use(c.g, c.s, option[0], option[1])


@register("_ability_program", P("option", "list"), pure=True, internal=True)
def ability_program(c: Ctx, option: list) -> str:
    return c.g.abilities.by_key[option[0]].program


@register("_ability_locals", P("option", "list"), P("player", "player"), pure=True, internal=True)
def ability_locals(c: Ctx, option: list, player: int) -> dict:
    return {"me": player, "this": option[1], "p": player}


@register("_locals", P("names", "list"), pure=True, internal=True)
def locals_(c: Ctx, names: list) -> dict:
    """The named locals of the running program, as a record (to pass them on)."""
    return {k: c.l[k] for k in names if k in c.l}
