"""`cairn results FILE`: a summary of the runs a DuckDB results file holds (`--store`), and
the storing itself, shared by simulate and balance."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from ..engine.game import CompiledGame
from ..results import ResultsError, store_run, summary
from .common import UsageError


def store(args: argparse.Namespace, command: str, g: CompiledGame, players: int, bots: Sequence[str],
          rotate: bool, records: list[dict]) -> None:
    """Appends a run's games to the file of --store (if given), saying so on stderr."""
    if not getattr(args, "store", None):
        return
    try:
        run_id = store_run(Path(args.store), command=command, game=g.id, definitions_sha256=g.content_hash,
                           variants=list(g.variants), players=players, master_seed=args.seed, bots=list(bots),
                           rotate=rotate, records=records)
    except ResultsError as err:
        raise UsageError(str(err)) from None
    print(f"stored {len(records)} games as run {run_id} in {args.store}", file=sys.stderr)


def cmd_results(args: argparse.Namespace) -> int:
    try:
        runs = summary(Path(args.file))
    except ResultsError as err:
        raise UsageError(str(err)) from None
    if args.json:
        print(json.dumps({"runs": runs}, ensure_ascii=False, default=str))
        return 0
    if not runs:
        print(f"{args.file}: no runs stored yet")
    for r in runs:
        variants = f" + {', '.join(r['variants'])}" if r["variants"] else ""
        print(f"{r['run_id']}  {r['started']}  {r['command']} {r['game']}{variants}, {r['players']} players, "
              f"{r['finished']}/{r['games']} games finished, seed {r['seed']}, definitions {r['definitions_sha256']}")
        seats = "  ".join(f"{p + 1}: {w:.1%}" for p, w in enumerate(r["win_rate_by_seat"]))
        bots = "  ".join(f"{b}: {v['rate']:.1%} of {v['seats']} seats" for b, v in r["win_rate_by_bot"].items())
        print(f"    wins by seat  {seats}")
        print(f"    wins by bot   {bots}")
        print(f"    a game: {r['mean_turns']} turns, {r['mean_decisions']} decisions")
    return 0
