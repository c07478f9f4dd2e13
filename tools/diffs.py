"""Writes docs/diffs/: what each shipped expansion and edition changes, rule by rule (the
output of `cairn diff GAME --variant V`), so a reader sees it without running Cairn.
tests/test_packaging.py checks the files are current. Usage: python3 tools/diffs.py [--check]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.diff import diff, load_spec, model, render  # noqa: E402

SHOWN = [("big-foot", "deep-snow"), ("big-foot", "cabin-stores"), ("stonefire", "riverfolk"),
         ("stonefire", "hillfolk"), ("footprints", "firekeepers"), ("footprints", "hearth"),
         ("footprints", "ja-edition"), ("fantastic-trails", "morning-dew"), ("fantastic-trails", "stag-beetle")]


def text(game: str, variant: str) -> str:
    folder = ROOT / "definitions" / game
    changes = diff(model(load_spec(folder, [])), model(load_spec(folder, [variant])))
    return f"$ cairn diff {game} --variant {variant}\n" + render(changes, game, f"{game} --variant {variant}") + "\n"


def main() -> int:
    out = ROOT / "docs" / "diffs"
    out.mkdir(exist_ok=True)
    stale = []
    for game, variant in SHOWN:
        path = out / f"{game}--{variant}.txt"
        now = text(game, variant)
        if "--check" in sys.argv[1:]:
            if not path.is_file() or path.read_text("utf-8") != now:
                stale.append(path.name)
        else:
            path.write_text(now, "utf-8")
    if stale:
        print("out of date (run python3 tools/diffs.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
