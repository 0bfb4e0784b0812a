"""Moves as data (``move.to_dict()``, and dicts accepted wherever a move is): every move of
every game round-trips, a state applies the dict as it applies the move, and bad data is
a NotationError that changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

import diabolo

GAMES_WITH_DATA = ["duvelen", "schacht"]


def visited_moves(name: str, seed: int) -> list[tuple[Any, int, Any]]:
    """(state, seat, move) along a random game."""
    state: Any = diabolo.load(name, players=3).new_state(seed=seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(300):
        movers = state.pending_seats
        if not movers:
            break
        seat = rng.choice(movers)
        move = rng.choice(state.legal_moves(seat))
        seen.append((state.clone(), seat, move))
        state.apply(move, seat)
    return seen


@pytest.mark.parametrize("name", GAMES_WITH_DATA)
def test_every_move_round_trips_as_data(name: str) -> None:
    game: Any = diabolo.load(name, players=3)
    for action in range(game.num_actions):
        move = game.move(action)
        data = move.to_dict()
        assert game.move(data) == move
        assert data["kind"] == move.kind
    for state, seat, move in visited_moves(name, 4):
        data = move.to_dict()
        assert game.move(data) == move
        by_data = state.clone()
        by_data.apply(data, seat)
        state.apply(move, seat)
        assert by_data == state


@pytest.mark.parametrize("name", GAMES_WITH_DATA)
@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": "fly"},
        {"kind": 3},
        {"kind": "place", "card": "G5"},
        {"kind": "place", "card": "Z9", "side": "left"},
        {"kind": "place", "card": "G5", "side": "up"},
        {"kind": "bet", "extra": 1},
        {"kind": "play", "source": "R9", "target": 3},
        {"kind": "play", "source": "R1", "target": 0},
        {"kind": "play", "source": "R1", "target": "new", "card": 7},
        {"kind": "turn", "card": "7h"},
        {"kind": object()},
        {1: "bet"},
    ],
)
def test_bad_move_data_is_a_notation_error_that_changes_nothing(name: str, data: dict[Any, Any]) -> None:
    state: Any = diabolo.load(name, players=3).new_state(seed=2)
    before = state.to_json()
    seat = state.pending_seats[0]
    with pytest.raises(diabolo.NotationError):
        state.apply(data, seat)
    assert state.to_json() == before
