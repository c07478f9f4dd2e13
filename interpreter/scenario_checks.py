"""The facts a scenario's `then:` can state, one small function each (a table of key ->
check, as jsonschema's keywords are): each returns what is wrong, an empty list when the
fact holds.

A check that cannot see what it is about fails rather than passes: `illegal: x` with no
decision pending proves nothing about x, so it says so. docs/FORMAT.md lists every key
of this table (tests/test_scenario_checks.py holds them to each other and to the schema).
"""
from __future__ import annotations

from typing import Any, Callable

from .engine.game import GameState


def _labels(state: GameState) -> list[str] | None:
    dec = state.decision()
    return dec["labels"] if dec else None


def _options(state: GameState, check: dict) -> list[str]:
    got, want = _labels(state), [str(x) for x in check["options"]]
    return [] if got == want else [f"options: expected {check['options']}, got {got}"]


def _options_set(state: GameState, check: dict) -> list[str]:
    """The options in any order: for rules that do not fix the order they are offered in."""
    got, want = _labels(state), [str(x) for x in check["options_set"]]
    if len(set(want)) != len(want):
        return [f"options_set: {check['options_set']} names an option twice"]
    if got is None:
        return [f"options_set: expected {sorted(want)}, but no decision is pending"]
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    if not missing and not extra and len(got) == len(want):
        return []
    return [f"options_set: expected {sorted(want)}, got {sorted(got)}"
            + (f"; missing {missing}" if missing else "") + (f"; not expected {extra}" if extra else "")
            + ("; an option is offered twice" if len(set(got)) != len(got) else "")]


def _illegal(state: GameState, check: dict) -> list[str]:
    dec = state.decision()
    if dec is None:
        return [f"illegal: {check['illegal']!r} cannot be checked: no decision is pending"]
    if check["illegal"] in dec["labels"]:
        return [f"{check['illegal']!r} should be illegal, but is an option of '{dec['prompt']}'"]
    return []


def _prompt(state: GameState, check: dict) -> list[str]:
    dec = state.decision()
    if dec is None or check["prompt"] not in dec["prompt"]:
        return [f"prompt: expected to contain {check['prompt']!r}, got {dec and dec['prompt']!r}"]
    return []


def _decides(state: GameState, check: dict) -> list[str]:
    dec = state.decision()
    if dec is None or dec["player"] != check["decides"]:
        return [f"decides: expected player {check['decides']}, got {dec and dec['player']}"]
    return []


def _terminal(state: GameState, check: dict) -> list[str]:
    got = state.d["terminal"]
    return [] if got == check["terminal"] else [f"terminal: expected {check['terminal']}, got {got}"]


def _part_ended(state: GameState, check: dict) -> list[str]:
    """The part (or program) `start` ran is over: nothing pending, nothing left to run.
    Its end is not the game's (that is `terminal`), unless the rules ended the game."""
    got = not state.d["frames"] and state.d["pending"] is None
    if got == check["part_ended"]:
        return []
    dec = state.decision()
    return [f"part_ended: expected {check['part_ended']}, got {got}" + (f" ({dec['prompt']!r} is pending)" if dec else "")]


def _winners(state: GameState, check: dict) -> list[str]:
    got = state.d["result"]["winners"] if state.d["result"] else None
    return [] if got == check["winners"] else [f"winners: expected {check['winners']}, got {got}"]


def _views(state: GameState, check: dict) -> tuple[str, str]:
    seat = check.get("seat")
    return state.observation_string(seat), state.information_state_string(seat)


def _sees(state: GameState, check: dict) -> list[str]:
    if any(check["sees"] in v for v in _views(state, check)):
        return []
    return [f"seat {check.get('seat')} should see {check['sees']!r}, but does not"]


def _hides(state: GameState, check: dict) -> list[str]:
    if any(check["hides"] in v for v in _views(state, check)):
        return [f"seat {check.get('seat')} should not see {check['hides']!r}, but does"]
    return []


def _log(state: GameState, check: dict) -> list[str]:
    if any(check["log"] in line for line, _ in state.d["log"]):
        return []
    return [f"log: no line contains {check['log']!r}"]


def _no_log(state: GameState, check: dict) -> list[str]:
    """A log line that must not be there: what did not happen is a fact too."""
    found = [line for line, _ in state.d["log"] if check["no_log"] in line]
    return [f"no_log: a line contains {check['no_log']!r}: {found[0]!r}"] if found else []


CHECKS: dict[str, Callable[[GameState, dict], list[str]]] = {
    "options": _options, "options_set": _options_set, "illegal": _illegal, "prompt": _prompt,
    "decides": _decides, "terminal": _terminal, "part_ended": _part_ended, "winners": _winners, "sees": _sees, "hides": _hides,
    "log": _log, "no_log": _no_log}
MODIFIERS = ("seat",)          # keys that qualify a check (whose view `sees`/`hides` read)


def check_facts(state: GameState, check: dict[str, Any]) -> list[str]:
    """Returns the failures of one `then:` mapping, its checks in the table's order."""
    out: list[str] = []
    for key, fn in CHECKS.items():
        if key in check:
            out.extend(fn(state, check))
    return out
