"""Blocks of text (a card drawn by its show function, a sheet's cards) laid out side by
side within the screen's width without ever wrapping into each other: every line is cut
to its column before the columns are joined, a long line wrapped under its own indent."""
from __future__ import annotations

import re
import textwrap

from rich.text import Text

MARK = re.compile(r"\[\d+\]")       # an option's number on a drawing: shown reversed
GAP = 1


def wrap_line(line: str, width: int) -> list[str]:
    """A line as lines of at most `width`, the ones after the first indented 4 more than
    it, so a wrapped task or title reads as one item."""
    if len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    hang = " " * min(indent + 4, width // 2)
    return textwrap.wrap(line.strip(), width, initial_indent=" " * indent, subsequent_indent=hang,
                         break_long_words=True, break_on_hyphens=False) or [""]


def split_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """Where a drawing's blocks lie, as (start, end) line ranges: a first line at the left
    edge with the rest indented is a heading of its own; the rest splits at each line of
    the least indent (a card's title) when every block so made has 3 lines or more."""
    head = 1 if len(lines) > 1 and not lines[0].startswith(" ") and all(
        x.startswith(" ") or not x.strip() for x in lines[1:]) else 0
    rest = [i for i in range(head, len(lines)) if lines[i].strip()]
    if not rest:
        return [(0, len(lines))]
    least = min(_indent(lines[i]) for i in rest)
    starts = [i for i in rest if _indent(lines[i]) == least]
    ends = starts[1:] + [len(lines)]
    if starts[0] != head or any(e - s < 3 for s, e in zip(starts, ends)):
        return [(0, head)] * head + [(head, len(lines))]
    return [(0, head)] * head + list(zip(starts, ends))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def side_by_side(blocks: list[list[str]], width: int, column: int | None = None) -> list[Text]:
    """Blocks in columns of `column` (default: two to a screen when each fits half), each
    line wrapped within its column; marks ([n]) reversed. A block that cannot be read in a
    column (a line wider than it with no space to wrap at) goes alone on the full width."""
    col = column or (width - GAP) // 2
    per_row = max(1, (width + GAP) // (col + GAP))
    out: list[Text] = []
    row: list[list[str]] = []

    def flush() -> None:
        if not row:
            return
        wrapped = [[w for line in b for w in wrap_line(line.rstrip(), col)] for b in row]
        for i in range(max(len(w) for w in wrapped)):
            cells = [(w[i] if i < len(w) else "").ljust(col) for w in wrapped]
            out.append(styled((" " * GAP).join(cells).rstrip()))
        row.clear()

    for block in blocks:
        strip = _strip(block)
        if per_row == 1 or any(len(max(line.split(), key=len, default="")) > col for line in strip):
            flush()
            out.extend(styled(w) for line in strip for w in wrap_line(line.rstrip(), width))
            continue
        row.append(strip)
        if len(row) == per_row:
            flush()
    flush()
    return out


def _strip(block: list[str]) -> list[str]:
    """The block without the indent all its lines share."""
    body = [line for line in block if line.strip()]
    cut = min((len(x) - len(x.lstrip(" ")) for x in body), default=0)
    return [line[cut:] for line in block]


def styled(line: str) -> Text:
    """A line with its option marks reversed (they read without colour as [n] too)."""
    t = Text(line, no_wrap=True, overflow="crop")
    for m in MARK.finditer(line):
        t.stylize("reverse bold", m.start(), m.end())
    return t


def paragraph(head: str, body: str, width: int, style: str = "", limit: int = 0) -> Text:
    """A head in bold and a body, wrapped to `width` with the lines after the first
    indented (so prose never looks like a column's tail); at most `limit` lines (0: all),
    the last one saying what was cut."""
    lines = wrap_line(head + body, width)
    if limit and len(lines) > limit:
        lines = lines[:limit]
        lines[-1] = lines[-1][: width - 24].rsplit(";", 1)[0] + "; ... (l shows the log)"
    t = Text("\n".join(lines), style=style, no_wrap=True, overflow="crop")
    t.stylize("bold", 0, len(head))
    return t
