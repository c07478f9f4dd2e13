"""The modding tutorial stays true: the files it shows are the files under docs/modding/,
and the commands it gives validate, run the scenarios, simulate and diff the expansion."""
from __future__ import annotations

import json
import re
from pathlib import Path

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "MODDING.md").read_text("utf-8")
OVERLAY = ROOT / "docs" / "modding" / "lucky-charm.yaml"
SCENARIOS = ROOT / "docs" / "modding" / "scenarios.yaml"


def _blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", DOC, re.S)


def test_the_tutorial_shows_the_files_it_runs():
    overlay = OVERLAY.read_text("utf-8")
    body = overlay.split("\n", 1)[1]                   # the file's first line is a comment
    assert body in _blocks(), "MODDING.md no longer shows docs/modding/lucky-charm.yaml"
    shown = next(b for b in _blocks() if b.startswith("game: big-foot"))
    assert SCENARIOS.read_text("utf-8").startswith(shown)


def test_the_tutorial_commands_work(capsys, tmp_path):
    v = str(OVERLAY)
    assert main(["validate", "big-foot", "--variant", v]) == 0
    assert main(["scenarios", str(SCENARIOS)]) == 0
    assert "4 passed, 0 failed" in capsys.readouterr().out
    assert main(["simulate", "big-foot", "--variant", v, "--players", "3", "--games", "20", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 20
    assert main(["diff", "big-foot", "--variant", v, "--json"]) == 1
    changes = {(c["category"], c["key"]) for c in json.loads(capsys.readouterr().out)["changes"]}
    assert changes == {("parameters", "double_factor"), ("zones", "charms"), ("objects", "lucky-charm"),
                       ("abilities", "lucky-charm#0"), ("box", "card"),
                       ("clauses", "lucky-charm-keep"), ("clauses", "lucky-charm-escape")}
    assert main(["lint", "big-foot", "--variant", v]) == 0
