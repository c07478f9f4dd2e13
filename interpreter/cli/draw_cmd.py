"""`cairn draw`: a picture (SVG, or PNG by CairoSVG) of a game's state as one seat sees it:
a new game's first decision (by --seed), or any step of a record (--record, --step)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..draw import draw_svg, to_png
from ..draw.convert import NoConverter
from ..engine.game import CompiledGame, GameState
from ..records import RecordFileError, read_records, shape_problem
from .common import UsageError, check_players, load


def cmd_draw(args: argparse.Namespace) -> int:
    out = _output(args.output)
    if args.record is not None:
        if args.seed is not None or args.players is not None:
            raise UsageError("--seed and --players come from the record: give them or --record, not both")
        g, state = _from_record(args)
    else:
        if args.step is not None:
            raise UsageError("--step needs --record")
        g = load(args.game, args.variant)
        n = args.players if args.players is not None else g.min_players
        check_players(g, n)
        state = g.new_initial_state(n, args.seed or 0)
    seat = _seat(args.seat, state.d["n"])
    svg = draw_svg(g, state.d, seat)
    if out.suffix.lower() == ".png":
        try:
            out.write_bytes(to_png(svg, args.scale))
        except NoConverter as err:
            print(f"cairn: {err}", file=sys.stderr)
            return 1
    else:
        out.write_text(svg, "utf-8")
    who = g.player_name(seat) if seat is not None else "a spectator"
    if args.json:
        print(json.dumps({"game": g.id, "variants": list(g.variants), "players": state.d["n"],
                          "seat": None if seat is None else seat + 1,
                          "step": len(state.d["actions"]), "output": str(out), "format": out.suffix[1:].lower()}))
    else:
        print(f"{g.name} as {who} sees it, written to {out}", file=sys.stderr)
    return 0


def _output(path: str) -> Path:
    p = Path(path)
    if p.suffix.lower() not in (".svg", ".png"):
        raise UsageError(f"-o {path}: expected a file ending .svg or .png")
    if not p.parent.is_dir():
        raise UsageError(f"-o {path}: no folder {p.parent}")
    return p


def _seat(seat: int | None, n: int) -> int | None:
    """The seat as the engine counts it (from 0); the command line counts from 1."""
    if seat is None:
        return None
    if not 1 <= seat <= n:
        raise UsageError(f"--seat {seat}: expected 1..{n} (this game has {n} players)")
    return seat - 1


def _from_record(args: argparse.Namespace) -> tuple[CompiledGame, GameState]:
    """Loads the record's game and replays its choices up to --step (default: all)."""
    try:
        record = read_records(Path(args.record))[0]     # a file of many: its first game
    except RecordFileError as err:
        raise UsageError(str(err)) from None
    problem = shape_problem(record)
    if problem is not None:
        raise UsageError(f"{args.record} {problem}" if problem.startswith("is ") else f"{args.record}: {problem}")
    g = load(args.game, args.variant or record.get("variants", []))
    if record.get("game") != g.id:
        raise UsageError(f"{args.record} is a record of {record.get('game')}, not of {g.id}")
    recorded = record.get("definitions_sha256")
    if recorded and recorded != g.content_hash:
        print(f"note: {args.record} was played with other definitions; drawn as these replay it", file=sys.stderr)
    actions = record["actions"]
    step = len(actions) if args.step is None else args.step
    if not 0 <= step <= len(actions):
        raise UsageError(f"--step {step}: expected 0..{len(actions)} (the record has {len(actions)} choices)")
    state = g.new_initial_state(record["players"], record["seed"], log=True)
    for i, action in enumerate(actions[:step]):
        if state.is_terminal() or action not in state.legal_actions():
            raise UsageError(f"{args.record}: choice {i} ({action}) does not replay with these definitions")
        state.apply_action(action)
    return g, state
