"""`cairn migrate DIR`: rewrites a game folder (or one overlay file) of an older definition
format into the current one, keeping its comments and layout (load/migrate.py); prints
what it changed, and what it could not change mechanically with its file:line:col."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..load import formats, migrate
from ..load.files import display_path, resolve_game
from .common import UsageError


def cmd_migrate(args: argparse.Namespace) -> int:
    target = Path(args.target)
    plans = _plans(target)
    needed = [p for p in plans if p.needed]
    where = display_path(target)
    if not needed:
        print(f"{where}: nothing to migrate: it is format {formats.CURRENT}, the current one")
        return 0
    if args.check:
        for p in needed:
            print(f"{p.display}: written in an older format: run cairn migrate {where}")
        return 1
    for p in plans:
        for line in p.changes:
            print(line)
        for d in p.notes:
            print(d)
        if args.dry_run:
            sys.stdout.write(migrate.diff(p))
    problems = [d for p in plans for d in p.problems]
    for d in problems:
        print(f"{d}", file=sys.stderr)
    done = [p for p in needed if not p.problems]
    if not args.dry_run:
        migrate.write(plans)
    verb = "would migrate" if args.dry_run else "migrated"
    print(f"{verb} {len(done)} of {len(needed)} file(s) to format {formats.CURRENT}"
          + (f"; {len(problems)} thing(s) to rewrite by hand (above)" if problems else "")
          + ("" if args.dry_run or problems else f"; check it with: cairn validate {where}"), file=sys.stderr)
    return 1 if problems else 0


def _plans(target: Path) -> list[migrate.FilePlan]:
    """Returns the plans for a game folder, or for one overlay file."""
    if target.is_file() and target.suffix in (".yaml", ".yml") and target.name != "game.yaml":
        return [migrate.plan_file(target, "variant")]
    folder = resolve_game(str(target)) if target.exists() else None
    if folder is None:
        raise UsageError(f"{target} is not a game folder (a folder with game.yaml) or an overlay file")
    return migrate.plan_folder(folder)
