"""The commands that play: play and resume (people and bots in the terminal), simulate
(many bot games) and replay (re-run records and check them)."""
from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from pathlib import Path

from ..agents import AGENTS, parse_seat
from ..batch import WorkerMismatch, keep, simulate
from ..terminal.session import Quit, Session, load_save
from ..records import RecordFileError, digest, make_record, read_records, replay, shape_problem
from ..scale import ScaleError, backend
from ..engine.game import CompiledGame
from .results_cmd import store
from .common import UsageError, bot_seats, check_players, colour_ok, game_folder, load, plural, progress


def _seats(spec: str | None, n: int | None, default: str) -> list[str]:
    names = [s.strip() for s in (spec or default).split(",") if s.strip()]
    if spec and n is not None and len(names) != n:
        raise UsageError(f"--seats names {plural(len(names), 'seat')} but --players asks for {n}")
    for s in names:
        if s != "human":
            check_bot(s, "human or ")
    return names


def check_bot(spec: str, also: str = "", what: str = "seat kind") -> None:
    """Raises a usage error for a seat spec that names no bot or bad options."""
    try:
        parse_seat(spec)
    except ValueError as err:
        if str(err).startswith("unknown bot"):
            use = f"use {also}one of" if what == "seat kind" else "known:"
            raise UsageError(f"unknown {what} '{spec}'; {use} {', '.join(AGENTS)} "
                             "(mcts takes options: mcts:500:depth=30)") from None
        raise UsageError(str(err)) from None


def _record_path(path: str | None, option: str = "--record") -> Path | None:
    """Checks before the game that the record can be written where asked."""
    if path is None:
        return None
    p = Path(path)
    if not p.parent.is_dir():
        raise UsageError(f"{option} {path}: no folder {p.parent}")
    if p.is_dir():
        raise UsageError(f"{option} {path} is a folder")
    return p


def cmd_play(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    seats = _seats(args.seats, args.players, "")
    n = args.players if args.players is not None else (len(seats) if seats else g.min_players)
    check_players(g, n)
    if not seats:
        seats = ["human"] + ["random"] * (n - 1)
    record = _record_path(args.record)
    save = _record_path(args.save, "--save")
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 31)
    print(f"{g.name}: {plural(n, 'player')} ({', '.join(f'{g.player_name(i)}={s}' for i, s in enumerate(seats))}), "
          f"seed {seed}" + (f", variants {', '.join(g.variants)}" if g.variants else ""))
    return _run(Session(g, n, seed, seats, save_path=save), record)


def cmd_resume(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"cannot resume {args.file}: no such file")
    def named(target: str, variants: list[str]):
        try:
            return load(target, variants)
        except UsageError as err:
            raise UsageError(f"{path}: {err}") from None
    session = load_save(path, named, save_path=path)
    g = session.g
    print(f"{g.name}: resumed from {path} after {plural(len(session.state.d['actions']), 'choice')} "
          f"({', '.join(f'{g.player_name(i)}={s}' for i, s in enumerate(session.seats))}), seed {session.seed}")
    return _run(session, _record_path(args.record))


def _run(session: Session, record: Path | None) -> int:
    """Plays a session to its end; on q, Ctrl-C or the end of input the game is saved
    first (to --save, else to --record's file as a record)."""
    def keep() -> None:
        if session.save_path is not None:
            print(f"the game is saved in {session.save()}; cairn resume {session.save_path} continues it",
                  file=sys.stderr)
        if record:
            record.write_text(json.dumps(make_record(session.state, session.seats), indent=1), "utf-8")
            print(f"the game so far is in {record}", file=sys.stderr)
    try:
        state = session.run()
    except Quit as stop:
        keep()
        if str(stop).startswith("input ended"):
            raise UsageError(str(stop)) from None
        return 0
    except KeyboardInterrupt:
        print(file=sys.stderr)
        keep()
        raise
    if record:
        record.write_text(json.dumps(make_record(state, session.seats), indent=1), "utf-8")
        print(f"record written to {record}", file=sys.stderr)
    if session.save_path is not None:
        session.save()
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    agents, n = bot_seats(args.agents, args.players, g.min_players)
    check_players(g, n)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    for a in agents:
        check_bot(a, what="agent")
    try:
        where = backend(args.workers, args.scheduler)
    except ScaleError as err:
        raise UsageError(f"--scheduler: {err}") from None
    records_path = _record_path(args.records)
    spec = str(game_folder(args.game))
    keep(spec, tuple(args.variant), g)   # compiled once here; forked workers inherit it
    start = time.perf_counter()
    try:
        with progress(args.games, f"{g.id} {plural(n, 'player')}", colour_ok() and not args.quiet) as tick:
            records = simulate(spec, tuple(args.variant), n, args.games, args.seed, agents,
                               workers=args.workers, progress=tick, scheduler=args.scheduler, rotate=args.rotate)
    except (ScaleError, WorkerMismatch) as err:
        print(f"cairn: {err}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - start
    if records_path:
        # One game record per line: `cairn replay` checks them all.
        with open(records_path, "w", encoding="utf-8") as fh:
            for r in records:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
    finished = [r for r in records if r["result"]["reason"] != "aborted"]
    wins = [0] * n
    scores = [0.0] * n
    for r in records:
        for p in r["result"]["winners"]:
            wins[p] += 1
        for p in range(n):
            scores[p] += r["result"]["scores"][p]
    out = {"game": g.id, "variants": list(g.variants), "players": n, "games": args.games,
           "seed": args.seed, "agents": agents, "rotated": args.rotate, "finished": len(finished),
           "aborted": [r["result"].get("aborted") for r in records if r not in finished][:5],
           "mean_turns": round(sum(r["turns"] for r in records) / len(records), 3),
           "mean_decisions": round(sum(len(r["actions"]) for r in records) / len(records), 3),
           "wins_by_seat": wins, "mean_score_by_seat": [round(s / len(records), 3) for s in scores],
           **({"win_rate_by_bot": by_bot(records)} if args.rotate or len(set(agents)) > 1 else {}),
           "digest": digest(records), "seconds": round(elapsed, 3), "workers": args.workers, "backend": where,
           "games_per_s": round(len(records) / elapsed, 2) if elapsed > 0 else None}
    store(args, "simulate", g, n, agents, args.rotate, records)
    print(json.dumps(out, ensure_ascii=False) if args.json else simulate_table(g, out))
    return 0 if len(finished) == len(records) else 1


def simulate_table(g: CompiledGame, out: dict) -> str:
    """Returns simulate's result as a person reads it: what was played, a row a seat, and
    each bot's win rate with its interval when bots differ."""
    n, games = out["players"], out["games"]
    variants = f" + {', '.join(out['variants'])}" if out["variants"] else ""
    lines = [f"{g.name}{variants}: {plural(n, 'player')}, {plural(games, 'game')} (seed {out['seed']}), "
             f"{out['finished']} finished" + (f", aborted: {'; '.join(map(str, out['aborted']))}" if out["aborted"] else ""),
             f"a game: {out['mean_turns']} turns, {out['mean_decisions']} decisions; "
             f"{out['games_per_s']} games/s ({out['backend']}, {plural(out['workers'], 'worker')}); digest {out['digest'][:16]}",
             "", f"{'seat':16} {'bot':14} {'wins':>6} {'win rate':>9} {'mean score':>11}"]
    agents = out["agents"] or ["random"]
    for p in range(n):
        bot = "rotated" if out["rotated"] and len(set(agents)) > 1 else agents[min(p, len(agents) - 1)]
        wins = out["wins_by_seat"][p]
        lines.append(f"{g.player_name(p)[:16]:16} {bot[:14]:14} {wins:>6} {wins / games:>9.1%} "
                     f"{out['mean_score_by_seat'][p]:>11}")
    for bot, r in out.get("win_rate_by_bot", {}).items():
        lines.append(f"{'':16} {bot[:14]:14} wins {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}] of "
                     f"{plural(r['n'], 'seat')} (equal bots: {r['baseline']:.1%})")
    return "\n".join(lines)


def by_bot(records: list[dict]) -> dict:
    """Returns each bot's share of wins over the seats it held (a shared win split), with
    its Wilson 95% interval; `baseline` is what equal bots would get (1 / players)."""
    from ..balance.stats import rate, share
    won: dict[str, float] = {}
    seats: dict[str, int] = {}
    for r in records:
        names = r["agents"] or ["random"]
        for p in range(r["players"]):
            bot = names[min(p, len(names) - 1)]
            won[bot] = won.get(bot, 0.0) + share(r, p)
            seats[bot] = seats.get(bot, 0) + 1
    n = records[0]["players"] if records else 1
    return {bot: {**rate(won[bot], seats[bot]), "baseline": round(1 / n, 4)} for bot in seats}


class BadRecord(Exception):
    """A record file that is not a sound Cairn record (exit status 1)."""


def cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.record)
    if not path.is_file():
        raise UsageError(f"cannot read record {args.record}: no such file")
    try:
        records = _read_records(path)
        failures = sum(_replay_one(args.record, r, args.game) for r in records)
    except BadRecord as err:
        print(f"cairn: {err}", file=sys.stderr)
        return 1
    if len(records) > 1:
        print(f"{len(records) - failures} of {len(records)} records replayed identically")
    return 1 if failures else 0


def _read_records(path: Path) -> list:
    try:
        return read_records(path)
    except RecordFileError as err:
        raise BadRecord(str(err)) from None


def _replay_one(name: str, record: object, folder: str | None) -> int:
    """Replays one record; returns 0 when it matches, 1 when it does not."""
    problem = shape_problem(record)
    if problem is not None:
        raise BadRecord(f"{name} {problem}" if problem.startswith("is ") else f"{name}: {problem}")
    variants = record.get("variants", [])
    where = folder or record.get("definitions_path") or record["game"]
    if not isinstance(where, str):
        raise BadRecord(f"{name}: 'definitions_path' must be a folder")
    g = load(where, variants)
    if g.id != record["game"]:
        raise BadRecord(f"{name} is a record of {record['game']}, not of {g.id}")
    ok, why = replay(g, record)
    print(("ok: " if ok else "MISMATCH: ") + why)
    return 0 if ok else 1
