"""`cairn balance`: many bot games with seats rotated, then win rates by seat and bot with
95% intervals, score and length distributions, per-object statistics, and what a variant
shifts against the base; as text, JSON or an HTML page with plots."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..balance import html as html_report
from ..balance.run import batch_report, compare, defs
from ..batch import WorkerMismatch, keep
from ..scale import ScaleError, backend
from ..balance.text import render, render_compare
from .results_cmd import store
from .common import UsageError, bot_seats, check_players, colour_ok, game_folder, load, plural, progress
from .play_cmds import check_bot


def cmd_balance(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    # Seats are compared, so two players by default where the game allows it.
    seats, n = bot_seats(args.seats, args.players, max(g.min_players, min(2, g.max_players)))
    check_players(g, n)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    try:
        backend(args.workers, args.scheduler)
    except ScaleError as err:
        raise UsageError(f"--scheduler: {err}") from None
    for s in seats:
        check_bot(s)
    other = None
    if args.compare:
        other = load(args.game, args.variant + args.compare)       # checks the variant before any game
    folder = str(game_folder(args.game))
    keep(folder, tuple(args.variant), g)   # compiled once here; forked workers inherit it
    if other:
        keep(folder, tuple(args.variant + args.compare), other)
    batches = [tuple(args.variant)] + ([tuple(args.variant + args.compare)] if other else [])
    out = []
    done = 0
    with progress(args.games * len(batches), f"{g.id} {plural(n, 'player')}", colour_ok() and not args.quiet) as tick:
        for variants in batches:
            base_done = done
            try:
                rep, records = batch_report(folder, variants, n, args.games, args.seed, seats, workers=args.workers,
                                            scheduler=args.scheduler, progress=lambda k: tick(base_done + k))
            except (ScaleError, WorkerMismatch) as err:
                print(f"cairn: {err}", file=sys.stderr)
                return 1
            done += args.games
            out.append((rep, records))
            store(args, "balance", other if variants != batches[0] else g, n, seats, True, records)
    base, base_records = out[0]
    shift = compare(base, out[1][0], base_records, out[1][1], defs(g)) if other else None
    data = {"base": base, **({"variant": out[1][0], "shift": shift} if other else {})}
    text = render(base)
    if other:
        text += "\n\n" + render(out[1][0]) + "\n\n" + render_compare(shift, [s["name"] for s in base["seats"]])
    if args.html:
        try:
            page = html_report.write(Path(args.html), base, out[1][0] if other else None, shift)
        except html_report.NoPlots as err:
            raise UsageError(str(err)) from None
        # The page's data beside it, to diff two runs or read the full object table.
        (page.parent / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), "utf-8")
        (page.parent / "report.txt").write_text(text + "\n", "utf-8")
        print(f"report written to {page} (with report.json and report.txt)", file=sys.stderr)
    print(json.dumps(data, ensure_ascii=False) if args.json else text)
    return 0
