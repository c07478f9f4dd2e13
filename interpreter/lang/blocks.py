"""Straight-line statements, and ifs and for loops of them, run as one Python function.

A program compiles to instructions, one a statement part, so the VM can stop and resume
anywhere. But a run of `let`, assignments, plain calls and `if`s and `for` loops of them
holds no decision and nothing outside jumps into its middle, so nothing ever stops there:
such a run is written as one Python function and its first instruction becomes BLOCK. The
other instructions stay where they were (nothing reaches them), so program counters, saved
games and the file:line of each instruction keep their meaning. If a statement of a block fails, the block notes which
one (`c.at`), and the problem names that statement's line as before.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from . import fast as fastsrc

MIN_RUN = 2      # a single statement gains nothing from a block


def sources(code: list[tuple], jumps: dict[int, int]) -> dict[int, list[int]]:
    """Returns, for each instruction some jump lands on, the instructions that jump there
    (`jumps`: opcode -> index of its target)."""
    out: dict[int, list[int]] = {}
    for k, ins in enumerate(code):
        at = jumps.get(ins[0])
        if at is not None:
            out.setdefault(ins[at], []).append(k)
    return out


def statement_src(op: int, ins: tuple, ops: dict[str, int], const: Callable[[Any], str],
                  tables: bool = True) -> str | None:
    """Returns the Python lines of one fusable instruction, or None if it cannot be fused
    (an expression not compiled from source)."""
    def src(fn: Any) -> str | None:
        if getattr(fn, "fast", False):      # a query with a fast form: call it (lang/fast.py)
            return f"{const(fn)}(c)"
        return getattr(fn, "src", None)

    def value(into: str, fn: Any) -> str:
        """An assigned value: a query's fast source written in place, else its source."""
        if getattr(fn, "fast_body", None) is not None:
            return fast_value(into, fn, const, tables)
        return f"{into} = {src(fn)}"

    if op == ops["LET"] and getattr(ins[2], "fast_body", None) is not None:
        return fast_value(f"l[{ins[1]!r}]", ins[2], const, tables)
    if op == ops["LET"] and src(ins[2]) is not None:
        return f"l[{ins[1]!r}] = {src(ins[2])}"
    if op == ops["EXPR"] and src(ins[1]) is not None:
        return src(ins[1])
    if op == ops["SETGAME"] and src(ins[2]) is not None:
        return (f"if s.get('frozen') is not None:\n    _frozen(s)\n"
                f"{value('v', ins[2])}\n"
                + ("" if getattr(ins[2], "scalar", False) else
                   "if type(v) in _KEPT:\n    _save_check(c, v)\n")
                + f"s['gvars'][{ins[1]!r}] = v")
    if op == ops["SETATTR"] and src(ins[1]) is not None and src(ins[3]) is not None:
        return f"{value('_e', ins[1])}\n{value('v', ins[3])}\n_set_attr(c, _e, {ins[2]!r}, v)"
    return None


def reads_of(ins: tuple) -> tuple[str, ...]:
    """Returns the locals an instruction's expressions read (for the 'has no value' problem)."""
    out: set[str] = set()
    for part in ins[1:]:
        out.update(getattr(part, "reads", ()))
    return tuple(sorted(out))


def block_text(parts: list[str], reads: list[tuple[str, ...]]) -> str:
    """Returns the source of one block: each statement in turn (its lines made by
    `region`), the instruction a jump goes to in `g`. A failing statement is found from
    the line it failed on (statement_lines), so a statement that runs sets nothing."""
    body, lines = statement_lines([line for part in parts for line in part.split("\n")], 6)
    return ("def _b(c):\n    l = c.l\n    s = c.s\n    g = 0\n    try:\n"
            + "\n".join("        " + line for line in body) + "\n"
            f"    except BaseException as e:\n"
            f"        c.at = i = {lines!r}[e.__traceback__.tb_lineno]\n"
            f"        if isinstance(e, KeyError) and e.args and e.args[0] in {tuple(reads)!r}[i]:\n"
            f"            raise _missing(e.args[0]) from None\n"
            f"        if isinstance(e, TypeError):\n"
            f"            raise _RP(f'cannot compute this: {{e}}') from None\n"
            f"        raise\n")


_MARK = re.compile(r"^(\s*)i = (\d+)$")


def statement_lines(lines: list[str], first: int) -> tuple[list[str], tuple[int, ...]]:
    """Returns the lines without their `i = k` marks (which `region` writes before each
    statement's lines), and the statement of every line of the function by its number
    (`first`: the number of the first of these lines). A line belongs to the statement
    whose mark is the nearest before it: the lines between a mark and the next (the
    statement, a guard, a loop's head) can only fail as that statement."""
    out: list[str] = []
    at = [0] * first
    k = 0
    for line in lines:
        mark = _MARK.match(line)
        if mark is not None:
            k = int(mark.group(2))
            continue
        out.append(line)
        at.append(k)
    return out, tuple(at)


def region(code: list[tuple], i: int, ops: dict[str, int], const: Callable[[Any], str],
           came_from: dict[int, list[int]]) -> tuple[int, list[str]]:
    """Returns the end of the block starting at i and its Python lines, one part an
    instruction (a loop: one part for all of it). Statements, forward jumps (an `if` with
    no decision, call or loop in it) and `for` loops of such statements may be in a block:
    a taken jump sets `g`, the instruction it lands on, and the ones before it are skipped.
    Nothing outside may jump into the block but to its start, and every jump in it lands
    in it or at its end (where the VM goes on)."""
    jump, jumpf = ops["JUMP"], ops["JUMPF"]
    items: list[tuple[int, int, str]] = []          # (first instruction, end, lines)
    j = i
    while j < len(code):
        if j > i and any(not i <= k < j for k in came_from.get(j, ())):
            break
        if code[j][0] == ops["FOR_INIT"]:
            loop = _loop(code, j, i, ops, const, came_from)
            if loop is None:
                break
            items.append((j, loop[0], loop[1]))
            j = loop[0]
            continue
        part = _simple(code, j, len(code), ops, const, {})
        if part is None:
            break
        items.append((j, j + 1, part[0]))
        j += 1
    # the longest prefix whose jumps all land within it or at its end
    while items:
        j = items[-1][1]
        far = max((_target(code[k], ops) for k0, k1, _t in items if k1 == k0 + 1 for k in [k0]
                   if code[k][0] in (jump, jumpf)), default=j)
        if far <= j:
            break
        items.pop()
    j = items[-1][1] if items else i
    skipped: set[int] = set()
    for k0, k1, _t in items:
        if k1 == k0 + 1 and code[k0][0] in (jump, jumpf):
            skipped.update(range(k0 + 1, _target(code[k0], ops)))
    lines = [_guard(f"i = {k0 - i}\n{text}", k0, "g") if k0 in skipped else f"i = {k0 - i}\n{text}"
             for k0, _k1, text in items]
    return j, lines


def _target(ins: tuple, ops: dict[str, int]) -> int:
    return ins[1] if ins[0] == ops["JUMP"] else ins[2]


def _guard(body: str, k: int, var: str) -> str:
    """Runs `body` only if no jump passed over instruction k."""
    return f"if {var} <= {k}:\n" + "\n".join("    " + x for x in body.split("\n"))


def _simple(code: list[tuple], k: int, hi: int, ops: dict[str, int], const: Callable[[Any], str],
            exits: dict[int, str], var: str = "g", tables: bool = True) -> tuple[str, int | None] | None:
    """Returns the lines of one statement or jump (and where a jump may skip to), or None.
    A jump lands forward up to `hi`, or on a target of `exits` (break, continue). `tables`:
    as in fast_value."""
    ins, op = code[k], code[k][0]
    if op in (ops["JUMP"], ops["JUMPF"]):
        t = _target(ins, ops)
        if t in exits:
            act, skip = exits[t], None
        elif k < t <= hi:
            act, skip = f"{var} = {t}", t
        else:
            return None
        if op == ops["JUMP"]:
            return act, skip
        if getattr(ins[1], "fast_body", None) is not None:
            return f"{fast_value('_x', ins[1], const, tables)}\nif not _x:\n    {act}", skip
        cond = _src(ins[1], const)
        return (None if cond is None else (f"if not ({cond}):\n    {act}", skip))
    part = statement_src(op, ins, ops, const, tables)
    return None if part is None else (part, None)


def _loop(code: list[tuple], j: int, base: int, ops: dict[str, int], const: Callable[[Any], str],
          came_from: dict[int, list[int]]) -> tuple[int, str] | None:
    """Returns the end and the lines of a `for` loop at j whose body is statements and
    forward jumps (break and continue included), or None. Each turn counts one unit of
    work, so loops in blocks stay within the work budget between two decisions."""
    init, head = code[j], j + 1
    if head >= len(code) or code[head][0] != ops["FOR_NEXT"] or code[head][1] != init[1]:
        return None
    seq, var, end = _src(init[2], const), code[head][2], code[head][3]
    back = end - 1
    if seq is None or code[back] != (ops["JUMP"], head):
        return None
    if any(not j <= k < end for t in range(head, end) for k in came_from.get(t, ())):
        return None
    exits = {end: "break", head: "continue", back: "continue"}
    # a loop that only reads the game (its lets and conditions only query) reads the
    # state's tables its queries use once, before its first turn
    reads = all(code[k][0] == ops["JUMP"] or (code[k][0] in (ops["LET"], ops["JUMPF"])
                                              and getattr(code[k][-2 if code[k][0] == ops["JUMPF"] else 2],
                                                          "pure", False))
                for k in range(head + 1, back))
    tables = "".join(fastsrc.prologue(f.fast_body) for k in range(head + 1, back) for f in code[k][1:]
                     if getattr(f, "fast_body", None) is not None) if reads else ""
    body, skipped = [], set()
    for k in range(head + 1, back):
        part = _simple(code, k, back, ops, const, exits, "h", not reads)
        if part is None:
            return None
        if part[1] is not None:
            skipped.update(range(k + 1, part[1]))
        body.append((k, part[0]))
    inner = [_guard(f"i = {k - base}\n{t}", k, "h") if k in skipped else f"i = {k - base}\n{t}"
             for k, t in body]
    first = fast_value("_q", init[2], const) if getattr(init[2], "fast_body", None) is not None else f"_q = {seq}"
    text = (f"{first}\n"
            f"if type(_q) is not list:\n    raise _RP(f\"'for' needs a list, got {{_q!r}}\")\n"
            + "".join(sorted({x.strip() + "\n" for x in tables.splitlines()}))
            + f"_w = c.w\n"
            f"for _v in _q:\n    i = {head - base}\n    _w[0] -= 1\n    if _w[0] < 0:\n        _spend(c, 0)\n"
            f"    l[{var!r}] = _v\n    h = 0\n"
            + "\n".join("    " + x for part in inner for x in part.split("\n")))
    return end, text


def fast_value(into: str, fn: Any, const: Callable[[Any], str], tables: bool = True) -> str:
    """The lines that put the value of a query with a fast form into `into`: its fast
    source written in place (no call), its checked form run on a Python error. `tables`:
    read the state's tables it uses (false in a loop that only reads, which read them once)."""
    return fastsrc.inline_text(into, fn.fast_body, const(fn.checked), tables)


def _src(fn: Any, const: Callable[[Any], str]) -> str | None:
    if getattr(fn, "fast", False):
        return f"{const(fn)}(c)"
    return getattr(fn, "src", None)


def fuse(code: list[tuple], ops: dict[str, int], define: Callable[[str], Any],
         const: Callable[[Any], str]) -> list[tuple]:
    """Returns the code with each run of fusable instructions started by a BLOCK."""
    came_from = sources(code, {ops["JUMP"]: 1, ops["JUMPF"]: 2, ops["FOR_NEXT"]: 3})
    out = list(code)
    i = 0
    while i < len(code):
        j, parts = region(code, i, ops, const, came_from)
        if len(parts) >= MIN_RUN:
            reads = [reads_of(code[k]) for k in range(i, j)]
            out[i] = (ops["BLOCK"], define(block_text(parts, reads)), j - i)
        i = max(j, i + 1)
    return out
