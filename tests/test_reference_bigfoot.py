"""Cairn's Big Foot against the hand-written one (tools/reference/big_foot.py): with the same
seed and the same option indices, both ask the same player the same options at every
decision and end the same way (scores, winners, number of decisions). The hand-written game
draws from the engine's RNG in the order the encoded one does, so any difference in the
rules, in the order of the options or in the order of the random draws shows here."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from reference import big_foot as ref  # noqa: E402

GAMES = 25          # per player count
_GAME: list = []


def _game():
    if not _GAME:
        _GAME.append(load_game("big-foot"))
    return _GAME[0]


def _mine(option):
    """The hand-written game's value for one of the engine's options."""
    if type(option) is list:
        return tuple(ref.SPOT_IDS.index(s) for s in option)
    if option == "no":
        return ref.NO
    if option in ref.TOKEN_IDS:
        return ref.TOKEN_IDS.index(option)
    return ref.SPOT_IDS.index(option)


def play_both(n: int, seed: int, choices: random.Random) -> tuple[object, ref.BigFoot]:
    """Plays one seeded game in both, the same random option index at each decision."""
    state, mine = _game().new_initial_state(n, seed=seed, log=False), ref.BigFoot(n, seed)
    step = 0
    while not state.is_terminal():
        assert not mine.done, f"seed {seed}: the hand-written game ended before decision {step}"
        pending = state.d["pending"]
        assert pending["player"] == mine.player, f"seed {seed}, decision {step}: another player decides"
        assert [_mine(o) for o in pending["options"]] == mine.legal(), \
            f"seed {seed}, decision {step}: other options ({state.decision()['prompt']})"
        i = choices.randrange(len(mine.legal()))
        state.apply_action(i)
        mine.play(i)
        step += 1
    assert mine.done, f"seed {seed}: the hand-written game goes on after {step} decisions"
    return state, mine


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_choices_same_game(players):
    choices = random.Random(100 + players)
    for seed in range(GAMES):
        state, mine = play_both(players, seed, choices)
        result = state.d["result"]
        assert result["scores"] == mine.scores, f"seed {seed}"
        assert result["winners"] == mine.winners, f"seed {seed}"
        assert len(state.d["actions"]) == mine.decisions, f"seed {seed}"


@pytest.mark.parametrize("players,seed", [(2, 917), (3, 1045), (4, 798)])
def test_a_stalemate_ends_both_alike(players, seed):
    """The rare end (reading end-stalemate: no token can move for any roll), found by
    playing the hand-written game with choices from random.Random(seed)."""
    state, mine = play_both(players, seed, random.Random(seed))
    assert mine.reason == "stalemate" and state.d["result"]["reason"].startswith("stalemate")
    assert state.d["result"]["winners"] == mine.winners and len(mine.winners) == 2


MUTATIONS = {
    "a safety station fewer for Run for shelter": ("SAFE_SPOTS", lambda v: v[:-1]),
    "the Ranger Hut's paths in another order": ("ADJ", lambda v: [x[::-1] if i == ref.SPOT_IDS.index("fork") else x
                                                               for i, x in enumerate(v)]),
    "PROTECTION and Big Foot roams swapped in the unshuffled deck": ("DECK", lambda v: [
        {ref.PROT: ref.ROAM, ref.ROAM: ref.PROT}.get(c, c) for c in v]),
}


@pytest.mark.parametrize("what", list(MUTATIONS))
def test_a_change_of_one_rule_shows(what, monkeypatch):
    """The comparison can fail: the hand-written game with one detail changed parts from
    Cairn's within a few games."""
    name, change = MUTATIONS[what]
    monkeypatch.setattr(ref, name, change(getattr(ref, name)))
    monkeypatch.setattr(ref, "_WALKS", {})
    choices = random.Random(1)
    with pytest.raises(AssertionError):
        for seed in range(GAMES):
            play_both(3, seed, choices)
