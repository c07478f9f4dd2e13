"""Screenshots of each game's board in the web page, taken in Debian's Chromium driven by
Playwright: the server runs in a thread, a game is started from the set-up form (a
person, an mcts bot and a greedy bot) and a few choices are made by clicking, as a person
would, until the bots have moved since the last one (so the changes show). Each game at
1366 px wide (docs/screenshots/<game>.png) and 400 px wide, the whole page
(<game>-400.png).

    python3 tools/web_screenshots.py                 # the four games and replay.png, into docs/screenshots/
    python3 tools/web_screenshots.py --out /tmp/shots stonefire

The browser helpers here are also what tests/test_web.py drives the page with.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
GAMES = {"big-foot": 6, "footprints": 8, "stonefire": 6, "fantastic-trails": 8}   # game -> choices before the shot
VIEWPORT = {"width": 1440, "height": 1000}
WIDTHS = {"-400": {"width": 400, "height": 900}, "": {"width": 1366, "height": 900}}   # file suffix -> viewport
SEATS = ["here", "mcts:3", "greedy"]


def launch(p: Any) -> Any:
    """Returns Debian's Chromium, headless, started by Playwright."""
    return p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)


def start_game(page: Any, url: str, game: str, players: int = 2, seat: int = 0, seed: int = 1,
               variants: tuple[str, ...] = (), seats: list[str] | None = None) -> None:
    """Fills in the set-up form and starts the game; returns when its first view is shown.
    `seats`: each seat's kind as the form names it (here, link, random, first, greedy,
    mcts:N); without it, a person here in `seat` and random bots in the others."""
    page.bring_to_front()      # a page behind another gets no animation frames: clicks would wait
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    for v in variants:
        page.check(f"#variants input[value='{v}']")
    page.fill("#players", str(players))
    page.dispatch_event("#players", "input")
    if seats is None:
        seats = ["random"] * players
        seats[seat] = "here"
    for i, kind in enumerate(seats):
        name, _, playouts = kind.partition(":")
        page.select_option(f"#seat-{i}", name)
        if playouts:
            page.fill(f"#playouts-{i}", playouts)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])[data-at]")


def at(page: Any) -> int:
    return int(page.get_attribute("#play", "data-at"))


def over(page: Any) -> bool:
    return page.get_attribute("#play", "data-terminal") == "true"


def click_option(page: Any, index: int = 0) -> None:
    """Clicks an option of the person's decision (its button) and waits for the new view."""
    before = at(page)
    page.locator("#options button.option").nth(index).click()
    page.wait_for_function(f"+document.querySelector('#play').dataset.at > {before}", polling=20)


def play_to_end(page: Any, limit: int = 2000) -> int:
    """Clicks the first option until the game is over; returns the number of clicks."""
    clicks = 0
    while not over(page):
        click_option(page)
        clicks += 1
        if clicks > limit:
            raise AssertionError(f"no end after {limit} clicks")
    return clicks


def step_replay(page: Any, key: str) -> None:
    """Moves the replay slider with a key (ArrowRight, End, ...) and waits for the view."""
    before = page.get_attribute("#viewer", "data-step")
    page.focus("#slider")
    page.keyboard.press(key)
    page.wait_for_function(f"document.querySelector('#viewer').dataset.step !== '{before}'", polling=20)


def shoot_replay(page: Any, path: Path, seat: str = "0") -> None:
    """Opens the game on the page as a replay, seen by `seat`, a few choices back."""
    page.click("#to-replay")
    page.wait_for_selector("#viewer:not([hidden])[data-step='0']")
    page.select_option("#replay-seat", seat)
    step_replay(page, "End")
    step_replay(page, "ArrowLeft")
    page.screenshot(path=str(path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", default=list(GAMES), help="games to shoot (default: the four)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="folder for <game>.png")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright
    from interpreter.web.app import create_app
    from interpreter.web.server import start_in_thread
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    running = start_in_thread(create_app())
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for game in args.games:
                for suffix, viewport in WIDTHS.items():
                    page = browser.new_page(viewport=viewport)
                    start_game(page, running.url, game, players=len(SEATS), seed=1, seats=SEATS)
                    for i in range(40):
                        if over(page) or (i >= GAMES.get(game, 4) and page.locator("#since .steps button").count()):
                            break
                        click_option(page)
                    page.screenshot(path=str(out / f"{game}{suffix}.png"), full_page=bool(suffix))
                    print(out / f"{game}{suffix}.png")
                    if suffix:
                        page.close()
            shoot_replay(page, out / "replay.png")
            print(out / "replay.png")
            browser.close()
    finally:
        running.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
