"""The web server as an attacker meets it: uvicorn on 127.0.0.1 (a free port), spoken to
in plain HTTP (http.client, a raw socket for a chunked body), no browser.

- no endpoint gives one seat another seat's hand, a deck, or the seed while the game is
  on (every GET endpoint walked, for seat 0, a spectator and a wrong seat, at several
  points of a StoneFire game and at every step of its replays);
- a client without a seat's secret cannot act for it, nor list other people's tables;
- a cross-origin change and a foreign Host are refused;
- 50 games played at once all finish;
- a hostile corpus (huge numbers, wrong kinds in every field of every body, deep
  nesting, huge and chunked bodies, bad UTF-8, unknown fields, bad steps and seats,
  tampered records) gets a 4xx, never a 500, and leaves no traceback in the server's log.

Each probe has its negative control: the leak probe finds seat 0's hand in seat 0's own
view, the secret probe plays with the right secret, the log probe catches a real bug."""
from __future__ import annotations

import http.client
import json
import logging
import select
import socket
import threading
import time
import tracemalloc
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterator

import pytest
from starlette.routing import Mount

from interpreter.records import make_record
from interpreter.web.app import create_app
from secrets_check import hidden_names
from interpreter.web.bodies import parse
from interpreter.web.errors import WebError
from interpreter.web.games import Catalogue
from interpreter.web.server import start_in_thread
from interpreter.web.tables import IDLE_PLAYING, new_table, table_shelf

GAME, SEED = "stonefire", 987654321      # a seed whose digits appear nowhere else in a view
LOGGERS = ("uvicorn", "cairn.web")


class Capture(logging.Handler):
    """Every record the server logs (uvicorn's and the app's)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def bad(self) -> list[str]:
        """The records that tell of a traceback or an error."""
        return [r.getMessage() for r in self.records
                if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()]


LOG = Capture()


@dataclass
class Served:
    app: Any
    host: str
    port: int
    running: Any

    @property
    def server(self) -> Any:
        return self.app.state.server


def serve(app: Any) -> Served:
    """Starts the app on a free 127.0.0.1 port, its log caught (uvicorn configures its
    loggers at each start, so the handler is added after)."""
    running = start_in_thread(app)
    for name in LOGGERS:
        logging.getLogger(name).addHandler(LOG)
    host, port = running.url.split("//", 1)[1].rstrip("/").rsplit(":", 1)
    return Served(app, host, int(port), running)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    """The games these tests play (the listing compiles every game offered: fewer is faster)."""
    cat = Catalogue()
    cat.folders = {gid: cat.folders[gid] for gid in ("stonefire", "big-foot", "tic-tac-toe")}
    return cat


@pytest.fixture(scope="module")
def small_record(catalogue) -> dict:
    t = new_table(catalogue.game("tic-tac-toe"), 2, 0, "random", 5)
    finish_table(t)
    return t.record()


@pytest.fixture(scope="module")
def served(catalogue, small_record) -> Iterator[Served]:
    s = serve(create_app(catalogue, [small_record]))
    yield s
    s.running.stop()


@pytest.fixture(autouse=True)
def no_traceback_logged() -> Iterator[None]:
    """After every test here: nothing the server logged tells of a traceback or an error."""
    before = len(LOG.records)
    yield
    bad = [m for m in LOG.bad()[before:]]
    assert not bad, bad


def finish_table(t: Any) -> None:
    while not t.state.is_terminal():
        t.choose(0, len(t.state.d["actions"]))


# ---- the client ----------------------------------------------------------------------------

def call(s: Served, method: str, path: str, body: Any = None, headers: dict | None = None,
         raw: bytes | None = None, host: str | None = None) -> tuple[int, Any, str]:
    """Sends one request on a new connection; returns (status, JSON or None, text)."""
    conn = http.client.HTTPConnection(s.host, s.port, timeout=60)
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    conn.putrequest(method, path, skip_host=host is not None, skip_accept_encoding=True)
    if host is not None:
        conn.putheader("Host", host)
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    if data is not None:
        conn.putheader("Content-Type", "application/json")
        if not any(k.lower() == "content-length" for k in headers or {}):
            conn.putheader("Content-Length", str(len(data)))
    conn.endheaders(data)
    resp = conn.getresponse()
    text = resp.read().decode("utf-8", "replace")
    conn.close()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    return resp.status, parsed, text


def ok(s: Served, method: str, path: str, body: Any = None, headers: dict | None = None) -> Any:
    status, data, text = call(s, method, path, body, headers)
    assert status == 200, (status, text[:300])
    return data


def start(s: Served, game: str = GAME, seed: int = SEED, seat: int = 0) -> tuple[str, dict, dict]:
    """Starts a game: its token, the seat's header, the first view."""
    view = ok(s, "POST", "/api/tables", {"game": game, "players": 2, "seat": seat, "bot": "random", "seed": seed})
    return view["table"], {"X-Cairn-Seat": view["secret"]}, view


def click(s: Served, token: str, mine: dict, view: dict) -> dict:
    return ok(s, "POST", f"/api/tables/{token}/choose", {"option": 0, "at": view["at"]}, mine)


# ---- what a seat may not know ----------------------------------------------------------------

def found(secrets: dict[str, tuple[str, str]], text: str) -> list[str]:
    """The secrets that appear in a body: a name, or an object's id as JSON or on the picture."""
    return [f"{name} ({place})" for o, (place, name) in secrets.items()
            if name in text or json.dumps(o) in text or f'data-object="{o}"' in text]


def states_along(g: Any, actions: list[int]) -> list[dict]:
    """The states (their data) after 0, 1, ... len(actions) choices of the game of SEED."""
    state = g.new_initial_state(2, SEED)
    out = [state.clone().d]
    for a in actions:
        state.apply_action(a)
        out.append(state.clone().d)
    return out


def state_after(g: Any, actions: list[int]) -> Any:
    state = g.new_initial_state(2, SEED)
    for a in actions:
        state.apply_action(a)
    return state


def walk(s: Served, token: str, mine: dict) -> tuple[list[tuple[str, int | None, int | None, str]], set[str]]:
    """Every GET endpoint, as seat 0 (its secret), a spectator (none) and seat 1 where a
    replay could show it: [(what, step or None: now, seat asked, body)], and the route
    templates walked."""
    out: list[tuple[str, int | None, int | None, str]] = []
    walked: set[str] = set()

    def get(template: str, path: str, headers: dict | None, step: int | None = None, seat: int | None = 0,
            expect: tuple[int, ...] = (200,)) -> Any:
        status, data, text = call(s, "GET", path, headers=headers)
        assert status in expect, (path, status, text[:200])
        out.append((path, step, seat, text))
        walked.add(template)
        return data

    seats = {"X-Cairn-Seats": f"{token}:{mine['X-Cairn-Seat']}"}
    get("/", "/", None)
    get("/static", "/static/app.js", None)
    get("/api/games", "/api/games", None)
    assert get("/api/tables", "/api/tables", seats)["tables"][0]["table"] == token
    assert get("/api/tables", "/api/tables", None, seat=None)["tables"] == []
    get("/api/tables/{token}", f"/api/tables/{token}", mine)
    assert get("/api/tables/{token}", f"/api/tables/{token}", None, seat=None)["seat"] is None
    for who in (mine, None):     # the record holds the seed: not before the end
        get("/api/tables/{token}/record", f"/api/tables/{token}/record", who, expect=(409,))
    get("/api/replays", "/api/replays", None)
    for who, seat in ((mine, 0), ({}, None)):
        rep = ok(s, "POST", f"/api/tables/{token}/replay", {}, who)
        assert rep["seed"] is None and rep["result"] is None and rep["seats"] == ([] if seat is None else [0])
        out.append(("POST replay", None, seat, json.dumps(rep)))
        for k in range(rep["steps"] + 1):
            path = f"/api/replays/{rep['replay']}?step={k}"
            for other in ({0, 1} - {seat}):    # another seat's view: refused while the game is on
                get("/api/replays/{token}", f"{path}&seat={other}", None, step=k, expect=(403,))
            if k % 5 and k != rep["steps"]:
                continue                       # the views themselves: every 5th step (each costs a drawing)
            get("/api/replays/{token}", f"{path}&seat=spectator", None, step=k, seat=None)
            if seat is not None:
                get("/api/replays/{token}", f"{path}&seat=0", None, step=k)
    return out, walked


def test_no_endpoint_gives_a_seat_another_seats_hand_or_the_seed_mid_game(served):
    token, mine, view = start(served)
    table = served.server.tables.peek(token)
    g = table.g
    seat1_checked = bodies = 0
    hidden: dict[tuple[int, int | None], dict] = {}
    for clicks in (0, 10, 30):
        while len(table.checkpoints) - 1 < clicks:
            view = click(served, token, mine, view)
        assert not table.state.is_terminal()
        actions = list(table.state.d["actions"])
        got, walked = walk(served, token, mine)
        states = states_along(g, actions)
        for what, step, seat, text in got:
            k = len(actions) if step is None else step
            if (k, seat) not in hidden:
                hidden[k, seat] = hidden_names(g, states[k], seat)
            secret = hidden[k, seat]
            assert not found(secret, text), (what, found(secret, text)[:3])
            assert str(SEED) not in text, what
            seat1_checked += sum(1 for place, _ in secret.values() if place.endswith("/1"))
            bodies += 1
    print(f"{bodies} bodies, {seat1_checked} of seat 1's hidden things checked absent")
    assert seat1_checked > 500      # its hand, all along
    # every GET route the app has was walked
    routes = {r.path for r in served.app.routes if isinstance(r, Mount) or "GET" in (r.methods or ())}
    assert routes == walked, routes ^ walked


def test_the_leak_probe_finds_what_a_seat_may_see(served):
    """The controls: the same probe finds seat 0's hand in seat 0's own view (and not in a
    spectator's); once the game is over, the record has the seed and seat 1's view of the
    replay opened mid-game shows seat 1's hand."""
    token, mine, view = start(served)
    table = served.server.tables.peek(token)
    for _ in range(3):
        view = click(served, token, mine, view)
    own = {o: v for o, v in hidden_names(table.g, table.state.d, 1).items() if v[0] == "hand/0"}
    assert own
    assert found(own, call(served, "GET", f"/api/tables/{token}", headers=mine)[2])
    assert not found(own, call(served, "GET", f"/api/tables/{token}")[2])
    rep = ok(served, "POST", f"/api/tables/{token}/replay", {}, mine)
    finish_table(table)
    record = call(served, "GET", f"/api/tables/{token}/record")
    assert record[0] == 200 and record[1]["seed"] == SEED and str(SEED) in record[2]
    shown = 0
    states = states_along(table.g, table.state.d["actions"][:rep["steps"]])
    for k in range(0, rep["steps"] + 1, 2):
        status, data, text = call(served, "GET", f"/api/replays/{rep['replay']}?step={k}&seat=1")
        assert status == 200 and data["seed"] == SEED
        shown += len(found({o: v for o, v in hidden_names(table.g, states[k], 0).items() if v[0] == "hand/1"}, text))
    assert shown >= 5


# ---- secrets ------------------------------------------------------------------------------------

def test_a_seat_is_played_only_with_its_secret(served):
    token, mine, view = start(served, "big-foot", 3)
    other, theirs, _ = start(served, "big-foot", 4)
    choice = {"option": 0, "at": view["at"]}
    for headers in ({}, theirs, {"X-Cairn-Seat": mine["X-Cairn-Seat"][:-1]},
                    {"X-Cairn-Seat": mine["X-Cairn-Seat"] + "x"}, {"X-Cairn-Seat": b"\xff\xfe\xe9"}):
        for path, body in ((f"/api/tables/{token}/choose", choice), (f"/api/tables/{token}/undo", {})):
            status, data, _ = call(served, "POST", path, body, headers)
            assert status == 403 and "secret" in data["error"], (headers, data)
    status, data, _ = call(served, "GET", f"/api/tables/{token}", headers=theirs)
    assert status == 403
    assert ok(served, "GET", f"/api/tables/{token}", headers=mine)["at"] == view["at"]   # nothing moved
    # a spectator (the address, no secret) sees the spectator's view: no options
    watch = ok(served, "GET", f"/api/tables/{token}")
    assert watch["seat"] is None and "options" not in json.dumps(watch["decision"]) and not watch["can_undo"]
    # the control: with the secret, the choice is made
    after = click(served, token, mine, view)
    assert after["at"] > view["at"] and after["seat"] == 0


def test_the_tables_listed_are_only_the_askers(served):
    a, mine, _ = start(served, "tic-tac-toe", 1)
    b, theirs, _ = start(served, "tic-tac-toe", 2)
    status, data, text = call(served, "GET", "/api/tables", headers={"X-Cairn-Seats": f"{a}:{mine['X-Cairn-Seat']}"})
    assert [t["table"] for t in data["tables"]] == [a]
    assert b not in text and theirs["X-Cairn-Seat"] not in text and mine["X-Cairn-Seat"] not in text
    for header in ("", f"{b}:{mine['X-Cairn-Seat']}", f"{b}", f"{b}:", "x" * 6000, f"{a}:{mine['X-Cairn-Seat']} " * 300):
        status, data, text = call(served, "GET", "/api/tables", headers={"X-Cairn-Seats": header})
        assert status == 200 and b not in text and theirs["X-Cairn-Seat"] not in text
        assert [t["table"] for t in data["tables"]] in ([], [a] * len(data["tables"]))
    many = {"X-Cairn-Seats": f"{a}:{mine['X-Cairn-Seat']} " * 300}
    assert len(call(served, "GET", "/api/tables", headers=many)[1]["tables"]) <= 100


# ---- other sites ----------------------------------------------------------------------------------

def test_a_cross_origin_change_is_refused(served):
    body = {"game": "tic-tac-toe", "players": 2}
    before = len(served.server.tables)
    own = f"http://{served.host}:{served.port}"
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": own + ".evil.example"},
                    {"Origin": f"https://{served.host}:{served.port}"}, {"Origin": f"http://{served.host}:1"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
        status, data, _ = call(served, "POST", "/api/tables", body, headers)
        assert status == 403 and "another site" in data["error"], headers
    assert len(served.server.tables) == before
    # the controls: this server's own page, and a client that is no browser, may
    for headers in ({"Origin": own}, {"Origin": own, "Sec-Fetch-Site": "same-origin"}, {}):
        assert call(served, "POST", "/api/tables", body, headers)[0] == 200
    assert len(served.server.tables) == before + 3


def test_a_foreign_host_is_refused(served):
    for host in ("evil.example", f"evil.example:{served.port}", f"127.0.0.1:{served.port + 1}", "127.0.0.1",
                 f"localhost.evil.example:{served.port}", f"127.0.0.1:{served.port}x", "", "[::1", "\u00e9:80"):
        for method, path in (("GET", "/api/games"), ("GET", "/"), ("POST", "/api/tables")):
            status, data, _ = call(served, method, path, {} if method == "POST" else None, host=host)
            assert status in (400, 421), (host, path, status)
    for host in (f"127.0.0.1:{served.port}", f"localhost:{served.port}", f"LOCALHOST:{served.port}"):
        assert call(served, "GET", "/api/games", host=host)[0] == 200


def test_a_host_name_given_with_host_is_allowed(catalogue):
    s = serve(create_app(catalogue, hosts=["cairn.lan"]))
    try:
        assert call(s, "GET", "/api/games", host=f"cairn.lan:{s.port}")[0] == 200
        assert call(s, "GET", "/api/games", host=f"other.lan:{s.port}")[0] == 421
    finally:
        s.running.stop()


# ---- many players ---------------------------------------------------------------------------------

def play_many(s: Served, n: int) -> Counter:
    """n people start a tic-tac-toe game each, all games open at once, then each plays
    its first option until the end; returns how each went."""
    barrier = threading.Barrier(n, timeout=120)

    def one(i: int) -> str:
        status, view, text = call(s, "POST", "/api/tables", {"game": "tic-tac-toe", "players": 2, "seed": i})
        barrier.wait()             # every game started before any is played
        if status != 200:
            return f"refused {status}: {view['error'].split(';')[0]}"
        token, mine = view["table"], {"X-Cairn-Seat": view["secret"]}
        while not view["terminal"]:
            status, view, text = call(s, "POST", f"/api/tables/{token}/choose", {"option": 0, "at": view["at"]}, mine)
            if status != 200:
                return f"lost {status}"
        status, record, _ = call(s, "GET", f"/api/tables/{token}/record")
        return "finished" if status == 200 and record["seed"] == i and record["result"] else f"record {status}"

    with ThreadPoolExecutor(n) as pool:
        return Counter(pool.map(one, range(n), timeout=300))


def test_fifty_games_at_once_all_finish(served):
    assert play_many(served, 50) == Counter(finished=50)


def test_a_full_server_says_so_and_loses_no_game(catalogue):
    """The control: with room for 32, the 18 others are told the server is full (503) and
    the 32 all finish; none is lost."""
    app = create_app(catalogue)
    app.state.server.tables = table_shelf(limit=32)
    s = serve(app)
    try:
        assert play_many(s, 50) == Counter({"finished": 32, "refused 503: this server is full: 32 games in use": 18})
    finally:
        s.running.stop()


def test_a_closed_table_says_why(catalogue):
    app = create_app(catalogue)
    now = [0.0]
    app.state.server.tables = table_shelf(clock=lambda: now[0])
    s = serve(app)
    try:
        token, mine, view = start(s, "tic-tac-toe", 1)
        now[0] = IDLE_PLAYING + 1
        status, data, _ = call(s, "GET", f"/api/tables/{token}", headers=mine)
        assert status == 410 and "closed after 2 hours without a request" in data["error"]
        status, data, _ = call(s, "POST", f"/api/tables/{token}/choose", {"option": 0, "at": view["at"]}, mine)
        assert status == 410
        assert call(s, "GET", "/api/tables/never-was")[0] == 404
    finally:
        s.running.stop()


# ---- the hostile corpus ----------------------------------------------------------------------------

WRONG = [True, 1.5, -1, 10 ** 19, "x" * 10_000, "\u0000", "é" * 3000, {"a": 1}, [1, "a"], [[[[[]]]]]]
HUGE = [b"9" * 5000, b"-" + b"9" * 5000, b"1e999", b"-1e999", b"NaN", b"Infinity", b"-Infinity",
        b"1." + b"0" * 5000, b"0." + b"0" * 5000 + b"1", b"1e-99999"]
PLAIN = ("Invalid HTTP request received.", "Not Found", "Method Not Allowed")
RECORD_FIELDS = ["cairn_record", "game", "players", "seed", "actions", "result", "final_state_sha256",
                 "variants", "definitions_sha256", "agents"]


@dataclass
class Case:
    name: str
    method: str
    path: str
    raw: bytes | None = None
    headers: dict | None = None
    expect: tuple[int, ...] = (400, 403, 404, 405, 409, 410, 413, 421)


def with_raw(body: dict, key: str, raw: bytes) -> bytes:
    """Returns the JSON of `body` with `key`'s value written as `raw` (a number Python would
    not write: 5,000 digits, NaN)."""
    marker = "\u0001marker\u0001"
    return json.dumps({**body, key: marker}).replace(json.dumps(marker), raw.decode()).encode()


def corpus(token: str, mine: dict, at: int, record: dict, replay: str) -> list[Case]:
    """Every hostile request tried, against a live table (its secret given, so bodies are
    read) and a record that replays."""
    bodies = {
        "/api/tables": {"game": "tic-tac-toe", "players": 2, "seat": 0, "bot": "random", "seed": 1},
        f"/api/tables/{token}/choose": {"option": 0, "at": at},
        "/api/replays": {"record": record},
    }
    cases: list[Case] = []
    for path, body in bodies.items():
        fields = list(body) + (["library"] if path == "/api/replays" else [])
        for key in fields:
            for value in WRONG:
                raw = json.dumps({**{k: v for k, v in body.items() if k != "record" or key != "library"}, key: value})
                cases.append(Case(f"{path} {key}={str(value)[:12]}", "POST", path, raw.encode(), mine))
            for raw in HUGE:
                cases.append(Case(f"{path} {key}={raw[:8]!r}", "POST", path, with_raw(body, key, raw), mine))
        cases += [
            Case(f"{path} unknown field", "POST", path, json.dumps({**body, "evil": 1}).encode(), mine),
            Case(f"{path} duplicated field", "POST", path, b'{"a": 1, "a": 2}', mine),
            Case(f"{path} deep nesting", "POST", path, b"[" * 100_000 + b"]" * 100_000, mine),
            Case(f"{path} deep objects", "POST", path, b'{"a":' * 5_000 + b"1" + b"}" * 5_000, mine),
            Case(f"{path} nested 20 in a field", "POST", path, b'{"record": ' + b"[" * 20 + b"]" * 20 + b"}", mine),
            Case(f"{path} not UTF-8", "POST", path, b'{"game": "\xff\xfe\xc0\xaf"}', mine),
            Case(f"{path} lone surrogate", "POST", path, b'{"game": "\\ud800"}', mine),
            Case(f"{path} UTF-8 BOM", "POST", path, b"\xef\xbb\xbf{}", mine),
            Case(f"{path} not JSON", "POST", path, b"{game: 1", mine),
            Case(f"{path} a list", "POST", path, b"[1, 2]", mine),
            Case(f"{path} null", "POST", path, b"null", mine),
            Case(f"{path} a huge number alone", "POST", path, b"9" * 5000, mine),
            # (a length declared, no body sent: the answer comes from the head alone)
            Case(f"{path} 3 MB declared", "POST", path, b"", {**mine, "Content-Length": str(3 * 2 ** 20)}),
            Case(f"{path} 200 MB declared", "POST", path, b"", {**mine, "Content-Length": str(200 * 2 ** 20)}),
            Case(f"{path} a bad Content-Length", "POST", path, b"", {**mine, "Content-Length": "-1"}),
            Case(f"{path} 1e30 Content-Length", "POST", path, b"", {**mine, "Content-Length": "1" + "0" * 30}),
        ]
    # every field of a record, of every wrong kind, and numbers no one could write
    for key in RECORD_FIELDS:
        for value in WRONG + [None]:
            if key == "result" and value is None or key in ("definitions_sha256",) and value is None:
                continue
            cases.append(Case(f"record {key}={str(value)[:12]}", "POST", "/api/replays",
                              json.dumps({"record": {**record, key: value}}).encode()))
        for raw in HUGE[:3]:
            inner = with_raw(record, key, raw).decode()
            cases.append(Case(f"record {key}={raw[:8]!r}", "POST", "/api/replays", f'{{"record": {inner}}}'.encode()))
    cases.append(Case("record definitions_sha256=123", "POST", "/api/replays",
                      json.dumps({"record": {**record, "definitions_sha256": 123}}).encode()))
    # steps and seats in a replay's address
    for q in ["step=-1", "step=99999", "step=" + "9" * 5000, "step=1e3", "step=%ff", "step=%D9%A1", "step=",
              "step=0x1", "step=1_0", "step=%201", "seat=-1", "seat=2", "seat=999999999", "seat=" + "9" * 5000,
              "seat=abc", "seat=", "seat=%00", "seat=1&step=-5", "step=1&step=2&seat=9"]:
        cases.append(Case(f"replay ?{q[:20]}", "GET", f"/api/replays/{replay}?{q}"))
    # addresses, methods, headers
    cases += [
        Case("a 5,000-character token", "GET", "/api/tables/" + "x" * 5000),
        Case("a token of bad bytes", "GET", "/api/tables/%ff%fe"),
        Case("a NUL token", "GET", "/api/replays/%00"),
        Case("up out of static", "GET", "/static/..%2f..%2f..%2fetc%2fpasswd"),
        Case("up out of static, plain", "GET", "/static/../../../../etc/passwd"),
        Case("choose by GET", "GET", f"/api/tables/{token}/choose"),
        Case("PUT a table", "PUT", "/api/tables", b"{}"),
        Case("DELETE a table", "DELETE", f"/api/tables/{token}"),
        Case("an 8 KB secret", "POST", f"/api/tables/{token}/choose", b"{}", {"X-Cairn-Seat": "s" * 8000}),
        Case("a secret of bad bytes", "POST", f"/api/tables/{token}/undo", b"{}", {"X-Cairn-Seat": b"\xff\x80"}),
        Case("a record of a game in play", "GET", f"/api/tables/{token}/record"),
        Case("undo with a body", "POST", f"/api/tables/{token}/undo", b'{"steps": 99}', mine),
        Case("library out of range", "POST", "/api/replays", b'{"library": 99}'),
        Case("a result nested 900 deep", "POST", "/api/replays",
             with_raw({"record": record}, "record", with_raw(record, "result", b'{"a":' * 900 + b"1" + b"}" * 900))),
        Case("300,000 values", "POST", "/api/replays", b"[" + b"[]," * 300_000 + b"[]]"),
    ]
    return cases


def test_the_hostile_corpus_gets_4xx_never_500(served, small_record):
    token, mine, view = start(served, "tic-tac-toe", 9)
    replay = ok(served, "POST", "/api/replays", {"record": small_record})["replay"]
    cases = corpus(token, mine, view["at"], small_record, replay)
    statuses: Counter = Counter()
    slowest = (0.0, "")
    for case in cases:
        cpu = time.process_time()
        status, data, text = call(served, case.method, case.path, raw=case.raw, headers=case.headers)
        cpu = time.process_time() - cpu
        slowest = max(slowest, (cpu, case.name))
        statuses[status] += 1
        assert status in case.expect, (case.name, status, text[:200])
        assert len(text) < 600 and "9" * 100 not in text and "x" * 100 not in text, (case.name, text[:200])
        # the API's refusals are {"error"}; uvicorn's and Starlette's own are their plain words
        assert (isinstance(data, dict) and data["error"]) or text in PLAIN, (case.name, text[:200])
    assert ok(served, "GET", f"/api/tables/{token}", headers=mine)["at"] == view["at"]     # nothing moved
    print(f"{len(cases)} hostile cases: {dict(sorted(statuses.items()))}; slowest {slowest[0] * 1000:.0f} ms CPU "
          f"({slowest[1]})")
    assert len(cases) > 300 and 500 not in statuses


def big_post(s: Served, path: str, megabytes: int, chunked: bool = True) -> tuple[int, bytes]:
    """Sends a body of `megabytes` MB, 1 MB at a time (chunked, or with its length
    declared), stopping when the server answers; returns (MB sent, the answer's first bytes)."""
    sock = socket.create_connection((s.host, s.port), timeout=60)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {megabytes * 0x100000}"
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {s.host}:{s.port}\r\nContent-Type: application/json\r\n"
                 f"{framing}\r\n\r\n".encode())
    chunk = b"100000\r\n" + b" " * 0x100000 + b"\r\n"
    sent, answer = 0, b""
    try:
        # a declared length over the limit is refused from the head alone: the answer is
        # awaited before any of the body is sent
        while chunked and sent < megabytes and not select.select([sock], [], [], 0)[0]:
            sock.sendall(chunk)
            sent += 1
    except OSError:      # the server answered and closed while this was sending
        pass
    try:
        while not whole_answer(answer):
            got = sock.recv(65536)
            if not got:
                break
            answer += got
    except OSError:      # closed after its answer: what came is kept
        pass
    finally:
        sock.close()
    return sent, answer


def whole_answer(answer: bytes) -> bool:
    """Whether an HTTP answer has come whole (its head, and a body of its Content-Length)."""
    head, sep, body = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    length = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    return len(body) >= (length[0] if length else 0)


def test_a_200_mb_chunked_body_is_refused_before_it_is_read(served):
    tracemalloc.start()
    try:
        sent, answer = big_post(served, "/api/replays", 200)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(f"200 MB chunked: refused after {sent} MB sent; peak traced memory {peak / 2 ** 20:.1f} MB")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert sent < 100 and peak < 40 * 2 ** 20
    assert call(served, "GET", "/api/games")[0] == 200          # and the server goes on


@pytest.mark.parametrize("path", ["/api/tables", "/api/replays"])
@pytest.mark.parametrize("chunked", [True, False])
def test_a_3_mb_body_is_refused(served, path, chunked):
    sent, answer = big_post(served, path, 3, chunked)
    assert answer.startswith(b"HTTP/1.1 413") and b"over 2 MB" in answer, answer[:200]


def test_a_body_of_many_values_is_refused_before_it_is_parsed(served):
    """2 MB of `[],` would be 700,000 lists (40 MB) once parsed: counted on the bytes first."""
    raw = b"[" + b"[]," * 690_000 + b"[]]"
    tracemalloc.start()
    try:
        status, data, _ = call(served, "POST", "/api/replays", raw=raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(f"690,000 lists: {status}, peak traced memory {peak / 2 ** 20:.1f} MB")
    assert status == 400 and "more than 250000 values" in data["error"]
    assert peak < 15 * 2 ** 20


@pytest.mark.parametrize("raw,says", [
    (b'{"a": "\\ud800"}', "not Unicode"),
    (b'{"\\udfff": 1}', "not Unicode"),
    (b'{"a": ' + b"[" * 17 + b"]" * 17 + b"}", "nested more than 16 deep"),
    (b"[" * 5000 + b"]" * 5000, "nested more than 16 deep"),
    (b'{"a": 1, "a": 1}', "given twice"),
    (b'{"a": ' + b"1" * 21 + b"}", "has 21 digits"),
    (b'{"a": 1e400}', "too big"),
    (b'{"a": NaN}', "NaN is not a number"),
    (b"\xff", "not UTF-8"),
])
def test_a_body_is_parsed_within_its_limits(raw, says):
    """The parser's own limits, each shown refusing (and the control: a body inside them parses)."""
    with pytest.raises(WebError, match=says):
        parse(raw)
    assert parse(b'{"a": [' + b"[" * 14 + b"]" * 14 + b'], "b": "\xc3\xa9", "c": ' + b"9" * 20 + b"}")["c"] == int("9" * 20)


# ---- records --------------------------------------------------------------------------------------

def tampered(record: dict, g: Any) -> dict[str, tuple[dict, str]]:
    """Each way a finished record is changed -> (the record, what the refusal says)."""
    r = record["result"]
    other = make_record(state_after_record(g, record, record["actions"][:-2]))
    return {
        "result: winners swapped": (dict(record, result={**r, "winners": [1 - w for w in r["winners"]] or [0]}),
                                    "result differs"),
        "result: a score": (dict(record, result={**r, "scores": [s + 1 for s in r["scores"]]}), "result differs"),
        "final state hash": (dict(record, final_state_sha256="0" * 64), "but the record says 000000000000"),
        "a choice after the end": (dict(record, actions=record["actions"] + [0]), "ended after"),
        "cut short, claiming the result": (dict(record, actions=record["actions"][:-2]), "unfinished"),
        "cut short, the hash of its own": (dict(other, final_state_sha256="1" * 64), "unfinished"),
        "another seed": (dict(record, seed=record["seed"] + 1), ""),
        "a changed choice": (dict(record, actions=[1 - record["actions"][0]] + record["actions"][1:]), ""),
        "an illegal choice": (dict(record, actions=[99] + record["actions"][1:]), "not one of the options"),
        "9 players": (dict(record, players=9), "the record has 9 players"),
        "another game": (dict(record, game="big-foot"), ""),
        "other definitions": (dict(record, definitions_sha256="f" * 64), "other definitions"),
        "format 99": (dict(record, cairn_record=99), "format 99"),
        "format '1'": (dict(record, cairn_record="1"), "must be a whole number (the record's format), got "),
        "definitions_sha256 123": (dict(record, definitions_sha256=123), "must be 64 hex digits, got 123"),
        "agents 'x'": (dict(record, agents="x"), "agents"),
        "a huge seed": (dict(record, seed=2 ** 64), "seed"),
        "too many choices": (dict(record, actions=[0] * 200_001), "a list of at most 100,000 option numbers"),
    }


def state_after_record(g: Any, record: dict, actions: list[int]) -> Any:
    state = g.new_initial_state(record["players"], record["seed"])
    for a in actions:
        state.apply_action(a)
    return state


def test_a_tampered_record_is_refused_with_the_reason(served, catalogue):
    t = new_table(catalogue.game("stonefire"), 2, 0, "random", 11)
    finish_table(t)
    record = t.record()
    for name, (bad, says) in tampered(record, t.g).items():
        status, data, text = call(served, "POST", "/api/replays", {"record": bad})
        assert status == 400 and says in data["error"], (name, status, text[:300])
    # the controls: the record as it was opens, with its result; so does an unfinished one
    rep = ok(served, "POST", "/api/replays", {"record": record})
    assert rep["result"] == record["result"] and rep["steps"] == len(record["actions"]) and rep["seats"] == [0, 1]
    cut = make_record(state_after_record(t.g, record, record["actions"][:-2]))
    rep = ok(served, "POST", "/api/replays", {"record": cut})
    assert rep["result"] is None and rep["steps"] == len(record["actions"]) - 2


# ---- the log probe's control -------------------------------------------------------------------------

def test_a_real_bug_is_one_line_in_the_log_and_a_500(catalogue, monkeypatch):
    """The control of `no_traceback_logged` and of `500 not in statuses`: a handler that
    fails answers 500 and logs one line, no traceback, which the capture sees."""
    app = create_app(catalogue)
    s = serve(app)
    before = len(LOG.records)
    try:
        def broken() -> list:
            raise RuntimeError("a bug, with a secret: " + "s" * 1000)
        monkeypatch.setattr(app.state.server.catalogue, "listing", broken)
        status, data, _ = call(s, "GET", "/api/games")
    finally:
        s.running.stop()
    assert status == 500 and data == {"error": "the server failed (a bug): RuntimeError"}
    logged = LOG.records[before:]
    assert [r.levelname for r in logged] == ["ERROR"] and logged[0].exc_info is None
    line = logged[0].getMessage()
    assert "\n" not in line and "RuntimeError: a bug" in line and len(line) < 400
    del LOG.records[before:]     # seen: not a failure of this test
