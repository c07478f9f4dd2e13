"""Play that a person would choose, in a real headless browser (Playwright driving Debian's
Chromium), for each of Big Foot, Footprints, StoneFire and Fantastic Trails: a new game
with an mcts seat and a greedy seat set up in the form, decisions made by clicking, the
list of what changed (and the bots' steps) after the bots moved, a card's tooltip, time
travel to a past decision and a branch from it, the state tree; a second person on a
link of their own who never sees the first seat's hand; two people at one computer with
a pass screen between them. The smallest piece or space drawn at 1366 px is printed."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.web.app import table_view
from secrets_check import hidden_names
from web_fixtures import W, app, browser, click_first, table_of, url  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.needs("chromium")

FOUR = {"big-foot": 3, "footprints": 3, "stonefire": 3, "fantastic-trails": 3}   # game -> seed
WIDE = {"width": 1366, "height": 900}

SMALLEST = """() => {
  // the smallest space or piece drawn on the picture, in CSS px (its shape's box)
  let least = Infinity, what = null;
  for (const g of document.querySelectorAll('#play-picture [data-space], #play-picture [data-object]')) {
    const shape = g.querySelector(':scope > circle, :scope > rect, :scope > polygon');
    if (!shape) continue;
    const r = shape.getBoundingClientRect();
    const side = Math.min(r.width, r.height);
    if (side > 0 && side < least) { least = side; what = g.dataset.space || g.dataset.object; }
  }
  return [least, what];
}"""


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport=WIDE)
    yield ctx
    ctx.close()


@pytest.mark.parametrize("game", list(FOUR))
def test_bots_of_every_kind_changes_tooltip_time_travel_and_a_branch(app, url, context, game):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    W.start_game(page, url, game, players=3, seed=FOUR[game], seats=["here", "mcts:3", "greedy"])
    table = table_of(app, page)
    assert table.seats == ["human", "mcts:3", "greedy"]
    # decisions by clicking, until the bots have moved since the last one (three at least)
    clicks = 0
    while clicks < 3 or page.locator("#since .steps button").count() == 0:
        click_first(page)
        clicks += 1
        assert clicks < 40 and not W.over(page)
    # what changed since my last decision: listed above the options, marked on the picture
    assert page.locator("#since").is_visible()
    head = page.inner_text("#since .steps-head")
    assert head.startswith("Bots moved: ")
    bots = int(head.split("Bots moved: ")[1].split(" ")[0])
    view = table_view("t", table, 0)
    assert bots == sum(1 for s in view["since"]["steps"] if s["bot"]) >= 1
    assert page.locator("#since .changes li").count() == len(view["since"]["changes"]) >= 1
    if any(c["objects"] or c["spaces"] for c in view["since"]["changes"]):
        assert page.locator("#play-picture .changed").count() >= 1
    # a bot's step, shown as the game was after it
    step = page.locator("#since .steps button").first
    k = int(step.get_attribute("data-at"))
    step.click()
    page.wait_for_selector(f"#play[data-past='{k}']")
    assert page.locator("#options button.option:not([disabled])").count() == 0
    page.click("#now")
    page.wait_for_function("document.querySelector('#play').dataset.past === undefined", polling=20)
    # a tooltip: a card's (or a space's) whole text and abilities
    tipped = page.locator("#play-picture [data-tip]")
    assert tipped.count() > 0
    longest = max(range(min(tipped.count(), 60)), key=lambda i: len(tipped.nth(i).get_attribute("data-tip")))
    target = tipped.nth(longest)
    target.scroll_into_view_if_needed()
    target.hover(force=True)
    page.wait_for_selector("#tip:not([hidden])")
    assert page.inner_text("#tip") == target.get_attribute("data-tip") and "…" not in page.inner_text("#tip")
    # the smallest space or piece drawn at 1366 px
    least, what = page.evaluate(SMALLEST)
    print(f"{game}: smallest piece or space drawn at 1366 px: {least:.1f} CSS px ({what})")
    assert least >= 10
    # no text board's map keys in the buttons
    assert "(map " not in page.inner_text("#play-decision")
    # time travel: my first decision, then a branch from it
    now = W.at(page)
    first = page.locator("#my-decisions button").first
    k = int(first.get_attribute("data-at"))
    first.click()
    page.wait_for_selector(f"#play[data-past='{k}'] #past:not([hidden])")
    assert page.locator("#play-decision button.option.chosen").count() == 1      # what I chose then
    page.locator("#tree-box summary").click()
    page.wait_for_selector("#tree .tree-list")
    assert "places" in page.inner_text("#tree")
    page.click("#branch")
    page.wait_for_function(f"+document.querySelector('#play').dataset.at === {k} && "
                           "!document.querySelector('#play').dataset.past", polling=20)
    branch = table_of(app, page)
    assert branch is not table and len(branch.state.d["actions"]) == k
    assert len(table.state.d["actions"]) == now          # the game branched from goes on as it was
    click_first(page)                                     # the branch is played on
    # a log line shows its moment
    line = page.locator("#play-log li[data-at]").first
    page.evaluate("document.querySelector('#play-log li[data-at]').click()")
    page.wait_for_selector(f"#play[data-past='{line.get_attribute('data-at')}']")
    assert not errors, errors


@pytest.mark.parametrize("game", list(FOUR))
def test_a_second_person_on_a_link_of_their_own_never_sees_my_hand(app, url, browser, context, game):
    page = context.new_page()
    W.start_game(page, url, game, players=2, seed=FOUR[game], seats=["here", "link"])
    table = table_of(app, page)
    link = page.locator("#link-list input.link").first.input_value()
    assert "#join/" in link and table.seat_secrets[1] in link and table.seat_secrets[0] not in link
    other_ctx = browser.new_context(viewport={"width": 400, "height": 800})
    try:
        other = other_ctx.new_page()
        bodies: list[str] = []
        other.on("response", lambda r: bodies.append(r.text()) if "/api/tables/" in r.url else None)
        other.goto(link)
        other.wait_for_selector("#play:not([hidden])[data-at]")
        assert "#join/" not in other.url and other.get_attribute("#play", "data-seat") == "1"
        checked = moves = 0
        for _ in range(40):
            if table.state.is_terminal():
                break
            d = table.state.d
            mine = {o: v for o, v in hidden_names(table.g, d, 1).items() if v[0].endswith("/0")}
            other.wait_for_function(f"+document.querySelector('#play').dataset.at === {len(d['actions'])}", polling=50)
            text = other.inner_text("body")
            assert not [n for _o, (_p, n) in mine.items() if n in text or n in bodies[-1]]
            checked += len(mine)
            who = table.state.current_player()
            pg = page if who == 0 else other
            pg.bring_to_front()
            pg.wait_for_function(f"+document.querySelector('#play').dataset.at === {len(d['actions'])}", polling=50)
            click_first(pg)
            moves += who
            if moves and who == 0:
                break              # seat 1 moved on its page, then seat 0 on its own, both told by polling
        print(f"{game}: {checked} of seat 1's unknowns checked absent, seat 1 moved {moves} times")
        assert moves >= 1
        # seat 1's secret cannot play seat 0's turn (the server says whose it is)
        if not table.state.is_terminal() and table.state.current_player() == 0:
            status = other.evaluate("async (at) => (await fetch('/api/tables/' + location.hash.split('/')[1] + '/choose', "
                                    "{method: 'POST', headers: {...seatHeader(location.hash.split('/')[1]), "
                                    "'Content-Type': 'application/json'}, body: JSON.stringify({option: 0, at})})).status",
                                    len(table.state.d["actions"]))
            assert status == 409
    finally:
        other_ctx.close()


def test_two_people_at_one_computer_get_a_pass_screen(app, url, context):
    page = context.new_page()
    W.start_game(page, url, "stonefire", players=2, seed=3, seats=["here", "here"])
    table = table_of(app, page)
    passes = 0
    for _ in range(40):
        if page.locator("#pass").is_visible():
            who = table.state.current_player()
            assert f"Pass the computer to {table.g.player_name(who)}" == page.inner_text("#pass-title")
            page.click("#pass-ready")
            page.wait_for_function(f"document.querySelector('#play').dataset.seat === '{who}'", polling=20)
            passes += 1
            if passes == 2:
                break
        assert page.get_attribute("#play", "data-seat") == str(table.state.current_player())
        click_first(page)
    assert passes == 2
