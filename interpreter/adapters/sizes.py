"""Prints each game's action space and tensor layout at a player count (docs/ADAPTERS.md):

    python3 -m interpreter.adapters.sizes --players 2 [GAME ...]
"""
from __future__ import annotations

import argparse

from ..batch import compiled
from ..load.files import game_ids
from .common import layouts


def rows(games: list[str], players: int) -> list[str]:
    """Returns one markdown table row per game: ids, families, atoms, tensor size, pieces."""
    out = ["| game | action ids | families x atoms | tensor | pieces |", "| --- | --- | --- | --- | --- |"]
    for gid in games:
        g = compiled(gid)
        n = min(max(players, g.min_players), g.max_players)
        space, enc = layouts(g, n)
        pieces = ", ".join(f"{name} {'x'.join(map(str, shape))}" for name, shape, _at in enc.layout())
        out.append(f"| {gid} ({n}p) | {space.size} | {len(space.families)} x {space.atoms.size} | {enc.size} | {pieces} |")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="action space and tensor sizes of Cairn games")
    ap.add_argument("games", nargs="*")
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    print("\n".join(rows(args.games or game_ids(), args.players)))


if __name__ == "__main__":
    main()
