"""The web player's routes: a static page (plain HTML, CSS and JavaScript, no build step)
and a small JSON API it calls.

Framework: Starlette (with uvicorn to serve it). It is small (two dependencies), well
kept, and gives routing, JSON responses and static files without a template engine or
an ORM we would not use. Every handler is `async` and does its engine work inline, so
requests run one at a time on the event loop: tables and replays are never touched by
two threads, with no locks to get wrong, and a local server for a few people needs no
more.

API (JSON; errors are {"error": message} with a 4xx status, never a traceback):
  GET  /api/games                          games, player counts, variants
  GET  /api/tables                         the games being played here
  POST /api/tables                         {game, variants, players, seat, bot, seed?} -> a new game
  GET  /api/tables/{t}                     the person's view
  POST /api/tables/{t}/choose              {option, at}: the person's choice (bots answer)
  POST /api/tables/{t}/undo                back to the person's previous decision
  GET  /api/tables/{t}/record              the game record so far (as `cairn play --record` writes it)
  POST /api/tables/{t}/replay              open the game so far as a replay
  GET  /api/replays                        replays open here, and records given with `cairn serve --records`
  POST /api/replays                        {record} or {library: i}: open a record
  GET  /api/replays/{r}?step=K&seat=S      the view after K choices from seat S (or `spectator`)
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .games import Catalogue, WebError
from .replays import open_record, replay_shelf
from .tables import new_table, table_shelf
from .views import seat_view

LOG = logging.getLogger("cairn.web")
STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 8 * 1024 * 1024      # an uploaded record may be this big
MAX_LIBRARY = 500               # records listed from --records


class Server:
    """What the routes share: the games offered, the tables and the replays."""

    def __init__(self, catalogue: Catalogue, library: list[dict] | None = None, game: str | None = None):
        self.catalogue = catalogue
        self.tables = table_shelf()
        self.replays = replay_shelf()
        self.library = (library or [])[:MAX_LIBRARY]
        self.default_game = game


Handler = Callable[[Request, Server], Awaitable[Any]]


def api(handler: Handler, server: Server) -> Callable[[Request], Awaitable[Response]]:
    """Wraps a handler: its value as JSON, a WebError as {"error"} with its status."""
    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await handler(request, server))
        except WebError as err:
            return JSONResponse({"error": str(err)}, status_code=err.status)
        except Exception as err:  # a bug (the engine's or ours): one line to the page, the trace to the log
            LOG.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse({"error": f"the server failed: {type(err).__name__}: {err}"}, status_code=500)
    return endpoint


async def body(request: Request) -> dict:
    """Returns the request's JSON object; raises WebError when it is too big or not one."""
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise WebError(f"the request is over {MAX_BODY // (1024 * 1024)} MB", 413)
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise WebError(f"the request is over {MAX_BODY // (1024 * 1024)} MB", 413)
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise WebError(f"expected JSON, got: {err}") from None
    if not isinstance(data, dict):
        raise WebError("expected a JSON object")
    return data


def table_view(server: Server, token: str) -> dict:
    table = server.tables.get(token)
    view = seat_view(table.g, table.state.d, table.human)
    view.update(table=token, can_undo=len(table.checkpoints) >= 2 and not table.state.is_terminal(), seed=table.seed)
    return view


async def games(request: Request, server: Server) -> dict:
    return {"games": server.catalogue.listing(), "default": server.default_game}


async def list_tables(request: Request, server: Server) -> dict:
    return {"tables": server.tables.summaries()}


async def create_table(request: Request, server: Server) -> dict:
    data = await body(request)
    g = server.catalogue.game(data.get("game"), data.get("variants", []))
    table = new_table(g, data.get("players"), data.get("seat", 0), data.get("bot", "random"), data.get("seed"))
    return table_view(server, server.tables.add(table))


async def show_table(request: Request, server: Server) -> dict:
    return table_view(server, request.path_params["token"])


async def choose(request: Request, server: Server) -> dict:
    data = await body(request)
    token = request.path_params["token"]
    server.tables.get(token).choose(data.get("option"), data.get("at"))
    return table_view(server, token)


async def undo(request: Request, server: Server) -> dict:
    token = request.path_params["token"]
    server.tables.get(token).undo()
    return table_view(server, token)


async def table_record(request: Request, server: Server) -> dict:
    return server.tables.get(request.path_params["token"]).record()


async def table_replay(request: Request, server: Server) -> dict:
    rep = open_record(server.catalogue, server.tables.get(request.path_params["token"]).record())
    return rep.summary(server.replays.add(rep))


async def list_replays(request: Request, server: Server) -> dict:
    shelf = [{"library": i, "game": r.get("game"), "players": r.get("players"), "seed": r.get("seed"),
              "steps": len(r.get("actions") or []), "result": r.get("result")} for i, r in enumerate(server.library)]
    return {"replays": server.replays.summaries(), "library": shelf}


async def create_replay(request: Request, server: Server) -> dict:
    data = await body(request)
    if "library" in data:
        i = data["library"]
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(server.library):
            raise WebError(f"expected a record number from 0 to {len(server.library) - 1}, got {i!r}")
        record = server.library[i]
    else:
        record = data.get("record")
    rep = open_record(server.catalogue, record)
    return rep.summary(server.replays.add(rep))


async def replay_view(request: Request, server: Server) -> dict:
    rep = server.replays.get(request.path_params["token"])
    step, seat = _int(request.query_params.get("step", "0"), "step"), request.query_params.get("seat", "spectator")
    who = None if seat == "spectator" else _int(seat, "seat")
    if who is not None and not 0 <= who < rep.record["players"]:
        raise WebError(f"expected a seat from 0 to {rep.record['players'] - 1} or spectator, got {seat!r}")
    state = rep.state_at(step)
    view = {**rep.summary(request.path_params["token"]), **seat_view(rep.g, state.d, who), "step": step}
    # The choice made next, to the seat that made it (to others it could tell a secret).
    if step < rep.steps and view["decision"] and view["decision"]["mine"]:
        view["decision"]["chosen"] = rep.record["actions"][step]
    return view


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise WebError(f"expected a whole number for {what}, got {text!r}") from None


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


def create_app(catalogue: Catalogue | None = None, library: list[dict] | None = None,
               game: str | None = None) -> Starlette:
    """Returns the web app: the page, its static files and the API over one Server."""
    server = Server(catalogue or Catalogue(), library, game)
    routes = [
        Route("/", index),
        Route("/api/games", api(games, server)),
        Route("/api/tables", api(list_tables, server), methods=["GET"]),
        Route("/api/tables", api(create_table, server), methods=["POST"]),
        Route("/api/tables/{token}", api(show_table, server)),
        Route("/api/tables/{token}/choose", api(choose, server), methods=["POST"]),
        Route("/api/tables/{token}/undo", api(undo, server), methods=["POST"]),
        Route("/api/tables/{token}/record", api(table_record, server)),
        Route("/api/tables/{token}/replay", api(table_replay, server), methods=["POST"]),
        Route("/api/replays", api(list_replays, server), methods=["GET"]),
        Route("/api/replays", api(create_replay, server), methods=["POST"]),
        Route("/api/replays/{token}", api(replay_view, server)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.server = server
    return app
