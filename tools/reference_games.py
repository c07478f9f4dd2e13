"""Plain hand-written Python versions of three small games, the yardstick for Cairn's speed
(tools/bench_peers.py) and a second opinion on its rules (tests/test_reference_games.py).

Each is written the way a Python programmer would write it for speed without tricks:
a list for the board, the lines precomputed, no classes beyond the state. They share one
small interface: `legal()` (the moves, in Cairn's option order), `play(move)`, `winner`
(-1 while none; `DRAW` for a draw) and `done`.
"""
from __future__ import annotations

import random
from typing import Iterator

DRAW = 2


class TicTacToe:
    """Moves are cells 1..9, row by row; X (player 0) moves first."""

    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    def __init__(self) -> None:
        self.board = [-1] * 9
        self.player = 0
        self.moves = 0
        self.winner = -1
        self.done = False

    def legal(self) -> list[int]:
        return [i + 1 for i, v in enumerate(self.board) if v < 0]

    def play(self, cell: int) -> None:
        b, p = self.board, self.player
        b[cell - 1] = p
        self.moves += 1
        for x, y, z in self.LINES:
            if b[x] == p and b[y] == p and b[z] == p:
                self.winner, self.done = p, True
                return
        if self.moves == 9:
            self.winner, self.done = DRAW, True
        self.player = 1 - p

    def copy(self) -> "TicTacToe":
        t = TicTacToe.__new__(TicTacToe)
        t.board, t.player, t.moves, t.winner, t.done = self.board[:], self.player, self.moves, self.winner, self.done
        return t


class ConnectFour:
    """Moves are columns 1..7 of a 7x6 grid; discs fall to the lowest empty row."""

    COLS, ROWS = 7, 6

    def __init__(self) -> None:
        self.cols: list[list[int]] = [[] for _ in range(self.COLS)]
        self.player = 0
        self.moves = 0
        self.winner = -1
        self.done = False

    def legal(self) -> list[int]:
        return [c + 1 for c, col in enumerate(self.cols) if len(col) < self.ROWS]

    def _at(self, c: int, r: int) -> int:
        if 0 <= c < self.COLS and 0 <= r < len(self.cols[c]):
            return self.cols[c][r]
        return -1

    def play(self, column: int) -> None:
        c, p = column - 1, self.player
        self.cols[c].append(p)
        r = len(self.cols[c]) - 1
        self.moves += 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                k = 1
                while self._at(c + sign * k * dc, r + sign * k * dr) == p:
                    run += 1
                    k += 1
            if run >= 4:
                self.winner, self.done = p, True
                return
        if self.moves == self.COLS * self.ROWS:
            self.winner, self.done = DRAW, True
        self.player = 1 - p


class ConnectFourEveryLine(ConnectFour):
    """Connect Four checking every one of the 69 lines of four after each disc, as the
    plain Cairn encoding (tests/fixtures/games/connect-four-plain) does, where the class
    above looks only along the lines through the disc: the cost of that way of checking
    in hand-written Python, beside the cost of the same choice in Cairn."""

    LINES = [[(c + k * dc, r + k * dr) for k in range(4)]
             for c in range(7) for r in range(6) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
             if 0 <= c + 3 * dc < 7 and 0 <= r + 3 * dr < 6]

    def play(self, column: int) -> None:
        c, p = column - 1, self.player
        self.cols[c].append(p)
        self.moves += 1
        won = False
        for line in self.LINES:
            if len([1 for x, y in line if self._at(x, y) == p]) == 4:
                won = True
        if won:
            self.winner, self.done = p, True
        elif self.moves == self.COLS * self.ROWS:
            self.winner, self.done = DRAW, True
        else:
            self.player = 1 - p


class Pig:
    """Moves are "roll" and "hold"; a roll of 1 loses the turn's points; 100 wins.
    The die is rolled by the game from its own random source (a chance event)."""

    TARGET = 100

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.scores = [0, 0]
        self.turn = 0
        self.player = 0
        self.winner = -1
        self.done = False

    def legal(self) -> list[str]:
        return ["roll", "hold"]

    def play(self, move: str) -> None:
        if move == "hold":
            self.scores[self.player] += self.turn
            if self.scores[self.player] >= self.TARGET:
                self.winner, self.done = self.player, True
                return
            self.turn, self.player = 0, 1 - self.player
            return
        n = self.rng.randint(1, 6)
        if n == 1:
            self.turn, self.player = 0, 1 - self.player
        else:
            self.turn += n


def random_playout(game, rng: random.Random) -> int:
    """Plays uniformly random moves to the end; returns the winner (or DRAW)."""
    while not game.done:
        moves = game.legal()
        game.play(moves[rng.randrange(len(moves))])
    return game.winner


def tic_tac_toe_outcomes() -> tuple[float, float, float]:
    """The exact chances of X winning, O winning and a draw under uniformly random play,
    by walking the whole game tree (5,478 positions, every move equally likely)."""
    def walk(t: TicTacToe) -> Iterator[tuple[float, int]]:
        moves = t.legal()
        for m in moves:
            u = t.copy()
            u.play(m)
            if u.done:
                yield 1 / len(moves), u.winner
            else:
                for w, r in walk(u):
                    yield w / len(moves), r
    totals = [0.0, 0.0, 0.0]
    for w, r in walk(TicTacToe()):
        totals[r] += w
    return totals[0], totals[1], totals[2]
