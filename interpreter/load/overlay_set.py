"""`set: objects:` of an overlay: one property of a card, component or board space, or a
space's kind, changed in one line instead of replacing the whole entry.

    set:
      objects:
        tally-card.slots: 5                               # a property (props:)
        a5.kind: {value: swamp, rule: flood}              # a space's kind; rule: the clause it carries

The key is the object's id and the property, joined by the last dot (ids may hold dots,
property names never do). The property must exist and keep its type, so a misspelt name
or a wrong value is one error at the overlay's line, not a rule that silently reads the
old value. A space's new kind must be one the board knows (a space has it, or a group of
board.yaml gives it): a space written in a group of board.yaml leaves its old group's
defaults (the kind's printed text, rule and abilities) and takes those of the new kind's
group, keeping its own keys (id, position, its own props). Two overlays that set one
property to different values contradict (one error naming both); setting different
properties of one object, or building on it (extend), combine.
"""
from __future__ import annotations

from typing import Any, Callable

from ..diagnostics import Diagnostic, suggest
from .files import merge_entry
from .spec import Spec, Src

SECTIONS = ("cards", "components", "spaces")
Claim = Callable[..., bool]


def set_objects(spec: Spec, vid: str, value: dict, src: Src, diags: list[Diagnostic], claim: Claim) -> None:
    """Applies `set: objects:` (see the module's docstring); `claim` is overlay._claim."""
    for key, new in value.items():
        at = src.at(key)
        oid, _, prop = key.rpartition(".")
        entry = dict(new) if isinstance(new, dict) and "value" in new else {"value": new}
        section = next((s for s in SECTIONS if oid in spec.sections[s]), None)
        if section is None:
            known = [k for s in SECTIONS for k in spec.sections[s]]
            diags.append(at.diag(f"set: no card, component or space '{oid}'" + suggest(oid, known), at_key=True))
            continue
        item, item_src = spec.sections[section][oid]
        problem = _problem(spec, section, item, prop, entry["value"])
        if problem:
            diags.append(at.diag(f"set: {section[:-1]} '{oid}' {problem}", at_key=True))
            continue
        if not (claim(spec, vid, "props", key, at, diags, "set", entry["value"])
                and claim(spec, vid, section, oid, at, diags, "props", f"sets its {prop}")):
            continue
        if prop == "kind" and section == "spaces":
            changed = _rekinded(spec, oid, item, entry["value"])
        else:
            changed = {**item, "props": {**item.get("props", {}), prop: entry["value"]}}
        if "rule" in entry and _cited(spec, entry["rule"], at.at("rule"), diags):
            changed["rule"] = _cites(changed.get("rule")) + _cites(entry["rule"])   # the object carries it too
        spec.sections[section][oid] = (changed, item_src)


def _problem(spec: Spec, section: str, item: dict, prop: str, new: Any) -> str:
    """Returns why a property cannot be set to `new`, or ''."""
    if prop == "kind" and section == "spaces":
        kinds = {s.get("kind") for s, _ in spec.sections["spaces"].values()} | set(spec.kind_defaults)
        if not isinstance(new, str) or new not in kinds:
            return (f"cannot take kind {new!r}: no space or board group has that kind"
                    + (suggest(new, sorted(k for k in kinds if isinstance(k, str))) if isinstance(new, str) else "")
                    + "; a new kind comes with a new space (add: spaces)")
        return ""
    props = item.get("props", {})
    if prop not in props:
        listed = ", ".join(sorted(props)) or "none"
        return (f"has no property '{prop}'" + suggest(prop, props) + f" (its properties: {listed}); "
                "set changes a property the base gives, replace gives an entry new ones")
    old = props[prop]
    if old is not None and new is not None and _kind(old) != _kind(new):
        return f"property '{prop}' is {_kind(old)} ({old!r}), not {_kind(new)} ({new!r})"
    return ""


def _kind(v: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a text", list: "a list",
            dict: "a record"}.get(type(v), "a value")


def _cited(spec: Spec, rule: Any, at: Src, diags: list[Diagnostic]) -> bool:
    """Whether every clause a change cites is in the game's clause index (else one error at
    the overlay's `rule:`, not at the object's own line, which the overlay did not write)."""
    clauses = spec.sections["clauses"]
    unknown = [c for c in _cites(rule) if clauses and c not in clauses]
    for c in unknown:
        diags.append(at.diag(f"set: rule: no clause '{c}' in rules.yaml or an overlay's clauses" + suggest(c, clauses)))
    return not unknown


def _cites(rule: Any) -> list:
    return [] if rule is None else [rule] if isinstance(rule, str) else list(rule)


def _rekinded(spec: Spec, oid: str, item: dict, kind: str) -> dict:
    """Returns a space with a new kind: off its old group's defaults, onto the new kind's."""
    own = _own(spec.space_defaults.get(oid, {}), item)
    own["kind"] = kind
    new = spec.kind_defaults.get(kind)
    if new is None:
        return own
    spec.space_defaults[oid] = new
    return merge_entry(new, own)


def _own(defaults: dict, item: dict) -> dict:
    """Returns a grouped entry's own keys: merge_entry (files.py) undone."""
    out = {k: v for k, v in item.items() if k not in defaults or defaults[k] != v or k == "id"}
    if isinstance(defaults.get("props"), dict) and isinstance(item.get("props"), dict):
        dp = defaults["props"]
        out["props"] = {k: v for k, v in item["props"].items() if k not in dp or dp[k] != v}
    if isinstance(defaults.get("abilities"), list) and isinstance(item.get("abilities"), list):
        mine = item["abilities"][:len(item["abilities"]) - len(defaults["abilities"])]
        out.pop("abilities", None)
        if mine:
            out["abilities"] = mine
    return out
