"""Big Foot written by hand in plain Python: the yardstick for Cairn's speed on a real game
(tools/bench_peers.py) and a second, independent reading of definitions/big-foot
(tests/test_reference_bigfoot.py plays both with the same seed and the same choices).

Written the way a Python programmer writes a game for speed without tricks: spots and
tokens are ints, the board a list of neighbour lists, the walks of each (start, length)
found once, the deck a deque of card kinds. The rules are those of the encoded game (its
readings included: rules.yaml), and so is every detail that decides what the same seed
and the same option indices give:

- The randomness is the engine's (interpreter/engine/rng.py, SplitMix64 seeded by
  `seed_state(seed)`), drawn in the encoded order: the discs shuffled (Setup 2-3), then the
  deck (Setup 4), then a die roll per contender for first player (ties again), then one
  roll per turn that is not lost, and one per Big Foot move (after the PROTECTION
  decisions); a reload shuffles the ten discs where the last one comes out.
- The options are listed in the encoded order: spots by their board number, tokens in
  box order (red, yellow, green, blue; token 1 before 2), a token's destinations by the
  first walk reaching them (depth first, neighbours in board.yaml's edge order), Big
  Foot's routes in that walk order, PROTECTION as "no" then the open tokens. A choice of
  one option is not asked (as the engine plays it); PROTECTION is always asked.
- Places keep the engine's order where it shows: the top of the deck and of Big Foot's
  base is the end of the list; a card returned goes under the deck.

Nothing had to be given up for exact agreement. What is not kept is only what no rule can
see: which of two identical cards or discs is which (the deck holds card kinds, the base
footprint flags), and the log. The engine's step and work budgets (a game that runs away
ends as aborted) have no counterpart here; no Big Foot game comes near them.

Interface (as tools/reference_games.py): `legal()` the options of the decision now,
`play(i)` answers with the i-th, `player`, `done`, `scores`, `winners`, `decisions`.
"""
from __future__ import annotations

import random
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from interpreter.engine.rng import below, seed_state  # noqa: E402  (the engine's SplitMix64)

# ---- the board (definitions/big-foot/board.yaml), spots in board-number order --------
BLUE, FOOT, DOUBLE, SAFE, PLACE, CAVE = range(6)
_SPOTS = [
    ("supply-store", PLACE), ("a1", BLUE), ("a2", FOOT), ("a3", BLUE), ("a4", SAFE), ("a5", BLUE),
    ("a6", BLUE), ("a7", DOUBLE), ("a8", BLUE), ("fork", SAFE), ("b1", FOOT), ("b2", BLUE),
    ("b3", BLUE), ("b4", SAFE), ("b5", BLUE), ("b6", FOOT), ("b7", BLUE), ("cave", CAVE),
    ("c1", FOOT), ("c2", BLUE), ("c3", SAFE), ("c4", BLUE), ("c5", BLUE), ("d1", DOUBLE),
    ("d2", BLUE), ("d3", FOOT), ("d4", BLUE), ("d5", BLUE), ("d6", SAFE), ("d7", BLUE),
    ("d8", FOOT), ("pass", SAFE), ("e1", BLUE), ("e2", FOOT), ("e3", BLUE), ("e4", SAFE),
    ("e5", BLUE), ("e6", BLUE), ("lumber-mill", PLACE), ("f1", DOUBLE), ("f2", BLUE), ("f3", FOOT),
    ("f4", BLUE), ("gold-mine", PLACE), ("g1", BLUE), ("g2", SAFE), ("g3", BLUE), ("g4", FOOT),
    ("g5", BLUE), ("mining-town", PLACE), ("h1", FOOT), ("h2", BLUE), ("h3", SAFE), ("h4", BLUE),
    ("k1", BLUE), ("k2", DOUBLE), ("k3", BLUE), ("k4", FOOT),
]
_EDGES = """a1 a2, a2 a3, a3 a4, a4 a5, a5 a6, a6 a7, a7 a8, supply-store a1, a8 fork, b1 b2, b2 b3,
b3 b4, b4 b5, b5 b6, b6 b7, fork b1, b7 cave, c1 c2, c2 c3, c3 c4, c4 c5, cave c1, d1 d2, d2 d3,
d3 d4, d4 d5, d5 d6, d6 d7, d7 d8, fork d1, c5 pass, d8 pass, e1 e2, e2 e3, e3 e4, e4 e5, e5 e6,
pass e1, e6 lumber-mill, f1 f2, f2 f3, f3 f4, lumber-mill f1, f4 gold-mine, g1 g2, g2 g3, g3 g4,
g4 g5, a4 g1, g5 mining-town, h1 h2, h2 h3, h3 h4, e3 h1, h4 c3, k1 k2, k2 k3, k3 k4, g3 k1, k4 d4"""

SPOT_IDS = [name for name, _ in _SPOTS]
KIND = [kind for _, kind in _SPOTS]
_AT = {name: i for i, name in enumerate(SPOT_IDS)}
ADJ: list[list[int]] = [[] for _ in SPOT_IDS]
for _pair in _EDGES.replace("\n", " ").split(","):
    _a, _b = (_AT[x] for x in _pair.split())
    ADJ[_a].append(_b)        # neighbours in edge order, as the board graph lists them
    ADJ[_b].append(_a)
CAVE_SPOT = _AT["cave"]
SAFE_SPOTS = [s for s, k in enumerate(KIND) if k == SAFE]
SUPPLY, LUMBER, GOLD, MINING = (_AT[x] for x in ("supply-store", "lumber-mill", "gold-mine", "mining-town"))

# ---- the pieces (components.yaml, cards.yaml) ------------------------------------------
TOKEN_IDS = [f"{c}.{i}" for c in ("red", "yellow", "green", "blue") for i in (1, 2)]   # colour = token // 2
NO = -1                       # the PROTECTION decision's "no"
PROT, ROAM, SHELTER, LOSE = -1, -2, -3, -4                 # card kinds; a location card is its spot (>= 0)
DECK = [PROT] * 4 + [ROAM] * 4 + [SHELTER] * 4 + [MINING] * 2 + [SUPPLY] * 2 + [LUMBER] * 2 + [GOLD] * 2 + [LOSE] * 4
DISCS = [True] * 5 + [False] * 5                           # footprint?
BOARD, OUT = -1, -2           # pos of a token: a spot >= 0, or in reserve / box (BOARD-1), or scared

_WALKS: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def walks(start: int, length: int) -> list[tuple[int, ...]]:
    """Every walk of `length` steps from `start` entering no spot twice (the spots entered,
    the end last), depth first in neighbour order; found once per (start, length)."""
    key = (start, length)
    found = _WALKS.get(key)
    if found is None:
        found = []
        path, seen = [], {start}

        def walk(at: int, left: int) -> None:
            for nxt in ADJ[at]:
                if nxt in seen:
                    continue
                path.append(nxt)
                if left == 1:
                    found.append(tuple(path))
                else:
                    seen.add(nxt)
                    walk(nxt, left - 1)
                    seen.discard(nxt)
                path.pop()
        walk(start, length)
        _WALKS[key] = found
    return found


class GameOver(Exception):
    """Raised inside the flow when the game ends (To Play 9, or a stalemate)."""


class BigFoot:
    """One game for `n` players from `seed`; runs to its first decision."""

    def __init__(self, n: int, seed: int) -> None:
        self.n = n
        self.rng = {"rng": seed_state(seed)}
        self.pos = [OUT] * 8                   # token -> spot, or OUT (box, reserve or scared)
        self.owner = [-1] * 8
        self.safe_at = [-1] * 8
        self.covered = [False] * 8             # a PROTECTION card lies over it (this Big Foot move)
        self.occ = [-1] * len(SPOT_IDS)        # spot -> token on it
        self.bf = CAVE_SPOT
        self.turns = [0] * n
        self.lose = [0] * n
        self.held = [0] * n                    # PROTECTION cards kept face up
        self.current = -1
        self.player = 0
        self.options: list = []
        self.pick = 0
        self.decisions = 0
        self.done = False
        self.scores = [0] * n
        self.winners: list[int] = []
        self.reason = ""
        self._flow = self._game()
        self._advance()

    # -- the interface ------------------------------------------------------------------
    def legal(self) -> list:
        return self.options

    def play(self, i: int) -> None:
        self.pick = i
        self.decisions += 1
        self._advance()

    def _advance(self) -> None:
        try:
            next(self._flow)
        except (StopIteration, GameOver):
            self.done = True
            self.options = []

    def _ask(self, p: int, options: list):
        """A decision of player p among options (one option is taken without asking)."""
        if len(options) > 1:
            self.player, self.options = p, options
            yield
            return options[self.pick]
        return options[0]

    # -- queries --------------------------------------------------------------------------
    def roll(self) -> int:
        return below(self.rng, 6) + 1

    def tokens_of(self, p: int) -> list[int]:
        pos, owner = self.pos, self.owner
        return [t for t in range(8) if owner[t] == p and pos[t] >= 0]

    def free_spots(self) -> list[int]:
        occ, bf = self.occ, self.bf
        return [s for s in range(len(occ)) if occ[s] < 0 and s != bf]

    def ends(self, t: int, n: int) -> list[int]:
        """To Play 3, 5, 6: where token t can end a move of n spots (never by Big Foot)."""
        out: list[int] = []
        bf, occ = self.bf, self.occ
        for w in walks(self.pos[t], n):
            e = w[-1]
            if occ[e] < 0 and bf not in w and e not in out:
                out.append(e)
        return out

    def survivors(self) -> int:
        return sum(1 for p in range(self.n) if self.tokens_of(p))

    def place_token(self, t: int, s: int) -> None:
        if self.pos[t] >= 0:
            self.occ[self.pos[t]] = -1
        self.pos[t] = s
        self.occ[s] = t
        o = self.owner[t]
        self.safe_at[t] = self.turns[o] if self.current == o else self.turns[o] + 1

    def end(self, reason: str) -> None:
        self.scores = [1 if self.tokens_of(p) else 0 for p in range(self.n)]
        best = max(self.scores)
        self.winners = [p for p in range(self.n) if self.scores[p] == best]
        self.reason = reason
        raise GameOver

    # -- the flow -------------------------------------------------------------------------
    def _game(self):
        yield from self._setup()
        n = self.n
        while True:
            for i in range(n):
                p = (self.first + i) % n
                if not self.tokens_of(p):
                    continue
                self.turns[p] += 1                 # the turn's start (lost-turn step)
                self.current = p
                if self.lose[p] > 0:
                    self.lose[p] -= 1
                    continue
                moved = yield from self._roll_and_move(p)
                if moved is None:
                    continue
                kind = KIND[moved]                 # To Play 4: the spot landed on acts
                if kind == BLUE:
                    yield from self._draw_card(p)
                elif kind == FOOT:
                    single = all(len(self.tokens_of(q)) <= 1 for q in range(n))
                    yield from self._bigfoot_moves(p, 2 if single else 1)
                elif kind == DOUBLE:
                    yield from self._bigfoot_moves(p, 2)

    def _setup(self):
        """Setup 2-5, To Play 1-2."""
        self.base = list(DISCS)
        _shuffle(self.rng, self.base)
        deck = list(DECK)
        _shuffle(self.rng, deck)
        self.deck = deque(deck)
        self.dispensed: list[bool] = []
        per = 2 if self.n == 2 else 1
        reserve: list[list[int]] = [[] for _ in range(self.n)]
        for t in range(8):
            if t // 2 < per * self.n:
                self.owner[t] = t // 2 // per
                reserve[self.owner[t]].append(t)
        while any(reserve):
            for p in range(self.n):
                waiting = reserve[p]
                if not waiting:
                    continue
                kinds = [t for t in waiting if t % 2 == 0 or t - 1 not in waiting]
                t = yield from self._ask(p, kinds)
                s = yield from self._ask(p, self.free_spots())
                waiting.remove(t)
                self.place_token(t, s)
        contenders = list(range(self.n))
        while len(contenders) > 1:
            best, high = 0, []
            for p in contenders:
                r = self.roll()
                if r > best:
                    best, high = r, [p]
                elif r == best:
                    high.append(p)
            contenders = high
        self.first = contenders[0]

    def _roll_and_move(self, p: int):
        """To Play 3, 5, 6 and 4E; returns the spot landed on, or None."""
        n = self.roll()
        mine = self.tokens_of(p)
        ends = [self.ends(t, n) for t in mine]
        movable = [t for t, e in zip(mine, ends) if e]
        if len(movable) > 1:                   # spot E: a token whose stay is over moves on
            turns, pos, safe_at = self.turns[p], self.pos, self.safe_at
            leaving = [t for t in movable if KIND[pos[t]] == SAFE and turns >= safe_at[t] + 1]
            if leaving:
                movable = leaving
        if not movable:
            if self._stalemate():
                self.end("stalemate")
            return None
        t = yield from self._ask(p, movable)
        dest = yield from self._ask(p, ends[mine.index(t)])
        self.place_token(t, dest)
        return dest

    def _stalemate(self) -> bool:
        on_board = [t for t in range(8) if self.pos[t] >= 0]
        return all(not self.ends(t, k) for t in on_board for k in range(1, 7))

    def _draw_card(self, p: int):
        """Spot A: the top card acts, then goes under the deck (PROTECTION is kept)."""
        c = self.deck.pop()
        if c == PROT:
            self.held[p] += 1
            return
        if c == ROAM:
            self.bf = yield from self._ask(p, self.free_spots())
        elif c == SHELTER:
            free = [s for s in SAFE_SPOTS if self.occ[s] < 0 and s != self.bf]
            if free:
                t = yield from self._ask(p, self.tokens_of(p))
                s = yield from self._ask(p, free)
                self.place_token(t, s)
        elif c == LOSE:
            self.lose[p] += 1
        elif self.occ[c] < 0 and c != self.bf:   # a location card: c is the spot
            pieces = [t for t in range(8) if self.pos[t] >= 0]
            t = yield from self._ask(p, pieces)
            self.place_token(t, c)
        self.deck.appendleft(c)

    def _bigfoot_moves(self, p: int, mult: int):
        """Spots B and C: PROTECTION first, then the roll, the route and the stomps."""
        n = self.n
        covered: list[int] = []
        for i in range(1, n):
            q = (p + i) % n
            while self.held[q] > 0:
                open_ = [t for t in self.tokens_of(q) if not self.covered[t]]
                if not open_:
                    break
                self.player, self.options = q, [NO] + open_   # asked even with one token
                yield
                pick = self.options[self.pick]
                if pick == NO:
                    break
                self.held[q] -= 1
                covered.append(pick)
                self.covered[pick] = True
        steps = self.roll() * mult
        route = yield from self._ask(p, walks(self.bf, steps))
        scared: list[int] = []
        occ, pos = self.occ, self.pos
        for s in route:
            t = occ[s]
            if t < 0 or self.covered[t] or KIND[s] == SAFE:
                continue                       # no token, or no disc (PROTECTION, safety station)
            footprint = self._dispense()
            colour = t // 2
            if not footprint or colour in scared:
                continue
            occ[s], pos[t] = -1, OUT
            scared.append(colour)
            if self.survivors() <= 1:
                self.bf = s
                self.end("one player's tokens remain")
        self.bf = route[-1]
        for t in covered:                      # the cards go back under the deck
            self.covered[t] = False
            self.deck.appendleft(PROT)

    def _dispense(self) -> bool:
        """One disc out of Big Foot's base; the last one out reloads it (To Play 7)."""
        d = self.base.pop()
        self.dispensed.append(d)
        if not self.base:
            self.base, self.dispensed = self.dispensed, []
            _shuffle(self.rng, self.base)
        return d


def _shuffle(d: dict, items: list) -> None:
    """Fisher-Yates on the engine's RNG (interpreter/engine/rng.py `shuffle`)."""
    for i in range(len(items) - 1, 0, -1):
        j = below(d, i + 1)
        items[i], items[j] = items[j], items[i]


def random_playout(game: BigFoot, rnd: random.Random) -> list[int]:
    """Plays uniformly random options to the end; returns the winners."""
    while not game.done:
        game.play(rnd.randrange(len(game.options)))
    return game.winners
