"""The wheel ships definitions, schemas, grammar and a seed cache; docs generated from code
are current."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="not a source checkout")
def test_wheel_contains_data_files(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    if proc.returncode != 0 and "hatchling" in (proc.stderr + proc.stdout):
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path),
                               str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    wheel = next(tmp_path.glob("cairn-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "interpreter/_data/grammar/effect.lark" in names
    assert "interpreter/_data/schemas/game.schema.json" in names
    assert "interpreter/_data/definitions/big-foot/game.yaml" in names
    assert "interpreter/_data/definitions/big-foot/scenarios/rules.yaml" in names
    assert "interpreter/cli/main.py" in names
    # the seed cache built with the wheel (hatch_build.py, interpreter/load/seed.py)
    assert "interpreter/_data/seed-cache/effect-grammar.lark-cache" in names
    kinds = {n.split("/")[-1].split("-")[1] for n in names if n.startswith("interpreter/_data/seed-cache/schema-")}
    assert {"game", "cards", "components", "board", "rules", "variant", "scenario"} <= kinds
    seeded = {n.split("/")[-1].split("-")[0] for n in names if n.startswith("interpreter/_data/seed-cache/")}
    assert {"yaml", "valid", "trees", "code"} <= seeded and "validate" not in seeded   # the shipped games, read and run
    for static in ("index.html", "app.js", "app.css"):      # the web page ships with cairn serve
        assert f"interpreter/web/static/{static}" in names


def test_verbs_doc_is_current():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import verbs_doc
    finally:
        sys.path.pop(0)
    assert (ROOT / "docs" / "VERBS.md").read_text("utf-8") == verbs_doc.render(), \
        "docs/VERBS.md is stale: run python3 tools/verbs_doc.py"


def test_interpreter_names_no_game():
    games = [p.name for p in (ROOT / "definitions").iterdir() if (p / "game.yaml").is_file()]
    words = set()
    for g in games:
        words |= {g, g.replace("-", " "), g.replace("-", "_"), g.replace("-", "")}
    for path in (ROOT / "interpreter").rglob("*.py"):
        text = path.read_text("utf-8").lower()
        for w in words:
            assert w not in text, f"{path} names the game '{w}'"


def test_schemas_are_current():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "schemas.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_shipped_diffs_are_current():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "diffs.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="not a source checkout")
def test_an_isolated_build_ships_the_seed_too(tmp_path):
    # As `pip install .` builds in a fresh venv: the build's own requirements exist only
    # in pip's isolated environment, put on the path by pip (hatch_build.py keeps them).
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    pip = tmp_path / "venv" / "bin" / "pip"
    proc = subprocess.run([str(pip), "wheel", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                          capture_output=True, text=True)
    if proc.returncode != 0 and ("Could not find a version" in proc.stderr or "No matching distribution" in proc.stderr):
        pytest.skip("no package index to build in isolation from")
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = zipfile.ZipFile(next(tmp_path.glob("cairn-*.whl"))).namelist()
    assert "interpreter/_data/seed-cache/effect-grammar.lark-cache" in names
    assert any(n.startswith("interpreter/_data/seed-cache/trees-") for n in names)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="not a source checkout")
def test_an_editable_install_seeds_its_checkout(tmp_path):
    # `pip install -e .` runs the source tree itself: the hook puts the seed into its
    # `seed-cache` folder, which that tree then reads (interpreter/load/seed.py).
    tree = tmp_path / "tree"
    for part in ("interpreter", "definitions", "schemas", "grammar"):
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__", "seed-cache"))
    for part in ("pyproject.toml", "hatch_build.py", "README.md"):
        shutil.copy(ROOT / part, tree / part)
    (tree / "seed-cache").mkdir()
    (tree / "seed-cache" / "stale-entry").write_text("from an earlier install")
    env = {k: v for k, v in os.environ.items() if k not in ("CAIRN_CACHE", "CAIRN_SEED")}
    proc = subprocess.run([sys.executable, "-c", "import sys; from hatchling.build import build_editable; "
                           "print(build_editable(sys.argv[1]))", str(tmp_path / "wheel")],
                          cwd=tree, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = {p.name for p in (tree / "seed-cache").iterdir()}
    assert "effect-grammar.lark-cache" in names and "stale-entry" not in names
    assert {"trees", "code"} <= {n.split("-")[0] for n in names}
    wheel = zipfile.ZipFile(next((tmp_path / "wheel").glob("cairn-*.whl"))).namelist()
    assert not any("seed-cache" in n for n in wheel)
    found = subprocess.run([sys.executable, "-c", "from interpreter.load.seed import seed_dir; print(seed_dir())"],
                           cwd=tree, env=dict(env, PYTHONPATH=str(tree)), capture_output=True, text=True)
    assert found.stdout.strip() == str(tree / "seed-cache"), found.stderr
