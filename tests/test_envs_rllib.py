"""The RLlib adapter (diabolo.envs.rllib): RLlib's PPO, with its action-masking module,
trains on the multi-agent env on a real Ray cluster started by the test on loopback; the
env follows RLlib's multi-agent contract (an agent's game ends once per episode, then it
gets nothing more) and its checker."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason='the RLlib tests need pip install "diabolo[rllib]"')

from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import diabolo  # noqa: E402
from diabolo.envs.rllib import DiaboloMultiAgentEnv  # noqa: E402
from tests.transcripts import KNIZIA_WORDS  # noqa: E402

WORDS = diabolo.Lexicon.from_words(KNIZIA_WORDS)


@pytest.mark.usefixtures("ray_cluster")  # conftest.py: a Ray cluster on loopback
def test_rllib_ppo_trains_on_the_env_on_a_local_cluster() -> None:
    """Two training iterations of PPO, every game's learner mapped to one shared policy,
    sampled by a remote env runner: the episodes are whole deals of Schacht."""
    config = (
        PPOConfig()  # type: ignore[no-untyped-call]  # RLlib is partly typed
        .environment(DiaboloMultiAgentEnv, env_config={"game": "schacht", "games": 8, "players": 4})
        .multi_agent(policies={"learner"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "learner")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "learner": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [32]}
                    )
                }
            )
        )
        .env_runners(num_env_runners=1, num_cpus_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=400, minibatch_size=100, num_epochs=1)
        .debugging(seed=1)
    )
    algorithm = config.build_algo()
    try:
        for _ in range(2):
            result = algorithm.train()  # type: ignore[no-untyped-call]
    finally:
        algorithm.stop()  # type: ignore[no-untyped-call]
    runners = result["env_runners"]
    assert runners["num_env_steps_sampled_lifetime"] >= 800
    assert runners["num_episodes_lifetime"] >= 1
    assert np.isfinite(runners["episode_return_mean"])


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("schacht", {"players": 3, "opponents": "heuristic", "seat": None}),
        ("duvelen", {"players": 2, "opponents": "greedy", "max_steps": 30}),
        ("knizia", {"players": 3, "lexicon": WORDS, "max_steps": 30, "action_mask": False}),
        ("knizia", {"players": 2, "lexicon": "de", "max_steps": 30, "claims": 8}),
    ],
)
def test_each_agent_plays_one_whole_game_per_episode(game: str, options: dict[str, Any]) -> None:
    env = DiaboloMultiAgentEnv({"game": game, "games": 5, **options})
    check_multiagent_environments(env)
    rng = np.random.default_rng(3)
    observations, _ = env.reset(seed=4)
    spaces = env.observation_spaces
    assert spaces is not None and spaces["game_0"].contains(observations["game_0"])
    finished: set[Any] = set()
    for _ in range(2000):
        actions = {}
        for agent, seen in observations.items():
            if agent in finished:
                continue
            mask = seen["action_mask"] if isinstance(seen, dict) else np.ones(env.game.num_actions + 1)
            actions[agent] = int(rng.choice(np.flatnonzero(mask)))
        observations, rewards, terminateds, truncateds, _ = env.step(actions)
        assert set(rewards) == set(actions)
        for agent in actions:
            if terminateds[agent] or truncateds[agent]:
                finished.add(agent)
        assert set(env.agents) == set(env.possible_agents) - finished
        if terminateds["__all__"]:
            break
    assert finished == set(env.possible_agents) and env.agents == []
    with pytest.raises(diabolo.OptionError, match="has ended"):
        env.step({"game_0": 0})
    again, _ = env.reset(seed=4)
    assert set(again) == set(env.possible_agents)


def test_bad_configs_and_agents_are_refused() -> None:
    with pytest.raises(diabolo.OptionError, match="names its game"):
        DiaboloMultiAgentEnv({"games": 2})
    with pytest.raises(diabolo.OptionError, match="reward must be"):
        DiaboloMultiAgentEnv({"game": "schacht", "reward": "win"})
    env = DiaboloMultiAgentEnv({"game": "schacht", "games": 2, "players": 3})
    env.reset(seed=1)
    with pytest.raises(diabolo.OptionError, match="game_0..game_1"):
        env.step({"game_7": 0})
