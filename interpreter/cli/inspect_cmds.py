"""The commands that read definitions without playing: list, validate, manifest, lint,
diff and scenarios."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

from ..diagnostics import DefinitionError, Diagnostic, bounded
from ..load.build import build, example_variants, list_variants, load_game, no_cycle_collection
from ..load.files import display_path, game_ids, read_part, resolve_game
from .common import UsageError, check_players, game_folder, load, plural, warn_old_formats
from ..words import span


def cmd_list(args: argparse.Namespace) -> int:
    rows = []
    for gid in game_ids():
        try:
            g = load_game(gid)
            rows.append({"id": gid, "name": g.name, "players": [g.min_players, g.max_players],
                         "variants": list_variants(gid), "examples": example_variants(gid)})
        except DefinitionError as err:
            rows.append({"id": gid, "error": f"{len(err.diagnostics)} problem(s); run cairn validate {gid}",
                         "variants": list_variants(gid), "examples": example_variants(gid)})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for r in rows:
        players = span(r["players"][0], r["players"][1], "player") if "players" in r else r["error"]
        print(f"{r['id']:20} {r.get('name', ''):20} {players}")
        for vid, name in r["variants"].items():
            mark = "  [example: invented for Cairn]" if vid in r["examples"] else ""
            print(f"    --variant {vid:16} {name}{mark}")
    return 0


def validate_targets(targets: Sequence[str], variants: Sequence[str]) -> tuple[list[Diagnostic], list[str]]:
    """Returns (problems, what was checked): the base game, each variant alone, the given
    combination, and the scenario files."""
    problems: list[Diagnostic] = []
    checked: list[str] = []
    for target in targets:
        folder = game_folder(target)
        found, seen = remembered_verdict(target, folder, variants)
        problems.extend(d for d in found if d not in problems)
        checked.extend(seen)
    return problems, checked


def remembered_verdict(target: str, folder: Path, variants: Sequence[str]) -> tuple[list[Diagnostic], list[str]]:
    """Returns validate's verdict on one game, kept in Cairn's cache under a digest of all
    it depends on: every file of the game's folder, the overlay files named, the names
    the problems are shown by (the working folder), and all of Cairn's own code and data.
    A kept verdict is the one checking again would give; any edit is a new digest. It is
    kept as JSON (plain data), sealed to its name like every entry: a verdict copied from
    another game's entry fails the check and the game is checked again."""
    from ..load import cache
    from ..load.expansion import named
    from ..load.files import definitions_root
    if cache.cache_dir() is None:
        return verdict(target, folder, variants)
    overlays = [cache.folder_digest(n.folder) if n.folder else cache.digest(str(n.overlay.resolve()), cache.file_digest(n.overlay).hex())
                for n in map(named, variants) if n.overlay is not None]
    name = "validate-" + cache.digest(cache.cairn_digest(), str(Path.cwd().resolve()), str(definitions_root().resolve()),
                                      target, *variants, "|", *overlays, cache.folder_digest(folder)) + ".json"
    kept = _kept_verdict(cache.load_json(name))
    if kept is not None:
        return kept
    out = verdict(target, folder, variants)
    cache.store_json(name, {"problems": [[d.file, d.line, d.column, d.message, d.severity] for d in out[0]],
                            "checked": out[1]})
    return out


def _kept_verdict(kept: object) -> tuple[list[Diagnostic], list[str]] | None:
    """Returns a verdict from its JSON entry, or None when it is not of that shape."""
    if not isinstance(kept, dict):
        return None
    problems, checked = kept.get("problems"), kept.get("checked")
    if not isinstance(problems, list) or not isinstance(checked, list) or \
            not all(isinstance(c, str) for c in checked):
        return None
    out = []
    for p in problems:
        if not (isinstance(p, list) and len(p) == 5 and [type(x) for x in p] == [str, int, int, str, str]):
            return None
        out.append(Diagnostic(*p))
    return out, checked


def verdict(target: str, folder: Path, variants: Sequence[str]) -> tuple[list[Diagnostic], list[str]]:
    """Returns (problems, what was checked) for one game: its base, each variant alone (or
    the given combination), its edition comparisons and its scenario files."""
    with no_cycle_collection():     # a few builds' worth of objects, almost none garbage
        return _verdict(target, folder, variants)


def _verdict(target: str, folder: Path, variants: Sequence[str]) -> tuple[list[Diagnostic], list[str]]:
    problems: list[Diagnostic] = []
    checked: list[str] = []
    combos: list[list[str]] = [list(variants)]
    if not variants:
        combos += [[vid] for vid in list_variants(folder)]
    from ..scenarios import game_key, static_problems
    games: dict = {}     # each build is checked once: the scenario checks reuse it
    for combo in combos:
        game, diags = build(folder, combo, lean=True)
        if game is not None:
            games[game_key(folder, tuple(combo))] = game
        checked.append(f"{target}" + "".join(f" --variant {v}" for v in combo))
        problems.extend(d for d in diags if d not in problems)
        if diags and not combo:
            break  # the base is broken: variant checks would repeat its problems
    from ..editions import problems as edition_problems
    problems.extend(d for d in edition_problems(folder) if d not in problems)
    from ..anchors import problems as anchor_problems
    problems.extend(d for d in anchor_problems(folder, list(variants)) if d not in problems)
    from ..load.expansion import expansion_scenarios
    for path in sorted((folder / "scenarios").glob("*.yaml")) + expansion_scenarios(variants):
        problems.extend(d for d in static_problems(path, games) if d not in problems)
    return problems, checked


def cmd_validate(args: argparse.Namespace) -> int:
    problems, checked = validate_targets(args.targets, args.variant)
    from .anchors_cmd import validate_problems      # the rulebook files are read each time: never kept
    found, read = validate_problems(args.targets, args.variant, getattr(args, "rulebook", []))
    problems.extend(d for d in found if d not in problems)
    checked.extend(read)
    for target in args.targets:     # files of an older format load, with one warning each
        warn_old_formats(resolve_game(target), args.variant)
    if args.json:
        print(json.dumps([d.as_json() for d in bounded(problems)], indent=2, ensure_ascii=False))
    else:
        for d in bounded(problems):
            print(d)
        print(f"{'valid' if not problems else plural(len(problems), 'problem')}: checked " + "; ".join(checked),
              file=sys.stderr)
    return 1 if problems else 0


def cmd_manifest(args: argparse.Namespace) -> int:
    from ..load.abilities import ability_count
    g = load(args.game, args.variant)
    if args.players is not None:
        check_players(g, args.players)
    out = {"game": g.id, "variants": list(g.variants), "components": g.manifest(),
           "abilities": ability_count(g.abilities),
           "objects_with_abilities": len({ab.key.rpartition("#")[0] for ab in g.abilities.by_key.values()})}
    if args.by == "provenance":
        # Not a property: where the definitions say each object comes from (provenance.py).
        from ..diff import load_spec
        from ..provenance import board_of, box_by_provenance, totals
        spec = load_spec(game_folder(args.game), list(args.variant))
        out["by"] = {"provenance": box_by_provenance(spec)}
        out["provenance"] = {"box": totals(out["by"]["provenance"]), "board": board_of(spec)}
    elif args.by:
        # A breakdown of each kind by one property, e.g. --by type: card -> {clan: 4, ...}.
        groups: dict[str, dict[str, int]] = {}
        for obj, kind, _start in g.components:
            value = g.props[obj].get(args.by)
            if value is not None and obj not in g.printed:
                groups.setdefault(kind, {})
                groups[kind][str(value)] = groups[kind].get(str(value), 0) + 1
        out["by"] = {args.by: groups}
    if args.players is not None:
        # The box is the same for any player count; this checks the count and that setup runs.
        g.new_initial_state(args.players, 0, log=False)
        out["players"] = args.players
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for kind, n in sorted(out["components"].items()):
        print(f"{kind:24} {n}")
        for value, m in sorted(out.get("by", {}).get(args.by, {}).get(kind, {}).items()):
            print(f"  {args.by}={value:18} {m}")
    if "provenance" in out:
        box, board = out["provenance"]["box"], out["provenance"]["board"]
        print("box by provenance: " + ", ".join(f"{k} {n}" for k, n in sorted(box.items()))
              + (f"; board: {board['provenance']} ({plural(board['spaces'], 'space')})" if board else ""))
    if out["abilities"]:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(out["abilities"].items()))
        print(f"abilities: {kinds}, on {plural(out['objects_with_abilities'], 'object definition')}")
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    from ..lint import lint
    found = []
    for target in args.targets:
        folder = game_folder(target)
        load_game(folder, args.variant)      # it must compile first
        found.extend(lint(folder, args.variant, quantities=True))
    advice = [f for f in found if f.check == "quantity"]
    errors = [f for f in found if f.check != "quantity"]
    if args.json:
        print(json.dumps([f.as_json() for f in found], indent=2, ensure_ascii=False))
    else:
        for f in found:
            print(f)
        print(f"{plural(len(errors), 'rule')} dispatch on an object's id or kind; "
              f"{plural(len(advice), 'function')} {'computes' if len(advice) == 1 else 'compute'} a rule number without a quantity", file=sys.stderr)
    return 1 if errors or (args.strict and advice) else 0


def cmd_diff(args: argparse.Namespace) -> int:
    from ..diff import attribute, diff, load_spec, model, render
    if not args.other and not args.variant:
        raise UsageError("give a second game or folder, or --variant: what should the game be compared with?")
    left = game_folder(args.game)
    right = game_folder(args.other) if args.other else left
    changes = diff(model(load_spec(left, args.base_variant)), model(load_spec(right, args.variant)))
    if not args.other:      # several expansions together: which one makes each change
        attribute(changes, left, args.base_variant, args.variant)

    def side(target: str, variants: list[str]) -> str:
        return target + "".join(f" --variant {v}" for v in variants)
    lname, rname = side(args.game, args.base_variant), side(args.other or args.game, args.variant)
    from ..editions import describe, play_differences
    editions = [d for v in args.variant for d in play_differences(right, v)] if not args.other else []
    if args.json:
        print(json.dumps({"left": lname, "right": rname, "changes": [c.as_json() for c in changes],
                          "edition_differences": editions}, indent=1, ensure_ascii=False))
    else:
        print(render(changes, lname, rname))
        if editions:
            print(f"\nedition differences that change play ({len(editions)}):")
            for d in editions:
                print("\n".join(describe(d)))
    return 1 if changes else 0


def _scenario_paths(targets: Sequence[str]) -> list[Path]:
    from ..scenarios import scenario_files
    paths: list[Path] = []
    folder = None
    for target in targets:
        if target.endswith((".yaml", ".yml")):
            path = Path(target)
            if not os.path.lexists(path) and folder is not None:
                path = folder / "scenarios" / target      # a file of the game named before it
            if not os.path.lexists(path):                 # anything else there is read, and refused with why
                raise UsageError(f"no scenario file {target}")
            paths.append(path)
        else:
            folder = game_folder(target)
            if not any(t.endswith((".yaml", ".yml")) for t in targets):
                paths.extend(scenario_files(folder))
    return paths


def _with_expansions(paths: list[Path], variants: Sequence[str]) -> list[tuple[Path, Callable[[dict], bool]]]:
    """Each scenario file to run with a test of which of its scenarios to run: with
    --variant, the game's scenarios that apply (those needing only variants given) and
    every scenario of the expansion folders given (they apply their own expansion)."""
    from ..load.expansion import expansion_scenarios, named
    problems = [n.problem for n in map(named, variants) if n.problem is not None]
    if problems:
        raise DefinitionError(problems)
    own = expansion_scenarios(variants)
    if not variants:
        return [(p, lambda sc: True) for p in paths]
    chosen = set(variants)

    def applies_in(path: Path) -> Callable[[dict], bool]:
        loaded, _problems = read_part(path, display_path(path), "scenario")
        needs = set(loaded.data.get("variants", [])) if loaded is not None else set()
        return lambda sc: not (needs | set(sc.get("variants", []))) - chosen
    return [(p, applies_in(p)) for p in paths if p not in own] + [(p, lambda sc: True) for p in own]


def cmd_scenarios(args: argparse.Namespace) -> int:
    import re
    from ..load.citations import cited
    from ..scenarios import run_file
    try:
        pattern = re.compile(args.k) if args.k else None
    except re.error as err:
        raise UsageError(f"-k {args.k}: {err}") from None
    rows = []
    for path, applies in _with_expansions(_scenario_paths(args.targets), args.variant):
        for outcome in run_file(path, select=lambda sc: applies(sc) and (
                                    pattern is None or pattern.search(sc["name"]) is not None
                                    or any(pattern.search(c) for c in cited(sc["rule"])))):
            rows.append({"name": outcome.name, "clauses": cited(outcome.rule), "where": outcome.where,
                         "ok": outcome.ok, "failures": outcome.failures, "seconds": round(outcome.seconds, 4)})
    passed = sum(1 for r in rows if r["ok"])
    failed = len(rows) - passed
    if args.junit:
        Path(args.junit).write_text(_junit(rows), "utf-8")
    if args.json:
        print(json.dumps({"passed": passed, "failed": failed, "scenarios": rows}, indent=1, ensure_ascii=False))
        return 1 if failed else 0
    for r in rows:
        if not r["ok"]:
            print(f"FAIL  {r['where']}: {r['name']} [{', '.join(r['clauses'])}]")
            for f in r["failures"]:
                print(f"      {f}")
        elif args.verbose:
            print(f"ok    {r['name']} [{', '.join(r['clauses'])}]")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _junit(rows: list[dict]) -> str:
    from xml.sax.saxutils import escape, quoteattr
    cases = []
    for r in rows:
        head = f'<testcase classname={quoteattr(r["where"].split(":")[0])} name={quoteattr(r["name"])} time="{r["seconds"]}">'
        body = "" if r["ok"] else f'<failure message={quoteattr(r["failures"][0] if r["failures"] else "failed")}>' \
                                   f'{escape(chr(10).join(r["failures"]))}</failure>'
        props = "".join(f'<property name="clause" value={quoteattr(c)}/>' for c in r["clauses"])
        cases.append(f"{head}<properties>{props}</properties>{body}</testcase>")
    failed = sum(1 for r in rows if not r["ok"])
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuite name="cairn scenarios" tests="{len(rows)}" '
            f'failures="{failed}">' + "".join(cases) + "</testsuite>\n")


def cmd_coverage(args: argparse.Namespace) -> int:
    from ..coverage import report
    from ..load.build import build as build_game
    folder = game_folder(args.game)
    g, diags = build_game(folder, list(args.variant), trace=True)
    if g is None:
        raise DefinitionError(diags)
    if not g.clauses:
        raise UsageError(f"{g.id} has no clause index (rules.yaml): nothing to cover")
    n = args.players if args.players is not None else max(g.min_players, min(3, g.max_players))
    check_players(g, n)
    rows, totals = report(g, folder, list(args.variant), n, args.games, args.seed)
    from .anchors_cmd import places
    where = places(folder, args.variant, getattr(args, "rulebook", []))
    if where is not None:
        for r in rows:
            r.anchors = where.places.get(r.id, [])
        totals["anchored"] = sum(1 for r in rows if r.anchors)
    doc = {"game": g.id, "variants": list(g.variants), "players": n, "games": args.games,
           "clauses": [r.as_json(args.games) for r in rows], "totals": totals}
    if args.html:
        from ..coverage_html import page
        Path(args.html).write_text(page(doc), "utf-8")
        print(f"report written to {args.html}", file=sys.stderr)
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
    else:
        print(_coverage_text(rows, totals, args.games))
    return 1 if args.fail_under is not None and totals["all"]["percent"] < args.fail_under else 0


def _ran(exercised: int | None, measured: str, games: int) -> str:
    """Returns how often random play reached a clause, and in which games if not the ones asked for."""
    if exercised is None:
        return measured
    return f"ran in {exercised}/{games}" + (f" ({measured})" if measured else "")


def _coverage_text(rows: list, totals: dict, games: int) -> str:
    """Returns the text report: one line a clause, the failing scenarios under their clause."""
    from ..provenance import summary
    lines = []
    for r in rows:
        mark = "ok " if r.encoded_by and r.passing else "-- "
        ex = f"  {_ran(r.exercised, r.measured, games)}" if games else ""
        lines.append(f"{mark}{r.id:28} {r.kind:10} encoded {len(r.encoded_by):2}  tested {len(r.passing):2}{ex}"
                     + (f"  readings {len(r.readings)}" if r.readings else "")
                     + (f"  rests on {summary(r.rests_on)}" if r.rests_on else "")
                     + (f"  [{r.origin}]" if r.origin != "rulebook" else "")
                     + (f"  {_anchor_text(r.anchors)}" if r.anchors is not None else ""))
        for t in r.failing:
            lines.append(f"     failing scenario: {t['name']} ({t['where']})"
                         + (f": {t['failures'][0]}" if t["failures"] else ""))
    t = totals["all"]
    lines.append(f"{t['encoded_and_tested']} of {t['clauses']} clauses encoded and tested by passing scenarios "
                 f"({t['percent']}%)" + (f"; {t['exercised']} of the {t['measured']} carried by programs reached by {games} random games"
                    " where they apply" if games else "")
                 + (f"; {plural(totals['failed_scenarios'], 'scenario')} failing" if totals["failed_scenarios"] else ""))
    lines.append(f"{totals['resting_on_reconstructed']} clauses rest on reconstructed content")
    if "anchored" in totals:
        lines.append(f"{totals['anchored']} of {len(rows)} clauses anchored to rulebook lines (cairn anchors GAME checks them)")
    if totals["invented"]["clauses"]:
        i, b = totals["invented"], totals["rulebook"]
        lines.append(f"rulebook: {b['encoded_and_tested']} of {b['clauses']} clauses encoded and tested; invented "
                     f"(example expansion): {i['encoded_and_tested']} of {i['clauses']}")
    return "\n".join(lines)


def _anchor_text(anchors: list[dict]) -> str:
    """Returns where a clause stands in the rulebooks: "at my-game.en.txt 12-14", or "no anchor"."""
    if not anchors:
        return "no anchor"
    return "at " + "; ".join(f"{a['rulebook']} {a['lines']}" + (" (digest does not match)" if a["digest_ok"] is False else "")
                             for a in anchors)


def cmd_mutate(args: argparse.Namespace) -> int:
    from ..mutate import Plan, by_clause, choose, mutants, run, score, unreachable
    from ..scale import ScaleError, backend
    folder = game_folder(args.game)
    g = load_game(folder, list(args.variant))                  # it must compile first
    if args.clause is not None and args.clause not in g.clauses:
        from ..diagnostics import suggest
        raise UsageError(f"--clause {args.clause}: no such clause in {g.id}'s rules.yaml" + suggest(args.clause, g.clauses))
    if not 1 <= args.jobs <= 64:
        raise UsageError(f"--jobs {args.jobs}: give 1 to 64 processes")
    for flag, value in (("--limit", args.limit), ("--per-clause", args.per_clause)):
        if value is not None and value < 1:
            raise UsageError(f"{flag} {value}: give at least 1")
    if not 0 <= args.games <= 10_000:
        raise UsageError(f"--games {args.games}: give 0 to 10000")
    if args.players is not None and not g.min_players <= args.players <= g.max_players:
        raise UsageError(f"--players {args.players}: {g.id} takes {g.min_players} to {g.max_players}")
    try:
        backend(args.jobs, args.scheduler)
    except ScaleError as err:
        raise UsageError(f"--scheduler: {err}") from None
    found = mutants(folder, args.clause, list(args.variant), params_only=args.params_only)
    chosen, candidates = choose(found, folder, args.limit, args.per_clause, args.seed)
    if not chosen:
        raise UsageError(f"{args.game}: no rule to mutate" + (f" cites clause {args.clause}" if args.clause else ""))
    plan = Plan(tuple(args.variant), args.games, args.seed, args.players)
    try:
        verdicts = run(folder, chosen, args.jobs, plan, args.scheduler)
    except ScaleError as err:
        raise UsageError(f"--scheduler: {err}") from None
    totals = score(verdicts)
    doc = {"game": g.id, "variants": list(args.variant), "candidates": candidates, "seed": args.seed,
           "games": args.games, **totals, "verdicts": verdicts, "clauses": by_clause(verdicts),
           "unreachable_rules": unreachable(verdicts, g.readings)}
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
        return 0
    print(mutate_text(doc))
    return 0


def mutate_text(doc: dict) -> str:
    """Returns `cairn mutate`'s report: a line a clause, its survivors, the rules that never
    fired, and the score."""
    lines = []
    for cid, row in doc["clauses"].items():
        extra = "".join(f"  {k} {row[k]}" for k in ("invalid", "equivalent", "unreachable") if row[k])
        lines.append(f"{'ok ' if not row['survived'] else '-- '}{cid:28} mutants {row['mutants']:2}  "
                     f"killed {row['killed']:2}{extra}  survived {len(row['survived'])}")
        lines.extend(f"     survived: {change}" for change in row["survived"])
    for row in doc["unreachable_rules"]:
        kept = f"; readings {', '.join(row['readings'])}" if row["readings"] else ""
        lines.append(f"unreachable: {row['rule']} (clauses {', '.join(row['clauses'])}{kept}): dropping it changes "
                     f"no play in {doc['games']} seeded games")
        lines.extend(f"     {change}" for change in row["changes"])
    sampled = "" if doc["mutants"] == doc["candidates"] else \
        f" (a seeded sample of {doc['candidates']} candidates, seed {doc['seed']})"
    same = f"same play over {doc['games']} seeded games"
    lines.append(f"{doc['mutants']} mutants{sampled}: {doc['killed']} killed, {doc['survived']} survived, "
                 f"{doc['invalid']} invalid, {doc['equivalent']} equivalent ({same}), {doc['unreachable']} unreachable")
    lines.append("score: " + (f"{doc['score']}%" if doc["score"] is not None else "n/a")
                 + f" ({doc['killed']} killed of {doc['counted']}: made less invalid, equivalent and unreachable)")
    return "\n".join(lines)


def cmd_rules(args: argparse.Namespace) -> int:
    from ..rulesdoc import document, markdown, page
    folder = game_folder(args.game)
    side = getattr(args, "side_by_side", False)
    game = load_game(folder, args.variant)    # it must compile first
    by = getattr(args, "by", None) or ("clause" if game.clauses else "kind")
    if side and (by != "clause" or args.format != "html"):
        raise UsageError("--side-by-side is a page of the rules by clause: give --format html (and not --by kind)")
    if by == "clause":
        text = _rules_by_clause(args, folder, side)
    elif getattr(args, "rulebook", []):
        raise UsageError("--rulebook: the rules by kind do not show the rulebook; give --by clause")
    else:
        blocks = document(folder, list(args.variant))
        text = markdown(blocks) if args.format == "md" else page(blocks)
    if args.output:
        Path(args.output).write_text(text, "utf-8")
        print(f"written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _rules_by_clause(args: argparse.Namespace, folder: Path, side: bool) -> str:
    """Returns the rules by clause: with anchors, where each clause stands in the rulebook
    and, when its file is found, its lines (read now, never kept); side by side on request."""
    from .. import rulesdoc_clauses as by_clause
    from .anchors_cmd import places
    book = places(folder, args.variant, getattr(args, "rulebook", []))
    rows, title = by_clause.entries(folder, list(args.variant), book), by_clause.spec_title(folder, list(args.variant))
    if not rows:
        raise UsageError(f"{args.game} has no clause index (rules.yaml): there is nothing to order by")
    if side:
        if book is None or not book.found:
            from ..anchors_text import where_looked
            raise UsageError("--side-by-side needs the rulebook file beside the rules: " + (
                f"{args.game} has no anchors files (anchors/*.yaml)" if book is None else
                f"{book.primary} was not found ({where_looked(book.primary)})"))
        return by_clause.side_by_side(rows, title, book)
    return by_clause.markdown(rows, title) if args.format == "md" else by_clause.page(rows, title)
