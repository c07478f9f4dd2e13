"""The server side of play a person would choose, without a browser: a bot or a person in
each seat (mcts:N, greedy), each person's own secret, the changes since a seat's last
decision, past moments as the seat saw them (never more), branches from a past decision,
log lines taken back to their moments; and the pictures' side: a legend whose seat
colours stand apart from the kinds of space, and no card text cut with an ellipsis."""
from __future__ import annotations

import re

import pytest

from interpreter.draw import draw_svg
from interpreter.draw.legend import clashes, legend
from interpreter.web.app import since, table_view
from interpreter.web.changes import changes
from interpreter.web.errors import WebError
from interpreter.web.games import Catalogue
from interpreter.web.tables import new_table
from secrets_check import hidden_names

FOUR = ["big-foot", "footprints", "stonefire", "fantastic-trails"]


@pytest.fixture(scope="module")
def catalogue():
    return Catalogue()


def play_until_bots_moved(t, seat: int = 0, most: int = 30) -> dict:
    """Chooses the first option for `seat` until the bots have moved since its last
    decision; returns that view."""
    for _ in range(most):
        t.choose(0, len(t.state.d["actions"]), seat)
        view = table_view("t", t, seat)
        if view["since"] and any(s["bot"] for s in view["since"]["steps"]):
            return view
    raise AssertionError("the bots never moved")


@pytest.mark.parametrize("game", FOUR)
def test_bots_per_seat_and_what_changed_since_my_last_decision(catalogue, game):
    g = catalogue.game(game)
    t = new_table(g, 3, None, None, 5, ["human", "mcts:3", "greedy"])
    assert [type(b).__name__ for b in t.bots[1:]] == ["MctsAgent", "GreedyAgent"]
    view = play_until_bots_moved(t)
    s = view["since"]
    assert {st["seat"] for st in s["steps"] if st["bot"]} <= {1, 2}
    assert s["changes"], "the bots moved and nothing changed"
    # each change is told from the two observations of seat 0 only
    before = t.state_at(s["from"]).d
    assert s["changes"] == changes(g, before, t.state.d, 0)
    # every step since is a choice made after seat 0's last one, up to now
    assert [st["at"] for st in s["steps"]] == list(range(s["from"] + 1, view["at"] + 1))


def test_a_change_is_one_the_seat_could_see(catalogue):
    """A card moving between two places seat 0 cannot see is counts, never its name; the
    same move seen by its owner names it (the control)."""
    g = catalogue.game("stonefire")
    t = new_table(g, 2, None, None, 5, ["human", "random"])
    view = play_until_bots_moved(t)
    start = view["since"]["from"]
    before, after = t.state_at(start).d, t.state.d
    mine = " ".join(c["text"] for c in changes(g, before, after, 0))
    theirs = " ".join(c["text"] for c in changes(g, before, after, 1))
    then = hidden_names(g, before, 0)
    secret = {o: v for o, v in hidden_names(g, after, 0).items() if o in then}    # hidden all along
    assert secret and not [n for _o, (_p, n) in secret.items() if n in mine]
    assert mine != theirs


def test_people_each_have_their_own_secret_and_turn(catalogue):
    g = catalogue.game("stonefire")
    t = new_table(g, 2, None, None, 7, ["human", "human"])
    assert sorted(t.seat_secrets) == [0, 1] and t.seat_secrets[0] != t.seat_secrets[1]
    assert t.seat_of(t.seat_secrets[1]) == 1
    deciding = t.state.current_player()
    other = 1 - deciding
    with pytest.raises(WebError, match="not yours") as err:
        t.choose(0, len(t.state.d["actions"]), other)
    assert err.value.status == 409
    with pytest.raises(WebError, match="another person"):
        t.undo()


@pytest.mark.parametrize("spec, says", [("mcts:0", "from 1 to"), ("mcts:99999", "from 1 to"), ("mcts:5:depth=999", "depth"),
                                        ("wizard", "unknown bot"), ("random:3", "takes no options"), (7, "unknown bot")])
def test_a_seat_names_a_bot_this_server_can_wait_for(catalogue, spec, says):
    with pytest.raises(WebError, match=says):
        new_table(catalogue.game("big-foot"), 2, None, None, 1, ["human", spec])


def test_a_table_needs_a_person(catalogue):
    with pytest.raises(WebError, match="at least one seat for a person"):
        new_table(catalogue.game("big-foot"), 2, None, None, 1, ["random", "random"])


@pytest.mark.parametrize("game", FOUR)
def test_a_past_moment_is_the_game_as_the_seat_saw_it(catalogue, game):
    g = catalogue.game(game)
    t = new_table(g, 2, None, None, 3, ["human", "random"])
    for _ in range(6):
        if t.state.is_terminal():
            break
        t.choose(0, len(t.state.d["actions"]), 0)
    now = len(t.state.d["actions"])
    for k in range(0, now, max(1, now // 5)):
        past = table_view("t", t, 0, k)
        assert past["at"] == k and past["past"] and past["since"] is None
        state = t.state_at(k)
        secret = hidden_names(g, state.d, 0)
        body = str(past)
        assert not [n for _o, (p, n) in secret.items() if n in body], k
    # each log line is taken back to the moment it was written: there it is the last line
    moments = t.moment_of_lines()
    for i in range(0, len(t.state.d["log"]), 7):
        m = moments[i]
        assert len(t.state_at(m).d["log"]) > i
        assert m == 0 or len(t.state_at(m - 1).d["log"]) <= i


@pytest.mark.parametrize("game", FOUR)
def test_a_branch_starts_at_my_past_decision_and_leaves_the_game_as_it_was(catalogue, game):
    g = catalogue.game(game)
    t = new_table(g, 2, None, None, 11, ["human", "random"])
    for _ in range(4):
        t.choose(0, len(t.state.d["actions"]), 0)
    mine = t.decisions_of(0)
    at = mine[1]
    kept = t.state.serialize()
    b = t.branch(0, at)
    assert t.state.serialize() == kept
    assert b.state.d["actions"] == t.state.d["actions"][:at] and b.state.current_player() == 0
    assert set(b.seat_secrets) == {0} and b.seat_secrets[0] != t.seat_secrets[0]
    # the same choices again in the branch: the same game as the original (bots as they were)
    for k in mine[1:-1]:
        b.choose(t.state.d["actions"][k], k, 0)
        assert b.state.d["actions"] == t.state.d["actions"][:len(b.state.d["actions"])]
    with pytest.raises(WebError, match="one of your decisions"):
        t.branch(0, at + 1 if at + 1 not in mine else 10_000)


@pytest.mark.parametrize("game", FOUR)
def test_seat_colours_stand_apart_from_the_kinds_of_space(catalogue, game):
    g = catalogue.game(game)
    assert clashes(g) == []
    kinds = [i for i in legend(g) if i["kind"] == "space"]
    assert not kinds or all(i["colour"].startswith("#") for i in kinds)


def test_the_clash_check_finds_a_seat_coloured_like_a_space(catalogue):
    g = catalogue.game("big-foot")
    blue = next(i for i in legend(g) if i["kind"] == "space" and i["key"] == "blue")["colour"]
    g.terminal.setdefault("picture", {})
    saved = g.terminal["picture"].get("players")
    g.terminal["picture"]["players"] = [blue]
    try:
        assert ("Player 1", "blue") in clashes(g)
    finally:
        if saved is None:
            del g.terminal["picture"]["players"]
        else:
            g.terminal["picture"]["players"] = saved


@pytest.mark.parametrize("game", FOUR)
def test_no_card_text_is_cut_and_tooltips_carry_it_whole(catalogue, game):
    g = catalogue.game(game)
    t = new_table(g, 2, None, None, 2, ["human", "random"])
    texts = 0
    for _ in range(5):
        svg = draw_svg(g, t.state.d, 0)
        assert "…" not in "".join(re.findall(r">([^<]*)</text>", svg))
        for obj, tip in re.findall(r'data-(?:object|space)="([^"]+)"[^>]*>\s*<title>([^<]*)</title>', svg):
            said = g.props.get(obj, {}).get("text")
            if said:
                assert str(said).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")[:200] in tip
                texts += 1
        if t.state.is_terminal():
            break
        t.choose(0, len(t.state.d["actions"]), 0)
    if game in ("stonefire", "footprints", "big-foot"):
        assert texts > 0
