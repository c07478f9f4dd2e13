"""The command line as clig.dev asks: --version, help with examples for every option, one
--json switch, conflicting options refused, a printed seed, no traceback on a closed pipe
or Ctrl-C (the record so far is kept), no internal paths, shadowing said."""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main, parser

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("cairn ")


def _subparsers():
    ap = parser()
    action = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def test_every_option_has_help_and_every_command_examples():
    for name, sub in _subparsers().items():
        assert "examples:\n  cairn " + name in (sub.epilog or ""), name
        for action in sub._actions:
            if action.dest != "help":
                assert action.help, f"cairn {name}: {action.option_strings or action.dest} has no help"


def test_help_renders_for_cairn_and_every_command(capsys):
    """argparse %-formats help texts: a bare % in one ("95% intervals") broke `cairn --help`."""
    for argv in [["--help"]] + [[name, "--help"] for name in _subparsers()]:
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 0, argv
        assert "usage: cairn" in capsys.readouterr().out, argv


def test_one_json_switch_everywhere():
    for name, sub in _subparsers().items():
        opts = {o for a in sub._actions for o in a.option_strings}
        if name == "rules":          # a document, as Markdown or HTML: --format picks which
            assert "--json" not in opts
            continue
        assert "--format" not in opts, name
        if name not in ("play", "resume", "replay"):
            assert "--json" in opts, name


def test_play_picks_and_prints_a_seed(capsys):
    rc, out, _ = run(capsys, "play", "big-foot", "--seats", "random,random")
    assert rc == 0
    seed = int(out.splitlines()[0].rsplit("seed ", 1)[1])
    rc, out2, _ = run(capsys, "play", "big-foot", "--seats", "random,random", "--seed", str(seed))
    assert out2 == out


def test_conflicting_seats_and_players(capsys):
    rc, _, err = run(capsys, "play", "big-foot", "--players", "2", "--seats", "random,random,random")
    assert rc == 2 and err == "cairn: --seats names 3 seats but --players asks for 2\n"


def test_record_into_a_missing_folder_is_refused_before_the_game(capsys, tmp_path):
    rc, out, err = run(capsys, "play", "big-foot", "--seats", "random,random", "--record",
                       str(tmp_path / "no" / "r.json"))
    assert rc == 2 and out == "" and "no folder" in err


def test_plurals(capsys):
    rc, out, _ = run(capsys, "play", "stonefire", "--seats", "random", "--seed", "1")
    assert rc == 0 and out.startswith("StoneFire: 1 player (")


def test_ctrl_c_keeps_the_record_so_far(capsys, tmp_path, ctrl_c_after):
    ctrl_c_after(3)
    path = tmp_path / "r.json"
    rc, _, err = run(capsys, "play", "big-foot", "--seats", "human,random", "--seed", "2", "--record", str(path))
    assert rc == 130
    rec = json.loads(path.read_text())
    assert rec["result"] is None and len(rec["actions"]) >= 3
    assert "the game so far is in" in err


def test_closed_pipe_is_quiet():
    proc = subprocess.run(f"{sys.executable} -m interpreter simulate big-foot --games 40 --quiet | head -c 10",
                          shell=True, capture_output=True, text=True, cwd=ROOT)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_errors_name_no_internal_path(capsys):
    rc, out, err = run(capsys, "validate", "big-foot", "--variant", "nope")
    assert rc == 1
    assert "site-packages" not in out + err and "_data" not in out + err
    assert out.startswith("definitions/big-foot:1:1: no variant 'nope'")


def test_a_local_folder_shadowing_a_game_is_said(capsys, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "definitions" / "big-foot", tmp_path / "big-foot")
    monkeypatch.chdir(tmp_path)
    rc, _, err = run(capsys, "manifest", "big-foot")
    assert rc == 0
    assert "note: using the folder big-foot/ here, not the built-in game big-foot" in err


def test_empty_record_file_is_a_failure(capsys, tmp_path):
    path = tmp_path / "empty.json"
    path.write_text("")
    rc, _, err = run(capsys, "replay", str(path))
    assert rc == 1 and "empty" in err


def test_records_of_a_modded_copy_replay_against_that_copy(capsys, tmp_path):
    mod = tmp_path / "my-big-foot"
    shutil.copytree(ROOT / "definitions" / "big-foot", mod)
    text = (mod / "game.yaml").read_text().replace("name: Big Foot\n", "name: Big Foot (house rules)\n", 1)
    (mod / "game.yaml").write_text(text)
    path = tmp_path / "r.json"
    rc, _, _ = run(capsys, "play", str(mod), "--seats", "random,random", "--seed", "5", "--record", str(path))
    assert rc == 0
    rec = json.loads(path.read_text())
    assert rec["definitions_path"] == str(mod) and len(rec["definitions_sha256"]) == 64
    rc, out, _ = run(capsys, "replay", str(path))
    assert rc == 0 and out.startswith("ok: ")
    (mod / "game.yaml").write_text(text.replace("(house rules)", "(house rules, v2)"))
    rc, out, _ = run(capsys, "replay", str(path))
    assert rc == 1 and "played with other definitions" in out
    rc, out, _ = run(capsys, "replay", str(path), "--game", str(ROOT / "definitions" / "big-foot"))
    assert rc == 1 and "other definitions" in out


def test_a_record_file_holding_an_empty_list_is_a_failure(capsys, tmp_path):
    path = tmp_path / "none.json"
    path.write_text("[]")
    rc, _out, err = run(capsys, "replay", str(path))
    assert rc == 1 and "holds no record" in err


def test_a_bounded_command_skips_cycle_collection_only_as_a_process(monkeypatch, capsys):
    """`cairn validate` as a process of its own runs with the cycle collector off and
    freezes what it made (its process ends with it); called in a process that goes on
    (a test, a server), it leaves the collector as it was; a game never skips it."""
    import gc

    import interpreter.cli.main as cli_main
    seen = []
    dispatch = cli_main._dispatch
    monkeypatch.setattr(cli_main, "_dispatch", lambda args: seen.append(gc.isenabled()) or dispatch(args))
    monkeypatch.setattr(cli_main.gc, "freeze", lambda: seen.append("freeze"))
    try:
        assert cli_main.main(["validate", "tic-tac-toe"]) == 0
        assert seen == [True] and gc.isenabled()
        seen.clear()
        assert cli_main.main(["validate", "tic-tac-toe"], whole_process=True) == 0
        assert seen == [False, "freeze"]
        gc.enable()
        seen.clear()
        assert cli_main.main(["simulate", "tic-tac-toe", "--games", "1", "--players", "2"], whole_process=True) == 0
        assert seen == [True] and gc.isenabled()
    finally:
        gc.enable()
    capsys.readouterr()
