"""Trains RLlib's PPO on Diabolo (Schacht) through the fast path, on the cores of one
machine (two are enough).

The env runner's 64 games are one :class:`diabolo.envs.rllib.DiaboloRLlibEnv`: stepped
together in C++, the other seats played by C++ random bots, the legal actions in each
observation for :class:`diabolo.envs.rllib.ActionMaskingModule`. Each iteration prints
the mean return of the games that ended in it and the steps sampled a second.
``pip install "diabolo[rllib]"`` (docs/ai.rst: the CPU build of PyTorch first).

    python examples/rllib_ppo.py                  # 2 iterations, under a minute
    python examples/rllib_ppo.py --iterations 30  # a learning curve
"""

from __future__ import annotations

import argparse
from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from diabolo.envs.rllib import ActionMaskingModule, DiaboloRLlibEnv


def train(iterations: int = 2) -> list[dict[str, Any]]:
    """``iterations`` iterations of PPO; each one's results as RLlib gives them."""
    config = (
        PPOConfig()  # type: ignore[no-untyped-call]  # RLlib is partly typed
        .environment(DiaboloRLlibEnv, env_config={"game": "schacht", "players": 4, "opponents": "random"})
        .env_runners(num_env_runners=1, num_envs_per_env_runner=64, gym_env_vectorize_mode="vector_entry_point")
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingModule))
        .training(train_batch_size_per_learner=4096, minibatch_size=512, num_epochs=4)
    )
    algorithm = config.build_algo()
    results = []
    try:
        for iteration in range(iterations):
            result = algorithm.train()  # type: ignore[no-untyped-call]
            runners = result["env_runners"]
            rate = runners["num_env_steps_sampled"] / runners["sample"]
            print(f"iteration {iteration + 1}: return {runners['episode_return_mean']:.2f}, {rate:,.0f} steps/s")
            results.append(result)
    finally:
        algorithm.stop()  # type: ignore[no-untyped-call]
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=2)
    train(parser.parse_args().iterations)
