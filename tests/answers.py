"""A person at the terminal, scripted: the answers a test gives to input(), in turn."""
from __future__ import annotations

from typing import Callable, Iterable


def scripted(answers: Iterable[str]) -> Callable[[str], str]:
    """Answers the decisions in turn (Enter for a pass screen, which asks with no prompt),
    then ends the input as a closed terminal would (EOFError)."""
    it = iter(answers)

    def ask(prompt: str = "") -> str:
        if prompt == "":
            return ""
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return ask
