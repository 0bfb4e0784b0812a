"""Differential test: the C++ engine against the pure-Python reference model.

On thousands of random games (deals and moves drawn from a seeded ``random.Random``)
the engine's legal moves, observations and scores must equal the model's for every
seat at every step. The model (tests/reference/schacht.py) is a plain second
implementation of docs/games/schacht.rst, so a difference is a bug in one of them.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

import diabolo
from tests.reference.schacht import SchachtModel, full_deck

# CI plays 2,000 games (the floor); a local run plays fewer.
GAMES = int(os.environ.get("DIABOLO_DIFF_GAMES", "2000" if os.environ.get("CI") else "300"))
CHUNKS = 10


def random_setup(rng: random.Random) -> tuple[dict[str, Any], list[list[str]]]:
    """Options and one deal per round. Mostly default rules, sometimes every option varied."""
    players = rng.choice([3, 4, 5])
    options: dict[str, Any] = {"players": players, "rounds": rng.randint(1, players)}
    if rng.random() < 0.3:
        options["rows_to_end"] = rng.randint(1, 5)
    if rng.random() < 0.2:
        options["value_counts"] = tuple(rng.randint(1, 5) for _ in range(5))
    counts = tuple(options.get("value_counts", (4, 3, 3, 2, 2)))
    decks = []
    for _ in range(options["rounds"]):
        deck = full_deck(counts)
        rng.shuffle(deck)
        decks.append(deck)
    return options, decks


def normalised(data: dict[str, Any]) -> Any:
    """JSON round trip, so tuples and lists compare equal."""
    return json.loads(json.dumps(data))


def compare(state: diabolo.schacht.SchachtState, model: SchachtModel, players: int, where: str) -> None:
    assert state.current_player == model.current_player, where
    assert state.scores == model.scores, where
    for seat in range(players):
        assert [str(m) for m in state.legal_moves(seat)] == model.legal_moves(seat), f"{where} seat {seat}"
        assert normalised(state.observation(seat)) == normalised(model.observation(seat)), f"{where} seat {seat}"


def play_and_compare(seed: int) -> int:
    rng = random.Random(seed)
    options, decks = random_setup(rng)
    players = options["players"]
    game = diabolo.load("schacht", **options)
    state = game.new_state(seed=seed, decks=decks)
    model = SchachtModel(
        players,
        decks,
        rounds=options["rounds"],
        rows_to_end=options.get("rows_to_end"),
        value_counts=tuple(options.get("value_counts", (4, 3, 3, 2, 2))),
    )
    steps = 0
    while True:
        compare(state, model, players, f"seed {seed} step {steps}")
        if state.is_terminal:
            assert model.is_terminal
            return steps
        if state.current_player == diabolo.SIMULTANEOUS:
            player = rng.choice([p for p in range(players) if model.legal_moves(p)])
        else:
            player = state.current_player
        move = rng.choice(model.legal_moves(player))
        state.apply(move, player=player)
        model.apply(move, player)
        steps += 1


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_reference_model(chunk: int) -> None:
    total_steps = sum(play_and_compare(seed) for seed in range(chunk, GAMES, CHUNKS))
    assert total_steps > 0
