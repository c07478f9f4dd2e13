"""Compiles the abilities written on cards, components and board spaces (and those an
overlay attaches with `extend.objects`), and the game-level triggers, into the tables
play looks them up in (engine/abilities.py).

The four kinds: triggered (`on: event`), activated (`activate: id` with a window, cost
and limit), static (`modifies: quantity`) and replacement (`instead_of: procedure`).
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import suggest
from ..engine.abilities import BOARD, Ability, AbilityTable, Filed, Listener
from lark import Tree

from ..lang.compiler import CALL, RET, WINDOW
from ..lang.parser import parse
from .context import Compiling
from .spec import Src

KINDS = {"on": "triggered", "activate": "activated", "modifies": "static", "instead_of": "replacement"}
_ONLY = {"triggered": {"optional"}, "activated": {"window", "limit", "cost", "can_pay"},
         "static": {"add", "times", "set"}, "replacement": {"optional"}}
_ANY_KIND = {"name", "text", "doc", "rule", "while_in", "if", "do"}

WINDOW_PROGRAM = """
let opts = _usable(w, p)
while len(opts) > 0 {
  let a = choose(opts + [none], player=p, prompt=_window_prompt(w), labels=_ability_labels(opts) + ["Go on"], always=true)
  if a == none {
    return
  }
  _note_use(a)
  _call(_ability_program(a), _ability_locals(a, p))
  opts = _usable(w, p)
}
"""


def instances(item: dict) -> list[str]:
    """Returns the object ids an entry makes (`id` or `id.1` ... `id.N`)."""
    n = item.get("count", 1)
    return [item["id"]] if n == 1 else [f"{item['id']}.{i}" for i in range(1, n + 1)]


def bearers(cx: Compiling) -> list[tuple[str, str, list[str], list[tuple[dict, Src]]]]:
    """Returns (definition id, section, instances, [(ability, src)]) for every object that
    carries abilities, base ones first and then those overlays attach (found once a build:
    the abilities, the citations and the events all ask)."""
    if cx.bearers is None:
        cx.bearers = _bearers(cx)
    return cx.bearers


def _bearers(cx: Compiling) -> list[tuple[str, str, list[str], list[tuple[dict, Src]]]]:
    out = []
    for section in ("components", "cards", "spaces"):
        for key, (item, src) in cx.spec.sections[section].items():
            abilities = [(a, src.at("abilities", i)) for i, a in enumerate(item.get("abilities", ()))
                         if a is not None]
            abilities += cx.spec.extra_abilities.get(key, [])
            if abilities:
                objs = [key] if section == "spaces" else instances(item)
                out.append((key, section, objs, abilities))
    return out


def compile_abilities(cx: Compiling, event_fields: dict[str, set[str]], quantities: dict[str, tuple],
                      procedures: dict[str, tuple]) -> AbilityTable:
    """Returns the ability table; problems go to cx.diags."""
    table = AbilityTable()
    for i, (t, src) in enumerate(cx.spec.triggers):
        params = tuple(t.get("params", ()))
        if t["on"] not in event_fields:
            cx.diags.append(src.diag(f"trigger on '{t['on']}': no rule or part of the turn structure emits "
                                     "that event" + suggest(t["on"], event_fields), ("on",)))
        cond = cx.expression(t["if"], src.at("if"), params) if "if" in t else None
        key = f"trigger:{i}"
        cx.program(key, t["do"], src.at("do"), params)
        table.listeners.setdefault(t["on"], []).append(Listener(key, cond, None, i))
    order = len(cx.spec.triggers)
    for def_id, section, objs, abilities in bearers(cx):
        for i, (a, src) in enumerate(abilities):
            ab = _one(cx, f"{def_id}#{i}", section, tuple(objs), a, src, event_fields, quantities, procedures)
            if ab is None:
                continue
            order += 1
            ab = replace(ab, order=order, rank={o: i for i, o in enumerate(ab.objects)})
            table.by_key[ab.key] = ab
            if ab.kind == "triggered":
                listener = Listener(ab.program, ab.condition, ab, order)
                name = _names_this(a.get("if"), event_fields[ab.event])
                if name is None:
                    table.listeners.setdefault(ab.event, []).append(listener)
                else:
                    by_object = table.targeted.setdefault(ab.event, {}).setdefault(name, {})
                    for obj in objs:
                        by_object.setdefault(obj, []).append(listener)
            elif ab.kind == "activated":
                for w in ab.windows:
                    table.activated.setdefault(w, []).append(ab)
            elif ab.kind == "static":
                _file(table.statics.setdefault(ab.target, Filed()), ab, a, quantities[ab.target])
            else:
                _file(table.replacements.setdefault("proc:" + ab.target, Filed()), ab, a, procedures[ab.target])
    if table.activated:
        cx.internal(WINDOW, WINDOW_PROGRAM, cx.spec.meta_src, ("w", "p"))
    return table


def _file(filed: Filed, ab: Ability, a: dict, params: tuple) -> None:
    name = _names_this(a.get("if"), set(params))
    if name is None:
        filed.plain.append(ab)
    else:
        by_object = filed.by.setdefault(name, {})
        for obj in ab.objects:
            by_object.setdefault(obj, []).append(ab)


def _names_this(cond: Any, fields: set[str]) -> str | None:
    """Returns the event field a condition requires to be `this` (`s == this`, also as the
    first part of an `and`), or None."""
    if not isinstance(cond, str):
        return None
    tree = parse(cond, expression=True)
    while isinstance(tree, Tree) and tree.data == "and_op":
        tree = tree.children[0]
    if not isinstance(tree, Tree) or tree.data != "compare" or str(tree.children[1]) != "==":
        return None
    sides = [tree.children[0], tree.children[2]]
    names = [str(x.children[0]) for x in sides if isinstance(x, Tree) and x.data == "name"]
    if len(names) == 2 and "this" in names:
        other = names[1] if names[0] == "this" else names[0]
        return other if other in fields else None
    return None


def emits_of(cx: Compiling) -> dict[str, set[str]]:
    """Returns the events abilities and triggers emit in their effects (with their sure
    fields), read before they are compiled: an ability may answer an event another emits."""
    out: dict[str, set[str]] = {}
    texts = [t["do"] for t, _src in cx.spec.triggers]
    for _d, _section, _objs, abilities in bearers(cx):
        texts += [a[k] for a, _src in abilities for k in ("do", "cost") if isinstance(a.get(k), str)]
    for text in texts:
        tree = parse(text)
        if not isinstance(tree, Tree):
            continue
        for node in tree.iter_subtrees():
            if node.data == "call" and str(node.children[0]) == "emit" and len(node.children) > 1:
                first = node.children[1]
                if isinstance(first, Tree) and first.data == "string":
                    event = str(first.children[0])[1:-1]
                    named = {str(a.children[0]) for a in node.children[2:]
                             if isinstance(a, Tree) and a.data == "named_arg"}
                    out[event] = out.get(event, named) & named
    return out


def _zones(cx: Compiling, a: dict, section: str, src: Src) -> frozenset[str] | None | bool:
    """Returns where an ability counts (None: anywhere), or False after a problem."""
    where = a.get("while_in")
    if where is None:
        if section == "spaces":
            return None
        cx.diags.append(src.diag("say where this ability counts: while_in: [zone, ...] "
                                 "(or while_in: anywhere)"))
        return False
    if where == "anywhere":
        return None
    known = set(cx.spec.sections["zones"]) | set(cx.spec.sections["spaces"]) | {BOARD}
    bad = [z for z in where if z not in known]
    for z in bad:
        cx.diags.append(src.diag(f"while_in: no zone or space '{z}'" + suggest(z, known), ("while_in",)))
    return False if bad else frozenset(where)


def _one(cx: Compiling, key: str, section: str, objs: tuple[str, ...], a: dict, src: Src,
         event_fields: dict[str, set[str]], quantities: dict[str, tuple],
         procedures: dict[str, tuple]) -> Ability | None:
    kinds = [k for k in KINDS if k in a]
    if len(kinds) != 1:
        cx.diags.append(src.diag("an ability needs exactly one of on (triggered), activate, modifies "
                                 f"(static) or instead_of (replacement); found {', '.join(kinds) or 'none'}"))
        return None
    head = kinds[0]
    kind = KINDS[head]
    for extra in set(a) - _ANY_KIND - _ONLY[kind] - {head}:
        cx.diags.append(src.diag(f"'{extra}' does not belong to a {kind} ability", (extra,), at_key=True))
    zones = _zones(cx, a, section, src)
    common = dict(key=key, kind=kind, objects=objs, zones=zones or None, name=a.get("name", ""),
                  text=a.get("text", ""))
    ab = {"triggered": _triggered, "activated": _activated, "static": _static,
          "replacement": _replacement}[kind](cx, a, src, common, event_fields, quantities, procedures)
    return None if zones is False else ab


def _body(cx: Compiling, key: str, a: dict, src: Src, scope: tuple) -> str | None:
    if "do" not in a:
        cx.diags.append(src.diag("this ability has no effect: add do: ..."))
        return None
    program = f"ability:{key}"
    return program if cx.program(program, a["do"], src.at("do"), scope) else None


def _ask(cx: Compiling, key: str, body: str, src: Src, scope: tuple, declined: str) -> str:
    """Returns a program asking the controller first ('may'), running `body` on yes."""
    program = f"ability:{key}:ask"
    names = "[" + ", ".join(f'"{n}"' for n in scope) + "]"
    cx.internal(program, f"""
let ok = choose([true, false], player=me, prompt="Use {{text(this)}}?", labels=["yes", "no"], always=true)
if ok {{
  _call("{body}", _locals({names}))
}} {declined}
""", src, scope)
    return program


def _triggered(cx, a, src, common, event_fields, quantities, procedures) -> Ability | None:
    event = a["on"]
    fields = event_fields.get(event)
    if fields is None:
        cx.diags.append(src.diag(f"on '{event}': no rule or part of the turn structure emits that event"
                                 + suggest(event, event_fields), ("on",)))
        return None
    scope = tuple(sorted(fields)) + ("me", "this")
    cond = cx.expression(a["if"], src.at("if"), scope) if "if" in a else None
    program = _body(cx, common["key"], a, src, scope)
    if program is None:
        return None
    if a.get("optional"):
        program = _ask(cx, common["key"], program, src, scope, "")
    return Ability(**common, condition=cond, program=program, event=event, optional=bool(a.get("optional")))


def _activated(cx, a, src, common, event_fields, quantities, procedures) -> Ability | None:
    scope = ("me", "this", "p")
    if "window" not in a:
        cx.diags.append(src.diag("an activated ability needs window: [step or window name, ...]"))
        return None
    cond = cx.expression(a["if"], src.at("if"), scope) if "if" in a else None
    can_pay = cx.expression(a["can_pay"], src.at("can_pay"), scope) if "can_pay" in a else None
    body = _body(cx, common["key"], a, src, scope)
    if body is None:
        return None
    program = body
    if "cost" in a:
        cost = f"ability:{common['key']}:cost"
        if not cx.program(cost, a["cost"], src.at("cost"), scope):
            return None
        program = f"ability:{common['key']}:use"
        every = lambda c: dict(c.l)  # noqa: E731 - the locals pass on unchanged
        cx.generated(program, [(CALL, cost, every, None), (CALL, body, every, None), (RET, None)], src, scope)
    limit = a.get("limit")
    return Ability(**common, condition=cond, program=program, windows=tuple(a["window"]), can_pay=can_pay,
                   cost=a.get("cost"),
                   limit=(limit["per"], limit["n"], limit.get("group")) if limit else None)


def _static(cx, a, src, common, event_fields, quantities, procedures) -> Ability | None:
    target = a["modifies"]
    if target not in quantities:
        cx.diags.append(src.diag(f"modifies: no quantity '{target}' (declare it under quantities)"
                                 + suggest(target, quantities), ("modifies",)))
        return None
    scope = tuple(quantities[target]) + ("me", "this")
    ops = {op: cx.expression(a[op], src.at(op), scope) for op in ("add", "times", "set") if op in a}
    if not ops:
        cx.diags.append(src.diag("a static ability needs add:, times: or set:"))
        return None
    cond = cx.expression(a["if"], src.at("if"), scope) if "if" in a else None
    if "do" in a:
        cx.diags.append(src.diag("a static ability changes a quantity (add/times/set); it has no do:", ("do",),
                                 at_key=True))
    return Ability(**common, condition=cond, target=target, **ops)


def _replacement(cx, a, src, common, event_fields, quantities, procedures) -> Ability | None:
    target = a["instead_of"]
    if target not in procedures:
        cx.diags.append(src.diag(f"instead_of: no procedure '{target}'" + suggest(target, procedures),
                                 ("instead_of",)))
        return None
    params = tuple(procedures[target])
    scope = params + ("me", "this")
    cond = cx.expression(a["if"], src.at("if"), scope) if "if" in a else None
    program = _body(cx, common["key"], a, src, scope)
    if program is None:
        return None
    if a.get("optional"):
        names = "[" + ", ".join(f'"{n}"' for n in params) + "]"
        program = _ask(cx, common["key"], program, src, scope,
                       f'else {{\n  _call("proc:{target}", _locals({names}))\n}}')
    return Ability(**common, condition=cond, program=program, target=target, optional=bool(a.get("optional")))


def ability_count(table: AbilityTable) -> dict[str, int]:
    """Returns how many abilities of each kind a game has (for reports)."""
    out: dict[str, int] = {}
    for ab in table.by_key.values():
        out[ab.kind] = out.get(ab.kind, 0) + 1
    return out

