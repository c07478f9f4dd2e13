"""Every Cairn game as a PettingZoo AEC environment (extra `pettingzoo`), with action masks.

    from interpreter.adapters.pettingzoo import env
    e = env("my-game", players=3)         # a game id or folder
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        e.step(action)

Agents are "player_0" .. "player_{n-1}"; the agent to act is the seat Cairn asks. The
action space is Discrete(max_actions), an action an option's index (adapters/common.py);
`action_mask` marks the legal ones for the agent to act (all zero for the others). The
observation is a fixed-size vector: each leaf of the seat's own Cairn view (what that
seat may see, the log left out) hashed into one of `obs_size` slots, as counts; the same
view as text is in `info["view"]` after `last()`. Rewards: 1 to each winner at the end.
"""
from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:   # the extra is missing: say which
    raise ImportError("the PettingZoo adapter needs the pettingzoo extra: pip install 'cairn[pettingzoo]'") from err

from ..engine import rng
from ..batch import compiled
from .common import ACTION_BOUND, hashed_features, legal, observation_text, players_of

OBS_SIZE = 512


def env(game: str, players: int | None = None, variants: tuple[str, ...] = (), **kwargs: Any) -> AECEnv:
    """Returns the environment of a game id or folder, wrapped as PettingZoo's classic
    games are (actions in range, calls in order)."""
    e = raw_env(game, players, variants, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's own name for the unwrapped class
    """A Cairn game seen through PettingZoo's agent-environment-cycle API."""

    def __init__(self, game: str, players: int | None = None, variants: tuple[str, ...] = (),
                 max_actions: int = ACTION_BOUND, obs_size: int = OBS_SIZE, render_mode: str | None = None):
        super().__init__()
        self.game = compiled(game, tuple(variants))
        self.n = players_of(self.game, players)
        self.max_actions, self.obs_size, self.render_mode = max_actions, obs_size, render_mode
        self.metadata = {"render_modes": ["ansi"], "name": f"cairn_{self.game.id.replace('-', '_')}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self._spaces = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(max_actions,), dtype=np.int8)})
        self._actions = spaces.Discrete(max_actions)
        self._master, self._episode = 0, 0
        self.state = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """Returns the fixed observation space (the same for every agent)."""
        return self._spaces

    def action_space(self, agent: str) -> spaces.Discrete:
        """Returns Discrete(max_actions): an option's index."""
        return self._actions

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a game: seed S gives the same games, in order, on every reset after it."""
        if seed is not None:
            self._master, self._episode = int(seed), 0
        self.state = self.game.new_initial_state(self.n, rng.derive(self._master, self._episode), log=False)
        self._episode += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _select(self) -> None:
        p = self.state.current_player()
        self.agent_selection = self.possible_agents[p] if p >= 0 else self.agents[0]

    def observe(self, agent: str) -> dict:
        """Returns the agent's hashed view and its action mask."""
        seat = self._seat(agent)
        mask = np.zeros(self.max_actions, np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[legal(self.state, self.max_actions)] = 1
        view = observation_text(self.state, seat)
        self.infos.setdefault(agent, {})["view"] = view
        return {"observation": hashed_features(view, self.obs_size), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Plays the selected agent's option (None once the agent is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(legal(self.state, self.max_actions)):
            raise ValueError(f"expected a legal option of {agent} (see action_mask), got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        """Returns what a spectator sees, as text (render_mode 'ansi')."""
        if self.render_mode != "ansi":
            return None
        return self.state.observation_string(None)

    def close(self) -> None:
        """Nothing to release."""
