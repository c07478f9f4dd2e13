"""The `cairn` command: list, validate, manifest, play, simulate, replay.

Results go to stdout, progress and diagnostics to stderr; `--json` prints one JSON
document and nothing else. Exit status: 0 ok, 1 failure (invalid definitions, a record
that does not replay), 2 usage error.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Sequence

from ..agents import AGENTS, make_agents
from ..diagnostics import DefinitionError, Diagnostic
from ..engine.game import CompiledGame, GameState
from ..load.build import build, list_variants, load_game
from ..load.files import display_path, game_ids, read_part, resolve_game
from ..batch import simulate
from ..records import digest, make_record, replay


class UsageError(Exception):
    """A bad command line (exit status 2)."""


def _load(game: str, variants: Sequence[str]) -> CompiledGame:
    if resolve_game(game) is None:
        raise UsageError(f"no game '{game}'; known: {', '.join(game_ids())}")
    return load_game(game, list(variants))


def cmd_list(args: argparse.Namespace) -> int:
    rows = []
    for gid in game_ids():
        try:
            g = load_game(gid)
            rows.append({"id": gid, "name": g.name, "players": [g.min_players, g.max_players],
                         "variants": list_variants(gid)})
        except DefinitionError as err:
            rows.append({"id": gid, "error": f"{len(err.diagnostics)} problem(s); run cairn validate {gid}",
                         "variants": list_variants(gid)})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for r in rows:
        players = f"{r['players'][0]}-{r['players'][1]} players" if "players" in r else r["error"]
        print(f"{r['id']:20} {r.get('name', ''):20} {players}")
        for vid, name in r["variants"].items():
            print(f"    --variant {vid:16} {name}")
    return 0


def validate_targets(targets: Sequence[str], variants: Sequence[str]) -> tuple[list[Diagnostic], list[str]]:
    """Returns (problems, what was checked): the base game, each variant alone, and the
    given combination."""
    problems: list[Diagnostic] = []
    checked: list[str] = []
    for target in targets:
        folder = resolve_game(target)
        if folder is None:
            raise UsageError(f"'{target}' is neither a game id nor a folder with game.yaml")
        combos: list[list[str]] = [list(variants)]
        if not variants:
            for vid in list_variants(folder):
                combos.append([vid])
        for combo in combos:
            _game, diags = build(folder, combo)
            checked.append(f"{target}" + (f" --variant {' --variant '.join(combo)}" if combo else ""))
            for d in diags:
                if d not in problems:
                    problems.append(d)
            if diags and not combo:
                break  # the base is broken: variant checks would repeat its problems
        for path in sorted((folder / "scenarios").glob("*.yaml")):
            _loaded, diags = read_part(path, display_path(path), "scenario")
            problems.extend(d for d in diags if d not in problems)
    return problems, checked


def cmd_validate(args: argparse.Namespace) -> int:
    problems, checked = validate_targets(args.targets, args.variant)
    if args.format == "json":
        print(json.dumps([d.as_json() for d in problems], indent=2, ensure_ascii=False))
    else:
        for d in problems:
            print(d)
        print(f"{'valid' if not problems else f'{len(problems)} problem(s)'}: checked "
              + "; ".join(checked), file=sys.stderr)
    return 1 if problems else 0


def cmd_manifest(args: argparse.Namespace) -> int:
    g = _load(args.game, args.variant)
    if args.players is not None and not g.min_players <= args.players <= g.max_players:
        raise UsageError(f"{g.id} takes {g.min_players}-{g.max_players} players")
    from ..load.abilities import ability_count
    out = {"game": g.id, "variants": list(g.variants), "components": g.manifest(),
           "abilities": ability_count(g.abilities),
           "objects_with_abilities": len({ab.key.rpartition("#")[0] for ab in g.abilities.by_key.values()})}
    if args.by:
        # A breakdown of each kind by one property, e.g. --by type: card -> {clan: 4, ...}.
        groups: dict[str, dict[str, int]] = {}
        for obj, kind, _start in g.components:
            value = g.props[obj].get(args.by)
            if value is not None:
                key = str(value)
                groups.setdefault(kind, {})
                groups[kind][key] = groups[kind].get(key, 0) + 1
        out["by"] = {args.by: groups}
    if args.players is not None:
        # The box is the same for any player count; this checks the count and that setup runs.
        g.new_initial_state(args.players, 0, log=False)
        out["players"] = args.players
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for kind, n in sorted(out["components"].items()):
            print(f"{kind:24} {n}")
            for value, m in sorted(out.get("by", {}).get(args.by, {}).get(kind, {}).items()):
                print(f"  {args.by}={value:18} {m}")
        if out["abilities"]:
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(out["abilities"].items()))
            print(f"abilities: {kinds}, on {out['objects_with_abilities']} object definition(s)")
    return 0


def _seats(spec: str | None, n: int, default: str) -> list[str]:
    names = [s.strip() for s in (spec or default).split(",") if s.strip()]
    while len(names) < n:
        names.append(names[-1] if names else "random")
    for s in names:
        if s != "human" and s not in AGENTS:
            raise UsageError(f"unknown seat kind '{s}'; use human or one of {', '.join(AGENTS)}")
    return names[:n]


def cmd_play(args: argparse.Namespace) -> int:
    g = _load(args.game, args.variant)
    n = args.players or (len(args.seats.split(",")) if args.seats else g.min_players)
    if not g.min_players <= n <= g.max_players:
        raise UsageError(f"{g.id} takes {g.min_players}-{g.max_players} players, got {n}")
    seats = _seats(args.seats, n, "human,random")
    bots = make_agents([s if s != "human" else "random" for s in seats], n, args.seed)
    state = g.new_initial_state(n, args.seed)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    printed = 0
    print(f"{g.name}: {n} players ({', '.join(f'{g.player_name(i)}={s}' for i, s in enumerate(seats))}), "
          f"seed {args.seed}" + (f", variants {', '.join(g.variants)}" if g.variants else ""))

    def flush_log() -> None:
        nonlocal printed
        lines = state.d["log"]
        for text, to in lines[printed:]:
            if to is None or to == viewer or viewer is None and not humans:
                print(f"  {text}")
        printed = len(lines)

    while not state.is_terminal():
        flush_log()
        p = state.current_player()
        if seats[p] == "human":
            state.apply_action(_ask_human(state, p))
        else:
            state.apply_action(bots[p].step(state))
    flush_log()
    r = state.d["result"]
    print(f"Result ({r['reason']}): " + ", ".join(f"{g.player_name(p)} {r['scores'][p]}" for p in range(n)))
    print("Winner(s): " + (", ".join(g.player_name(p) for p in r["winners"]) or "none"))
    if args.record:
        Path(args.record).write_text(json.dumps(make_record(state, seats), indent=1), "utf-8")
        print(f"record written to {args.record}", file=sys.stderr)
    return 0


def _ask_human(state: GameState, p: int) -> int:
    dec = state.decision()
    print()
    print(state.observation_string(p))
    print(f"\n{state.game.player_name(p)}: {dec['prompt']}")
    for i, label in enumerate(dec["labels"]):
        print(f"  [{i + 1}] {label}")
    while True:
        try:
            raw = input("> ").strip()
        except EOFError:
            raise UsageError("input ended before the game did") from None
        if raw.isdigit() and 1 <= int(raw) <= len(dec["labels"]):
            return int(raw) - 1
        if raw == "?":
            print(state.observation_string(p))
            print(f"\n{state.game.player_name(p)}: {dec['prompt']}")
            for i, label in enumerate(dec["labels"]):
                print(f"  [{i + 1}] {label}")
            continue
        if raw in ("q", "quit"):
            raise KeyboardInterrupt
        print(f"type a number from 1 to {len(dec['labels'])} (? shows the game again, q quits)")


def cmd_simulate(args: argparse.Namespace) -> int:
    g = _load(args.game, args.variant)
    n = args.players or g.min_players
    if not g.min_players <= n <= g.max_players:
        raise UsageError(f"{g.id} takes {g.min_players}-{g.max_players} players, got {n}")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    for a in agents:
        if a not in AGENTS:
            raise UsageError(f"unknown agent '{a}'; known: {', '.join(AGENTS)}")
    show = sys.stderr.isatty() and not args.quiet
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")

    def progress(done: int) -> None:
        if show:
            bar = "#" * (30 * done // args.games)
            print(f"\r[{bar:30}] {done}/{args.games}", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    spec = str(resolve_game(args.game))
    records = simulate(spec, tuple(args.variant), n, args.games, args.seed, agents,
                       workers=args.workers, progress=progress)
    elapsed = time.perf_counter() - start
    if show:
        print(file=sys.stderr)
    if args.records:
        # One game record per line: each replays with `cairn replay` once split out.
        with open(args.records, "w", encoding="utf-8") as fh:
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


def cmd_scenarios(args: argparse.Namespace) -> int:
    from ..scenarios import run_file, scenario_files
    failed = passed = 0
    for target in args.targets:
        folder = resolve_game(target)
        if folder is not None:
            paths = scenario_files(folder)
        elif target.endswith((".yaml", ".yml")) and Path(target).is_file():
            paths = [Path(target)]
        else:
            raise UsageError(f"'{target}' is neither a game id, a folder with game.yaml, nor a scenario file")
        for path in paths:
            for outcome in run_file(path):
                if outcome.ok:
                    passed += 1
                    if args.verbose:
                        print(f"ok    {outcome.name}")
                else:
                    failed += 1
                    print(f"FAIL  {outcome.where}: {outcome.name} [{outcome.rule}]")
                    for f in outcome.failures:
                        print(f"      {f}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_lint(args: argparse.Namespace) -> int:
    from ..lint import lint
    found = []
    for target in args.targets:
        folder = resolve_game(target)
        if folder is None:
            raise UsageError(f"'{target}' is neither a game id nor a folder with game.yaml")
        _load(str(folder), args.variant)      # it must compile first
        found.extend(lint(folder, args.variant))
    if args.json:
        print(json.dumps([f.as_json() for f in found], indent=2, ensure_ascii=False))
    else:
        for f in found:
            print(f)
        print(f"{len(found)} rule(s) dispatch on an object's id or kind", file=sys.stderr)
    return 1 if found else 0


def cmd_diff(args: argparse.Namespace) -> int:
    from ..diff import diff, load_spec, model, render
    left = resolve_game(args.game)
    right = resolve_game(args.other) if args.other else left
    for name, folder in ((args.game, left), (args.other, right)):
        if folder is None:
            raise UsageError(f"'{name}' is neither a game id nor a folder with game.yaml")
    if not args.other and not args.variant:
        raise UsageError("give a second game or folder, or --variant: what should the game be compared with?")
    a = model(load_spec(left, args.base_variant))
    b = model(load_spec(right, args.variant))
    changes = diff(a, b)

    def side(target: str, variants: list[str]) -> str:
        return target + "".join(f" --variant {v}" for v in variants)
    lname, rname = side(args.game, args.base_variant), side(args.other or args.game, args.variant)
    if args.json:
        print(json.dumps({"left": lname, "right": rname, "changes": [c.as_json() for c in changes]},
                         indent=1, ensure_ascii=False))
    else:
        print(render(changes, lname, rname))
    return 1 if changes else 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.record).read_text("utf-8")
        try:
            records = [json.loads(text)]
        except json.JSONDecodeError:
            # `simulate --records` writes one record a line.
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as err:
        raise UsageError(f"cannot read record {args.record}: {err}") from None
    failures = 0
    for record in records:
        failures += _replay_one(args.record, record)
    if len(records) > 1:
        print(f"{len(records) - failures} of {len(records)} records replayed identically")
    return 1 if failures else 0


def _replay_one(name: str, record: object) -> int:
    """Replays one record; returns 0 when it matches, 1 when it does not."""
    if not isinstance(record, dict) or record.get("cairn_record") is None:
        raise UsageError(f"{name} is not a Cairn game record")
    shape = {"game": str, "players": int, "seed": int, "actions": list, "result": (dict, type(None)),
             "final_state_sha256": str}
    for key, kind in shape.items():
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            raise UsageError(f"{name}: field '{key}' is missing or not a {getattr(kind, '__name__', 'record')}")
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in record["actions"]):
        raise UsageError(f"{name}: 'actions' must be a list of option numbers")
    if not isinstance(record.get("variants", []), list):
        raise UsageError(f"{name}: 'variants' must be a list")
    g = _load(record["game"], record.get("variants", []))
    if record.get("definitions_version") != g.version:
        print(f"note: record made with definitions {record.get('definitions_version')}, "
              f"now {g.version}", file=sys.stderr)
    ok, why = replay(g, record)
    print(("ok: " if ok else "MISMATCH: ") + why)
    return 0 if ok else 1


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="cairn", description="Cairn: tabletop rules as data.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="games and their variants")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("validate", help="check definitions; problems as file:line:col: message")
    p.add_argument("targets", nargs="+", metavar="GAME_OR_PATH")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_validate)
    p = sub.add_parser("manifest", help="the encoded box inventory")
    p.add_argument("game")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--players", type=int)
    p.add_argument("--by", metavar="PROP", help="also count each kind by a property (e.g. type)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_manifest)
    p = sub.add_parser("play", help="play in the terminal; bots fill seats")
    p.add_argument("game")
    p.add_argument("--players", type=int)
    p.add_argument("--seats", help="comma list of human/random/first per seat (default human,random,...)")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", help="write the game record (JSON) here")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("simulate", help="many bot games; statistics and a digest")
    p.add_argument("game")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--agents", default="random")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--workers", type=int, default=1, help="processes to play in (same results for any number)")
    p.add_argument("--records", metavar="FILE", help="write every game record here, one JSON object a line")
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("scenarios", help="run a game's rule scenarios (scenarios/*.yaml)")
    p.add_argument("targets", nargs="+", metavar="GAME_OR_PATH")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing scenarios too")
    p.set_defaults(func=cmd_scenarios)
    p = sub.add_parser("lint", help="find base rules that branch on an object's id or on a power's name")
    p.add_argument("targets", nargs="+", metavar="GAME_OR_PATH")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_lint)
    p = sub.add_parser("diff", help="what an expansion, variant or edited copy changes, rule by rule",
                       description="Compares GAME (with --base-variant) with OTHER, or with GAME itself "
                                   "(with --variant): parameters, steps, objects, abilities, procedures... "
                                   "Exit 0 when nothing differs, 1 when something does.")
    p.add_argument("game", metavar="GAME_OR_PATH")
    p.add_argument("other", nargs="?", metavar="OTHER_GAME_OR_PATH")
    p.add_argument("--variant", action="append", default=[], help="variant applied to the right side")
    p.add_argument("--base-variant", action="append", default=[], help="variant applied to the left side")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_diff)
    p = sub.add_parser("replay", help="re-run a game record and check it")
    p.add_argument("record")
    p.set_defaults(func=cmd_replay)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except UsageError as err:
        print(f"cairn: {err}", file=sys.stderr)
        return 2
    except DefinitionError as err:
        for d in err.diagnostics:
            print(d, file=sys.stderr)
        return 1
    except ValueError as err:
        print(f"cairn: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
