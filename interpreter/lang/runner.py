"""A program's instructions between two control points, run as one Python function.

The VM (engine/vm.py) keeps the pending work as frames of plain data (program, pc,
locals) so a game stops at any decision and resumes from data alone. Most instructions
never stop anything: lets, assignments, calls of verbs, jumps and `for` loops. Dispatching
each of them through the VM's loop costs more than running it, so each program also gets
a runner: `runner(c, pc)` runs from `pc` through those instructions as straight Python,
and returns the index of the next instruction that only the VM can carry out (a call, a
return, an event, a decision, `run`, the end of the game). Every place the VM may resume
at (0, after such an instruction, a jump's target) is a label of the runner, so program
counters, saved games and error locations keep their meaning.

Work is counted as the VM counts it: one step an instruction (a block its length), the
step budget checked at every jump back, so an endless loop still ends in a clean abort.
"""
from __future__ import annotations

from typing import Any, Callable

from .compiler import (BLOCK, CALL, CALLD, CHOOSE, EMIT, END, EXPR, FOR_INIT, FOR_NEXT, JUMP, JUMPF, LET, RET,
                       RUN, SETATTR, SETGAME)
from .blocks import fast_value
from .expressions import WRITING

# Whether runners find who answers an event themselves (_emit; off, the VM does), and write
# inline the functions marked raw (a repeated part's counters, load/structure.py; off, they
# call them): the tests compare the two.
RUNNER_EVENTS = True
RAW_INLINE = True

CONTROL = frozenset({CHOOSE, CALL, CALLD, RET, RUN, END, EMIT})

# A runner that set up a decision itself returns DECIDED + the pc to resume at.
DECIDED = 1 << 40


def dead_ranges(code: list[tuple]) -> set[int]:
    """Returns the instructions a BLOCK stands for: nothing reaches them but the block."""
    dead: set[int] = set()
    for k, ins in enumerate(code):
        if ins[0] == BLOCK and k not in dead:
            dead.update(range(k + 1, k + ins[2]))
    return dead


class Within:
    """What a runner may do itself besides plain instructions: call a procedure that never
    stops (`direct`: no decision, event or `run` in it or in what it calls, no replacement
    of it) as a Python call, evaluate an event no trigger or ability listens to, and find
    who answers any other event (`fire`: engine/abilities.py `fired`), going on by itself
    when no one does (_emit)."""

    def __init__(self, direct: frozenset[str] = frozenset(), silent: frozenset[str] = frozenset(),
                 fire: Callable | None = None, raw: bool = True):
        self.direct, self.silent, self.fire = direct, silent, fire
        self.raw = raw             # functions marked raw written inline (else called: _Inline)

    def control(self, ins: tuple) -> bool:
        """Whether only the VM can carry out this instruction."""
        op = ins[0]
        if op == CALL:
            return ins[1] not in self.direct
        if op == EMIT:
            return ins[1] not in self.silent
        return op in CONTROL


NONE = Within()


def never_stopping(programs: dict[str, Any], replaced: set[str], silent: frozenset[str]) -> frozenset[str]:
    """Returns the programs that run to their return without the VM: every control
    instruction in them is their return or a call of another such program (none that a
    replacement ability may take over); recursion among them is allowed (the call depth
    is still checked)."""
    keep = {k for k, prog in programs.items() if k not in replaced and runnable(prog.code)}
    changed = True
    while changed:
        changed = False
        within = Within(frozenset(keep), silent)
        for key in sorted(keep):
            code = programs[key].code
            dead = dead_ranges(code)
            if any(k not in dead and ins[0] != RET and within.control(ins) for k, ins in enumerate(code)):
                keep.discard(key)
                changed = True
    return frozenset(keep)


def runnable(code: list[tuple]) -> bool:
    """Whether a program can have a runner: no place the VM may resume at is inside a
    block, and every instruction is one this module knows."""
    dead = dead_ranges(code)
    return (not any(k in dead for k in labels_of(code, dead))
            and all(ins[0] in CONTROL or ins[0] in _PLAIN for k, ins in enumerate(code) if k not in dead))


_PLAIN = frozenset({EXPR, LET, SETATTR, JUMP, JUMPF, FOR_INIT, FOR_NEXT, SETGAME, BLOCK})


def labels_of(code: list[tuple], dead: set[int], within: Within = NONE) -> list[int]:
    """Returns where a run may start: 0, after a control instruction, a jump's target."""
    out = {0}
    for k, ins in enumerate(code):
        if k in dead:
            continue
        op = ins[0]
        if within.control(ins):
            out.add(k + 1)
        elif op == JUMP:
            out.add(ins[1])
        elif op == JUMPF:
            out.add(ins[2])
        elif op == FOR_NEXT:
            out.update((k, ins[3]))
    return sorted(x for x in out if x < len(code))


def runner_text(code: list[tuple], const: Callable[[Any], str], within: Within = NONE) -> str | None:
    """Returns the source of a program's runner, or None if it holds an instruction this
    module does not know (the VM then runs the program one instruction at a time)."""
    dead = dead_ranges(code)
    labels = labels_of(code, dead, within)
    if any(k in dead for k in labels):
        return None
    label_set = set(labels)
    blocks = sorted(k for k, ins in enumerate(code) if ins[0] == BLOCK and k not in dead)
    reads: dict[int, tuple[str, ...]] = {}
    chunks: list[list[str]] = []
    for at in labels:
        chunk = _chunk(code, at, label_set, dead, _Inline(const, reads, within))
        if chunk is None:
            return None
        chunks.append(chunk)
    body = _dispatch(labels, chunks)
    return ("def _r(c, pc):\n    l = c.l\n    n = c.n\n    i = pc\n    try:\n        while True:\n"
            + "".join(f"            {line}\n" for line in body for line in line.split("\n"))
            + "            return ~pc\n"
            # an expression written inline fails as its own function would (Compiler.function)
            "    except BaseException as e:\n"
            f"        c.at = i + c.at if i in {const(frozenset(blocks))} else i\n"
            f"        if isinstance(e, KeyError) and e.args and e.args[0] in {const(reads)}.get(i, ()):\n"
            "            raise _missing(e.args[0]) from None\n"
            f"        if isinstance(e, TypeError) and i in {const(reads)}:\n"
            "            raise _RP(f'cannot compute this: {e}') from None\n"
            "        raise\n"
            "    finally:\n"
            "        c.n = n\n")


def _dispatch(labels: list[int], chunks: list[list[str]]) -> list[str]:
    """Returns the runner's loop body: each label's chunk under `if pc == label`, halves of
    the labels under `if pc < first label of the second half`, in turn (a binary search).
    A jump back (a loop's next turn) starts again at the top, and tested every label before
    its own: now about log2 of them. A chunk falls into the next label's test as before:
    the tests stand in the labels' order, and a chunk only falls forward."""
    if len(labels) <= 3:
        return [line for at, chunk in zip(labels, chunks) for line in [f"if pc == {at}:", *_indent(chunk)]]
    mid = len(labels) // 2
    return ([f"if pc < {labels[mid]}:", *_indent(_dispatch(labels[:mid], chunks[:mid]))]
            + _dispatch(labels[mid:], chunks[mid:]))


class _Inline:
    """Writes an instruction's expression: its source inline where it has one (noting the
    locals it reads, for the problem a missing one raises), else a call of its function."""

    def __init__(self, const: Callable[[Any], str], reads: dict[int, tuple[str, ...]], within: Within):
        self.const, self.reads, self.within = const, reads, within

    def __call__(self, fn: Any, k: int) -> str:
        src = getattr(fn, "src", None)
        if src is None or getattr(fn, "fast", False):
            return f"{self.const(fn)}(c)"
        if getattr(fn, "raw", False):        # fails as written: no read noted (load/structure.py _raw)
            return f"({src})" if self.within.raw else f"{self.const(fn)}(c)"
        self.reads[k] = tuple(sorted(set(self.reads.get(k, ())) | set(getattr(fn, "reads", ()))))
        return f"({src})"

    def value(self, into: str, fn: Any, k: int) -> str:
        """The lines that put an expression's value into `into`: a query's fast source
        written in place (blocks.fast_value), else its source or a call."""
        if getattr(fn, "fast_body", None) is not None:
            return fast_value(into, fn, self.const)
        return f"{into} = {self(fn, k)}"


def _chunk(code: list[tuple], at: int, labels: set[int], dead: set[int], ex: _Inline) -> list[str] | None:
    """Returns the lines that run from label `at` up to the next label (fallen into) or
    until a jump, a return to the VM. `k` counts the instructions run since `at`."""
    lines: list[str] = []
    k = at
    count = 0
    while True:
        if k != at and k in labels:
            lines += [f"n += {count}", f"pc = {k}"]       # falls into the next label's chunk
            return lines
        if k >= len(code) or k in dead:
            return None
        ins, op = code[k], code[k][0]
        lines.append(f"i = {k}")
        if op == CHOOSE and hasattr(ins[2], "parts"):
            return lines + ([f"n += {count}"] if count else []) + _choose(ins, k, ex)
        if op == EMIT and ex.within.fire is not None and ins[1] not in ex.within.silent:
            lines += ([f"n += {count}"] if count else []) + _emit(ins, k, ex)
            count = 0
            k += 1
            continue
        if ex.within.control(ins):
            lines += ([f"n += {count}"] if count else []) + [f"return {k}"]
            return lines
        count += ins[2] if op == BLOCK else 1
        if op == CALL or op == EMIT:
            lines += _within(ins, k, count, ex)
            count = 0
            k += 1
            continue
        if op == JUMP:
            lines += _jump(k, ins[1], count)
            return lines
        part = _straight(op, ins, k, count, ex)
        if part is None:
            return None
        lines += part
        k = k + ins[2] if op == BLOCK else k + 1


def _within(ins: tuple, k: int, count: int, ex: _Inline) -> list[str]:
    """A call of a procedure that never stops, as a Python call (the steps counted so far
    handed over, its own added on return), or an event no one listens to (its fields are
    still computed: a rule that cannot compute them fails here as before)."""
    if ins[0] == EMIT:
        return [f"n += {count}", f"{ex.const(ins[2])}(c)"]
    call = f"_pcall(c, {ins[1]!r}, _a)"
    return [f"n += {count}", "c.n = n", ex.value("_a", ins[2], k),
            f"l[{ins[3]!r}] = {call}" if ins[3] is not None else call,
            "n = c.n"]


def _emit(ins: tuple, k: int, ex: _Inline) -> list[str]:
    """An event some trigger or ability listens to: the runner finds who answers it (its
    fields computed by their function, so a failure is the VM's own), and goes on when
    no one does, counting its step. Else it hands the answers (c.ans) to the VM, which
    runs them from this instruction (engine/vm.py: EMIT); within the step budget only,
    past it the VM names the problem."""
    return [f"if n >= c.g.step_budget:\n    return {k}",
            f"_ans = {ex.const(ex.within.fire)}(c.g, c.s, {ins[1]!r}, {ex.const(ins[2])}(c), c)",
            f"if _ans:\n    c.ans = _ans\n    return {k}",
            "n += 1"]


def _choose(ins: tuple, k: int, ex: _Inline) -> list[str]:
    """A decision, as the VM sets it up (one step; the VM stops a run over its budget): it
    asks, returning DECIDED + the pc after it, or takes the one option (then runs on), or
    raises what is wrong with it."""
    opts, player, always = ins[2].parts
    al = f"(({ex(always, k)}) or c.s.get('ask_one', False))"
    if getattr(always, "src", None) in _CONSTANT:
        # a constant `always` (the default) is read only where it counts, when there are
        # fewer than two options: it cannot fail, and ask_one is plain data
        ask = [f"if type(_o) is list and (len(_o) > 1 or {al} and _o) and type(_pl) is int "
               "and 0 <= _pl < c.s['n']:"]
    else:
        ask = [f"_al = {al}",
               "if type(_o) is list and (len(_o) > 1 or _al and _o) and type(_pl) is int and 0 <= _pl < c.s['n']:"]
        al = "_al"
    return [f"if n >= c.g.step_budget:\n    return {k}",
            "n += 1",
            ex.value("_o", opts, k),
            f"_pl = {ex(player, k)}"] + ask + [
            f"    c.s['pending'] = {{'player': _pl, 'options': _o, 'var': {ins[1]!r}}}",
            f"    return {DECIDED + k + 1}",
            f"l[{ins[1]!r}] = _one(_o, _pl, {al})",
            f"pc = {k + 1}"]


_CONSTANT = frozenset({"False", "True"})       # the source of a constant `always` (compiler.choose_spec)


def _indent(lines: list[str]) -> list[str]:
    """Returns the lines (each may hold several) one level deeper, one line an entry."""
    return ["    " + x for line in lines for x in line.split("\n")]


def _jump(k: int, target: int, count: int) -> list[str]:
    """A jump: forward, or back (where the step budget is checked)."""
    out = [f"n += {count}", f"pc = {target}"]
    if target <= k:
        out.append("if n > c.g.step_budget:\n    _budget(c)")
    out.append("continue")
    return out


def _straight(op: int, ins: tuple, k: int, count: int, ex: _Inline) -> list[str] | None:
    """Returns the lines of one instruction that does not leave the runner (a jump taken
    inside it leaves the chunk with `continue`)."""
    if op == EXPR:
        return [ex(ins[1], k)]
    if op == LET and getattr(ins[2], "fast_body", None) is not None:
        return [fast_value(f"l[{ins[1]!r}]", ins[2], ex.const)]       # no call (blocks.py)
    if op == LET:
        return [f"l[{ins[1]!r}] = {ex(ins[2], k)}"]
    if op == JUMPF and getattr(ins[1], "fast_body", None) is not None:
        return [fast_value("_x", ins[1], ex.const), "if not _x:"] + _indent(_jump(k, ins[2], count))
    if op == BLOCK:
        return [f"{ex.const(ins[1])}(c)"]
    if op == JUMPF:
        return [f"if not {ex(ins[1], k)}:"] + _indent(_jump(k, ins[2], count))
    if op == FOR_INIT:
        return [ex.value("_q", ins[2], k),
                "if type(_q) is not list:\n    raise _RP(f\"'for' needs a list, got {_q!r}\")",
                f"l[{ins[1]!r}] = [_q, 0]"]
    if op == FOR_NEXT:
        slot, var, end = ins[1], ins[2], ins[3]
        return [f"_it = l[{slot!r}]",
                "_at = _it[1]",                    # (read once: a turn of every loop pays it)
                "_seq = _it[0]",
                "if _at < len(_seq):",
                "    _w = c.w",                    # one unit of work a turn (as the VM counts it)
                "    _w[0] -= 1",
                "    if _w[0] < 0:\n        _spend(c, 0)",
                f"    l[{var!r}] = _seq[_at]",
                "    _it[1] = _at + 1",
                "else:",
                f"    del l[{slot!r}]"] + _indent(_jump(k, end, count))
    if op == SETATTR:
        return [ex.value("_e", ins[1], k), ex.value("_v", ins[3], k), f"_set_attr(c, _e, {ins[2]!r}, _v)"]
    if op == SETGAME:
        return ["if c.s.get('frozen') is not None:\n    _frozen(c.s)",
                ex.value("_v", ins[2], k)] + \
            ([] if getattr(ins[2], "scalar", False) else      # never a list or record (expressions._scalar)
             ["if type(_v) in _KEPT:\n    _save_check(c, _v)"]) + \
            [f"c.s['gvars'][{ins[1]!r}] = _v"]
    return None


def attach(programs: dict[str, Any], replaced: set[str], listened: set[str], comp: Any,
           fire: Callable | None = None) -> None:
    """Gives every program a runner, written and compiled when the program first runs
    (most of a game's programs never run in one process, and writing them all cost a
    seventh of a build). Done once the whole game is compiled: which procedures never
    stop depends on every program, the replacement abilities and the listeners."""
    comp.built_consts = len(comp.consts)      # runners name what else they need per program
    emitted = {ins[1] for prog in programs.values() for ins in prog.code if ins[0] == EMIT}
    silent = frozenset(emitted - listened)
    within = Within(never_stopping(programs, replaced, silent), silent, fire, RAW_INLINE)
    for key, prog in programs.items():
        prog.runner = _lazy(key, prog, within, comp) if runnable(prog.code) else None


def _lazy(key: str, prog: Any, within: Within, comp: Any) -> Callable:
    def first(c: Any, pc: int) -> int:
        with WRITING:                    # games of one compile may start in several threads (web)
            if prog.runner is first:
                text = runner_text(prog.code, comp.scoped_const(key), within)
                comp.origin = key           # its name in tracebacks and profiles
                prog.runner = comp.define(text) if text is not None else None
        if prog.runner is None:
            return ~pc                      # the VM runs it one instruction at a time
        return prog.runner(c, pc)
    return first
