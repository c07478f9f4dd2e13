"""Shared fixtures: compiled games are built once per test session."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.load.build import load_game
from needs import NEEDS, SKIP_PREFIX, require

ROOT = Path(__file__).resolve().parents[1]
DEFINITIONS = ROOT / "definitions"


# The rulebook text files are the user's, never in the repository: beside a checkout in
# ../shared/rulebooks (tests/test_anchors.py holds every game's anchors against them).
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"
if RULEBOOKS.is_dir() and not os.environ.get("CAIRN_RULEBOOKS"):
    os.environ["CAIRN_RULEBOOKS"] = str(RULEBOOKS)


def pytest_configure(config):
    config.addinivalue_line("markers", f"needs(name): the test needs a system package ({', '.join(NEEDS)}); "
                                       "skipped without it, failed without it under CI")


def pytest_runtest_setup(item):
    """Before any fixture of the test starts a browser: is what it needs there?"""
    for mark in item.iter_markers("needs"):
        require(*mark.args)


def pytest_terminal_summary(terminalreporter):
    """Says at the end of the run which tests were skipped for want of a system package,
    and how to get it (pytest -q alone prints only a count of skips)."""
    wanting: dict[str, list[str]] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(SKIP_PREFIX):
            wanting.setdefault(reason.removeprefix(SKIP_PREFIX), []).append(report.nodeid.split("::")[0])
    if not wanting:
        return
    terminalreporter.write_sep("-", "skipped: tests that need a system package")
    for what, files in wanting.items():
        where = ", ".join(f"{f} ({files.count(f)})" for f in dict.fromkeys(files))
        terminalreporter.write_line(f"{len(files)} skipped for want of {what}: {where}")


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory):
    """Keeps Cairn's cache in a folder of the test session's own: the tests build hundreds
    of throwaway copies of games, whose cache entries would only fill the user's cache
    (and a test must not pass or fail by what an earlier run left there)."""
    from interpreter.load import cache, seed
    # the seed an editable install wrote into this checkout is left out too (CI has none)
    before = {k: os.environ.get(k) for k in ("CAIRN_CACHE", "CAIRN_SEED")}
    os.environ["CAIRN_CACHE"] = str(tmp_path_factory.mktemp("cairn-cache"))
    os.environ["CAIRN_SEED"] = "off"
    cache.cache_dir.cache_clear()
    seed.seed_dir.cache_clear()
    yield
    for k, v in before.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    cache.cache_dir.cache_clear()
    seed.seed_dir.cache_clear()


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
