"""The RLlib adapter (diabolo.envs.rllib): examples/rllib_ppo.py, the snippet docs/ai.rst
shows, trains PPO on a real Ray cluster started by the test on loopback, its env
runner's games one vector env built by RLlib from the env class; the env gives each
game's legal actions in its observation, and the action-masking module samples legal
actions only."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason='the RLlib tests need pip install "diabolo[rllib]"')
torch = pytest.importorskip("torch", reason='RLlib\'s PPO needs PyTorch: pip install "diabolo[rllib]"')

from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

import diabolo  # noqa: E402
from diabolo.envs.rllib import ActionMaskingModule, DiaboloRLlibEnv  # noqa: E402
from tests.example_helpers import load_example  # noqa: E402
from tests.transcripts import KNIZIA_WORDS  # noqa: E402

WORDS = diabolo.Lexicon.from_words(KNIZIA_WORDS)


class Records(logging.Handler):
    """The log records of a logger and its children, kept."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.usefixtures("ray_cluster")  # conftest.py: a Ray cluster on loopback
def test_the_documented_ppo_run_trains_two_iterations_and_stops() -> None:
    """examples/rllib_ppo.py as docs/ai.rst includes it: 64 games in the env runner,
    RLlib's default batch sampled within its sample time-out, whole games ended, and no
    deprecation RLlib names beyond the one it logs for every module it builds."""
    example = load_example("rllib_ppo")
    records = Records()
    logging.getLogger("ray").addHandler(records)
    try:
        results = example.train(iterations=2)
    finally:
        logging.getLogger("ray").removeHandler(records)
    assert len(results) == 2
    for result in results:
        runners = result["env_runners"]
        assert runners["num_env_steps_sampled"] >= 4096
        assert runners["num_episodes"] >= 1 and np.isfinite(runners["episode_return_mean"])
    deprecated = [r.getMessage() for r in records.records if "deprecat" in r.getMessage().lower()]
    assert all("RLModuleConfig" in message for message in deprecated), deprecated


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("schacht", {"players": 3, "opponents": "heuristic", "seat": None}),
        ("duvelen", {"players": 2, "opponents": "greedy", "max_steps": 30}),
        ("knizia", {"players": 3, "lexicon": WORDS, "max_steps": 30}),
        ("knizia", {"players": 2, "lexicon": "de", "max_steps": 30, "claims": 8}),
    ],
)
def test_each_observation_holds_its_games_legal_actions(game: str, options: dict[str, Any]) -> None:
    """Through ends and next deals (Gymnasium's NEXT_STEP autoreset, which RLlib's env
    runner expects), the mask in the observation is the info's legal actions, and the
    observations are in their space."""
    envs = DiaboloRLlibEnv({"game": game, "num_envs": 5, **options})
    observations, info = envs.reset(seed=4)
    draws = np.random.default_rng(3)
    ended = 0
    for _ in range(60):
        assert isinstance(observations, dict) and envs.observation_space.contains(observations)
        assert np.array_equal(observations["action_mask"], info["action_mask"].astype(np.float32))
        scores = draws.random(observations["action_mask"].shape) * observations["action_mask"]
        observations, rewards, terminated, truncated, info = envs.step(scores.argmax(axis=1))
        assert (info["action_mask"].any(axis=1) | terminated | truncated).all()  # an ended game has none
        ended += int((terminated | truncated).sum())
    assert ended > 0


def test_without_the_mask_the_observation_is_the_tensor() -> None:
    envs = DiaboloRLlibEnv({"game": "schacht", "num_envs": 3, "players": 4, "action_mask": False})
    observations, info = envs.reset(seed=1)
    assert not isinstance(observations, dict) and observations.shape == (3, 1223)
    assert envs.observation_space.contains(observations) and info["action_mask"].shape == (3, 77)


def test_bad_configs_are_refused() -> None:
    with pytest.raises(diabolo.OptionError, match="names its game"):
        DiaboloRLlibEnv({"num_envs": 2})
    with pytest.raises(diabolo.OptionError, match="vector_entry_point"):
        DiaboloRLlibEnv({"game": "schacht"})  # as RLlib's default "sync" vectorize mode would make it
    with pytest.raises(diabolo.OptionError, match="reward must be"):
        DiaboloRLlibEnv({"game": "schacht", "num_envs": 2, "reward": "win"})
    with pytest.raises(diabolo.OptionError, match="players"):
        DiaboloRLlibEnv({"game": "schacht", "num_envs": 2, "players": 9})
    unmasked = DiaboloRLlibEnv({"game": "schacht", "num_envs": 1, "action_mask": False})
    with pytest.raises(diabolo.OptionError, match="needs dict observations"):
        RLModuleSpec(
            module_class=ActionMaskingModule,
            observation_space=unmasked.single_observation_space,
            action_space=unmasked.single_action_space,
        ).build()


def test_the_module_samples_legal_actions_and_values_every_observation() -> None:
    """An untrained module's exploration over 64 games' observations: every sampled action
    is legal, in every game still playing (a game that just ended has no legal action; its
    next step deals anew), and the values come from the observations alone."""
    torch.manual_seed(1)
    envs = DiaboloRLlibEnv({"game": "schacht", "num_envs": 64, "players": 4, "seat": None})
    module = RLModuleSpec(
        module_class=ActionMaskingModule,
        model_config={"fcnet_hiddens": [32]},
        observation_space=envs.single_observation_space,
        action_space=envs.single_action_space,
    ).build()
    observations, _ = envs.reset(seed=2)
    for _ in range(20):
        assert isinstance(observations, dict)
        batch = {"obs": {key: torch.from_numpy(value) for key, value in observations.items()}}
        logits = module.forward_exploration(batch)["action_dist_inputs"]
        actions = torch.distributions.Categorical(logits=logits).sample().numpy()
        masks = observations["action_mask"]
        playing = masks.any(axis=1)
        assert playing.sum() >= 32 and masks[np.arange(64), actions][playing].all()
        values = module.compute_values(batch)  # type: ignore[attr-defined]  # PPO's value function API
        assert values.shape == (64,) and torch.isfinite(values).all()
        observations, *_ = envs.step(actions)
