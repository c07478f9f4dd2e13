"""`cairn anchors GAME`: how much of each rulebook text file the game's anchors account
for, and the rulebook checks `cairn validate --rulebook` adds.

The rulebook's text is the user's: the report shows a line's text only on a terminal
(never in --json, nor when the output goes to a file or a pipe), line numbers always.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from ..anchors import AnchorsFile, ClauseIndex, anchor_paths, clause_index, read_anchors
from ..anchors_text import Check, RulebookProblem, RulebookView, check, fix_digests, locate, summary_of, view, where_looked
from ..diagnostics import DefinitionError, Diagnostic
from .common import UsageError, game_folder, plural


def game_anchors(folder: Path, variants: Sequence[str]) -> tuple[list[AnchorsFile], ClauseIndex]:
    """Returns a game's anchors files and clause index; DefinitionError when they do not read."""
    index, _build_problems = clause_index(folder, list(variants))
    files, problems = read_anchors(folder, index)
    if problems:
        raise DefinitionError(problems)
    return files, index


def rulebook_checks(folder: Path, variants: Sequence[str], given: Sequence[str]
                    ) -> tuple[list[Check], list[str]]:
    """Returns the checks of the anchors files whose rulebook was found, and a note for
    each one not found. A rulebook given that cannot be read is a UsageError."""
    files, index = game_anchors(folder, variants)
    try:
        where = locate(files, list(given), index.reference)
    except RulebookProblem as err:
        raise UsageError(str(err)) from None
    checks, missing = [], []
    for f in files:
        path = where[f.rulebook]
        if path is None:
            missing.append(f"{f.rulebook}: not found ({where_looked(f.rulebook)})")
            continue
        try:
            checks.append(check(f, path, index))
        except RulebookProblem as err:
            raise UsageError(str(err)) from None
    return checks, missing


def places(folder: Path, variants: Sequence[str], given: Sequence[str]) -> RulebookView | None:
    """Returns where each clause stands in the game's rulebooks (anchors_text.view), or
    None for a game without anchors files (then no --rulebook makes sense)."""
    if not anchor_paths(folder):
        if given:
            raise UsageError(f"--rulebook: {folder} has no anchors files (anchors/*.yaml) to read a rulebook by")
        return None
    files, index = game_anchors(folder, variants)
    try:
        return view(files, index, list(given))
    except RulebookProblem as err:
        raise UsageError(str(err)) from None


def validate_problems(targets: Sequence[str], variants: Sequence[str], given: Sequence[str]
                      ) -> tuple[list[Diagnostic], list[str]]:
    """Returns the digests of every anchor of the targets held against the rulebook files
    found (--rulebook, $CAIRN_RULEBOOKS), one problem per anchor that does not match, and
    the rulebook files read. Anchors files with problems of their own are reported by
    validate's other checks."""
    out: list[Diagnostic] = []
    read: list[str] = []
    for target in targets:
        folder = game_folder(target)
        if not anchor_paths(folder):
            if given:
                raise UsageError(f"--rulebook: {target} has no anchors files ({folder}/anchors/*.yaml) "
                                 "to hold a rulebook against")
            continue
        try:
            checks, _missing = rulebook_checks(folder, variants, given)
        except DefinitionError:
            continue        # reported by validate as the anchors files' own problems
        for c in checks:
            out.extend(c.diagnostics())
            read.append(f"the anchors of {target} against {c.rulebook}")
    return out, read


def cmd_anchors(args: argparse.Namespace) -> int:
    folder = game_folder(args.game)
    if not anchor_paths(folder):
        raise UsageError(f"{args.game} has no anchors files ({folder}/anchors/*.yaml): no clause is tied to a "
                         "rulebook's lines (docs/FORMAT.md, \"Rulebook anchors\")")
    checks, missing = rulebook_checks(folder, args.variant, args.rulebook)
    if not checks:
        raise UsageError("no rulebook file found: " + "; ".join(missing))
    if args.fix_digests:
        for c in checks:
            n = fix_digests(c)
            if n:
                print(f"{c.anchors.file}: {plural(n, 'digest')} rewritten", file=sys.stderr)
        checks, missing = rulebook_checks(folder, args.variant, args.rulebook)
    for note in missing:
        print(f"not checked: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps({"game": args.game, **summary_of(checks), "not_found": missing}, indent=1, ensure_ascii=False))
    else:
        show_text = sys.stdout.isatty()
        print("\n\n".join(report(c, show_text) for c in checks))
    return 1 if any(c.failed() for c in checks) else 0


def report(c: Check, show_text: bool) -> str:
    """Returns the text report of one rulebook: counts, then what is wrong, each item whole."""
    non_blank = sum(1 for t in c.lines if t.strip())
    held = len(c.anchors.clause_anchors())
    out = [f"{c.anchors.rulebook} ({c.rulebook}): {plural(len(c.lines), 'line')}, {non_blank} not blank; "
           f"anchors {c.anchors.file}" + ("" if c.reference else " (another edition)"),
           "  lines held by " + ", ".join(f"{k} {n}" for k, n in c.counts().items())
           + f"; {plural(held, 'clause')} anchored"]
    lost = c.unaccounted()
    out.append(f"  unaccounted lines: {len(lost)}")
    for n in lost:
        out.append(f"    {n}" + (f": {c.lines[n - 1].strip()}" if show_text else ""))
    if c.unanchored:
        why = "" if c.reference else " (not required: another edition's rulebook anchors the clauses it states)"
        out.append(f"  clauses with no anchor{why}: {len(c.unanchored)}")
        out += [f"    {cid}" for cid in c.unanchored]
    else:
        out.append("  clauses with no anchor: 0")
    out.append(f"  digest mismatches: {len(c.mismatches)}")
    out += [f"    {d}" for d in c.diagnostics()]
    out.append(f"  {'ok' if not c.failed() else 'FAILED'}")
    return "\n".join(out)
