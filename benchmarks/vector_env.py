"""Speeds of the ways to learn from a game, measured in one run: a Python loop over the
public API (the baseline), the Gymnasium, PettingZoo and OpenSpiel adapters, and the
vector environment (game.vector_env) with float and byte observations on 1 and 2
threads (and with the learner's action features, action_features=True, which the learned
bot's training reads), with this machine's memory bandwidth for scale.

Two units, each named in the table:
- learner steps: one seat's action and the other seats' bots until that seat is to act
  again, with its observation tensor and action mask produced (the Python loop,
  Gymnasium, the vector env);
- agent steps: one seat's action, every seat learning, with the next agent's observation
  and mask produced (PettingZoo's AEC env, OpenSpiel's state).

The learner plays the lowest legal action (the adapters' own costs, not a policy's, are
measured); the vector env also with a random legal action drawn in numpy over all games,
as a training loop would.

The vector env's figures are the best of --repeats runs. The same steps driven from C++
(benchmarks/vector_env.cpp, compiled here with the extension's flags) show what the engine
costs without numpy and the Python call.

Two rows choose the actions with a linear policy over the byte observations (a float32
matrix product and a masked argmax, on one core: OPENBLAS_NUM_THREADS=1 unless set), once
stepping the 1,024 games with step() on 2 threads, once as two envs of 512 games on one
thread each, stepped with send() and recv() so that the policy of one half runs while the
other half steps.

    python benchmarks/vector_env.py [--players 4] [--games 1024] [--seconds 3] [--repeats 3]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the policy rows' matrix products on one core

import argparse
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import native  # benchmarks/native.py, next to this script
import numpy as np

import diabolo


def rate(run: Callable[[], int], seconds: float) -> float:
    """Steps a second of ``run`` (which returns the steps it made) for ``seconds``; one
    call at least, so that a machine slower than the budget still gives its figure."""
    steps, started = 0, time.perf_counter()
    while True:
        steps += run()
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return steps / elapsed


def python_loop(game: Any, opponent: str, seconds: float) -> float:
    """One game at a time through the public API: the learner's move, the other seats'
    bots (choose), the tensor and the mask."""
    bot = diabolo.bot(game.name, opponent)
    deals = [0]
    state = [game.new_state(seed=0)]

    def run() -> int:
        s = state[0]
        if s.is_terminal:
            deals[0] += 1
            s = state[0] = game.new_state(seed=deals[0])
        while s.pending_seats and 0 not in s.pending_seats:
            seat = s.pending_seats[0]
            s.apply(bot.choose(s, seat, deals[0]), player=seat)
        if s.is_terminal:
            return 0
        s.observation_tensor(0)
        mask = s.legal_action_mask(0)
        s.apply(int(np.flatnonzero(mask)[0]), player=0)
        return 1

    return rate(run, seconds)


def gymnasium_env(game: Any, opponent: str, seconds: float) -> float:
    from diabolo.envs.gymnasium import DiaboloEnv

    env = DiaboloEnv(game.name, opponents=opponent, players=game.players)
    _, info = env.reset(seed=1)
    mask = [info["action_mask"]]

    def run() -> int:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask[0])[0]))
        if terminated or truncated:
            _, info = env.reset()
        mask[0] = info["action_mask"]
        return 1

    return rate(run, seconds)


def pettingzoo_env(game: Any, seconds: float) -> float:
    from diabolo.envs.pettingzoo import aec_env

    env = aec_env(game.name, players=game.players)
    env.reset(seed=1)

    def run() -> int:
        if not env.agents:
            env.reset()
        _, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[0]))
        return 1

    return rate(run, seconds)


def openspiel_game(game: Any, seconds: float) -> float:
    import pyspiel

    import diabolo.openspiel  # registers the games

    spiel = pyspiel.load_game(f"diabolo_{game.name}", {"players": game.players})
    state = [spiel.new_initial_state()]
    deals = [0]

    def run() -> int:
        s = state[0]
        if s.is_terminal():
            s = state[0] = spiel.new_initial_state()
        if s.is_chance_node():
            deals[0] += 1
            s.apply_action(deals[0] % diabolo.openspiel.DEALS)
        player = s.current_player()
        s.observation_tensor(player)
        s.apply_action(s.legal_actions()[0])
        return 1

    return rate(run, seconds)


def vector_steps(
    game: Any, opponent: str, games: int, threads: int, seconds: float, repeats: int = 1, **options: Any
) -> float:
    """The vector env's learner steps a second: the best of ``repeats`` runs of ``seconds``
    each, each with a new env (on a shared machine, the best run is the one least slowed by
    other work, as timeit takes the fastest of its runs)."""
    return max(_vector_run(game, opponent, games, threads, seconds, **options) for _ in range(repeats))


def _vector_run(game: Any, opponent: str, games: int, threads: int, seconds: float, **options: Any) -> float:
    random_actions = options.pop("random_actions", False)
    env = game.vector_env(games, opponents=opponent, seed=1, threads=threads, **options)
    _, masks = env.reset()
    held = [masks]
    rng = np.random.default_rng(0)

    def run() -> int:
        masks = held[0]
        if random_actions:
            actions = np.argmax(rng.random(masks.shape, dtype=np.float32) * masks, axis=1)
        else:
            actions = masks.argmax(axis=1)
        _, held[0], *_ = env.step(actions)
        return games

    return rate(run, seconds)


class LinearPolicy:
    """Action scores from the byte observations by one float32 matrix product; the best
    legal action of each game."""

    def __init__(self, size: int, actions: int) -> None:
        self.weights = np.random.default_rng(0).standard_normal((size, actions)).astype(np.float32)

    def __call__(self, observations: Any, masks: Any) -> Any:
        scores = observations.astype(np.float32) @ self.weights
        return np.argmax(np.where(masks, scores, -np.inf), axis=1)


def policy_steps(game: Any, opponent: str, games: int, seconds: float, halves: bool) -> float:
    """Learner steps a second with a linear policy: one env of ``games`` games on 2 threads
    stepped by step(), or (``halves``) two envs of ``games // 2`` games on one thread each,
    stepped by send() and recv() in turn."""
    count = 2 if halves else 1
    envs = [
        game.vector_env(
            games // count, opponents=opponent, seed=1 + k, threads=1 if halves else 2, observations="uint8"
        )
        for k in range(count)
    ]
    outputs = [env.reset() for env in envs]
    policy = LinearPolicy(envs[0].observation_size, envs[0].num_actions)
    actions = [policy(*output[:2]) for output in outputs]
    steps, started = 0, time.perf_counter()
    if not halves:
        while True:  # one step at least, as rate() makes
            observations, masks, *_ = envs[0].step(actions[0])
            actions[0] = policy(observations, masks)
            steps += games
            elapsed = time.perf_counter() - started
            if elapsed >= seconds:
                return steps / elapsed
    envs[0].send(actions[0])
    while True:
        envs[1].send(actions[1])  # both halves step now
        observations, masks, *_ = envs[0].recv()
        actions[0] = policy(observations, masks)  # while half 1 steps
        envs[0].send(actions[0])
        observations, masks, *_ = envs[1].recv()
        actions[1] = policy(observations, masks)  # while half 0 steps
        steps += games
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            break
    envs[0].recv()
    return steps / elapsed


def cpp_vector_steps(games: int, seconds: float, repeats: int, compiler: str | None) -> dict[tuple[str, int], float]:
    """Learner steps a second of benchmarks/vector_env.cpp, by observation type and thread
    count; empty without a C++ compiler."""
    if compiler is None:
        return {}
    with tempfile.TemporaryDirectory(prefix="diabolo-vector-env-") as folder:
        program = Path(folder) / "vector_env"
        built = native.compile_core_program(compiler, Path(__file__).resolve().parent / "vector_env.cpp", program)
        if built.returncode != 0:
            raise RuntimeError(f"vector_env.cpp did not compile:\n{built.stderr[-4000:]}")
        figures = {}
        for observations, code in (("float32", "0"), ("uint8", "1")):
            for threads in (1, 2):
                arguments = [str(games), str(threads), code, str(seconds), str(repeats)]
                output = subprocess.run([str(program), *arguments], check=True, capture_output=True, text=True).stdout
                figures[(observations, threads)] = float(output.strip().split("=")[1])
        return figures


def bandwidth(seconds: float = 1.0) -> float:
    """Bytes a second numpy copies between two 256 MB arrays: this machine's memory bandwidth."""
    source = np.ones(64 * 1024 * 1024, dtype=np.float32)
    target = np.empty_like(source)
    copies, started = 0, time.perf_counter()
    while True:  # one copy at least, as rate() makes
        np.copyto(target, source)
        copies += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return 2 * source.nbytes * copies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each vector env figure (the best is shown)")
    parser.add_argument("--cxx", default="c++", help="the C++ compiler for vector_env.cpp ('' to skip it)")
    args = parser.parse_args()
    if not args.seconds > 0 or args.repeats < 1:  # a rate needs some time, the best of the runs one run
        parser.error("--seconds must be positive and --repeats at least 1")
    game = diabolo.load("schacht", players=args.players)
    size = game.vector_env(1).observation_size
    print(f"Schacht, {args.players} players, opponents {args.opponent}; vector env of {args.games} games")
    row, compact = 4 * size + game.num_actions, size + game.num_actions
    print(f"  a step writes {row:,} bytes of observation and mask ({compact:,} with byte observations)")
    loop = python_loop(game, args.opponent, args.seconds)
    rows: list[tuple[str, str, float, float | None]] = [("Python loop over the API (baseline)", "learner", loop, None)]
    rows.append(("Gymnasium env (DiaboloEnv)", "learner", gymnasium_env(game, args.opponent, args.seconds), None))
    rows.append(("PettingZoo AEC env", "agent", pettingzoo_env(game, args.seconds), None))
    rows.append(("OpenSpiel (diabolo.openspiel)", "agent", openspiel_game(game, args.seconds), None))
    for observations, row_bytes in (("float32", 4 * size), ("uint8", size)):
        for threads in (1, 2):
            steps = vector_steps(
                game, args.opponent, args.games, threads, args.seconds, args.repeats, observations=observations
            )
            rows.append(
                (
                    f"vector env, {observations}, {threads} thread(s)",
                    "learner",
                    steps,
                    steps * (row_bytes + game.num_actions),
                )
            )
    steps = vector_steps(
        game, args.opponent, args.games, 2, args.seconds, args.repeats, observations="uint8", random_actions=True
    )
    rows.append(("vector env, uint8, 2 threads, random actions", "learner", steps, None))
    steps = vector_steps(
        game, args.opponent, args.games, 2, args.seconds, args.repeats, observations="uint8", action_features=True
    )
    rows.append(("vector env, uint8, 2 threads, action features", "learner", steps, None))
    for halves, name in ((False, "step"), (True, "send/recv halves")):
        steps = max(policy_steps(game, args.opponent, args.games, args.seconds, halves) for _ in range(args.repeats))
        rows.append((f"vector env, uint8, linear policy, {name}", "learner", steps, None))
    from_cpp = cpp_vector_steps(args.games, args.seconds, args.repeats, shutil.which(args.cxx) if args.cxx else None)
    for (observations, threads), steps in from_cpp.items():
        rows.append((f"vector env from C++, {observations}, {threads} thread(s)", "learner", steps, None))
    for name, unit, steps, written in rows:
        traffic = f"   {written / 1e9:5.2f} GB/s written" if written is not None else ""
        ratio = f"{steps / loop:7.1f}x" if loop > 0 else f"{'n/a':>8}"  # a baseline of 0 steps has no ratio
        print(f"  {name:<46} {steps:>12,.0f} {unit} steps/s  {ratio}{traffic}")
    print(f"  memory bandwidth (numpy copy, read + write): {bandwidth() / 1e9:.1f} GB/s")


if __name__ == "__main__":
    main()
