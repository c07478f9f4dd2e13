"""Where each piece of a game's content comes from, as its definitions say (`provenance:`).

Every component, card and board carries a provenance kind: `rulebook` (given by the
rulebook), `reconstructed` (the rulebook names it but does not print it, so the encoding
filled it in), `external` (another stated source) or `invented` (made up for Cairn, as an
example expansion's cards are). A rule checker trusts a clause as far as its content:
`manifest --by provenance` breaks the box down by kind, and coverage marks the clauses
that rest on reconstructed or invented content, and on which.
"""
from __future__ import annotations

from typing import Any

from .load.spec import Spec
from .words import plural

KINDS = ("rulebook", "reconstructed", "external", "invented")
DOUBTFUL = ("reconstructed", "invented")     # content the rulebook does not give


def kind_of(item: dict) -> str:
    """Returns an entry's provenance kind ("" when it has none)."""
    p = item.get("provenance")
    return str(p.get("kind", "")) if isinstance(p, dict) else ""


def board_of(spec: Spec) -> dict | None:
    """Returns the board's provenance kind and size ({provenance, spaces}), or None."""
    for _key, (_item, src) in spec.sections["spaces"].items():
        board = src.loaded.data.get("board", {})
        return {"provenance": kind_of(board), "spaces": len(spec.sections["spaces"])}
    return None


def box_by_provenance(spec: Spec) -> dict[str, dict[str, int]]:
    """Returns {object kind: {provenance kind: objects}} over the box inventory (icons
    printed on other components are not in the box), counts expanded."""
    out: dict[str, dict[str, int]] = {}
    for section in ("components", "cards"):
        for _key, (item, _src) in spec.sections[section].items():
            if item.get("printed"):
                continue
            kind = item.get("kind", "card")
            row = out.setdefault(kind, {})
            prov = kind_of(item) or "none"
            row[prov] = row.get(prov, 0) + item.get("count", 1)
    return out


def totals(by_kind: dict[str, dict[str, int]]) -> dict[str, int]:
    """Returns {provenance kind: objects} summed over every object kind."""
    out: dict[str, int] = {}
    for row in by_kind.values():
        for prov, n in row.items():
            out[prov] = out.get(prov, 0) + n
    return out


def of_entries(spec: Spec) -> dict[tuple[str, str], str]:
    """Returns {(what, name): provenance kind} for the entries a clause citation names
    (`component`, `card`, `space`), as coverage lists its encoders; a space takes its
    board's provenance."""
    out: dict[tuple[str, str], str] = {}
    for section in ("components", "cards"):
        for key, (item, _src) in spec.sections[section].items():
            out[(section[:-1], key)] = kind_of(item)
    board = board_of(spec)
    if board is not None:
        for key in spec.sections["spaces"]:
            out[("space", key)] = board["provenance"]
    return out


def resting_on(encoded_by: list[dict], table: dict[tuple[str, str], str]) -> dict[str, list[str]]:
    """Returns {doubtful provenance kind: entry names} among a clause's encoders."""
    out: dict[str, list[str]] = {}
    for e in encoded_by:
        prov = table.get((e["what"], e["name"]), "")
        if prov in DOUBTFUL:
            out.setdefault(prov, []).append(f"{e['what']} {e['name']}")
    return out


def summary(rest: dict[str, list[Any]]) -> str:
    """Returns "reconstructed: 3 cards, 207 spaces" for a clause's doubtful content."""
    parts = []
    for prov, names in sorted(rest.items()):
        by_what: dict[str, int] = {}
        for name in names:
            what = name.split(" ", 1)[0]
            by_what[what] = by_what.get(what, 0) + 1
        parts.append(f"{prov}: " + ", ".join(plural(n, w) for w, n in sorted(by_what.items())))
    return "; ".join(parts)
