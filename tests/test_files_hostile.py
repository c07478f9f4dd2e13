"""Hostile files on the overlay and file surface, tried the way an attacker or a careless
user would: a link to /dev/zero, a FIFO, a directory, a 2 MB file, an alias bomb, the same
overlay twice, an overlay removing what the base needs, a 0.9 MB value, bad bytes, deep
nesting. Each is given to the real command (`cairn validate` / `cairn play`, a process of
its own, so a hang is a failed test and not a stuck suite) and must be answered by one
error (or a small bounded number) at file:line:col, exit status 1 or 2, no traceback,
every line short, and a process that stays small. Negative controls show each probe can
fail: a good overlay passes, and with a mechanism taken away the probe sees the hole.

`python3 tests/test_files_hostile.py` prints the table of the cases (errors, CPU, memory).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from interpreter.diagnostics import DefinitionError, Diagnostic, bounded, excerpt
from interpreter.load import reader
from interpreter.load.build import build
from interpreter.load.reader import FileRefused, read_capped

ROOT = Path(__file__).resolve().parents[1]
GAME = "definitions/big-foot"
HANG = 120                       # seconds: only a hung process gets near this
DIAG = re.compile(r"^(\S.*?):(\d+):(\d+): ")
HUGE = "x" * 900_000             # the 0.9 MB value


def head(vid: str) -> str:
    return f"variant:\n  id: {vid}\n  name: Probe\n  description: a hostile probe\n"


@dataclass
class Run:
    """One command's answer: exit status, everything it printed, CPU and peak memory."""
    rc: int
    out: str
    cpu: float
    peak_kb: int

    @property
    def problems(self) -> list[str]:
        """The printed lines that are diagnostics (file:line:col: message)."""
        return [line for line in self.out.splitlines() if DIAG.match(line)]


# The command as `python3 -m interpreter` runs it, telling at its exit the most memory it
# held (VmHWM: counted from its exec; ru_maxrss would count the forking test process too).
PROBE = """import atexit, os, runpy, sys
def peak():
    try:
        line = next(x for x in open("/proc/self/status") if x.startswith("VmHWM:"))
        os.write(int(os.environ["PEAK_FD"]), line.split()[1].encode())
    except (OSError, StopIteration):
        pass
atexit.register(peak)
sys.argv = ["cairn", *sys.argv[1:]]
runpy.run_module("interpreter", run_name="__main__")
"""


def cairn(*args: str, timeout: float = HANG) -> Run:
    """Runs `python3 -m interpreter ARGS` from the checkout; returns its Run (CPU from
    wait4, for that process alone). Past `timeout` it is killed and the test fails as hung."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as peak:
        proc = subprocess.Popen([sys.executable, "-c", PROBE, *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, pass_fds=(peak.fileno(),),
                                env={**os.environ, "PEAK_FD": str(peak.fileno())})
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                pytest.fail(f"cairn {' '.join(args)} hung (killed after {timeout} s)")
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
        peak.seek(0)
        kb = peak.read().decode() or str(usage.ru_maxrss)
    return Run(proc.returncode, text, usage.ru_utime + usage.ru_stime, int(kb))


def at(path: Path, needle: str, offset: int = 0) -> str:
    """The 1-based `line:col` of the unique `needle` in a file (bytes that are not UTF-8
    read as U+FFFD), plus `offset` columns."""
    text = path.read_bytes().decode("utf-8", "replace")
    assert text.count(needle) == 1, needle
    i = text.index(needle)
    return f"{text.count(chr(10), 0, i) + 1}:{i - (text.rfind(chr(10), 0, i) + 1) + 1 + offset}"


def bomb() -> str:
    """A billion laughs: nine levels of nine aliases each (9**9 strings if expanded)."""
    lines = [head("bomb") + 'add:\n  x0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"  x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


# ---- the corpus: each case makes its overlay(s) in a folder and names the arguments -----
# A case: (make(folder) -> variant arguments, expected diagnostic as (file, needle or None
# for 1:1, message start), how many diagnostics at most).
Case = tuple[Callable[[Path], list[str]], Callable[[Path], str], int]


def _link_zero(d: Path) -> list[str]:
    (d / "zero.yaml").symlink_to("/dev/zero")
    return [str(d / "zero.yaml")]


def _fifo(d: Path) -> list[str]:
    os.mkfifo(d / "fifo.yaml")
    return [str(d / "fifo.yaml")]


def _dir(d: Path) -> list[str]:
    (d / "dir.yaml").mkdir()
    return [str(d / "dir.yaml")]


def _dangling(d: Path) -> list[str]:
    (d / "gone.yaml").symlink_to(d / "nowhere.yaml")
    return [str(d / "gone.yaml")]


def _write(name: str, text: str | bytes) -> Callable[[Path], list[str]]:
    def make(d: Path) -> list[str]:
        (d / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        return [str(d / name)]
    return make


def _twice(d: Path) -> list[str]:
    (d / "again.yaml").write_text(head("again"), "utf-8")
    return [str(d / "again.yaml"), str(d / "again.yaml")]


def _copied(d: Path) -> list[str]:
    (d / "one.yaml").write_text(head("same"), "utf-8")
    (d / "two.yaml").write_text(head("same"), "utf-8")
    return [str(d / "one.yaml"), str(d / "two.yaml")]


def _by_file_and_id(d: Path) -> list[str]:
    return [f"{GAME}/variants/deep-snow.yaml", "deep-snow"]


def expect(name: str, needle: str | None, message: str, offset: int = 0) -> Callable[[Path], str]:
    """The expected diagnostic's start: file:line:col: message, the place being that of
    `needle` in the file (`offset` columns on), or 1:1."""
    def line(d: Path) -> str:
        path = d / name if not name.startswith("definitions/") else ROOT / name
        shown = str(path) if not name.startswith("definitions/") else name
        return f"{shown}:{at(path, needle, offset) if needle else '1:1'}: {message}"
    return line


BROKEN_60 = head("many") + "add:\n  procedures:\n" + "".join(
    f"    p{i}:\n      do: 'moev{i}(1)'\n" for i in range(60))

CASES: dict[str, Case] = {
    "a symlink to /dev/zero": (_link_zero, expect("zero.yaml", None, "not a regular file (a character device)"), 1),
    "a FIFO": (_fifo, expect("fifo.yaml", None, "not a regular file (a FIFO)"), 1),
    "a directory given as a file": (_dir, expect("dir.yaml", None, "not a regular file (a directory)"), 1),
    "a dangling symlink": (_dangling, expect("gone.yaml", None, "cannot read file: No such file"), 1),
    "a 2 MB file": (_write("big.yaml", head("big") + "#" + "x" * 2_000_000 + "\n"),
                    expect("big.yaml", None, "2 MB is over the 1 MB limit"), 1),
    "an alias bomb": (_write("bomb.yaml", bomb()),
                      expect("bomb.yaml", "&a0", "anchors (&a0) are not allowed; write the value out "
                             "(80 more anchors or aliases follow)"), 1),
    "the same overlay file twice": (_twice, expect("again.yaml", "again\n", "variant 'again' is given 2 times"), 1),
    "the same overlay copied to two files": (_copied, expect("two.yaml", "same\n",
                                                            "variant id 'same' is already a variant of the game"), 1),
    "the same overlay by file and by id": (_by_file_and_id, expect(f"{GAME}/variants/deep-snow.yaml", "deep-snow\n",
                                                                   "variant 'deep-snow' is given 2 times"), 1),
    "removing a procedure the base needs": (
        _write("rm.yaml", head("rm") + "remove:\n  procedures: [stomp]\n"),
        expect("rm.yaml", "stomp", f"removing procedure 'stomp' breaks {GAME}/"), 1),
    "removing a zone the base needs": (
        _write("rmz.yaml", head("rmz") + "remove:\n  zones: [deck]\n"),
        expect("rmz.yaml", "deck]", f"removing zone 'deck' breaks {GAME}/"), 1),
    "replacing a procedure with other parameters": (
        _write("rp.yaml", head("rp") + "replace:\n  procedures:\n    stomp: {params: [a, b, c], do: 'log(\"x\")', rule: to-play-5}\n"),
        expect("rp.yaml", "rp\n", f"variant 'rp' breaks the base game: {GAME}/"), 1),
    "a 0.9 MB id": (_write("hid.yaml", head(f"'{HUGE}'")), expect("hid.yaml", "'x", "variant/id: 900,000 characters"), 1),
    "a 0.9 MB parameter value": (
        _write("hset.yaml", head("hset") + f"set:\n  params:\n    die_faces: '{HUGE}'\n"),
        expect("hset.yaml", "'x", "set: parameter 'die_faces' is a list, not a text"), 1),
    "a 0.9 MB effect": (
        _write("hfx.yaml", head("hfx") + f"add:\n  procedures:\n    p1:\n      do: 'let a = \"{HUGE}\" + nosuch'\n"),
        expect("hfx.yaml", "'let", f"add/procedures/p1/do: {len(HUGE) + 19:,} characters ('let a = \"xxx"), 1),
    "60 broken procedures": (_write("many.yaml", BROKEN_60), expect("many.yaml", "moev0(", "unknown function 'moev0'"),
                             21),
    "invalid UTF-8": (_write("utf.yaml", head("utf").encode() + b"add:\n  x: caf\xe9\n"),
                      expect("utf.yaml", "\ufffd", "file is not valid UTF-8 (byte 0xe9)"), 1),
    "a NUL byte": (_write("nul.yaml", head("nul") + "add:\n  x: a\x00b\n"),
                   expect("nul.yaml", "\x00", "YAML error: control characters are not allowed"), 1),
    "nesting 200 deep": (_write("deep.yaml", head("deep") + "add:\n  x: " + "[" * 200 + "]" * 200 + "\n"),
                         expect("deep.yaml", "[" * 200, "nesting is deeper than the limit of 50 levels", 48), 1),
}

FIGURES: list[tuple[str, str, int, float, int]] = []     # (case, command, problems, CPU s, peak KB)


def check(run: Run, expected: str, most: int, what: str, own: Path | None = None) -> None:
    """One error (or at most `most`) including the expected one, exit 1 or 2, no traceback,
    every line under 300 characters, a process under 300 MB. The user's own paths under
    `own` are shown whole by design, so they count as one character each: a line's length
    must not depend on where the test's temporary folder is (pytest-xdist's are longer)."""
    assert "Traceback" not in run.out, run.out[:2000]
    assert run.rc in (1, 2), (run.rc, run.out[:2000])
    assert 1 <= len(run.problems) <= most, run.out[:3000]
    assert any(line.startswith(expected) for line in run.problems), (expected, run.out[:3000])
    lines = [line.replace(str(own), "T") if own else line for line in run.out.splitlines()]
    assert max(len(line) for line in lines) < 300, [len(x) for x in lines]
    assert run.peak_kb < 300 * 1024, f"{what}: peak {run.peak_kb // 1024} MB"


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_overlay_validate(tmp_path, name):
    make, expected, most = CASES[name]
    variants = make(tmp_path)
    run = cairn("validate", GAME, *[a for v in variants for a in ("--variant", v)])
    FIGURES.append((name, "validate", len(run.problems), run.cpu, run.peak_kb))
    check(run, expected(tmp_path), most, name, tmp_path)


PLAYED = ["a symlink to /dev/zero", "a FIFO", "a 2 MB file", "an alias bomb", "the same overlay file twice",
          "removing a procedure the base needs", "a 0.9 MB parameter value"]


@pytest.mark.parametrize("name", PLAYED)
def test_hostile_overlay_play(tmp_path, name):
    make, expected, most = CASES[name]
    variants = make(tmp_path)
    run = cairn("play", GAME, "--seats", "random,random", "--seed", "1",
                *[a for v in variants for a in ("--variant", v)])
    FIGURES.append((name, "play", len(run.problems), run.cpu, run.peak_kb))
    check(run, expected(tmp_path), most, name, tmp_path)


def test_a_fifo_among_a_games_own_files(tmp_path):
    """A FIFO in the game's folder (a variant, a part file) is refused, not waited on or
    silently skipped."""
    import shutil
    game = tmp_path / "bf"
    shutil.copytree(ROOT / GAME, game)
    os.mkfifo(game / "variants" / "x.yaml")
    run = cairn("validate", str(game))
    check(run, f"{game}/variants/x.yaml:1:1: not a regular file (a FIFO)", 1, "a FIFO variant")
    (game / "variants" / "x.yaml").unlink()
    (game / "terminal.yaml").unlink()
    os.mkfifo(game / "terminal.yaml")
    run = cairn("validate", str(game))
    check(run, f"{game}/terminal.yaml:1:1: not a regular file (a FIFO)", 1, "a FIFO terminal.yaml")


# ---- negative controls: each probe can fail ------------------------------------------------

def test_control_a_good_overlay_validates_and_plays(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(head("good") + "set:\n  params:\n    die_faces: [1, 2, 3, 4, 5, 6]\n", "utf-8")
    run = cairn("validate", GAME, "--variant", str(good))
    assert run.rc == 0 and run.problems == [] and "valid" in run.out, run.out
    run = cairn("play", GAME, "--seats", "random,random", "--seed", "1", "--variant", str(good))
    assert run.rc == 0 and "Winner" in run.out, run.out[-500:]


def test_control_without_the_checks_dev_zero_reads_on(monkeypatch):
    """The reader's two guards each hold alone: with the regular-file check taken away,
    /dev/zero is still cut at limit + 1 bytes and refused; with a higher cap too, the same
    probe reads (and would return) that much more: only the cap stops it."""
    with pytest.raises(FileRefused, match="not a regular file"):
        read_capped("/dev/zero")
    monkeypatch.setattr(reader.stat, "S_ISREG", lambda mode: True)
    read: list[int] = []
    real = os.read
    monkeypatch.setattr(reader.os, "read", lambda fd, n: read.append(n) or real(fd, n))
    with pytest.raises(FileRefused, match="is over the 1 MB limit"):
        read_capped("/dev/zero")
    assert sum(read) == reader.MAX_FILE_BYTES + 1           # not one byte more was asked for
    read.clear()
    with pytest.raises(FileRefused, match="is over the 3 MB limit"):
        read_capped("/dev/zero", limit=3_000_000)
    assert sum(read) == 3_000_001 > reader.MAX_FILE_BYTES


def test_control_a_small_regular_file_is_read_whole(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_bytes(b"x" * reader.MAX_FILE_BYTES)               # exactly at the limit is fine
    assert len(read_capped(f)) == reader.MAX_FILE_BYTES
    f.write_bytes(b"x" * (reader.MAX_FILE_BYTES + 1))
    with pytest.raises(FileRefused, match="1 MB is over the 1 MB limit"):
        read_capped(f)


def test_control_without_provenance_the_base_is_blamed(monkeypatch, tmp_path):
    """The removal's provenance is what puts the blame on the overlay's line; without it
    the blame falls back to the overlay's id; without blaming at all the same overlay
    gives a dozen diagnostics, all in the base's files."""
    rm = tmp_path / "rm.yaml"
    rm.write_text(head("rm") + "remove:\n  procedures: [stomp]\n", "utf-8")
    [d] = build(ROOT / GAME, [str(rm)], lean=True)[1]
    assert (d.file, d.line, d.column) == (str(rm), 6, 16) and d.message.startswith(f"removing procedure 'stomp' breaks {GAME}/")
    monkeypatch.setattr("interpreter.load.spec.Spec.note_removal", lambda *a: None)
    [d] = build(ROOT / GAME, [str(rm)], lean=True)[1]
    assert (d.file, d.line, d.column) == (str(rm), 2, 7) and d.message.startswith("variant 'rm' breaks the base game")
    monkeypatch.setattr("interpreter.load.build._blamed", lambda folder, spec, variants, diags, lean: diags)
    diags = build(ROOT / GAME, [str(rm)], lean=True)[1]
    assert len(diags) > 5 and all(d.file.startswith(GAME) for d in diags), diags


def test_control_a_broken_base_is_not_blamed_on_the_overlay(tmp_path):
    """A problem the base has without the overlay stays the base's, where it is."""
    import shutil
    game = tmp_path / "bf"
    shutil.copytree(ROOT / GAME, game)
    text = (game / "game.yaml").read_text("utf-8")
    (game / "game.yaml").write_text(text.replace("expr: place_of(\"bigfoot\")", "expr: place_of(nobody)", 1), "utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(head("good"), "utf-8")
    alone = [str(d) for d in build(game, [], lean=True)[1]]
    with_it = [str(d) for d in build(game, [str(good)], lean=True)[1]]
    assert len(alone) == 1 and "unknown name 'nobody'" in alone[0] and with_it == alone


def test_control_excerpts_and_bounds():
    """A long value in a message is cut to an excerpt with its length; a report shows at
    most PER_FILE diagnostics of a file and says how many more."""
    d = Diagnostic("f.yaml", 3, 4, f"no card '{HUGE}'")
    assert len(str(d)) < 200 and "… (900,000 characters)" in d.message and d.message.startswith("no card 'xxx")
    assert excerpt("short") == "short" and excerpt("a\nb") == "a\\nb"
    many = [Diagnostic("f.yaml", i, 1, "m") for i in range(1, 61)] + [Diagnostic("g.yaml", 1, 1, "m")]
    shown = bounded(many)
    assert len(shown) == 22 and str(shown[-1]) == "f.yaml:21:1: and 40 more problems in this file"
    assert "g.yaml:1:1: m" in [str(x) for x in shown]
    assert str(DefinitionError(many)).count("\n") == 21


def test_figures():
    """(Runs last: prints the figures the closing note reports.)"""
    if FIGURES:
        slow = max(FIGURES, key=lambda f: f[3])
        big = max(FIGURES, key=lambda f: f[4])
        print(f"\nfiles: {len(FIGURES)} runs, {sum(f[2] for f in FIGURES)} problems, slowest {slow[3]:.2f} s CPU "
              f"({slow[0]}, {slow[1]}), peak {big[4] / 1024:.0f} MB ({big[0]}, {big[1]})")


if __name__ == "__main__":      # the table of the closing note
    print(f"{'case':44} {'command':9} {'exit':>4} {'errors':>6} {'tracebacks':>10} {'longest line':>12} {'CPU s':>6} "
          f"{'peak MB':>7}")
    for name, (make, _expected, _most) in CASES.items():
        for command in ("validate", "play") if name in PLAYED else ("validate",):
            with tempfile.TemporaryDirectory() as d:
                variants = make(Path(d))
                extra = ["--seats", "random,random", "--seed", "1"] if command == "play" else []
                r = cairn(command, GAME, *extra, *[a for v in variants for a in ("--variant", v)])
                print(f"{name:44} {command:9} {r.rc:>4} {len(r.problems):>6} {r.out.count('Traceback'):>10} "
                      f"{max(map(len, r.out.splitlines()), default=0):>12,} {r.cpu:>6.2f} {r.peak_kb / 1024:>7.0f}")
