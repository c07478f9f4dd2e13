"""Problems found while loading or checking definitions, as values with a location.

Errors are collected and reported together (file:line:col: message) rather than raised
one at a time, so a modder sees every mistake in one run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import difflib
from typing import Iterable


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem at one place in a definition file."""

    file: str
    line: int
    column: int
    message: str
    severity: str = field(default="error", compare=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"

    def as_json(self) -> dict[str, object]:
        """Returns the JSON shape the validator's --format json prints."""
        return {"file": self.file, "line": self.line, "column": self.column,
                "message": self.message}


class DefinitionError(Exception):
    """Raised when loading cannot go on; carries every diagnostic found so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = sorted(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def suggest(name: str, known: Iterable[str]) -> str:
    """Returns " (did you mean 'x'?)" for the nearest known name, or ""."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
