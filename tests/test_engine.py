"""Engine behaviour on a tiny fixture game: limits, triggers, overlays, views, RNG."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.agents import make_agents
from interpreter.engine import rng
from interpreter.engine.game import TERMINAL
from interpreter.load.build import load_game
from interpreter.records import play

MINI = Path(__file__).parent / "fixtures" / "mini"


@pytest.fixture(scope="module")
def mini():
    return load_game(MINI)


def test_endless_loop_is_a_clean_abort():
    g = load_game(MINI, ["loop"])
    s = g.new_initial_state(2, 1)
    assert s.is_terminal()
    r = s.d["result"]
    assert r["reason"] == "aborted"
    assert "step budget" in r["aborted"]
    # The abort names the rule that ran away: the `while` line of procedure spin.
    assert r["aborted"].startswith("tests/fixtures/mini/game.yaml:") or "game.yaml:" in r["aborted"]
    assert s.current_player() == TERMINAL and s.legal_actions() == []


def test_endless_recursion_is_a_clean_abort():
    s = load_game(MINI, ["deep"]).new_initial_state(1, 1)
    assert s.d["result"]["reason"] == "aborted"
    assert "nested calls" in s.d["result"]["aborted"]


def test_self_triggering_event_hits_the_trigger_depth_limit():
    g = load_game(MINI, ["echo"])
    s = g.new_initial_state(1, 3)
    s.apply_action(0)
    assert s.is_terminal()
    assert "trigger depth" in s.d["result"]["aborted"]


def test_trigger_runs_with_its_condition(mini):
    s = mini.new_initial_state(1, 5)
    labels = s.decision()["labels"]
    # play the highest card: a 3 is marked by the trigger, lower cards are not
    values = [mini.props[o]["value"] for o in s.decision()["options"]]
    best = values.index(max(values))
    card = s.decision()["options"][best]
    s.apply_action(best)
    marked = s.d["attrs"].get(card, {}).get("marked", False)
    assert marked == (max(values) >= 3), (labels, values)


def test_overlay_replace_add_remove():
    g = load_game(MINI, ["big"])
    assert g.manifest() == {"card": 7}
    assert g.props["three.1"]["value"] == 5 and g.props["six"]["value"] == 6
    assert "played" not in g.abilities.listeners
    base = load_game(MINI)
    assert base.manifest() == {"card": 6} and "played" in base.abilities.listeners


def test_owner_zones_private_vars_and_private_log_are_hidden(mini):
    s = mini.new_initial_state(2, 9)
    me = s.current_player()
    other = 1 - me
    obs_me, obs_other = s.observation(me), s.observation(other)
    assert isinstance(obs_me["places"][f"hand/{me}"], list)
    # two dealt, one drawn at the start of the turn; the deck keeps 6 - 2*2 - 1
    assert obs_other["places"][f"hand/{me}"] == {"count": 3}
    assert obs_other["places"]["deck"] == {"count": 1}
    assert "secret" in obs_me["player_vars"][me] and "secret" not in obs_other["player_vars"][me]
    s.apply_action(0)
    assert any("you played" in line for line in s.observation(me)["log"])
    assert not any("you played" in line for line in s.observation(other)["log"])


def test_tiebreak_decides_then_shared_win(mini):
    s = play(mini, 2, 4, make_agents(["first"], 2, 4))
    r = s.d["result"]
    keys = [(r["scores"][p], *r["tiebreaks"][p]) for p in range(2)]
    best = max(keys)
    assert r["winners"] == [p for p in range(2) if keys[p] == best]
    assert s.returns() == [1.0 if p in r["winners"] else 0.0 for p in range(2)]


def test_illegal_action_is_refused(mini):
    s = mini.new_initial_state(1, 2)
    with pytest.raises(ValueError):
        s.apply_action(5)
    with pytest.raises(ValueError):
        s.apply_action(-1)


def test_rng_is_stable_and_seed_sensitive():
    d1, d2, d3 = {"rng": rng.seed_state(1)}, {"rng": rng.seed_state(1)}, {"rng": rng.seed_state(2)}
    a = [rng.below(d1, 6) for _ in range(50)]
    assert a == [rng.below(d2, 6) for _ in range(50)]
    assert a != [rng.below(d3, 6) for _ in range(50)]
    assert set(a) == set(range(6))
    # SplitMix64's published first output for state 0 (known answer from its reference code).
    assert rng.next_u64(0)[1] == 0xE220A8397B1DCDAF
    items = list(range(10))
    rng.shuffle(d1, items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


def test_a_draw_takes_splitmix64_outputs_in_turn_rejecting_the_biased_ones():
    # below() takes next_u64's outputs in turn, rejecting those past the last whole range
    def reference(d, n):
        limit = ((1 << 64) // n) * n
        while True:
            d["rng"], v = rng.next_u64(d["rng"])
            if v < limit:
                return v % n
    for n in (1, 2, 6, 7, 1000, 3 << 62):        # the last rejects a quarter of outputs
        fast, slow = {"rng": rng.seed_state(n)}, {"rng": rng.seed_state(n)}
        assert [rng.below(fast, n) for _ in range(200)] == [reference(slow, n) for _ in range(200)]
        assert fast == slow


def test_derived_seeds_do_not_depend_on_batching():
    assert [rng.derive(7, i) for i in range(5)] == [rng.derive(7, i) for i in range(5)]
    assert len({rng.derive(7, i) for i in range(1000)}) == 1000


def test_win_if_can_leave_no_winner():
    g = load_game(MINI, ["target"])
    s = play(g, 1, 3, make_agents(["first"], 1, 3))
    assert s.d["result"]["winners"] == [] and s.returns() == [0.0]
    assert "nobody wins" in s.d["log"][-1][0]


def test_readable_view_groups_hides_and_draws(big_foot):
    from interpreter.engine.view import render
    s = big_foot.new_initial_state(2, 1)
    text = render(big_foot, s.d, 0)
    assert "reserve of Player 1: red token 1 (Player 1)" in text
    assert "deck: 24 hidden" in text
    assert "Big Foot Home: Big Foot" in text


def test_hex_map_is_drawn_from_positions(big_foot):
    from interpreter.engine.view import hex_map
    from interpreter.lang.runtime import Ctx
    s = big_foot.new_initial_state(2, 1)
    d = s.d
    d["pos"] = {"a1": [0, 0], "a2": [1, 0], "a3": [0, 1]}
    lines = hex_map(Ctx(d, big_foot, {}))
    # a row per r, cells two characters apart, the next row shifted by one
    assert lines[1:] == ["  b b", "   b"]


def test_deeply_nested_effect_is_an_error_not_a_crash():
    from interpreter.lang.compiler import Compiler, Env
    comp = Compiler(Env())
    assert comp.program("t", "let x = " + "+".join(["1"] * 4000)) is None
    assert "nests" in comp.errors[0].message and "limit" in comp.errors[0].message
    comp = Compiler(Env())
    assert comp.program("t", "let x = " + "+".join(["1"] * 50)) is not None


def test_zone_show_function_draws_each_object(mini):
    s = mini.new_initial_state(1, 5)
    s.apply_action(0)
    played = s.d["places"]["discard"][-1]
    text = s.observation_string(0)
    assert f"[{mini.props[played]['value']}] {mini.props[played]['name']}" in text


# ---- the log's `to` and the state's limits: what the engine writes reads back ---------

def _to_values(n: int) -> list:
    """Every kind of value a rule could pass as `to`: seats, near-seats, and other kinds,
    plus seeded random ones (a property over many values, the same every run)."""
    rnd = random.Random(2026_12_04)
    fixed = [None, 0, 1, n - 1, n, n + 1, -1, True, False, [1], [0, 1], [], "1", "", 1.0, 0.0, {"p": 1},
             {}, 2 ** 70, -(2 ** 70), [[1]], [None]]
    atoms = [None, True, 0, 1, 2, -3, 10 ** 12, "a", 0.5, [], {}]
    made = []
    for _ in range(80):
        x = rnd.choice(atoms)
        for _ in range(rnd.randrange(3)):
            x = rnd.choice([[x], {"k": x}, [x, rnd.choice(atoms)]])
        made.append(x)
    return fixed + made + list(range(-3, n + 3))


def test_log_to_accepts_exactly_what_a_saved_state_may_hold(mini):
    """For each value X, log(..., to=X) accepts it exactly when a saved state holding a
    line to X reads back: what the verb accepts round-trips through serialize and
    deserialize; what it refuses is an effect error, leaves the log as it was, and a
    state holding it (written by hand) is refused too."""
    import json
    from interpreter.engine.game import deserialize
    from interpreter.lang.runtime import Ctx, RuntimeProblem
    from interpreter.verbs.core import log
    state = mini.new_initial_state(2, 1)
    accepted = refused = 0
    for to in _to_values(2):
        s = state.clone()
        before = len(s.d["log"])
        try:
            log(Ctx(s.d, mini, {}), "a line", to)
            verb_ok = True
        except RuntimeProblem as err:
            assert "log(): 'to' must be a seat from 0 to 1 or none" in str(err)
            assert len(s.d["log"]) == before
            verb_ok = False
        data = json.loads(state.serialize())
        data["state"]["log"].append(["a line", to])
        try:
            read_ok = deserialize(mini, json.dumps(data)) is not None
        except ValueError as err:
            assert "the log is malformed" in str(err)
            read_ok = False
        assert verb_ok == read_ok, to
        if verb_ok:
            saved = s.serialize()
            assert deserialize(mini, saved).serialize() == saved, to
            assert s.d["log"][before:] == [["a line", to]]
        accepted += verb_ok
        refused += not verb_ok
    assert accepted >= 3 and refused >= 60                 # both sides of the line are probed


def test_a_saved_log_line_to_no_seat_is_refused_as_the_verb_refuses_it(mini):
    import json
    from interpreter.engine.game import deserialize
    data = json.loads(mini.new_initial_state(2, 1).serialize())
    for to in (2, -1, [1], "1", True):
        data["state"]["log"].append(["x", to])
        with pytest.raises(ValueError, match="the log is malformed"):
            deserialize(mini, json.dumps(data))
        data["state"]["log"].pop()
    assert deserialize(mini, json.dumps(data))              # the control: the rest is sound


def test_log_to_a_list_is_refused_when_the_game_is_checked(tmp_path):
    import shutil
    from interpreter.load.build import build
    dest = tmp_path / "g"
    shutil.copytree(MINI, dest)
    path = dest / "game.yaml"
    text = path.read_text("utf-8")
    path.write_text(text.replace('log("you played {c}", to=p)', 'log("you played {c}", to=[p])'), "utf-8")
    game, diags = build(dest, [])
    assert game is None and any("log() argument 'to' expects a seat number, got a list" in str(d) for d in diags)
    path.write_text(text.replace('log("you played {c}", to=p)', 'log("you played {c}", to=p + 5)'), "utf-8")
    game, diags = build(dest, [])
    state = game.new_initial_state(2, 1)
    while not state.is_terminal():
        state.apply_action(0)
    assert state.d["result"]["reason"] == "aborted" and "log(): 'to' must be a seat" in state.d["result"]["aborted"]


def test_a_log_at_its_limit_reads_back_and_the_line_past_it_is_refused_when_written(mini):
    """The rules write at most MAX_LOG_LINES - 1 lines and the engine its last one: a log
    of exactly MAX_LOG_LINES lines saves and reads back; one more is refused by the verb
    (the game ends aborted, saying why), and a saved state holding more is refused."""
    import json
    from interpreter.engine import checkstate
    from interpreter.lang import values
    from interpreter.engine.game import deserialize
    from interpreter.engine.scoring import abort
    from interpreter.lang.runtime import Ctx, RuntimeProblem
    from interpreter.verbs import core
    assert core.MAX_LOG_LINES is values.MAX_LOG_LINES is checkstate.MAX_LOG_LINES
    assert f"at most {values.MAX_LOG_LINES:,} lines" in " ".join(core.log.__doc__.split())   # docs/VERBS.md says it
    state = mini.new_initial_state(2, 1)
    c = Ctx(state.d, mini, {})
    while len(state.d["log"]) < values.MAX_LOG_LINES - 1:
        core.log(c, "line", None)
    with pytest.raises(RuntimeProblem, match="the game log is full"):
        core.log(c, "one too many", 0)
    abort(mini, state.d, "the log is full")
    assert len(state.d["log"]) == values.MAX_LOG_LINES
    saved = state.serialize()
    assert deserialize(mini, saved).serialize() == saved
    data = json.loads(saved)
    data["state"]["log"].append(["one past", None])
    with pytest.raises(ValueError, match=f"a log of {values.MAX_LOG_LINES + 1} lines"):
        deserialize(mini, json.dumps(data))


def test_a_game_ends_at_the_action_limit_and_reads_back(monkeypatch):
    """vm.resume ends a game at MAX_ACTIONS decisions, the number a saved state may hold
    (one constant, made small here for the test: both ends see the change)."""
    import json
    from interpreter.engine import checkstate, vm
    from interpreter.lang import values
    from interpreter.engine.game import deserialize
    assert vm.MAX_ACTIONS is values.MAX_ACTIONS is checkstate.MAX_ACTIONS
    monkeypatch.setattr(vm, "MAX_ACTIONS", 3)
    monkeypatch.setattr(checkstate, "MAX_ACTIONS", 3)
    g = load_game(MINI)
    state = g.new_initial_state(2, 1)
    while not state.is_terminal():
        state.apply_action(0)
    assert len(state.d["actions"]) == 3 and "did not end within 3 decisions" in state.d["result"]["aborted"]
    saved = state.serialize()
    assert deserialize(g, saved).serialize() == saved
    data = json.loads(saved)
    data["state"]["actions"].append(0)
    with pytest.raises(ValueError, match="4 actions"):
        deserialize(g, json.dumps(data))


def test_each_rule_value_is_measured_as_written_not_the_parts_summed(mini):
    """Two game variables of 60,000 items each are each sound when written (save_check),
    so the state holding both reads back; one of 100,001 items is refused at both ends."""
    import json
    from interpreter.engine.game import deserialize
    from interpreter.lang.runtime import Ctx, RuntimeProblem, save_check
    state = mini.new_initial_state(2, 1)
    c = Ctx(state.d, mini, {})
    for name in ("round", "loops"):
        value = list(range(60_000))
        save_check(c, value)
        state.d["gvars"][name] = value
    saved = state.serialize()
    assert deserialize(mini, saved).serialize() == saved
    big = list(range(100_001))
    with pytest.raises(RuntimeProblem, match="more than 100000 items"):
        save_check(c, [big])
    data = json.loads(saved)
    data["state"]["gvars"]["round"] = [big]
    with pytest.raises(ValueError, match="more than 100000 items"):
        deserialize(mini, json.dumps(data))


def test_modifiers_have_one_limit_where_written_and_read():
    """modify() keeps at most MAX_MODIFIERS modifiers, each measured as a saved value; a
    state at the limit reads back, one past it (or one holding a value nested too deep) is
    refused both when written and when read."""
    import json
    from interpreter.engine import checkstate
    from interpreter.lang import values
    from interpreter.engine.game import deserialize
    from interpreter.lang.runtime import Ctx, RuntimeProblem
    from interpreter.verbs import abilities
    assert abilities.MAX_MODIFIERS is values.MAX_MODIFIERS is checkstate.MAX_MODIFIERS
    g = load_game(Path(__file__).parent / "fixtures" / "relay")
    state = g.new_initial_state(2, 1)
    c = Ctx(state.d, g, {})
    deep: list = []
    for _ in range(values.MAX_VALUE_DEPTH + 1):
        deep = [deep]
    with pytest.raises(RuntimeProblem, match="nested more than"):
        abilities.modify(c, "hand_limit", deep, None, None, "game", [])
    for _ in range(values.MAX_MODIFIERS):
        abilities.modify(c, "hand_limit", 1, None, None, "game", [])
    with pytest.raises(RuntimeProblem, match="modifiers are in force already"):
        abilities.modify(c, "hand_limit", 1, None, None, "game", [])
    saved = state.serialize()
    assert deserialize(g, saved).serialize() == saved
    data = json.loads(saved)
    data["state"]["mods"].append(data["state"]["mods"][0])
    with pytest.raises(ValueError, match="malformed list of modifiers"):
        deserialize(g, json.dumps(data))
    data["state"]["mods"][-1] = {"q": "hand_limit", "until": "game", "args": [], "add": deep}
    data["state"]["mods"].pop(0)
    with pytest.raises(ValueError, match="nested more than"):
        deserialize(g, json.dumps(data))
    data["state"]["mods"][-1] = {"until": "game"}
    with pytest.raises(ValueError, match="malformed list of modifiers"):
        deserialize(g, json.dumps(data))


def test_scripted_chance_replays_a_seeded_game_draw_for_draw(monkeypatch):
    """The draws a seeded game made, given back as a script (explicit chance, as the
    OpenSpiel adapter does), make the same game; a script that runs out asks for the
    next draw (ChanceNeeded) instead of drawing on its own."""
    import random as _random
    from interpreter.engine import rng as engine_rng
    from interpreter.load.build import load_game as _load

    real = engine_rng.below
    draws: list[int] = []

    def recording(d, n):
        k = real(d, n)
        if d.get("chance") is None:
            draws.append(k)
        return k

    monkeypatch.setattr(engine_rng, "below", recording)
    g = _load("big-foot")
    seeded = g.new_initial_state(3, seed=11)
    per_step, pick = [list(draws)], _random.Random(5)
    while not seeded.is_terminal():
        draws.clear()
        seeded.apply_action(pick.choice(seeded.legal_actions()))
        per_step.append(list(draws))
    monkeypatch.setattr(engine_rng, "below", real)
    assert sum(len(x) for x in per_step) > 20                 # dice were rolled
    scripted = g.new_initial_state(3, chance=per_step[0])
    for action, script in zip(seeded.d["actions"], per_step[1:]):
        scripted.d["chance"] = list(script)
        scripted.apply_action(action)
        assert scripted.d["chance"] == []
    assert scripted.d["log"] == seeded.d["log"] and scripted.scores() == seeded.scores()
    with pytest.raises(engine_rng.ChanceNeeded) as need:
        g.new_initial_state(3, chance=per_step[0][:-1])
    assert need.value.n >= 2
