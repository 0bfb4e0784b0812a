"""The ``diabolo`` command line: ``python -m diabolo`` runs a demo game.

``diabolo demo`` (the default) lets seeded bots play a whole game of Diabolo
(Schacht) and prints every round and the final result table.
"""

from __future__ import annotations

import argparse
import sys

import diabolo
from diabolo.bots import RandomBot

def demo(players: int, seed: int) -> int:
    """Bots play one seeded game; prints each round's moves, its table and the scores."""
    game = diabolo.load("schacht", players=players)
    state = game.new_state(seed=seed)
    bots = [RandomBot(seed=seed * 100 + seat) for seat in range(players)]
    print(f"Diabolo (Schacht): {players} random bots, {game.rounds} rounds, seed {seed}")
    while not state.is_terminal:
        round_number, before = state.round, list(state.scores)
        print(f"\nRound {round_number + 1}, dealer seat {state.dealer}, seat {state.current_player} starts")
        moves: list[str] = []
        table = str(state)
        while state.round == round_number and not state.is_terminal:
            seats = [state.current_player] if state.current_player >= 0 else [
                seat for seat in range(players) if state.legal_actions(seat)
            ]
            for seat in seats:
                if state.phase == "play":
                    table = str(state)
                move = bots[seat].choose(state, seat)
                state.apply(move, player=seat)
                moves.append(f"{seat}:{move}")
        for start in range(0, len(moves), 12):
            print("  " + " ".join(moves[start : start + 12]))
        print("  the table before the last card was placed:")
        print("\n".join("  " + line for line in table.splitlines()[1:]))
        change = "  ".join(f"seat {s}: {now - was:+d}" for s, (now, was) in enumerate(zip(state.scores, before)))
        print(f"  round score: {change}")
    print("\nFinal result")
    print("  seat  bot     total")
    for seat, total in enumerate(state.scores):
        mark = "  winner" if seat in state.winners else ""
        print(f"  {seat:>4}  {bots[seat].name:<6} {total:>6}{mark}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``diabolo`` command."""
    parser = argparse.ArgumentParser(prog="diabolo", description="Rules engine for devilish card games.")
    commands = parser.add_subparsers(dest="command")
    demo_parser = commands.add_parser("demo", help="bots play a seeded game of Diabolo (Schacht) (default)")
    demo_parser.add_argument("--players", type=int, default=4, help="3-5 players (default 4)")
    demo_parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the bots (default 1)")
    args = parser.parse_args(argv)
    if args.command in (None, "demo"):
        try:
            return demo(getattr(args, "players", 4), getattr(args, "seed", 1))
        except diabolo.DiaboloError as error:
            parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
