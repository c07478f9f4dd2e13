"""How often seeded random play reaches each clause, measured where the clause applies.

A clause about solo games is measured in solo games and a variant's clause with its
variant on (the clause index says so: `applies: {players: [1], variant: snake}`), so a
3-player game without the variant cannot claim to have run it. A clause that no program
carries (only parameters, objects, spaces, zones: data) is not measured by play at all
and says so ("n/a: data") instead of a misleading 0.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .diagnostics import DefinitionError
from .engine import rng
from .engine.game import CompiledGame
from .load.citations import applies_of
from .words import plural


def programs_of(g: CompiledGame) -> dict[str, list[str]]:
    """Returns {clause id: program keys} for the rules citing each clause that run as
    programs (steps, procedures, abilities, card effects, triggers)."""
    out: dict[str, list[str]] = defaultdict(list)
    keys = set(g.programs)
    for what, name, ids, _where in g.citations:
        candidates = {"step": [f"step:{name}", f"part:{name}"], "procedure": [f"proc:{name}", f"proc:{name}:body"],
                      "ability": [f"ability:{name}", f"ability:{name}:use", f"ability:{name}:ask"],
                      "function": [f"fn:{name}"], "quantity": [f"fn:{name}"], "scoring": ["scoring"],
                      "card": [f"effect:{name}"], "component": [f"effect:{name}"], "trigger": []}.get(what, [])
        for key in candidates:
            if key in keys or key.startswith(("part:", "fn:", "ability:")) or key == "scoring":
                for cid in ids:
                    out[cid].append(key)
    return out


def exercised(g: CompiledGame, players: int, games: int, seed: int) -> dict[str, int]:
    """Plays `games` seeded random games with the VM noting the programs it enters (the
    game must be built with trace=True, so every step runs as its own program); returns
    {clause id: games in which a rule citing it ran}."""
    from .agents import make_agents
    from .records import play
    by_clause = programs_of(g)
    counts: dict[str, int] = defaultdict(int)
    for i in range(games):
        s = rng.derive(seed, i)
        g.trace = set()
        try:
            play(g, players, s, make_agents(["random"], players, s), log=False)
            ran = g.trace
        finally:
            g.trace = None
        for cid, keys in by_clause.items():
            if any(k in ran for k in keys):
                counts[cid] += 1
    return counts


def where_measured(clause: dict, players: int, variants: list[str]) -> tuple[int, tuple[str, ...]]:
    """Returns (players, variants) of the games a clause is measured in: the games asked
    for, unless the clause applies only to other player counts or needs a variant."""
    counts, needs = applies_of(clause)
    n = players if not counts or players in counts else counts[0]
    return n, tuple(variants) + tuple(v for v in needs if v not in variants)


def measure(g: CompiledGame, folder: Path, variants: list[str], players: int, games: int, seed: int
            ) -> dict[str, tuple[int | None, str]]:
    """Returns {clause id: (games that reached it or None, how it was measured)}. `g` is
    the game asked for, built with trace=True; other player counts and variants a clause
    applies to are built and played here, once per combination."""
    from .load.build import build
    groups: dict[tuple[int, tuple[str, ...]], list[str]] = defaultdict(list)
    for cid, clause in g.clauses.items():
        groups[where_measured(clause, players, variants)].append(cid)
    out: dict[str, tuple[int | None, str]] = {}
    for (n, combo), ids in sorted(groups.items()):
        asked = (n, combo) == (players, tuple(variants))
        how = "" if asked else ", ".join([plural(n, "player")] + [f"--variant {v}" for v in combo])
        game = g if asked else _built(build, folder, list(combo))
        if not game.min_players <= n <= game.max_players:
            out.update((cid, (None, f"n/a: {how} is not a game of {game.id}")) for cid in ids)
            continue
        counts, carried = exercised(game, n, games, seed), programs_of(game)
        for cid in ids:
            out[cid] = (counts.get(cid, 0), how) if carried.get(cid) else (None, "n/a: data")
    return out


def _built(build, folder: Path, variants: list[str]) -> CompiledGame:
    game, diags = build(folder, variants, trace=True)
    if game is None:
        raise DefinitionError(diags)
    return game
