"""RLlib's sampling through the adapter beside RLlib's own CartPole, in one run.

Two PPO algorithms of the same env-runner setup (``--runners`` remote env runners of
``--envs`` envs each, RLlib's default network), on a local Ray cluster of ``--cpus`` CPUs:

- ``CartPole-v1``: RLlib's reference env, vectorised by Gymnasium (RLlib's default
  ``gym_env_vectorize_mode="sync"``): the cost of RLlib's sampling loop itself, since a
  CartPole step costs next to nothing;
- 4-player Schacht against random bots through :class:`diabolo.envs.rllib.DiaboloRLlibEnv`
  (``vector_entry_point``: the env runner's games are one vector env stepped in C++) and
  :class:`diabolo.envs.rllib.ActionMaskingModule`, as examples/rllib_ppo.py trains.

Each round asks every env runner for ``--steps`` env steps (``EnvRunner.sample``: the
policy's forward pass, the env's step and RLlib's episode bookkeeping), CartPole and
Schacht in turn (A, B, A, B ...); the figures are env steps a second over all runners,
median and spread of the rounds, and Schacht's ratio to CartPole. A last row times the
engine's vector env alone (random legal actions drawn from the mask in numpy), for what
RLlib adds.

    python benchmarks/rllib_sampling.py [--rounds 5] [--steps 4096] [--envs 64] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import numpy as np  # noqa: E402
import ray  # noqa: E402
from ray.rllib.algorithms.algorithm import Algorithm  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

from diabolo.envs.rllib import ActionMaskingModule, DiaboloRLlibEnv  # noqa: E402

SCHACHT = {"game": "schacht", "players": 4, "opponents": "random"}


def algorithms(runners: int, envs: int) -> dict[str, Algorithm]:
    """Each row's PPO, built (its env runners started) before any round."""
    cartpole = (
        PPOConfig()  # type: ignore[no-untyped-call]  # RLlib is partly typed
        .environment("CartPole-v1")
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=envs)
    )
    schacht = (
        PPOConfig()  # type: ignore[no-untyped-call]
        .environment(DiaboloRLlibEnv, env_config=SCHACHT)
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=envs, gym_env_vectorize_mode="vector_entry_point")
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingModule))
    )
    return {"CartPole-v1": cartpole.build_algo(), "Schacht, DiaboloRLlibEnv": schacht.build_algo()}


def sample_rate(algorithm: Algorithm, steps: int) -> float:
    """Env steps a second of every remote env runner sampling ``steps`` env steps at once."""
    group = algorithm.env_runner_group
    assert group is not None
    start = time.perf_counter()
    counts = group.foreach_env_runner(
        lambda runner: sum(len(episode) for episode in runner.sample(num_timesteps=steps)),
        local_env_runner=False,
    )
    return sum(counts) / (time.perf_counter() - start)


def engine_rate(envs: int, steps: int) -> float:
    """Env steps a second of one DiaboloRLlibEnv alone, random legal actions from its masks."""
    env = DiaboloRLlibEnv({**SCHACHT, "num_envs": envs})
    observations, _ = env.reset(seed=1)
    assert isinstance(observations, dict)
    draws = np.random.default_rng(1)
    start, done = time.perf_counter(), 0
    while done < steps:
        scores = draws.random(observations["action_mask"].shape) * observations["action_mask"]
        observations, *_ = env.step(scores.argmax(axis=1))
        assert isinstance(observations, dict)
        done += envs
    return done / (time.perf_counter() - start)


def run(rounds: int, steps: int, runners: int, envs: int, cpus: int) -> list[dict[str, Any]]:
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    built = algorithms(runners, envs)
    try:
        for algorithm in built.values():  # a warm-up round each: the first forward passes
            sample_rate(algorithm, steps // 4)
        rates: dict[str, list[float]] = {name: [] for name in built}
        for _ in range(rounds):
            for name, algorithm in built.items():
                rates[name].append(sample_rate(algorithm, steps))
    finally:
        for algorithm in built.values():
            algorithm.stop()  # type: ignore[no-untyped-call]
        ray.shutdown()
    rates["Schacht, engine's vector env alone"] = [engine_rate(envs, steps * runners) for _ in range(rounds)]
    return [
        {
            "row": name,
            "steps_per_second": statistics.median(values),
            "low": min(values),
            "high": max(values),
            "rounds": len(values),
        }
        for name, values in rates.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of each row")
    parser.add_argument("--steps", type=int, default=4096, help="env steps each env runner samples a round")
    parser.add_argument("--runners", type=int, default=1, help="remote env runners of each algorithm")
    parser.add_argument("--envs", type=int, default=64, help="envs of each env runner")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    if min(arguments.rounds, arguments.steps, arguments.runners, arguments.envs) < 1:  # each row needs a sample
        parser.error("--rounds, --steps, --runners and --envs must be at least 1")
    rows = run(arguments.rounds, arguments.steps, arguments.runners, arguments.envs, arguments.cpus)
    if arguments.json:
        print(json.dumps(rows, indent=2))
        return
    baseline = rows[0]["steps_per_second"]
    print(
        f"RLlib sampling, {arguments.runners} env runner(s) of {arguments.envs} envs, "
        f"{arguments.steps:,} steps a round, {arguments.rounds} rounds, {os.cpu_count()} cores"
    )
    print(f"{'row':<38}{'env steps/s':>12}{'low .. high':>22}{'vs CartPole':>13}")
    for row in rows:
        spread, rate = f"{row['low']:,.0f} .. {row['high']:,.0f}", row["steps_per_second"]
        ratio = f"{rate / baseline:>12.2f}x" if baseline > 0 else f"{'n/a':>13}"  # CartPole sampled no step
        print(f"{row['row']:<38}{rate:>12,.0f}{spread:>22}{ratio}")


if __name__ == "__main__":
    main()
