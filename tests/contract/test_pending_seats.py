"""``state.pending_seats`` of every game: the seats that may or must act now, the same as
the seats with a legal move, empty at the end; a resampled state keeps what the seat it
was drawn for knows of it (its own place among the pending seats), so a framework that
takes decisions one seat at a time stays consistent in a search."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.contract.games import CATALOGUE, new_game


def positions(name: str, players: int, seed: int, steps: int) -> list[Any]:
    """States along a random game: each step a random seat with a legal move makes one."""
    state = new_game(name, players).new_state(seed=seed)
    rng = random.Random(seed)
    seen = [state.clone()]
    for _ in range(steps):
        movers = [p for p in range(players) if state.legal_actions(p)]
        if not movers:
            break
        seat = rng.choice(movers)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("name", CATALOGUE)
@pytest.mark.parametrize("players", [3, 4])
def test_pending_seats_are_the_seats_with_a_legal_move(name: str, players: int) -> None:
    checked = 0
    for seed in range(5):
        for state in positions(name, players, seed, 400):
            expected = [p for p in range(players) if state.legal_actions(p)]
            assert state.pending_seats == expected
            assert state.is_terminal == (expected == [])
            if state.current_player >= 0:
                assert state.pending_seats == [state.current_player]
            checked += 1
    assert checked > 300  # whole games of Schacht, long stretches of the real-time games


@pytest.mark.parametrize("name", CATALOGUE)
def test_resampling_keeps_what_the_seat_knows_of_the_pending_seats(name: str) -> None:
    players = 4
    for seed in range(2):
        for index, state in enumerate(positions(name, players, seed, 300)):
            for seat in range(players):
                guess = state.resample(seat, seed=index)
                assert (seat in guess.pending_seats) == (seat in state.pending_seats)
                assert guess.pending_seats == [p for p in range(players) if guess.legal_actions(p)]


def test_schacht_doubler_decisions_of_others_are_not_shown_by_a_resample() -> None:
    # S5.3, S7.1: another seat cannot tell whether a seat has decided, so in its resample
    # the seat that decided is to decide again.
    for state in positions("schacht", 4, 7, 2000):
        decided = [p for p in range(4) if state.phase == "doubler" and p not in state.pending_seats]
        holders = [p for p in state.pending_seats]
        if not decided or not holders:
            continue
        guess = state.resample(holders[0], seed=1)
        assert decided[0] in guess.pending_seats or not guess.observation(decided[0])["doubler_available"][decided[0]]
        assert state.resample(decided[0], seed=1).pending_seats == holders  # its own decision is kept
        return
    pytest.fail("no doubler decision with a seat already decided in 2000 steps")
