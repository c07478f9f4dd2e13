"""Writes docs/rules/<game>.md: each shipped game's rules rendered from its data (`cairn
rules GAME`), to read beside its rulebook. tests/test_rules_doc.py checks they are current.
Usage: python3 tools/rulesdocs.py [--check]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.load.files import game_ids  # noqa: E402
from interpreter.rulesdoc import document, markdown  # noqa: E402


def main() -> int:
    out = ROOT / "docs" / "rules"
    out.mkdir(exist_ok=True)
    stale = []
    for gid in game_ids():
        text = markdown(document(ROOT / "definitions" / gid))
        path = out / f"{gid}.md"
        if "--check" in sys.argv[1:]:
            if not path.is_file() or path.read_text("utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, "utf-8")
    if stale:
        print("out of date (run python3 tools/rulesdocs.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
