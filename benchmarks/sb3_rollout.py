"""MaskablePPO on 4-player Schacht through the SB3 adapter against SB3's usual way.

The same MaskablePPO (examples/maskable_ppo.py: SB3's default MLP, the same settings and
seed, 8,192 steps per rollout) learns against random bots for the same wall time from:

- ``DummyVecEnv`` of 8 one-game Gymnasium envs (``DiaboloEnv``), each step a Python call
  per game, as SB3 wraps any Gymnasium env;
- ``DiaboloVecEnv`` of 8, 64 and 256 games: one call steps them all in C++.

Each run has one PyTorch and one BLAS thread, the example's setting.

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
from pathlib import Path
from types import ModuleType
from typing import Any

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

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


def envs() -> dict[str, Any]:
    """Each way to feed MaskablePPO, by its row's name."""

    def one_game() -> DiaboloEnv:
        return DiaboloEnv("schacht", players=PLAYERS, opponents="random", seat=None)

    return {
        "DummyVecEnv, 8 DiaboloEnv": lambda: DummyVecEnv([one_game for _ in range(8)]),
        "DiaboloVecEnv, 8 games": lambda: DiaboloVecEnv("schacht", 8, players=PLAYERS, seat=None),
        "DiaboloVecEnv, 64 games": lambda: DiaboloVecEnv("schacht", 64, players=PLAYERS, seat=None),
        "DiaboloVecEnv, 256 games": lambda: DiaboloVecEnv("schacht", 256, players=PLAYERS, seat=None),
    }


def run(seconds: float, matches: int, seed: int) -> list[dict[str, Any]]:
    example = _example()
    rows = []
    for name, make in envs().items():
        env = make()
        env.seed(seed)
        model = example.model_for(env, seed)
        clock = example.TimeLimit(seconds)
        model.learn(10**9, callback=clock)
        result = example.measure(model, PLAYERS, "random", matches, seed=seed + 100)
        row = next(r for r in result.summary() if r.name == "MaskablePPO")
        rows.append(
            {
                "env": name,
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
    rows = run(arguments.seconds, arguments.matches, arguments.seed)
    if arguments.json:
        print(json.dumps(rows, indent=2))
        return
    baseline = rows[0]["rollout_steps_per_second"]
    print(f"MaskablePPO, {PLAYERS}-player Schacht against random bots, {arguments.seconds:.0f} s of training each")
    print(f"{'env':<28}{'rollout steps/s':>16}{'ratio':>8}{'steps':>12}   win rate vs random (95% CI)")
    for row in rows:
        low, high = row["win_interval"]
        print(
            f"{row['env']:<28}{row['rollout_steps_per_second']:>16,.0f}"
            f"{row['rollout_steps_per_second'] / baseline:>7.1f}x{row['steps']:>12,}"
            f"   {row['win_rate']:.3f} ({low:.3f} .. {high:.3f})"
        )


if __name__ == "__main__":
    main()
