"""Learns to play Diabolo (Schacht) from the vector env, with numpy alone.

A linear policy reads the seat's observation tensor and scores the 77 actions; the legal
ones are chosen with a softmax. It is trained by advantage actor-critic (a linear value
function, generalised advantage estimation, Adam) on games against ``RandomBot``
opponents, stepped in C++ by ``game.vector_env``. Then it plays seat-rotated matches
(``diabolo.match``) against ``RandomBot`` and against ``HeuristicBot``, reported with 95%
confidence intervals.

    python examples/policy_gradient.py               # the tutorial's run, a few minutes
    python examples/policy_gradient.py --updates 40  # a quick look

Everything is seeded: the same command prints the same figures on the same machine.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, field
from typing import Any

# One BLAS thread: the matrices here are small, and numpy's default (a thread per core)
# spends the cores the vector env steps the games on. Set before numpy is imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import diabolo  # noqa: E402

Array = npt.NDArray[np.float32]


@dataclass
class Adam:
    """Adam on a list of arrays, updated in place (gradient ascent)."""

    parameters: list[Array]
    rate: float
    moments: list[tuple[Array, Array]] = field(default_factory=list)
    steps: int = 0

    def __post_init__(self) -> None:
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.parameters]

    def ascend(self, gradients: list[Array]) -> None:
        self.steps += 1
        for parameter, gradient, (first, second) in zip(self.parameters, gradients, self.moments):
            first *= 0.9
            first += 0.1 * gradient
            second *= 0.999
            second += 0.001 * gradient * gradient
            corrected = first / (1 - 0.9**self.steps)
            parameter += self.rate * corrected / (np.sqrt(second / (1 - 0.999**self.steps)) + 1e-8)


class LinearPolicy:
    """Action scores ``observation @ weights + bias`` and a value ``observation @ value``."""

    def __init__(self, observation_size: int, actions: int) -> None:
        self.weights = np.zeros((observation_size, actions), dtype=np.float32)
        self.bias = np.zeros(actions, dtype=np.float32)
        self.value_weights = np.zeros(observation_size, dtype=np.float32)
        self.value_bias = np.zeros(1, dtype=np.float32)

    def probabilities(self, observations: Array, masks: npt.NDArray[np.bool_]) -> Array:
        scores = observations @ self.weights + self.bias
        scores = np.where(masks, scores, -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        weights = np.exp(scores)
        probabilities: Array = (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)
        return probabilities

    def values(self, observations: Array) -> Array:
        values: Array = (observations @ self.value_weights + self.value_bias[0]).astype(np.float32)
        return values


class PolicyBot:
    """The trained policy as a bot for ``diabolo.match``: the legal action it scores best."""

    name = "linear policy"

    def __init__(self, policy: LinearPolicy) -> None:
        self.policy = policy

    def choose(self, state: Any, player: int) -> int:
        observation = state.observation_tensor(player)[None, :]
        mask = np.asarray(state.legal_action_mask(player), dtype=np.bool_)[None, :]
        return int(np.argmax(self.policy.probabilities(observation, mask)[0]))


def sample(probabilities: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row, drawn from its probabilities."""
    cumulative = probabilities.cumsum(axis=1)
    draws = rng.random((len(probabilities), 1)) * cumulative[:, -1:]
    actions: npt.NDArray[np.int64] = np.minimum((cumulative < draws).sum(axis=1), probabilities.shape[1] - 1)
    return actions


@dataclass
class Training:
    """What :func:`train` returns: the policy and the mean score per finished game, for
    every ``report`` updates."""

    policy: LinearPolicy
    curve: list[tuple[int, float, int]]
    steps: int
    seconds: float


def train(
    players: int = 3,
    games: int = 128,
    horizon: int = 32,
    updates: int = 400,
    seed: int = 1,
    rate: float = 0.003,
    report: int = 50,
) -> Training:
    """Advantage actor-critic over ``games`` games stepped together, ``horizon`` steps per
    update. In the vector env's autoreset (Gymnasium's NEXT_STEP), the step after a game
    ended starts its next game and ignores the action: those samples carry no gradient."""
    game = diabolo.load("schacht", players=players)
    env = game.vector_env(games, opponents="random", seed=seed, threads=2)
    policy = LinearPolicy(env.observation_size, env.num_actions)
    optimiser = Adam([policy.weights, policy.bias, policy.value_weights, policy.value_bias], rate)
    rng = np.random.default_rng(seed)
    observations, masks = env.reset()
    observations, masks = observations.copy(), masks.copy()
    restarting = np.zeros(games, dtype=bool)
    episode_score = np.zeros(games, dtype=np.float32)
    finished: list[float] = []
    curve: list[tuple[int, float, int]] = []
    started = time.perf_counter()
    for update in range(1, updates + 1):
        batch = _rollout(env, policy, rng, observations, masks, restarting, horizon, episode_score, finished)
        observations, masks, restarting = batch.pop("next")
        _learn(policy, optimiser, batch)
        if update % report == 0:
            curve.append((update, float(np.mean(finished)) if finished else float("nan"), len(finished)))
            finished.clear()
    return Training(policy, curve, updates * horizon * games, time.perf_counter() - started)


def _rollout(
    env: Any,
    policy: LinearPolicy,
    rng: np.random.Generator,
    observations: Array,
    masks: npt.NDArray[np.bool_],
    restarting: npt.NDArray[np.bool_],
    horizon: int,
    episode_score: Array,
    finished: list[float],
) -> dict[str, Any]:
    games = len(observations)
    seen = np.zeros((horizon, *observations.shape), dtype=np.float32)
    legal = np.zeros((horizon, *masks.shape), dtype=bool)
    taken = np.zeros((horizon, games), dtype=np.int64)
    rewards = np.zeros((horizon, games), dtype=np.float32)
    ended = np.zeros((horizon, games), dtype=bool)
    valid = np.zeros((horizon, games), dtype=bool)
    for t in range(horizon):
        seen[t], legal[t], valid[t] = observations, masks, ~restarting
        safe = np.where(restarting[:, None], True, masks)  # a restarting game's action is ignored
        taken[t] = sample(policy.probabilities(observations, safe), rng)
        observations, masks, reward, terminated, truncated = env.step(taken[t].astype(np.int32))
        observations, masks = observations.copy(), masks.copy()
        rewards[t], ended[t] = reward / 10.0, terminated | truncated
        episode_score += reward
        for i in np.flatnonzero(ended[t]):
            finished.append(float(episode_score[i]))
            episode_score[i] = 0.0
        restarting = ended[t].copy()
    return {
        "observations": seen,
        "masks": legal,
        "actions": taken,
        "rewards": rewards,
        "ended": ended,
        "valid": valid,
        "last_values": np.where(restarting, 0.0, policy.values(observations)),
        "next": (observations, masks, restarting),
    }


def _learn(policy: LinearPolicy, optimiser: Adam, batch: dict[str, Any], entropy: float = 0.01) -> None:
    horizon, games = batch["actions"].shape
    observations = batch["observations"].reshape(horizon * games, -1)
    values = policy.values(observations).reshape(horizon, games)
    advantages = np.zeros((horizon, games), dtype=np.float32)
    following, next_values = np.zeros(games, dtype=np.float32), batch["last_values"]
    for t in reversed(range(horizon)):  # generalised advantage estimation, lambda 0.95, no discount
        going_on = ~batch["ended"][t]
        delta = batch["rewards"][t] + np.where(going_on, next_values, 0.0) - values[t]
        following = np.where(batch["valid"][t], delta + 0.95 * np.where(going_on, following, 0.0), 0.0)
        advantages[t], next_values = following, values[t]
    targets = (advantages + values).reshape(-1)
    valid = batch["valid"].reshape(-1)
    flat = advantages.reshape(-1)
    flat = np.where(valid, (flat - flat[valid].mean()) / (flat[valid].std() + 1e-6), 0.0)
    masks = np.where(valid[:, None], batch["masks"].reshape(horizon * games, -1), True)
    probabilities = policy.probabilities(observations, masks)
    chosen = np.zeros_like(probabilities)
    chosen[np.arange(len(chosen)), batch["actions"].reshape(-1)] = 1.0
    logs = np.log(np.where(probabilities > 0, probabilities, 1.0))
    spread = -(probabilities * logs).sum(axis=1, keepdims=True)
    ascent = flat[:, None] * (chosen - probabilities) - entropy * probabilities * (logs + spread)
    ascent *= valid[:, None]
    count = max(1, int(valid.sum()))
    error = np.where(valid, targets - policy.values(observations), 0.0)
    optimiser.ascend(
        [
            (observations.T @ ascent / count).astype(np.float32),
            (ascent.sum(axis=0) / count).astype(np.float32),
            (observations.T @ error / count).astype(np.float32),
            np.array([error.sum() / count], dtype=np.float32),
        ]
    )


def measure(policy: LinearPolicy, players: int, opponent: str, games: int, seed: int) -> diabolo.matches.MatchResult:
    """A seat-rotated match: the policy in one seat, ``opponent`` bots in the others."""
    game = diabolo.load("schacht", players=players)
    bots = [PolicyBot(policy)] + [diabolo.bot("schacht", opponent) for _ in range(players - 1)]
    return diabolo.match(game, bots, games=games, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--updates", type=int, default=400)
    parser.add_argument("--games", type=int, default=600, help="games of each evaluation match")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    training = train(players=arguments.players, updates=arguments.updates, seed=arguments.seed)
    print(f"trained on {training.steps:,} steps in {training.seconds:.0f} s")
    for update, mean, count in training.curve:
        print(f"  after {update:>4} updates: mean score {mean:6.2f} over {count} games against random bots")
    for opponent in ("random", "heuristic"):
        result = measure(training.policy, arguments.players, opponent, arguments.games, seed=arguments.seed + 100)
        print(f"\nthe policy against {opponent} bots, seats rotated:")
        print(result.table())


if __name__ == "__main__":
    main()
