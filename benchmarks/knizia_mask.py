"""The legal actions of Knizia's game with the German word list at its hardest tables, from
Python: ``state.legal_action_mask`` (what learners read), the ids as an array from it, and
``state.legal_actions`` (a list of ints).

The tables are the first cards of the German deck, shuffled by
``random.Random(size * 100 + table)``, in four families (K3.3 says why each is hard):

- ``jokers``: its six jokers (``?`` x4, ``??`` x2) revealed first: the most words formable;
- ``random``: the deck as shuffled, jokers revealed at any point;
- ``doubles``: its eleven double letter cards first, the rest as shuffled: many words that
  need tiles, decided by the exact search over them when few jokers are out;
- ``jokers+doubles``: the four single jokers and every two-letter card first.

For each family and size it reports the worst of ``--tables`` tables, each the best of
``--repeats`` calls after one untimed call, and then the worst tables of all, with the
time of ``legal_actions`` there. The figures
are absolute: the measure is the time a learner waits for one seat's mask. The baseline
in the same run is ``legal_moves`` at the worst table: the word finder's walk, which finds
each word's cards too (what the legal actions took before they were decided from the
letter counts).

    python benchmarks/knizia_mask.py [--families jokers,random,doubles,jokers+doubles]
        [--sizes 12-45] [--tables 12] [--repeats 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import diabolo
from diabolo.knizia import KniziaGame, KniziaState

WORST = 8  # tables listed, with the time of legal_actions


def best_of(repeats: int, call: Callable[[], object]) -> float:
    """The fastest of ``repeats`` timed calls, in milliseconds, after one untimed call."""
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def ids_array(state: KniziaState) -> np.ndarray[Any, np.dtype[np.intp]]:
    """Seat 1's legal action ids as an array, from the mask."""
    return np.flatnonzero(state.legal_action_mask(1))


FIRST: dict[str, Callable[[str], bool]] = {
    "jokers": lambda card: card.startswith("?"),
    "random": lambda card: False,
    "doubles": lambda card: len(card) == 2 and card != "??",
    "jokers+doubles": lambda card: len(card) == 2 or card == "?",
}
"""Each family's cards revealed first (see the description)."""


def table_state(game: KniziaGame, family: str, size: int, table: int) -> KniziaState:
    """The state after ``size`` reveals of the deck shuffled, the family's cards first."""
    cards = [card for card, count in game.deck.cards.items() for _ in range(count)]
    first = [card for card in cards if FIRST[family](card)]
    others = [card for card in cards if not FIRST[family](card)]
    random.Random(size * 100 + table).shuffle(others)
    if family != "jokers":  # the family's own cards in shuffled order too (the jokers' order does not matter)
        random.Random(size * 100 + table).shuffle(first)
    state = game.new_state(deck=first + others)
    assert isinstance(state, KniziaState)
    for _ in range(size):
        state.apply("reveal", player=0)
    return state


def run(families: list[str], sizes: range, tables: int, repeats: int) -> dict[str, Any]:
    game = diabolo.load("knizia", players=3)
    assert isinstance(game, KniziaGame)
    rows: list[dict[str, Any]] = []
    for family, size, table in ((f, s, t) for f in families for s in sizes for t in range(tables)):
        state = table_state(game, family, size, table)
        rows.append(
            {
                "family": family,
                "cards": size,
                "index": table,
                "table": " ".join(state.table),
                "legal": int(state.legal_action_mask(1).sum()),
                "mask_ms": best_of(repeats, partial(state.legal_action_mask, 1)),
                "ids_array_ms": best_of(repeats, partial(ids_array, state)),
            }
        )
    rows.sort(key=lambda row: -row["mask_ms"])
    for row in rows[:WORST]:  # a list of hundreds of thousands of ints takes its time too
        state = table_state(game, row["family"], row["cards"], row["index"])
        row["ids_list_ms"] = best_of(repeats, partial(state.legal_actions, 1))
    worst = table_state(game, rows[0]["family"], rows[0]["cards"], rows[0]["index"])
    return {"worst_table_legal_moves_ms": best_of(1, partial(worst.legal_moves, 1)), "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(FIRST), help=f"table families, of {', '.join(FIRST)}")
    parser.add_argument("--sizes", default="12-45", help="table sizes, FIRST-LAST (default 12-45)")
    parser.add_argument("--tables", type=int, default=12, help="tables per family and size (default 12)")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per table (default 5)")
    parser.add_argument("--json", action="store_true", help="print every table as JSON")
    arguments = parser.parse_args()
    families = arguments.families.split(",")
    unknown = [family for family in families if family not in FIRST]
    if unknown:
        parser.error(f"no table family {unknown[0]!r}: the families are {', '.join(FIRST)}")
    first, _, last = arguments.sizes.partition("-")
    table_sizes = range(int(first), int(last or first) + 1)
    if not table_sizes or arguments.tables < 1 or arguments.repeats < 1:  # no table or no timed call: nothing to report
        parser.error("--sizes must name at least one size (FIRST <= LAST), --tables and --repeats must be at least 1")
    result = run(families, table_sizes, arguments.tables, arguments.repeats)
    if arguments.json:
        print(json.dumps(result, indent=2))
        return
    rows = result["rows"]
    walk = result["worst_table_legal_moves_ms"]
    print(f"{len(rows)} tables; at the worst, legal_moves (the walk, with each word's cards) takes {walk:,.0f} ms,")
    print(f"{walk / rows[0]['mask_ms']:,.0f}x the mask")
    print(f"{'family':<16}{'tables':>7}{'median ms':>11}{'p99 ms':>8}{'worst ms':>10}  worst mask by size (ms)")
    for family in families:
        times = sorted(row["mask_ms"] for row in rows if row["family"] == family)
        by_size: dict[int, float] = {}
        for row in rows:
            if row["family"] == family:
                by_size[row["cards"]] = max(by_size.get(row["cards"], 0.0), row["mask_ms"])
        sizes = " ".join(f"{size}:{ms:.0f}" for size, ms in sorted(by_size.items()))
        p99 = times[min(len(times) - 1, len(times) * 99 // 100)]
        print(f"{family:<16}{len(times):>7}{statistics.median(times):>11.1f}{p99:>8.1f}{times[-1]:>10.1f}  {sizes}")
    print(f"{'mask ms':>8}{'ids array ms':>14}{'ids list ms':>13}{'legal':>9}  {'family':<15} cards  table")
    for row in rows[:WORST]:
        print(
            f"{row['mask_ms']:>8.2f}{row['ids_array_ms']:>14.2f}{row['ids_list_ms']:>13.2f}{row['legal']:>9,}"
            f"  {row['family']:<15} {row['cards']:>5}  {row['table']}"
        )


if __name__ == "__main__":
    main()
