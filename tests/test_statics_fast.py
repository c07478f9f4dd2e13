"""The fast paths of engine/abilities.py give the answers of the slow ones along random
games: a quantity's static abilities looked up flat (`Filed.flat`: each carrier asked
where it is) against group by group through the zones' contents, and a window's activated
abilities by its plan (`window_plan`) against ability by ability (`_carried`), with the
same use counts left in the state."""
from __future__ import annotations

import json
import random

import pytest

from interpreter.engine import abilities
from interpreter.load.build import load_game


def _along_random_games(g, games: int, players: int = 2):
    """The states at every decision of some random games."""
    rnd = random.Random(5)
    for seed in range(games):
        state = g.new_initial_state(players, seed, log=False)
        while not state.is_terminal():
            yield state.d
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])


def _args(filed: abilities.Filed, rnd: random.Random) -> dict:
    """Arguments naming, at random, an object some of the quantity's abilities are filed under."""
    return {name: rnd.choice(sorted(by)) for name, by in filed.by.items()}


@pytest.mark.parametrize("game, games", [("stonefire", 4), ("fantastic-trails", 6)])
def test_flat_statics_answer_as_the_groups_do(game, games):
    g = load_game(game)
    rnd = random.Random(1)
    flat_seen = kept = dropped = 0
    for d in _along_random_games(g, games):
        for filed in g.abilities.statics.values():
            args = _args(filed, rnd)
            fast = filed.candidates(d, g, args)
            flat = filed.flat(g, d["n"])
            saved, filed._flat = filed._flat, {d["n"]: None}       # forced off: group by group
            try:
                slow = filed.candidates(d, g, args)
            finally:
                filed._flat = saved
            assert fast == slow
            if flat:
                flat_seen += 1
                zoned = {(ab.key, o) for ab, o, places in flat if places is not None}
                found = {(ab.key, o) for ab, o in fast}
                kept += len(zoned & found)
                dropped += len(zoned - found)
    assert flat_seen > 100
    assert kept > 20 and dropped > 20      # carriers both where they count and elsewhere


def test_flat_only_for_few_carriers_off_the_board():
    footprints = load_game("footprints")
    statics = footprints.abilities.statics
    assert statics["completable"].flat(footprints, 2) is None      # 28 cards on the boards
    assert statics["cave_points"].flat(footprints, 2) is None      # ten that count anywhere
    stonefire = load_game("stonefire")
    plan = stonefire.abilities.statics["extra_colour_cards"].flat(stonefire, 2)
    assert [(ab.key, o, sorted(p)) for ab, o, p in plan] == [
        ("goat#0", "goat.1", ["party/0", "party/1"]), ("goat#0", "goat.2", ["party/0", "party/1"]),
        ("thick#0", "thick", ["gained/0", "gained/1"])]          # definition order, each player's places


def test_window_plan_answers_as_each_ability_does(monkeypatch):
    g = load_game("stonefire")
    seen = 0
    for d in _along_random_games(g, 5):
        for window in g.abilities.activated:
            for p in range(d["n"]):
                before = json.dumps(d, sort_keys=False)
                fast_d, slow_d = json.loads(before), json.loads(before)
                fast = abilities.usable(g, fast_d, window, p)
                with monkeypatch.context() as m:
                    m.setattr(abilities, "window_plan", lambda *a: None)    # ability by ability
                    slow = abilities.usable(g, slow_d, window, p)
                assert fast == slow
                assert json.dumps(fast_d) == json.dumps(slow_d)           # the same use counts made
                seen += bool(fast)
    assert seen > 50


def test_window_plan_only_where_every_ability_counts_in_players_zones():
    g = load_game("stonefire")
    plan = abilities.window_plan(g, g.abilities, "free-actions", 2, 1)
    assert plan and all(mine == {"clan/1"} for _ab, _o, mine, _k in plan)
    assert {k for _ab, _o, _m, k in plan} == {"clan-power@1"}       # a group limit: per seat
    big_foot = load_game("big-foot")
    assert abilities.window_plan(big_foot, big_foot.abilities, "free-actions", 2, 1) == []


def test_a_quantity_no_modifier_names_is_its_formula(monkeypatch):
    """Big Foot's snowshoes (variant deep-snow) modify a quantity no static ability names
    (move_count, read every turn): along random games, skipping the modifiers when none in force names the quantity
    leaves every state as looking through them does."""
    g = load_game("big-foot", ["deep-snow"])
    asked = {True: 0, False: 0}
    names = abilities._names

    def counted(mods, name):
        asked[names(mods, name)] += 1
        return names(mods, name)

    def states():
        return [json.dumps(d) for d in _along_random_games(g, 8)]

    monkeypatch.setattr(abilities, "_names", counted)
    fast = states()
    monkeypatch.setattr(abilities, "_names", lambda mods, name: True)     # every modifier matched
    assert fast == states()
    assert asked[True] > 20 and asked[False] > 8     # modifiers naming it, and others
