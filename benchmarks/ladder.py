"""The strength ladder: a seat-rotated round robin (:func:`diabolo.tournament`) of every
bot kind of every game, Elo ratings with 95% bootstrap intervals, written to
``python/diabolo/ladder.json`` (read by :mod:`diabolo.ladder` and the server's levels)
and ``docs/strength_tables.inc`` (included by ``docs/strength.rst``).

    python benchmarks/ladder.py                  # every game, the published settings
    python benchmarks/ladder.py --game knizia    # one game again, the others' ladders kept
    python benchmarks/ladder.py --games 40 --game duvelen --out /tmp/ladder   # a quick look

About 34 minutes on 2 cores, 24 of them the Schacht searches.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from collections.abc import Sequence
from typing import Any

import diabolo
from diabolo import ladder

ROOT = pathlib.Path(__file__).resolve().parent.parent

BOTS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "schacht": {
        "random": ("random", {}),
        "heuristic": ("heuristic", {}),
        "learned": ("learned", {}),
        "ismcts (100)": ("ismcts", {"iterations": 100}),
        "ismcts": ("ismcts", {}),
        "ismcts (tree)": ("ismcts", {"tree": True}),
    },
    "knizia": {
        "random": ("random", {}),
        "word (30% of words)": ("word", {"coverage": 0.3}),
        "word": ("word", {}),
        "lookahead": ("lookahead", {}),
        "search": ("search", {}),
    },
    "duvelen": {
        "random": ("random", {}),
        "greedy": ("greedy", {}),
        "lookahead": ("lookahead", {}),
        "search": ("search", {}),
    },
}
"""Each game's bots on the ladder: name -> (kind, options). Every kind of the catalogue
is there with its default options."""

PLAYERS = {"schacht": 4, "knizia": 4, "duvelen": 4}
GAMES = {"schacht": 400, "knizia": 1000, "duvelen": 2000}
"""Games per pairing (seat-rotated, seats taken a, b, a, b)."""
SEED = 2026


def play(name: str, games: int, threads: int) -> dict[str, Any]:
    """The tournament of game `name`'s bots: the ladder.json entry."""
    game = diabolo.load(name, players=PLAYERS[name])
    bots = {bot: diabolo.bot(name, kind, **options) for bot, (kind, options) in BOTS[name].items()}
    started = time.perf_counter()
    result = diabolo.tournament(game, bots, games=games, seed=SEED, threads=threads)
    seconds = time.perf_counter() - started
    print(result.table(), f"\n({games} games a pairing, {seconds:.0f} s)\n", file=sys.stderr)
    title = next(entry.title for entry in diabolo.catalogue() if entry.name == name)
    return {
        "title": title,
        "players": PLAYERS[name],
        "games_per_pairing": games,
        "seed": SEED,
        "seconds": round(seconds, 1),
        "rungs": [
            {
                "name": bot,
                "kind": kind,
                "options": options,
                "elo": round(result.elo[bot], 1),
                "low": round(result.elo_interval[bot][0], 1),
                "high": round(result.elo_interval[bot][1], 1),
            }
            for bot, (kind, options) in BOTS[name].items()
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(BOTS), help="only these games (default: all)")
    parser.add_argument("--games", type=int, default=None, help="games a pairing (default: the published counts)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=pathlib.Path, default=None, help="a folder for both files (default: in place)")
    args = parser.parse_args(argv)
    json_path = args.out / "ladder.json" if args.out else ROOT / "python" / "diabolo" / "ladder.json"
    tables_path = args.out / "strength_tables.inc" if args.out else ROOT / "docs" / "strength_tables.inc"
    data: dict[str, Any] = {"command": "python benchmarks/ladder.py", "games": {}}
    if args.game and json_path.exists():  # some games again: the others' ladders stay as they are
        data["games"] = json.loads(json_path.read_text(encoding="utf-8"))["games"]
    for name in args.game or BOTS:
        data["games"][name] = play(name, args.games or GAMES[name], args.threads)
    data["games"] = {name: data["games"][name] for name in BOTS if name in data["games"]}
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tables_path.write_text("\n".join(ladder.table(name, data) for name in data["games"]), encoding="utf-8")
    print(f"wrote {json_path} and {tables_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
