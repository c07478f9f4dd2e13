"""How much of the base an overlay writes again (issue 24's measure): the lines of an
overlay that stand as they are in one of its game's base files, and the base rules it
replaces whole.

An overlay should hold only what is new: a copied line is a rule (or a piece of data) that
now lives in two places, so a fix to the base misses the expansion. Not counted:
- lines of 20 characters or fewer (`else {`, `}`, `count: 2`: alike by chance),
- comments,
- references: a line holding only a `section:`, `rule:` or `clause:` key (`rule: [a, b]`,
  `- clause: x`), or a `while_in:` or `modifies:` key, which must name the base's own
  clauses, sections, zones and quantities: naming a base entity is how an expansion hooks
  into it, not a copy of its rule.

A whole replace is a `replace:` of a procedure, function, quantity or step, or of the whole
structure: the base rule's text then lives in the overlay too.

tools/expansion_copies.py prints the measure for every shipped overlay;
tests/test_expansion_copies.py asserts it is nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

WHOLE = ("procedures", "functions", "quantities", "steps", "structure")
SHORT = 20          # a line this long or shorter is alike by chance, not copied

_SCALAR = r"""(?:"[^"]*"|'[^']*'|[^\s:{}\[\],#'"][^:{}\[\]#]*)"""
_CITATION = re.compile(rf"""(?:-\s+)?(?:section|rule|clause|while_in|modifies):\s*(?:{_SCALAR}|\[\s*(?:{_SCALAR}\s*,\s*)*{_SCALAR}?\s*\])\s*""")


@dataclass
class Measure:
    """What one overlay writes again: its line count, the copied lines (line number, text)
    and the base entries it replaces whole, by section."""

    lines: int
    copied: list[tuple[int, str]] = field(default_factory=list)
    whole: dict[str, list[str]] = field(default_factory=dict)


def is_citation(line: str) -> bool:
    """Whether a stripped line holds only a reference: a `section:`, `rule:`, `clause:`,
    `while_in:` or `modifies:` key naming base ids."""
    return _CITATION.fullmatch(line) is not None


def counted(line: str) -> bool:
    """Whether a stripped line is long enough, and not a comment or a citation, to count."""
    return len(line) > SHORT and not line.startswith("#") and not is_citation(line)


def base_lines(game: Path) -> set[str]:
    """Returns every stripped line of a game's base files (its *.yaml, not its variants)."""
    return {line.strip() for f in sorted(game.glob("*.yaml")) for line in f.read_text("utf-8").splitlines()}


def measure_text(text: str, base: set[str]) -> Measure:
    """Measures an overlay's text against the stripped lines of its base."""
    lines = text.splitlines()
    out = Measure(len(lines))
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if counted(line) and line in base:
            out.copied.append((n, line))
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    replace = data.get("replace") if isinstance(data, dict) else None
    if isinstance(replace, dict):
        out.whole = {k: _names(v) for k, v in replace.items() if k in WHOLE and v}
    return out


def _names(value: Any) -> list[str]:
    """Returns the names a replaced section holds (a table's keys, a list's ids)."""
    if isinstance(value, dict):
        return sorted(str(k) for k in value)
    if isinstance(value, list):
        return [str(next((x[k] for k in ("id", "round", "turn", "phase", "step") if k in x), x))
                if isinstance(x, dict) else str(x) for x in value]
    return [str(value)]


def measure(overlay: Path, game: Path) -> Measure:
    """Measures an overlay file against its game's folder."""
    return measure_text(overlay.read_text("utf-8"), base_lines(game))


def shipped_overlays(root: Path) -> list[tuple[Path, Path]]:
    """Returns (overlay, its game's folder) for every shipped overlay: the games' variants/,
    and the overlays among docs/modding/*.yaml, each on the game of a scenario file there
    that plays it (`game:` with the overlay among its `variants:`)."""
    out = [(f, f.parents[1]) for f in sorted((root / "definitions").glob("*/variants/*.yaml"))]
    docs = sorted((root / "docs" / "modding").glob("*.yaml"))
    texts = {f: yaml.safe_load(f.read_text("utf-8")) for f in docs}
    for f, data in texts.items():
        if isinstance(data, dict) and "variant" in data:
            games = [d["game"] for d in texts.values() if isinstance(d, dict) and isinstance(d.get("game"), str)
                     and f.name in (d.get("variants") or [])]
            if games:
                out.append((f, root / "definitions" / games[0]))
    return out
