"""A state as one SVG picture, as one seat may see it: a header (the game line, a line
per player), the board, then the table's zones. Built only from that seat's observation
(engine/view.py observe), so what the seat may not know is never in the picture."""
from __future__ import annotations

from typing import Any

from ..engine.view import observe
from ..terminal import parts as P
from ..terminal.screen import option_space
from .board import draw_board
from .hints import Hints
from .svg import document, el, readable, text, width_of
from .zones import draw_zones, header_lines

MIN_WIDTH = 1000.0


def option_marks(g: Any, d: dict, seat: int | None) -> tuple[dict[str, int], dict[str, int]]:
    """Returns (space -> option index, object -> option index) for the seat deciding now
    (nothing for any other seat): the space an option names, as the terminal marks it, and
    the object an option is."""
    pending = d["pending"]
    if pending is None or seat is None or pending["player"] != seat:
        return {}, {}
    spaces: dict[str, int] = {}
    objects: dict[str, int] = {}
    for i, opt in enumerate(pending["options"]):
        s = option_space(g, d, opt)
        if s is not None:
            spaces.setdefault(s, i)
        elif isinstance(opt, str) and opt in g.props and opt not in g.adj:
            objects.setdefault(opt, i)
    return spaces, objects


def draw_svg(game: Any, d: dict, seat: int | None) -> str:
    """Returns the SVG picture of state `d` as `seat` sees it (None: a spectator)."""
    obs = observe(game, d, seat)
    spaces, objects = option_marks(game, d, seat)
    h = Hints(game, obs, spaces, objects)
    v = P.View(game, d, seat, obs, {}, full=True)
    body = el(None, "g")
    y, widest = _header(body, h, v, seat)
    board, bw, bh, drawn = draw_board(h, d.get("pos"))
    board.set("transform", f"translate(0,{y:.1f})")
    body.append(board)
    y += bh + 6
    width = max(MIN_WIDTH, bw, widest + 16)
    off = [s for s in game.spaces if s not in drawn and s in obs["places"]]
    zones, y = draw_zones(h, v, y, width, off)
    body.append(zones)
    return document(width, y + 10, body, data_game=game.id, data_seat="" if seat is None else seat)


def _header(body: Any, h: Hints, v: P.View, seat: int | None) -> tuple[float, float]:
    """Draws the game line, a line per player in its colour and who sees the picture;
    returns the y below them and the widest line's width."""
    y, widest = 8.0, 0.0
    for i, (line, player) in enumerate(header_lines(v)):
        colour = h.player(player) if player is not None else "#000000"
        size = 15 if i == 0 else 11
        bold = "bold" if i == 0 or player == seat else None
        text(body, 8, y + size, line, size=size, font_weight=bold, fill=readable(colour))
        widest = max(widest, width_of(line, size))
        y += size + 5
    who = v.g.player_name(seat) if seat is not None else "a spectator"
    line = f"as {who} sees it" + _deciding(v.g, v.obs, seat)
    text(body, 8, y + 11, line, size=10, fill="#555555")
    return y + 20, max(widest, width_of(line, 10))


def _deciding(game: Any, obs: dict, seat: int | None) -> str:
    dec = obs["decision"]
    if dec is None:
        return "  ·  game over" if obs["terminal"] else ""
    if dec["player"] == seat and "prompt" in dec:
        return f"  ·  your decision: {dec['prompt']}"
    return f"  ·  waiting for {game.player_name(dec['player'])}"
