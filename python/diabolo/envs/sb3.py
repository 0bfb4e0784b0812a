"""A Stable-Baselines3 ``VecEnv`` over the engine's vector env (``game.vector_env``):
``num_envs`` games stepped together in C++, without the GIL, the other seats played by
diabolo's C++ bots, so that SB3's algorithms collect their rollouts at the engine's
speed rather than through a ``DummyVecEnv`` of one-game Python envs.
``pip install "diabolo[sb3]"``.

sb3-contrib's ``MaskablePPO`` takes it unmodified: ``env_method("action_masks")`` gives
each game's legal actions (int8, 1 for each, as the Gymnasium envs give them). A game
that ends starts its next deal in the same step (the engine's ``autoreset="same_step"``),
as SB3 expects: that step's observation is the next deal's first, and its info holds the
episode's last one as ``terminal_observation``, with ``TimeLimit.truncated`` when the
game was truncated rather than finished. The settings are those of
:class:`diabolo.envs.gymnasium.DiaboloVectorEnv` (``seat=None``: each game's episode
``e`` puts the learner in seat ``e % players``; ``env.seats`` says which).

>>> import numpy as np
>>> from diabolo.envs.sb3 import DiaboloVecEnv
>>> env = DiaboloVecEnv("schacht", num_envs=8, players=4, opponents="heuristic")
>>> env.seed(1)
[1, 2, 3, 4, 5, 6, 7, 8]
>>> observations = env.reset()
>>> observations.shape, env.action_space
((8, 1223), Discrete(77))
>>> masks = np.stack(env.env_method("action_masks"))
>>> observations, rewards, dones, infos = env.step(masks.argmax(axis=1))

Training with ``MaskablePPO`` (``examples/maskable_ppo.py`` trains and measures one)::

    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", DiaboloVecEnv("schacht", num_envs=64, players=4), seed=1)
    model.learn(100_000)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from diabolo.envs.gymnasium import RENDER_MODES, _Deals, _drawn, table_image
from diabolo.errors import OptionError

__all__ = ["DiaboloVecEnv"]


class _GameView:
    """What ``get_attr`` and ``env_method`` reach of game ``index``: its render mode, its
    legal actions and its picture."""

    def __init__(self, env: DiaboloVecEnv, index: int) -> None:
        self._env = env
        self._index = index

    @property
    def render_mode(self) -> str | None:
        """The env's render mode: None, "ansi" or "rgb_array"."""
        return self._env._render

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The game's legal actions now, 1 for each."""
        row: npt.NDArray[np.int8] = self._env.action_masks()[self._index]
        return row

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The game's table, as the render mode draws it."""
        return self._env.render_game(self._index)


class DiaboloVecEnv(VecEnv):
    """``num_envs`` games of ``game`` as one Stable-Baselines3 ``VecEnv``, one learning seat
    in each; the settings are those of :class:`diabolo.envs.gymnasium.DiaboloVectorEnv`,
    and ``observations="uint8"`` gives byte observations (``game.vector_env``'s).
    ``seed(s)`` deals game ``i``'s episode ``e`` from ``derive_seed(derive_seed(s, i), e)``
    at the next ``reset``, as the engine's vector env deals them (SB3 hands game ``i`` the
    seed ``s + i``; one seed serves all the games here). ``set_attr`` is refused: the games
    share their settings.

    >>> from diabolo.envs.sb3 import DiaboloVecEnv
    >>> env = DiaboloVecEnv("duvelen", num_envs=2, players=2, opponents="greedy", seat=None)
    >>> env.seed(3)[0], env.reset().shape, env.seats.tolist()
    (3, (2, 439), [0, 0])
    """

    metadata = {"render_modes": RENDER_MODES}

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        opponents: Any = "random",
        seat: int | None = 0,
        threads: int | None = None,
        reward: str = "score",
        illegal: str = "penalise",
        penalty: float = -1.0,
        idle_limit: int = 8,
        max_steps: int | None = None,
        claims: int | None = None,
        observations: str = "float32",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        settings = {
            "opponents": opponents,
            "seat": seat,
            "threads": threads,
            "reward": reward,
            "illegal": illegal,
            "penalty": penalty,
            "idle_limit": idle_limit,
            "max_steps": max_steps,
            "claims": claims,
            "observations": observations,
            "autoreset": "same_step",
        }
        self._deals = _Deals(game, render_mode, options, settings)
        self.game = self._deals.game
        self._env = self.game.vector_env(num_envs, seed=0, **settings)  # checks every setting
        self._render = render_mode
        self._views = [_GameView(self, index) for index in range(num_envs)]
        self._masks = np.zeros((num_envs, self._env.num_actions), dtype=np.int8)
        self._np_random = np.random.default_rng()
        space: spaces.Space[Any] = self._deals.observation_space()
        if observations == "uint8":
            space = spaces.Box(0, 255, (self._env.observation_size,), dtype=np.uint8)
        super().__init__(num_envs, space, spaces.Discrete(self._env.num_actions))

    @property
    def seats(self) -> npt.NDArray[np.int32]:
        """Per game, the learner's seat in its current episode."""
        seats: npt.NDArray[np.int32] = self._env.seats.copy()
        return seats

    def reset(self) -> npt.NDArray[Any]:
        """Every game anew: from the seed given to ``seed()``, or the next deals of the last
        seed."""
        given = self._seeds[0]
        deal, _ = self._deals.next(given, self._np_random)
        self._reset_seeds()
        self._reset_options()
        self._env = self.game.vector_env(self.num_envs, seed=deal, **self._deals.settings)
        observations, masks = self._env.reset()
        self._masks = masks.astype(np.int8)
        first: npt.NDArray[Any] = observations.copy()
        return first

    def step_async(self, actions: npt.ArrayLike) -> None:
        """Starts the step on the engine's threads and returns at once."""
        self._env.send(np.asarray(actions, dtype=np.int64).reshape(self.num_envs))

    def step_wait(self) -> VecEnvStepReturn:
        """Waits for the step: ``(observations, rewards, dones, infos)``."""
        observations, masks, rewards, terminated, truncated = self._env.recv()
        self._masks = masks.astype(np.int8)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        dones = terminated | truncated
        for index in np.flatnonzero(dones):
            infos[index] = {
                "terminal_observation": self._env.final_observations[index].copy(),
                "TimeLimit.truncated": bool(truncated[index]),
            }
        return observations.copy(), rewards.copy(), dones, infos

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of every game now, ``num_envs x num_actions`` int8."""
        return self._masks

    def render_game(self, index: int) -> str | npt.NDArray[np.uint8] | None:
        """Game ``index``'s table as the render mode draws it (None without one)."""
        return _drawn(self._env, index, self._render)

    def get_images(self) -> Sequence[npt.NDArray[np.uint8] | None]:
        """Each game's table as an image (render mode "rgb_array"), for ``render()``."""
        if self._render != "rgb_array":
            raise OptionError(f'images need render_mode="rgb_array", the env has {self._render!r}')
        return [table_image(self._env.render(index)) for index in range(self.num_envs)]

    def close(self) -> None:
        """Nothing to release: the engine's threads stop with the env."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of each game (``render_mode``, ``action_masks``, ``render``)."""
        return [getattr(self._views[index], attr_name) for index in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Refused: the games share their settings; make a new env with others."""
        raise OptionError(f"the games of a DiaboloVecEnv share their settings: cannot set {attr_name!r} of some")

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Calls the method of each game (``action_masks``, ``render``)."""
        if method_name == "action_masks" and not method_args and not method_kwargs:
            # MaskablePPO asks at every step: the rows of the one array, not a call per game.
            masks = self.action_masks()
            return list(masks) if indices is None else [masks[index] for index in self._get_indices(indices)]
        return [
            getattr(self._views[index], method_name)(*method_args, **method_kwargs)
            for index in self._get_indices(indices)
        ]

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]], indices: VecEnvIndices = None
    ) -> list[bool]:
        """No game is a wrapped Gymnasium env."""
        return [False for _ in self._get_indices(indices)]
