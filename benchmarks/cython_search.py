"""The Cython example against the same algorithm in Python, in one run: builds
docs/examples/cython (flat_mc_cython.pyx, which calls the C API through
diabolo/capi.pxd) in a temporary folder, then times a flat Monte Carlo search from the
first position of a game with both, checks they give the same values, and prints the
times and the ratio. For context it also prints the engine's own random play per move
(game.play_random), the floor of what any playout loop can reach.

    python benchmarks/cython_search.py [--playouts 200] [--game schacht] [--players 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import diabolo

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "cython"


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.name.split(".")[0], path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def best_of_each(runs: int, calls: dict[str, object]) -> dict[str, float]:
    """The fastest of `runs` timings of each call, in seconds, the calls taking turns so
    that both see the same machine (a busy neighbour slows both, not one)."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs):
        for name, call in calls.items():
            start = time.perf_counter()
            call()  # type: ignore[operator]
            times[name].append(time.perf_counter() - start)
    return {name: min(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--game", default="schacht", choices=["schacht"])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    if args.playouts < 1 or args.runs < 1:  # no playout or no timed run: no time per playout to give
        parser.error("--playouts and --runs must be at least 1")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "example"
        shutil.copytree(EXAMPLE, folder)
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder, check=True)
        fast = load(next(folder.glob("flat_mc_cython*.so")))
        slow = load(folder / "flat_mc_python.py")
        game = diabolo.load(args.game, players=args.players)
        state = game.new_state(seed=4)
        player = state.pending_seats[0]
        assert fast.flat_monte_carlo(state, player, 5, 1) == slow.flat_monte_carlo(state, player, 5, 1)
        moves = len(state.legal_actions(player)) * args.playouts
        batch = game.play_random(20000, seed=1, threads=1)
        native_moves = int(batch["moves"].sum())
        best = best_of_each(
            args.runs,
            {
                "cython": lambda: fast.flat_monte_carlo(state, player, args.playouts, 1),
                "python": lambda: slow.flat_monte_carlo(state, player, args.playouts, 1),
                "native": lambda: game.play_random(20000, seed=1, threads=1),
            },
        )
        cython_time, python_time, native_time = best["cython"], best["python"], best["native"]
    print(f"flat Monte Carlo, {args.game} {args.players} players, {moves} playouts from the first position")
    print(f"  Cython (C API):  {cython_time * 1e3:9.1f} ms  {cython_time / moves * 1e6:7.2f} us per playout")
    print(f"  Python (API):    {python_time * 1e3:9.1f} ms  {python_time / moves * 1e6:7.2f} us per playout")
    print(f"  ratio Python / Cython: {python_time / cython_time:.1f}x")
    print(
        f"  for context, game.play_random: {native_time / 20000 * 1e6:.2f} us per game,"
        f" {native_time / native_moves * 1e9:.0f} ns per move"
    )


if __name__ == "__main__":
    main()
