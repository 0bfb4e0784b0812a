"""Trains sb3-contrib's MaskablePPO on Diabolo (Schacht) through the fast path.

The rollouts come from :class:`diabolo.envs.sb3.DiaboloVecEnv`: many games stepped
together in C++ by ``game.vector_env``, the other seats played by C++ bots, the legal
actions handed to MaskablePPO through ``env_method("action_masks")``. The policy is SB3's
default MLP. Then it plays seat-rotated matches (``diabolo.match``) against ``RandomBot``
and against ``HeuristicBot``, reported with 95% confidence intervals.
``pip install "diabolo[sb3]"``.

    python examples/maskable_ppo.py                  # the tutorial's run, a few minutes
    python examples/maskable_ppo.py --steps 100000   # a quick look

Everything is seeded: the same command prints the same figures on the same machine.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from typing import Any

# One BLAS and one PyTorch thread: the network is small, and more threads spend the cores
# the vector env steps the games on. Set before numpy and torch are imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

import diabolo  # noqa: E402
from diabolo.envs.sb3 import DiaboloVecEnv  # noqa: E402


class RolloutClock(BaseCallback):
    """Counts the seconds MaskablePPO spends collecting rollouts (stepping the envs and
    running the policy), apart from its updates."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds = 0.0
        self._start = 0.0

    def _on_rollout_start(self) -> None:
        self._start = time.perf_counter()

    def _on_rollout_end(self) -> None:
        self.seconds += time.perf_counter() - self._start

    def _on_step(self) -> bool:
        return True


class TimeLimit(RolloutClock):
    """A RolloutClock that stops training after ``seconds`` of wall time."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.limit = seconds
        self._began = time.perf_counter()

    def _on_training_start(self) -> None:
        self._began = time.perf_counter()

    def _on_step(self) -> bool:
        if time.perf_counter() - self._began < self.limit:
            return True
        # SB3 ends the rollout without its end callback: count its seconds here, so that
        # a rollout longer than the whole limit still has its time (and its steps) measured
        self._on_rollout_end()
        return False


@dataclass
class Training:
    """What :func:`train` returns: the model, the steps it learned from, the seconds of
    the whole training and of its rollouts."""

    model: MaskablePPO
    steps: int
    seconds: float
    rollout_seconds: float


def model_for(env: Any, seed: int) -> MaskablePPO:
    """MaskablePPO with SB3's default MLP and the settings of this example, on ``env``
    (any SB3 VecEnv of the same game)."""
    torch.set_num_threads(1)
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=max(16, 8192 // env.num_envs),
        batch_size=1024,
        n_epochs=4,
        learning_rate=3e-4,
        ent_coef=0.01,
        seed=seed,
        device="cpu",
    )


def train(
    players: int = 4, games: int = 64, steps: int = 1_000_000, seed: int = 1, seconds: float | None = None
) -> Training:
    """MaskablePPO on ``players``-player Schacht against random bots, ``games`` games at a
    time, for ``steps`` learner steps (or ``seconds`` of wall time, if given)."""
    env = DiaboloVecEnv("schacht", num_envs=games, players=players, opponents="random", seat=None)
    model = model_for(env, seed)
    clock = RolloutClock() if seconds is None else TimeLimit(seconds)
    began = time.perf_counter()
    model.learn(steps, callback=clock)
    return Training(model, model.num_timesteps, time.perf_counter() - began, clock.seconds)


class PolicyBot:
    """The trained model as a bot for ``diabolo.match``: its most likely legal action."""

    name = "MaskablePPO"

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def choose(self, state: Any, player: int) -> int:
        observation = state.observation_tensor(player)[None, :]
        mask = np.asarray(state.legal_action_mask(player), dtype=np.bool_)[None, :]
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
        return int(action[0])


def measure(model: MaskablePPO, players: int, opponent: str, games: int, seed: int) -> diabolo.matches.MatchResult:
    """A seat-rotated match: the model in one seat, ``opponent`` bots in the others."""
    game = diabolo.load("schacht", players=players)
    bots = [PolicyBot(model)] + [diabolo.bot("schacht", opponent) for _ in range(players - 1)]
    return diabolo.match(game, bots, games=games, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=64, help="games stepped together")
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--matches", type=int, default=800, help="games of each evaluation match")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    training = train(arguments.players, arguments.games, arguments.steps, arguments.seed)
    print(
        f"trained on {training.steps:,} steps in {training.seconds:.0f} s "
        f"({training.steps / training.rollout_seconds:,.0f} rollout steps a second)"
    )
    for opponent in ("random", "heuristic"):
        result = measure(training.model, arguments.players, opponent, arguments.matches, seed=arguments.seed + 100)
        print(f"\nthe policy against {opponent} bots, seats rotated:")
        print(result.table())


if __name__ == "__main__":
    main()
