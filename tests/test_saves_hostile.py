"""Saves and records as an attacker (or a careless hand) would write them: every field of
the wrong kind, another seed, a choice changed, added or removed, a hash changed, bad
checkpoints followed by undo. Each is refused with one message naming the file and what
differs, never a traceback; the untampered save resumes and the untampered record replays
(the negative controls: each probe can fail)."""
from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.load.build import load_game
from interpreter.records import RECORD_FIELDS
from interpreter.terminal import save_check
from interpreter.terminal.session import Quit, Session, load_save
from interpreter.undo import Checkpoint, UndoError, undo
from answers import scripted

ROOT = Path(__file__).resolve().parents[1]
GAME = "big-foot"


@pytest.fixture(scope="module")
def good_save(tmp_path_factory) -> dict:
    """A save of big-foot, a person against a bot, after six of the person's decisions."""
    path = tmp_path_factory.mktemp("save") / "g.save.json"
    s = Session(load_game(ROOT / "definitions" / GAME, []), 2, 5, ["human", "random"], save_path=path,
                out=io.StringIO(), ask=scripted(["1"] * 6 + ["q"]))
    with pytest.raises(Quit):
        s.run()
    data = json.loads(path.read_text("utf-8"))
    assert len(data["checkpoints"]) >= 4 and len(data["record"]["actions"]) > 6
    return data


@pytest.fixture(scope="module")
def good_record(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("rec") / "r.json"
    assert main(["play", "tic-tac-toe", "--seats", "random,random", "--seed", "3", "--record", str(path)]) == 0
    return json.loads(path.read_text("utf-8"))


def _rec(change):
    def tamper(save: dict) -> dict:
        change(save["record"])
        return save
    return tamper


def _set(key, value):
    def tamper(d: dict) -> dict:
        d[key] = value
        return d
    return tamper


def _replayed(rec: dict, actions: list):
    """Returns the state the record's game reaches after `actions`."""
    g = load_game(ROOT / "definitions" / GAME, [])
    state = g.new_initial_state(rec["players"], rec["seed"])
    for a in actions:
        state.apply_action(a)
    return state


def _other_legal_choice(save: dict) -> dict:
    """Changes the last choice to another option of the same decision (still legal)."""
    rec = save["record"]
    options = _replayed(rec, rec["actions"][:-1]).legal_actions()
    assert len(options) > 1
    rec["actions"][-1] = next(a for a in options if a != rec["actions"][-1])
    return save


def _added_choice(save: dict) -> dict:
    rec = save["record"]
    rec["actions"].append(_replayed(rec, rec["actions"]).legal_actions()[0])
    return save


def _checkpoint(i, value):
    def tamper(save: dict) -> dict:
        save["checkpoints"][i] = value
        return save
    return tamper


def _bot_checkpoint(save: dict) -> dict:
    """Moves a checkpoint to a choice the bot made (its seat still the person's)."""
    rec = save["record"]
    state = _replayed(rec, [])
    bot_at = None
    for i, a in enumerate(rec["actions"]):
        if state.current_player() == 1 and i > save["checkpoints"][0][0]:
            bot_at = i
            break
        state.apply_action(a)
    assert bot_at is not None
    later = [cp for cp in save["checkpoints"] if cp[0] > bot_at]
    save["checkpoints"] = [cp for cp in save["checkpoints"] if cp[0] < bot_at] + [[bot_at, 0, save["bots"]]] + later
    return save


# name -> (tamper, a piece of the message naming what differs)
SAVES = {
    "a changed seed": (_rec(lambda r: r.update(seed=r["seed"] + 1)), "state sha256"),
    "a changed choice": (_other_legal_choice, "state sha256"),
    "an added choice": (_added_choice, "state sha256"),
    "a removed choice": (_rec(lambda r: r["actions"].pop()), "state sha256"),
    "an illegal choice": (_rec(lambda r: r["actions"].__setitem__(0, 999)), "choice 1 (999) is not legal"),
    "a changed hash": (_rec(lambda r: r.update(final_state_sha256="ab" * 32)), "but the save says abababababab"),
    "a hash that is not hex": (_rec(lambda r: r.update(final_state_sha256="zz")), "field 'record.final_state_sha256'"),
    "a changed turn count": (_rec(lambda r: r.update(turns=r["turns"] + 1)), "turns"),
    "a changed result": (_rec(lambda r: r.update(result={"reason": "x"})), "result differs"),
    "other definitions": (_rec(lambda r: r.update(definitions_sha256="0" * 64)), "other definitions"),
    "a digest that is a number": (_rec(lambda r: r.update(definitions_sha256=123)), "field 'record.definitions_sha256'"),
    "a variant added": (_rec(lambda r: r.update(variants=["solo"])), "solo"),
    "a variant twice": (_rec(lambda r: r.update(variants=["x", "x"])), "field 'record.variants'"),
    "another game": (_rec(lambda r: r.update(game="tic-tac-toe")), "other definitions of tic-tac-toe"),
    "an unknown game": (_rec(lambda r: r.update(game="no-such-game")), "no game 'no-such-game'"),
    "more players": (_rec(lambda r: r.update(players=3)), "field 'seats' must be a list of 3"),
    "players as text": (_rec(lambda r: r.update(players="2")), "field 'record.players'"),
    "record format 99": (_rec(lambda r: r.update(cairn_record=99)), "format 99; this Cairn reads record format 1"),
    "save format 99": (_set("cairn_save", 99), "save of format 99; this Cairn reads save format 1"),
    "save format true": (_set("cairn_save", True), "save of format true"),
    "no record": (lambda d: {k: v for k, v in d.items() if k != "record"}, "field 'record' is missing"),
    "a record that is a list": (_set("record", []), "field 'record' is not a Cairn game record"),
    "an unknown field": (_set("extra", 1), "unknown field \"extra\""),
    "seats [1, null]": (_set("seats", [1, None]), "field 'seats' item 1"),
    "seats naming no bot": (_set("seats", ["human", "nobody"]), "field 'seats' item 2"),
    "seats of one": (_set("seats", ["human"]), "field 'seats' must be a list of 2"),
    "seats not the agents": (_set("seats", ["human", "first"]), "is not the record's agents"),
    "bots [{}]": (_set("bots", [{}]), "field 'bots' must be a list of 2"),
    "bots \"x\"": (_set("bots", "x"), "field 'bots' must be a list"),
    "bots with no rng": (_set("bots", [{}, {}]), "field 'bots' item 1"),
    "bots with text rng": (lambda d: _set("bots", [{"rng": "1"}, d["bots"][1]])(d), "field 'bots' item 1"),
    "bots with a 65-bit rng": (lambda d: _set("bots", [d["bots"][0], {"rng": 2 ** 64}])(d), "field 'bots' item 2"),
    "checkpoints \"x\"": (_set("checkpoints", "x"), "field 'checkpoints'"),
    "a checkpoint past the end": (_checkpoint(-1, [10 ** 6, 0, []]), "field 'checkpoints' item"),
    "a checkpoint at -1": (_checkpoint(0, [-1, 0, []]), "field 'checkpoints' item 1"),
    "a checkpoint of a bot's seat": (lambda d: _checkpoint(0, [d["checkpoints"][0][0], 1, d["bots"]])(d),
                                     "must name a person's seat"),
    "a checkpoint with bots \"x\"": (lambda d: _checkpoint(1, [d["checkpoints"][1][0], 0, "x"])(d),
                                     "field 'checkpoints' item 2's bots"),
    "a checkpoint that is a number": (_checkpoint(0, 3), "field 'checkpoints' item 1 must be"),
    "checkpoints out of order": (lambda d: _set("checkpoints", d["checkpoints"][::-1])(d), "later than the one before"),
    "a checkpoint at a bot's decision": (_bot_checkpoint, "but the choices replay to seat 1 deciding there"),
    "actions that are text": (_rec(lambda r: r.update(actions=["1"])), "field 'record.actions'"),
    "a seed of 70 bits": (_rec(lambda r: r.update(seed=2 ** 70)), "state sha256"),
    "a seed of text": (_rec(lambda r: r.update(seed="5")), "field 'record.seed'"),
}

TEXTS = {
    "an empty file": ("", "cannot read save"),
    "not JSON": ("{", "cannot read save"),
    "JSON nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "cannot read save"),
    "a 5,000-digit number": ('{"cairn_save": ' + "9" * 5000 + "}", "cannot read save"),
    "null": ("null", "is not a Cairn save"),
}


def _resume(capsys, path: Path) -> tuple[int, str]:
    rc = main(["resume", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, err


@pytest.mark.parametrize("name", list(SAVES))
def test_a_tampered_save_is_refused_naming_what_differs(name, good_save, tmp_path, capsys, monkeypatch):
    tamper, says = SAVES[name]
    path = tmp_path / "g.save.json"
    path.write_text(json.dumps(tamper(copy.deepcopy(good_save))), "utf-8")
    monkeypatch.setattr("builtins.input", scripted(["q"]))
    rc, err = _resume(capsys, path)
    assert rc in (1, 2), err
    assert says in err, err
    assert err.count("\n") == 1 and str(path) in err, err


@pytest.mark.parametrize("name", list(TEXTS))
def test_a_save_that_is_not_json_is_refused(name, tmp_path, capsys):
    text, says = TEXTS[name]
    path = tmp_path / "g.save.json"
    path.write_text(text, "utf-8")
    rc, err = _resume(capsys, path)
    assert rc == 2 and says in err and err.count("\n") == 1, err


def test_the_untampered_save_resumes(good_save, tmp_path, capsys, monkeypatch):
    """The negative control: the probes above refuse only what was changed."""
    path = tmp_path / "g.save.json"
    path.write_text(json.dumps(good_save), "utf-8")
    monkeypatch.setattr("builtins.input", scripted(["q"]))
    rc = main(["resume", str(path)])
    out, err = capsys.readouterr()
    assert rc == 0 and "resumed from" in out, err
    assert json.loads(path.read_text("utf-8"))["record"] == good_save["record"]


def test_a_save_recomputed_after_a_change_is_a_game_of_its_own(good_save, tmp_path):
    """The hash binds the seed and the choices: a save changed and re-hashed consistently
    is simply another sound game (nothing secret rests on the file), and resumes."""
    s = load_save(_write(tmp_path, good_save), _load, out=io.StringIO(), ask=scripted(["q"]))
    assert s.state.d["actions"] == good_save["record"]["actions"]
    assert [b.get_state() for b in s.bots] == good_save["bots"]


def _write(tmp_path: Path, data) -> Path:
    path = tmp_path / "s.save.json"
    path.write_text(json.dumps(data), "utf-8")
    return path


def _load(gid, variants):
    return load_game(ROOT / "definitions" / gid, variants)


def test_a_save_that_is_a_fifo_or_too_big_is_refused_unread(tmp_path, capsys, monkeypatch):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        save_check.read_save(fifo)          # not blocked waiting for a writer
    big = _write(tmp_path, {"cairn_save": 1, "pad": "x" * 2000})
    monkeypatch.setattr(save_check, "MAX_SAVE_BYTES", 1000)
    with pytest.raises(ValueError, match="larger than"):
        save_check.read_save(big)


# ---- undo over bad checkpoints -------------------------------------------------------

def test_undo_over_a_bad_checkpoint_is_refused_and_changes_nothing(good_save, tmp_path):
    s = load_save(_write(tmp_path, good_save), _load, out=io.StringIO(), ask=scripted([]))
    state, bots = s.state, s.bots
    for bad in (Checkpoint(10 ** 6, 0, good_save["bots"]), Checkpoint(-1, 0, good_save["bots"]),
                Checkpoint(0, 0, "x"), Checkpoint(0, 0, [{}]), Checkpoint("0", 0, good_save["bots"])):
        points = [bad, Checkpoint(len(state.d["actions"]), 0, good_save["bots"])]
        with pytest.raises(UndoError, match="cannot undo"):
            undo(s.g, state, points, bots)
        assert len(points) == 2                # nothing popped
    s.checkpoints = [Checkpoint(10 ** 6, 0, good_save["bots"])]
    s.ask = scripted(["u", "q"])
    with pytest.raises(Quit):
        s.run()
    assert "cannot undo: the checkpoint stands at 1000000 choices" in s.out.getvalue()


def test_undo_after_a_resume_goes_back_as_before(good_save, tmp_path):
    """The negative control of the undo probes: sound checkpoints undo."""
    s = load_save(_write(tmp_path, good_save), _load, out=io.StringIO(), ask=scripted(["u", "q"]))
    before = len(s.state.d["actions"])
    with pytest.raises(Quit):
        s.run()
    assert "undone: back to your decision" in s.out.getvalue()
    assert len(s.state.d["actions"]) < before


# ---- records -----------------------------------------------------------------------

def _wrong(key: str):
    """A value of the wrong kind for each record field."""
    return {"players": "2", "seed": 1.5, "actions": "0,1", "result": 3, "cairn_record": "1"}.get(key, {"a": [1]})


RECORDS = {
    **{f"{key} of the wrong kind": ((lambda k: lambda r: r.update({k: _wrong(k)}))(key),
                                    f"field '{key}' must be")
       for key in RECORD_FIELDS if key != "final"},
    "cairn_record 99": (lambda r: r.update(cairn_record=99), "format 99; this Cairn reads record format 1"),
    "definitions_sha256 123": (lambda r: r.update(definitions_sha256=123), "field 'definitions_sha256'"),
    "a changed seed": (lambda r: r.update(seed=r["seed"] + 1), "MISMATCH"),
    "a changed choice": (lambda r: r["actions"].__setitem__(0, (r["actions"][0] + 1) % 9), "MISMATCH"),
    "a removed choice": (lambda r: r["actions"].pop(), "MISMATCH"),
    "an added choice": (lambda r: r["actions"].append(0), "MISMATCH: the game ended after"),
    "a changed hash": (lambda r: r.update(final_state_sha256="cd" * 32), "but the record says cdcdcdcdcdcd"),
    "a changed result": (lambda r: r.update(result=None), "MISMATCH: result differs"),
    "a variant twice": (lambda r: r.update(variants=["v", "v"]), "field 'variants'"),
    "an unknown field": (lambda r: r.update(extra=1), "unknown field"),
}


@pytest.mark.parametrize("name", list(RECORDS))
def test_a_tampered_record_is_refused(name, good_record, tmp_path, capsys):
    tamper, says = RECORDS[name]
    rec = copy.deepcopy(good_record)
    tamper(rec)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), "utf-8")
    rc = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc == 1 and says in out + err, out + err


def test_the_untampered_record_replays(good_record, tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(good_record), "utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_a_variant_given_twice_on_the_command_line_is_refused(capsys):
    assert main(["validate", "footprints", "--variant", "firekeepers", "--variant", "firekeepers"]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "firekeepers.yaml:" in out and "variant 'firekeepers' is given 2 times" in out
    assert main(["validate", "footprints", "--variant", "firekeepers"]) == 0     # once is fine


# ---- as the person sees it: a process of its own ----------------------------------

@pytest.mark.parametrize("name", ["a changed seed", "seats [1, null]", "bots \"x\"", "a checkpoint past the end"])
def test_no_traceback_reaches_the_person(name, good_save, tmp_path):
    tamper, says = SAVES[name]
    path = _write(tmp_path, tamper(copy.deepcopy(good_save)))
    done = subprocess.run([sys.executable, "-m", "interpreter", "resume", str(path)], cwd=ROOT, capture_output=True,
                          text=True, input="q\n", timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert done.stderr.startswith(f"cairn: {path}: ") and says in done.stderr, done.stderr


@pytest.mark.parametrize("name", ["variants 5", "players of text", "cairn_record 99", "definitions_sha256 123"])
def test_cairn_draw_refuses_a_tampered_record_the_same_way(name, good_record, tmp_path, capsys):
    change = {"variants 5": {"variants": 5}, "players of text": {"players": "2"}, "cairn_record 99": {"cairn_record": 99},
              "definitions_sha256 123": {"definitions_sha256": 123}}[name]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**good_record, **change}), "utf-8")
    rc = main(["draw", "tic-tac-toe", "--record", str(path), "-o", str(tmp_path / "b.svg")])
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err and err.startswith(f"cairn: {path}"), err
    assert not (tmp_path / "b.svg").exists()


@pytest.mark.parametrize("name", ["definitions_sha256 123", "cairn_record 99", "a changed seed"])
def test_no_traceback_reaches_the_person_replaying(name, good_record, tmp_path):
    tamper, says = RECORDS[name]
    rec = copy.deepcopy(good_record)
    tamper(rec)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), "utf-8")
    done = subprocess.run([sys.executable, "-m", "interpreter", "replay", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    assert says in done.stdout + done.stderr, done.stdout + done.stderr
