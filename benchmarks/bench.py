#!/usr/bin/env python3
"""Speed of the diabolo engine, as ratios against baselines measured in the same run.

Usage (from the repository root, with diabolo installed)::

    python benchmarks/bench.py schacht [--seconds 2] [--players 4] [--json]
    python benchmarks/bench.py duvelen [--seconds 2] [--players 4] [--json]
    python benchmarks/bench.py knizia [--seconds 2] [--json]
    python benchmarks/bench.py strength [--games 2000] [--json]
    python benchmarks/bench.py live [--games 2000] [--json]

schacht prints one table: random games per second through the public Python API, the C++
batch entry point (1 and 2 threads) and the pure-Python reference model (tests/reference),
with ratios; the cost per call from Python of the main state methods; and, if a C++
compiler is available, the cost of a Position copy and of a move in the C++ core
(benchmarks/clone_bench.cpp).

duvelen prints the real-time simulation of greedy bots (rounds and accepted actions per
second) through diabolo.realtime.simulate_many (1 and 2 threads), through
realtime.simulate with bots written in Python, and through the same event loop in plain
Python over the reference model (benchmarks/py_realtime.py), with ratios; then random
games and the cost per call as for schacht.

knizia measures the words of Knizia's Diabolo over the German word list (install it with
``pip install ./lexicons/de``): the lexicon's load times (from the text list, from the
cached binary form) and size, ``word in lexicon`` from Python, diabolo.knizia.find_words
on random 12-card tables against a pure-Python trie search (benchmarks/py_words.py; both
must find the same words on every table), and check_word calls per second.
strength plays seat-rotated Schacht matches (heuristic vs random, ISMCTS and learned vs heuristic) and
measures the search's speed; live plays the real-time games' bots against each other (the
search against three of the strongest) and times the search's decisions.
benchmarks/README.md explains every row.

This script parses the command line and calls the module of the subject, beside it:
game_speed.py (schacht, duvelen), word_speed.py (knizia) and bot_strength.py (strength,
live); report.py holds what they share (rows, machine information, timing helpers and
the output).

Run by hand only: timings depend on the machine and its load, so no test asserts them
(docs/performance.rst).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # for tests.reference, the pure-Python baseline
if str(REPO / "benchmarks") not in sys.path:
    sys.path.insert(0, str(REPO / "benchmarks"))  # for the modules of each subject, beside this script

from bot_strength import main_live, main_strength  # noqa: E402
from game_speed import main_duvelen, main_schacht  # noqa: E402
from word_speed import main_knizia  # noqa: E402

import diabolo  # noqa: E402
from diabolo.duvelen import DuvelenGame  # noqa: E402

GAMES = ["schacht", "duvelen", "knizia"]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Speed of the diabolo engine, with ratios against baselines measured in the same run."
    )
    parser.add_argument(
        "game",
        choices=(*GAMES, "strength", "live"),
        help="the game to measure, or 'strength' for the Schacht bots' matches, 'live' for the real-time games' bots",
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget of each measurement (default 2)")
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4; not used by knizia)")
    parser.add_argument("--json", action="store_true", help="also print the results as one JSON object (last line)")
    parser.add_argument("--cxx", default=None, help="C++ compiler for clone_bench.cpp (default: c++ on PATH)")
    parser.add_argument(
        "--games", type=int, default=2000, help="games per match of 'strength' and 'live' (default 2000)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.game == "knizia":  # words only: no game object, no players
        return main_knizia(args)
    if args.game == "strength":
        return main_strength(args)
    if args.game == "live":
        return main_live(args)
    players: int = args.players
    try:
        game = diabolo.load(args.game, players=players)
    except diabolo.OptionError as error:
        print(f"bench.py: {error}", file=sys.stderr)
        return 2
    if isinstance(game, DuvelenGame):
        return main_duvelen(args, game)
    return main_schacht(args, game)


if __name__ == "__main__":
    sys.exit(main())
