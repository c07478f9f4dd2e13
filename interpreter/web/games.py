"""The games the web page offers: the built-in ones, plus a folder named on the command
line. Pages name a game by its id only, never by a path, so a request cannot make the
server read an arbitrary folder. Compiled games are kept (a few) for the next request."""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..diagnostics import DefinitionError
from ..engine.game import CompiledGame
from ..load.build import list_variants, load_game
from ..load.files import game_ids, resolve_game
from .errors import WebError, excerpt

__all__ = ["Catalogue", "WebError"]

KEEP_COMPILED = 12     # (game, variants) combinations kept compiled


class Catalogue:
    """Game id -> folder, and the compiled games asked for lately."""

    def __init__(self, extra: list[str | Path] = ()):
        self.folders: dict[str, Path] = {gid: resolve_game(gid) for gid in game_ids()}
        for spec in extra:
            folder = resolve_game(spec)
            if folder is None:
                raise WebError(f"no game '{spec}' (a game id or a folder with game.yaml)")
            self.folders[load_game(folder).id] = folder
        self._compiled: OrderedDict[tuple[str, tuple[str, ...]], CompiledGame] = OrderedDict()
        self._listing: list[dict[str, Any]] | None = None

    def game(self, gid: Any, variants: Any = ()) -> CompiledGame:
        """Returns the compiled game; raises WebError naming what is wrong."""
        if not isinstance(gid, str) or gid not in self.folders:
            raise WebError(f"no game {excerpt(gid)}; known: {', '.join(self.folders)}", 404)
        if not isinstance(variants, (list, tuple)) or not all(isinstance(v, str) for v in variants):
            raise WebError("variants must be a list of variant ids")
        known = list_variants(self.folders[gid])
        for i, v in enumerate(variants):
            if v not in known:
                raise WebError(f"{gid} has no variant {excerpt(v)}; known: {', '.join(known) or 'none'}")
            if v in variants[:i]:
                raise WebError(f"the variant {excerpt(v)} is given twice")
        key = (gid, tuple(variants))
        if key in self._compiled:
            self._compiled.move_to_end(key)
            return self._compiled[key]
        try:
            g = load_game(self.folders[gid], list(variants))
        except DefinitionError as err:
            raise WebError(f"{gid} does not load: " + "; ".join(str(d) for d in err.diagnostics[:3])) from None
        self._compiled[key] = g
        while len(self._compiled) > KEEP_COMPILED:
            self._compiled.popitem(last=False)
        return g

    def listing(self) -> list[dict[str, Any]]:
        """Returns each game's id, name, player counts and variants (for the set-up form)."""
        if self._listing is None:
            rows = []
            for gid, folder in self.folders.items():
                try:
                    g = self.game(gid)
                except WebError as err:
                    rows.append({"id": gid, "name": gid, "error": str(err), "variants": {}})
                    continue
                rows.append({"id": gid, "name": g.name, "players": [g.min_players, g.max_players],
                             "seats": [g.player_name(p) for p in range(g.max_players)],
                             "variants": list_variants(folder)})
            self._listing = rows
        return self._listing
