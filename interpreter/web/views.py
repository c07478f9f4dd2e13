"""One seat's view as JSON for the page, built only from the engine's view functions
(observe) and the terminal's parts (which are built from observe): the picture, the text
parts as HTML, the decision when the seat is deciding, and the seat's log. Nothing here
reads a place, a variable or an option the seat may not see."""
from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.terminal_theme import MONOKAI

from ..engine.view import observe
from ..terminal.parts import Part
from ..terminal.screen import KEYS, marks, option_space, view_parts, why_not

WIDTH = 100     # the text parts' columns, as in the terminal


def parts_html(parts: list[Part]) -> str:
    """Returns the parts drawn by rich as HTML (colours as inline styles, text escaped)."""
    con = Console(record=True, width=WIDTH, file=io.StringIO(), force_terminal=True,
                  color_system="truecolor", highlight=False, emoji=False)
    for part in parts:
        for item in part.items:
            con.print(item, overflow="fold", crop=False)
    return con.export_html(theme=MONOKAI, code_format="{code}", inline_styles=True)


def picture(g: Any, d: dict, seat: int | None) -> str | None:
    """Returns the seat's picture as SVG when the drawing package is there, else None (the
    page shows the text board). A failing drawing is reported on the page, not raised."""
    try:
        from ..draw import draw_svg
    except ImportError:
        return None
    try:
        return draw_svg(g, d, seat)
    except Exception as err:  # a drawing bug must not stop the game: the text board stays
        return f'<p class="problem">the picture failed: {type(err).__name__}: {err}</p>'


def decision(g: Any, d: dict, seat: int | None, obs: dict) -> dict | None:
    """Returns the pending decision as the seat may know it: prompt, options and the
    reasons for missing ones to the seat deciding; only who decides to the others."""
    pending = d["pending"]
    if pending is None:
        return None
    who = pending["player"]
    if who != seat:
        return {"player": who, "name": g.player_name(who), "mine": False}
    dec = obs["decision"]
    mk = marks(g, d, seat)
    options = []
    for i, label in enumerate(dec["options"]):
        # the key that marks this option's space on the text board, when not its number
        key = KEYS[i] if i < len(KEYS) else None
        space = option_space(g, d, pending["options"][i]) if key and key != str(i + 1) else None
        options.append({"label": label, "map": key if space is not None and mk.get(space) == key else None})
    return {"player": who, "name": g.player_name(who), "mine": True, "prompt": dec["prompt"],
            "options": options, "not_offered": why_not(g, d, seat, dec["prompt"])}


def result_text(g: Any, d: dict) -> str | None:
    """Returns the result line of a finished game (scores and winners), else None."""
    r = d["result"]
    if not d["terminal"] or not r:
        return None
    scores = ", ".join(f"{g.player_name(p)} {r['scores'][p]}" for p in range(d["n"]))
    winners = ", ".join(g.player_name(p) for p in r["winners"]) or "none"
    return f"Result ({r['reason']}): {scores}. Winner(s): {winners}."


def tree(g: Any, d: dict, seat: int | None) -> dict[str, Any]:
    """Returns the seat's observation as a tree for the inspector: places (a hidden one as
    its count), each seen object by its name with its attributes, the variables of the
    game and of each player as the seat may know them. Only observe's output is read."""
    obs = observe(g, d, seat)
    attrs = obs["attrs"]

    def thing(o: str) -> Any:
        name = f"{g.props.get(o, {}).get('name', o)} ({o})"
        return {name: attrs[o]} if attrs.get(o) else name

    places = {place: ([thing(o) for o in objs] if isinstance(objs, list) else f"{objs['count']} hidden")
              for place, objs in obs["places"].items() if objs}
    return {"game": obs["game_vars"], "players": {g.player_name(p): pv for p, pv in enumerate(obs["player_vars"])},
            "places": places, "decision": obs["decision"]}


def legend(g: Any) -> list[dict]:
    """The picture's legend (colours of seats, kinds of space, pieces, icons), or []
    without the drawing package."""
    try:
        from ..draw.legend import legend as drawn
    except ImportError:
        return []
    return drawn(g)


def seat_view(g: Any, d: dict, seat: int | None) -> dict[str, Any]:
    """Returns everything the page shows of one state for one seat (None: a spectator)."""
    obs = observe(g, d, seat)
    parts = view_parts(g, d, seat, full=True)
    board = [p for p in parts if p.key == "board"]
    rest = [p for p in parts if p.key != "board"]
    return {"game": g.name, "game_id": g.id, "variants": list(g.variants), "seat": seat,
            "players": [g.player_name(p) for p in range(d["n"])], "turn": d["turns"],
            "at": len(d["actions"]), "terminal": d["terminal"], "result": result_text(g, d),
            "svg": picture(g, d, seat), "board_html": parts_html(board) if board else "",
            "parts_html": parts_html(rest), "decision": decision(g, d, seat, obs), "log": obs["log"],
            "legend": legend(g)}
