"""Secrets stay secret: for every game, variant and player count, at decision points of a
random game, change what one seat may not know (the order and contents of hidden places
and of other seats' own places, other seats' private variables) and check that this
seat's views do not change at all; and no seat but the decider sees a decision's prompt
or options."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine.state import jcopy
from interpreter.engine.view import observe, render, visible
from interpreter.load.build import build, list_variants

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p for p in (ROOT / "definitions").iterdir() if (p / "game.yaml").is_file())
_CACHE: dict = {}


def _game(folder: Path, variants: tuple):
    if (folder, variants) not in _CACHE:
        game, diags = build(folder, list(variants))
        assert game is not None, diags
        _CACHE[(folder, variants)] = game
    return _CACHE[(folder, variants)]


def _cases():
    for folder in GAMES:
        for variant in [None, *sorted(list_variants(folder))]:
            variants = () if variant is None else (variant,)
            g = _game(folder, variants)
            for n in range(max(g.min_players, 2), g.max_players + 1):
                yield pytest.param(folder, variants, n, id=f"{folder.name}-{'+'.join(variants) or 'base'}-{n}p")


def _other(value, rnd):
    t = type(value)
    if t is bool:
        return not value
    if t is int:
        return value + rnd.randint(1, 5)
    if t is str:
        return value + "?"
    if t is list:
        return list(reversed(value)) + [0]
    if t is dict:
        return {**value, "?": 0}
    return 1 if value is None else None


def perturbed(g, d: dict, seat: int, rnd: random.Random) -> dict:
    """Returns a copy of a state changed only where `seat` may not look."""
    e = jcopy(d)
    hidden = [pl for pl in e["places"] if not visible(g, pl, seat)]
    for pl in hidden:
        rnd.shuffle(e["places"][pl])
    full = [pl for pl in hidden if e["places"][pl]]
    rnd.shuffle(full)
    for a, b in zip(full[::2], full[1::2]):
        x, y = e["places"][a].pop(), e["places"][b].pop()
        e["places"][a].append(y)
        e["places"][b].append(x)
        e["loc"][x], e["loc"][y] = b, a
    for p, pv in enumerate(e["pvars"]):
        if p != seat:
            for k in g.private_vars:
                pv[k] = _other(pv[k], rnd)
    return e


@pytest.mark.parametrize("folder,variants,players", list(_cases()))
def test_a_seat_sees_nothing_it_may_not_know(folder, variants, players):
    g = _game(folder, variants)
    state = g.new_initial_state(players, 21)
    agent = RandomAgent(21)
    rnd = random.Random(players)
    checked = 0
    for step in range(240):
        if state.is_terminal():
            break
        if step % 12 == 0:
            d = state.d
            dec = state.decision()
            for seat in range(players):
                e = perturbed(g, d, seat, rnd)
                assert observe(g, e, seat) == observe(g, d, seat), f"seat {seat} sees hidden data at step {step}"
                assert render(g, e, seat) == render(g, d, seat), f"seat {seat}'s screen shows hidden data at step {step}"
                if seat != dec["player"]:
                    seen = state.observation(seat)["decision"]
                    assert set(seen) == {"player", "step"}, seen
                    assert dec["prompt"] not in state.information_state_string(seat) or dec["prompt"] == "", \
                        f"seat {seat} reads the prompt of seat {dec['player']}: {dec['prompt']!r}"
            checked += 1
        state.apply_action(agent.step(state))
    assert checked > 0



def test_advanced_setup_hides_which_leader_was_picked():
    """Footprints' advanced setup: a player picks one of two leaders in secret and the other
    goes back to the box. Whichever leader seat 0 picks, once setup is done seat 1's views
    are the same (seeds where the leader is not among the 4 face-up panel cards)."""
    g = _game(ROOT / "definitions" / "footprints", ("advanced",))
    compared = 0
    for seed in range(5, 10):
        views, panels = [], []
        for pick in (0, 1):
            state = g.new_initial_state(2, seed)
            assert "secretly choose your leader" in state.decision()["prompt"]
            state.apply_action(state.legal_actions()[pick])
            while state.decision()["prompt"].startswith("Advanced setup"):
                state.apply_action(state.legal_actions()[0])
            panels.append(state.d["places"]["panel/0"])
            views.append((state.observation(1), state.information_state_string(1), render(g, state.d, 1)))
        if not any("leader" in c for c in panels[0] + panels[1]):
            assert views[0] == views[1], f"seed {seed}: seat 1 can tell which leader seat 0 kept"
            compared += 1
    assert compared >= 2
