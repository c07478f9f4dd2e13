"""`cairn sweep GAME --param NAME=LO..HI`: the same bot games for each value of one rule
parameter (set as an overlay's `set: params:` would), then a row per value: win rates by
seat, turn order and bot with 95% intervals, game length, draws and lead changes; as
text or --json, each value's games optionally stored (--store)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..batch import WorkerMismatch
from ..results import ResultsError, store_run
from ..scale import ScaleError
from ..sweep import SweepError, load_value, parse_param, play_value, shown_variants
from .balance_cmd import DEFAULT_BOT, check_common
from .common import UsageError, bot_seats, check_players, colour_ok, game_folder, load, progress
from .play_cmds import check_bot


def cmd_sweep(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    seats, n = bot_seats(args.seats or DEFAULT_BOT, args.players, max(g.min_players, min(2, g.max_players)))
    check_players(g, n)
    check_common(args)
    for s in seats:
        check_bot(s)
    try:
        name, values = parse_param(args.param, g)
    except SweepError as err:
        raise UsageError(str(err)) from None
    folder = str(game_folder(args.game))
    variants = tuple(args.variant)
    for v in values:                       # every value loads before any game is played
        load_value(folder, variants, name, v)
    rows = []
    show = colour_ok() and not args.quiet
    try:
        for v in values:
            with progress(args.games, f"{g.id} {name}={v}", show) as tick:
                row, records = play_value(folder, variants, name, v, n, args.games, args.seed, seats,
                                          workers=args.workers, scheduler=args.scheduler, progress=tick)
            rows.append(row)
            _store(args, g, n, seats, shown_variants(variants, name, v), records)
    except (ScaleError, WorkerMismatch) as err:
        print(f"cairn: {err}", file=sys.stderr)
        return 1
    data = {"game": g.id, "variants": list(variants), "param": name, "values": values, "players": n,
            "games": args.games, "seed": args.seed, "seats_spec": seats, "rows": rows}
    print(json.dumps(data, ensure_ascii=False) if args.json else render(data))
    return 0


def _store(args: argparse.Namespace, g: Any, n: int, seats: list[str], variants: list[str],
           records: list[dict]) -> None:
    if not args.store:
        return
    try:
        run_id = store_run(args.store, command="sweep", game=g.id, definitions_sha256=records[0]["definitions_sha256"],
                           variants=variants, players=n, master_seed=args.seed, bots=seats, rotate=True,
                           records=records)
    except ResultsError as err:
        raise UsageError(str(err)) from None
    print(f"stored {len(records)} games as run {run_id} in {args.store}", file=sys.stderr)


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:5.1f}% [{100 * r['low']:4.1f}, {100 * r['high']:4.1f}]" if r.get("rate") is not None else "-"


def _mean(m: dict, fmt: str = ".2f") -> str:
    return "-" if m.get("mean") is None else f"{m['mean']:{fmt}} [{m['low']:{fmt}}, {m['high']:{fmt}}]"


def render(d: dict[str, Any]) -> str:
    """Returns the sweep as a table of text, a row per value."""
    v = f" + {', '.join(d['variants'])}" if d["variants"] else ""
    rows = d["rows"]
    lines = [f"{d['game']}{v}: {d['param']} over {', '.join(map(json.dumps, d['values']))}; {d['players']} players, "
             f"{d['games']} games a value (seed {d['seed']}, the same seeds for every value), seats "
             f"{','.join(d['seats_spec'])} rotated; 95% intervals"]
    head = [f"{d['param']:>12}"] + [f"{s['name'] + ' wins':>22}" for s in rows[0]["seats"]] + \
        [f"{'turn 1 wins':>22}", f"{'turns':>20}", f"{'draws':>6}", f"{'lead changes':>20}", "finished"]
    lines.append("  ".join(head))
    for r in rows:
        cells = [f"{json.dumps(r['value']):>12}"] + [f"{_pct(s['win']):>22}" for s in r["seats"]] + \
            [f"{_pct(r['by_turn_order'][0]['win']):>22}", f"{_mean(r['turns'], '.1f'):>20}",
             f"{100 * (r['draws']['rate'] or 0):5.1f}%", f"{_mean(r['lead_changes'], '.1f') if r['readable'] else '-':>20}",
             f"{r['finished']}/{r['games']}"]
        lines.append("  ".join(cells))
    bots = sorted({b for r in rows for b in r["bots"]})
    if len(bots) > 1:
        lines.append("win rate by bot:")
        for r in rows:
            lines.append(f"  {json.dumps(r['value']):>10}  " + "  ".join(f"{b} {_pct(r['bots'][b])}" for b in bots if b in r["bots"]))
    return "\n".join(lines)
