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
