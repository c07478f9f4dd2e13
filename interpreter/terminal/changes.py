"""What changed for one seat between two of its screens, as a line to read: pieces moved
on the board, cards come into or gone from the places it sees, numbers (scores) changed.
Built from the seat's two observations only, so it tells nothing the seat may not know."""
from __future__ import annotations

from typing import Any

from . import names


def where(obs: dict) -> dict[str, str]:
    """Object -> the place the seat sees it in."""
    return {o: place for place, objs in obs["places"].items() if isinstance(objs, list) for o in objs}


def changes(g: Any, d: dict, before: dict, after: dict, v: Any) -> tuple[list[str], set[str]]:
    """The changes as short texts, and the objects that moved on the board (to mark)."""
    was, now = where(before), where(after)
    out: list[str] = []
    moved: set[str] = set()
    label = g.terminal.get("board", {}).get("labels", {})

    def place(p: str) -> str:
        if p in g.adj or p in d.get("pos", {}):
            return label.get(p, str(g.props.get(p, {}).get("name", p)))
        base, _, owner = p.partition("/")
        zname = g.terminal.get("zones", {}).get(base, {}).get("name", base.replace("-", " "))
        return f"{g.player_name(int(owner))}'s {zname}" if owner else zname

    for obj, p in now.items():
        q = was.get(obj)
        if q == p:
            continue
        n = names.name(g, d, obj)
        if q is None:
            out.append(f"+{n} ({place(p)})")
        else:
            out.append(f"{n} {place(q)}→{place(p)}")
            if p in g.adj or p in d.get("pos", {}):
                moved.add(obj)
    for obj, q in was.items():
        if obj not in now:
            out.append(f"-{names.name(g, d, obj)} (was {place(q)})")
    for p, (pv0, pv1) in enumerate(zip(before["player_vars"], after["player_vars"])):
        for k, x in pv1.items():
            if not v.hidden(k) and pv0.get(k) != x and isinstance(x, (int, float)) and not isinstance(x, bool):
                out.append(f"{g.player_name(p)} {v.var_name(k)} {pv0.get(k)}→{x}")
    for k, x in after["game_vars"].items():
        if not v.hidden(k) and before["game_vars"].get(k) != x and isinstance(x, (int, float)) and not isinstance(x, bool):
            out.append(f"{v.var_name(k)} {before['game_vars'].get(k)}→{x}")
    return out, moved
