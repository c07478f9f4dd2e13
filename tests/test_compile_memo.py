"""Builds only checked (cairn validate) share compiled programs (interpreter/lang/memo.py):
a program is taken from an earlier build only where every look-up its compile made gives
the same answer, so a check never reports another build's verdict."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.lang import compiler, memo
from interpreter.load.build import build

GAMES = Path(__file__).resolve().parents[1] / "definitions"


@pytest.fixture
def counted(monkeypatch):
    """Counts the programs actually compiled (not taken from the memo)."""
    memo._KEPT.clear()
    calls = []
    real = compiler.Compiler._program

    def spy(self, name, *args):
        calls.append(name)
        return real(self, name, *args)
    monkeypatch.setattr(compiler.Compiler, "_program", spy)
    yield calls
    memo._KEPT.clear()


def _copy(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(GAMES / "tic-tac-toe", folder)
    return folder


def test_a_second_check_of_the_same_game_compiles_nothing_again(counted):
    first = build(GAMES / "tic-tac-toe", [], lean=True)
    n = len(counted)
    second = build(GAMES / "tic-tac-toe", [], lean=True)
    assert n >= 3 and len(counted) == n              # every program taken from the first build
    assert first[1] == second[1] == []
    assert sorted(first[0].programs) == sorted(second[0].programs)
    full = build(GAMES / "tic-tac-toe", [])          # a build to play compiles its own
    assert len(counted) > n and full[0] is not None


def test_a_program_whose_look_ups_answer_otherwise_is_compiled_again(tmp_path, counted):
    # The same text of `mark(p)` (the step) in a game where mark takes two parameters: its
    # call no longer fits, and the check must say so rather than reuse the first verdict.
    good = _copy(tmp_path, "good")
    bad = _copy(tmp_path, "bad")
    game = (bad / "game.yaml").read_text()
    (bad / "game.yaml").write_text(game.replace("    params: [p]\n    do: |\n      let s = choose(",
                                                "    params: [p, q]\n    do: |\n      let s = choose(", 1))
    assert build(good, [], lean=True)[1] == []
    before = len(counted)
    _game, diags = build(bad, [], lean=True)
    assert any("mark" in d.message for d in diags), diags
    assert "step:mark" in counted[before:]             # compiled again, not taken
    assert "proc:mark" in counted[before:]             # its parameters are part of its key


def test_what_a_kept_program_did_is_done_again(counted):
    # Events a program emits are what makes a trigger on them valid: a build that takes the
    # programs must know the events as the build that compiled them did.
    first = build(GAMES / "big-foot", [], lean=True)
    second = build(GAMES / "big-foot", [], lean=True)
    assert first[1] == second[1] == []
