"""`cairn migrate DIR`: rewrites a game folder (or one overlay file) of an older definition
format into the current one, keeping its comments and layout (load/migrate.py); prints
what it changed, and what it could not change mechanically with its file:line:col."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..load import formats, migrate
from ..load.files import display_path, resolve_game
from .common import UsageError


def cmd_migrate(args: argparse.Namespace) -> int:
    target = Path(args.target)
    plans = _plans(target)
    needed = [p for p in plans if p.needed]
    problems = [d for p in plans for d in p.problems]
    writes = not (args.check or args.dry_run) and migrate.write(plans)
    if args.json:
        print(json.dumps(_summary(target, plans, writes), indent=2, ensure_ascii=False))
    else:
        _report(display_path(target), plans, args)
    if args.check:
        return 1 if needed else 0
    return 1 if problems else 0


def _report(where: str, plans: list[migrate.FilePlan], args: argparse.Namespace) -> None:
    needed = [p for p in plans if p.needed]
    if not needed:
        print(f"{where}: nothing to migrate: it is format {formats.CURRENT}, the current one")
        return
    if args.check:
        for p in needed:
            for d in p.problems:
                print(d)
            if p.new is not None or p.rename is not None:
                print(f"{p.display}: written in an older format: run cairn migrate {where}")
        return
    for p in plans:
        for line in p.changes:
            print(line)
        for d in p.notes:
            print(d)
        if args.dry_run:
            sys.stdout.write(migrate.diff(p))
    problems = [d for p in plans for d in p.problems]
    for d in problems:
        print(d, file=sys.stderr)
    if problems:
        print(f"nothing {'would be ' if args.dry_run else ''}written: {len(problems)} thing(s) to change by hand "
              f"first (above), then run cairn migrate {where} again", file=sys.stderr)
        return
    print(f"{'would migrate' if args.dry_run else 'migrated'} {len(needed)} file(s) to format {formats.CURRENT}"
          + ("" if args.dry_run or not Path(where).is_dir() else f"; check it with: cairn validate {where}"),
          file=sys.stderr)


def _summary(target: Path, plans: list[migrate.FilePlan], written: bool) -> dict:
    """Returns the --json document: what each file needs, and whether it was written."""
    return {"target": display_path(target), "format": formats.CURRENT, "written": written,
            "needed": any(p.needed for p in plans),
            "files": [{"file": p.display, "needed": p.needed, "changes": p.changes,
                       "renamed_to": p.rename.name if p.rename else None,
                       "problems": [d.as_json() for d in p.problems], "notes": [d.as_json() for d in p.notes]}
                      for p in plans]}


def _plans(target: Path) -> list[migrate.FilePlan]:
    """Returns the plans for a game folder, or for one overlay file."""
    if target.is_file() and target.suffix in (".yaml", ".yml") and target.name != "game.yaml":
        return [migrate.plan_file(target, "variant")]
    folder = resolve_game(str(target)) if target.exists() else None
    if folder is None:
        raise UsageError(f"{target} is not a game folder (a folder with game.yaml) or an overlay file")
    return migrate.plan_folder(folder)
