"""The web server's one kind of refusal, and the excerpt every message quotes a value by:
a request's values are input, so a message never echoes one whole (a 5,000-digit number,
a megabyte string), never needs to print a value that cannot be printed (an int over
Python's digit limit, a deep list), and never holds text JSON cannot encode."""
from __future__ import annotations

from typing import Any

EXCERPT = 40     # characters of a value a message quotes


class WebError(Exception):
    """A request the server cannot do: the message is shown on the page, with an HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """Returns a short, printable stand-in for a value: its repr when short, else its
    start and size; containers by their kind and size (their repr could be huge or deep)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 128:
            return f"a number of {value.bit_length()} bits"
        text = repr(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = repr(value[: limit + 1])
        if len(value) > limit:
            return f"{text[:limit]}... ({len(value)} characters)"
    elif isinstance(value, dict):
        return f"an object of {len(value)} field{'s' if len(value) != 1 else ''}"
    elif isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    else:
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else f"{text[:limit]}..."


def cut(message: str, limit: int = 300) -> str:
    """Returns a message cut to `limit` characters (a message that quotes a record's claim)."""
    return message if len(message) <= limit else message[:limit] + "..."


def kind(value: Any) -> str:
    """Returns what JSON calls a value's type, for "expected X, got Y" messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a fraction"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def printable(message: str) -> str:
    """Returns the message with anything UTF-8 cannot hold (a lone surrogate) escaped."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")
