"""`cairn serve` in a real headless browser (Playwright driving Debian's Chromium): a game
of each of the four games played to its end by clicking, its secrets (seat 1's hand, the
decks) checked absent from seat 0's page at every decision; undo; two games at once; a
record stepped through with the slider; the JSON API's errors; screenshots to tmp."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from interpreter.agents import make_agents
from interpreter.engine.view import observe
from interpreter.records import make_record, play, replay
from secrets_check import hidden_names
from web_fixtures import W, app, browser, click_first, table_of, url  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.needs("chromium")

# game -> seed of a 2-player game (human seat 0 against a random bot)
# (seeds of short games, picked among 150 by playing them out in Python: 29, 33, 39 and 60 clicks)
FOUR = {"big-foot": 20, "footprints": 4, "stonefire": 30, "fantastic-trails": 16}


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=W.VIEWPORT)
    pg = context.new_page()
    yield pg
    context.close()


def check_secrets(app, page, body: str) -> int:
    """Asserts nothing seat 0 may not know is on its page or in the JSON it was sent;
    returns how many of seat 1's own hidden things were checked."""
    table = table_of(app, page)
    secret = hidden_names(table.g, table.state.d, 0)
    text = page.inner_text("body")
    svg = json.loads(body).get("svg") or ""
    for o, (place, name) in secret.items():
        assert name not in text, f"{name} ({place}) is on seat 0's page"
        assert name not in body and json.dumps(o) not in body and f'data-object="{o}"' not in svg, o
    return sum(1 for place, _ in secret.values() if place.endswith("/1"))


@pytest.mark.parametrize("game", list(FOUR))
def test_a_game_played_to_its_end_by_clicking(app, url, page, game, tmp_path):
    bodies: list[str] = []
    page.on("response", lambda r: bodies.append(r.text()) if "/api/tables" in r.url else None)
    W.start_game(page, url, game, players=2, seat=0, seed=FOUR[game])
    clicks = seat1_secrets = 0
    while not W.over(page):
        # the hidden-information check, at every decision: seat 1's hand, the decks
        seat1_secrets += check_secrets(app, page, bodies[-1])
        click_first(page)
        clicks += 1
        assert clicks < 1000, "no end"
    table = table_of(app, page)
    assert table.state.is_terminal() and W.at(page) == len(table.state.d["actions"])
    # the page says the result the engine reached, and the game replays to it
    r = table.state.d["result"]
    shown = page.inner_text("#play-decision .result")
    assert shown.startswith(f"Result ({r['reason']})") and "Winner(s)" in shown
    assert replay(table.g, table.record())[0]
    print(f"{game}: {clicks} clicks, {seat1_secrets} of seat 1's hidden things checked")
    if game == "stonefire":
        assert seat1_secrets >= 100      # its hand, all game long
    page.screenshot(path=str(tmp_path / f"{game}.png"))
    assert (tmp_path / f"{game}.png").stat().st_size > 10_000


def test_undo_goes_back_to_the_previous_decision(app, url, page):
    W.start_game(page, url, "big-foot", players=2, seat=0, seed=5)
    assert page.is_disabled("#undo")
    W.click_option(page)
    at, labels = W.at(page), page.locator("#options button.option").all_inner_texts()
    log = page.locator("#play-log li").count()
    W.click_option(page, -1 if len(labels) > 1 else 0)
    assert W.at(page) > at
    page.click("#undo")
    page.wait_for_function(f"+document.querySelector('#play').dataset.at == {at}")
    assert page.locator("#options button.option").all_inner_texts() == labels
    assert page.locator("#play-log li").count() == log
    # the same game as one replayed from the seed with the choices kept (bots included)
    table = table_of(app, page)
    fresh = table.g.new_initial_state(2, 5)
    for a in table.state.d["actions"]:
        fresh.apply_action(a)
    assert fresh.d == table.state.d and len(table.state.d["actions"]) == at
    # the keys, as in the terminal: 1 chooses the first option, u undoes it
    page.keyboard.press("1")
    page.wait_for_function(f"+document.querySelector('#play').dataset.at > {at}", polling=20)
    page.keyboard.press("u")
    page.wait_for_function(f"+document.querySelector('#play').dataset.at == {at}", polling=20)


def test_two_games_at_once_keep_their_own_state(app, url, browser):
    context = browser.new_context(viewport=W.VIEWPORT)
    a, b = context.new_page(), context.new_page()
    W.start_game(a, url, "big-foot", seed=11)
    W.start_game(b, url, "stonefire", seed=11)
    b_at, b_log = W.at(b), b.locator("#play-log li").all_inner_texts()
    a.bring_to_front()
    for _ in range(3):
        W.click_option(a)
    b.bring_to_front()
    b.reload()
    b.wait_for_selector("#play[data-at]")
    assert W.at(b) == b_at and b.locator("#play-log li").all_inner_texts() == b_log
    assert a.inner_text("#play-title") == "Big Foot" and b.inner_text("#play-title") == "StoneFire"
    ta, tb = table_of(app, a), table_of(app, b)
    assert ta is not tb and ta.state.d is not tb.state.d and len(ta.state.d["actions"]) == W.at(a)
    # the set-up page lists both
    a.goto(url)
    a.wait_for_selector("#tables li a")
    listed = a.inner_text("#tables")
    assert "Big Foot" in listed and "StoneFire" in listed
    context.close()


def test_a_record_stepped_through_with_the_slider(app, url, page, tmp_path):
    from interpreter.load.build import load_game
    g = load_game("stonefire")
    state = play(g, 2, 9, make_agents(["random"], 2, 9))
    record = make_record(state, ["random", "random"])
    small = load_game("tic-tac-toe")
    other = make_record(play(small, 2, 1, make_agents(["random"], 2, 1)), ["random", "random"])
    path = tmp_path / "games.jsonl"             # as simulate --records writes them: one a line, to pick from
    path.write_text(json.dumps(other) + "\n" + json.dumps(record) + "\n", "utf-8")
    page.goto(url + "#replays")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#upload", str(path))
    page.click("text=games.jsonl, record 2")
    page.wait_for_selector("#viewer:not([hidden])[data-step='0']")
    assert page.inner_text("#replay-title").startswith("StoneFire: seed 9")
    steps = len(record["actions"])
    assert page.get_attribute("#slider", "max") == str(steps)

    def at_step(k: int, key: str) -> None:
        page.focus("#slider")
        page.keyboard.press(key)
        page.wait_for_selector(f"#viewer[data-step='{k}']")

    at_step(1, "ArrowRight")
    at_step(2, "ArrowRight")
    again = g.new_initial_state(2, 9)
    for a in record["actions"][:2]:
        again.apply_action(a)
    for seat in ("spectator", "0", "1"):
        page.select_option("#replay-seat", seat)
        who = None if seat == "spectator" else int(seat)
        expected = observe(g, again.d, who)["log"]
        page.wait_for_function(f"document.querySelector('#replay-log').children.length == {len(expected)}")
        assert [x.strip() for x in page.locator("#replay-log li").all_inner_texts()] == [x.strip() for x in expected]
    at_step(steps, "End")
    assert "Result" in page.inner_text("#replay-decision")
    page.screenshot(path=str(tmp_path / "replay.png"))
    at_step(0, "Home")


def api(url: str, path: str, data=None, secret: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", **({"X-Cairn-Seat": secret} if secret else {})}
    req = urllib.request.Request(url.rstrip("/") + path, data=None if data is None else json.dumps(data).encode(),
                                 headers=headers)
    try:
        with urllib.request.urlopen(req) as fh:
            return fh.status, json.loads(fh.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.mark.parametrize("path,data,status,says", [
    ("/api/tables", {"game": "no-such-game"}, 404, "no game 'no-such-game'"),
    ("/api/tables", {"game": "big-foot", "players": 9}, 400, "big-foot takes 2-4 players, got 9"),
    ("/api/tables", {"game": "big-foot", "players": 2, "variants": ["x"]}, 400, "has no variant 'x'"),
    ("/api/tables", {"game": "big-foot", "players": 2, "seat": 5}, 400, "expected your seat from 0 to 1"),
    ("/api/tables/nope", None, 404, "no such game"),
    ("/api/replays", {"record": {"x": 1}}, 400, "not a Cairn game record"),
    ("/api/replays", {"record": {"cairn_record": 1, "game": "big-foot", "players": 2, "seed": 1, "actions": [99],
                                 "result": None, "final_state_sha256": "0" * 64}}, 400, "choice 1 (99) is not one of"),
])
def test_api_errors_are_messages(url, path, data, status, says):
    got, body = api(url, path, data)
    assert got == status and says in body["error"], body


def test_a_stale_click_changes_nothing(url):
    _, view = api(url, "/api/tables", {"game": "big-foot", "players": 2, "seed": 1})
    token, at, secret = view["table"], view["at"], view["secret"]
    _, after = api(url, f"/api/tables/{token}/choose", {"option": 0, "at": at}, secret)
    status, body = api(url, f"/api/tables/{token}/choose", {"option": 0, "at": at}, secret)
    assert after["at"] > at and status == 409
    assert api(url, f"/api/tables/{token}", secret=secret)[1]["at"] == after["at"]
