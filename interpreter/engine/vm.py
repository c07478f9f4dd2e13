"""Runs compiled programs over a state until a player must decide or the game ends.

The pending work is a stack of frames in the state (program id, pc, locals), so
running stops cleanly at any decision and resumes from data alone. A step budget and
a frame-depth limit turn a runaway definition into a logged, aborted game.

A frame is only needed where a program stops: a called procedure, the one answer to an
event or an object's effect first runs without one (`_leaf`), and gets its frame only if
it stops, calls, emits or fails, as it would have had from its start. So the frames at
every decision, and every saved game, are the same as if each call had pushed one.
"""
from __future__ import annotations

from typing import Any

from ..lang.compiler import (BLOCK, CALL, CALLD, CHOOSE, EMIT, END, EXPR, FOR_INIT, FOR_NEXT, JUMP, JUMPF,
                             LET, RET, RUN, SETATTR, SETGAME)
from ..lang.helpers import one_option
from ..lang.runner import DECIDED
from ..lang.runtime import FAILURES, Ctx, RuntimeProblem, Stop, frozen, save_check, set_attr, text_of
from ..lang.values import MAX_ACTIONS, unsaveable
from .abilities import fired, replacement
from .scoring import abort, finish

FLOW_ENDED = "the flow ended"      # the result's reason when the programs run out (no end_game)


def _where(g: Any, frame: dict) -> str:
    prog = g.programs.get(frame["p"])
    if prog is None:
        return frame["p"]
    i = max(0, min(frame["pc"], len(prog.where) - 1))
    line, col, *file = prog.where[i]   # the turn structure's parts may come from several files
    return f"{file[0] if file else prog.file}:{line}:{col}"


def run(g: Any, d: dict, c: Ctx | None = None) -> None:
    """Runs until a decision is pending or the game is over: each program's runner goes
    as far as it can, this loop carries out what only it can (calls, returns, events,
    decisions, `run`, the end), and runs a program without a runner one instruction at a
    time. `c`: a context to run in (a game's own, reused from run to run; its counts are
    set anew here), else a new one."""
    frames = d["frames"]
    if not frames or d["pending"] is not None or d["terminal"]:
        if not frames and not d["terminal"]:
            finish(g, d, FLOW_ENDED)
        return
    fr = frames[-1]
    # One context for the whole run: a frame switch gives it the new frame's locals. Its
    # step count (`n`) is shared with the runners (lang/runner.py).
    _resume(g, d, _fresh(g, d, c, fr["l"]), frames, fr)


def _fresh(g: Any, d: dict, c: Ctx | None, l: dict) -> Ctx:
    """Returns a context set up for a new run from locals `l`: `c` reused with its counts
    and budget anew and no event's answers carried over from a failed run, else a new one."""
    if c is None:
        return Ctx(d, g, l, [g.work_budget])
    c.l = l                                 # (one store each: cheaper than a tuple's)
    c.n = c.at = c.dd = 0
    c.ans = None
    c.w[0] = g.work_budget
    return c


def _resume(g: Any, d: dict, c: Ctx, frames: list, fr: dict) -> None:
    """Runs on from the top frame `fr` (nothing pending, the game not over), in context
    `c` set up for a new run: `run` past its checks, which `answer` need not make."""
    pc = fr["pc"]
    prog = g.programs[fr["p"]]
    runner = prog.runner
    # A call, a return or an event switches frames in place (no exception: they are common).
    try:
        if runner is not None:
            # Most runs go from the answered decision straight to the next one: the waiting
            # program's runner alone, without the loop's set-up.
            try:
                at = runner(c, pc)
            except BaseException:
                pc = c.at + 1                    # the instruction that failed names its line
                raise
            if at >= DECIDED:
                fr["pc"] = at - DECIDED
                return
            if at >= 0:
                pc = at                          # a control instruction: the VM's own
        budget = g.step_budget
        max_depth = g.max_depth
        programs = g.programs
        replaced = g.abilities.replacements
        trace = g.trace                 # coverage: the programs this game enters (else None)
        code = prog.code
        l = c.l
        while True:
            ins = code[pc]
            op = ins[0]
            pc += 1
            c.n += 1
            if c.n > budget:
                raise RuntimeProblem(f"step budget of {budget} exceeded (an endless loop?)")
            if op == CALL or op == CALLD:
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
                fr["pc"] = pc
                if trace is not None:
                    trace.add(key)
                callee = programs.get(key)
                first = callee.runner if callee is not None else None
                if first is not None:
                    # The callee runs first without a frame of its own (direct calls under
                    # it count it: c.dd): most calls return without stopping, and then no
                    # frame was needed. One that stops, calls, emits or fails gets its
                    # frame then, as it would have had from its start.
                    c.l = args
                    c.dd = 1
                    ret_at = -1
                    try:
                        at = first(c, 0)
                        if at < DECIDED and at >= 0 and callee.code[at][0] == RET:
                            ret_at = at
                            c.n += 1                     # the return's step, as below
                            if c.n > budget:
                                raise RuntimeProblem(f"step budget of {budget} exceeded (an endless loop?)")
                            ret = callee.code[at][1]
                            value = ret(c) if ret is not None else None
                    except BaseException:
                        fr = {"p": key, "pc": 0, "l": args, "d": fr["d"], "r": ins[3]}
                        if done:
                            fr["x"] = done
                        frames.append(fr)
                        pc = ret_at + 1 if ret_at >= 0 else c.at + 1    # the instruction that failed
                        raise
                    c.dd = 0
                    if ret_at >= 0:                      # returned: the caller runs on
                        c.l = l
                        if ins[3] is not None:
                            l[ins[3]] = value
                    else:
                        fr = {"p": key, "pc": 0, "l": args, "d": fr["d"], "r": ins[3]}
                        if done:
                            fr["x"] = done
                        frames.append(fr)
                        if at >= DECIDED:                    # it asked a decision
                            fr["pc"] = at - DECIDED
                            return
                        prog = callee
                        code, runner, l = prog.code, prog.runner, args
                        pc = at if at >= 0 else ~at          # a control instruction, or one
                        continue                             # its runner cannot start at
                else:
                    fr = {"p": key, "pc": 0, "l": args, "d": fr["d"], "r": ins[3]}
                    if done:
                        fr["x"] = done
                    frames.append(fr)
                    prog = programs[key]
                    code, runner, pc = prog.code, prog.runner, 0
                    c.l = l = args
            elif op == RET:
                value = ins[1](c) if ins[1] is not None else None
                frames.pop()
                if not frames:
                    finish(g, d, FLOW_ENDED)
                    return
                into = fr["r"]
                fr = frames[-1]
                l = fr["l"]
                if into is not None:
                    l[into] = value
                prog = programs[fr["p"]]
                code, runner, pc = prog.code, prog.runner, fr["pc"]
                c.l = l
            elif op == CHOOSE:
                options, player, always = ins[2](c)
                always = always or d.get("ask_one", False)     # a state that asks every decision
                if (type(options) is list and (len(options) > 1 or always and options)
                        and type(player) is int and 0 <= player < d["n"]):
                    fr["pc"] = pc
                    # The prompt and labels are read only when asked (decision_text): they
                    # are pure, and nothing changes while the decision waits.
                    d["pending"] = {"player": player, "options": options, "var": ins[1]}
                    return
                l[ins[1]] = one_option(options, player, always)
            elif op == EMIT:
                answers = c.ans
                if answers is None:
                    fields = ins[2](c)
                    depth = fr["d"] + 1
                    answers = fired(g, d, ins[1], fields, c)
                else:                            # found by the runner that stopped here (runner.py _emit)
                    c.ans = None
                    depth = fr["d"] + 1
                if answers:
                    if depth > g.max_trigger_depth:
                        raise RuntimeProblem(f"trigger depth {g.max_trigger_depth} exceeded "
                                             f"(event '{ins[1]}' keeps firing)")
                    fr["pc"] = pc
                    if trace is not None:
                        trace.update(program for program, _fl in answers)
                    if len(answers) == 1:
                        # one answer: run first without a frame, as a call is (above)
                        program, fl = answers[0]
                        callee = programs.get(program)
                        if callee is not None and callee.runner is not None:
                            c.l = fl
                            try:
                                at = _leaf(c, callee, budget)
                            except BaseException:
                                fr = {"p": program, "pc": 0, "l": fl, "d": depth, "r": None}
                                frames.append(fr)
                                pc = c.at
                                raise
                            if at == RETURNED:
                                c.l = l
                            else:
                                fr = {"p": program, "pc": 0, "l": fl, "d": depth, "r": None}
                                frames.append(fr)
                                prog = callee
                                code, runner, l = prog.code, prog.runner, fl
                                if at >= DECIDED:
                                    fr["pc"] = at - DECIDED
                                    return
                                pc = at if at >= 0 else ~at
                                continue
                            answers = ()
                    for program, fl in reversed(answers):
                        frames.append({"p": program, "pc": 0, "l": fl, "d": depth, "r": None})
                    if answers:
                        fr = frames[-1]
                        prog = programs[fr["p"]]
                        code, runner, pc = prog.code, prog.runner, 0
                        c.l = l = fr["l"]
            elif op == RUN:
                obj = ins[1](c)
                key = g.effects.get(obj)
                if key is None:
                    raise RuntimeProblem(f"{obj!r} has no effect to run")
                if len(frames) >= max_depth:
                    raise RuntimeProblem(f"more than {max_depth} nested effects")
                fr["pc"] = pc
                if trace is not None:
                    trace.add(key)
                child = {"p": key, "pc": 0, "l": {"me": ins[2](c), "this": obj}, "d": fr["d"], "r": None}
                if "x" in fr:
                    child["x"] = fr["x"]
                callee = programs.get(key)
                if callee is not None and callee.runner is not None:
                    # without a frame first, as a call is (above)
                    c.l = child["l"]
                    try:
                        at = _leaf(c, callee, budget)
                    except BaseException:
                        frames.append(child)
                        fr, pc = child, c.at
                        raise
                    if at == RETURNED:
                        c.l = l
                    else:
                        frames.append(child)
                        fr, prog = child, callee
                        code, runner, l = prog.code, prog.runner, child["l"]
                        if at >= DECIDED:
                            fr["pc"] = at - DECIDED
                            return
                        pc = at if at >= 0 else ~at
                        continue
                else:
                    frames.append(child)
                    fr = child
                    prog = programs[key]
                    code, runner, pc = prog.code, prog.runner, 0
                    c.l = l = child["l"]
            elif op == END:
                finish(g, d, str(ins[1](c)))
                return
            else:
                try:
                    pc = _step(c, ins, op, pc, l)
                except BaseException:
                    if op == BLOCK:
                        pc += c.at               # the statement that failed names its line
                    raise
            if runner is not None:
                try:
                    at = runner(c, pc)
                except BaseException:
                    pc = c.at + 1                # the instruction that failed names its line
                    raise
                if at >= 0:
                    if at >= DECIDED:            # it asked a decision (runner.py _choose)
                        fr["pc"] = at - DECIDED
                        return
                    pc = at                      # a control instruction: the VM's own
    except FAILURES as err:
        _failed(g, d, fr, pc, err)
    except Stop as stop:            # in a procedure called directly (runtime.direct_call)
        _failed(g, d, *stop.args)


RETURNED = -(1 << 50)      # _leaf: the program returned (no pc of a runner's reads this)


def _leaf(c: Ctx, prog: Any, budget: int) -> int:
    """Runs a program from its start without a frame of its own (c.l is its locals; direct
    calls under it count it, c.dd): returns RETURNED if it ran to its return (counted
    and evaluated as the VM does), else where its runner stopped, for the VM to give it
    its frame and carry on there. A failure sets c.at to the pc after the instruction
    that failed, as the VM names it."""
    c.dd = 1
    ret_at = -1
    try:
        at = prog.runner(c, 0)
        if 0 <= at < DECIDED and prog.code[at][0] == RET:
            ret_at = at
            c.n += 1
            if c.n > budget:
                raise RuntimeProblem(f"step budget of {budget} exceeded (an endless loop?)")
            ret = prog.code[at][1]
            if ret is not None:
                ret(c)
            at = RETURNED
    except BaseException:
        c.at = ret_at + 1 if ret_at >= 0 else c.at + 1
        raise
    c.dd = 0
    return at


def _failed(g: Any, d: dict, fr: dict, pc: int, err: BaseException) -> None:
    """Ends the game as aborted by a rule that failed at instruction pc - 1 of frame fr."""
    fr["pc"] = max(pc - 1, 0)
    if isinstance(err, RuntimeProblem):
        abort(g, d, f"{_where(g, fr)}: {err}")
    elif isinstance(err, RecursionError):
        abort(g, d, f"{_where(g, fr)}: recursion too deep")
    else:
        abort(g, d, f"{_where(g, fr)}: {type(err).__name__}: {err}")


def _step(c: Ctx, ins: tuple, op: int, pc: int, l: dict) -> int:
    """Carries out one instruction that a runner would have (a program without one, or a
    saved game resumed where no runner starts); returns the next pc."""
    if op == JUMPF:
        if not ins[1](c):
            return ins[2]
    elif op == BLOCK:
        ins[1](c)
        c.n += ins[2] - 1
        return pc + ins[2] - 1
    elif op == LET:
        l[ins[1]] = ins[2](c)
    elif op == JUMP:
        return ins[1]
    elif op == FOR_NEXT:
        it = l[ins[1]]
        if it[1] < len(it[0]):
            w = c.w                      # one unit of work a turn, as a loop in a block counts it
            w[0] -= 1
            if w[0] < 0:
                from ..lang.runtime import spend     # (the budget's problem, as spend words it)
                spend(c, 0)
            l[ins[2]] = it[0][it[1]]
            it[1] += 1
        else:
            del l[ins[1]]
            return ins[3]
    elif op == EXPR:
        ins[1](c)
    elif op == FOR_INIT:
        seq = ins[2](c)
        if type(seq) is not list:
            raise RuntimeProblem(f"'for' needs a list, got {seq!r}")
        l[ins[1]] = [seq, 0]
    elif op == SETATTR:
        set_attr(c, ins[1](c), ins[2], ins[3](c))
    elif op == SETGAME:
        d = c.s
        if d.get("frozen") is not None:
            frozen(d)
        v = ins[2](c)
        if type(v) is list or type(v) is dict:
            save_check(c, v)
        d["gvars"][ins[1]] = v
    else:  # pragma: no cover
        raise RuntimeProblem(f"bad opcode {op}")
    return pc


def reading(c: Ctx, reads: Any, options: list) -> tuple[str, list[str]]:
    """Returns a decision's prompt and option labels (the options' names by default)."""
    prompt, labels = reads(c)
    if labels is None:
        labels = [text_of(c, o) for o in options]
    elif type(labels) is not list or len(labels) != len(options):
        raise RuntimeProblem("choose() labels and options differ in length")
    return str(prompt), [str(x) for x in labels]


def decision_text(g: Any, d: dict) -> tuple[str, list[str]]:
    """Returns the pending decision's prompt and labels, read from the waiting frame when
    the game did not read them (a playout): the CHOOSE it waits at, with its locals."""
    pending = d["pending"]
    if "labels" in pending:
        return pending["prompt"], pending["labels"]
    fr = d["frames"][-1]
    ins = g.programs[fr["p"]].code[fr["pc"] - 1]
    try:
        return reading(Ctx(d, g, fr["l"]), ins[3], pending["options"])
    except RuntimeProblem as err:
        return f"({err})", [text_of(Ctx(d, g, {}), o) for o in pending["options"]]


def check_waiting(g: Any, d: dict) -> None:
    """Ends the game as aborted if what waits for the pending decision (the frames' locals,
    the options) holds a value that cannot be saved exactly. Run before a state is copied or
    saved, so every state that is copied or saved can be: checking at every decision instead
    would cost every playout what only a runaway rule needs."""
    if d["terminal"] or not d["frames"]:
        return
    waiting = [d["pending"]["options"]] if d["pending"] else []
    for f in d["frames"]:
        waiting.extend(f["l"].values())
    bad = unsaveable(waiting, g.measured)
    if bad:
        abort(g, d, f"{_where(g, d['frames'][-1])}: cannot wait for a decision holding {bad}")


def resume(g: Any, d: dict, action: int, c: Ctx | None = None) -> None:
    """Answers the pending decision with option `action` and runs on."""
    pending = d["pending"]
    if pending is None:
        raise ValueError("no decision is pending")
    if type(action) is not int or not 0 <= action < len(pending["options"]):  # the API converted it
        raise ValueError(f"illegal action {action!r}: expected 0..{len(pending['options']) - 1}")
    answer(g, d, action, c)


def answer(g: Any, d: dict, action: int, c: Ctx | None = None) -> None:
    """Answers the pending decision with option `action`, already checked to be one of
    its options (GameState.apply_action checks it once), and runs on."""
    pending = d["pending"]
    frames = d["frames"]
    fr = frames[-1]
    l = fr["l"]
    l[pending["var"]] = pending["options"][action]
    d["pending"] = None
    actions = d["actions"]
    actions.append(action)
    if len(actions) >= MAX_ACTIONS:
        # a longer list would not read back (checkstate): the game stops here, saying why
        abort(g, d, f"the game did not end within {MAX_ACTIONS} decisions")
        return
    # As `run` starts, without its checks: a decision was pending, so a frame waits and
    # the game is not over (a decision's floor is a few hundred bytecodes; these are ~20).
    _resume(g, d, _fresh(g, d, c, l), frames, fr)
