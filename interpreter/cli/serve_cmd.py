"""`cairn serve`: the web player and replay viewer on a local address (127.0.0.1 unless
--host says otherwise; the server answers only to localhost, its own address and the
--host name, see web/guard.py). Needs the `web` extra; without it, says how to install it."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..records import RecordFileError, read_records
from .common import UsageError, game_folder


def _library(path: str | None) -> list[dict]:
    """Returns the records of a --records file (one record, a list, or one a line)."""
    if path is None:
        return []
    try:
        return read_records(Path(path))
    except RecordFileError as err:
        raise UsageError(f"--records: {err}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from ..web.app import create_app
        from ..web.games import Catalogue, WebError
        from ..web.server import DEFAULT_PORT, bind, server_for, url_of
    except ImportError as err:
        raise UsageError(f"cairn serve needs the web extra ({err.name} is missing): "
                         "pip install 'cairn[web]'  (or, in a source tree: pip install '.[web]')") from None
    extra = [] if args.game is None else [game_folder(args.game)]
    if args.variant and not extra:
        raise UsageError("--variant needs the game it is offered with, e.g. cairn serve my-game --variant ./my-expansion")
    try:
        catalogue = Catalogue(extra, args.variant)
    except WebError as err:
        raise UsageError(str(err)) from None
    game = None if args.game is None else next(gid for gid, f in catalogue.folders.items() if f == extra[0])
    library = _library(args.records)
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise UsageError(f"--port takes 0-65535, got {port}")
    try:
        sock = bind(args.host, port)
    except OSError as err:
        if args.port is not None:
            raise UsageError(f"cannot listen on {args.host}:{port}: {err.strerror or err}") from None
        sock = bind(args.host, 0)      # the default port is taken: any free one
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"note: listening on {args.host}: anyone who can reach it can start games, watch a game whose "
              "address they are given, and open records here", file=sys.stderr)
    if args.json:
        print(json.dumps({"url": url_of(sock)}), flush=True)
    else:
        print(f"Cairn is serving on {url_of(sock)}  (Ctrl-C stops it)", flush=True)
    server_for(create_app(catalogue, library, game, hosts=[args.host]), quiet=not args.verbose).run(sockets=[sock])
    return 0
