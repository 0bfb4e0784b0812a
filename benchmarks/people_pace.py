"""The share of the calls (Knizia) or plays onto the shared piles (Duvelen) a person who
needs 3 s makes against a game server's real-time bots, at each level, in simulated time.

The person is modelled as a bot that sees what the game's medium bot sees (Knizia's word
bot, Duvelen's greedy bot) and needs ``--person`` seconds (spread 0.5 s) for each call or
play, whatever its length; their other actions (a reveal, turning their own cards) take a
quick human's time. The bots are the server's (``diabolo.server.tables.make_bot`` with no
options: each level's pace, ``PACES`` of the game's module). Every seat count from 2 to 4
plays ``--games`` seeded games per bot kind, the person in seat 0 and the other seats
bots of one kind; a fair share is 1 / seats. The baseline in the same run is the same
bot at a quick human's pace (``diabolo.bot`` with no options): what the server gave
every level before.

    python benchmarks/people_pace.py [--games 24] [--person 3.0] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from functools import partial
from typing import Any

import diabolo
from diabolo.realtime import Reaction, simulate
from diabolo.server.tables import bot_level, make_bot

RACES = {"knizia": "claim", "duvelen": "play"}
"""The action of each game whose races a person wins or loses."""


def person(game: str, seconds: float) -> Any:
    """A person who needs ``seconds`` to see a word or a play (and calls it whatever its length)."""
    race = RACES[game]
    if game == "knizia":
        return diabolo.bot(game, "word", reaction=Reaction({race: (seconds, 0.5)}), per_letter=0.0)
    return diabolo.bot(game, "greedy", reaction=Reaction({race: (seconds, 0.5)}))


def share(game: str, seats: int, bot: Callable[[], Any], games: int, seconds: float) -> tuple[float, int]:
    """The person's share of the accepted races in ``games`` seeded games, and their count."""
    rules: Any = diabolo.load(game, players=seats)
    race = RACES[game]
    mine = every = 0
    for seed in range(games):
        bots = [person(game, seconds), *(bot() for _ in range(seats - 1))]
        run = simulate(rules.new_state(seed=seed), bots, seed=seed, max_time=3600)
        for step in run.log:
            if step.accepted and step.move.kind == race:
                every += 1
                mine += step.player == 0
    return mine / max(every, 1), every


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--person", type=float, default=3.0, help="seconds the person needs per call or play")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game in RACES:
        for kind in diabolo.bot_kinds(game):
            level = bot_level(game, kind, {})
            for seats in range(2, 5):
                served = share(game, seats, partial(make_bot, game, kind, {}), args.games, args.person)
                baseline = share(game, seats, partial(diabolo.bot, game, kind), args.games, args.person)
                rows.append(
                    {
                        "game": game,
                        "kind": kind,
                        "level": level,
                        "seats": seats,
                        "fair": round(1 / seats, 3),
                        "share": round(served[0], 3),
                        "races": served[1],
                        "quick_share": round(baseline[0], 3),
                    }
                )
                if not args.json:
                    row = rows[-1]
                    quick = row["quick_share"]
                    print(
                        f"{game:8} {kind:10} {level or '-':7} {seats} seats: person {row['share']:.3f}"
                        f" of {row['races']} (fair {row['fair']:.3f}; at a quick human's pace {quick:.3f})",
                        flush=True,
                    )
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
