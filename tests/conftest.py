"""Shared fixtures: compiled games are built once per test session."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]
DEFINITIONS = ROOT / "definitions"


@pytest.fixture(scope="session")
def big_foot():
    return load_game(DEFINITIONS / "big-foot")


@pytest.fixture
def ctrl_c_after(monkeypatch):
    """Makes input() answer "1" n times, then raise KeyboardInterrupt (a person pressing
    Ctrl-C at a prompt)."""
    def arm(n: int) -> None:
        calls = {"n": 0}

        def answer(prompt: str = "") -> str:
            calls["n"] += 1
            if calls["n"] > n:
                raise KeyboardInterrupt
            return "1"
        monkeypatch.setattr("builtins.input", answer)
    return arm
