"""An RLlib ``MultiAgentEnv`` over the engine's vector env (``game.vector_env``): the
learning seats of ``games`` games stepped together in C++ are the agents
``game_0`` .. ``game_{n-1}``, usually mapped to one shared policy, and the other seats are
played by diabolo's C++ bots. One env of an RLlib env runner thus steps many games at
the engine's speed. ``pip install "diabolo[rllib]"``.

An RLlib episode is one deal of every game: agent ``game_i`` is terminated (or
truncated) when game ``i`` ends, and ``__all__`` when every game has ended. With
``action_mask=True`` (the default) each observation is a dict of ``observations`` (the
seat's observation tensor) and ``action_mask`` (1.0 for each legal action), the form
RLlib's action-masking module (``ActionMaskingTorchRLModule`` of RLlib's examples)
takes; with ``False`` it is the tensor alone. Every action of the action space is a valid
input, as RLlib's checker expects: an illegal one is penalised by default
(``illegal="penalise"`` of :func:`diabolo.envs.vector.vector_env`). RLlib builds
the env from a config dict: ``game``, ``games`` and the settings of
:class:`diabolo.envs.gymnasium.DiaboloVectorEnv`, the rest the game's options.

>>> from diabolo.envs.rllib import DiaboloMultiAgentEnv
>>> env = DiaboloMultiAgentEnv({"game": "schacht", "games": 4, "players": 4, "opponents": "heuristic"})
>>> observations, infos = env.reset(seed=1)
>>> sorted(observations), sorted(observations["game_0"])
(['game_0', 'game_1', 'game_2', 'game_3'], ['action_mask', 'observations'])
>>> actions = {agent: int(seen["action_mask"].argmax()) for agent, seen in observations.items()}
>>> observations, rewards, terminateds, truncateds, infos = env.step(actions)
>>> terminateds["__all__"]
False
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from diabolo.envs.gymnasium import _Deals
from diabolo.errors import OptionError

__all__ = ["DiaboloMultiAgentEnv"]

SETTINGS = ("opponents", "seat", "threads", "reward", "illegal", "penalty", "idle_limit", "max_steps", "claims")


class DiaboloMultiAgentEnv(MultiAgentEnv):
    """The learning seats of ``config["games"]`` games of ``config["game"]`` as RLlib
    agents ``game_i``; see the module's description.

    >>> from diabolo.envs.rllib import DiaboloMultiAgentEnv
    >>> env = DiaboloMultiAgentEnv({"game": "duvelen", "games": 2, "players": 2, "action_mask": False})
    >>> env.observation_spaces["game_0"].shape, env.action_spaces["game_0"]
    ((439,), Discrete(204))
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # RLlib's is untyped
        given = dict(config or {})
        game = given.pop("game", None)
        games = given.pop("games", 1)
        self._masked = bool(given.pop("action_mask", True))
        if not isinstance(game, str):
            raise OptionError(f'the config names its game, e.g. {{"game": "schacht"}}, got {game!r}')
        settings = {"illegal": "penalise", **{name: given.pop(name) for name in SETTINGS if name in given}}
        self._deals = _Deals(game, None, given, settings)
        self.game = self._deals.game
        self._env = self.game.vector_env(games, seed=0, **settings)  # checks every setting
        self._games = self._env.games
        self._names = [f"game_{index}" for index in range(self._games)]
        self.possible_agents = list(self._names)
        self.agents = list(self._names)
        tensor = self._deals.observation_space()
        actions = self._env.num_actions
        space: spaces.Space[Any] = tensor
        if self._masked:
            space = spaces.Dict({"action_mask": spaces.Box(0.0, 1.0, (actions,), np.float32), "observations": tensor})
        self.observation_spaces = {agent: space for agent in self._names}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self._names}
        self._ended = np.zeros(self._games, dtype=bool)
        self._masks = np.zeros((self._games, actions), dtype=bool)
        self._draws = np.random.default_rng()  # the first seed when none is given

    def reset(  # type: ignore[override]  # RLlib's MultiAgentEnv changes gymnasium.Env's reset
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        """A new deal of every game: from ``seed``, or the next deals of the last seed."""
        deal, _ = self._deals.next(seed, self._draws)
        self._env = self.game.vector_env(self._games, seed=deal, **self._deals.settings)
        observations, masks = self._env.reset()
        self._ended[:] = False
        self.agents = list(self._names)
        return self._observations(observations, masks, range(self._games)), {}

    def step(  # type: ignore[override]  # RLlib's MultiAgentEnv changes gymnasium.Env's step
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """The actions of the agents whose games still play; a game that ended plays its
        lowest legal action until the episode's end (nobody sees it)."""
        actions = self._masks.argmax(axis=1)
        for agent, action in action_dict.items():
            index = self._index(agent)
            if self._ended[index]:
                raise OptionError(f"{agent}'s game has ended in this episode: it takes no more actions")
            actions[index] = int(action)
        live = np.flatnonzero(~self._ended)
        observations, masks, rewards, terminated, truncated = self._env.step(actions)
        ended_now = live[(terminated | truncated)[live]]
        self._ended[ended_now] = True
        playing = live[~self._ended[live]]
        agents = [self._names[index] for index in live]
        done = bool(self._ended.all())
        seen = self._observations(observations, masks, live)
        self.agents = [self._names[index] for index in playing]
        return (
            seen,
            {agent: float(rewards[index]) for agent, index in zip(agents, live)},
            {**{agent: bool(terminated[index]) for agent, index in zip(agents, live)}, "__all__": done},
            {**{agent: bool(truncated[index]) for agent, index in zip(agents, live)}, "__all__": done},
            {},
        )

    def _index(self, agent: Any) -> int:
        if (
            not isinstance(agent, str)
            or not agent.startswith("game_")
            or not agent[5:].isdigit()
            or int(agent[5:]) >= self._games
        ):
            raise OptionError(f"the agents are game_0..game_{self._games - 1}, got {agent!r}")
        return int(agent[5:])

    def _observations(self, observations: npt.NDArray[Any], masks: npt.NDArray[np.bool_], rows: Any) -> MultiAgentDict:
        """The observation of each agent in ``rows``, and the masks kept for the next step."""
        self._masks = masks.copy()
        if not self._masked:
            return {self._names[index]: observations[index].copy() for index in rows}
        floats = masks.astype(np.float32)
        return {
            self._names[index]: {"action_mask": floats[index], "observations": observations[index].copy()}
            for index in rows
        }
