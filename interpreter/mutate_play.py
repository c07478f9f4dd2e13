"""Whether a surviving mutant plays like the original: the same seeded random games, the
same digest.

A survivor that no scenario notices may still change the game; if it does not change a
single decision, turn count, result or final state over N seeded games, it is reported as
equivalent (likely the same rule written otherwise, or a case play never reaches) and
not counted against the score. The digest is `cairn simulate`'s, less what names the
definitions (their hash and folder: a mutant is always other definitions).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .agents import make_agents
from .engine import rng
from .load.build import load_game
from .records import make_record, play

_KEPT = ("players", "seed", "actions", "turns", "result", "final_state_sha256")
MAX_ACTIONS = 20_000     # a mutant that never ends its game plays otherwise than one that does


def default_players(lo: int, hi: int, wanted: int = 3) -> int:
    """Returns the player count of the seeded games: 3, or the nearest the game allows
    (coverage's choice: more seats reach more interactions than a solo game)."""
    return max(lo, min(hi, wanted))


def play_digest(folder: Path, variants: list[str], games: int, seed: int, players: int | None = None) -> str:
    """Returns the digest of `games` seeded random games of the game in `folder` (game i
    seeded by rng.derive(seed, i), as `cairn simulate` does); a game that fails to run
    digests as its error, so it differs from any game that runs."""
    g = load_game(folder, list(variants))
    n = players if players is not None else default_players(g.min_players, g.max_players)
    h = hashlib.sha256()
    for i in range(games):
        s = rng.derive(seed, i)
        try:
            state = play(g, n, s, make_agents(["random"], n, s), log=False, max_actions=MAX_ACTIONS)
            rec = make_record(state, ["random"])
            kept = {k: rec[k] for k in _KEPT}
        except Exception as err:          # a mutant may break the rules at run time
            kept = {"error": type(err).__name__, "game": i}
        h.update(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()
