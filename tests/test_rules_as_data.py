"""The rules-as-data engine on a fixture game (tests/fixtures/relay): the declared turn
structure and its events, parameters, the four kinds of abilities, simultaneous steps,
and overlays that only add (set, insert, extend), with conflicts refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.diagnostics import DefinitionError
from interpreter.engine.game import deserialize
from interpreter.load.build import build, load_game
from interpreter.scenarios import run_one

RELAY = Path(__file__).parent / "fixtures" / "relay"


@pytest.fixture(scope="module")
def relay():
    return load_game(RELAY)


def scenario(g, **sc):
    sc.setdefault("name", "t")
    sc.setdefault("rule", "fixture")
    out = run_one(g, sc, "test")
    assert out.ok, out.failures


def test_parameters_and_start_values(relay):
    s = relay.new_initial_state(2, 1)
    assert s.d["pvars"][0]["score"] == 2          # {param: start_score}
    assert relay.params["bonus"]["by_players"]["2"] == 2


def test_structure_runs_rounds_turns_and_steps_in_order(relay):
    s = relay.new_initial_state(2, 3)
    seen = []
    while not s.is_terminal():
        dec = s.decision()
        seen.append((s.d["gvars"]["round"], dec["player"], dec["prompt"]))
        s.apply_action(0)
    plays = [x for x in seen if x[2] == "Play a card"]
    # 2 rounds x 2 players, seat 0 first; then everyone votes once
    assert [(r, p) for r, p, _ in plays] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert [p for _, p, pr in seen if pr.startswith("Vote")] == [0, 1]
    assert s.d["turns"] == 4


def test_triggered_ability_fires_on_engine_event_only_where_it_counts(relay):
    # Echo on the bench: +1 at the start of its owner's turn (the first decision is in that turn)
    scenario(relay, players=1, given={"places": {"bench/0": ["echo"]}},
             then=[{"prompt": "Play a card"}, "0.score == 3"])
    # in the hand it does nothing
    scenario(relay, players=1, given={"places": {"hand/0": ["echo"]}},
             then=[{"prompt": "Play a card"}, "0.score == 2"])
    # another seat's echo does not fire on this seat's turn
    scenario(relay, players=2, given={"places": {"bench/1": ["echo"]}},
             then=[{"decides": 0}, "0.score == 2", "1.score == 2"])


def test_static_modifier_changes_a_quantity(relay):
    scenario(relay, players=1, given={"places": {"bench/0": ["booster"]}},
             then=["hand_limit(0) == 3", "hand_limit(0) == params.hand_size + 1"])
    scenario(relay, players=1, given={"places": {"hand/0": ["booster"]}}, then=["hand_limit(0) == 2"])
    scenario(relay, players=2, given={"places": {"bench/1": ["booster"]}},
             then=["hand_limit(0) == 2", "hand_limit(1) == 3"])
    scenario(relay, players=1, given={"places": {"bench/0": ["doubler"]}},
             then=['worth(0, "plain.1") == 2'])


def test_replacement_runs_instead_of_the_procedure(relay):
    scenario(relay, players=1, given={"places": {"bench/0": ["shield"]}}, start="lose_point(0)",
             then=["0.score == 2", "0.lost == 0", {"log": "Shield keeps Player 1's point"}])
    scenario(relay, players=1, start="lose_point(0)", then=["0.score == 1", "0.lost == 1"])


def test_activated_ability_is_offered_in_its_window_once_a_turn(relay):
    from interpreter.scenarios import setup_state
    st = setup_state(relay, {"name": "w", "players": 1, "given": {"places": {"bench/0": ["spark"]}},
                             "start": 'window("act", 0)\nwindow("act", 0)'})
    assert st.decision()["labels"] == ["Zap: pay 1 point, gain 3", "Go on"]
    st.apply_action(0)
    assert st.d["pvars"][0]["score"] == 4          # 2 - 1 + 3
    # used once this turn: the second window offers nothing, so the program ends
    assert st.is_terminal()


def test_activated_ability_needs_its_cost_payable(relay):
    scenario(relay, players=1, given={"places": {"bench/0": ["spark"]}, "players": [{"score": 0}]},
             start='window("act", 0)', then=[{"part_ended": True, "terminal": False}, "0.score == 0"])


def test_window_step_offers_abilities_in_play(relay):
    # the act step opens the window of its name: the spark on the bench is offered there
    scenario(relay, players=1, given={"places": {"bench/0": ["spark"]}},
             then=[{"prompt": "act: use an ability?", "options": ["Zap: pay 1 point, gain 3", "Go on"]}])
    scenario(relay, players=1, given={"places": {"bench/0": ["spark"]}}, when=["Zap: pay 1 point, gain 3"],
             then=[{"prompt": "Play a card"}, "0.score == 4"])
    # a spark in the hand is not offered
    scenario(relay, players=1, given={"places": {"hand/0": ["spark"]}}, then=[{"prompt": "Play a card"}])


def test_simultaneous_step_collects_secret_choices_then_resolves(relay):
    g = relay
    s = g.new_initial_state(3, 9)
    while not s.decision()["prompt"].startswith("Vote"):
        s.apply_action(0)
    assert s.decision()["player"] == 0
    s.apply_action(2)                # seat 0 votes for seat 2
    # seat 1 decides next; seat 0's vote is nowhere in the state's visible parts
    assert s.decision()["player"] == 1
    assert s.d["gvars"]["votes"] == []
    s.apply_action(2)
    s.apply_action(0)
    assert s.is_terminal() and s.d["gvars"]["votes"] == [2, 2, 0]


def test_a_simultaneous_decision_may_not_change_the_game(tmp_path):
    folder = _copy(tmp_path)
    text = (folder / "game.yaml").read_text().replace(
        "let v = choose(players(), player=p", "p.score += 1\n      let v = choose(players(), player=p")
    (folder / "game.yaml").write_text(text)
    g = load_game(folder)
    s = g.new_initial_state(1, 1)
    while not s.is_terminal():
        s.apply_action(0)
    assert s.d["result"]["reason"] == "aborted"
    assert "deciding a simultaneous step in secret" in s.d["result"]["aborted"]


def test_state_saves_and_loads_inside_a_window_and_a_simultaneous_step(relay):
    s = relay.new_initial_state(2, 11)
    for _ in range(200):
        if s.is_terminal():
            break
        back = deserialize(relay, s.serialize())
        assert back.serialize() == s.serialize()
        c = s.clone()
        c.apply_action(0)
        s.apply_action(0)
        assert c.serialize() == s.serialize()


def test_overlay_sets_a_parameter_in_one_line():
    g = load_game(RELAY, ["bigger-hand"])
    scenario(g, players=1, then=["hand_limit(0) == 3"])


def test_overlay_parameter_keeps_its_type():
    game, diags = build(RELAY, ["bad-type"])
    assert game is None
    assert any("parameter 'hand_size' is a number, not a text" in d.message for d in diags), diags


def test_two_overlays_changing_one_thing_are_an_error_naming_both():
    game, diags = build(RELAY, ["bigger-hand", "other-hand"])
    assert game is None
    msg = [d.message for d in diags if "both change" in d.message]
    assert msg and "'bigger-hand'" in msg[0] and "'other-hand'" in msg[0] and "hand_size" in msg[0]


def test_overlay_inserts_a_step_and_extends_a_procedure():
    g = load_game(RELAY, ["bonus-step"])
    s = g.new_initial_state(2, 3)
    while not s.is_terminal():
        s.apply_action(0)
    base = load_game(RELAY).new_initial_state(2, 3)
    while not base.is_terminal():
        base.apply_action(0)
    # two turns each with a bonus of params.bonus (2 at two players)
    assert [x - y for x, y in zip(s.scores(), base.scores())] == [4, 4]
    assert any("now has" in line for line, _ in s.d["log"])


def test_insert_after_an_unknown_step_suggests_the_nearest(tmp_path):
    folder = _copy(tmp_path)
    (folder / "variants" / "x.yaml").write_text(
        "variant: {id: x, name: X, description: x}\ninsert:\n  - after: drawe\n    steps:\n      - {step: y, do: log(\"y\")}\n")
    with pytest.raises(DefinitionError) as err:
        load_game(folder, ["x"])
    assert "no step 'drawe' in the structure (did you mean 'draw'?)" in str(err.value)


def test_ability_errors_point_into_the_file(tmp_path):
    folder = _copy(tmp_path)
    cards = (folder / "cards.yaml").read_text()
    cards = cards.replace("{modifies: hand_limit, add: 1, if: p == me, while_in: [bench]}",
                          "{modifies: hand_limt, add: 1, if: p == me, while_in: [bnch]}")
    cards = cards.replace("{on: turn_start,", "{on: turn_strat,")
    (folder / "cards.yaml").write_text(cards)
    game, diags = build(folder, [])
    text = "\n".join(str(d) for d in diags)
    assert "modifies: no quantity 'hand_limt' (declare it under quantities) (did you mean 'hand_limit'?)" in text
    assert "while_in: no zone or space 'bnch' (did you mean 'bench'?)" in text
    assert "on 'turn_strat': no rule or part of the turn structure emits that event (did you mean 'turn_start'?)" in text
    assert all(":" in str(d).split(" ")[0] for d in diags)


def _copy(tmp_path: Path) -> Path:
    import shutil
    dest = tmp_path / "relay"
    shutil.copytree(RELAY, dest)
    return dest


def test_a_scenario_can_start_at_one_part_of_the_structure(relay):
    # one turn of seat 1: draw 2, the act window (nothing to offer), then play
    scenario(relay, players=2, start={"part": "turn", "player": 1},
             then=[{"decides": 1, "prompt": "Play a card"}, 'size(zone("hand", 1)) == 2', 'size(zone("hand", 0)) == 0'])
    scenario(relay, players=2, given={"places": {"bench/1": ["echo"]}}, start={"part": "turn", "player": 1},
             then=["1.score == 3"])
    scenario(relay, players=2, start={"part": "vote"}, when=[1, 1], then=[{"part_ended": True, "terminal": False}, "1.score == 4"])
    out = run_one(relay, {"name": "t", "rule": "x", "start": {"part": "trun", "player": 0}}, "test")
    assert out.failures == ["given: start: no part 'trun' in the turn structure (did you mean 'turn'?)"]


def test_groups_share_defaults_and_printed_objects_stay_out_of_the_box(tmp_path):
    folder = _copy(tmp_path)
    cards = (folder / "cards.yaml").read_text().replace(
        "cards:\n  - {id: plain, name: Plain, count: 4, start: deck, props: {value: 1}, provenance: {kind: reconstructed}}\n",
        "groups:\n  - defaults: {start: deck, props: {value: 1, colour: red}, provenance: {kind: reconstructed}}\n"
        "    entries:\n      - {id: plain, name: Plain, count: 4}\n"
        "      - {id: icon, name: Icon, printed: true, props: {colour: blue}}\n"
        "      - {id: bad, name: Bad, cuont: 2}\ncards:\n")
    (folder / "cards.yaml").write_text(cards)
    game, diags = build(folder, [])
    assert [str(d).split(": ", 1)[1] for d in diags] == \
        ["unknown key 'cuont' in groups/0/entries/2 (did you mean 'count'?)"]
    assert str(diags[0]).startswith(f"{folder}/cards.yaml:6:") or "cards.yaml:6:" in str(diags[0])
    (folder / "cards.yaml").write_text(cards.replace("      - {id: bad, name: Bad, cuont: 2}\n", ""))
    game, diags = build(folder, [])
    assert not diags and game.manifest() == {"card": 9}
    assert game.props["plain.1"]["colour"] == "red" and game.props["icon"]["colour"] == "blue"
    assert game.props["icon"]["value"] == 1


def test_an_expansion_kept_outside_the_game_folder(tmp_path, capsys):
    """A modder's folder holds only the overlay and its scenarios; the base is the shipped game."""
    from interpreter.cli.main import main
    exp = tmp_path / "my-expansion"
    exp.mkdir()
    (exp / "lucky.yaml").write_text(
        "variant: {id: lucky, name: Lucky, description: a card that scores at each turn's end}\n"
        "add:\n  cards:\n    - id: clover\n      name: Clover\n      start: deck\n      props: {value: 0}\n"
        "      text: At the end of your turn, gain 2 points.\n"
        "      abilities:\n        - {on: turn_end, if: p == me, while_in: [bench], do: me.score += 2}\n"
        "      provenance: {kind: reconstructed, note: tutorial example}\n"
        "replace:\n  box: {card: 10}\n")
    (exp / "scenarios.yaml").write_text(
        f"game: {RELAY}\nvariants: [lucky.yaml]\nscenarios:\n"
        "  - name: the clover scores at the end of its owner's turn\n    rule: Clover\n    players: 1\n"
        "    given: {places: {bench/0: [clover]}}\n    start: {part: turn, player: 0}\n"
        "    when: [0]\n    then: ['0.score == 3']\n")   # 2, +0 for the played card, -1 penalty, +2 clover
    overlay = str(exp / "lucky.yaml")
    assert main(["validate", str(RELAY), "--variant", overlay]) == 0
    assert main(["scenarios", str(exp / "scenarios.yaml")]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    assert main(["simulate", str(RELAY), "--variant", overlay, "--players", "2", "--games", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 20
    assert main(["diff", str(RELAY), "--variant", overlay]) == 1
    out = capsys.readouterr().out
    assert "+ clover" in out and "+ clover#0" in out


def test_a_rule_may_offer_abilities_in_its_own_decision(relay):
    # the rule builds one decision of its own options and the usable abilities of a window
    text = ('let opts = ["pass"] + usable_abilities("act", 0)\n'
            'let a = choose(opts, player=0, labels=[o == "pass" ? "pass" : ability_label(o) for o in opts], always=true)\n'
            'if a != "pass" {\n  use_ability(a, 0)\n}\n'
            'let left = len(usable_abilities("act", 0))')
    scenario(relay, players=1, given={"places": {"bench/0": ["spark"]}}, start=text,
             then=[{"options": ["pass", "Zap: pay 1 point, gain 3"]}])
    scenario(relay, players=1, given={"places": {"bench/0": ["spark"]}}, start=text + "\nlet c = choose([1, 2], player=0)",
             when=["Zap: pay 1 point, gain 3"],
             then=["0.score == 4", {"options": ["1", "2"]}])


def test_a_window_that_offers_nothing_is_not_opened(relay):
    # window("act", p) with no ability p may use there costs no call of the window's program
    # (engine:window); with one to offer, the window opens as before.
    from interpreter.scenarios import setup_state
    for places, opened in (({"hand/0": ["spark"]}, False), ({"bench/0": ["spark"]}, True)):
        relay.trace = set()
        try:
            setup_state(relay, {"name": "w", "players": 1, "given": {"places": places},
                                "start": 'window("act", 0)'})
            assert ("engine:window" in relay.trace) is opened
        finally:
            relay.trace = None
