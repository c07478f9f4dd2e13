"""Checks a save file before a game resumes from it. A save is input like any other file:
it may have been edited by hand or by an attacker, so every field is checked for its kind
first (one message naming the file and the field), and then its choices are replayed from
the seed and must make the state whose hash the save holds (records.verify): a changed
seed, a changed, added or removed choice, or a changed hash is refused, saying what differs.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..agents import AGENTS, make_agents, parse_seat
from ..engine.game import CompiledGame, GameState
from ..lang.values import MAX_ACTIONS
from ..records import excerpt, read_bounded, shape_problem, verify

SAVE_FORMAT = 1              # the save format this Cairn writes
SAVE_FORMATS = (1,)          # ... and the ones it reads
MAX_SAVE_BYTES = 64 * 2 ** 20
_FIELDS = ("cairn_save", "record", "seats", "bots", "checkpoints")
_RNG_LIMIT = 2 ** 64


def read_save(path: Path) -> Any:
    """Returns the JSON a save file holds; raises ValueError naming the file."""
    try:
        return json.loads(read_bounded(path, MAX_SAVE_BYTES))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ValueError(f"cannot read save {path}: {err}") from None


def save_problem(data: Any) -> str | None:
    """Returns what makes `data` not a sound save, naming the field, or None. The fields'
    kinds only: whether its choices make its state is verify_save's."""
    if type(data) is not dict or "cairn_save" not in data:
        return "is not a Cairn save (cairn play --save FILE writes one)"
    if type(data["cairn_save"]) is not int or data["cairn_save"] not in SAVE_FORMATS:
        return (f"is a save of format {excerpt(data['cairn_save'])}; this Cairn reads save format "
                + " and ".join(map(str, SAVE_FORMATS)))
    for key in _FIELDS:
        if key not in data:
            return f"field '{key}' is missing"
    unknown = sorted(k for k in data if k not in _FIELDS)
    if unknown:
        return f"unknown field {excerpt(unknown[0])} (a save has {', '.join(_FIELDS)})"
    rec = data["record"]
    problem = shape_problem(rec)
    if problem is not None:
        return f"field 'record' {problem}" if problem.startswith("is ") else problem.replace("field '", "field 'record.", 1)
    return _seats(data["seats"], rec) or _bots(data["bots"], data["seats"], "field 'bots'") \
        or _checkpoints(data["checkpoints"], data["seats"], rec)


def _seats(seats: Any, rec: dict) -> str | None:
    n = rec["players"]
    if type(seats) is not list or len(seats) != n:
        return f"field 'seats' must be a list of {n} seat kinds (one per player), got {excerpt(seats)}"
    for i, s in enumerate(seats):
        try:
            ok = type(s) is str and (s == "human" or parse_seat(s) is not None)
        except ValueError:
            ok = False
        if not ok:
            return f"field 'seats' item {i + 1} must be human or a bot ({', '.join(AGENTS)}), got {excerpt(s)}"
    if rec.get("agents", seats) != seats:
        return f"field 'seats' {excerpt(seats)} is not the record's agents {excerpt(rec.get('agents'))}"
    return None


def _bots(bots: Any, seats: list[str], where: str) -> str | None:
    """Each bot's saved state must have the keys and kinds of a fresh bot of its seat."""
    fresh = [b.get_state() for b in make_agents([s if s != "human" else "random" for s in seats], len(seats), 0)]
    if type(bots) is not list or len(bots) != len(seats):
        return f"{where} must be a list of {len(seats)} bot states (one per seat), got {excerpt(bots)}"
    for i, (saved, model) in enumerate(zip(bots, fresh)):
        if type(saved) is not dict or set(saved) != set(model) \
                or not all(type(v) is int and 0 <= v < _RNG_LIMIT for v in saved.values()):
            return f"{where} item {i + 1} must be a bot state like {excerpt(model)}, got {excerpt(saved)}"
    return None


def _checkpoints(points: Any, seats: list[str], rec: dict) -> str | None:
    n = len(rec["actions"])
    if type(points) is not list or len(points) > n + 1:   # at most one per decision, the last included
        return f"field 'checkpoints' must be a list of at most {n + 1} checkpoints, got {excerpt(points)}"
    last = -1
    for i, cp in enumerate(points):
        where = f"field 'checkpoints' item {i + 1}"
        if type(cp) is not list or len(cp) != 3:
            return f"{where} must be [choices before it, seat, bot states], got {excerpt(cp)}"
        at, seat, bots = cp
        if type(at) is not int or not last < at <= MAX_ACTIONS:
            return (f"{where} must stand at a number of choices later than the one before it ({last + 1} "
                    f"or more), got {excerpt(at)}")
        if type(seat) is not int or not 0 <= seat < len(seats) or seats[seat] != "human":
            return f"{where} must name a person's seat (0 to {len(seats) - 1}), got {excerpt(seat)}"
        problem = _bots(bots, seats, f"{where}'s bots")
        if problem:
            return problem
        last = at
    return None


def verify_save(g: CompiledGame, data: dict) -> tuple[GameState, str | None]:
    """Returns the state a (field-checked) save's choices make, and what differs from what
    it says (None when nothing does): the record's checks, and each checkpoint standing at
    a decision of the seat it names."""
    deciders: list[int | None] = []
    state, problem = verify(g, data["record"], what="save", log=True, deciders=deciders)
    if problem is not None:
        return state, problem
    for i, (at, seat, _bots) in enumerate(data["checkpoints"]):
        if at >= len(deciders):
            return state, f"checkpoint {i + 1} stands at {at} choices, but the save holds {len(deciders) - 1}"
        if deciders[at] != seat:
            who = "nobody" if deciders[at] is None else f"seat {deciders[at]}"
            return state, (f"checkpoint {i + 1} says seat {seat} decides after {at} choices, "
                           f"but the choices replay to {who} deciding there")
    return state, None
