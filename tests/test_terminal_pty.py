"""`cairn play` through a pseudo-terminal, as a person would see it: a 4-player game of
each real game (a person answering with the first option, fast bots in the other
seats), every screen measured; colour only where NO_COLOR is not set."""
from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
DECISIONS = 30          # the person's decisions a game (the bots play theirs in between)


def run_in_pty(args: list[str], answers: list[str], env: dict | None = None, rows: int = 60,
               cols: int = 200, timeout: float = 90) -> tuple[list[str], str]:
    """Runs `python -m interpreter ARGS` on a pseudo-terminal of rows x cols, answering each
    `> ` prompt with the next answer (then q); returns the screens (the text printed between
    two answers, ANSI codes left in) and the whole output."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", *args], stdin=slave, stdout=slave, stderr=slave,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                            start_new_session=True)
    os.close(slave)
    screens, buf, out = [], b"", b""
    todo = list(answers) + ["q"]
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            buf += data
            out += data
            if buf.endswith(b"> ") and todo:
                screens.append(buf.decode("utf-8", "replace"))
                buf = b""
                os.write(master, (todo.pop(0) + "\n").encode())
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return screens, out.decode("utf-8", "replace")


def measure(screen: str, first: bool) -> tuple[int, int]:
    """Rows and columns of one screen as seen (the echo of the last answer left out)."""
    lines = ANSI.sub("", screen).replace("\r", "").split("\n")
    if not first:
        lines = lines[1:]
    return len(lines), max(len(line) for line in lines)


@pytest.mark.parametrize("gid", ["big-foot", "footprints", "stonefire", "fantastic-trails"])
def test_four_player_game_screens_fit_40_rows_100_columns(gid):
    screens, out = run_in_pty(["play", gid, "--seats", "human,first,first,first", "--seed", "1"], ["1"] * DECISIONS)
    assert "Traceback" not in out
    assert len(screens) >= min(DECISIONS, 10), out[-2000:]
    sizes = [measure(s, i == 0) for i, s in enumerate(screens)]
    rows, cols = max(r for r, _ in sizes), max(c for _, c in sizes)
    print(f"\n{gid}: {len(screens)} screens, largest {rows} rows x {cols} columns")
    assert rows <= 40 and cols <= 100, (gid, rows, cols)
    assert "\x1b[" in out, "a terminal gets colour"


def test_no_color_is_honoured():
    screens, out = run_in_pty(["play", "tic-tac-toe", "--seats", "human,first", "--seed", "1"], ["1"] * 3,
                              env={"NO_COLOR": "1"})
    assert len(screens) >= 3 and "\x1b" not in out
    screens, out = run_in_pty(["play", "tic-tac-toe", "--seats", "human,first", "--seed", "1"], ["1"] * 3)
    assert "\x1b[" in out


def test_undo_through_the_terminal():
    screens, out = run_in_pty(["play", "connect-four", "--seats", "human,random", "--seed", "3"],
                              ["4", "u", "2", "2"])
    plain = [ANSI.sub("", s) for s in screens]
    assert "undone: back to your decision" in plain[2]
    # after the undo the board is as before the first drop
    board = lambda s: [l for l in s.replace("\r", "").split("\n") if re.fullmatch(r"\s+([.RY1-7]\s+){6}[.RY1-7]", l)]
    assert board(plain[2])[-1] == board(plain[0])[-1]
