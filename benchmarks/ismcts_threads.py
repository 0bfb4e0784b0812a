"""How ISMCTS scales from one thread to two: Schacht's ``IsmctsBot`` (the flat search and the
tree, random and heuristic rollouts) searching once from each of 32 mid-game positions with
``threads=1`` and ``threads=2`` in turn, round after round, and, as the machine's own limit
in the same rounds, ``game.play_random`` (independent games, nothing shared) on 1 and 2
threads. A round of a row repeats its work for about ``--unit`` seconds on one thread.
Each row prints the median of the rounds' ratios (2 threads over 1, wall time) with the
lowest and highest round: a search is near-linear when its ratio is near play_random's.

    python benchmarks/ismcts_threads.py [--iterations 200,1000,4000] [--rounds 7] [--unit 0.25] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import diabolo
from diabolo.schacht import IsmctsBot

POSITIONS = 32


def mid_game(game: Any) -> list[Any]:
    """States of random games after 20 to 60 moves, where the searcher has a choice."""
    rng, out = random.Random(3), list[Any]()
    while len(out) < POSITIONS:
        state = game.new_state(seed=len(out) + 100)
        for _ in range(rng.randrange(20, 60)):
            if state.is_terminal:
                break
            seat = state.pending_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        if not state.is_terminal and len(state.legal_actions(state.pending_seats[0])) > 1:
            out.append(state)
    return out


def timed(work: Callable[[], object]) -> float:
    """Wall seconds of one call of `work`."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def repeated(work: Callable[[], object], times: int) -> Callable[[], object]:
    """`work` called `times` times."""
    return lambda: [work() for _ in range(times)]


def rows(game: Any, iterations: list[int]) -> dict[str, Callable[[int], Callable[[], object]]]:
    """Each row: threads -> one unit of work (the same work for either thread count)."""
    positions = mid_game(game)

    def searches(count: int, **options: Any) -> Callable[[int], Callable[[], object]]:
        def make(threads: int) -> Callable[[], object]:
            bot = IsmctsBot(iterations=count, threads=threads, **options)
            return lambda: [bot.search(s, s.pending_seats[0], seed=i) for i, s in enumerate(positions)]

        return make

    made: dict[str, Callable[[int], Callable[[], object]]] = {
        "play_random, 2,000 games (the machine's limit)": lambda threads: (
            lambda: game.play_random(2000, seed=1, threads=threads)
        )
    }
    for count in iterations:
        made[f"flat, random rollouts, {count:,} iterations"] = searches(count, heuristic_rollouts=False, belief=False)
        made[f"flat, defaults, {count:,} iterations"] = searches(count)
        made[f"tree, random rollouts, {count:,} iterations"] = searches(
            count, tree=True, heuristic_rollouts=False, belief=False
        )
        made[f"tree, defaults, {count:,} iterations"] = searches(count, tree=True)
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", default="200,1000,4000", help="search sizes, comma-separated")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of 1 and 2 threads in turn")
    parser.add_argument("--unit", type=float, default=0.25, help="seconds of one thread per round and row")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    game = diabolo.load("schacht", players=4)
    made = rows(game, [int(n) for n in args.iterations.split(",")])
    report = {}
    for name, make in made.items():
        one, two = make(1), make(2)
        two()  # warm: the first call of each pays for its memory
        repeats = max(1, round(args.unit / timed(one)))  # a unit of about --unit seconds on 1 thread
        one, two = repeated(one, repeats), repeated(two, repeats)
        ratios, seconds = [], []
        for _ in range(args.rounds):
            a, b = timed(one), timed(two)
            ratios.append(a / b)
            seconds.append(a)
        report[name] = {
            "ratio": statistics.median(ratios),
            "lowest": min(ratios),
            "highest": max(ratios),
            "one_thread_ms": statistics.median(seconds) * 1e3,
        }
        if not args.json:
            r = report[name]
            print(
                f"{name:52s} 2 threads / 1: {r['ratio']:.2f}x ({r['lowest']:.2f}-{r['highest']:.2f}),"
                f" 1 thread {r['one_thread_ms']:.0f} ms",
                flush=True,
            )
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
