"""The drawing a decision is about when it is not on the board: a sheet the rules draw in
the log for the deciding seat alone (a private working copy, so no zone shows it), kept
whole on the screen with the candidates marked by their option numbers.

A drawing is the latest log entry of several lines written to the seat since the last
line written to everyone. Its candidates are found by what the options name: an object's
name starting a line (a card's title), a cell by its row letter and column number ("B3",
under a header of column numbers, beside a row's letter), or a whole row ("row B")."""
from __future__ import annotations

import re
from typing import Any

from ..lang.runtime import Ctx, text_of

CELL = re.compile(r"\b([A-Z])([1-9][0-9]?)\b")
ROW = re.compile(r"\brow ([A-Z])\b")
LINKS = set(" -=|‖")


def latest_drawing(d: dict, seat: int) -> str | None:
    """The seat's current private drawing: the last entry of several lines written to it
    after the last line written to everyone (None when there is none)."""
    for text, to in reversed(d["log"]):
        if to is None:
            return None
        if to == seat and "\n" in text:
            return text
    return None


def mark_drawing(g: Any, d: dict, text: str, labels: list[str], options: list[Any]) -> tuple[list[str], dict[int, set]]:
    """The drawing's lines with each candidate marked "[n]" (n its option number), and, for
    each line, the columns marked (to show them reversed). Also returns the words that name
    an option by its cell ("b3")."""
    lines = text.split("\n")
    marked: dict[int, set] = {}
    c = Ctx(d, g, {})
    header = _header(lines)
    rows = {m.group(1): i for i, line in enumerate(lines) if (m := re.match(r"\s*([A-Z])\s", line))}
    for n, (label, opt) in enumerate(zip(labels, options), start=1):
        tag = f"[{n}]"
        name = text_of(c, opt) if isinstance(opt, str) and opt in g.props else None
        if name:
            for i, line in enumerate(lines):
                if line.strip().startswith(name) and _indent(line) >= 4:
                    _put(lines, marked, i, _indent(line) - 4, tag)
                    break
        cells = CELL.findall(label) if header else []
        for row, col in cells:
            if row in rows and int(col) in header:
                _mark_cell(lines, marked, rows[row], header[int(col)], tag)
        row = ROW.search(label)
        if row and row.group(1) in rows and not cells:
            i = rows[row.group(1)]
            _put(lines, marked, i, max(0, _indent(lines[i]) - 4), tag)
    return lines, marked


def cell_words(labels: list[str]) -> dict[str, int]:
    """Typed words that choose an option by the cell its label names ("b3"), when only
    one option names it."""
    seen: dict[str, set[int]] = {}
    for i, label in enumerate(labels):
        for row, col in CELL.findall(label):
            seen.setdefault(f"{row}{col}".lower(), set()).add(i)
    return {w: next(iter(ix)) for w, ix in seen.items() if len(ix) == 1}


def _header(lines: list[str]) -> dict[int, int]:
    """Column number -> its x on the first line made only of column numbers (1 2 3 ...)."""
    for line in lines:
        nums = [(m.start() + len(m.group()) - 1, int(m.group())) for m in re.finditer(r"\d+", line)]
        if len(nums) >= 2 and not line.replace(" ", "").strip("0123456789") \
                and [n for _, n in nums] == list(range(nums[0][1], nums[0][1] + len(nums))):
            return {n: x for x, n in nums}
    return {}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _put(lines: list[str], marked: dict[int, set], i: int, x: int, tag: str) -> None:
    line = lines[i].ljust(x + len(tag))
    lines[i] = line[:x] + tag + line[x + len(tag):]
    marked.setdefault(i, set()).update(range(x, x + len(tag)))


def _mark_cell(lines: list[str], marked: dict[int, set], i: int, x: int, tag: str) -> None:
    """Replaces the cell drawn around column x of line i (a run between links) with tag."""
    line = lines[i]
    if x >= len(line) or line[x] in LINKS:
        return
    a, b = x, x
    while a > 0 and line[a - 1] not in LINKS:
        a -= 1
    while b + 1 < len(line) and line[b + 1] not in LINKS:
        b += 1
    width = b - a + 1
    text = tag if len(tag) <= width else tag[1:-1]
    _put(lines, marked, i, a, text.center(width))
