"""UCT search over the state API, determinized for hidden information (ISMCTS, single
observer): every playout starts from a fresh sample of what the seat cannot see, so the
bot never reads the true hidden state; one tree is shared by all samples, and a child's
exploration term counts how often it was available (Cowling, Powley and Whitehouse 2012).

Playouts are random and cut after `depth` decisions (0: played to the end), the position
then rated by the game's heuristic (bots/rating.py). Decisions with one option are played
without search. Seeded: the same seed and position give the same move.
"""
from __future__ import annotations

import math

from ..engine import rng
from ..engine.game import GameState
from ..engine.vm import resume
from .base import SamplingBot
from .rating import forced, rewards

PLAYOUT_LIMIT = 100_000     # decisions in one playout, a guard against a game that never ends


class _Node:
    __slots__ = ("children", "visits", "value", "avail", "player")

    def __init__(self, player: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0          # sum of rewards of `player`, who chose the move into here
        self.avail = 1
        self.player = player


class MctsAgent(SamplingBot):
    """Determinized UCT with a budget of playouts a move: `mcts:500`, options
    `depth=D` (decisions a playout runs before it is rated; 0 to the end) and `c=C`
    (exploration constant), e.g. `mcts:200:depth=40:c=0.7`."""

    name = "mcts"

    def __init__(self, seed: int, playouts: int = 200, depth: int = 30, c: float = 0.7):
        if playouts < 1 or depth < 0 or c < 0:
            raise ValueError(f"mcts needs playouts >= 1, depth >= 0, c >= 0; got {playouts}, {depth}, {c}")
        super().__init__(seed)
        self.playouts, self.depth, self.c = int(playouts), int(depth), float(c)

    def step(self, state: GameState) -> int:
        """Returns the option with the most visits after the playout budget is spent."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        root = _Node(seat)
        deal = self.deal(state, seat)        # what the samples of this position share
        for _ in range(self.playouts):
            self._playout(root, deal.draw(self._d))
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value, -kv[0]))
        return best[0]

    def _playout(self, root: _Node, det: GameState) -> None:
        """Descends the tree on one sample, plays on at random and backs the rewards up.
        A sample is the bot's own copy and its moves are legal by construction, so they
        go to the VM's `resume` without the state API's checks of a caller's input."""
        path = self._descend(root, det)
        g, d, r, steps = det.game, det.d, self._d, 0
        limit = min(self.depth or PLAYOUT_LIMIT, PLAYOUT_LIMIT)   # decisions of more than one option
        while not d["terminal"] and steps < limit:
            k = len(d["pending"]["options"])
            if k > 1:
                resume(g, d, rng.below(r, k))
                steps += 1
            else:
                resume(g, d, 0)
        reward = rewards(det)
        for node in path:
            node.visits += 1
            node.value += reward[node.player]

    def _descend(self, node: _Node, det: GameState) -> list[_Node]:
        """Selects down the tree (UCB over the children legal in this sample) and adds one
        new child; returns the nodes passed."""
        path: list[_Node] = []
        g, d, r, c = det.game, det.d, self._d, self.c
        log, sqrt = math.log, math.sqrt
        while True:
            forced(det)
            if d["terminal"]:
                return path
            pending = d["pending"]
            k = len(pending["options"])
            kids = node.children
            untried = [a for a in range(k) if a not in kids]
            if untried:
                for a in range(k):
                    if a in kids:
                        kids[a].avail += 1
                a = untried[rng.below(r, len(untried))]
                kids[a] = child = _Node(pending["player"])
                resume(g, d, a)
                path.append(child)
                return path
            best, top = 0, None
            for a in range(k):
                n = kids[a]
                n.avail += 1
                u = n.value / n.visits + c * sqrt(log(n.avail) / n.visits)     # UCB1
                if top is None or u > top:
                    best, top = a, u
            resume(g, d, best)
            node = kids[best]
            path.append(node)
