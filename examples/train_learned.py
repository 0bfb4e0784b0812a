"""Trains the weights of Schacht's learned bot (``diabolo.schacht.LearnedBot``) by
self-play through the vector env, with numpy alone, on one machine or on a Ray cluster.

The policy scores each legal move by ``move_features(state) @ weights`` (17 features of
what the move changes in the heuristic's estimate of its colour, and what kind of move it
is; ``diabolo.schacht.FEATURES``) and plays the best. It starts as the heuristic bot: the
start weights give the heuristic's own move values in a 4-player game.

Training is evolution strategies with antithetic pairs (Salimans et al., 2017). Each
iteration draws ``--pairs`` directions e and plays the weights w + sigma e and w - sigma e
in the learner's seat of ``game.vector_env(..., action_features=True)``, rotated through
the seats, at two tables: against three ``LearnedBot``\\ s with the current weights w
(self-play) and against three heuristic bots. Both signs play the same deals, so their
difference in the share of games won is the move's effect, not the cards'. The weights
step along the directions weighted by those differences (scaled by their spread). Every
``--report`` iterations the current weights play ``--eval-games`` other games against
three heuristic bots: the learning curve. The games, the noise and so the weights are the
same for the same command, with or without Ray.

    python examples/train_learned.py                  # the shipped weights, ~20 min on 2 cores
    python examples/train_learned.py --ray            # the same run on a local Ray cluster
    python examples/train_learned.py --ray --address auto   # ... on a running cluster
    python examples/train_learned.py --write          # and write them into the engine's source

``--write`` replaces the weights in ``cpp/src/schacht/bots.cpp``; a rebuild
(``pip install .``) ships them in the wheel. docs/strength.rst has the run's curve.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

# One BLAS thread: the products are small, and the vector env steps on the cores.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import diabolo  # noqa: E402
from diabolo.schacht import FEATURES, HeuristicBot, LearnedBot  # noqa: E402

Weights = npt.NDArray[np.float64]

PLAYERS = 4
# The heuristic's move value in a 4-player game: its own gain, minus (1 + 1/3) x 0.5 of
# the leader's, plus 0.5 x the doubler's gain; it bets when the heuristic bets.
START = np.zeros(len(FEATURES))
START[[0, 2, 4, 12, 16]] = [1.0, -2.0 / 3.0, 0.5, -0.5, 1.0]
SOURCE = Path(__file__).resolve().parent.parent / "cpp" / "src" / "schacht" / "bots.cpp"


def choose(features: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], weights: Weights) -> npt.NDArray[np.int32]:
    """Each game's best legal action by ``features @ weights`` (ties: the lowest id), as
    ``LearnedBot`` plays."""
    values = features @ weights
    values[~masks] = -np.inf
    actions: npt.NDArray[np.int32] = values.argmax(axis=1).astype(np.int32)
    return actions


def win_share(weights: Weights, opponents: Weights | None, games: int, seed: int, threads: int) -> float:
    """The share of ``games`` 4-player games (a shared win split) that ``weights`` wins in
    the learner's seat, rotated through the seats, against three ``LearnedBot``\\ s with
    the weights ``opponents`` or, for None, three heuristic bots."""
    game = diabolo.load("schacht", players=PLAYERS)
    opponent = HeuristicBot() if opponents is None else LearnedBot(weights=opponents.tolist())
    tables = games // PLAYERS  # each table plays one game in each seat
    env = game.vector_env(tables, opponents=opponent, seed=seed, threads=threads, seat=None, action_features=True)
    _, masks = env.reset()
    features = env.action_features
    assert features is not None  # action_features=True
    played = np.zeros(tables, dtype=np.int64)
    wins = 0.0
    while played.min() < PLAYERS:
        _, masks, _, terminated, _ = env.step(choose(features, masks, weights))
        ended = terminated & (played < PLAYERS)
        if ended.any():
            scores = env.scores[ended]
            mine = scores[np.arange(len(scores)), env.seats[ended]]
            best = scores.max(axis=1)
            wins += float(np.sum((mine == best) / (scores == best[:, None]).sum(axis=1)))
        played += terminated
    return wins / (tables * PLAYERS)


Evaluate = Callable[[list[tuple[Weights, Weights | None, int, int]]], list[float]]


def local(threads: int) -> Evaluate:
    """Plays each evaluation in this process, one after another, on ``threads`` threads."""
    return lambda jobs: [win_share(w, o, g, s, threads) for w, o, g, s in jobs]


def on_ray(address: str | None) -> Evaluate:
    """Plays the evaluations as Ray tasks, one CPU each: on a local cluster started here
    (``address`` None) or on the cluster at ``address``."""
    import ray
    from ray import cloudpickle

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    if __name__ != "__main__":  # imported, not run: the workers cannot import this file by name
        cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]
    task = ray.remote(num_cpus=1)(win_share)
    return lambda jobs: ray.get([task.remote(w, o, g, s, 1) for w, o, g, s in jobs])


def train(
    evaluate: Evaluate,
    *,
    iterations: int = 80,
    pairs: int = 8,
    games: int = 2000,
    sigma: float = 0.1,
    rate: float = 0.05,
    seed: int = 1,
    report: int = 10,
    eval_games: int = 20000,
    log: Callable[[str], None] = print,
) -> tuple[Weights, list[tuple[int, float, float]]]:
    """The trained weights and the curve: (iteration, win share against three heuristic
    bots over ``eval_games`` held-out games, seconds since the start)."""
    rng = np.random.default_rng(seed)
    weights = START.copy()
    curve: list[tuple[int, float, float]] = []
    start = time.perf_counter()

    def measure(iteration: int) -> None:
        share = evaluate([(weights, None, eval_games, 10**9 + seed)])[0]
        curve.append((iteration, share, time.perf_counter() - start))
        log(f"iteration {iteration:4d}: {share:.4f} against 3 heuristic bots ({curve[-1][2]:.0f} s)")

    measure(0)
    for iteration in range(1, iterations + 1):
        directions = rng.standard_normal((pairs, len(weights)))
        deals = seed * 1_000_003 + iteration  # fresh deals each iteration, shared by both signs
        jobs = [
            (weights + sign * sigma * direction, table, games, deals)
            for direction in directions
            for table in (weights.copy(), None)
            for sign in (1.0, -1.0)
        ]
        shares = np.array(evaluate(jobs)).reshape(pairs, 2, 2)
        differences = (shares[:, :, 0] - shares[:, :, 1]).mean(axis=1)  # + minus -, over both tables
        spread = float(np.sqrt(np.mean(differences**2))) + 1e-12
        weights = weights + rate * (differences / spread) @ directions / pairs
        if iteration % report == 0 or iteration == iterations:
            measure(iteration)
    return weights, curve


def write_weights(source: str, weights: Weights) -> str:
    """``source`` (cpp/src/schacht/bots.cpp) with ``weights`` as kLearnedWeights."""
    numbers = ", ".join(repr(round(float(w), 6)) for w in weights)
    block = f"const LearnedWeights kLearnedWeights{{{numbers}}};"
    pattern = r"(// BEGIN LEARNED WEIGHTS\n).*?(\n// END LEARNED WEIGHTS)"
    if not re.search(pattern, source, flags=re.S):
        raise ValueError("no LEARNED WEIGHTS block in the source")
    return re.sub(pattern, lambda m: m.group(1) + block + m.group(2), source, flags=re.S)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=80)
    parser.add_argument("--pairs", type=int, default=8, help="antithetic pairs of directions per iteration")
    parser.add_argument("--games", type=int, default=2000, help="games of each evaluation during training")
    parser.add_argument("--sigma", type=float, default=0.1)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", type=int, default=10, help="iterations between points of the curve")
    parser.add_argument("--eval-games", type=int, default=20000)
    parser.add_argument("--threads", type=int, default=2, help="threads of the vector env, without Ray")
    parser.add_argument("--ray", action="store_true", help="play the evaluations as Ray tasks")
    parser.add_argument("--address", default=None, help="the Ray cluster to join (default: start a local one)")
    parser.add_argument("--write", action="store_true", help=f"write the weights into {SOURCE.name}")
    args = parser.parse_args(argv)
    evaluate = on_ray(args.address) if args.ray else local(args.threads)
    cpus = os.cpu_count()
    print(f"{PLAYERS}-player Schacht, {'Ray' if args.ray else 'one process'}, {cpus} CPUs; {vars(args)}")
    weights, curve = train(
        evaluate,
        iterations=args.iterations,
        pairs=args.pairs,
        games=args.games,
        sigma=args.sigma,
        rate=args.rate,
        seed=args.seed,
        report=args.report,
        eval_games=args.eval_games,
    )
    for name, w in zip(FEATURES, weights):
        print(f"  {name:22} {w:+.6f}")
    print(f"weights: {[round(float(w), 6) for w in weights]}")
    print(f"curve (iteration, win share, seconds): {[(i, round(s, 4), round(t)) for i, s, t in curve]}")
    if args.write:
        SOURCE.write_text(write_weights(SOURCE.read_text(), weights))
        print(f"wrote the weights into {SOURCE}; rebuild (pip install .) to ship them")


if __name__ == "__main__":
    main(sys.argv[1:])
