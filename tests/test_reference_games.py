"""Cairn's tic-tac-toe, Connect Four and Pig against plain hand-written Python versions
(tools/reference_games.py): the same move sequences give the same legal moves and the same
result, and random play gives the outcome frequencies the references give (for
tic-tac-toe, the exact ones from the whole game tree)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import reference_games as ref  # noqa: E402

_GAMES: dict = {}


def _game(gid: str):
    if gid not in _GAMES:
        _GAMES[gid] = load_game(gid)
    return _GAMES[gid]


def _labels(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def _result(state) -> int:
    r = state.returns()
    return ref.DRAW if r[0] == r[1] else (0 if r[0] > r[1] else 1)


@pytest.mark.parametrize("gid,make,label", [
    ("tic-tac-toe", ref.TicTacToe, "cell {}"),
    ("connect-four", ref.ConnectFour, "column {}"),
])
def test_same_moves_same_game(gid, make, label):
    """200 random move sequences played in both: at every step the same player moves and
    the same moves are legal, and the games end at the same move with the same winner."""
    g = _game(gid)
    rnd = random.Random(7)
    for i in range(200):
        state, mine = g.new_initial_state(2, i), make()
        while not mine.done:
            if len(mine.legal()) == 1:  # a choice of one is not asked: Cairn plays it
                mine.play(mine.legal()[0])
                continue
            assert not state.is_terminal()
            assert state.current_player() == mine.player
            moves = mine.legal()
            assert _labels(state) == [label.format(m) for m in moves]
            k = rnd.randrange(len(moves))
            state.apply_action(state.legal_actions()[k])
            mine.play(moves[k])
        assert state.is_terminal()
        assert _result(state) == mine.winner


def _frequencies(results: list[int]) -> list[float]:
    return [results.count(r) / len(results) for r in (0, 1, ref.DRAW)]


def _cairn_random_results(gid: str, games: int) -> list[int]:
    g, rnd, out = _game(gid), random.Random(11), []
    for i in range(games):
        state = g.new_initial_state(2, 1000 + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
        out.append(_result(state))
    return out


def test_tic_tac_toe_random_outcomes_match_the_game_tree():
    """Uniformly random tic-tac-toe: X wins 58.5%, O 28.8%, draws 12.7% (whole tree)."""
    exact = ref.tic_tac_toe_outcomes()
    assert abs(sum(exact) - 1) < 1e-9 and 0.58 < exact[0] < 0.59
    seen = _frequencies(_cairn_random_results("tic-tac-toe", 3000))
    for s, e in zip(seen, exact):
        assert abs(s - e) < 0.03, (seen, exact)  # 3 standard errors at 3,000 games


def test_pig_random_outcomes_match_the_reference():
    """Pig has a die the rules roll, so moves alone do not fix a game: compare the share
    of games the first player wins under random play (Cairn 600, reference 6,000 games)."""
    rnd = random.Random(3)
    mine = _frequencies([ref.random_playout(ref.Pig(rnd), rnd) for _ in range(6000)])
    seen = _frequencies(_cairn_random_results("pig", 600))
    assert seen[2] == mine[2] == 0
    assert abs(seen[0] - mine[0]) < 0.07, (seen, mine)  # about 3.5 standard errors


def test_connect_four_checking_every_line_plays_the_same_games():
    """The hand-written Connect Four that checks all 69 lines after each disc (the plain
    encoding's way, timed beside it by tools/bench_peers.py) ends every game as the one
    that looks only through the disc: same moves, same winner, same length."""
    assert len(ref.ConnectFourEveryLine.LINES) == 69
    for seed in range(200):
        a, b = ref.ConnectFour(), ref.ConnectFourEveryLine()
        ra, rb = random.Random(seed), random.Random(seed)
        assert ref.random_playout(a, ra) == ref.random_playout(b, rb)
        assert a.moves == b.moves and a.cols == b.cols
