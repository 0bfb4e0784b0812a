"""Speed of the vector environment (game.vector_env) against a Python loop over the public
API doing the same work, in the same run: env steps per second with observations and
masks written, for 1 and 2 threads, with the memory bandwidth of this machine for scale.

A step of a game is the learner's action and the other seats' moves until the learner is
to act again (Schacht), with the learner's observation tensor and action mask written.
The learner plays a random legal action (drawn in numpy over all games at once).

    python benchmarks/vector_env.py [--game schacht] [--players 4] [--games 1024] [--seconds 3]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import diabolo


def python_loop(game: Any, opponent: str, seconds: float) -> float:
    """Steps a second of one game at a time through the public API: the learner's move,
    the other seats' bots (choose), the tensor and the mask."""
    bot = diabolo.bot(game.name, opponent)
    rng = np.random.default_rng(0)
    steps, deals, started = 0, 0, time.perf_counter()
    state = game.new_state(seed=0)
    while time.perf_counter() - started < seconds:
        if state.is_terminal:
            deals += 1
            state = game.new_state(seed=deals)
        while state.pending_seats and 0 not in state.pending_seats:
            seat = state.pending_seats[0]
            state.apply(bot.choose(state, seat, steps), player=seat)
        if state.is_terminal:
            continue
        state.observation_tensor(0)
        mask = state.legal_action_mask(0)
        state.apply(int(rng.choice(np.flatnonzero(mask))), player=0)
        steps += 1
    return steps / (time.perf_counter() - started)


def vector_steps(game: Any, opponent: str, games: int, threads: int, seconds: float) -> float:
    env = game.vector_env(games, opponents=opponent, seed=1, threads=threads)
    _, masks = env.reset()
    rng = np.random.default_rng(0)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        actions = np.argmax(rng.random(masks.shape, dtype=np.float32) * masks, axis=1)
        _, masks, *_ = env.step(actions)
        steps += games
    return steps / (time.perf_counter() - started)


def bandwidth(seconds: float = 1.0) -> float:
    """Bytes a second numpy copies between two 256 MB arrays: this machine's memory bandwidth."""
    source = np.ones(64 * 1024 * 1024, dtype=np.float32)
    target = np.empty_like(source)
    copies, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        np.copyto(target, source)
        copies += 1
    return 2 * source.nbytes * copies / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="schacht", choices=["schacht"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--opponent", default="random")
    args = parser.parse_args()
    game = diabolo.load(args.game, players=args.players)
    env = game.vector_env(1, opponents=args.opponent)
    row = 4 * env.observation_size + env.num_actions
    print(f"vector env: {args.game}, {args.players} players, opponents {args.opponent}, {args.games} games")
    print(f"  a step writes {row:,} bytes of observation and mask")
    loop = python_loop(game, args.opponent, args.seconds)
    print(f"  Python loop over the API:   {loop:12,.0f} steps/s   (baseline)")
    for threads in (1, 2):
        rate = vector_steps(game, args.opponent, args.games, threads, args.seconds)
        print(
            f"  vector env, {threads} thread(s):   {rate:12,.0f} steps/s   {rate / loop:6.1f}x"
            f"   {rate * row / 1e9:5.2f} GB/s written"
        )
    print(f"  memory bandwidth (numpy copy, read + write): {bandwidth() / 1e9:.1f} GB/s")


if __name__ == "__main__":
    main()
