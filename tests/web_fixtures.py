"""The fixtures the browser tests share: the web app, a server for it on 127.0.0.1 in a
thread, and one headless Chromium (Debian's, through the screenshot tool's helpers), each
for one test module. A module takes them with `from web_fixtures import app, browser, url`."""
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
