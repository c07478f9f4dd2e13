"""The fixed cost of a decision and of a game (issue 26): what the turn structure, the VM
and the scoring do besides the rules' own code, cut without changing a game, its saved
states, its budgets or where a failing rule is named."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine import scoring
from interpreter.engine.game import deserialize
from interpreter.lang.compiler import EXPR
from interpreter.load.build import build, load_game
from interpreter.records import make_record, play

FIXTURES = Path(__file__).parent / "fixtures"


def _period_ends(g) -> list:
    """The functions the main program runs where a turn or a round ends."""
    return [ins[1] for ins in g.programs["main"].code
            if ins[0] == EXPR and getattr(ins[1], "__name__", "") in ("ends", "_nothing")]


def test_a_period_ends_as_no_code_where_nothing_can_lapse():
    plain = load_game(FIXTURES / "games" / "pig-plain")      # no quantity, no limited ability
    ends = _period_ends(plain)
    assert len(ends) == 3 and all(getattr(f, "src", None) == "None" for f in ends)
    relay = load_game(FIXTURES / "relay")                     # quantities: a modifier may lapse
    ends = _period_ends(relay)
    assert ends and all(f.__name__ == "ends" for f in ends)


def test_a_modifier_until_the_turn_still_lapses_at_its_end():
    from interpreter.lang.runtime import Ctx
    from interpreter.verbs.abilities import modify
    g = load_game(FIXTURES / "relay")
    s = g.new_initial_state(2, 1)
    modify(Ctx(s.d, g, {}), "hand_limit", 1, None, None, "turn", [])
    modify(Ctx(s.d, g, {}), "hand_limit", 2, None, None, "game", [])
    turns = s.d["turns"]
    while s.d["turns"] == turns and not s.is_terminal():
        s.apply_action(0)
    assert [m["until"] for m in s.d["mods"]] == ["game"]


@pytest.mark.parametrize("part,value,message", [
    ("uses", {"turn": {"x@y": 1}}, "no ability of this game is limited per turn"),
    ("mods", [{"q": "strength", "until": "turn", "args": [], "add": 1}], "not a quantity of this game"),
])
def test_a_save_holding_what_the_game_cannot_make_lapse_is_refused(part, value, message):
    # pig has no limited ability and no quantity: nothing lapses at its turns' ends, so
    # use counts or modifiers in its saved state could only stay forever.
    g = load_game("pig")
    data = json.loads(g.new_initial_state(2, 1).serialize())
    data["state"][part] = value
    with pytest.raises(ValueError, match=message):
        deserialize(g, json.dumps(data))


SPEND = """
game: {id: spend, name: Spend, version: "0.1", rulebook: a test, players: {min: 1, max: 1}}
limits: {steps: 400, work: 1000}
vars:
  game: {n: 0}
procedures:
  busy:
    do: |
      let k = 0
      while k < 100 {
        k += 1
      }
      let xs = range(600)
      let a = choose([1, 2], player=0, always=true)
      game.n += 1
      if game.n >= 6 {
        end_game(reason="done")
      }
structure:
  - round: r
    while: "true"
    steps:
      - {step: s, do: busy()}
scoring:
  score: game.n
"""


def test_each_run_between_two_decisions_has_the_whole_budgets(tmp_path):
    # Each decision's run spends more than half of the step budget and of the work budget:
    # a context reused from run to run (GameState.apply_action) starts each run afresh.
    (tmp_path / "game.yaml").write_text(SPEND)
    g, problems = build(tmp_path, [])
    assert g is not None, problems
    s = g.new_initial_state(1, 1)
    for _ in range(6):
        assert not s.is_terminal()
        s.apply_action(1)
    assert s.d["result"]["reason"] == "done", s.d["result"]
    (tmp_path / "game.yaml").write_text(SPEND.replace("range(600)", "range(1200)"))
    s = build(tmp_path, [])[0].new_initial_state(1, 1)
    assert "work budget" in s.d["result"]["aborted"]          # one run's work is still bounded


def test_a_rule_failing_right_after_a_decision_is_named_at_its_line(tmp_path):
    # The run after a decision starts in the waiting program's runner, before the VM's
    # loop (engine/vm.py): a failure there names its own line, as one in the loop does.
    (tmp_path / "game.yaml").write_text(SPEND.replace("      game.n += 1\n", "      game.n += [1][a]\n"))
    g = build(tmp_path, [])[0]
    s = g.new_initial_state(1, 1)
    s.apply_action(1)                    # a == 2: no item [2]
    text = SPEND.splitlines()
    line = next(i for i, t in enumerate(text, 1) if "game.n += 1" in t)
    assert s.d["result"]["aborted"].startswith(f"{tmp_path / 'game.yaml'}:{line}:") or \
        f"game.yaml:{line}:" in s.d["result"]["aborted"], s.d["result"]["aborted"]
    assert "no item [2]" in s.d["result"]["aborted"]


def test_a_state_whose_data_was_replaced_runs_in_a_context_of_its_own():
    g = load_game("tic-tac-toe")
    a, b = g.new_initial_state(2, 1), g.new_initial_state(2, 1)
    a.apply_action(0)
    a.d = b.d                       # its kept context names the old data: not reused
    a.apply_action(4)
    assert b.d["actions"] == [4] and a._c.s is b.d


class _Seats:
    """A stand-in game for finish: its scores and tie-breaks given as data."""

    def __init__(self, scores, ties=(), win_if=None):
        self.score = lambda c: scores[c.l["me"]]
        self.tiebreaks = [lambda c, t=t: t[c.l["me"]] for t in ties]
        self.win_if, self.payoff, self.trace = win_if, None, None

    def player_name(self, p):
        return f"P{p}"


@pytest.mark.parametrize("scores,ties,winners", [
    ([3, 3], (), [0, 1]), ([4, 3], (), [0]), ([3, 4], (), [1]),
    ([3, 3], ([1, 2],), [1]), ([2, 5, 5], (), [1, 2]), ([1.5, 1.5], (), [0, 1]),
])
def test_finish_finds_the_winners_by_score_then_tiebreaks(scores, ties, winners):
    d = {"n": len(scores), "frames": [], "pending": None, "terminal": False, "log": [], "log_on": False}
    scoring.finish(_Seats(scores, ties), d, "over")
    assert d["result"]["winners"] == winners
    assert d["result"]["returns"] == [1.0 if p in winners else 0.0 for p in range(len(scores))]


def test_win_if_of_each_seat_spends_what_its_score_left():
    # A seat's score, tie-breaks and win_if share one work budget (a million items).
    from interpreter.lang.runtime import WORK_BUDGET, spend

    def score(c):
        spend(c, WORK_BUDGET - 10)
        return 1
    g = _Seats([1, 1], win_if=lambda c: spend(c, 20) or True)
    g.score = score
    d = {"n": 2, "frames": [], "pending": None, "terminal": False, "log": [], "log_on": False}
    scoring.finish(g, d, "over")
    assert d["result"]["reason"] == "aborted" and "win_if failed: work budget" in d["result"]["aborted"]


@pytest.mark.parametrize("game,players", [("pig", 2), ("tic-tac-toe", 2), (FIXTURES / "games" / "kuhn-poker", 2),
                                          (FIXTURES / "games" / "pig-plain", 2)])
def test_small_games_play_the_same_from_a_save_at_every_decision(game, players):
    from interpreter.agents import make_agents
    from interpreter.engine import rng
    g = load_game(game)
    seed = rng.derive(3, 1)
    whole = play(g, players, seed, make_agents(["random"], players, seed), log=False)
    s = g.new_initial_state(players, seed, log=False)
    for a in whole.d["actions"]:
        s = deserialize(g, s.serialize())        # a saved game plays on as the one never saved
        s.apply_action(a)
    assert make_record(s)["final_state_sha256"] == make_record(whole)["final_state_sha256"]


def test_a_set_up_starts_from_a_copy_of_the_blank_made_part_by_part():
    # A game whose set-up draws at random (Kuhn poker shuffles) starts each game from the
    # kept blank state: copied by its known shape, the same as a full copy, and independent.
    from interpreter.engine import state as st
    g = load_game(FIXTURES / "games" / "kuhn-poker")
    g.new_initial_state(2, 1)
    blank = g._blanks[2]
    before = st.dumps(blank)
    assert st.dumps(st.copy_blank(blank)) == st.dumps(st.clone_state(blank)) == before
    s = g.new_initial_state(2, 2)
    s.apply_action(1)
    assert st.dumps(blank) == before and not blank["places"].own
    assert st.copy_blank(blank)["frames"][0]["l"] is not blank["frames"][0]["l"]


CALLS = """
game: {id: calls, name: Calls, version: "0.1", rulebook: a test, players: {min: 1, max: 1}}
vars:
  game: {n: 0, got: 0}
procedures:
  maybe:
    params: [k]
    do: |
      if k % 3 == 0 {
        let x = choose([1, 2], player=0, always=true)
        return x
      }
      return k
structure:
  - round: r
    while: "game.n < 7"
    steps:
      - step: s
        do: |
          game.n += 1
          let v = maybe(game.n)
          game.got += v
scoring:
  score: game.got
"""


LAMP = """zones:
  - {id: box}
components:
  - id: lamp
    kind: thing
    start: box
    provenance: {kind: external, source: a test}
    effect: |
      let z = 1
      log("lamp")
      game.got += 100
"""
LEAVES = (CALLS.replace("vars:", """box: {thing: 1}
triggers:
  - on: bump
    params: [k]
    do: |
      let z = k
      log("bump")
      game.got += 10 * z
vars:""").replace("          game.got += v\n", """          game.got += v
          emit("bump", k=v)
          run("lamp", me=0)
"""))


class _Counted(list):
    """A stack of frames that counts the frames pushed on it."""
    pushed = 0

    def append(self, fr):
        _Counted.pushed += 1
        super().append(fr)


def _calls(tmp_path, text=CALLS, components=None):
    (tmp_path / "game.yaml").write_text(text)
    if components:
        (tmp_path / "components.yaml").write_text(components)
    fast, problems = build(tmp_path, [])
    assert fast is not None, problems
    slow = build(tmp_path, [])[0]
    for prog in slow.programs.values():
        prog.runner = None                  # one instruction at a time: every call a frame
    return fast, slow


def test_a_call_that_returns_without_stopping_pushes_no_frame(tmp_path):
    fast, slow = _calls(tmp_path)
    a, b = fast.new_initial_state(1, 1), slow.new_initial_state(1, 1)
    a.d["frames"] = _Counted(a.d["frames"])
    _Counted.pushed = 0
    for action in (1, 0):
        assert a.serialize() == b.serialize()     # the same frames wait at each decision
        a.apply_action(action)
        b.apply_action(action)
    # game.n 4 to 7: step s and maybe are called four times each (eight frames, a frame a
    # call). Step s calls maybe through the VM, so it gets its frame at that call; maybe
    # needs one only at 6, where it stops: five frames.
    assert _Counted.pushed == 5
    assert a.serialize() == b.serialize() and a.d["result"]["scores"] == [1 + 2 + 2 + 4 + 5 + 1 + 7]


def test_an_answer_to_an_event_and_an_effect_run_push_no_frame_when_they_do_not_stop(tmp_path):
    fast, slow = _calls(tmp_path, LEAVES, LAMP)
    a, b = fast.new_initial_state(1, 1), slow.new_initial_state(1, 1)
    a.d["frames"] = _Counted(a.d["frames"])
    _Counted.pushed = 0
    for action in (1, 0):
        assert a.serialize() == b.serialize()
        a.apply_action(action)
        b.apply_action(action)
    assert a.serialize() == b.serialize() and a.d["result"]["scores"] == [22 * 11 + 7 * 100]
    assert _Counted.pushed == 5       # as without the event and the effect: their programs got none


@pytest.mark.parametrize("fails", ["game.got += 10 * [z][z]", "game.got += 100 * [z][5]"])
def test_an_answer_or_an_effect_failing_without_a_frame_is_named_at_its_line(tmp_path, fails):
    # the third line of the trigger's or the effect's program
    text, lamp = LEAVES, LAMP
    if "10 *" in fails:
        text = text.replace("game.got += 10 * z", fails)
    else:
        lamp = lamp.replace("game.got += 100", fails)
    fast, slow = _calls(tmp_path, text, lamp)
    a, b = fast.new_initial_state(1, 1), slow.new_initial_state(1, 1)
    assert "no item" in a.d["result"]["aborted"]
    assert a.d["result"]["aborted"] == b.d["result"]["aborted"]


@pytest.mark.parametrize("fails", ["      let y = [k][k + 3]\n      return y\n",   # in its body
                                   "      return [k][k + 3]\n"])                    # in its return
def test_a_call_that_fails_without_a_frame_is_named_at_its_line(tmp_path, fails):
    fast, slow = _calls(tmp_path, CALLS.replace("      return k\n", fails))
    a, b = fast.new_initial_state(1, 1), slow.new_initial_state(1, 1)
    assert "no item [4]" in a.d["result"]["aborted"]
    assert a.d["result"]["aborted"] == b.d["result"]["aborted"]


DOWN = """
  down:
    params: [k]
    do: |
      if k > 0 {
        down(k - 1)
      }
"""


@pytest.mark.parametrize("k", range(1, 6))
def test_calls_under_a_call_without_a_frame_count_it_toward_the_depth_limit(tmp_path, k):
    # maybe (run without a frame) calls down, which recurses k deep as direct Python calls
    # (runtime.direct_call): the depth limit counts maybe's frame as if it were there.
    text = CALLS.replace("vars:", "limits: {depth: 6}\nvars:").replace("procedures:", "procedures:" + DOWN)
    fast, slow = _calls(tmp_path, text.replace("      return k\n", f"      down({k})\n      return k\n"))
    a, b = fast.new_initial_state(1, 1), slow.new_initial_state(1, 1)
    assert a.serialize() == b.serialize()


NULL = FIXTURES / "games" / "null-decisions"


@pytest.mark.parametrize("game", ["tic-tac-toe", "pig", NULL])
def test_a_game_from_a_kept_set_up_plays_as_a_set_up_run_afresh(game):
    # A game whose set-up draws nothing starts as a copy of the set-up kept from the first
    # game (state.Kept): the same state at every decision as one whose set-up ran anew
    # (no set-up kept), and playing it leaves the kept set-up as it was.
    import random
    from interpreter.engine import state as st
    g = load_game(game)
    g.new_initial_state(2, 0, log=False)
    kept = g._setups[(2, False)]
    before = st.dumps(kept.d)
    rnd = random.Random(4)
    for seed in range(1, 4):
        a = g.new_initial_state(2, seed, log=False)
        g._setups.clear()
        b = g.new_initial_state(2, seed, log=False)        # run afresh
        g._setups[(2, False)] = kept
        while not a.is_terminal():
            assert a.serialize() == b.serialize()
            action = rnd.randrange(len(a.legal_actions()))
            a.apply_action(action)
            b.apply_action(action)
        assert a.serialize() == b.serialize()
        assert st.dumps(kept.d) == before


def test_a_kept_state_copies_as_clone_state_copies_it():
    # Kept.copy shares what clone_state shares and copies what it copies: the same keys in
    # the same order, and a copy whose deep parts and frame lists change leaves the kept
    # state as it was.
    from interpreter.engine import state as st
    g = load_game(NULL)
    g.new_initial_state(2, 0, log=False)
    d = st.clone_state(g._setups[(2, False)].d)
    d["mods"] = [{"q": "x", "until": "turn", "args": [1], "add": 1}]
    kept = st.Kept(st.clone_state(d))
    assert kept.deep == ("mods",) and kept.lists[0] == ("#o:turn",)
    before = st.dumps(kept.d)
    e = kept.copy()
    assert list(e) == list(st.clone_state(kept.d)) and st.dumps(e) == before
    e["mods"][0]["args"].append(2)
    e["frames"][0]["l"]["#o:turn"][1] += 1
    e["frames"][0]["l"]["p"] = 9
    e["gvars"]["made"] = 5
    e["pending"]["player"] = 1
    assert st.dumps(kept.d) == before


def test_a_seed_and_a_player_count_of_any_integer_type_start_the_same_game():
    # new_initial_state takes a plain int as it is and converts any other integer type
    # (numpy's), refusing booleans and floats: a converted seed starts the same game.
    import numpy as np
    g = load_game(NULL)
    plain = g.new_initial_state(2, 7, log=False).serialize()
    assert g.new_initial_state(np.int64(2), np.int64(7), log=False).serialize() == plain
    assert type(g.new_initial_state(2, np.int32(7), log=False).d["seed"]) is int
    for bad in (True, 7.0, "7"):
        with pytest.raises(ValueError, match="seed must be an integer"):
            g.new_initial_state(2, bad)
    with pytest.raises(ValueError, match="num_players must be an integer"):
        g.new_initial_state(True, 7)


ONE = """
game: {id: one, name: One, version: "0.1", rulebook: a test, players: {min: 1, max: 1}}
vars:
  game: {got: 0}
structure:
  - round: r
    while: "game.got < 5"
    steps:
      - step: s
        do: |
          let y = choose([1, 2], player=0)
          let z = choose([y], player=0)
          game.got += z
          if game.got >= 4 {
            let x = choose([1])
            game.got += x
          }
scoring:
  score: game.got
"""


@pytest.mark.parametrize("ask_one", [False, True])
def test_a_decision_of_one_option_is_taken_or_asked_as_the_vm_does(tmp_path, ask_one):
    # A runner reads a constant `always` (here the default, false) and the state's
    # ask_one only where there are fewer than two options: the same decisions asked, the
    # same one option taken, the same problem (one option, no seat to ask) as the VM's.
    fast, slow = _calls(tmp_path, ONE)
    a = fast.new_initial_state(1, 1, ask_one=ask_one)
    b = slow.new_initial_state(1, 1, ask_one=ask_one)
    while not a.is_terminal():
        assert a.serialize() == b.serialize()
        a.apply_action(len(a.legal_actions()) - 1)
        b.apply_action(len(b.legal_actions()) - 1)
    assert a.serialize() == b.serialize()
    if ask_one:     # z asked too; then choose([1]) with no seat: asking it would need one
        assert len(a.d["actions"]) == 4 and "needs player=<seat>" in a.d["result"]["aborted"]
    else:           # y asked twice, z and x taken: 2 + 2 + 1
        assert len(a.d["actions"]) == 2 and a.d["result"]["scores"] == [5]
