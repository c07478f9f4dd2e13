"""What one encoding changes against another, at the level of rules.

Both sides are read into a rules model: parameters, the steps of the turn structure
(with where each sits), objects, their abilities, procedures (with extensions),
functions and quantities, triggers, variables, the box and scoring. The diff lists, per
category, what was added, removed and changed (with the fields that changed). Either
side is a game folder with variants applied: a game against its expansion, or a game
against a copy someone edited.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnostics import DefinitionError, Diagnostic
from .load.overlay import apply_variants
from .load.spec import Spec, read_spec

CATEGORIES = ("parameters", "steps", "objects", "edges", "abilities", "zones", "procedures", "functions",
              "quantities", "triggers", "variables", "box", "scoring", "players", "clauses", "readings")


def load_spec(folder: Path, variants: list[str]) -> Spec:
    """Returns a game's merged spec with variants applied; raises DefinitionError."""
    from .load.build import overlay_files
    spec, diags = read_spec(folder)
    chosen = overlay_files(spec, list(variants), diags)
    for vid in chosen:
        if vid not in spec.variants:
            from .diagnostics import suggest
            raise DefinitionError([Diagnostic(str(folder), 1, 1, f"no variant '{vid}'" + suggest(vid, spec.variants))])
    apply_variants(spec, chosen, diags)
    if diags:
        raise DefinitionError(diags)
    return spec


def _clean(x: Any) -> Any:
    """Plain, comparable data (no positions): what a JSON round trip with sorted keys gives
    (tuples become lists, keys strings, anything else its text), built directly, since a
    round trip of every entry was a sixth of a `cairn validate`."""
    if isinstance(x, str):
        return str.__str__(x)
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, dict):
        return {_key(k): _clean(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return str(x)


def _key(k: Any) -> str:
    """A dict key as JSON writes it."""
    if isinstance(k, str):
        return str.__str__(k)
    return json.dumps(k)


def model(spec: Spec) -> dict[str, dict[str, Any]]:
    """Returns {category: {key: entry}} describing the rules of a spec."""
    m: dict[str, dict[str, Any]] = {c: {} for c in CATEGORIES}
    for name, (entry, _src) in spec.sections["params"].items():
        m["parameters"][name] = _clean({k: v for k, v in entry.items() if k in ("value", "by_players", "rule")})
    _steps(spec, m["steps"])
    for section in ("components", "cards", "spaces"):
        for key, (item, _src) in spec.sections[section].items():
            body = {k: v for k, v in item.items() if k not in ("abilities", "id")}
            m["objects"][key] = _clean({"section": section[:-1], **body})
            abilities = list(item.get("abilities", ())) + [a for a, _s in spec.extra_abilities.get(key, [])]
            for i, a in enumerate(abilities):
                if a is not None:
                    m["abilities"][f"{key}#{i}"] = _clean(a)
    for (a, b), _src in spec.edges:        # the board is undirected: an edge is named by its ends, sorted
        m["edges"][" - ".join(sorted((str(a), str(b))))] = True
    for section in ("zones", "dice"):
        for key, (item, _src) in spec.sections[section].items():
            m["zones"][key] = _clean({"section": section[:-1] if section == "zones" else "die",
                                      **{k: v for k, v in item.items() if k != "id"}})
    for name, (item, _src) in spec.sections["procedures"].items():
        entry = {"params": item.get("params", []), "do": item["do"], **_cites(item)}
        exts = [e for e, _s in spec.extensions.get(name, [])]
        if exts:
            entry["extended"] = exts
        m["procedures"][name] = _clean(entry)
    for section in ("functions", "quantities"):
        for name, (item, _src) in spec.sections[section].items():
            m[section][name] = _clean({"params": item.get("params", []), "expr": item["expr"], **_cites(item)})
    counts: dict[str, int] = {}
    for t, _src in spec.triggers:
        n = counts.get(t["on"], 0)
        counts[t["on"]] = n + 1
        m["triggers"][t["on"] if n == 0 else f"{t['on']}#{n + 1}"] = _clean({k: v for k, v in t.items() if k != "doc"})
    for scope, table in (("game", spec.game_vars), ("player", spec.player_vars)):
        for k, (v, _src) in table.items():
            m["variables"][f"{scope}.{k}"] = _clean(v)
    for k, (v, _src) in spec.attributes.items():
        m["variables"][f"attribute.{k}"] = _clean(v)
    for k, (v, _src) in spec.box.items():
        m["box"][k] = v
    if spec.scoring:
        m["scoring"] = {k: _clean(v) for k, v in spec.scoring[0].items() if k != "doc"}
    m["players"] = {"min": spec.meta["players"]["min"], "max": spec.meta["players"]["max"]}
    for section in ("clauses", "readings"):       # the rules an expansion states, and how it reads them
        for key, (item, _src) in spec.sections[section].items():
            m[section][key] = _clean({k: v for k, v in item.items() if k != "id"})
    return m


def _cites(item: dict) -> dict:
    """Returns the clauses an entry carries, as the model keeps them (so a replace that
    drops one shows)."""
    rule = item.get("rule")
    return {} if rule is None else {"rule": [rule] if isinstance(rule, str) else list(rule)}


def _steps(spec: Spec, out: dict[str, Any]) -> None:
    def walk(nodes: list, parent: str | None) -> None:
        prev = None
        for n in nodes:
            body = {k: v for k, v in n.data.items() if k not in ("steps", "doc", n.kind)}
            out[n.id] = _clean({"kind": n.kind, "in": parent, "after": prev, **body})
            prev = n.id
            walk(n.children, n.id)
    walk(spec.structure or [], None)


@dataclass
class Change:
    category: str
    key: str
    what: str                       # added | removed | changed | moved
    fields: dict[str, Any] = field(default_factory=dict)   # field -> [before, after]
    by: list[str] = field(default_factory=list)             # the overlays that make it, when several combine

    def as_json(self) -> dict:
        out = {"category": self.category, "key": self.key, "what": self.what, "fields": self.fields}
        return {**out, "by": self.by} if self.by else out


def _settle(a: dict, b: dict) -> tuple[dict, dict]:
    """Steps: a step counts as moved only if its place among the steps both sides have
    changed (a step inserted before it does not move it)."""
    common = set(a) & set(b)

    def place(m: dict) -> dict:
        out = {}
        for key, entry in m.items():
            prev = entry.get("after")
            while prev is not None and prev not in common:
                prev = m[prev].get("after")
            out[key] = {**entry, "after": prev}
        return out
    return place(a), place(b)


def diff(left: dict, right: dict) -> list[Change]:
    """Returns the changes from the left model to the right one, category by category."""
    out: list[Change] = []
    for cat in CATEGORIES:
        a, b = left.get(cat, {}), right.get(cat, {})
        if cat == "steps":
            a, b = _settle(a, b)
        for key in b:
            if key not in a:
                out.append(Change(cat, key, "added", {"": [None, b[key]]}))
        for key in a:
            if key not in b:
                out.append(Change(cat, key, "removed", {"": [a[key], None]}))
            elif a[key] != b[key]:
                out.append(_changed(cat, key, a[key], b[key]))
    return out


def attribute(changes: list[Change], folder: Path, base: list[str], variants: list[str]) -> None:
    """Notes on each change which of several overlays makes it (`by`): each overlay's own
    change on top of those given before it (and its base variants). Left out if a prefix
    does not load alone (an overlay that requires one given after it)."""
    if len(variants) < 2:
        return
    try:
        steps = [model(load_spec(folder, base + variants[:i])) for i in range(len(variants) + 1)]
    except DefinitionError:
        return
    made: dict[tuple[str, str], list[str]] = {}
    for i, v in enumerate(variants):
        for c in diff(steps[i], steps[i + 1]):
            made.setdefault((c.category, c.key), []).append(v)
    for c in changes:
        c.by = made.get((c.category, c.key), [])


def _changed(cat: str, key: str, a: Any, b: Any) -> Change:
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return Change(cat, key, "changed", {"": [a, b]})
    fields = {k: [a.get(k), b.get(k)] for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
    what = "moved" if cat == "steps" and set(fields) <= {"in", "after"} else "changed"
    return Change(cat, key, what, fields)


WHOLE = 2_000    # characters of a value shown whole: a rule checker reads the change itself


def _short(v: Any, width: int = WHOLE) -> str:
    """Returns a value on one line, whole up to `width` characters (past that, an overlay's
    text is not a rule to read but input to bound: its start and its length)."""
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
    text = " ".join(str(text).split())
    return text if len(text) <= width else f"{text[:width]}… ({len(text):,} characters)"


def _dropped(name: str, before: Any, after: Any) -> str:
    """Returns what a change leaves out ("" if nothing): a field gone, or the clauses a
    rule no longer cites (what coverage loses)."""
    if after is None and before is not None:
        return "  (dropped)"
    if name == "rule" and isinstance(before, list) and isinstance(after, list):
        gone = [x for x in before if x not in after]
        if gone:
            return "  (drops " + ", ".join(_short(x) for x in gone) + ")"
    return ""


def render(changes: list[Change], left: str, right: str) -> str:
    """Returns the changes as text, grouped by category."""
    if not changes:
        return f"no rule differs between {left} and {right}"
    lines = [f"{left} -> {right}: {len(changes)} change(s)"]
    sign = {"added": "+", "removed": "-", "changed": "~", "moved": ">"}
    for cat in CATEGORIES:
        mine = [c for c in changes if c.category == cat]
        if not mine:
            continue
        lines.append(f"\n{cat} ({len(mine)}):")
        for c in mine:
            by = f"  (by {', '.join(c.by)})" if c.by else ""
            if c.what == "added":
                lines.append(f"  + {c.key}: {_short(c.fields[''][1])}{by}")
            elif c.what == "removed":
                lines.append(f"  - {c.key}{by}")
            else:
                lines.append(f"  {sign[c.what]} {c.key}{by}")
                for f, (x, y) in c.fields.items():
                    label = f or "value"
                    lines.append(f"      {label}: {_short(x)} -> {_short(y)}{_dropped(f, x, y)}")
    return "\n".join(lines)
