"""Every Cairn game as a PettingZoo AEC environment (extra `pettingzoo`), with action masks.

    from interpreter.adapters.pettingzoo import env
    e = env("my-game", players=3)         # a game id or folder
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        e.step(action)

Agents are "player_0" .. "player_{n-1}"; the agent to act is the seat Cairn asks. The
action space is Discrete(the game's stable action ids, engine/action_ids.py; an option
that is a list is chosen an atom at a time, the same agent acting again), or with
`actions="options"` Discrete(max_actions) of option indices; `action_mask` marks the
legal ones for the agent to act (all zero for the others). The observation is the
seat's own view as a fixed-shape float32 tensor (engine/tensor.py), or with
`observation="hashed"` each leaf of that view hashed into `obs_size` slots; the view as
text is in `info["view"]` after `last()`. Rewards: the game's payoffs at the end.
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
from .common import ACTION_BOUND, hashed_features, id_step, layouts, legal, mode_of, observation_text, players_of

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
                 max_actions: int = ACTION_BOUND, obs_size: int = OBS_SIZE, render_mode: str | None = None,
                 actions: str = "ids", observation: str = "tensor"):
        super().__init__()
        self.game = compiled(game, tuple(variants))
        self.n = players_of(self.game, players)
        if observation not in ("tensor", "hashed"):
            raise ValueError(f"expected observation 'tensor' or 'hashed', got {observation!r}")
        self.ids, self.hashed = mode_of(actions) == "ids", observation == "hashed"
        self.space, self.encoder = layouts(self.game, self.n)
        self.render_mode, self.prefix = render_mode, ()
        self.max_actions = self.space.size if self.ids else max_actions
        self.obs_size = obs_size if self.hashed else self.encoder.size
        low = 0.0 if self.hashed else -np.inf
        self.metadata = {"render_modes": ["ansi"], "name": f"cairn_{self.game.id.replace('-', '_')}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self._spaces = spaces.Dict({
            "observation": spaces.Box(low=low, high=np.inf, shape=(self.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.max_actions,), dtype=np.int8)})
        self._actions = spaces.Discrete(self.max_actions)
        self._master, self._episode = 0, 0
        self.state = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """Returns the fixed observation space (the same for every agent)."""
        return self._spaces

    def action_space(self, agent: str) -> spaces.Discrete:
        """Returns Discrete(the action ids), or of option indices."""
        return self._actions

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a game: seed S gives the same games, in order, on every reset after it."""
        if seed is not None:
            self._master, self._episode = int(seed), 0
        self.state = self.game.new_initial_state(self.n, rng.derive(self._master, self._episode), log=False)
        self.prefix = ()
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
        """Returns the agent's view (tensor or hashed) and its action mask."""
        seat = self._seat(agent)
        mask = np.zeros(self.max_actions, np.int8)
        deciding = not self.state.is_terminal() and self.state.current_player() == seat
        if deciding:
            mask[self._legal()] = 1
        view = observation_text(self.state, seat)
        self.infos.setdefault(agent, {})["view"] = view
        if self.hashed:
            seen = hashed_features(view, self.obs_size)
        else:
            seen = np.zeros(self.obs_size, np.float32)
            self.encoder.fill(seen, self.state.d, seat, len(self.prefix) if deciding else 0)
        return {"observation": seen, "action_mask": mask}

    def _legal(self) -> list[int]:
        """Returns the legal actions of the agent to act (ids, or option indices)."""
        if self.ids:
            return id_step(self.space, self.state, self.prefix).legal()
        return legal(self.state, self.max_actions)

    def step(self, action: int | None) -> None:
        """Plays the selected agent's option (None once the agent is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self._legal():
            raise ValueError(f"expected a legal option of {agent} (see action_mask), got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        option = int(action)
        if self.ids:
            step = id_step(self.space, self.state, self.prefix)
            option = step.answer(int(action))
            if option is None:          # an atom of a list option: the same agent goes on
                self.prefix += (step.atom(int(action)),)
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._accumulate_rewards()
                return
            self.prefix = ()
        self.state.apply_action(option)
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
