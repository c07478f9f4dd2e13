"""What compiled effects work with while they run: the context a closure sees, reading and
writing attributes of players, objects and records, how values read in text, and the
error a rule raises when it cannot be carried out."""
from __future__ import annotations

from typing import Any

from .values import unsaveable

MAX_SEQUENCE = 100_000   # no effect builds a list or text longer than this
MAX_INT = 10 ** 18       # no number grows beyond this (in either direction)
WORK_BUDGET = 1_000_000  # default work between two decisions: items built, iterations, characters


class RuntimeProblem(Exception):
    """A rule could not be carried out (a definition bug found in play)."""


class Stop(Exception):
    """A rule failed in frame `fr` at instruction pc - 1: args (fr, pc, the error). The VM
    ends the game there (engine/vm.py), naming that instruction's place."""


# What a failing rule raises (a problem of the rule, or a Python error it caused).
FAILURES = (RuntimeProblem, RecursionError, TypeError, ValueError, KeyError, IndexError, AttributeError,
            ZeroDivisionError, OverflowError, MemoryError)


def direct_call(c: "Ctx", key: str, args: dict) -> Any:
    """Runs a procedure that never stops (lang/runner.py `never_stopping`) to its return as
    a Python call from its caller's runner; returns what it returns. No frame is pushed:
    nothing reads the frames until the call returns, and a problem names its line through
    the frame made when it is raised (the VM then ends the game, clearing the frames)."""
    g = c.g
    depth = c.dd
    if len(c.s["frames"]) + depth >= g.max_depth:
        raise RuntimeProblem(f"more than {g.max_depth} nested calls (endless recursion?)")
    if g.trace is not None:
        g.trace.add(key)
    prog = g.programs[key]
    caller = c.l
    c.l = args
    c.dd = depth + 1
    at = -1
    try:
        at = prog.runner(c, 0)
        if at < 0:                       # not expected: never_stopping chose runnable programs
            raise RuntimeProblem(f"{key} cannot run without the VM")
        ret = prog.code[at]
        c.n += 1
        value = ret[1](c) if ret[1] is not None else None
    except FAILURES as err:
        fr = {"p": key, "pc": 0, "l": args, "d": c.s["frames"][-1]["d"], "r": None}
        raise Stop(fr, (c.at if at < 0 else at) + 1, err) from None
    c.dd = depth
    c.l = caller
    return value


class Ctx:
    """What a running closure sees: the state data, the compiled game, its locals, and
    the work left before the next decision (a one-item list shared by a whole run)."""

    # at: the statement of a block that failed (blocks.py); n: the VM's steps so far (runner.py);
    # dd: procedures called directly under the running frame (direct_call); ans: the answers
    # to the event a runner stopped at, found by it (lang/runner.py _emit), for the VM
    __slots__ = ("s", "g", "l", "w", "at", "n", "dd", "ans")

    def __init__(self, s: dict, g: Any, l: dict, w: list | None = None):
        self.s, self.g, self.l = s, g, l
        self.w = w if w is not None else [WORK_BUDGET]
        self.n = 0
        self.at = 0
        self.dd = 0
        self.ans = None


def spend(c: Ctx, n: int) -> None:
    """Counts work (items built, iterations); a rule that does too much between two
    decisions is stopped, however few instructions it takes."""
    w = c.w
    w[0] -= n
    if w[0] < 0:
        raise RuntimeProblem("work budget exceeded (too many items built or iterations between two "
                             "decisions; raise limits.work if the rules really need it)")


def checked(v: Any) -> Any:
    """Returns a computed value if it stays within the language's sizes, else raises."""
    t = type(v)
    if t is int:
        if -MAX_INT <= v <= MAX_INT:
            return v
        raise RuntimeProblem(f"a number beyond ±{MAX_INT}")
    if (t is str or t is list) and len(v) > MAX_SEQUENCE:
        raise RuntimeProblem(f"a list or text of more than {MAX_SEQUENCE} items")
    return v


def get_attr(c: Ctx, x: Any, name: str) -> Any:
    """Returns attribute `name` of an entity id (str), a record (dict) or a player (int)."""
    t = type(x)
    if t is str:
        dyn = c.s["attrs"].get(x)
        if dyn is not None and name in dyn:
            return dyn[name]
        props = c.g.props.get(x)
        if props is not None and name in props:
            return props[name]
        if name == "id":
            return x
        if name in c.g.attr_defaults:
            return c.g.attr_defaults[name]
        raise RuntimeProblem(f"{x!r} has no attribute {name!r}")
    if t is dict:
        if name in x:
            return x[name]
        raise RuntimeProblem(f"record has no field {name!r}")
    if t is int:  # a seat (bool is not int here: type(True) is bool)
        try:
            return c.s["pvars"][x][name]
        except (IndexError, KeyError):
            raise RuntimeProblem(f"player {x} has no variable {name!r}") from None
    raise RuntimeProblem(f"cannot read .{name} of {x!r}")


def frozen(d: dict) -> None:
    """Raises the problem of a change made while a seat decides a simultaneous step in secret."""
    raise RuntimeProblem(f"player {d['frozen']} is deciding a simultaneous step in secret: its decision "
                         "part may not change the game (return the choice; the step's resolve applies it)")


def set_attr(c: Ctx, x: Any, name: str, value: Any) -> None:
    """Writes a player variable (int) or an entity's dynamic attribute (str)."""
    if c.s.get("frozen") is not None:
        frozen(c.s)
    t = type(value)
    if t is list or t is dict:
        save_check(c, value)
    if type(x) is int:          # a seat (a bool is no seat: type(True) is bool)
        pvars = c.s["pvars"]
        pv = pvars[x]
        if name not in pv:
            raise RuntimeProblem(f"player {x} has no variable {name!r}")
        pvars[x] = {**pv, name: value}      # written anew, never changed in place: clones share it
    elif type(x) is str:
        attrs = c.s["attrs"]
        old = attrs.get(x)
        attrs[x] = {**old, name: value} if old else {name: value}   # the same
    else:
        raise RuntimeProblem(f"cannot set .{name} of {x!r}")


def save_check(c: Ctx, value: Any) -> None:
    """Raises unless a value written into the state saves exactly (see engine/state.py)."""
    bad = unsaveable([value], c.g.measured)
    if bad:
        raise RuntimeProblem(f"cannot keep {bad} in the game state")


def text_of(c: Ctx, v: Any) -> str:
    """Returns how a value reads in a log line or an option label."""
    if type(v) is str:
        props = c.g.props.get(v)
        if props is not None and "name" in props:
            return str(props["name"])
        return v
    if type(v) is bool:
        return "yes" if v else "no"
    if type(v) is list:
        return " → ".join(text_of(c, x) for x in v)
    if type(v) is dict:
        return ", ".join(f"{k} {text_of(c, x)}" for k, x in v.items())
    if v is None:
        return "nothing"
    return str(v)
