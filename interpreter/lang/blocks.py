"""Straight-line statements run as one Python function (a block).

A program compiles to instructions, one a statement part, so the VM can stop and resume
anywhere. But a run of `let`, assignments and plain calls holds no decision and nothing
jumps into its middle, so nothing ever stops there: such a run is written as one Python
function and its first instruction becomes BLOCK. The other instructions stay where they
were (nothing reaches them), so program counters, saved games and the file:line of each
instruction keep their meaning. If a statement of a block fails, the block notes which
one (`c.at`), and the problem names that statement's line as before.
"""
from __future__ import annotations

from typing import Any, Callable

MIN_RUN = 2      # a single statement gains nothing from a block


def targets(code: list[tuple], jumps: dict[int, int]) -> set[int]:
    """Returns the instructions some jump lands on (`jumps`: opcode -> index of its target)."""
    out = set()
    for ins in code:
        at = jumps.get(ins[0])
        if at is not None:
            out.add(ins[at])
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
    """Returns the source of one block: each statement in turn, the failing one noted."""
    body = []
    for i, part in enumerate(parts):
        body.append(f"        i = {i}")
        body.extend("        " + line for line in part.split("\n"))
    return ("def _b(c):\n    l = c.l\n    s = c.s\n    i = 0\n    try:\n" + "\n".join(body) + "\n"
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


def fuse(code: list[tuple], ops: dict[str, int], define: Callable[[str], Any],
         const: Callable[[Any], str]) -> list[tuple]:
    """Returns the code with each run of fusable instructions started by a BLOCK."""
    landing = targets(code, {ops["JUMP"]: 1, ops["JUMPF"]: 2, ops["FOR_NEXT"]: 3})
    out = list(code)
    i = 0
    while i < len(code):
        parts: list[str] = []
        reads: list[tuple[str, ...]] = []
        j = i
        while j < len(code) and (j == i or j not in landing):
            part = statement_src(code[j][0], code[j], ops, const)
            if part is None:
                break
            parts.append(part)
            reads.append(reads_of(code[j]))
            j += 1
        if len(parts) >= MIN_RUN:
            out[i] = (ops["BLOCK"], define(block_text(parts, reads)), len(parts))
        i = max(j, i + 1)
    return out
