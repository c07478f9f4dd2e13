"""The web player's routes: a static page (plain HTML, CSS and JavaScript, no build step)
and a small JSON API it calls.

Framework: Starlette (with uvicorn to serve it). It is small (two dependencies), well
kept, and gives routing, JSON responses and static files without a template engine or
an ORM we would not use. Every handler is `async` and does its engine work inline, so
requests run one at a time on the event loop: tables and replays are never touched by
two threads, with no locks to get wrong, and a local server for a few people needs no
more.

API (JSON; errors are {"error": message} with a 4xx status, never a traceback). A table's
token lets anyone who has it watch the game as a spectator; the person's seat has a secret,
given once in the answer that starts the game, sent back in the X-Cairn-Seat header: every
choice needs it, and with it the table shows that seat's view.
  GET  /api/games                          games, player counts, variants
  GET  /api/tables                         the tables named in X-Cairn-Seats ("table:secret ..."), nobody else's
  POST /api/tables                         {game, variants, players, seat, bot | seats, seed?} -> a new game,
                                           the starter's secret and the other people's seats' secrets
  GET  /api/tables/{t}?at=K&tree=1         the seat's view (the spectator's without a secret), now or after
                                           K choices; tree: the seat's observation as data; never the seed
  POST /api/tables/{t}/choose              {option, at}: the deciding person's choice (bots answer); needs its secret
  POST /api/tables/{t}/undo                back to the person's previous decision; needs the secret
  POST /api/tables/{t}/branch              {at}: a new table from one of the seat's past decisions
  GET  /api/tables/{t}/record              the game record (as `cairn play --record` writes it), once it is over
  POST /api/tables/{t}/replay              open the game so far as a replay (while it is on: the seat's views only)
  GET  /api/replays                        records given with `cairn serve --records`
  POST /api/replays                        {record} or {library: i}: open a record (it must replay to its claims)
  GET  /api/replays/{r}?step=K&seat=S      the view after K choices from seat S (or `spectator`)

Every request passes guard.py (Host, and Origin on a change) and every body bodies.py
(size, JSON numbers, depth, each field's kind).
"""
from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .bodies import json_object, text, texts, whole
from .changes import changes
from .errors import WebError, cut, excerpt, printable
from .games import Catalogue
from .guard import Guard
from .replays import Replay, open_record, replay_shelf
from .tables import Table, new_table, table_shelf
from .views import seat_view, tree

LOG = logging.getLogger("cairn.web")
STATIC = Path(__file__).resolve().parent / "static"
MAX_LIBRARY = 500               # records listed from --records
MAX_LISTED = 100                # tables one X-Cairn-Seats header may name
SEAT = "x-cairn-seat"           # the header that carries a seat's secret
SEATS = "x-cairn-seats"         # "table:secret table:secret": the tables a page lists
SMALL = re.compile(r"-?[0-9]{1,9}", re.ASCII)


class Server:
    """What the routes share: the games offered, the tables and the replays."""

    def __init__(self, catalogue: Catalogue, library: list | None = None, game: str | None = None):
        self.catalogue = catalogue
        self.tables = table_shelf()
        self.replays = replay_shelf()
        self.library = (library or [])[:MAX_LIBRARY]
        self.default_game = game


Handler = Callable[[Request, Server], Awaitable[Any]]


def api(handler: Handler, server: Server) -> Callable[[Request], Awaitable[Response]]:
    """Wraps a handler: its value as JSON, a WebError as {"error"} with its status; any
    other exception is a bug (the engine's or ours): one line to the log, no traceback
    (it could hold a seat's secrets), and a 500 that says so."""
    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await handler(request, server))
        except WebError as err:
            # after a 413 the rest of the body is not read: the connection ends with the answer
            close = {"connection": "close"} if err.status == 413 else None
            return JSONResponse({"error": printable(cut(str(err)))}, status_code=err.status, headers=close)
        except Exception as err:
            LOG.error("%s %s failed: %s: %s", request.method, cut(request.url.path, 80), type(err).__name__,
                      printable(cut(str(err), 200)))
            return JSONResponse({"error": f"the server failed (a bug): {type(err).__name__}"}, status_code=500)
    return endpoint


def seat_of(request: Request, table: Table) -> int | None:
    """Returns the seat whose secret the request carries, None when it carries none (a
    spectator); raises WebError 403 when it carries one that is not this table's."""
    given = request.headers.get(SEAT)
    if not given:
        return None
    seat = table.seat_of(given)
    if seat is None:
        raise WebError("that is not the secret of a seat at this game: it may be watched, not played", 403)
    return seat


def player_of(request: Request, table: Table) -> int:
    """Returns the seat acting; raises WebError 403 without a person's seat's secret."""
    seat = seat_of(request, table)
    if seat is None or seat not in table.humans:
        raise WebError("only the player of this seat may choose here: the request lacks its secret (X-Cairn-Seat)", 403)
    return seat


def table_view(token: str, table: Table, seat: int | None, at: int | None = None) -> dict:
    """Returns what the page shows of a table to a seat (None: a spectator), now or after
    `at` choices (a past moment, as the seat saw it then); never the seed."""
    now = len(table.state.d["actions"])
    k = now if at is None else at
    state = table.state_at(k)
    view = seat_view(table.g, state.d, seat)
    moments = table.moment_of_lines()[:len(state.d["log"])]
    view["log_at"] = [m for (_line, to), m in zip(state.d["log"], moments) if to is None or to == seat]
    people = table.humans
    view.update(table=token, now=now, past=k != now, seats=list(table.seats),
                people=[{"seat": p, "name": table.g.player_name(p)} for p in people],
                can_undo=seat is not None and len(people) == 1 and len(table.checkpoints) >= 2
                and not table.state.is_terminal(),
                decisions=table.decisions_of(seat) if seat is not None else [])
    if k != now and view["decision"] and view["decision"]["mine"]:
        view["decision"]["chosen"] = table.state.d["actions"][k]     # what the seat chose then
    view["since"] = since(table, seat, state) if k == now else None
    return view


def since(table: Table, seat: int | None, state: Any) -> dict | None:
    """What happened since the seat's last decision: each choice made since (who, and the
    log lines the seat saw of it) and the changes as the seat sees them."""
    if seat is None:
        return None
    now = len(state.d["actions"])
    before = [a for a in table.decisions_of(seat) if a < now]
    start = before[-1] + 1 if before else 0
    if start > now:
        return None
    moments = table.moment_of_lines()
    steps = []
    for k in range(start, now):
        lines = [line for (line, to), m in zip(state.d["log"], moments) if m == k + 1 and (to is None or to == seat)]
        who = table.deciders[k] if k < len(table.deciders) else None
        steps.append({"at": k + 1, "seat": who, "name": table.g.player_name(who) if who is not None else "",
                      "bot": who is not None and table.seats[who] != "human", "lines": lines})
    return {"from": start, "steps": steps, "changes": changes(table.g, table.state_at(start).d, state.d, seat)}


async def games(request: Request, server: Server) -> dict:
    return {"games": server.catalogue.listing(), "default": server.default_game}


async def list_tables(request: Request, server: Server) -> dict:
    """The tables whose secrets the page holds (it names them): nobody else's."""
    rows = []
    server.tables.sweep()
    for pair in request.headers.get(SEATS, "").split()[:MAX_LISTED]:
        token, _, secret = pair.partition(":")
        table = server.tables.peek(token)
        if table is not None and secret and table.seat_of(secret) is not None:
            rows.append(table.summary(token, table.seat_of(secret)))
    return {"tables": rows}


async def create_table(request: Request, server: Server) -> dict:
    data = await json_object(request, {"game", "variants", "players", "seat", "bot", "seats", "seed"})
    g = server.catalogue.game(text(data, "game"), texts(data, "variants"))
    seats = data.get("seats")
    if seats is not None and (not isinstance(seats, list) or len(seats) > 16):
        raise WebError(f"expected 'seats' to be a list of seats (\"human\" or a bot), got {excerpt(seats)}")
    table = new_table(g, whole(data, "players"), whole(data, "seat", None if seats else 0),
                      text(data, "bot", "random"), whole(data, "seed"), seats)
    token = server.tables.add(table)
    return created(token, table)


def created(token: str, table: Table) -> dict:
    """The starter's first view and secret, and the other people's seats' secrets (for
    the starter to keep at this computer or hand out as links)."""
    others = {str(p): s for p, s in table.seat_secrets.items() if p != table.human}
    return {**table_view(token, table, table.human), "secret": table.seat_secrets[table.human], "secrets": others}


async def show_table(request: Request, server: Server) -> dict:
    token = request.path_params["token"]
    table = server.tables.get(token)
    seat = seat_of(request, table)
    at = request.query_params.get("at")
    view = table_view(token, table, seat, None if at is None else _number(at, "at"))
    if request.query_params.get("tree") == "1":
        view["tree"] = tree(table.g, table.state_at(view["at"]).d, seat)
    return view


async def choose(request: Request, server: Server) -> dict:
    token = request.path_params["token"]
    table = server.tables.get(token)
    seat = player_of(request, table)
    data = await json_object(request, {"option", "at"})
    table.choose(data.get("option"), data.get("at"), seat)
    return table_view(token, table, seat)


async def branch(request: Request, server: Server) -> dict:
    """A new line from one of the seat's past decisions: a new table (this one goes on)."""
    table = server.tables.get(request.path_params["token"])
    seat = player_of(request, table)
    data = await json_object(request, {"at"})
    new = table.branch(seat, data.get("at"))
    token = server.tables.add(new)
    return created(token, new)


async def undo(request: Request, server: Server) -> dict:
    token = request.path_params["token"]
    table = server.tables.get(token)
    seat = player_of(request, table)
    await json_object(request, set())
    table.undo()
    return table_view(token, table, seat)


async def table_record(request: Request, server: Server) -> dict:
    return server.tables.get(request.path_params["token"]).record()


async def table_replay(request: Request, server: Server) -> dict:
    table = server.tables.get(request.path_params["token"])
    seat = seat_of(request, table)
    await json_object(request, set())
    rep = open_record(server.catalogue, table.record_so_far(), live=table, seat=seat)
    return rep.summary(server.replays.add(rep))


async def list_replays(request: Request, server: Server) -> dict:
    """The records given with --records (a replay opened here is listed to no one: its
    token is its opener's)."""
    return {"library": [library_row(i, r) for i, r in enumerate(server.library)]}


def library_row(i: int, r: Any) -> dict:
    """Returns what the replay page lists of a --records record, not yet checked (so not
    its claimed result: that is shown once it replays)."""
    r = r if isinstance(r, dict) else {}
    game, players, seed, actions = (r.get(k) for k in ("game", "players", "seed", "actions"))
    return {"library": i, "game": printable(cut(game, 60)) if isinstance(game, str) else None,
            "players": players if _small(players) else None, "seed": seed if _small(seed, 2 ** 63) else None,
            "steps": len(actions) if isinstance(actions, list) else 0}


def _small(value: Any, most: int = 1000) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < most


async def create_replay(request: Request, server: Server) -> dict:
    data = await json_object(request, {"record", "library"})
    if "library" in data:
        if not server.library:
            raise WebError("this server was given no records (cairn serve --records)")
        record = server.library[whole(data, "library", lo=0, hi=len(server.library) - 1)]
    else:
        record = data.get("record")
    rep = open_record(server.catalogue, record)
    return rep.summary(server.replays.add(rep))


async def replay_view(request: Request, server: Server) -> dict:
    token = request.path_params["token"]
    rep = server.replays.get(token)
    step = _number(request.query_params.get("step", "0"), "step")
    seat = request.query_params.get("seat", "spectator")
    who = None if seat == "spectator" else _number(seat, "seat")
    if who is not None and not 0 <= who < rep.record["players"]:
        raise WebError(f"expected a seat from 0 to {rep.record['players'] - 1} or spectator, got {excerpt(seat)}")
    if who is not None and who not in rep.seats():
        raise WebError("while the game is on, its replay shows only the view of the seat that opened it, "
                       "or a spectator's", 403)
    return step_view(token, rep, step, who)


def step_view(token: str, rep: Replay, step: int, who: int | None) -> dict:
    """Returns the view of a replay's step from one seat (None: a spectator)."""
    state = rep.state_at(step)
    view = {**rep.summary(token), **seat_view(rep.g, state.d, who), "step": step}
    # The choice made next, to the seat that made it (to others it could tell a secret).
    if step < rep.steps and view["decision"] and view["decision"]["mine"]:
        view["decision"]["chosen"] = rep.record["actions"][step]
    return view


def _number(given: str, what: str) -> int:
    if not SMALL.fullmatch(given):
        raise WebError(f"expected a whole number for {what}, got {excerpt(given)}")
    return int(given)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


def create_app(catalogue: Catalogue | None = None, library: list | None = None,
               game: str | None = None, hosts: Iterable[str] = ()) -> Starlette:
    """Returns the web app: the page, its static files and the API over one Server;
    `hosts`: names the server answers to besides localhost and its own address."""
    server = Server(catalogue or Catalogue(), library, game)
    routes = [
        Route("/", index),
        Route("/api/games", api(games, server)),
        Route("/api/tables", api(list_tables, server), methods=["GET"]),
        Route("/api/tables", api(create_table, server), methods=["POST"]),
        Route("/api/tables/{token}", api(show_table, server)),
        Route("/api/tables/{token}/choose", api(choose, server), methods=["POST"]),
        Route("/api/tables/{token}/undo", api(undo, server), methods=["POST"]),
        Route("/api/tables/{token}/branch", api(branch, server), methods=["POST"]),
        Route("/api/tables/{token}/record", api(table_record, server)),
        Route("/api/tables/{token}/replay", api(table_replay, server), methods=["POST"]),
        Route("/api/replays", api(list_replays, server), methods=["GET"]),
        Route("/api/replays", api(create_replay, server), methods=["POST"]),
        Route("/api/replays/{token}", api(replay_view, server)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, names=list(hosts))])
    app.state.server = server
    return app
