"""The commands that play: play (people and bots in the terminal), simulate (many bot
games) and replay (re-run records and check them)."""
from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from pathlib import Path

from ..agents import AGENTS, make_agents
from ..batch import simulate
from ..engine.game import GameState
from ..records import digest, make_record, replay
from .common import UsageError, check_players, colour_ok, game_folder, load, plural, progress


def _seats(spec: str | None, n: int | None, default: str) -> list[str]:
    names = [s.strip() for s in (spec or default).split(",") if s.strip()]
    if spec and n is not None and len(names) != n:
        raise UsageError(f"--seats names {plural(len(names), 'seat')} but --players asks for {n}")
    for s in names:
        if s != "human" and s not in AGENTS:
            raise UsageError(f"unknown seat kind '{s}'; use human or one of {', '.join(AGENTS)}")
    return names


def _record_path(path: str | None) -> Path | None:
    """Checks before the game that the record can be written where asked."""
    if path is None:
        return None
    p = Path(path)
    if not p.parent.is_dir():
        raise UsageError(f"--record {path}: no folder {p.parent}")
    if p.is_dir():
        raise UsageError(f"--record {path} is a folder")
    return p


def cmd_play(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    seats = _seats(args.seats, args.players, "")
    n = args.players if args.players is not None else (len(seats) if seats else g.min_players)
    check_players(g, n)
    if not seats:
        seats = ["human"] + ["random"] * (n - 1)
    record = _record_path(args.record)
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 31)
    bots = make_agents([s if s != "human" else "random" for s in seats], n, seed)
    state = g.new_initial_state(n, seed)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    printed = 0
    print(f"{g.name}: {plural(n, 'player')} ({', '.join(f'{g.player_name(i)}={s}' for i, s in enumerate(seats))}), "
          f"seed {seed}" + (f", variants {', '.join(g.variants)}" if g.variants else ""))

    def flush_log() -> None:
        nonlocal printed
        lines = state.d["log"]
        for text, to in lines[printed:]:
            if to is None or to == viewer or viewer is None and not humans:
                print(f"  {text}")
        printed = len(lines)

    try:
        while not state.is_terminal():
            flush_log()
            p = state.current_player()
            state.apply_action(_ask_human(state, p) if seats[p] == "human" else bots[p].step(state))
    except KeyboardInterrupt:
        if record:
            record.write_text(json.dumps(make_record(state, seats), indent=1), "utf-8")
            print(f"\nstopped; the game so far is in {record}", file=sys.stderr)
        raise
    flush_log()
    r = state.d["result"]
    print(f"Result ({r['reason']}): " + ", ".join(f"{g.player_name(p)} {r['scores'][p]}" for p in range(n)))
    print("Winner(s): " + (", ".join(g.player_name(p) for p in r["winners"]) or "none"))
    if record:
        record.write_text(json.dumps(make_record(state, seats), indent=1), "utf-8")
        print(f"record written to {record}", file=sys.stderr)
    return 0


def _show(state: GameState, p: int) -> None:
    dec = state.decision()
    print(state.observation_string(p))
    print(f"\n{state.game.player_name(p)}: {dec['prompt']}")
    for i, label in enumerate(dec["labels"]):
        print(f"  [{i + 1}] {label}")


def _ask_human(state: GameState, p: int) -> int:
    print()
    _show(state, p)
    n = len(state.decision()["labels"])
    while True:
        try:
            raw = input("> ").strip()
        except EOFError:
            raise UsageError("input ended before the game did") from None
        if raw.isdigit() and 1 <= int(raw) <= n:
            return int(raw) - 1
        if raw == "?":
            _show(state, p)
            continue
        if raw in ("q", "quit"):
            raise KeyboardInterrupt
        print(f"type a number from 1 to {n} (? shows the game again, q quits)")


def cmd_simulate(args: argparse.Namespace) -> int:
    g = load(args.game, args.variant)
    n = args.players if args.players is not None else g.min_players
    check_players(g, n)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    for a in agents:
        if a not in AGENTS:
            raise UsageError(f"unknown agent '{a}'; known: {', '.join(AGENTS)}")
    records_path = _record_path(args.records)
    start = time.perf_counter()
    with progress(args.games, f"{g.id} {plural(n, 'player')}", colour_ok() and not args.quiet) as tick:
        records = simulate(str(game_folder(args.game)), tuple(args.variant), n, args.games, args.seed, agents,
                           workers=args.workers, progress=tick)
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
           "seed": args.seed, "agents": agents, "finished": len(finished),
           "aborted": [r["result"].get("aborted") for r in records if r not in finished][:5],
           "mean_turns": round(sum(r["turns"] for r in records) / len(records), 3),
           "mean_decisions": round(sum(len(r["actions"]) for r in records) / len(records), 3),
           "wins_by_seat": wins, "mean_score_by_seat": [round(s / len(records), 3) for s in scores],
           "digest": digest(records), "seconds": round(elapsed, 3), "workers": args.workers,
           "playouts_per_s": round(len(records) / elapsed, 2) if elapsed > 0 else None}
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        for k, v in out.items():
            print(f"{k:20} {v}")
    return 0 if len(finished) == len(records) else 1


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
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise BadRecord(f"cannot read record {path}: {err}") from None
    if not text.strip():
        raise BadRecord(f"{path} is empty: no record to replay")
    try:
        return [json.loads(text)]
    except (json.JSONDecodeError, RecursionError):
        pass
    try:
        # `simulate --records` writes one record a line.
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except (json.JSONDecodeError, RecursionError) as err:
        raise BadRecord(f"cannot read record {path}: {err}") from None


def _replay_one(name: str, record: object, folder: str | None) -> int:
    """Replays one record; returns 0 when it matches, 1 when it does not."""
    if not isinstance(record, dict) or record.get("cairn_record") is None:
        raise BadRecord(f"{name} is not a Cairn game record")
    shape = {"game": str, "players": int, "seed": int, "actions": list, "result": (dict, type(None)),
             "final_state_sha256": str}
    for key, kind in shape.items():
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            raise BadRecord(f"{name}: field '{key}' is missing or not a {getattr(kind, '__name__', 'record')}")
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in record["actions"]):
        raise BadRecord(f"{name}: 'actions' must be a list of option numbers")
    variants = record.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise BadRecord(f"{name}: 'variants' must be a list of variant names")
    where = folder or record.get("definitions_path") or record["game"]
    if not isinstance(where, str):
        raise BadRecord(f"{name}: 'definitions_path' must be a folder")
    g = load(where, variants)
    if g.id != record["game"]:
        raise BadRecord(f"{name} is a record of {record['game']}, not of {g.id}")
    ok, why = replay(g, record)
    print(("ok: " if ok else "MISMATCH: ") + why)
    return 0 if ok else 1
