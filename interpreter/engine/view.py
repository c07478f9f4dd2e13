"""What one player may see, and a readable rendering of it for the terminal.

Hidden information is a view over the state, from the very first state on: hidden
places show only their size, owner-only places only to their owner, private player
variables and private log lines only to that player, and a pending decision's options
only to the player deciding.
"""
from __future__ import annotations

import re
from typing import Any

from ..lang.runtime import Ctx, text_of


def visible(g: Any, place: str, player: int | None) -> bool:
    """Returns whether `player` (None: a spectator) may see what is in `place`."""
    info = g.zone_info(place)
    if info.visibility == "public":
        return True
    if info.visibility == "owner":
        return player is not None and info.owner == player
    return False


def observe(g: Any, d: dict, player: int | None) -> dict:
    """Returns the observation of one seat (None: what every player can see)."""
    places: dict[str, Any] = {}
    seen: set[str] = set()
    for place, objs in d["places"].items():
        if visible(g, place, player):
            places[place] = list(objs)
            seen.update(objs)
        else:
            places[place] = {"count": len(objs)}
    pvars = []
    for p, pv in enumerate(d["pvars"]):
        pvars.append({k: v for k, v in pv.items() if p == player or k not in g.private_vars})
    attrs = {k: dict(v) for k, v in d["attrs"].items() if k in seen or k not in d["loc"]}
    pending = d["pending"]
    decision = None
    if pending is not None:
        # Others see who decides and in which part of the turn, never the prompt or options.
        decision = {"player": pending["player"], "step": deciding_in(d)}
        if pending["player"] == player:
            from .vm import decision_text
            decision["prompt"], labels = decision_text(g, d)
            decision["options"] = list(labels)
    log = log_lines(g, d, player)
    return {"players": d["n"], "places": places, "player_vars": pvars, "game_vars": dict(d["gvars"]),
            "attrs": attrs, "decision": decision, "terminal": d["terminal"], "result": d["result"],
            "log": log}


def log_lines(g: Any, d: dict, viewer: int | None, start: int = 0, everything: bool = False) -> list[str]:
    """The log from line `start` as `viewer` reads it: the lines it may see (all of them when
    `everything`: an all-bot game, nobody's secrets to keep), a line written to one seat in
    the second person reading in the third person for anyone but that seat."""
    return [as_read(g, text, to, viewer) for text, to in d["log"][start:]
            if everything or to is None or to == viewer]


def as_read(g: Any, text: str, to: int | None, viewer: int | None) -> str:
    """A log line as `viewer` reads it. The rules write a line meant for one seat (`log(...,
    to=p)`) to that seat ("you take a fire card"); anyone else reads it about that seat
    ("Blue takes a fire card"), so an all-bot log never says "you" of a bot."""
    if to is None or to == viewer:
        return text
    return third_person(text, g.player_name(to))


MODALS = {"may", "can", "must", "will", "would", "could", "should", "might", "shall", "cannot"}
IRREGULAR = {"have": "has", "are": "is", "were": "was", "do": "does", "go": "goes"}
OBJECT_AFTER = {"to", "for", "gives", "give", "with", "from", "of", "by", "tells", "shows", "lets", "asks", "on"}
_YOU = re.compile(r"\b(you|your|yours|yourself)\b(\s+(?:(?:also|then|now|still|only|just|first|again|both|all)\s+)?"
                  r"([A-Za-z']+))?", re.IGNORECASE)


def third_person(text: str, name: str) -> str:
    """Rewrites "you", "your" as `name`: a subject's verb takes its third-person form ("you
    take" -> "Blue takes", "you have" -> "Blue has", "you may" -> "Blue may"); "your X" ->
    "Blue's X"; "gives you" -> "gives Blue"."""
    def one(m: re.Match) -> str:
        word, rest, verb = m.group(1).lower(), m.group(2) or "", m.group(3)
        if word in ("your", "yours"):
            return f"{name}'s{rest}"
        if word == "yourself":
            return f"{name}{rest}"
        before = text[:m.start()].split()
        if before and before[-1].lower().strip("(,") in OBJECT_AFTER or not verb:
            return f"{name}{rest}"
        return f"{name}{rest[:len(rest) - len(verb)]}{_verb_s(verb)}"
    return _YOU.sub(one, text)


def _verb_s(verb: str) -> str:
    """A verb's third-person singular ("take" -> "takes", "pass" -> "passes", "carry" ->
    "carries"); modals and words already in that form stay as they are."""
    low = verb.lower()
    if low in MODALS or low.endswith("ed") or low in IRREGULAR.values():
        return verb
    if low in IRREGULAR:
        return IRREGULAR[low]
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def deciding_in(d: dict) -> str:
    """Returns the part of the turn structure (or the rule) a pending decision belongs to."""
    for fr in reversed(d["frames"]):
        key = fr["p"]
        if key.startswith("step:"):
            return key.split(":")[1]
        if "#step" in fr["l"]:
            return fr["l"]["#step"]
        if key.startswith("part:"):
            return key.split(":")[1]
    return d["frames"][-1]["p"].split(":")[-1] if d["frames"] else ""


def render(g: Any, d: dict, player: int | None, *, skip_empty: bool = True) -> str:
    """Returns a readable text view of the game for one seat: variables (bookkeeping ones
    left out), the board (drawn when it is a hex map), then the zones, repeated objects
    grouped, as each zone's `display` asks."""
    c = Ctx(d, g, {})
    obs = observe(g, d, player)
    lines = [f"== {g.name} ==  turns taken: {d['turns']}"]
    gv = ", ".join(f"{k}: {text_of(c, v)}" for k, v in obs["game_vars"].items()
                   if k not in g.internal_vars)
    if gv:
        lines.append(f"game  {gv}")
    for p in range(d["n"]):
        pv = "; ".join(f"{k}: {text_of(c, v)}" for k, v in obs["player_vars"][p].items()
                       if k not in g.internal_vars)
        lines.append(f"{g.player_name(p)}{' (you)' if p == player else ''}  {pv}")
    if "pos" in d:
        lines.extend(hex_map(c))
    else:
        board = [s for s in g.spaces if d["places"][s]]
        if board:
            lines.append("board:")
            for s in board:
                lines.append(f"  {text_of(c, s)}: " + ", ".join(_obj(c, o) for o in d["places"][s]))
    lines.append("zones:")
    for place, content in obs["places"].items():
        if place in g.adj:
            continue
        zone = g.zones.get(place.partition("/")[0], {})
        display = zone.get("display", "list")
        if display == "none":
            continue
        if isinstance(content, dict) or display == "count":
            n = content["count"] if isinstance(content, dict) else len(content)
            if n or not skip_empty:
                lines.append(f"  {_place_name(g, place)}: {n}" + (" hidden" if isinstance(content, dict) else ""))
        elif content and zone.get("show"):
            lines.append(f"  {_place_name(g, place)}:")
            fn, (param,) = g.functions[zone["show"]], g.env.functions[zone["show"]]
            for obj in content:
                try:
                    shown = str(fn(Ctx(d, g, {param: obj})))
                except Exception as err:  # a broken show function must not break the view
                    shown = f"{text_of(c, obj)} (show failed: {err})"
                lines.extend("    " + line for line in shown.splitlines())
        elif content or not skip_empty:
            lines.append(f"  {_place_name(g, place)}: " + _grouped(c, content))
    return "\n".join(lines)


def hex_map(c: Ctx) -> list[str]:
    """Returns the assembled hex map drawn as text (the terminal's hex layout, without
    colour): one line per row r, a cell every two characters, each row shifted half a
    cell; a cell shows the glyph of the topmost object on it that has one, else its own."""
    pos = c.s["pos"]
    if not pos:
        return []
    cells, width, height = hex_cells(pos)
    rows = [[" "] * width for _ in range(height)]
    obs = {"places": c.s["places"], "attrs": c.s["attrs"]}
    for (x, r), space in cells.items():
        glyph = cell_glyph(c.g, obs, space)[0]
        if glyph:
            rows[r][x] = glyph
    lines = ["  " + "".join(row).rstrip() for row in rows]
    while lines and not lines[-1].strip():
        lines.pop()
    return ["map:" + (f"  ({c.g.legend})" if c.g.legend else "")] + lines


def hex_cells(pos: dict) -> tuple[dict[tuple[int, int], str], int, int]:
    """Returns where each cell of the assembled hex map sits on a grid of characters, as
    {(column, row): space}, with the grid's width and height: a row per r, a cell every two
    columns, each row shifted half a cell. Here, not in the terminal, because this text
    view draws the map too; the terminal's coloured map (terminal/board.py) builds on it."""
    cells = {}
    for space, (q, r) in pos.items():
        cells[(2 * q + r, r)] = space
    x0, r0 = min(x for x, _ in cells), min(r for _, r in cells)
    width, height = max(x for x, _ in cells) - x0 + 1, max(r for _, r in cells) - r0 + 1
    return {(x - x0, r - r0): space for (x, r), space in cells.items()}, width, height


def cell_glyph(g: Any, obs: dict, space: str) -> tuple[str, str | None]:
    """Returns the glyph a hex cell shows, one character, and the object it comes from: the
    topmost object on the cell (as the seat observes it) that has a glyph, else None and
    the cell's own glyph (or the first letter of its kind)."""
    content = obs["places"].get(space, [])
    for obj in reversed(content if isinstance(content, list) else []):
        glyph = obs["attrs"].get(obj, {}).get("glyph") or g.props.get(obj, {}).get("glyph")
        if glyph:
            return str(glyph)[:1], obj
    props = g.props.get(space, {})
    return str(props.get("glyph") or props.get("kind", "?"))[:1], None


def _grouped(c: Ctx, objs: list[str]) -> str:
    parts: list[str] = []
    i = 0
    while i < len(objs):
        props = c.g.props.get(objs[i], {})
        group = props.get("set_name")
        j = i + 1
        while group and j < len(objs) and c.g.props.get(objs[j], {}).get("set_name") == group \
                and not c.s["attrs"].get(objs[j]):
            j += 1
        if group and j - i >= 3 and not c.s["attrs"].get(objs[i]):
            parts.append(f"{group} x{j - i}")
        else:
            parts.extend(_obj(c, o) for o in objs[i:j])
        i = j
    return ", ".join(parts)


def _place_name(g: Any, place: str) -> str:
    base, _, owner = place.partition("/")
    return f"{base} of {g.player_name(int(owner))}" if owner else base


def _obj(c: Ctx, obj: str) -> str:
    name = text_of(c, obj)
    owner = c.s["attrs"].get(obj, {}).get("owner")
    return f"{name} ({c.g.player_name(owner)})" if type(owner) is int and not isinstance(owner, bool) else name
