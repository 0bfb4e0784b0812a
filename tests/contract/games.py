"""Games and random positions shared by the contract tests."""

from __future__ import annotations

import random
from typing import Any

import diabolo
from diabolo import Lexicon

WORDS = Lexicon.from_words(["TOR", "ROT", "ORT", "REST", "RAST", "STERN", "NEST", "ERNST", "NASE", "RASEN", "TEE"])
"""A small German word list for Knizia games, with the German deck."""


CATALOGUE = tuple(entry.name for entry in diabolo.catalogue())
"""Every game of the catalogue, the test-only ones included (highcard): the contract
tests run over each with no edit for a new game."""


def new_game(name: str, players: int = 3, **options: Any) -> Any:
    """Game `name` with `players` seats; Knizia with WORDS and the German deck."""
    if name == "knizia":
        options = {"lexicon": WORDS, "deck": "de", **options}
    return diabolo.load(name, players=players, **options)


def random_states(game: Any, seed: int, limit: int) -> list[Any]:
    """The states of a random game of `game` (a random pending seat makes a random legal
    move), at most `limit` moves, the first state included."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    seen = [state.clone()]
    for _ in range(limit):
        if not state.pending_seats:
            break
        seat = rng.choice(state.pending_seats)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        seen.append(state.clone())
    return seen
