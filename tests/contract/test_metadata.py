"""The metadata every framework asks for, for every game and several options, checked
against what random games actually do: ``max_game_length``, ``min_utility`` /
``max_utility``, ``zero_sum``, ``real_time``, ``observation_tensor_bounds`` and per-move
``rewards()``.

A bound that a random game breaks is wrong; bounds are not required to be tight."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import diabolo
from tests.contract.games import CATALOGUE, WORDS, new_game, random_states

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("schacht", {"players": 3}),
    ("schacht", {"players": 5, "rounds": 2}),
    ("duvelen", {"players": 2, "rounds": 2}),
    ("duvelen", {"players": 4, "max_actions": 300}),
    ("knizia", {"players": 2, "lexicon": WORDS, "deck": "de"}),
    ("knizia", {"players": 3, "lexicon": WORDS, "deck": "de", "variant": "victory_tiles"}),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_random_games_stay_within_the_published_bounds(name: str, options: dict[str, Any]) -> None:
    game = diabolo.load(name, **options)
    low, high = game.observation_tensor_bounds
    assert low.shape == high.shape == game.observation_tensor_shape
    assert low.dtype == high.dtype == np.float32 and bool((low <= high).all())
    assert game.zero_sum is False
    assert game.real_time is (name != "schacht") is type(game).real_time  # D3, K3.2; S2.3
    finished = 0
    for seed in range(3):
        states = random_states(game, seed, 3000)
        summed = np.zeros(game.players)
        for before, after in zip(states, states[1:]):
            summed += after.rewards()
            assert after.rewards() == [b - a for a, b in zip(before.returns(), after.returns())]
        final = states[-1]
        assert list(summed) == final.returns()  # the rewards add up to the scores
        for state in states:
            assert all(game.min_utility <= score <= game.max_utility for score in state.returns())
            # In real time no seat ever has the turn.
            assert not game.real_time or state.current_player in (diabolo.SIMULTANEOUS, diabolo.TERMINAL)
            for seat in range(game.players):
                tensor = state.observation_tensor(seat)
                outside = np.flatnonzero((tensor < low) | (tensor > high))
                assert outside.size == 0, f"entries {outside[:5]} outside their bounds"
        if final.is_terminal:
            finished += 1
            assert game.max_game_length is None or len(final.history) <= game.max_game_length
    assert finished > 0 or name == "knizia"  # Knizia's random passes may run past the limit


def test_max_game_length_follows_the_rules() -> None:
    # Schacht: a card of the deck per move, and at most one doubler decision per seat and
    # colour (S5.3), in every round.
    assert diabolo.load("schacht", players=4).max_game_length == 4 * (70 + 5 * 4)
    # Duvelen: every move counts towards the action cap of a round (D4.5).
    assert diabolo.load("duvelen", players=2, rounds=3, max_actions=500).max_game_length == 1500
    # Knizia: a pass is always open and may be repeated (K10.5).
    assert diabolo.load("knizia", players=2, lexicon=WORDS, deck="de").max_game_length is None


def test_utility_bounds_follow_the_scoring_rules() -> None:
    schacht = diabolo.load("schacht", players=3)
    assert (schacht.min_utility, schacht.max_utility) == (3 * -30.0, 3 * 60.0)  # S5.3, S5.4
    duvelen = diabolo.load("duvelen", players=2, rounds=2)
    assert (duvelen.min_utility, duvelen.max_utility) == (2 * -26.0, 2 * 114.0)  # D5
    knizia = diabolo.load("knizia", players=2, lexicon=WORDS, deck="de")
    assert knizia.rounds == 4 and (knizia.min_utility, knizia.max_utility) == (0.0, 66.0 * 4)  # K4.1, K4.2
    tiles = diabolo.load("knizia", players=2, lexicon=WORDS, deck="de", variant="victory_tiles")
    assert (tiles.min_utility, tiles.max_utility) == (0.0, 2.0)  # K4.3


@pytest.mark.parametrize("name", CATALOGUE)
def test_rewards_of_a_new_state_and_of_a_state_read_back_are_zeros(name: str) -> None:
    game = new_game(name)
    state = game.new_state(seed=4)
    assert state.rewards() == [0.0, 0.0, 0.0]
    assert game.state_from_json(state.to_json()).rewards() == [0.0, 0.0, 0.0]
