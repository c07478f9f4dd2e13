"""A runner finds who answers an event itself (lang/runner.py _emit) and goes on when no one
does; a trigger's condition is evaluated in the running context (engine/abilities.py fired);
a repeated part's counters are written inline (load/structure.py _raw). Each must play the
games played without it, saved state for saved state at every decision, count the same
steps (a step budget stops at the same place) and name the same problem and line."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from interpreter.engine import abilities, vm
from interpreter.lang import runner
from interpreter.load.build import build

ROOT = Path(__file__).resolve().parents[1]
PLAIN = ROOT / "tests" / "fixtures" / "games" / "pig-plain"


def _builds(monkeypatch: pytest.MonkeyPatch, folder: Path):
    """The game as built, and as built with the three paths off: the VM finds the answers
    (runners stop at every event), conditions get a context of their own, counters are
    computed by their functions."""
    fast = build(folder, [])[0]
    with monkeypatch.context() as m:
        m.setattr(runner, "RUNNER_EVENTS", False)
        m.setattr(runner, "RAW_INLINE", False)
        slow = build(folder, [])[0]
    return fast, slow


def _own_context(g, d, event, fields, c=None):
    return abilities.fired(g, d, event, fields)


def _states(g, players: int, seed: int, own_context: bool, monkeypatch: pytest.MonkeyPatch,
            actions: list[int] | None = None) -> list[str]:
    """Every saved state of a random game (or one of the given actions), to its end."""
    with monkeypatch.context() as m:
        if own_context:
            m.setattr(vm, "fired", _own_context)
        pick = random.Random(seed)
        s = g.new_initial_state(players, seed)
        out = [s.serialize()]
        for a in actions or iter(int, 1):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[a % len(legal)] if actions else pick.choice(legal))
            out.append(s.serialize())
        return out


@pytest.mark.parametrize("folder,players", [(PLAIN, 2), (ROOT / "definitions" / "stonefire", 4),
                                            (ROOT / "definitions" / "big-foot", 3)])
def test_events_answered_by_runners_play_the_same_games(monkeypatch, folder, players):
    fast, slow = _builds(monkeypatch, folder)
    for seed in range(1, 4):
        a = _states(fast, players, seed, False, monkeypatch)
        b = _states(slow, players, seed, True, monkeypatch)
        assert len(a) > 5 and a == b


def test_a_step_budget_stops_at_the_same_place(monkeypatch):
    fast, slow = _builds(monkeypatch, PLAIN)
    holds = [1, 0, 1, 1, 0, 1] * 40        # rolls and holds: events answered by no one
    stopped = set()
    for budget in range(2, 40):
        fast.step_budget = slow.step_budget = budget
        a = _states(fast, 2, 3, False, monkeypatch, holds)
        b = _states(slow, 2, 3, True, monkeypatch, holds)
        assert a == b, budget
        stopped.add(len(a))
    assert len(stopped) > 2                 # the budgets stop the game at several places


@pytest.mark.parametrize("edit,message", [
    (("if: p.score >= params.target", "if: p.score >= [1][5]"), "no item [5]"),        # a condition
    (('emit("banked", p=p)', 'emit("banked", p=p, x=[1][5])'), "no item [5]"),          # the fields
    (("if: p.score >= params.target", 'if: p.score >= "a"'), "game.yaml:"),            # any failure
])
def test_a_failing_event_names_the_same_line(monkeypatch, tmp_path, edit, message):
    folder = _edited(tmp_path, edit)
    fast, slow = _builds(monkeypatch, folder)
    a = _states(fast, 2, 1, False, monkeypatch, [1] * 10)
    b = _states(slow, 2, 1, True, monkeypatch, [1] * 10)
    assert a == b and message in a[-1] and '"aborted"' in a[-1]


def _edited(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "pig"
    shutil.copytree(PLAIN, folder)
    game = folder / "game.yaml"
    text = game.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    game.write_text(text)
    return folder


def test_the_emitter_reads_its_own_locals_after_a_condition(monkeypatch, tmp_path):
    # after the trigger's condition (evaluated with the event's locals), the rule that emitted
    # reads a local of its own, not a field of the event
    folder = _edited(tmp_path, ('emit("banked", p=p)', 'let held = p.score\n        emit("banked", p=p)\n'
                                '        log("held {held}")\n        log("still {held}")'))
    fast, slow = _builds(monkeypatch, folder)
    for seed in range(1, 3):
        a = _states(fast, 2, seed, False, monkeypatch)
        b = _states(slow, 2, seed, True, monkeypatch)
        assert a == b and '"aborted"' not in a[-1] and "held " in a[-1]


def test_a_condition_has_a_work_budget_of_its_own(monkeypatch, tmp_path):
    # the run's budget is small; the condition's own (a context of its own: a million) is not
    folder = _edited(tmp_path, ("if: p.score >= params.target", "if: len(range(300)) > 0 and p.score >= params.target"))
    fast, slow = _builds(monkeypatch, folder)
    fast.work_budget = slow.work_budget = 200
    a = _states(fast, 2, 1, False, monkeypatch)
    b = _states(slow, 2, 1, True, monkeypatch)
    assert a == b and '"aborted"' not in a[-1] and len(a) > 5
