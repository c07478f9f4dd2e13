"""The one check for tests that need a system package (a browser, a C library) that pip
cannot install: `@pytest.mark.needs("chromium")` on a test or a module.

On a developer's machine without the package such a test is skipped, with a reason that
names what to install, and the end of the run counts them (conftest.py). Where CI is set
(`CI=true`, as `.ci/run` runs) a missing package fails the test instead: CI installs
them all, so a skip there would hide that the browser tests never ran."""
from __future__ import annotations

import ctypes.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from web_screenshots import CHROMIUM  # noqa: E402  (where Playwright is told to find the browser)
sys.path.pop(0)

SKIP_PREFIX = "needs a system package: "


@dataclass(frozen=True)
class Need:
    what: str                      # as a person would name it
    install: str                   # the command that brings it
    present: Callable[[], bool]


NEEDS: dict[str, Need] = {
    "chromium": Need("Chromium", "apt-get install chromium", lambda: Path(CHROMIUM).is_file()),
    "cairo": Need("the Cairo library (libcairo2)", "apt-get install libcairo2",
                  lambda: ctypes.util.find_library("cairo") is not None),
}


def in_ci() -> bool:
    """Whether this run is CI's (CI set to anything but an empty, 0 or false value)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pretended_missing() -> set[str]:
    """`CAIRN_TEST_WITHOUT=chromium,cairo` runs the tests as a machine without those would
    (tests/test_needs.py checks the skip and the CI failure on a machine that has them)."""
    return {n.strip() for n in os.environ.get("CAIRN_TEST_WITHOUT", "").split(",") if n.strip()}


def require(name: str) -> None:
    """Returns when the package is there; else skips the test (fails it under CI)."""
    need = NEEDS[name]
    if name not in pretended_missing() and need.present():
        return
    message = f"{need.what} ({need.install})"
    if in_ci():
        pytest.fail(f"CI is set but {message} is missing: CI must run every test", pytrace=False)
    pytest.skip(SKIP_PREFIX + message)
