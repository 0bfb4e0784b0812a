"""RLlib: the engine's vector env as the vector env of RLlib's env runners, and an
action-masking PPO module. ``pip install "diabolo[rllib]"``.

RLlib steps many copies of a single-agent env in each env runner
(``num_envs_per_env_runner``); with ``gym_env_vectorize_mode="vector_entry_point"`` it
asks the env class for all of them at once, and :class:`DiaboloRLlibEnv` answers with
one :class:`diabolo.envs.gymnasium.DiaboloVectorEnv`: every game stepped together in C++,
the other seats played by diabolo's C++ bots, and no Python env per game. With
``action_mask=True`` (the default) an observation is a dict of ``observations`` (the
seat's observation tensor) and ``action_mask`` (1.0 for each legal action), which
:class:`ActionMaskingModule` takes: RLlib's default PPO network whose action logits are
masked, so that PPO samples only legal actions.

>>> from diabolo.envs.rllib import DiaboloRLlibEnv
>>> envs = DiaboloRLlibEnv({"game": "schacht", "num_envs": 4, "players": 4, "opponents": "heuristic"})
>>> observations, infos = envs.reset(seed=1)
>>> sorted(observations), observations["observations"].shape
(['action_mask', 'observations'], (4, 1223))
>>> actions = observations["action_mask"].argmax(axis=1)
>>> observations, rewards, terminated, truncated, infos = envs.step(actions)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from diabolo.envs.gymnasium import DiaboloVectorEnv
from diabolo.errors import OptionError

__all__ = ["ActionMaskingModule", "DiaboloRLlibEnv"]

Observations = dict[str, npt.NDArray[np.float32]]


class DiaboloRLlibEnv(DiaboloVectorEnv):
    """A :class:`~diabolo.envs.gymnasium.DiaboloVectorEnv` built from RLlib's env config:
    ``game``, ``num_envs`` (RLlib adds ``num_envs_per_env_runner`` in the env runners'
    ``gym_env_vectorize_mode="vector_entry_point"``, which an env runner needs), ``action_mask``
    (default True: dict observations, see the module's description), the settings of
    ``DiaboloVectorEnv`` and the game's options. Autoreset is Gymnasium's ``NEXT_STEP``,
    as RLlib's env runner expects; RLlib's own keys of the config (its ``EnvContext``) are
    not options.

    >>> from diabolo.envs.rllib import DiaboloRLlibEnv
    >>> envs = DiaboloRLlibEnv({"game": "duvelen", "num_envs": 2, "players": 2, "action_mask": False})
    >>> envs.single_observation_space.shape, envs.single_action_space
    ((439,), Discrete(204))
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        given = dict(config or {})
        game = given.pop("game", None)
        if not isinstance(game, str):
            raise OptionError(f'the env config names its game, e.g. {{"game": "schacht"}}, got {game!r}')
        num_envs = given.pop("num_envs", None)
        if num_envs is None:  # RLlib's "sync" mode would make one per game and wrap them as single envs
            raise OptionError(
                "DiaboloRLlibEnv is a vector env: RLlib gives it num_envs with "
                'env_runners(gym_env_vectorize_mode="vector_entry_point"), or give "num_envs" in its config'
            )
        self._masked = bool(given.pop("action_mask", True))
        super().__init__(game, num_envs, **given)
        if self._masked:
            actions = self._env.num_actions
            self.single_observation_space = spaces.Dict(
                {
                    "action_mask": spaces.Box(0.0, 1.0, (actions,), np.float32),
                    "observations": self.single_observation_space,
                }
            )
            self.observation_space = spaces.Dict(
                {
                    "action_mask": spaces.Box(0.0, 1.0, (num_envs, actions), np.float32),
                    "observations": self.observation_space,
                }
            )

    def reset(  # type: ignore[override]  # the observations are a dict with the mask
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations | npt.NDArray[np.float32], dict[str, Any]]:
        """Every game anew, as :meth:`DiaboloVectorEnv.reset` deals them."""
        observations, info = super().reset(seed=seed, options=options)
        return self._seen(observations), info

    def step(  # type: ignore[override]  # the observations are a dict with the mask
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observations | npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One step of every game, as :meth:`DiaboloVectorEnv.step`."""
        observations, rewards, terminated, truncated, info = super().step(actions)
        return self._seen(observations), rewards, terminated, truncated, info

    def _seen(self, observations: npt.NDArray[np.float32]) -> Observations | npt.NDArray[np.float32]:
        if not self._masked:
            return observations
        return {"action_mask": self._masks.astype(np.float32), "observations": observations}  # a copy


class ActionMaskingModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO network (``DefaultPPOTorchRLModule``, its ``model_config``)
    over the ``observations`` of a dict observation, with every action whose
    ``action_mask`` is 0 given the lowest logit: PPO samples, and learns from, legal
    actions only. ``RLModuleSpec(module_class=ActionMaskingModule)`` asks for it.

    >>> import torch
    >>> from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    >>> from diabolo.envs.rllib import ActionMaskingModule, DiaboloRLlibEnv
    >>> envs = DiaboloRLlibEnv({"game": "schacht", "num_envs": 2, "players": 3})
    >>> module = RLModuleSpec(module_class=ActionMaskingModule, model_config={"fcnet_hiddens": [32]},
    ...     observation_space=envs.single_observation_space, action_space=envs.single_action_space).build()
    >>> observations, _ = envs.reset(seed=1)
    >>> batch = {"obs": {key: torch.from_numpy(value) for key, value in observations.items()}}
    >>> logits = module.forward_inference(batch)["action_dist_inputs"]
    >>> illegal = batch["obs"]["action_mask"] == 0
    >>> bool((logits[illegal] < -1e30).all()), bool((logits[~illegal] > -1e30).all())
    (True, True)
    """

    def __init__(self, *, observation_space: spaces.Space[Any] | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, spaces.Dict) or set(observation_space) != {"action_mask", "observations"}:
            raise OptionError(
                "ActionMaskingModule needs dict observations of 'action_mask' and 'observations' "
                f"(DiaboloRLlibEnv with action_mask=True), got {observation_space!r}"
            )
        self._masked_space = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)  # type: ignore[no-untyped-call]

    def setup(self) -> None:
        """RLlib's network over the observations; the module then names its whole space."""
        super().setup()  # type: ignore[no-untyped-call]
        self.observation_space = self._masked_space

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, unmasked = _split(batch)
        return _masked(super()._forward(unmasked, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, unmasked = _split(batch)
        return _masked(super()._forward_train(unmasked, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> Any:
        """The value of each observation (RLlib's ``ValueFunctionAPI``); the mask plays no part."""
        return super().compute_values(_split(batch)[1], embeddings)


def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The batch's action mask, and the batch with the observations alone (a new dict:
    RLlib may use the batch again)."""
    seen = batch[Columns.OBS]
    return seen["action_mask"], {**batch, Columns.OBS: seen["observations"]}


def _masked(outputs: dict[str, Any], mask: Any) -> dict[str, Any]:
    """The module's outputs with the logit of every illegal action the lowest float."""
    outputs[Columns.ACTION_DIST_INPUTS] = outputs[Columns.ACTION_DIST_INPUTS].masked_fill(mask < 0.5, FLOAT_MIN)
    return outputs
