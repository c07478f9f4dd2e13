"""`cairn new-expansion GAME DIR`: writes the skeleton of an expansion folder (overlay.yaml,
scenarios/rules.yaml, NOTES.md) that validates with the game and whose one scenario passes,
so a modder starts from something that works and changes it one step at a time."""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from ..load.expansion import OVERLAY
from ..load.files import resolve_game
from .common import UsageError, game_folder, load

OVERLAY_TEXT = """\
# {name}: an expansion of {game_name} (written by cairn new-expansion; see NOTES.md).
variant:
  id: {vid}
  name: {name}
  description: A new expansion of {game_name}. (Say here what it adds.)
  format: 2
  provenance: {{kind: reconstructed, note: "invented: an example to replace"}}

add:
  clauses:                        # the rules this expansion adds, each cited by what carries it
    - {{id: {clause}, section: {name}, kind: variant,
       summary: "An invented example rule: a bonus of 1 (replace it with a rule of yours)."}}
  params:
    {param}: {{value: 1, rule: {clause}, doc: "the example bonus (invented)"}}
"""

SCENARIOS_TEXT = """\
# The rule tests of {name}: they run with this expansion applied (cairn scenarios {game} --variant DIR).
game: {game}
scenarios:
  - name: the example bonus is 1
    rule: {clause}
    start: 'let bonus = params.{param}'
    then:
      - params.{param} == 1
"""

NOTES_TEXT = """\
# {name}

An expansion of {game_name}, written by `cairn new-expansion`.

What is invented: everything in this skeleton. The clause `{clause}` and the parameter
`{param}` that cites it are examples only, not rules of {game_name}; replace them with
your own (docs/MODDING.md shows how), and keep a scenario citing each clause you add.

Check it:

    cairn validate {game} --variant {folder}
    cairn scenarios {game} --variant {folder}
    cairn coverage {game} --variant {folder} --games 0
"""


def expansion_id(folder: Path) -> str:
    """The variant id a folder's name gives: lower case, other characters as '-'."""
    vid = re.sub(r"[^a-z0-9_.-]+", "-", folder.name.lower()).strip("-._")
    if not vid:
        raise UsageError(f"the folder name {folder.name!r} gives no expansion id: use letters or digits, e.g. my-expansion")
    return vid[:80]


def cmd_new_expansion(args: argparse.Namespace) -> int:
    folder = game_folder(args.game)
    g = load(args.game, [])
    target = Path(args.dir)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"{args.dir} already exists and is not an empty folder: choose a new one")
    vid = expansion_id(target.resolve())
    found = resolve_game(g.id)
    game = g.id if found is not None and found.resolve() == folder.resolve() else str(folder.resolve())
    fill = {"vid": vid, "name": vid.replace("-", " ").replace("_", " ").capitalize(), "game": game,
            "game_name": g.name, "clause": f"{vid}-example", "param": _param(vid), "folder": args.dir}
    files = {target / OVERLAY: OVERLAY_TEXT, target / "scenarios" / "rules.yaml": SCENARIOS_TEXT,
             target / "NOTES.md": NOTES_TEXT}
    (target / "scenarios").mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text.format(**fill), "utf-8")
    if args.json:
        print(json.dumps({"id": vid, "game": g.id, "files": [str(p) for p in files]}))
    else:
        print(f"wrote {', '.join(str(p) for p in files)}; check it: cairn validate {args.game} --variant {args.dir}")
    return 0


def _param(vid: str) -> str:
    """A parameter name of the expansion's own (so two skeletons combine)."""
    name = re.sub(r"[^a-zA-Z0-9_]", "_", vid)
    return (name if name[0].isalpha() else "x_" + name)[:50] + "_bonus"
