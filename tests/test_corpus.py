"""A corpus of hostile and careless inputs: YAML, effects, overlays, records, saved states
and command lines. Each is answered by one clear error (or a cleanly aborted game), never
a traceback, in under a second of CPU and 200 MB."""
from __future__ import annotations

import json
import resource
import shutil
import time
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.diagnostics import DefinitionError
from interpreter.engine.game import deserialize
from interpreter.load.build import load_game
from interpreter.scenarios import setup_state

ROOT = Path(__file__).resolve().parents[1]
RELAY = ROOT / "tests" / "fixtures" / "relay"


def relay_copy(tmp: Path, **files: str) -> Path:
    dest = tmp / "g"
    shutil.copytree(RELAY, dest)
    for name, text in files.items():
        (dest / name.replace("__", "/")).write_text(text, "utf-8")
    return dest


def edit(tmp: Path, name: str, old: str, new: str) -> Path:
    dest = relay_copy(tmp)
    path = dest / name
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")
    return dest


GAME = (RELAY / "game.yaml").read_text("utf-8")

# ---- YAML: each is a game.yaml (or cards.yaml) that must give file:line:col problems ----
YAML = {
    "python tag": ("game.yaml", GAME.replace("name: Relay", "name: !!python/object:os.system relay")),
    "anchor and alias": ("game.yaml", GAME.replace("box: {card: 9}", "box: &b {card: 9}\nx: *b")),
    "duplicate key": ("game.yaml", GAME.replace("  name: Relay\n", "  name: Relay\n  name: Again\n")),
    "yes as a value": ("game.yaml", GAME.replace('version: "0.1"', "version: yes")),
    "a 5000-digit number": ("game.yaml", GAME.replace("{value: 2, doc", "{value: " + "9" * 5000 + ", doc")),
    "nesting 200 deep": ("game.yaml", GAME + "deep: " + "[" * 200 + "]" * 200 + "\n"),
    "a tab for indentation": ("game.yaml", GAME.replace("  name: Relay", "\tname: Relay")),
    "binary garbage": ("game.yaml", "\x00\x01\x02\xff game: [\n"),
    "an empty game file": ("game.yaml", ""),
    "a list at the top": ("game.yaml", "- 1\n- 2\n"),
    "a 2 MB file": ("cards.yaml", "cards: []\n#" + "x" * 2_000_000 + "\n"),
    "unclosed flow mapping": ("game.yaml", GAME.replace("box: {card: 9}", "box: {card: 9")),
    "unknown top-level key": ("game.yaml", GAME + "rulez: 1\n"),
    "100,000 cards of count 1000": ("cards.yaml", "cards:\n" + "".join(
        f"  - {{id: c{i}, name: C, count: 1000, start: deck, provenance: {{kind: reconstructed}}}}\n" for i in range(2000))),
}

# ---- effects: the game loads, then the rule runs and must abort cleanly -----------------
RUNAWAY = {
    "an endless loop": ("while true {\n  game.round += 1\n}", "step budget"),
    "endless recursion": ("lose_point(0)\n", None),
    "nested huge comprehensions": ("let n = len([len([0 for y in range(99999)]) for x in range(99999)])", "work budget"),
    "squaring a number": ("let x = 3\nwhile true {\n  x = x * x\n}", "beyond"),
    "doubling a text": ('let s = "x"\nwhile true {\n  s = s + s\n}', "more than"),
    "adding a text to a number": ('let s = 1 + "x"', "cannot compute"),
    "dividing by zero": ("let z = 0\nlet x = 1 // z", "division by zero"),
    "an index out of range": ("let x = [1, 2][7]", "no item"),
    "reading a missing attribute": ('let x = "deck".value', "no attribute"),
    "a choice with no options": ("let x = choose([], player=0)", "no options"),
    "a choice for no player": ('let x = choose([1, 2], player="nobody")', "needs player"),
    "moving an unknown object": ('let o = "plain." + "99"\nmove(o, "deck")', "no object"),
    "moving to an unknown place": ('let z = "de" + "ck2"\nmove("plain.1", z)', "no place"),
    "a record key that is not text": ("let k = 5\nlet r = put(record(), k, 1)", "keys are text"),
    "a range of a billion": ("let r = range(1000000000)", "limit"),
    "drawing forever in a circle": ('draw("deck", "discard", n=1000000000, refill_from="discard")', "work budget"),
    "a drawing of a huge grid": ('let g = grid_text([[99999999, 99999999, "x"]])', "cells"),
    "a list doubled into a game variable": ("for i in range(40) {\n  game.votes = [game.votes, game.votes]\n}", "cannot keep"),
    "a deep list kept over a decision": ("let l = []\nfor i in range(500) {\n  l = [l]\n}\nlet c = choose([1, 2], player=0)",
                                         "deep"),
    "modifying an unknown quantity": ('let q = "hand_" + "lim"\nmodify(q, add=1)', "no quantity"),
    "a for over a number": ("let n = 3\nfor i in n {\n  game.round += 1\n}", "needs a list"),
}

# effects that must be refused when the game loads (file:line:col)
LOAD_ERRORS = {
    "an unknown verb": "moev(\"plain.1\", \"deck\")",
    "a syntax error": "let x = (1 +",
    "brackets 100 deep": "let x = " + "(" * 100 + "1" + ")" * 100,
    "an operator chain 5000 long": "let x = " + "+".join(["1"] * 5000),
    "an effect of 30,000 characters": "log(\"" + "x" * 30000 + "\")",
    "a changing verb in a condition": None,
    "a number of 30 digits": "let x = 123456789012345678901234567890",
    "break outside a loop": "break",
}

OVERLAYS = {
    "an unknown section": "add:\n  cardz: []\n",
    "replacing what does not exist": "replace:\n  procedures:\n    no_such: {do: 'log(\"x\")'}\n",
    "adding what exists": "add:\n  procedures:\n    deal: {do: 'log(\"x\")'}\n",
    "removing what does not exist": "remove:\n  cards: [no-such-card]\n",
    "setting a parameter to another type": "set:\n  params: {hand_size: [1, 2]}\n",
    "setting an unknown parameter": "set:\n  params: {hand_sise: 3}\n",
    "inserting after an unknown step": "insert:\n  - after: no-step\n    steps: [{step: x, do: 'log(\"x\")'}]\n",
    "extending an unknown procedure": "extend:\n  procedures:\n    no_such: {after: 'log(\"x\")'}\n",
    "abilities for an unknown object": "extend:\n  objects:\n    nobody: {abilities: [{on: turn_start, while_in: anywhere, do: 'log(\"x\")'}]}\n",
    "an ability of no kind": "extend:\n  objects:\n    plain: {abilities: [{while_in: anywhere, do: 'log(\"x\")'}]}\n",
    "an ability on an unknown event": "extend:\n  objects:\n    plain: {abilities: [{on: nope, while_in: anywhere, do: 'log(\"x\")'}]}\n",
    "requiring an unknown variant": None,
}


def timed(fn):
    """Runs one case: under a second of CPU, and the process grows by less than 200 MB."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    try:
        out = fn()
    finally:
        spent = time.process_time() - start
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before      # KB on Linux
        TIMES.append(spent)
        GROWTH.append(grew)
    assert spent < 1.0, f"took {spent:.2f} s of CPU"
    assert grew < 200 * 1024, f"the process grew by {grew / 1024:.0f} MB"
    return out


TIMES: list[float] = []
GROWTH: list[int] = []


def no_traceback(capsys) -> str:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return out + err


@pytest.mark.parametrize("name", list(YAML))
def test_bad_yaml(tmp_path, capsys, name):
    fname, text = YAML[name]
    game = relay_copy(tmp_path, **{fname: text})
    rc = timed(lambda: main(["validate", str(game)]))
    out = no_traceback(capsys)
    assert rc == 1
    first = out.splitlines()[0]
    assert first.startswith(str(game)) and first.count(":") >= 3, first   # file:line:col: message


@pytest.mark.parametrize("name", list(RUNAWAY))
def test_runaway_or_broken_rule_aborts_cleanly(name):
    g = load_game(RELAY)
    text, reason = RUNAWAY[name]
    if name == "endless recursion":
        g = load_game(edit_deep())
        text = "lose_point(0)"
    state = timed(lambda: setup_state(g, {"name": name, "players": 1, "start": text}))
    saved = state.serialize()
    r = state.d["result"]
    assert state.is_terminal() and r["reason"] == "aborted", r
    if reason:
        assert reason in r["aborted"], r["aborted"]
    assert ":" in r["aborted"].split(" ")[0]              # where: program:line:col
    assert deserialize(g, saved).serialize() == saved


def edit_deep() -> Path:
    import tempfile
    tmp = Path(tempfile.mkdtemp())
    return edit(tmp, "game.yaml", "      p.score -= 1\n      p.lost += 1\n", "      lose_point(p)\n")


@pytest.mark.parametrize("name", list(LOAD_ERRORS))
def test_bad_effect_is_a_load_error(tmp_path, capsys, name):
    stmt = LOAD_ERRORS[name]
    if stmt is None:       # a changing verb where only a query may stand
        game = edit(tmp_path, "game.yaml", "expr: params.hand_size", 'expr: len(draw("deck", "discard"))')
    else:
        game = edit(tmp_path, "game.yaml", "      shuffle(\"deck\")\n", f"      shuffle(\"deck\")\n      {stmt}\n")
    rc = timed(lambda: main(["validate", str(game)]))
    out = no_traceback(capsys)
    assert rc == 1 and out.startswith(str(game / "game.yaml") + ":"), out[:300]


@pytest.mark.parametrize("name", list(OVERLAYS))
def test_bad_overlay(tmp_path, capsys, name):
    body = OVERLAYS[name]
    head = "variant: {id: bad, name: Bad, description: bad}\n"
    if body is None:
        head = "variant: {id: bad, name: Bad, description: bad, requires: [ghost]}\n"
        body = ""
    game = relay_copy(tmp_path, **{"variants__bad.yaml": head + body})
    rc = timed(lambda: main(["validate", str(game), "--variant", "bad"]))
    out = no_traceback(capsys)
    assert rc == 1 and "variants/bad.yaml:" in out, out[:300]


def _record(tmp_path: Path, capsys) -> dict:
    path = tmp_path / "r.json"
    assert main(["play", str(RELAY), "--seats", "random,random", "--seed", "3", "--record", str(path)]) == 0
    capsys.readouterr()
    return json.loads(path.read_text())


RECORDS = {
    "an empty file": lambda r: "",
    "not JSON": lambda r: "this is not a record",
    "a JSON list": lambda r: "[1, 2, 3]",
    "JSON nested 100,000 deep": lambda r: "[" * 100_000 + "]" * 100_000,
    "no players": lambda r: json.dumps({k: v for k, v in r.items() if k != "players"}),
    "actions that are not numbers": lambda r: json.dumps({**r, "actions": ["a", "b"]}),
    "variants that are not names": lambda r: json.dumps({**r, "variants": [123]}),
    "an unknown game": lambda r: json.dumps({**r, "game": "no-such-game", "definitions_path": None}),
    "other definitions": lambda r: json.dumps({**r, "definitions_sha256": "0" * 64}),
    "a cut-off game": lambda r: json.dumps({**r, "actions": r["actions"][:3]}),
    "an illegal action": lambda r: json.dumps({**r, "actions": [999] + r["actions"][1:]}),
}


@pytest.mark.parametrize("name", list(RECORDS))
def test_bad_record(tmp_path, capsys, name):
    rec = _record(tmp_path, capsys)
    path = tmp_path / "bad.json"
    path.write_text(RECORDS[name](rec), "utf-8")
    rc = timed(lambda: main(["replay", str(path)]))
    out = no_traceback(capsys)
    assert rc in (1, 2) and out.strip(), out


STATES = {
    "null": lambda d: "null",
    "a list": lambda d: "[]",
    "not JSON": lambda d: "{",
    "another game": lambda d: json.dumps({**d, "game": "chess"}),
    "format 99": lambda d: json.dumps({**d, "state": {**d["state"], "format": 99}}),
    "a card removed": lambda d: _places(d, lambda pl: pl["deck"].pop()),
    "a card twice": lambda d: _places(d, lambda pl: pl["deck"].append(pl["deck"][0])),
    "an unknown program": lambda d: _frame(d, "p", "proc:nowhere"),
    "a pc outside the program": lambda d: _frame(d, "pc", 10_000),
    "a pending decision for no seat": lambda d: json.dumps({**d, "state": {**d["state"],
                                                                          "pending": {**d["state"]["pending"], "player": 9}}}),
    "a game over with work left": lambda d: json.dumps({**d, "state": {**d["state"], "terminal": True}}),
    "nested 100,000 deep": lambda d: "[" * 100_000 + "]" * 100_000,
}


def _places(d: dict, change) -> str:
    d = json.loads(json.dumps(d))
    change(d["state"]["places"])
    return json.dumps(d)


def _frame(d: dict, key: str, value) -> str:
    d = json.loads(json.dumps(d))
    d["state"]["frames"][-1][key] = value
    return json.dumps(d)


@pytest.mark.parametrize("name", list(STATES))
def test_bad_saved_state(name):
    g = load_game(RELAY)
    s = g.new_initial_state(2, 4)
    saved = json.loads(s.serialize())
    text = STATES[name](saved)
    with pytest.raises(ValueError) as err:
        timed(lambda: deserialize(g, text))
    assert str(err.value)


ARGS = [
    ["frobnicate"], ["play"], ["play", "no-such-game"], ["simulate", "big-foot", "--games", "-1"],
    ["simulate", "big-foot", "--players", "0"], ["simulate", "big-foot", "--workers", "0"],
    ["play", "big-foot", "--seats", "random,alien"], ["play", "big-foot", "--seed", "twelve"],
    ["play", "big-foot", "--players", "2", "--seats", "random"], ["validate", "big-foot", "--variant", "nope"],
    ["replay", "/no/such/record.json"], ["manifest", "big-foot", "--players", "9"],
    ["diff", "big-foot"], ["coverage", "tests/fixtures/relay"], ["scenarios", "big-foot", "-k", "("],
    ["play", "big-foot", "--seats", "random,random", "--record", "/no/such/dir/r.json"],
]


@pytest.mark.parametrize("argv", ARGS, ids=[" ".join(a) for a in ARGS])
def test_bad_command_line(capsys, argv):
    try:
        rc = timed(lambda: main(argv))
    except SystemExit as exit_:                 # argparse's own usage errors
        rc = exit_.code
    out = no_traceback(capsys)
    assert rc in (1, 2), rc
    assert out.strip()


def test_corpus_size():
    assert len(YAML) + len(RUNAWAY) + len(LOAD_ERRORS) + len(OVERLAYS) + len(RECORDS) + len(STATES) + len(ARGS) >= 60


def test_corpus_figures():
    """(Runs last: prints the figures the closing note reports.)"""
    if TIMES:
        print(f"\ncorpus: {len(TIMES)} timed cases, slowest {max(TIMES):.3f} s CPU, "
              f"largest growth {max(GROWTH) / 1024:.1f} MB")
    assert all(t < 1.0 for t in TIMES)
