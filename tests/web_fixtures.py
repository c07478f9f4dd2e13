"""The fixtures the browser tests share: the web app, a server for it on 127.0.0.1 in a
thread, and one headless Chromium (Debian's, through the screenshot tool's helpers), each
for one test module, and two helpers the pages' tests share. A module takes the fixtures
with `from web_fixtures import app, browser, url`."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from interpreter.web.app import create_app
from interpreter.web.server import start_in_thread

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import web_screenshots as W  # noqa: E402  (the browser helpers the screenshot tool uses too)
sys.path.pop(0)


@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture(scope="module")
def url(app):
    running = start_in_thread(app)
    yield running.url
    running.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = W.launch(p)
        yield b
        b.close()


def table_of(app, page):
    """The server's table behind the page (its token is in the page's address)."""
    return app.state.server.tables.get(page.url.split("#play/", 1)[1].split("/")[0])


def click_first(page) -> None:
    """Clicks the person's first option: the element of the picture that stands for it when
    there is one, else its button; returns once the page shows the next moment."""
    before = W.at(page)
    on_picture = page.locator("#play-picture [data-option='0']")
    if on_picture.count():
        on_picture.first.click()
    else:
        page.locator("#options button.option").first.click()
    page.wait_for_function(f"+document.querySelector('#play').dataset.at > {before}", polling=20)
