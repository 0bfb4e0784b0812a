"""The rows benchmarks/compare.py times, served by each side's Python: it prints the rows'
names as a JSON list, then answers each line "ROW SECONDS" on stdin with that row's
operations per second, so that the two sides' processes can be asked in turn, row by row.
Only the public API that every version has (diabolo.load, new_state, legal_actions,
apply, clone, to_json, state_from_json, observation, play_random), so that any two commits
compare.

    python benchmarks/compare_rows.py [--games schacht,duvelen,knizia]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import diabolo


def rate(work: Callable[[], int], seconds: float) -> float:
    """Operations per second of `work` (which returns how many it did), over `seconds`."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or done == 0:
        done += work()
    return done / elapsed


def load(name: str) -> Any:
    if name == "knizia":
        return diabolo.load("knizia", players=3)
    return diabolo.load(name, players=4)


def positions(game: Any, count: int) -> list[Any]:
    """States of random games, a few moves apart: what the per-call rows run on."""
    rng, states = random.Random(1), list[Any]()
    state = game.new_state(seed=1)
    while len(states) < count:
        if state.is_terminal:
            state = game.new_state(seed=len(states) + 2)
        seat = rng.choice(state.pending_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        states.append(state.clone())
    return states


def row_makers(name: str) -> dict[str, Callable[[], int]]:
    """The rows of one game: each a unit of work that returns how many operations it did."""
    game = load(name)
    seed = iter(range(10**9))

    def python_steps() -> int:
        state, rng, steps = game.new_state(seed=next(seed)), random.Random(0), 0
        while not state.is_terminal and steps < 2000:
            seat = state.pending_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
            steps += 1
        return steps

    sample = positions(game, 64)
    texts = [state.to_json() for state in sample]

    def each(call: Callable[[Any], object], over: list[Any]) -> Callable[[], int]:
        def work() -> int:
            for item in over:
                call(item)
            return len(over)

        return work

    found = {
        "python steps/s": python_steps,
        "clone/s": each(lambda state: state.clone(), sample),
        "to_json/s": each(lambda state: state.to_json(), sample),
        "state_from_json/s": each(game.state_from_json, texts),
        "observation/s": each(lambda state: state.observation(0), sample),
    }
    if name != "knizia":  # Knizia's random games are its word list's, not the engine's
        found["play_random games/s"] = lambda: len(game.play_random(64, seed=next(seed))["moves"])
    return {f"{name} {row}": work for row, work in found.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="schacht,duvelen,knizia")
    args = parser.parse_args()
    rows: dict[str, Callable[[], int]] = {}
    for name in args.games.split(","):
        rows |= row_makers(name)
    print(json.dumps(list(rows)), flush=True)
    for line in sys.stdin:  # "ROW SECONDS": that row's rate, one line of JSON
        row, seconds = line.rsplit(" ", 1)
        print(json.dumps(rate(rows[row], float(seconds))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
