"""How much of the base each shipped expansion writes again: its lines, the lines longer than
20 characters that stand as they are in one of its game's base files (comments left out),
and the base procedures, functions and steps it replaces whole (issue 24's measure).

    python3 tools/expansion_copies.py            # a row per overlay, then the copied lines
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ("procedures", "functions", "steps")


def overlays() -> list[tuple[Path, Path]]:
    """Returns (overlay, its game's folder) for every shipped overlay and the tutorial's."""
    out = [(f, f.parents[1]) for f in sorted((ROOT / "definitions").glob("*/variants/*.yaml"))]
    return out + [(ROOT / "docs" / "modding" / "lucky-charm.yaml", ROOT / "definitions" / "big-foot")]


def measure(overlay: Path, game: Path) -> tuple[int, list[str], dict[str, list[str]]]:
    """Returns the overlay's line count, its lines copied from the base, and what it replaces whole."""
    base = {line.strip() for f in game.glob("*.yaml") for line in f.read_text("utf-8").splitlines()}
    lines = overlay.read_text("utf-8").splitlines()
    copied = [l.strip() for l in lines if len(l.strip()) > 20 and not l.strip().startswith("#") and l.strip() in base]
    replace = (yaml.safe_load(overlay.read_text("utf-8")) or {}).get("replace") or {}
    whole = {k: sorted(v) if isinstance(v, dict) else [str(x.get("id", x)) if isinstance(x, dict) else str(x) for x in v]
             for k, v in replace.items() if k in WHOLE and v}
    return len(lines), copied, whole


def main() -> int:
    for overlay, game in overlays():
        n, copied, whole = measure(overlay, game)
        print(f"{overlay.relative_to(ROOT)}: {n} lines, {len(copied)} copied, replaces "
              + (", ".join(f"{k} {', '.join(v)}" for k, v in whole.items()) or "nothing whole"))
        for line in copied:
            print(f"    {line[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
