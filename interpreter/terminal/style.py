"""Colour and width of the terminal: rich renders the styled text, and only where the
output is a terminal that has colour and NO_COLOR is not set."""
from __future__ import annotations

import io
import os
import re
import shutil
from typing import Any, Iterable

from rich.console import Console
from rich.text import Text

TRAILING = re.compile(r"\s+((?:\x1b\[[0-9;]*m)*)$")   # blanks at a line's end (before colour resets)
MAX_WIDTH = 100      # the screen's columns, whatever the terminal's width
MAX_ROWS = 40        # the rows a screen aims to fit


def colour_wanted(stream: Any) -> bool:
    """Whether to colour output to `stream`: a terminal, and NO_COLOR (any value) not set."""
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def screen_width() -> int:
    """Returns the columns to lay out in: the terminal's, at most MAX_WIDTH."""
    return max(40, min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, MAX_ROWS)).columns))


def to_lines(items: Iterable[Any], width: int, colour: bool) -> list[str]:
    """Returns rich renderables (Text, Table) as printed lines, wrapped to `width`, with
    ANSI colour codes when `colour`."""
    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=colour, no_color=not colour,
                  color_system="standard" if colour else None, highlight=False, emoji=False,
                  legacy_windows=False)
    for item in items:
        con.print(item, overflow="fold", crop=False)
    text = buf.getvalue()
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    return [TRAILING.sub(r"\1", line) for line in lines]


def plain(items: Iterable[Any], width: int) -> list[str]:
    """Returns renderables as plain lines (for comparing screens and measuring them)."""
    return [line.rstrip() for line in to_lines(items, width, False)]


def text(s: str, style: str | None = None) -> Text:
    return Text(s, style=style or "")
