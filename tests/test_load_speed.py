"""Loading does each piece of work once: a second build reads no file again, validate's
scenario checks reuse its builds, and Cairn's cache (YAML read with positions, parsed
effect texts, schema verdicts, validate's verdict) changes only what a result costs,
never the result, and is never stale after an edit."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.lang import memo, parser
from interpreter.load import build as build_mod
from interpreter.load import cache, files, trees
from interpreter.load.yaml_safe import load_yaml

ROOT = Path(__file__).resolve().parents[1]
PIG = ROOT / "definitions" / "pig"

QUICK = """variant: {id: quick, name: Quick, description: "a shorter game"}
set:
  params: {target: {value: 20}}
"""
QUICK_SCENARIO = """game: pig
variants: [quick]
scenarios:
  - name: reaching 20 wins at once in a quick game
    rule: win-target
    given: {players: [{score: 18}], dice: [3]}
    when: [roll, hold]
    then:
      - {terminal: true, winners: [0]}
"""


def _forget() -> None:
    """Drops what this process keeps in memory, as a fresh process would start."""
    files._READ.clear()
    parser._PARSED.clear()
    trees._KEPT.clear()
    memo._KEPT.clear()
    cache.cache_dir.cache_clear()


@pytest.fixture
def pig(tmp_path, monkeypatch):
    """A copy of pig with a variant and a scenario file using it, in tmp_path (the
    working folder, so problems are named pig/...), with its own empty cache."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CAIRN_CACHE", str(tmp_path / "cache"))
    _forget()
    dest = tmp_path / "pig"
    shutil.copytree(PIG, dest)
    (dest / "variants").mkdir()
    (dest / "variants" / "quick.yaml").write_text(QUICK, "utf-8")
    (dest / "scenarios" / "quick.yaml").write_text(QUICK_SCENARIO, "utf-8")
    yield dest
    _forget()


def _validate(capsys, folder: str = "pig") -> tuple[int, str, str]:
    code = main(["validate", folder])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_second_build_reads_no_file_again(pig, monkeypatch):
    first, diags = build_mod.build(pig, ["quick"])
    assert first is not None and not diags
    reads = []
    real = files._read_part
    monkeypatch.setattr(files, "_read_part", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    again, _ = build_mod.build(pig, ["quick"])
    assert again is not None and reads == []
    assert again.params == first.params and again.content_hash == first.content_hash


def test_validate_builds_each_game_once(pig, monkeypatch, capsys):
    builds = []
    real = build_mod.build
    monkeypatch.setattr(build_mod, "build", lambda folder, variants, *a, **k:
                        builds.append(tuple(variants)) or real(folder, variants, *a, **k))
    monkeypatch.setenv("CAIRN_CACHE", "off")      # no kept verdict: validate checks for real
    cache.cache_dir.cache_clear()
    import interpreter.cli.inspect_cmds as inspect_cmds
    monkeypatch.setattr(inspect_cmds, "build", build_mod.build)
    code, _out, err = _validate(capsys)
    assert code == 0, err
    # The base and the variant, each once: both scenario files reuse those builds.
    assert sorted(builds) == [(), ("quick",)]


def _broken(pig: Path) -> None:
    """Breaks the copy three ways: a variant sets a parameter there is none of, a scenario
    file has a key its schema does not know, a scenario gives a variable there is none of."""
    edits = [("variants/quick.yaml", "{target:", "{targt:"),
             ("scenarios/quick.yaml", "rule: win-target", "rule: win-target\n    colour: red"),
             ("scenarios/rules.yaml", "score: 98", "scroe: 98")]
    for name, old, new in edits:
        path = pig / name
        text = path.read_text("utf-8")
        assert text.count(old) == 1
        path.write_text(text.replace(old, new), "utf-8")


def test_the_cache_never_changes_a_result(pig, monkeypatch, capsys):
    _broken(pig)
    monkeypatch.setenv("CAIRN_CACHE", "off")
    _forget()
    off = _validate(capsys)
    assert off[0] == 1 and [line.split(":")[0] for line in off[1].splitlines()] == \
        ["pig/variants/quick.yaml", "pig/scenarios/quick.yaml", "pig/scenarios/rules.yaml"]
    monkeypatch.setenv("CAIRN_CACHE", str(pig.parent / "cache"))
    runs = []
    for _ in range(2):                # cold (empty cache), then warm (the kept verdict)
        _forget()
        runs.append(_validate(capsys))
    kept = sorted(p.name.split("-")[0] for p in (pig.parent / "cache").iterdir())
    assert {"yaml", "trees", "validate"} <= set(kept)
    for entry in (pig.parent / "cache").glob("validate-*"):
        entry.unlink()                # kept YAML and trees, no verdict: compiled again from them
    _forget()
    runs.append(_validate(capsys))
    assert runs == [off] * 3


def test_an_edit_is_never_hidden_by_the_cache(pig, capsys):
    assert _validate(capsys)[0] == 0
    _forget()
    assert _validate(capsys)[0] == 0          # the kept verdict
    _broken(pig)
    _forget()
    code, out, _err = _validate(capsys)
    assert code == 1 and "'targt'" in out and "'scroe'" in out and "'colour'" in out


def test_kept_yaml_and_trees_are_what_reading_and_parsing_give(pig):
    path = pig / "game.yaml"
    fresh = load_yaml(path, display="pig/game.yaml")
    cold, key = files.cached_yaml(path, "pig/game.yaml")
    warm, key2 = files.cached_yaml(path, "pig/game.yaml")
    assert key == key2 and warm is not cold
    for got in (cold, warm):
        assert (got.data, got.value_pos, got.key_pos, got.scalar_info, got._lines) == \
               (fresh.data, fresh.value_pos, fresh.key_pos, fresh.scalar_info, fresh._lines)
    texts = [fresh.data["procedures"]["play_turn"]["do"], "1 +", "size(\"removed\") == 2"]
    with trees.kept_trees("probe"):
        parsed = [parser.parse(t) for t in texts]
    _forget()
    with trees.kept_trees("probe"):
        kept = [parser._PARSED.get((t, False)) for t in texts]
    assert kept == parsed and all(k is not p for k, p in zip(kept, parsed))
    assert [_positions(k) for k in kept] == [_positions(p) for p in parsed]


def _positions(tree) -> list:
    if isinstance(tree, parser.SyntaxProblem):
        return [tree]
    return [(getattr(n.meta, "line", None), getattr(n.meta, "column", None)) for n in tree.iter_subtrees()] + \
           [(t.line, t.column, t.type) for t in tree.scan_values(lambda v: True)]


def test_validate_imports_only_what_it_needs():
    """The command line imports a command's modules when it runs (importing them all cost
    half a second): neither the bots, pictures, web server nor networkx, jsonschema, rich."""
    probe = ("import sys, interpreter.cli.main as m; from interpreter.cli import inspect_cmds; "
             "print(' '.join(sorted(n for n in sys.modules if n.split('.')[0] in "
             "('networkx', 'jsonschema', 'rich', 'matplotlib') or n.startswith(('interpreter.web', "
             "'interpreter.draw', 'interpreter.bots', 'interpreter.terminal')))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == []


def test_the_cache_drops_what_was_used_longest_ago(tmp_path):
    import os
    for i in range(6):
        entry = tmp_path / f"e{i}"
        entry.write_bytes(b"x" * 100)
        os.utime(entry, ns=(i * 10**9, i * 10**9))       # e0 used longest ago
    cache.prune(tmp_path, limit=1000)
    assert len(list(tmp_path.iterdir())) == 6            # 600 bytes: under the limit
    cache.prune(tmp_path, limit=400)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e3", "e4", "e5"]   # 300 <= 3/4 of 400


def test_an_edited_overlay_is_never_hidden_by_the_cache(pig, capsys):
    overlay = pig.parent / "mine.yaml"                      # an expansion kept outside the game
    overlay.write_text(QUICK.replace("id: quick", "id: mine"), "utf-8")
    assert main(["validate", "pig", "--variant", "mine.yaml"]) == 0
    overlay.write_text(QUICK.replace("id: quick", "id: mine").replace("{target:", "{targt:"), "utf-8")
    _forget()
    assert main(["validate", "pig", "--variant", "mine.yaml"]) == 1
    assert "mine.yaml:3:12: set: no parameter 'targt'" in capsys.readouterr().out


def test_validate_builds_lean_and_finds_what_a_full_build_finds(monkeypatch):
    # Fast forms, fused blocks and runners are for speed: validate leaves them out, and still
    # reports exactly what a full build reports (tests/test_definition_errors.py compares
    # the two on every broken copy).
    from interpreter.lang.compiler import BLOCK
    seen = []
    real = build_mod.build

    def spy(folder, variants, trace=False, lean=False):
        game, diags = real(folder, variants, trace, lean)
        seen.append((lean, game))
        return game, diags
    from interpreter.cli import inspect_cmds
    monkeypatch.setattr(build_mod, "build", spy)
    monkeypatch.setattr(inspect_cmds, "build", spy)
    monkeypatch.setenv("CAIRN_CACHE", "off")
    assert main(["validate", str(PIG)]) == 0
    assert seen and all(lean for lean, _g in seen)
    lean_game = seen[0][1]
    full_game, _ = real(PIG, [])

    def fused(g):
        return sum(1 for prog in g.programs.values() for ins in prog.code if ins[0] == BLOCK)
    assert fused(lean_game) == 0 < fused(full_game)
    assert all(prog.runner is None for prog in lean_game.programs.values())       # never played
    assert all(prog.runner is not None for prog in full_game.programs.values())
