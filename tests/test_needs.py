"""The check of tests/needs.py, run as a machine without Chromium or libcairo would run the
README's test command: skipped and named (with what to install) at the end, exit 0; under
CI the same tests fail, naming what is missing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROWSER_TEST = "tests/test_rules_doc.py::test_rules_html_in_a_headless_browser"
PNG_TEST = "tests/test_draw.py::test_the_command_writes_png"


def run_pytest(*tests: str, ci: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["CAIRN_TEST_WITHOUT"] = "chromium,cairo"
    if ci:
        env["CI"] = "true"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", *tests], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_without_the_packages_the_tests_skip_and_say_what_to_install():
    proc = run_pytest(BROWSER_TEST, PNG_TEST, ci=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 skipped for want of Chromium (apt-get install chromium): tests/test_rules_doc.py (1)" in proc.stdout
    assert "1 skipped for want of the Cairo library (libcairo2) (apt-get install libcairo2): tests/test_draw.py (1)" \
        in proc.stdout
    assert "2 skipped" in proc.stdout.splitlines()[-1]


def test_under_ci_a_missing_package_fails_the_run():
    proc = run_pytest(BROWSER_TEST, ci=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "CI is set but Chromium (apt-get install chromium) is missing" in proc.stdout
    assert "skipped" not in proc.stdout.splitlines()[-1]


@pytest.mark.parametrize("value,ci", [("true", True), ("1", True), ("false", False), ("", False), ("0", False)])
def test_what_counts_as_ci(monkeypatch, value, ci):
    from needs import in_ci
    monkeypatch.setenv("CI", value)
    assert in_ci() is ci
