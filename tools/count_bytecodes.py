"""Bytecodes a random playout executes: Cairn beside the hand-written version of the same
game, playing the same games (the same seeds and option indices: the hand-written
tic-tac-toe and Connect Four list their moves in Cairn's order, and the hand-written Big
Foot draws the engine's random stream, tests/test_reference_bigfoot.py), so the counts
compare the same work done two ways.

Counted with CPython's opcode tracing (frame.f_trace_opcodes), by where the bytecode runs:

  rules     the Python that a game's procedures, functions and abilities compile to
  engine    interpreter/'s own modules (the VM, verbs, abilities, state, checks)
  game      the hand-written game's own code
  other     the loop that plays, `random`, the standard library

and by what it does: a subscript (`x[k]`, reading or writing a dict or a list: what a
compiled state layout of small ints and lists would make cheaper), a call, an attribute,
the rest. A bytecode is not a fixed cost (a call costs many times a LOAD_FAST); the counts
say where the work is, not the time it takes (tools/bench_peers.py, tools/bench_floor.py).

Usage:
  python3 tools/count_bytecodes.py [GAME ...] [--games K]
  (tic-tac-toe, connect-four, big-foot; null-decisions: the engine alone, rules that do nothing)
"""
from __future__ import annotations

import argparse
import dis
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

INTERPRETER = str(ROOT / "interpreter")
KINDS = {"BINARY_SUBSCR": "subscript", "STORE_SUBSCR": "subscript", "DELETE_SUBSCR": "subscript",
         "CALL": "call", "PRECALL": "call", "CALL_FUNCTION_EX": "call",
         "LOAD_ATTR": "attribute", "STORE_ATTR": "attribute", "LOAD_METHOD": "attribute"}


def where(filename: str, game_file: str | None) -> str:
    if filename.startswith("<") and filename not in ("<string>", "<stdin>") and not filename.startswith("<frozen"):
        return "rules"
    if filename.startswith(INTERPRETER):
        return "engine"
    if game_file is not None and filename == game_file:
        return "game"
    return "other"


def counted(play: Callable[[], None], game_file: str | None = None) -> Counter:
    """Counts (where, what) of every bytecode `play` executes."""
    counts: Counter = Counter()
    names = dis.opname

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        place = where(code.co_filename, game_file)

        def local(frame, event, arg):
            if event == "opcode":
                op = names[code.co_code[frame.f_lasti]]
                counts[place, KINDS.get(op, "rest")] += 1
            return local
        return local
    sys.settrace(tracer)
    try:
        play()
    finally:
        sys.settrace(None)
    return counts


def cairn_playouts(game: str, games: int, players: int, made: list[int]) -> Callable[[], None]:
    """Cairn's playouts of a game; `made` counts their decisions."""
    from interpreter.load.build import load_game
    g = load_game(FOLDERS.get(game, game))
    g.new_initial_state(players, 0, log=False)          # loading and first-call caches, not counted

    def play() -> None:
        rnd = random.Random(5)
        for i in range(1, games + 1):
            state = g.new_initial_state(players, i, log=False)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
                made[0] += 1
    return play


def hand_playouts(game: str, games: int, players: int) -> tuple[Callable[[], None], str]:
    if game == "big-foot":
        from reference import big_foot as ref

        def play() -> None:
            rnd = random.Random(5)
            for i in range(1, games + 1):
                ref.random_playout(ref.BigFoot(players, i), rnd)
        return play, ref.__file__
    import reference_games as ref
    cls = {"tic-tac-toe": ref.TicTacToe, "connect-four": ref.ConnectFour}[game]

    def play_classic() -> None:
        rnd = random.Random(5)
        for _ in range(games):
            ref.random_playout(cls(), rnd)
    return play_classic, ref.__file__


PLAYERS = {"tic-tac-toe": 2, "connect-four": 2, "big-foot": 3, "null-decisions": 2}
# null-decisions: a game whose rules do nothing (tools/bench_floor.py), the engine's own
# bytecodes a decision; no hand-written game stands beside it
FOLDERS = {"null-decisions": str(ROOT / "tests" / "fixtures" / "games" / "null-decisions")}


def report(game: str, games: int) -> dict:
    players, made = PLAYERS[game], [0]
    cairn = counted(cairn_playouts(game, games, players, made))
    if game in FOLDERS:
        return {"game": game, "players": players, "games": games, "cairn": table(cairn, games),
                "cairn_total": round(sum(cairn.values()) / games),
                "a_decision": round(sum(cairn.values()) / max(made[0], 1), 1)}
    play, file = hand_playouts(game, games, players)
    hand = counted(play, file)

    total_c, total_h = sum(cairn.values()) / games, sum(hand.values()) / games
    subs = sum(k for (place, what), k in cairn.items() if what == "subscript" and place != "other") / games
    return {"game": game, "players": players, "games": games, "cairn": table(cairn, games),
            "hand": table(hand, games), "cairn_total": round(total_c), "hand_total": round(total_h),
            "ratio": round(total_c / total_h, 2), "ratio_without_subscripts": round((total_c - subs) / total_h, 2),
            "a_decision": round(sum(cairn.values()) / max(made[0], 1), 1)}


def table(c: Counter, games: int) -> dict:
    """{where: {what: bytecodes a playout}}."""
    out: dict = {}
    for (place, what), k in c.items():
        out.setdefault(place, {}).setdefault(what, 0)
        out[place][what] += round(k / games)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"default: all of {', '.join(PLAYERS)}")
    ap.add_argument("--games", dest="n", type=int, default=20, help="playouts (default 20)")
    a = ap.parse_args(argv)
    unknown = [g for g in a.games if g not in PLAYERS]
    if unknown or a.n < 1:
        ap.error(f"unknown game {unknown[0]!r} (expected one of {', '.join(PLAYERS)})" if unknown
                 else "--games takes a positive number")
    for game in a.games or list(PLAYERS):
        r = report(game, a.n)
        print(f"{game} ({r['players']} players, {r['games']} playouts): bytecodes a playout")
        for who in ("cairn", "hand") if "hand" in r else ("cairn",):
            for place, kinds in sorted(r[who].items()):
                row = ", ".join(f"{k} {v:,}" for k, v in sorted(kinds.items()))
                print(f"  {who:6} {place:7} {sum(kinds.values()):>10,}   ({row})")
        print(f"  cairn: {r['a_decision']:,} a decision")
        if "hand" in r:
            print(f"  cairn {r['cairn_total']:,}, hand-written {r['hand_total']:,}: {r['ratio']}x; "
                  f"with every subscript of the rules and the engine free: {r['ratio_without_subscripts']}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
