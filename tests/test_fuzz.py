"""A bounded fuzz test (fixed seed): random damage to definition files and random effect
texts. Every case ends in problems reported, or a game that plays or aborts cleanly; no
exception ever escapes the loader or the engine."""
from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

from interpreter.agents import RandomAgent
from interpreter.load.build import build
from interpreter.load.files import _READ
from interpreter.scenarios import run_one

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "tests" / "fixtures" / "relay", ROOT / "definitions" / "big-foot"]
JUNK = ["{", "}", "[", "]", ":", "- ", "!!python/object ", "*a", "&a ", "1e999", "yes", "'", '"', "\t", "#",
        "99999999999999999999999", "none", "  ", "\\x", "{{", "let ", "(", ")", "while true {", "choose(",
        "move(", "this.", "me", "params.", "game.", "=", "+", "//", "0", "-1"]
WORDS = ["let x = ", "x", "1", "[", "]", "(", ")", "for y in ", "range(3)", "if ", " { ", " } ", "choose(",
         "players()", ", player=0)", "move(", '"plain.1"', '"deck"', "+", "*", "==", "and", "not ", "len(",
         "contents(", "game.round", "0.score", "p", "\n", "log(", '"{x}"', "emit(", '"lost"', "break",
         "return", "size(", "zone(", '"hand"', "0", "while ", "true", "none", ".value", "[1, 2]", "//", "%"]


def _damage(text: str, rnd: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rnd.randint(1, 3)):
        if not lines:
            break
        i = rnd.randrange(len(lines))
        how = rnd.randrange(6)
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[i])
        elif how == 2:
            j = rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == 3 and lines[i]:
            k = rnd.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + rnd.choice(JUNK) + lines[i][k:]
        elif how == 4:
            lines[i] = " " * rnd.randint(0, 6) + lines[i].lstrip()
        elif lines[i]:
            k = rnd.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + lines[i][k + 1:]
    return "\n".join(lines)


def test_damaged_definitions_never_escape(tmp_path):
    rnd = random.Random(20261202)
    cases = problems = played = 0
    deadline = time.monotonic() + 25
    slowest = 0.0
    while time.monotonic() < deadline and cases < 400:
        src = rnd.choice(SOURCES)
        dest = tmp_path / f"g{cases}"
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns("scenarios", "NOTES.md"))
        files = sorted(p for p in dest.rglob("*.yaml"))
        target = rnd.choice(files)
        target.write_text(_damage(target.read_text("utf-8"), rnd), "utf-8")
        start = time.process_time()
        game, diags = build(dest, [])
        if game is None:
            problems += 1
            assert diags and all(":" in str(d) for d in diags)
        else:
            state = game.new_initial_state(game.min_players, cases)
            agent = RandomAgent(cases)
            for _ in range(60):
                if state.is_terminal():
                    break
                state.apply_action(agent.step(state))
            state.clone().serialize()
            played += 1
        slowest = max(slowest, time.process_time() - start)
        shutil.rmtree(dest)
        cases += 1
    _READ.clear()
    print(f"\nfuzz definitions: {cases} cases, {problems} reported problems, {played} played, "
          f"slowest {slowest:.2f} s CPU, 0 tracebacks")
    assert cases >= 50 and problems > 0 and played > 0, (cases, problems, played)
    assert slowest < 5.0, slowest


def test_random_effects_never_escape():
    from interpreter.load.build import load_game
    g = load_game(SOURCES[0])
    rnd = random.Random(7)
    errors = ran = 0
    deadline = time.monotonic() + 15
    n = 0
    while time.monotonic() < deadline and n < 3000:
        text = "".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 25)))
        out = run_one(g, {"name": f"fuzz{n}", "rule": "fuzz", "players": 1, "start": text}, "fuzz")
        if out.failures and out.failures[0].startswith("given:"):
            errors += 1          # refused when compiled: a clear message
        else:
            ran += 1             # ran to a decision, to the end, or to a clean abort
        n += 1
    print(f"\nfuzz effects: {n} texts, {errors} refused when compiled, {ran} ran, 0 tracebacks")
    assert n >= 300 and errors > 0 and ran > 0, (n, errors, ran)


def test_random_log_lines_always_read_back():
    """Random effects writing log lines to all kinds of `to`: whatever runs saves and reads
    back the same (before log() checked `to`, 111 of 3,000 such texts made states that
    deserialize refused)."""
    from interpreter.diagnostics import DefinitionError
    from interpreter.engine.game import deserialize
    from interpreter.load.build import load_game
    from interpreter.engine.scoring import finish
    from interpreter.engine.vm import FLOW_ENDED
    from interpreter.scenarios import setup_state
    to_words = ['log("x", to=', "[1]", "[0, 1]", "p", "0", "1", "5", "-1", "none", "true", '"a"', ")", "2", "{}",
                "players()"]
    words = WORDS + to_words * 3
    g = load_game(SOURCES[0])
    rnd = random.Random(11)
    ran = 0
    for n in range(3000):
        text = "".join(rnd.choice(words) for _ in range(rnd.randint(1, 12)))
        if rnd.random() < 0.5:
            text = 'log("x", to=' + "".join(rnd.choice(words) for _ in range(rnd.randint(1, 4))) + ")"
        try:
            state = setup_state(g, {"name": f"log{n}", "rule": "fuzz", "players": 2, "start": text})
        except (DefinitionError, ValueError):
            continue                     # refused when compiled (or by its scenario): a clear message
        if not state.is_terminal() and state.decision() is None:
            finish(g, state.d, FLOW_ENDED)   # the part ran out: end the game as a whole flow would
        saved = state.clone().serialize()
        assert deserialize(g, saved).serialize() == saved, text
        ran += 1
    assert ran > 100, ran
