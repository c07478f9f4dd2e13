"""What changed for one seat between two moments of a game: pieces and cards that moved,
came into sight or went out of it, hidden piles that grew or shrank, variables (scores)
and attributes that changed. Built only from the two observations of that seat (engine
view.observe), so a change the seat could not see is never told: a card going from one
hidden pile to another is two counts, never a name."""
from __future__ import annotations

from typing import Any

from ..words import plural

from ..engine.view import observe
from ..terminal.parts import View, _value, place_title

MOST = 40       # changes listed; the rest counted


def place_name(v: View, place: str) -> str:
    """A place as the page names it: the zone's name and its owner ("hand of Red")."""
    if place in v.g.spaces:
        return str(v.g.props.get(place, {}).get("name", place))
    return place_title(v, place).plain


def object_name(g: Any, obj: str) -> str:
    return str(g.props.get(obj, {}).get("name", obj))


def where(obs: dict) -> dict[str, str]:
    """Object -> the visible place it is in."""
    return {o: place for place, objs in obs["places"].items() if isinstance(objs, list) for o in objs}


def changes(g: Any, before: dict, after: dict, seat: int | None) -> list[dict]:
    """Returns the changes from state `before` to state `after` as `seat` sees them: each
    {text, objects, spaces} (what to mark on the picture)."""
    ob, oa = observe(g, before, seat), observe(g, after, seat)
    v = View(g, after, seat, oa, {}, full=True)
    out = _moves(g, v, ob, oa) + _counts(v, ob, oa) + _variables(g, v, ob, oa) + _attributes(g, v, ob, oa)
    if len(out) > MOST:
        out = out[:MOST] + [{"text": f"and {len(out) - MOST} more changes", "objects": [], "spaces": []}]
    return out


def _change(text: str, objects: list[str] = (), spaces: list[str] = ()) -> dict:
    return {"text": text, "objects": list(objects), "spaces": list(spaces)}


def label(g: Any, obj: str) -> str:
    """What a change calls an object: like tokens (a set name, no printed text) by their
    set's name, so a run of them reads as one change; others by their own name."""
    props = g.props.get(obj, {})
    return str(props["set_name"]) if props.get("set_name") and not props.get("text") else object_name(g, obj)


def _moves(g: Any, v: View, ob: dict, oa: dict) -> list[dict]:
    wb, wa = where(ob), where(oa)
    runs: dict[tuple[str, str | None, str | None], list[str]] = {}
    for o, there in wa.items():
        here = wb.get(o)
        if here != there:
            runs.setdefault((label(g, o), here, there), []).append(o)
    kinds = {obj: kind for obj, kind, _start in g.components}
    for o, here in wb.items():
        if o not in wa:
            # out of the seat's sight now: told by kind and number only, never by name, so
            # no page names an object that lies where the seat cannot see
            runs.setdefault((kinds.get(o, "object"), here, None), []).append(o)
    out = []
    for (name, here, there), objs in runs.items():
        what = name + (f" ×{len(objs)}" if len(objs) > 1 else "")
        spaces = [s for s in (here, there) if s in g.spaces]
        if here is None:
            out.append(_change(f"{what} came to {place_name(v, there)}", objs, spaces))
        elif there is None:
            n = len(objs)
            out.append(_change(f"{plural(n, name)} left {place_name(v, here)} (out of sight)", [], spaces))
        else:
            out.append(_change(f"{what}: {place_name(v, here)} → {place_name(v, there)}", objs, spaces))
    return out


def _counts(v: View, ob: dict, oa: dict) -> list[dict]:
    out = []
    for place, now in oa["places"].items():
        then = ob["places"].get(place)
        if isinstance(now, dict) and isinstance(then, dict) and now["count"] != then["count"]:
            out.append(_change(f"{place_name(v, place)}: {then['count']} → {now['count']} hidden"))
    return out


def _variables(g: Any, v: View, ob: dict, oa: dict) -> list[dict]:
    out = []
    for k, now in oa["game_vars"].items():
        then = ob["game_vars"].get(k)
        if now != then and not v.hidden(k):
            out.append(_change(f"{v.var_name(k)}: {_value(v, then)} → {_value(v, now)}"))
    for p, pv in enumerate(oa["player_vars"]):
        for k, now in pv.items():
            then = ob["player_vars"][p].get(k)
            if now != then and not v.hidden(k):
                out.append(_change(f"{g.player_name(p)} {v.var_name(k)}: {_value(v, then)} → {_value(v, now)}"))
    return out


def _attributes(g: Any, v: View, ob: dict, oa: dict) -> list[dict]:
    out = []
    seen = where(oa)
    for o, attrs in oa["attrs"].items():
        if o not in ob["attrs"]:
            continue          # come into sight: told by _moves, its numbers are not a change
        then = ob["attrs"][o]
        for k, now in attrs.items():
            if now != then.get(k) and k in ("owner",) + tuple(x for x in attrs if type(attrs[x]) in (int, str)):
                spaces = [seen[o]] if seen.get(o) in g.spaces else []
                out.append(_change(f"{object_name(g, o)} {k.replace('_', ' ')}: {_value(v, then.get(k))} → "
                                   f"{_value(v, now)}", [o], spaces))
    return out
