"""Round summaries printed from events alone, as a spectator's screen would show them.

Plays a seeded game of Schacht and one of Duvelen with bots and prints, for every round,
what the public events said: no view, no state and no scoring rule is read. Run it with
``python docs/examples/round_summary.py``.
"""

from __future__ import annotations

from typing import Any

import diabolo
from diabolo import realtime
from diabolo.duvelen import LookaheadBot
from diabolo.schacht import HeuristicBot


def schacht_summary(events: list[dict[str, Any]], names: list[str]) -> None:
    """Prints each colour as it is scored (S5) and each round's totals."""
    for event in events:
        if event["type"] == "play_ended":
            print(f"Round {event['round'] + 1} ends ({event['reason'].replace('_', ' ')}).")
        elif event["type"] == "colour_scored":
            if event["outcome"] == "even":
                print(f"  {event['colour']}: angels {event['angel']} = devils {event['devil']}, nobody scores")
                continue
            sign = "+" if event["outcome"] == "positive" else "-"
            hands = ", ".join(
                f"{names[seat]} {'+'.join(card[1] for card in cards) or '-'}"
                for seat, cards in enumerate(event["hands"])
            )
            points = [f"{names[seat]} {p:+d}" for seat, p in enumerate(event["points"]) if p]
            bets = f"; doubled: {', '.join(names[s] for s in event['bets'])}" if event["bets"] else ""
            print(
                f"  {event['colour']}: angels {event['angel']} vs devils {event['devil']} ({sign}); "
                f"hands {hands}{bets} -> {', '.join(points) or 'nobody scores'}"
            )
        elif event["type"] == "round_ended":
            print("  totals: " + ", ".join(f"{names[s]} {score}" for s, score in enumerate(event["scores"])))
        elif event["type"] == "game_ended":
            print("Winner(s): " + ", ".join(names[s] for s in event["winners"]))


def duvelen_summary(events: list[dict[str, Any]], names: list[str]) -> None:
    """Prints each round's end, with where every seat's points came from (D5)."""
    for event in events:
        if event["type"] == "stop_called":
            print(f"{names[event['seat']]} calls Stop.")
        elif event["type"] == "round_ended":
            print(f"Round {event['round'] + 1} ends ({event['reason'].replace('_', ' ')}).")
            held = {seat: 0 for seat in range(len(names))}
            for pile in event["herenhopen"]:
                held[pile["holder"]] += 1
            for seat, points in enumerate(event["points"]):
                left = event["seats"][seat]["stok_count"]
                print(f"  {names[seat]}: {points:+d} (Stok left {left}, Herenhopen {held[seat]})")
            print("  totals: " + ", ".join(f"{names[s]} {score}" for s, score in enumerate(event["scores"])))
        elif event["type"] == "game_ended":
            print("Winner(s): " + ", ".join(names[s] for s in event["winners"]))


def main() -> None:
    names = ["Ann", "Bo", "Cy"]
    print("== Diabolo (Schacht), 3 players, seed 4 ==")
    state = diabolo.load("schacht", players=3, rounds=2).new_state(seed=4)
    bots = [HeuristicBot(), HeuristicBot(), HeuristicBot()]
    step = 0
    while not state.is_terminal:
        seat = state.pending_seats[0]
        state.apply(bots[seat].choose(state, seat, seed=step), player=seat)
        schacht_summary(state.public_events(), names)
        step += 1

    print()
    print("== Duvelen, 3 players, seed 4 ==")
    start = diabolo.load("duvelen", players=3, rounds=2).new_state(seed=4)
    run = realtime.simulate(start, [LookaheadBot()] * 3, seed=4)
    state = start.clone()
    for arrival in run.log:
        if arrival.accepted:
            state.apply(arrival.move, player=arrival.player)
            duvelen_summary(state.public_events(), names)


if __name__ == "__main__":
    main()
