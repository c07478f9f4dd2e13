"""Runs compiled programs over a state until a player must decide or the game ends.

The pending work is a stack of frames in the state (program id, pc, locals), so
running stops cleanly at any decision and resumes from data alone. A step budget and
a frame-depth limit turn a runaway definition into a logged, aborted game.
"""
from __future__ import annotations

from typing import Any

from ..lang.compiler import (CALL, CALLD, CHOOSE, EMIT, END, EXPR, FOR_INIT, FOR_NEXT, JUMP, JUMPF,
                             LET, RET, RUN, SETATTR, SETGAME)
from ..lang.runtime import Ctx, RuntimeProblem, frozen, save_check, set_attr, text_of
from .abilities import fired, replacement
from .values import unsaveable
from .scoring import abort, finish


class Stop(Exception):
    """Internal: the running frame suspended or the game ended."""


def _where(g: Any, frame: dict) -> str:
    prog = g.programs.get(frame["p"])
    if prog is None:
        return frame["p"]
    i = max(0, min(frame["pc"], len(prog.where) - 1))
    line, col, *file = prog.where[i]   # the turn structure's parts may come from several files
    return f"{file[0] if file else prog.file}:{line}:{col}"


def run(g: Any, d: dict) -> None:
    """Runs until a decision is pending or the game is over."""
    budget = g.step_budget
    max_depth = g.max_depth
    replaced = g.abilities.replacements
    work = [g.work_budget]
    steps = 0
    # Frames below `low` have not run since the last decision, so their locals were
    # checked then; only the frames above (and the one a return wrote into) are checked.
    frames = d["frames"]
    low = max(len(frames) - 1, 0)
    while frames and d["pending"] is None and not d["terminal"]:
        fr = frames[-1]
        prog = g.programs[fr["p"]]
        code = prog.code
        l = fr["l"]
        c = Ctx(d, g, l, work)
        pc = fr["pc"]
        try:
            while True:
                ins = code[pc]
                op = ins[0]
                pc += 1
                steps += 1
                if steps > budget:
                    fr["pc"] = pc - 1
                    raise RuntimeProblem(f"step budget of {budget} exceeded (an endless loop?)")
                if op == EXPR:
                    ins[1](c)
                elif op == LET:
                    l[ins[1]] = ins[2](c)
                elif op == JUMPF:
                    if not ins[1](c):
                        pc = ins[2]
                elif op == JUMP:
                    pc = ins[1]
                elif op == FOR_NEXT:
                    it = l[ins[1]]
                    if it[1] < len(it[0]):
                        l[ins[2]] = it[0][it[1]]
                        it[1] += 1
                    else:
                        del l[ins[1]]
                        pc = ins[3]
                elif op == FOR_INIT:
                    seq = ins[2](c)
                    if type(seq) is not list:
                        raise RuntimeProblem(f"'for' needs a list, got {seq!r}")
                    l[ins[1]] = [seq, 0]
                elif op == SETATTR:
                    set_attr(c, ins[1](c), ins[2], ins[3](c))
                elif op == SETGAME:
                    if d.get("frozen") is not None:
                        frozen(d)
                    v = ins[2](c)
                    if type(v) is list or type(v) is dict:
                        save_check(c, v)
                    d["gvars"][ins[1]] = v
                elif op == CHOOSE:
                    options, player, prompt, labels, always = ins[2](c)
                    if type(options) is not list:
                        raise RuntimeProblem(f"choose() needs a list of options, got {options!r}")
                    if not options:
                        raise RuntimeProblem(f"choose() has no options ({prompt})")
                    if len(options) == 1 and not always:
                        l[ins[1]] = options[0]
                        continue
                    if type(player) is not int or not 0 <= player < d["n"]:
                        raise RuntimeProblem(f"choose() needs player=<seat>, got {player!r}")
                    if labels is None:
                        labels = [text_of(c, o) for o in options]
                    elif len(labels) != len(options):
                        raise RuntimeProblem("choose() labels and options differ in length")
                    fr["pc"] = pc
                    d["pending"] = {"player": player, "prompt": str(prompt), "options": options,
                                    "labels": [str(x) for x in labels], "var": ins[1]}
                    # Everything that waits for the answer is saved with the state: it must save.
                    waiting = [options]
                    for f in frames[low:]:
                        waiting.extend(f["l"].values())   # (locals change: measure the values)
                    bad = unsaveable(waiting, g.measured)
                    if bad:
                        d["pending"] = None
                        raise RuntimeProblem(f"cannot wait for a decision holding {bad}")
                    raise Stop
                elif op == RET:
                    value = ins[1](c) if ins[1] is not None else None
                    frames.pop()
                    if len(frames) <= low:
                        low = max(len(frames) - 1, 0)
                    if not frames:
                        finish(g, d, "the flow ended")
                        raise Stop
                    if fr["r"] is not None:
                        frames[-1]["l"][fr["r"]] = value
                    raise Stop
                elif op == CALL or op == CALLD:
                    fr["pc"] = pc
                    if len(frames) >= max_depth:
                        raise RuntimeProblem(f"more than {max_depth} nested calls (endless recursion?)")
                    key = ins[1] if op == CALL else ins[1](c)
                    args = ins[2](c)
                    done = fr.get("x")
                    if key in replaced:
                        # A replacement ability that counts runs instead; it may call the
                        # procedure again, which then skips the replacements already applied.
                        rep = replacement(g, d, key, args, done)
                        if rep is not None:
                            key, args, done = rep
                    child = {"p": key, "pc": 0, "l": args, "d": fr["d"], "r": ins[3]}
                    if done:
                        child["x"] = done
                    frames.append(child)
                    raise Stop
                elif op == RUN:
                    obj = ins[1](c)
                    key = g.effects.get(obj)
                    if key is None:
                        raise RuntimeProblem(f"{obj!r} has no effect to run")
                    fr["pc"] = pc
                    if len(frames) >= max_depth:
                        raise RuntimeProblem(f"more than {max_depth} nested effects")
                    frames.append({"p": key, "pc": 0, "l": {"me": ins[2](c), "this": obj},
                                   "d": fr["d"], "r": None, **({"x": fr["x"]} if "x" in fr else {})})
                    raise Stop
                elif op == EMIT:
                    fields = ins[2](c)
                    fr["pc"] = pc
                    depth = fr["d"] + 1
                    answers = fired(g, d, ins[1], fields)
                    if answers and depth > g.max_trigger_depth:
                        raise RuntimeProblem(f"trigger depth {g.max_trigger_depth} exceeded "
                                             f"(event '{ins[1]}' keeps firing)")
                    for program, l in reversed(answers):
                        frames.append({"p": program, "pc": 0, "l": l, "d": depth, "r": None})
                    raise Stop
                elif op == END:
                    finish(g, d, str(ins[1](c)))
                    raise Stop
                else:  # pragma: no cover
                    raise RuntimeProblem(f"bad opcode {op}")
        except Stop:
            continue
        except RuntimeProblem as err:
            fr["pc"] = max(pc - 1, 0)
            abort(g, d, f"{_where(g, fr)}: {err}")
        except RecursionError:
            fr["pc"] = max(pc - 1, 0)
            abort(g, d, f"{_where(g, fr)}: recursion too deep")
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
                OverflowError, MemoryError) as err:
            fr["pc"] = max(pc - 1, 0)
            abort(g, d, f"{_where(g, fr)}: {type(err).__name__}: {err}")
    if not frames and not d["terminal"]:
        finish(g, d, "the flow ended")


def resume(g: Any, d: dict, action: int) -> None:
    """Answers the pending decision with option `action` and runs on."""
    pending = d["pending"]
    if pending is None:
        raise ValueError("no decision is pending")
    if type(action) is not int or not 0 <= action < len(pending["options"]):  # the API converted it
        raise ValueError(f"illegal action {action!r}: expected 0..{len(pending['options']) - 1}")
    d["frames"][-1]["l"][pending["var"]] = pending["options"][action]
    d["pending"] = None
    d["actions"].append(action)
    run(g, d)
