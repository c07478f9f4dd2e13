"""Checks a saved state before it is played on: a state from a file or another program
must be one this game could have reached in shape (objects, places, variables, frames,
the pending decision), so that playing on it can only fail as the rules would."""
from __future__ import annotations

from typing import Any

from ..lang.compiler import CHOOSE
from ..lang.values import MAX_ACTIONS, MAX_LOG_LINES, MAX_MODIFIERS, unsaveable
from .invariants import conservation_problems
from .state import STATE_FORMAT
from ..words import plural, span

_OPTIONAL = {"log_on": bool, "forced_rolls": list, "chance": list, "ask_one": bool, "pos": dict, "adj": dict, "hex_at": dict, "uses": dict, "mods": list,
             "frozen": int}
_REQUIRED = {"format": int, "n": int, "seed": int, "rng": int, "places": dict, "loc": dict, "attrs": dict,
             "pvars": list, "gvars": dict, "frames": list, "pending": (dict, type(None)), "terminal": bool,
             "result": (dict, type(None)), "actions": list, "log": list, "turns": int}


def _is(x: Any, kind: Any) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return type(x) in kinds


def state_problem(g: Any, d: Any) -> str | None:
    """Returns what is wrong with a saved state for game `g`, or None when it is sound."""
    if type(d) is not dict:
        return "the state is not a record"
    if d.get("format") != STATE_FORMAT:
        return f"state format {d.get('format')!r} is not {STATE_FORMAT}"
    for key, kind in _REQUIRED.items():
        if key not in d:
            return f"the state has no '{key}'"
        if not _is(d[key], kind):
            return f"'{key}' has the wrong type ({type(d[key]).__name__})"
    for key in d:
        if key not in _REQUIRED and key not in _OPTIONAL:
            return f"unknown part '{key}' in the state"
        if key in _OPTIONAL and not _is(d[key], _OPTIONAL[key]):
            return f"'{key}' has the wrong type ({type(d[key]).__name__})"
    n = d["n"]
    if not g.min_players <= n <= g.max_players:
        return f"{plural(n, 'player')}; the game takes {span(g.min_players, g.max_players, 'player')}"
    bad = _measured(d)
    if bad:
        return f"the state holds {bad}"
    return (_places(g, d) or _variables(g, d) or _lapsing(g, d) or _frames(g, d) or _pending(g, d)
            or _ending(d) or _log(d))


_RULE_PARTS = frozenset({"attrs", "pvars", "gvars", "frames", "pending", "log", "actions", "mods"})


def _measured(d: dict) -> str | None:
    """Returns why a part of the state could not have been written by the engine, by the
    same limits it writes with: each value the rules keep (attributes, variables, the
    locals waiting for a decision, the options) is measured on its own as save_check and
    check_waiting measure it; the log and the actions have their own lengths; the rest
    (the engine's own parts) is measured whole. A fresh memory: the state's parts change."""
    if len(d["log"]) > MAX_LOG_LINES:
        return f"a log of {len(d['log'])} lines (at most {MAX_LOG_LINES})"
    if len(d["actions"]) > MAX_ACTIONS:
        return f"{len(d['actions'])} actions (at most {MAX_ACTIONS})"
    mods = d.get("mods", [])
    if len(mods) > MAX_MODIFIERS or not all(_is_modifier(m) for m in mods):
        return f"a malformed list of modifiers (at most {MAX_MODIFIERS}, each as modify() makes it)"
    frames = [f for f in d["frames"] if type(f) is dict and type(f.get("l")) is dict]
    if any(type(v) is not dict for v in d["attrs"].values()) or any(type(v) is not dict for v in d["pvars"]) \
            or len(frames) != len(d["frames"]) or (d["pending"] is not None and "options" not in d["pending"]):
        return "a malformed part (attributes, variables, frames or the pending decision)"
    values = [v for attrs in d["attrs"].values() for v in attrs.values()]
    values += [v for pv in d["pvars"] for v in pv.values()] + list(d["gvars"].values())
    values += [v for f in frames for v in f["l"].values()]
    values += [d["pending"]["options"]] if d["pending"] is not None else []
    values += mods                          # each as modify() measured it
    engine = [{k: v for k, v in f.items() if k != "l"} for f in frames]
    engine += [v for k, v in d.items() if k not in _RULE_PARTS]
    if d["pending"] is not None:
        engine.append({k: v for k, v in d["pending"].items() if k != "options"})
    return unsaveable(values, {}) or unsaveable(engine, {}, depth=4)   # the log's lines: _log


def _is_modifier(m: Any) -> bool:
    """Whether `m` has the shape verbs/abilities.modify gives a modifier."""
    return (type(m) is dict and {"q", "until", "args"} <= set(m) <= {"q", "until", "args", "add", "times", "set"}
            and type(m["q"]) is str and m["until"] in ("turn", "round", "game") and type(m["args"]) is list)


def _lapsing(g: Any, d: dict) -> str | None:
    """Refuses use counts and modifiers this game could not have made: the end of a turn or
    round lapses them only in a game that can make them (load/structure.py `_lapsing`)."""
    limited = {ab.limit[0] for ab in g.abilities.by_key.values() if ab.limit is not None}
    odd = sorted(str(per) for per in d.get("uses", {}) if per not in limited)
    if odd:
        return f"use counts per {odd[0]}, but no ability of this game is limited per {odd[0]}"
    for m in d.get("mods", ()):
        if m["q"] not in g.quantities:
            return f"a modifier of {m['q']!r}, not a quantity of this game"
    return None


def _places(g: Any, d: dict) -> str | None:
    if set(d["places"]) != set(g.place_ids(d["n"])):
        extra = sorted(set(d["places"]) - set(g.place_ids(d["n"])))[:3]
        missing = sorted(set(g.place_ids(d["n"])) - set(d["places"]))[:3]
        return f"the places are not this game's (unknown {extra}, missing {missing})"
    for place, objs in d["places"].items():
        if type(objs) is not list or any(type(o) is not str for o in objs):
            return f"place '{place}' does not hold a list of object ids"
    problems = conservation_problems(g, d)
    return f"objects are not each in one place: {problems[0]}" if problems else None


def _variables(g: Any, d: dict) -> str | None:
    if len(d["pvars"]) != d["n"]:
        return f"{len(d['pvars'])} players' variables for {d['n']} players"
    for p, pv in enumerate(d["pvars"]):
        if type(pv) is not dict or set(pv) != set(g.player_vars):
            return f"player {p}'s variables are not this game's"
    if set(d["gvars"]) != set(g.game_vars):
        return "the game variables are not this game's"
    for obj, attrs in d["attrs"].items():
        if type(attrs) is not dict:
            return f"the attributes of '{obj}' are not a record"
    return None


def _frames(g: Any, d: dict) -> str | None:
    for i, fr in enumerate(d["frames"]):
        if type(fr) is not dict or not {"p", "pc", "l", "d", "r"} <= set(fr) or set(fr) - {"p", "pc", "l", "d", "r", "x"}:
            return f"frame {i} is not a frame"
        prog = g.programs.get(fr["p"]) if type(fr["p"]) is str else None
        if prog is None:
            return f"frame {i} runs an unknown program {fr['p']!r}"
        if type(fr["pc"]) is not int or not 0 <= fr["pc"] < len(prog.code):
            return f"frame {i} stands at {fr['pc']!r}, outside its program"
        if type(fr["l"]) is not dict or type(fr["d"]) is not int or not (fr["r"] is None or type(fr["r"]) is str):
            return f"frame {i} has malformed locals, depth or result name"
        if "x" in fr and (type(fr["x"]) is not list or any(type(k) is not str for k in fr["x"])):
            return f"frame {i} has malformed applied replacements"
    return None


def _pending(g: Any, d: dict) -> str | None:
    pend = d["pending"]
    if pend is None:
        return None
    if set(pend) not in ({"player", "options", "var"}, {"player", "prompt", "options", "labels", "var"}):
        return "the pending decision is malformed"
    if type(pend["player"]) is not int or not 0 <= pend["player"] < d["n"]:
        return f"the pending decision belongs to {pend['player']!r}, not a seat"
    if type(pend["options"]) is not list or not pend["options"]:
        return "the pending decision has no options"
    if "labels" in pend and (type(pend["labels"]) is not list or len(pend["labels"]) != len(pend["options"])
                             or any(type(x) is not str for x in pend["labels"]) or type(pend["prompt"]) is not str):
        return "the pending decision's prompt or labels do not match its options"
    if type(pend["var"]) is not str:
        return "the pending decision's variable is malformed"
    if not d["frames"]:
        return "a decision is pending but nothing waits for it"
    fr = d["frames"][-1]
    code = g.programs[fr["p"]].code
    if not 0 < fr["pc"] <= len(code) or code[fr["pc"] - 1][0] != CHOOSE:
        return "the pending decision does not wait at a choice"
    return None


def _ending(d: dict) -> str | None:
    if d["terminal"]:
        if d["pending"] is not None or d["frames"]:
            return "the game is over but still has work pending"
        r = d["result"]
        if type(r) is not dict or not {"scores", "winners", "returns"} <= set(r):
            return "the game is over but has no result"
        if len(r["scores"]) != d["n"] or len(r["returns"]) != d["n"]:
            return "the result does not have one score per player"
        pay = r.get("payoffs", [])
        if "payoffs" in r and (type(pay) is not list or len(pay) != d["n"]
                               or any(type(x) is not float for x in pay)):
            return "the result's payoffs are not one number per player"
    elif d["pending"] is None:
        return "the game is neither over nor waiting for a decision"
    if any(type(a) is not int for a in d["actions"]):
        return "the actions are not all option numbers"
    return None


def _log(d: dict) -> str | None:
    n = d["n"]
    for line in d["log"]:
        if type(line) is not list or len(line) != 2 or type(line[0]) is not str \
                or not (line[1] is None or (type(line[1]) is int and 0 <= line[1] < n)):
            return "the log is malformed (a line is [text, a seat or null])"
    frozen = d.get("frozen")
    if frozen is not None and not 0 <= frozen < n:
        return f"the seat deciding in secret ({frozen}) is not a seat"
    return None
