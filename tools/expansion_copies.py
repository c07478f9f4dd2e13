"""How much of the base each shipped expansion writes again: its lines, the lines longer than
20 characters that stand as they are in one of its game's base files (comments and citation
lines, a lone `section:`, `rule:` or `clause:` key, left out), and the base procedures,
functions, quantities and steps it replaces whole (issue 24's measure; the measuring is
interpreter/load/copies.py, which tests/test_expansion_copies.py also runs).

    python3 tools/expansion_copies.py            # a row per overlay, then the copied lines
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.load.copies import measure, shipped_overlays  # noqa: E402


def main() -> int:
    for overlay, game in shipped_overlays(ROOT):
        m = measure(overlay, game)
        print(f"{overlay.relative_to(ROOT)}: {m.lines} lines, {len(m.copied)} copied, replaces "
              + (", ".join(f"{k} {', '.join(v)}" for k, v in m.whole.items()) or "nothing whole"))
        for n, line in m.copied:
            print(f"    {n}: {line[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
