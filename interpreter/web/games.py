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

    def __init__(self, extra: list[str | Path] = (), expansions: list[str] = ()):
        """`expansions`: --variant names (ids, overlay files, expansion folders) offered
        with the first extra game; pages name each by its variant id."""
        self.folders: dict[str, Path] = {gid: resolve_game(gid) for gid in game_ids()}
        self.offered: dict[str, dict[str, tuple[str, str]]] = {}   # game -> variant id -> (--variant, name)
        for i, spec in enumerate(extra):
            folder = resolve_game(spec)
            if folder is None:
                raise WebError(f"no game '{spec}' (a game id or a folder with game.yaml)")
            gid = load_game(folder).id
            self.folders[gid] = folder
            if i == 0 and expansions:
                self.offered[gid] = _offered(folder, expansions)
        self._compiled: OrderedDict[tuple[str, tuple[str, ...]], CompiledGame] = OrderedDict()
        self._listing: list[dict[str, Any]] | None = None

    def game(self, gid: Any, variants: Any = ()) -> CompiledGame:
        """Returns the compiled game; raises WebError naming what is wrong."""
        if not isinstance(gid, str) or gid not in self.folders:
            raise WebError(f"no game {excerpt(gid)}; known: {', '.join(self.folders)}", 404)
        if not isinstance(variants, (list, tuple)) or not all(isinstance(v, str) for v in variants):
            raise WebError("variants must be a list of variant ids")
        offered = self.offered.get(gid, {})
        aliases = {name: name for name in list_variants(self.folders[gid])}
        aliases.update({vid: given for vid, (given, _name) in offered.items()})
        aliases.update({given: given for given, _name in offered.values()})   # as a record names it
        for i, v in enumerate(variants):
            if v not in aliases:
                raise WebError(f"{gid} has no variant {excerpt(v)}; known: {', '.join(self.variants(gid)) or 'none'}")
            if aliases[v] in [aliases[u] for u in variants[:i]]:
                raise WebError(f"the variant {excerpt(v)} is given twice")
        named = tuple(aliases[v] for v in variants)
        key = (gid, named)
        if key in self._compiled:
            self._compiled.move_to_end(key)
            return self._compiled[key]
        try:
            g = load_game(self.folders[gid], list(named))
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
                             "variants": self.variants(gid)})
            self._listing = rows
        return self._listing

    def variants(self, gid: str) -> dict[str, str]:
        """{variant id: name} offered for a game: its own, then the expansions given."""
        return {**list_variants(self.folders[gid]),
                **{vid: name for vid, (_given, name) in self.offered.get(gid, {}).items()}}


def _offered(folder: Path, expansions: list[str]) -> dict[str, tuple[str, str]]:
    """{variant id: (--variant as given, name)} for the expansions named with the game:
    each must build with the game (checked once here, so a page never meets the error)."""
    from ..load.expansion import overlay_path
    from ..load.files import display_path, read_part
    out: dict[str, tuple[str, str]] = {}
    try:
        load_game(folder, list(expansions))
    except DefinitionError as err:
        raise WebError("; ".join(str(d) for d in err.diagnostics[:3])) from None
    own = list_variants(folder)
    for v in expansions:
        path = overlay_path(v)
        if path is None:
            out[v] = (v, own[v])
            continue
        loaded, _problems = read_part(path, display_path(path), "variant")
        head = loaded.data["variant"]            # it built above, so it reads
        out[head["id"]] = (v, head["name"])
    return out
