"""The floor under any OpenSpiel adapter: how fast a pyspiel Python game that does no work
at all plays, beside OpenSpiel's own pure-Python Kuhn poker.

OpenSpiel calls a Python game through its C++ trampolines (current_player, legal actions,
chance outcomes, apply_action, is_terminal, returns) several times a node. A game that
answers each call with a constant, in Kuhn poker's shape (a chance node for each card,
two decisions), costs only those calls: no adapter, however thin, and no rules engine,
however fast, can play Kuhn poker through pyspiel faster than this. Its ratio to
OpenSpiel's Kuhn poker is the most any adapter can reach.

Usage: python3 tools/bench_adapter_floor.py [--games N] [--rounds R]   (needs open_spiel)
"""
from __future__ import annotations

import argparse
import random
import sys
import time

try:
    import pyspiel
    import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
except ImportError:
    sys.exit("needs OpenSpiel: pip install open_spiel")

from spiel_playout import random_playout   # noqa: E402  (tools/, this script's folder)

_TYPE = pyspiel.GameType(
    short_name="cairn_floor_kuhn_shape", long_name="A game that does nothing, in Kuhn poker's shape",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2, provides_information_state_string=False,
    provides_information_state_tensor=False, provides_observation_string=False,
    provides_observation_tensor=False, parameter_specification={})
_INFO = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=3, num_players=2, min_utility=-2.0,
                         max_utility=2.0, utility_sum=0.0, max_game_length=4)
_DEAL = ([(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)], [(0, 0.5), (1, 0.5)])   # the first card, the second


class FloorGame(pyspiel.Game):
    def __init__(self, params: dict | None = None):
        super().__init__(_TYPE, _INFO, params or {})

    def new_initial_state(self) -> "FloorState":
        return FloorState(self)


class FloorState(pyspiel.State):
    """Two chance nodes, then two decisions; every answer a constant."""

    def __init__(self, game: FloorGame):
        super().__init__(game)
        self.k = 0

    def current_player(self) -> int:
        if self.k < 2:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if self.k >= 4 else self.k % 2

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _DEAL[self.k]

    def _apply_action(self, action: int) -> None:
        self.k += 1

    def is_terminal(self) -> bool:
        return self.k >= 4

    def returns(self) -> list[float]:
        return [1.0, -1.0] if self.k >= 4 else [0.0, 0.0]

    def __str__(self) -> str:
        return str(self.k)


def rate(name: str, games: int, rounds: int) -> float:
    """Returns playouts per CPU-second, the best of `rounds` turns."""
    game, rnd = pyspiel.load_game(name), random.Random(5)
    random_playout(game, rnd)
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(games):
            random_playout(game, rnd)
        best = min(best, time.process_time() - start)
    return games / max(best, 1e-9)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    pyspiel.register_game(_TYPE, FloorGame)
    rates = {}
    for _ in range(a.rounds):            # in turns, so noise falls on both alike
        for name in ("cairn_floor_kuhn_shape", "python_kuhn_poker"):
            rates[name] = max(rates.get(name, 0.0), rate(name, a.games, 1))
    floor, kuhn = rates["cairn_floor_kuhn_shape"], rates["python_kuhn_poker"]
    print(f"a game that does nothing, Kuhn's shape  {floor:10.1f} playouts/s")
    print(f"OpenSpiel python_kuhn_poker             {kuhn:10.1f} playouts/s")
    print(f"the most any adapter can reach: {floor / kuhn:.2f}x OpenSpiel's Kuhn poker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
