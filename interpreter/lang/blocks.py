"""Straight-line statements, and ifs around them, run as one Python function (a block).

A program compiles to instructions, one a statement part, so the VM can stop and resume
anywhere. But a run of `let`, assignments, plain calls and `if`s of them holds no decision
and nothing outside jumps into its middle, so nothing ever stops there: such a run is
written as one Python function and its first instruction becomes BLOCK. The other instructions stay where they
were (nothing reaches them), so program counters, saved games and the file:line of each
instruction keep their meaning. If a statement of a block fails, the block notes which
one (`c.at`), and the problem names that statement's line as before.
"""
from __future__ import annotations

from typing import Any, Callable

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


def statement_src(op: int, ins: tuple, ops: dict[str, int], const: Callable[[Any], str]) -> str | None:
    """Returns the Python lines of one fusable instruction, or None if it cannot be fused
    (an expression not compiled from source)."""
    def src(fn: Any) -> str | None:
        if getattr(fn, "fast", False):      # a query with a fast form: call it (lang/fast.py)
            return f"{const(fn)}(c)"
        return getattr(fn, "src", None)

    if op == ops["LET"] and src(ins[2]) is not None:
        return f"l[{ins[1]!r}] = {src(ins[2])}"
    if op == ops["EXPR"] and src(ins[1]) is not None:
        return src(ins[1])
    if op == ops["SETGAME"] and src(ins[2]) is not None:
        return (f"if s.get('frozen') is not None:\n    _frozen(s)\n"
                f"v = {src(ins[2])}\n"
                f"if type(v) is list or type(v) is dict:\n    _save_check(c, v)\n"
                f"s['gvars'][{ins[1]!r}] = v")
    if op == ops["SETATTR"] and src(ins[1]) is not None and src(ins[3]) is not None:
        return f"_set_attr(c, {src(ins[1])}, {ins[2]!r}, {src(ins[3])})"
    return None


def reads_of(ins: tuple) -> tuple[str, ...]:
    """Returns the locals an instruction's expressions read (for the 'has no value' problem)."""
    out: set[str] = set()
    for part in ins[1:]:
        out.update(getattr(part, "reads", ()))
    return tuple(sorted(out))


def block_text(parts: list[str], reads: list[tuple[str, ...]]) -> str:
    """Returns the source of one block: each statement in turn (its lines made by
    `region`), the failing one noted in `i`, the instruction a jump goes to in `g`."""
    return ("def _b(c):\n    l = c.l\n    s = c.s\n    i = 0\n    g = 0\n    try:\n"
            + "\n".join("        " + line for part in parts for line in part.split("\n")) + "\n"
            f"    except KeyError as e:\n"
            f"        c.at = i\n"
            f"        if e.args and e.args[0] in {tuple(reads)!r}[i]:\n"
            f"            raise _missing(e.args[0]) from None\n"
            f"        raise\n"
            f"    except TypeError as e:\n"
            f"        c.at = i\n"
            f"        raise _RP(f'cannot compute this: {{e}}') from None\n"
            f"    except BaseException:\n"
            f"        c.at = i\n"
            f"        raise\n")


def region(code: list[tuple], i: int, ops: dict[str, int], const: Callable[[Any], str],
           came_from: dict[int, list[int]]) -> tuple[int, list[str]]:
    """Returns the end of the block starting at i and each instruction's Python lines.
    Statements and forward jumps (an `if` with no decision, call or loop in it) may be in
    a block: a taken jump sets `g`, the instruction it lands on, and the instructions
    before that one are skipped. Nothing outside may jump into the block but to its start,
    and every jump in it lands in it or at its end (where the VM goes on)."""
    jump, jumpf = ops["JUMP"], ops["JUMPF"]
    parts: list[str] = []
    j = i
    while j < len(code):
        if j > i and any(not i <= k < j for k in came_from.get(j, ())):
            break
        ins, op = code[j], code[j][0]
        if op == jump and ins[1] > j:
            part = f"g = {ins[1]}"
        elif op == jumpf and ins[2] > j and _src(ins[1], const) is not None:
            part = f"if not ({_src(ins[1], const)}):\n    g = {ins[2]}"
        else:
            part = statement_src(op, ins, ops, const)
            if part is None:
                break
        parts.append(part)
        j += 1
    # the longest prefix whose jumps all land within it or at its end
    while j > i:
        far = max((code[k][1] if code[k][0] == jump else code[k][2] for k in range(i, j)
                   if code[k][0] in (jump, jumpf)), default=j)
        if far <= j:
            break
        j -= 1
        parts.pop()
    lines = []
    skipped = set()
    for k in range(i, j):
        if code[k][0] in (jump, jumpf):
            skipped.update(range(k + 1, code[k][1] if code[k][0] == jump else code[k][2]))
    for n, part in enumerate(parts):
        body = f"i = {n}\n{part}"
        if i + n in skipped:      # a jump before it may pass over it
            body = f"if g <= {i + n}:\n" + "\n".join("    " + x for x in body.split("\n"))
        lines.append(body)
    return j, lines


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
