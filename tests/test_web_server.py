"""The web server without a browser: tables (bounded, undo shared with the terminal),
replays (kept states never changed), `cairn serve` on the command line."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

import pytest

from interpreter.cli.main import main
from interpreter.web.games import Catalogue, WebError
from interpreter.web.replays import STRIDE, open_record
from interpreter.web.tables import IDLE_OVER, IDLE_PLAYING, new_table, table_shelf
from interpreter.web.views import seat_view


@pytest.fixture(scope="module")
def catalogue():
    return Catalogue()


class Clock:
    """A clock the test moves (the shelves' idle times without waiting)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def finish(t) -> None:
    while not t.state.is_terminal():
        t.choose(0, len(t.state.d["actions"]))


def test_a_full_server_refuses_a_new_game_and_never_drops_one_in_play(catalogue):
    g = catalogue.game("tic-tac-toe")
    tables = table_shelf(limit=2, clock=Clock())
    tokens = [tables.add(new_table(g, 2, 0, "random", s)) for s in range(2)]
    assert len(set(tokens)) == 2 and all(len(t) >= 20 for t in tokens)
    with pytest.raises(WebError, match="server is full: 2 games") as err:
        tables.add(new_table(g, 2, 0, "random", 2))
    assert err.value.status == 503
    assert [tables.get(t).seed for t in tokens] == [0, 1]      # both still there
    finish(tables.get(tokens[0]))                               # a finished game may make room
    third = tables.add(new_table(g, 2, 0, "random", 2))
    with pytest.raises(WebError, match="gone: it was closed to make room") as err:
        tables.get(tokens[0])
    assert err.value.status == 410
    assert tables.get(tokens[1]).seed == 1 and tables.get(third).seed == 2
    with pytest.raises(WebError, match="no such game") as err:
        tables.get("never-was")
    assert err.value.status == 404


def test_tables_are_kept_until_idle_for_their_time(catalogue):
    g = catalogue.game("tic-tac-toe")
    clock = Clock()
    tables = table_shelf(clock=clock)
    playing, over = (tables.add(new_table(g, 2, 0, "random", s)) for s in range(2))
    finish(tables.get(over))
    clock.now = IDLE_OVER + 1                     # the finished one goes, the one in play stays
    with pytest.raises(WebError, match="gone: it was closed after 30 minutes without a request") as err:
        tables.get(over)
    assert err.value.status == 410
    tables.get(playing)                           # a request: its idle time starts again
    clock.now += IDLE_PLAYING - 1
    assert tables.get(playing).seed == 0
    clock.now += IDLE_PLAYING + 1
    with pytest.raises(WebError, match="closed after 2 hours without a request"):
        tables.get(playing)


def test_only_the_seats_secret_is_its_seat(catalogue):
    t = new_table(catalogue.game("tic-tac-toe"), 2, 1, "random", 1)
    secret = t.seat_secrets[1]
    assert len(secret) >= 32 and list(t.seat_secrets) == [1]
    assert t.seat_of(secret) == 1
    assert t.seat_of(secret[:-1]) is None and t.seat_of("") is None and t.seat_of("\ud800é") is None


def test_undo_replays_the_same_game_with_the_bots_as_they_were(catalogue):
    g = catalogue.game("big-foot")
    t = new_table(g, 2, 1, "random", 7)
    t.choose(0, len(t.state.d["actions"]))
    at, saved = len(t.state.d["actions"]), t.state.serialize()
    t.choose(len(t.state.d["pending"]["options"]) - 1, at)
    t.undo()
    assert t.state.serialize() == saved
    again = new_table(g, 2, 1, "random", 7)         # same choices after the undo, same game
    again.choose(0, len(again.state.d["actions"]))
    t.choose(0, at)
    again.choose(0, at)
    assert t.state.serialize() == again.state.serialize()


def test_a_stale_choice_and_a_bad_option_are_refused(catalogue):
    t = new_table(catalogue.game("stonefire"), 2, 0, "first", 1)
    with pytest.raises(WebError, match="moved on"):
        t.choose(0, len(t.state.d["actions"]) + 1)
    with pytest.raises(WebError, match="expected an option from 0"):
        t.choose(99, len(t.state.d["actions"]))
    with pytest.raises(WebError, match="nothing to undo"):
        t.undo()


def test_replay_states_match_a_fresh_replay_and_stay_unchanged(catalogue):
    g = catalogue.game("stonefire")
    t = new_table(g, 2, 0, "random", 4)
    finish(t)
    rep = open_record(catalogue, t.record())
    assert sorted(rep.kept) == list(range(0, rep.steps + 1, STRIDE))
    for k in (0, 1, STRIDE, STRIDE + 3, rep.steps):
        fresh = g.new_initial_state(2, 4)
        for a in t.state.d["actions"][:k]:
            fresh.apply_action(a)
        assert rep.state_at(k).serialize() == fresh.serialize()
        assert rep.state_at(k).serialize() == fresh.serialize()     # asking twice: the kept state unchanged
    with pytest.raises(WebError, match="expected a step"):
        rep.state_at(rep.steps + 1)


def test_a_record_of_other_definitions_does_not_open(catalogue):
    t = new_table(catalogue.game("tic-tac-toe"), 2, 0, "random", 1)
    record = dict(t.record_so_far(), definitions_sha256="0" * 64)
    with pytest.raises(WebError, match="other definitions"):
        open_record(catalogue, record)


def test_a_seat_view_holds_only_its_own_decision(catalogue):
    g = catalogue.game("stonefire")
    t = new_table(g, 2, 0, "first", 2)
    mine, other, watcher = (seat_view(g, t.state.d, s) for s in (0, 1, None))
    assert mine["decision"]["mine"] and mine["decision"]["options"]
    assert other["decision"] == {"player": 0, "name": g.player_name(0), "mine": False}
    assert watcher["decision"]["mine"] is False and "options" not in json.dumps(watcher["decision"])


def test_serve_without_the_web_extra_says_how_to_install(monkeypatch, capsys):
    for name in ("interpreter.web.app", "starlette", "starlette.applications"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["serve"]) == 2
    assert "pip install 'cairn[web]'" in capsys.readouterr().err


def test_serve_prints_its_address_serves_the_page_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", "0", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = json.loads(proc.stdout.readline())["url"]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url, timeout=20) as fh:
            page = fh.read().decode()
        assert "<title>Cairn</title>" in page and "/static/app.js" in page
        with urllib.request.urlopen(url + "static/app.js", timeout=20) as fh:
            assert b"data-option" in fh.read()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (0, 130) and "Traceback" not in err


def test_the_page_starts_on_the_game_asked_and_offers_the_records_given(catalogue):
    from interpreter.web.app import create_app
    from interpreter.web.server import start_in_thread
    t = new_table(catalogue.game("tic-tac-toe"), 2, 0, "random", 3)
    while not t.state.is_terminal():
        t.choose(0, len(t.state.d["actions"]))
    running = start_in_thread(create_app(catalogue, [t.record()], "tic-tac-toe"))
    try:
        def get(path: str, data=None) -> dict:
            req = urllib.request.Request(running.url.rstrip("/") + path, None if data is None else json.dumps(data).encode())
            with urllib.request.urlopen(req, timeout=20) as fh:
                return json.loads(fh.read())
        assert get("/api/games")["default"] == "tic-tac-toe"
        shelf = get("/api/replays")["library"]
        assert [(r["game"], r["seed"], r["steps"]) for r in shelf] == [("tic-tac-toe", 3, len(t.state.d["actions"]))]
        rep = get("/api/replays", {"library": 0})
        end = get(f"/api/replays/{rep['replay']}?step={rep['steps']}&seat=1")
        assert end["terminal"] and end["result"].startswith("Result (") and end["seat"] == 1
    finally:
        running.stop()
