"""The `cairn` command, run in-process through interpreter.cli.main.main (it returns the
exit status), plus one subprocess run of `python3 -m interpreter`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]

SIM_KEYS = {"game", "players", "games", "finished", "mean_turns", "wins_by_seat",
            "mean_score_by_seat", "digest", "games_per_s"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


# ---- list ------------------------------------------------------------------------

def test_list_text(capsys):
    rc, out, _ = run(capsys, "list")
    assert rc == 0
    [line] = [l for l in out.splitlines() if l.startswith("big-foot ")]
    assert line.split() == ["big-foot", "Big", "Foot", "2-4", "players"]


def test_list_json(capsys):
    rc, out, _ = run(capsys, "list", "--json")
    assert rc == 0
    rows = json.loads(out)
    assert isinstance(rows, list)
    [bf] = [r for r in rows if r["id"] == "big-foot"]
    assert bf["name"] == "Big Foot"
    assert bf["players"] == [2, 4]
    assert isinstance(bf["variants"], dict)
    assert "error" not in bf


def test_list_marks_the_example_expansions(capsys):
    """Variants whose content is invented for Cairn are marked as examples, the rulebook's
    own variants are not (the marks follow `provenance: {kind: invented}`)."""
    import yaml
    invented = sorted(f.stem for f in (ROOT / "definitions").glob("*/variants/*.yaml")
                      if (yaml.safe_load(f.read_text("utf-8"))["variant"].get("provenance") or {}).get("kind") == "invented")
    assert "riverfolk" in invented and "first-game" not in invented      # the rulebook's variants are not examples
    rc, out, _ = run(capsys, "list", "--json")
    assert sorted(v for r in json.loads(out) for v in r["examples"]) == invented
    rc, out, _ = run(capsys, "list")
    assert sorted(l.split()[1] for l in out.splitlines() if l.endswith("[example: invented for Cairn]")) == invented


# ---- validate --------------------------------------------------------------------

def test_validate_big_foot_ok(capsys):
    rc, out, err = run(capsys, "validate", str(ROOT / "definitions" / "big-foot"))
    assert rc == 0
    assert out == ""
    assert err.startswith("valid: checked ")


def test_validate_by_id_json_is_empty_list(capsys):
    rc, out, _ = run(capsys, "validate", "big-foot", "--json")
    assert rc == 0
    assert json.loads(out) == []


def test_validate_missing_path_exits_2(capsys, tmp_path):
    missing = tmp_path / "no-such-game"
    rc, out, err = run(capsys, "validate", str(missing))
    assert rc == 2
    assert out == ""
    assert err.startswith(f"cairn: no game '{missing}' (a game id or a folder with game.yaml); known: big-foot")


def test_validate_without_arguments_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["validate"])
    assert info.value.code == 2
    assert "GAME_OR_PATH" in capsys.readouterr().err


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert "usage: cairn" in capsys.readouterr().err


def test_unknown_variant_exits_1(capsys):
    rc, out, _ = run(capsys, "validate", "big-foot", "--variant", "nope")
    assert rc == 1
    assert "no variant 'nope'" in out


# ---- manifest --------------------------------------------------------------------

def test_manifest_json(capsys):
    rc, out, _ = run(capsys, "manifest", "big-foot", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["game"] == "big-foot"
    assert doc["variants"] == []
    assert doc["components"] == {"token": 8, "card": 24, "monster": 1, "disc": 10}


def test_manifest_text_and_bad_player_count(capsys):
    rc, out, _ = run(capsys, "manifest", "big-foot")
    assert rc == 0
    lines = out.splitlines()
    assert [l.split() for l in lines[:4]] == [["card", "24"], ["disc", "10"], ["monster", "1"], ["token", "8"]]
    assert lines[4].startswith("abilities: ") and "object definitions" in lines[4]
    rc, out, err = run(capsys, "manifest", "big-foot", "--players", "5")
    assert rc == 2
    assert err == "cairn: big-foot takes 2-4 players, got 5\n"


def test_unknown_game_exits_2(capsys):
    rc, _, err = run(capsys, "manifest", "no-such-game")
    assert rc == 2
    assert err.startswith("cairn: no game 'no-such-game' (a game id or a folder with game.yaml); known: ")
    assert "big-foot" in err


# ---- simulate --------------------------------------------------------------------

def simulate(capsys, seed: int) -> dict:
    rc, out, _ = run(capsys, "simulate", "big-foot", "--players", "4", "--games", "20",
                     "--seed", str(seed), "--json", "--quiet")
    assert rc == 0
    return json.loads(out)


def test_simulate_is_deterministic(capsys):
    a = simulate(capsys, 7)
    assert SIM_KEYS <= set(a)
    assert a["game"] == "big-foot"
    assert (a["players"], a["games"], a["finished"]) == (4, 20, 20)
    assert len(a["wins_by_seat"]) == 4 and len(a["mean_score_by_seat"]) == 4
    assert sum(a["wins_by_seat"]) >= 20
    assert a["mean_turns"] > 0
    assert a["games_per_s"] > 0
    assert len(a["digest"]) == 64 and int(a["digest"], 16) >= 0
    b = simulate(capsys, 7)
    assert b["digest"] == a["digest"]
    assert (b["wins_by_seat"], b["mean_turns"]) == (a["wins_by_seat"], a["mean_turns"])
    c = simulate(capsys, 8)
    assert c["finished"] == 20
    assert c["digest"] != a["digest"]


@pytest.mark.parametrize("argv,message", [
    (["--games", "0"], "cairn: --games must be at least 1\n"),
    (["--players", "5"], "cairn: big-foot takes 2-4 players, got 5\n"),
    (["--agents", "wizard"], "cairn: unknown agent 'wizard'; known: "),
    (["--players", "3", "--seats", "first,random"],
     "cairn: --players 3 but --seats names 2 bots (first, random): give one bot per player, or one bot for every seat\n"),
])
def test_simulate_usage_errors(capsys, argv, message):
    rc, out, err = run(capsys, "simulate", "big-foot", *argv)
    assert rc == 2
    assert out == ""
    assert err.startswith(message)


@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_a_list_of_bots_is_the_number_of_players(capsys, command):
    """`--seats a,b,c` plays three-player games: a batch of the default size dropped the
    other bots without a word (one-player games won 100%). One bot fills every seat."""
    rc, out, _ = run(capsys, command, "stonefire", "--seats", "first,random,random", "--games", "2", "--json", "--quiet")
    assert rc == 0
    said = json.loads(out).get("base", json.loads(out))     # balance nests its report
    assert said["players"] == 3
    rc, out, _ = run(capsys, command, "stonefire", "--seats", "first", "--players", "4", "--games", "1", "--json", "--quiet")
    assert rc == 0
    assert json.loads(out).get("base", json.loads(out))["players"] == 4


# ---- play / replay ---------------------------------------------------------------

@pytest.fixture
def record(tmp_path, capsys) -> Path:
    path = tmp_path / "game.json"
    rc, out, err = run(capsys, "play", "big-foot", "--seats", "random,random,random", "--seed", "3",
                       "--record", str(path))
    assert rc == 0
    assert out.startswith("Big Foot: 3 players (Player 1=random, Player 2=random, Player 3=random), seed 3\n")
    assert "\nWinner(s): Player " in out
    assert f"record written to {path}" in err
    return path


def test_play_record_replays(record, capsys):
    rec = json.loads(record.read_text("utf-8"))
    assert (rec["game"], rec["players"], rec["seed"]) == ("big-foot", 3, 3)
    assert rec["agents"] == ["random"] * 3
    assert len(rec["actions"]) > 0
    rc, out, _ = run(capsys, "replay", str(record))
    assert rc == 0
    assert out == f"ok: replayed {len(rec['actions'])} choices: same result, same final state\n"


def test_replay_tampered_action_mismatch(record, tmp_path, capsys):
    rec = json.loads(record.read_text("utf-8"))
    # change the first choice that had an alternative to another legal option
    state = load_game("big-foot").new_initial_state(rec["players"], rec["seed"], log=False)
    for i, action in enumerate(rec["actions"]):
        legal = state.legal_actions()
        if len(legal) >= 2:
            other = next(a for a in legal if a != action)
            rec["actions"][i] = other
            break
        state.apply_action(action)
    else:
        pytest.fail("the recorded game never offered a real choice")
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(rec), "utf-8")
    rc, out, _ = run(capsys, "replay", str(bad))
    assert rc == 1
    assert out.startswith("MISMATCH: ")


def test_replay_tampered_scores_mismatch(record, tmp_path, capsys):
    rec = json.loads(record.read_text("utf-8"))
    rec["result"]["scores"][0] += 1
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(rec), "utf-8")
    rc, out, _ = run(capsys, "replay", str(bad))
    assert rc == 1
    assert out.startswith("MISMATCH: result differs: recorded ")


def test_replay_not_json_exits_1(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("this is not a game record\n", "utf-8")
    rc, out, err = run(capsys, "replay", str(path))
    assert rc == 1
    assert out == ""
    assert err.startswith(f"cairn: cannot read record {path}: ")


def test_replay_json_that_is_not_a_record_exits_1(tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}', "utf-8")
    rc, _, err = run(capsys, "replay", str(path))
    assert rc == 1
    assert err == f"cairn: {path} is not a Cairn game record\n"


def test_replay_missing_file_exits_2(tmp_path, capsys):
    rc, _, err = run(capsys, "replay", str(tmp_path / "nothing.json"))
    assert rc == 2
    assert err.startswith("cairn: cannot read record ")


@pytest.mark.parametrize("change", [{"drop": "players"}, {"set": ("actions", 5)}], ids=["no-players", "actions-int"])
def test_replay_malformed_record_exits_1(record, tmp_path, capsys, change):
    rec = json.loads(record.read_text("utf-8"))
    if "drop" in change:
        del rec[change["drop"]]
    else:
        key, value = change["set"]
        rec[key] = value
    bad = tmp_path / "malformed.json"
    bad.write_text(json.dumps(rec), "utf-8")
    rc, _, err = run(capsys, "replay", str(bad))
    assert rc == 1
    assert err.startswith("cairn: ")


def test_play_bad_seats_exits_2(capsys):
    rc, _, err = run(capsys, "play", "big-foot", "--seats", "random,wizard")
    assert rc == 2
    assert err.startswith("cairn: unknown seat kind 'wizard'")
    rc, _, err = run(capsys, "play", "big-foot", "--seats", "random")
    assert rc == 2
    assert err == "cairn: big-foot takes 2-4 players, got 1\n"


# ---- the module entry point --------------------------------------------------------

def test_python_dash_m_interpreter_validate():
    proc = subprocess.run([sys.executable, "-m", "interpreter", "validate", "definitions/big-foot"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.startswith("valid: checked definitions/big-foot")


def test_simulate_digest_does_not_depend_on_workers(capsys):
    rc1, out1, _ = run(capsys, "simulate", "big-foot", "--players", "3", "--games", "8", "--seed", "2", "--json")
    rc2, out2, _ = run(capsys, "simulate", "big-foot", "--players", "3", "--games", "8", "--seed", "2",
                       "--workers", "2", "--json")
    assert rc1 == rc2 == 0
    a, b = json.loads(out1), json.loads(out2)
    assert a["digest"] == b["digest"] and a["finished"] == b["finished"] == 8
    assert a["wins_by_seat"] == b["wins_by_seat"]


def test_manifest_breakdown_by_property(capsys):
    rc, out, _ = run(capsys, "manifest", "big-foot", "--by", "colour", "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["by"]["colour"] == {"token": {"red": 2, "yellow": 2, "green": 2, "blue": 2}}


def test_validate_checks_scenario_files(capsys, tmp_path):
    import shutil
    copy = tmp_path / "bf"
    shutil.copytree(ROOT / "definitions" / "big-foot", copy)
    path = copy / "scenarios" / "rules.yaml"
    text = path.read_text()
    assert "    rule: to-play-3-full-count" in text
    path.write_text(text.replace("    rule: to-play-3-full-count", "    rul: to-play-3-full-count", 1))
    line = path.read_text().splitlines().index(next(l for l in path.read_text().splitlines() if l.startswith("    rul:"))) + 1
    rc, out, _ = run(capsys, "validate", str(copy))
    assert rc == 1
    assert f"rules.yaml:{line}:5: unknown key 'rul' in scenarios/7 (did you mean 'rule'?)" in out


def test_simulate_records_replay(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    rc, _out, _ = run(capsys, "simulate", "stonefire", "--players", "2", "--games", "3", "--seed", "4",
                      "--records", str(path), "--json")
    assert rc == 0 and len(path.read_text().splitlines()) == 3
    rc, out, _ = run(capsys, "replay", str(path))
    assert rc == 0 and "3 of 3 records replayed identically" in out
    lines = path.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["result"]["scores"][0] += 1
    path.write_text("\n".join([lines[0], json.dumps(bad), lines[2]]) + "\n")
    rc, out, _ = run(capsys, "replay", str(path))
    assert rc == 1 and "2 of 3 records replayed identically" in out and "MISMATCH" in out


def test_scenarios_command_runs_and_can_fail(capsys, tmp_path):
    import shutil
    rc, out, _ = run(capsys, "scenarios", "big-foot")
    assert rc == 0 and out.strip().endswith(" passed, 0 failed")
    copy = tmp_path / "bf"
    shutil.copytree(ROOT / "definitions" / "big-foot", copy)
    path = copy / "scenarios" / "rules.yaml"
    text = path.read_text()
    assert "game.first == 1\n" in text
    path.write_text(text.replace("game.first == 1\n", "game.first == 2\n", 1))
    rc, out, _ = run(capsys, "scenarios", str(copy))
    assert rc == 1 and "FAIL" in out and "expected true: game.first == 2" in out


def test_play_prints_every_line_of_a_drawing_indented(capsys):
    # footprints logs its map as one entry of several lines (built only when a log is
    # kept): the bots' game prints each row indented like any other log line.
    rc, out, _err = run(capsys, "play", "footprints", "--seats", "random,random,random", "--seed", "1")
    assert rc == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  map (m i f s"))
    rows = lines[at + 1:at + 4]
    assert all(row.startswith("  ") and "H" in row for row in rows), rows


def test_scenarios_of_a_bare_file_name(capsys, tmp_path, monkeypatch):
    """`cairn scenarios scenarios.yaml` in the expansion's own folder (a path with no folder
    part had no parents to look for the game in: IndexError)."""
    for name in ("lucky-charm.yaml", "scenarios.yaml"):
        (tmp_path / name).write_text((ROOT / "docs" / "modding" / name).read_text("utf-8"), "utf-8")
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(capsys, "scenarios", "scenarios.yaml")
    assert rc == 0, err
    assert out.splitlines()[-1].endswith(" passed, 0 failed") and not out.startswith("0 passed")
