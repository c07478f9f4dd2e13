"""`cairn balance`: many bot games with seats rotated, then win rates by seat, turn order
and bot with 95% intervals, score and length distributions, how the lead moves, per-object
statistics, restricted play (what each card is worth), and what a variant shifts against
the base; as text, JSON or an HTML page with tables and plots."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..balance import html as html_report
from ..balance.cards import free_shares, most_played, new_subjects, restricted_play
from ..balance.names import known_subjects
from ..balance.run import batch_report, compare, defs
from ..balance.stats import rate
from ..batch import WorkerMismatch, keep
from ..diagnostics import suggest
from ..engine.game import CompiledGame
from ..scale import ScaleError, backend
from ..balance.text import render, render_cards, render_compare
from .results_cmd import store
from .common import UsageError, bot_seats, check_players, colour_ok, game_folder, load, plural, progress
from .play_cmds import check_bot

DEFAULT_BOT = "greedy"


def check_common(args: argparse.Namespace) -> None:
    """Raises a usage error for counts, workers or a scheduler that cannot run."""
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    try:
        backend(args.workers, args.scheduler)
    except ScaleError as err:
        raise UsageError(f"--scheduler: {err}") from None


def _cards(args: argparse.Namespace, games: list[CompiledGame]) -> list[str] | None:
    """Returns the subjects named by --cards (checked against the games), or None."""
    if not args.cards:
        return None
    names = [c.strip() for c in args.cards.split(",") if c.strip()]
    known = set().union(*(known_subjects(g) for g in games))
    for c in names:
        if c not in known:
            raise UsageError(f"--cards: no card or named power '{c}' in {games[0].id}{suggest(c, known)} "
                             "(a card's id, or a power's key such as ranknok#0)")
    return names


def _check(args: argparse.Namespace, g: CompiledGame) -> tuple[list[str], int]:
    """Returns (bots, players) once every option is usable; raises a usage error first."""
    # Seats are compared, so two players by default where the game allows it.
    seats, n = bot_seats(args.seats or DEFAULT_BOT, args.players, max(g.min_players, min(2, g.max_players)))
    check_players(g, n)
    check_common(args)
    if args.top < 0 or (args.card_games is not None and not 1 <= args.card_games <= args.games):
        raise UsageError("--top must be 0 or more; --card-games from 1 to --games (restricted games are "
                         "paired with the unrestricted games of the same seeds)")
    for s in seats:
        check_bot(s)
    if args.html:
        try:
            html_report.plotting()          # before the games, not after them
        except html_report.NoPlots as err:
            raise UsageError(str(err)) from None
    return seats, n


def cmd_balance(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    seats, n = _check(args, g)
    other = load(args.game, args.variant + args.compare) if args.compare else None   # checked before any game
    chosen = _cards(args, [g] + ([other] if other else []))
    folder = str(game_folder(args.game))
    batches = [(tuple(args.variant), g)] + ([(tuple(args.variant + args.compare), other)] if other else [])
    for variants, game in batches:
        keep(folder, variants, game)       # compiled once here; forked workers inherit it
    show = colour_ok() and not args.quiet
    out, kept = [], []
    try:
        for i, (variants, game) in enumerate(batches):
            with progress(args.games, f"{game.id} {'+'.join(variants) or 'base'}", show) as tick:
                rep, records, extras = batch_report(folder, variants, n, args.games, args.seed, seats,
                                                    workers=args.workers, scheduler=args.scheduler, progress=tick)
            store(args, "balance", game, n, seats, True, records)
            subjects = _subjects(chosen, game, records, extras, args.top, g if i else None)
            rep["cards"] = _card_table(args, folder, variants, game, n, seats, subjects, records, extras, show)
            out.append(rep)
            kept.append(records)
    except (ScaleError, WorkerMismatch) as err:
        print(f"cairn: {err}", file=sys.stderr)
        return 1
    shift = compare(out[0], out[1], kept[0], kept[1], defs(g)) if other else None
    _output(args, out[0], out[1] if other else None, shift)
    return 0


def _output(args: argparse.Namespace, base: dict, other: dict | None, shift: dict | None) -> None:
    """Prints the report (text or JSON) and writes the HTML page with its data beside it."""
    data = {"base": base, **({"variant": other, "shift": shift} if other else {})}
    parts = [render(base), render_cards(base)]
    if other is not None and shift is not None:
        parts += [render(other), render_cards(other), render_compare(shift, [s["name"] for s in base["seats"]])]
    text = "\n\n".join(parts)
    if args.html:
        page = html_report.write(Path(args.html), base, other, shift, _command_line())
        # The page's data beside it, to diff two runs or read the full object table.
        (page.parent / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), "utf-8")
        (page.parent / "report.txt").write_text(text + "\n", "utf-8")
        print(f"report written to {page} (with report.json and report.txt)", file=sys.stderr)
    print(json.dumps(data, ensure_ascii=False) if args.json else text)


def _command_line() -> str:
    """Returns the command as typed, for the page to say how it was made."""
    return " ".join(["cairn", *sys.argv[1:]]) if sys.argv and sys.argv[0].endswith(("cairn", "__main__.py")) else ""


def _subjects(chosen: list[str] | None, game: CompiledGame, records: list[dict], extras: list[dict], top: int,
              base: CompiledGame | None) -> list[str]:
    """Returns what restricted play measures in one batch: --cards (those of this game),
    else the `top` most played, and in a variant every card and named power it adds."""
    known = known_subjects(game)
    if chosen is not None:
        return [c for c in chosen if c in known]
    if base is not None:
        return new_subjects(base, game)
    return most_played(extras, top, known)


def _card_table(args: argparse.Namespace, folder: str, variants: tuple[str, ...], game: CompiledGame, n: int,
                seats: list[str], subjects: list[str], records: list[dict], extras: list[dict],
                show: bool) -> dict[str, Any]:
    """Plays restricted games for each subject; returns the ranked table with its setting."""
    games = args.card_games or args.games
    free = free_shares(records)[:games]
    plays: dict[str, int] = {}
    for e in extras:
        for s, c in e.get("plays", {}).items():
            plays[s] = plays.get(s, 0) + c
    rows = []
    if subjects:
        with progress(games * len(subjects), f"restricted play: {plural(len(subjects), 'card')}", show) as tick:
            rows = restricted_play(folder, variants, game, n, args.seed, seats, subjects, args.restrict, free,
                                   plays, workers=args.workers, scheduler=args.scheduler, progress=tick)
    return {"mode": args.restrict, "games": games, "bot": seats[0], "seats_spec": seats,
            "free": rate(sum(free), games), "rows": rows}
