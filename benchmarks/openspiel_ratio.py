"""diabolo's Schacht (4 players) against OpenSpiel's hearts (4 players), the nearest trick
game OpenSpiel has, in one process, interleaved: each round times every row once for
each side, A then B, B then A in every other round, and the table gives the median of the
rounds' ratios (diabolo over OpenSpiel, higher is better for diabolo) with the lowest and
highest round.

Rows:
- ``python step``: a Python loop over the public API, as a search or learning loop writes
  it: ``current_player``/``is_terminal``, ``legal_actions(p)`` and ``apply(a, player=p)``
  (OpenSpiel: ``current_player()``, ``is_terminal()``, ``is_chance_node()`` with its chance
  outcomes, ``legal_actions()``, ``apply_action(a)``); the action is a pseudo-random pick
  from the list, the same arithmetic on both sides. Steps per second, chance steps
  included for OpenSpiel.
- ``C++ random play``: whole random games played in C++ (``game.play_random``, one thread;
  OpenSpiel: ``pyspiel.evaluate_bots`` with uniform random bots), players' moves per second,
  the deals in the time (OpenSpiel's chance moves are not counted as moves: diabolo deals
  inside its moves).
- ``ISMCTS``: iterations per second of one search from mid-game positions, one thread,
  random rollouts (diabolo: ``IsmctsBot(heuristic_rollouts=False, belief=False)``;
  OpenSpiel: ``ISMCTSBot`` with ``RandomRolloutEvaluator(1)``); ``ISMCTS, defaults``: the
  same with the bot's defaults (heuristic rollouts, card-belief sampling) against the same
  OpenSpiel bot.
- ``to_json`` / ``round trip``: the whole state as text, and text back to a state
  (OpenSpiel: ``serialize()``, ``deserialize_state(serialize())``) on 64 mid-game states.
- ``observation dict``: ``observation(p)``, the JSON-ready view, against OpenSpiel's
  ``information_state_string(p)`` (its closest: hearts has no dict view, nor an observation string), on the same states,
  the seat of each found beforehand (``pending_seats`` builds a list, about 2% of a view) and the method called
  without a lambda around it.

    python benchmarks/openspiel_ratio.py [--rounds 7] [--seconds 0.3] [--json]

Needs the ``openspiel`` extra (``pip install ".[openspiel]"``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import pyspiel

import diabolo
import diabolo.schacht

Work = Callable[[], int]  # one unit of work; returns how many operations it did


def rate(work: Work, seconds: float) -> float:
    """Operations per second of `work`, called until `seconds` have passed (once at least)."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or done == 0:
        done += work()
    return done / elapsed


class Picks:
    """The same pseudo-random picks on both sides: ``picks(n)`` is ``int(random() * n)`` of
    a seeded generator, a C call and two operations, so that the loops measure the engines
    rather than the picking (``random.choice`` alone costs about as much as a diabolo step)."""

    def __init__(self, seed: int = 12345) -> None:
        self.random = random.Random(seed).random

    def __call__(self, n: int) -> int:
        return int(self.random() * n)


# ---- diabolo ------------------------------------------------------------------------------


def diabolo_rows(seed: int) -> dict[str, Work]:
    game = diabolo.load("schacht", players=4)
    seeds = iter(range(seed, 10**9))
    picks = Picks()

    def python_steps() -> int:
        state, steps, pick = game.new_state(seed=next(seeds)), 0, picks.random
        while not state.is_terminal:
            p = state.current_player
            if p < 0:  # the simultaneous doubler decision: the first seat still to decide
                p = state.pending_seats[0]
            actions = state.legal_actions(p)
            state.apply(actions[int(pick() * len(actions))], player=p)
            steps += 1
        return steps

    def random_play() -> int:
        return int(game.play_random(64, seed=next(seeds))["moves"].sum())

    positions = mid_game(game, seed)
    at = iter(range(10**9))

    def search(bot: diabolo.schacht.IsmctsBot) -> Work:
        def work() -> int:
            state = positions[next(at) % len(positions)]
            return int(bot.search(state, state.pending_seats[0], seed=next(seeds)).iterations)

        return work

    return {
        "python step": python_steps,
        "C++ random play": random_play,
        "ISMCTS": search(diabolo.schacht.IsmctsBot(iterations=200, heuristic_rollouts=False, belief=False)),
        "ISMCTS, defaults": search(diabolo.schacht.IsmctsBot(iterations=200)),
        "to_json": each(lambda state: state.to_json(), positions),
        "round trip": each(lambda state: game.state_from_json(state.to_json()), positions),
        "observation dict": each_seat(type(positions[0]).observation, [(s, s.pending_seats[0]) for s in positions]),
    }


def mid_game(game: Any, seed: int) -> list[Any]:
    """64 states of random games, each after 20 to 60 moves."""
    picks, out = Picks(), []
    for n in range(64):
        state = game.new_state(seed=seed + n)
        for _ in range(20 + n % 41):
            if state.is_terminal:
                break
            p = state.pending_seats[0]
            actions = state.legal_actions(p)
            state.apply(actions[picks(len(actions))], player=p)
        out.append(state if not state.is_terminal else game.new_state(seed=seed + n))
    return out


# ---- OpenSpiel ----------------------------------------------------------------------------


def openspiel_rows(seed: int) -> dict[str, Work]:
    game = pyspiel.load_game("hearts")
    picks = Picks()
    seeds = iter(range(seed, 10**9))

    def python_steps() -> int:
        state, steps, pick = game.new_initial_state(), 0, picks.random
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(pick() * len(outcomes))][0])
            else:
                state.current_player()
                actions = state.legal_actions()
                state.apply_action(actions[int(pick() * len(actions))])
            steps += 1
        return steps

    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    moves_per_game = game_length(game)

    def random_play() -> int:
        for _ in range(16):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
        return round(16 * moves_per_game)

    positions = os_mid_game(game)
    iterations = 200
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.ISMCTSBot(
        seed,
        evaluator,
        2.0,
        iterations,
        -1,  # no limit on the worlds sampled
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,  # information state strings (hearts has no observation string)
        True,  # hearts' information states may hold states with different legal actions: without it, it crashes
    )
    at = iter(range(10**9))

    def search() -> int:
        bot.step(positions[next(at) % len(positions)])
        return iterations

    return {
        "python step": python_steps,
        "C++ random play": random_play,
        "ISMCTS": search,
        "ISMCTS, defaults": search,
        "to_json": each(lambda state: state.serialize(), positions),
        "round trip": each(lambda state: game.deserialize_state(state.serialize()), positions),
        "observation dict": each_seat(
            type(positions[0]).information_state_string, [(s, s.current_player()) for s in positions]
        ),
    }


def game_length(game: Any, games: int = 400) -> float:
    """Players' moves in a hearts game, on average: 64 (12 cards passed, 52 played), or 52
    in the deals without a pass (one in 4). Chance moves (the deal, card by card, and the
    pass direction) are not counted: diabolo deals inside its moves and its new states."""
    picks, moves = Picks(), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            moves += random_step(state, picks)
    return moves / games


def random_step(state: Any, picks: Picks) -> bool:
    """Plays a random chance outcome or a random legal action of a hearts state: whether
    it was a player's move."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[picks(len(outcomes))][0])
        return False
    actions = state.legal_actions()
    state.apply_action(actions[picks(len(actions))])
    return True


def os_mid_game(game: Any) -> list[Any]:
    """64 hearts states at a player's decision, after the deal and the pass (OpenSpiel's
    ISMCTS crashes on some positions of the pass), 2 to 42 cards into the play."""
    picks, out = Picks(), []
    for n in range(64):
        state, played = game.new_initial_state(), 0
        while played < 12 + 2 + n % 41 and not state.is_terminal():  # hearts may end early: all points taken
            played += random_step(state, picks)
        if not state.is_terminal():
            out.append(state)
    return out


def each(call: Callable[[Any], object], over: list[Any]) -> Work:
    def work() -> int:
        for item in over:
            call(item)
        return len(over)

    return work


def each_seat(method: Callable[[Any, int], object], seen: list[tuple[Any, int]]) -> Work:
    """`method` of each state for its seat, called as the class's function: the loop
    measures the call, not a lambda around it (the same on both sides)."""

    def work() -> int:
        for state, seat in seen:
            method(state, seat)
        return len(seen)

    return work


# ---- the run ------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.3, help="time of each row per side and round")
    parser.add_argument("--rows", default="", help="comma-separated row names (default: all)")
    parser.add_argument("--json", action="store_true", help="the results as one JSON object on the last line")
    args = parser.parse_args()
    ours, theirs = diabolo_rows(1), openspiel_rows(1)
    names = [name for name in ours if not args.rows or name in args.rows.split(",")]
    load_before = os.getloadavg()[0]
    print(
        f"diabolo {diabolo.__version__} vs OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}"
        f" (hearts), Python {platform.python_version()}, {os.cpu_count()} cores, load {load_before:.2f}",
        file=sys.stderr,
    )
    rates: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}
    for r in range(args.rounds):
        for name in names:
            sides = [(0, ours[name]), (1, theirs[name])]
            for side, work in sides if r % 2 == 0 else sides[::-1]:
                rates[name][side].append(rate(work, args.seconds))
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
    load_after = os.getloadavg()[0]
    results = {}
    print(f"{'row':<18} {'diabolo/s':>14} {'OpenSpiel/s':>14} {'ratio':>7}  (rounds: low-high)")
    for name in names:
        a, b = rates[name]
        ratios = [x / y for x, y in zip(a, b)]
        ratio = statistics.median(ratios)
        results[name] = {"diabolo": statistics.median(a), "openspiel": statistics.median(b), "ratio": ratio}
        print(
            f"{name:<18} {statistics.median(a):>14,.0f} {statistics.median(b):>14,.0f} {ratio:>6.2f}x"
            f"  ({min(ratios):.2f}-{max(ratios):.2f})"
        )
    print(f"load average {load_before:.2f} before, {load_after:.2f} after")
    if args.json:
        print(json.dumps({"rows": results, "load": [load_before, load_after]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
