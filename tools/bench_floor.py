"""The engine's floor: what Cairn costs when its rules do nothing, beside what each game
costs, and so the most that faster rules alone (a better compiler, a compiled state
layout) could ever reach against a hand-written game or OpenSpiel's.

tests/fixtures/games/null-decisions is a game whose rules do nothing: two players take
turns choosing among five options until eight decisions are made (its variant `long`:
eighty). Played as every contender is (a fresh process a turn, contenders in turns, the
best turn counts; tools/bench_peers.py), the two give the engine's own cost of a decision
(a turn of the structure, a procedure call, a choice, its answer) and of a game (a new
state, the first run, the scores). For each game, with D its decisions a playout:

  floor     = a game's cost + D x a decision's cost: Cairn's playout with free rules
  rules     = 1 - floor / Cairn's playout: the share faster rules could remove at most
  ceiling   = (the other's playout) / floor: Cairn's speed against a contender if its
              rules cost nothing at all; a goal above the ceiling needs the engine's
              decision protocol itself to cost less, not faster rules

Usage:
  python3 tools/bench_floor.py [GAME ...] [--games K] [--rounds R] [--json]
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_peers import FIXTURES, GAMES, ROOT, measure, parsed, parser   # noqa: E402  (tools/, this script's folder)

sys.path.insert(0, str(ROOT))

NULL = FIXTURES + "null-decisions"
SHORT, LONG = 8, 80                 # the fixture's decisions, without and with its variant


def decisions(target: str, games: int, players: int) -> float:
    """Decisions a playout, over the playouts the benchmark plays (the same stream: the
    generator seeded 5, a warm-up playout, then seeds 1..games)."""
    from interpreter.load.build import load_game
    g = load_game(target if not target.startswith("tests/") else str(ROOT / target))
    rnd, made = random.Random(5), 0
    for i in range(games + 1):
        state = g.new_initial_state(players, i, log=False)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
            made += i > 0
    return made / games


def others(game: str) -> list[tuple[str, str, str, str]]:
    """(label, runner, what it loads, argument) of the contenders to set beside the floor."""
    peer, out = GAMES[game], []
    if peer.hand:
        out.append(("hand-written", peer.hand[0], game, peer.hand[1]))
    if peer.py:
        try:
            import pyspiel  # noqa: F401
            out.append(("openspiel python", "openspiel", game, peer.py))
        except ImportError:
            pass
    return out


def bench(games_list: list[str], n: int, rounds: int) -> dict:
    """CPU seconds a playout of every contender, the best of `rounds` turns."""
    who = [("floor", "cairn", NULL, "-", 2), ("floor long", "cairn", NULL, "variant:long", 2)]
    for game in games_list:
        players = GAMES[game].players
        who.append((f"{game}|cairn", "cairn", GAMES[game].cairn, "-", players))
        who += [(f"{game}|{label}", runner, target, arg, players) for label, runner, target, arg in others(game)]
    best: dict[str, float] = {}
    for _ in range(rounds):
        for label, runner, target, arg, players in who:
            cpu = measure(runner, target, arg, n, players) / n
            best[label] = min(best.get(label, cpu), cpu)
    return best


def report(games_list: list[str], n: int, rounds: int) -> dict:
    best = bench(games_list, n, rounds)
    per_decision = (best["floor long"] - best["floor"]) / (LONG - SHORT)
    per_game = best["floor"] - SHORT * per_decision
    out = {"games": n, "rounds": rounds, "decision_us": round(per_decision * 1e6, 2),
           "game_us": round(per_game * 1e6, 2), "by_game": {}}
    for game in games_list:
        d = decisions(GAMES[game].cairn, n, GAMES[game].players)
        cairn, floor = best[f"{game}|cairn"], per_game + d * per_decision
        row = {"decisions": round(d, 2), "cairn_us": round(cairn * 1e6, 1), "floor_us": round(floor * 1e6, 1),
               "rules_share": round(max(0.0, 1 - floor / cairn), 3), "against": {}}
        for label, *_ in others(game):
            other = best[f"{game}|{label}"]
            row["against"][label] = {"playout_us": round(other * 1e6, 1), "cairn": round(other / cairn, 3),
                                     "ceiling": round(other / floor, 3)}
        out["by_game"][game] = row
    return out


def main(argv: list[str] | None = None) -> int:
    a = parsed(parser(__doc__), argv)
    r = report(a.games, a.n, a.rounds)
    if a.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"the engine's floor (rules that do nothing, {NULL}): "
          f"{r['decision_us']:.2f} µs a decision, {r['game_us']:.2f} µs a game")
    print(f"{'game':16}{'decisions':>10}{'cairn µs':>10}{'floor µs':>10}{'rules':>7}   against: playout µs, "
          "cairn's speed now, its ceiling with free rules")
    for game, row in r["by_game"].items():
        vs = "; ".join(f"{k} {v['playout_us']:.1f} µs, {v['cairn']:.3f}x now, ceiling {v['ceiling']:.3f}x"
                       for k, v in row["against"].items())
        print(f"{game:16}{row['decisions']:>10.1f}{row['cairn_us']:>10.1f}{row['floor_us']:>10.1f}"
              f"{row['rules_share']:>7.0%}   {vs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
