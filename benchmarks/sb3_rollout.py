"""MaskablePPO on 4-player Schacht through the SB3 adapter against SB3's usual way.

The same MaskablePPO (examples/maskable_ppo.py: SB3's default MLP, the same settings and
seed, 8,192 steps per rollout) learns against random bots for the same wall time from:

- ``DummyVecEnv`` of 8 one-game Gymnasium envs (``DiaboloEnv``), each step a Python call
  per game, as SB3 wraps any Gymnasium env;
- ``DiaboloVecEnv`` of 8, 64, 256 and 1,024 games: one call steps them all in C++.

Each run has one BLAS thread and one PyTorch thread, the example's setting; the last two
rows give PyTorch two, for ``DummyVecEnv`` and for 1,024 games (a bigger batch, where the
policy's forward pass has work to share), whose engine steps on two threads too. Each
ratio is against the ``DummyVecEnv`` row of the same PyTorch threads.

For each it reports the rollout steps a second (the time MaskablePPO spends collecting:
stepping the envs and running the policy, apart from its updates), the ratio to the
``DummyVecEnv`` row, the steps learned in the time, and the win rate the policy then
reaches against 3 random bots in a seat-rotated match (``diabolo.match``, 95% CI).

    python benchmarks/sb3_rollout.py [--seconds 60] [--matches 400] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import torch  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv  # noqa: E402

from diabolo.envs.gymnasium import DiaboloEnv  # noqa: E402
from diabolo.envs.sb3 import DiaboloVecEnv  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "maskable_ppo.py"
PLAYERS = 4


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["maskable_ppo"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


BASELINE = "DummyVecEnv, 8 DiaboloEnv"


def envs() -> list[tuple[str, int, Callable[[], VecEnv]]]:
    """Each way to feed MaskablePPO: its row's name, PyTorch's threads and the env."""

    def one_game() -> DiaboloEnv:
        return DiaboloEnv("schacht", players=PLAYERS, opponents="random", seat=None)

    def dummy() -> VecEnv:
        return DummyVecEnv([one_game for _ in range(8)])

    def games(count: int, threads: int = 1) -> Callable[[], VecEnv]:
        return lambda: DiaboloVecEnv("schacht", count, players=PLAYERS, seat=None, threads=threads)

    return [
        (BASELINE, 1, dummy),
        ("DiaboloVecEnv, 8 games", 1, games(8)),
        ("DiaboloVecEnv, 64 games", 1, games(64)),
        ("DiaboloVecEnv, 256 games", 1, games(256)),
        ("DiaboloVecEnv, 1,024 games", 1, games(1024)),
        (BASELINE, 2, dummy),
        ("DiaboloVecEnv, 1,024 games", 2, games(1024, threads=2)),
    ]


def run(seconds: float, matches: int, seed: int) -> list[dict[str, Any]]:
    example = _example()
    rows = []
    for name, threads, make in envs():
        env = make()
        env.seed(seed)
        model = example.model_for(env, seed)
        torch.set_num_threads(threads)
        clock = example.TimeLimit(seconds)
        model.learn(10**9, callback=clock)
        result = example.measure(model, PLAYERS, "random", matches, seed=seed + 100)
        row = next(r for r in result.summary() if r.name == "MaskablePPO")
        rows.append(
            {
                "env": name,
                "torch_threads": threads,
                "rollout_steps_per_second": model.num_timesteps / clock.seconds,
                "steps": model.num_timesteps,
                "win_rate": row.win_rate,
                "win_interval": list(row.win_interval),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="wall time of each training")
    parser.add_argument("--matches", type=int, default=400, help="games of each evaluation match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    if arguments.matches < 1:  # said now, not by diabolo.match after the first training
        parser.error("--matches must be at least 1")
    rows = run(arguments.seconds, arguments.matches, arguments.seed)
    if arguments.json:
        print(json.dumps(rows, indent=2))
        return
    baselines = {row["torch_threads"]: row["rollout_steps_per_second"] for row in rows if row["env"] == BASELINE}
    print(f"MaskablePPO, {PLAYERS}-player Schacht against random bots, {arguments.seconds:g} s of training each")
    print(f"{'env':<28}{'threads':>8}{'rollout steps/s':>16}{'ratio':>8}{'steps':>12}   win rate vs random (95% CI)")
    for row in rows:
        low, high = row["win_interval"]
        ratio = row["rollout_steps_per_second"] / baselines[row["torch_threads"]]
        print(
            f"{row['env']:<28}{row['torch_threads']:>8}{row['rollout_steps_per_second']:>16,.0f}"
            f"{ratio:>7.1f}x{row['steps']:>12,}   {row['win_rate']:.3f} ({low:.3f} .. {high:.3f})"
        )


if __name__ == "__main__":
    main()
