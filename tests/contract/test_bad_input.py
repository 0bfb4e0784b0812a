"""Bad input to any game, through the one binding of the contract: the same argument gets
the same specific error in every game and changes nothing (docs/interface.rst). What only one game
has (its notation, its deals, its rule clauses) stays in tests/test_<game>_bad_input.py.
Also the properties every state has: round trips, clone isolation and seeds."""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import pytest

import diabolo
from tests.bad_input_helpers import assert_unchanged_after
from tests.contract.games import CATALOGUE, new_game, random_states

ERRORS = (
    diabolo.DiaboloError,
    diabolo.IllegalMoveError,
    diabolo.NotationError,
    diabolo.OptionError,
    diabolo.PlayerError,
    diabolo.StateFormatError,
    diabolo.InvalidWordError,
    diabolo.LexiconNotFoundError,
)
BAD_SEEDS: list[Any] = [-1, -(2**63), 2**64, 2**64 + 1, 2**100, 1.0, 0.5, True, False, None, "1", [1]]


def positions(name: str, seed: int = 1, steps: int = 60) -> list[Any]:
    """States along a random game of 3 seats."""
    return random_states(new_game(name), seed, steps)


def test_every_error_is_a_value_error() -> None:
    """docs/interface.rst: every error is a DiaboloError, which is a ValueError."""
    for cls in ERRORS:
        assert issubclass(cls, diabolo.DiaboloError) and issubclass(cls, ValueError)
    assert diabolo.IllegalMoveError("S3.2: full", "S3.2").clause == "S3.2"
    assert diabolo.InvalidWordError("no", "not a word").reason == "not a word"


@pytest.mark.parametrize("name", CATALOGUE)
@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seeds(name: str, seed: Any) -> None:
    """docs/interface.rst: a seed is an int in [0, 2**64); others raise OptionError and change nothing."""
    game = new_game(name)
    with pytest.raises(diabolo.OptionError, match=re.escape("seed must be an int in [0, 2**64)")):
        game.new_state(seed=seed)
    state = positions(name)[-1]
    assert_unchanged_after(state, diabolo.OptionError, lambda: state.resample(0, seed), match="seed must be an int")
    with pytest.raises(diabolo.OptionError, match="seed must be an int"):
        game.play_random(1, seed=seed)


@pytest.mark.parametrize("name", CATALOGUE)
def test_seed_bounds_accepted(name: str) -> None:
    for seed in (0, 1, 2**32, 2**63, 2**64 - 1):
        new_game(name).new_state(seed=seed).resample(1, seed)


@pytest.mark.parametrize("name", CATALOGUE)
def test_state_json_not_text(name: str) -> None:
    for value in (None, 1, b"{}", ["{}"], {"format": f"diabolo.{name}/1"}):
        with pytest.raises(diabolo.StateFormatError, match="state JSON must be a str"):
            new_game(name).state_from_json(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_parse_non_str(name: str) -> None:
    """A non-str to a str-only parameter: NotationError, never a crash."""
    move_class = type(new_game(name).move(1))
    for value in (None, 5, b"pass", ["pass"], 1.5):
        with pytest.raises(diabolo.NotationError, match="notation must be a str"):
            move_class.parse(value)


@pytest.mark.parametrize("name", CATALOGUE)
def test_action_ids_out_of_range(name: str) -> None:
    """Action ids are 0 .. num_actions - 1; others raise NotationError naming the range and
    change nothing."""
    game = new_game(name)
    n = game.num_actions
    states = positions(name)
    for action in (-1, -2, n, n + 1, n + 1000, 2**31, -(2**31), 2**63, 2**64, -(2**70), 2**200):
        for state in states[::10]:
            seat = (state.pending_seats or [0])[0]
            assert_unchanged_after(
                state, diabolo.NotationError, lambda: state.apply(action, player=seat), match="out of range"
            )
        with pytest.raises(diabolo.NotationError, match="out of range"):
            game.move(action)


@pytest.mark.parametrize("name", CATALOGUE)
def test_bad_seats_change_nothing(name: str) -> None:
    """A seat is 0 .. players - 1 (any integer type); others raise PlayerError, or
    NotationError for what is no integer at all... never a crash, and nothing changes."""
    for state in positions(name)[::10]:
        for seat in (-1, 3, 100, 2**64, -(2**70)):
            for call in (
                lambda: state.legal_actions(seat),
                lambda: state.observation(seat),
                lambda: state.observation_tensor(seat),
                lambda: state.resample(seat, 1),
            ):
                assert_unchanged_after(state, diabolo.PlayerError, call, match="seat")
            if state.pending_seats:
                action = state.legal_actions(state.pending_seats[0])[0]
                assert_unchanged_after(state, diabolo.PlayerError, lambda: state.apply(action, player=seat))


@pytest.mark.parametrize("name", CATALOGUE)
def test_bad_move_data_changes_nothing(name: str) -> None:
    for state in positions(name)[::10]:
        seat = (state.pending_seats or [0])[0]
        for data in ({}, {"kind": "nope"}, {"kind": 5}, {"kind": "pass", "extra": 1}, {"move": "pass"}):
            assert_unchanged_after(
                state, diabolo.NotationError, lambda: state.apply(data, player=seat), match="as data is like"
            )


# ---- the properties of every state ---------------------------------------------------------


@pytest.mark.parametrize("name", CATALOGUE)
def test_round_trips_give_equal_independent_states(name: str) -> None:
    game = new_game(name)
    for state in positions(name, seed=5, steps=120)[::7]:
        text = state.to_json()
        for copied in (
            game.state_from_json(text),
            pickle.loads(pickle.dumps(state)),
            copy.copy(state),
            copy.deepcopy(state),
            state.clone(),
        ):
            assert copied == state and copied is not state and copied.to_json() == text
            assert [copied.observation(p) for p in range(3)] == [state.observation(p) for p in range(3)]
        assert pickle.loads(pickle.dumps(game)) == game and hash(pickle.loads(pickle.dumps(game))) == hash(game)


@pytest.mark.parametrize("name", CATALOGUE)
def test_clones_are_isolated(name: str) -> None:
    for state in positions(name, seed=6)[::5]:
        if not state.pending_seats:
            continue
        before = state.to_json()
        twin = state.clone()
        seat = twin.pending_seats[0]
        twin.apply(twin.legal_actions(seat)[-1], player=seat)
        assert state.to_json() == before and twin.to_json() != before


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_seed_is_a_game(name: str) -> None:
    game = new_game(name)
    assert game.new_state(seed=11) == game.new_state(seed=11)
    deals = {game.new_state(seed=seed).to_json() for seed in range(6)}
    assert len(deals) == 6  # different seeds deal differently
    assert positions(name, seed=3)[-1] == positions(name, seed=3)[-1]
    one, two = game.play_random(6, seed=2, threads=1), game.play_random(6, seed=2, threads=2)
    assert (one["scores"] == two["scores"]).all() and (one["moves"] == two["moves"]).all()


@pytest.mark.parametrize("name", CATALOGUE)
def test_resampling_keeps_the_seats_view(name: str) -> None:
    """A determinisation for seat p looks the same to p: its view and its tensor."""
    for state in positions(name, seed=8, steps=80)[::8]:
        for seat in range(3):
            for seed in (1, 2):
                guess = state.resample(seat, seed)
                assert guess.observation(seat) == state.observation(seat)
                assert (guess.observation_tensor(seat) == state.observation_tensor(seat)).all()
                assert guess.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("name", CATALOGUE)
def test_last_move_is_the_last_of_the_history(name: str) -> None:
    game = new_game(name)
    seen = positions(name, seed=9, steps=80)
    assert seen[0].last_move is None
    for state in seen[1:]:
        assert state.last_move == state.history[-1]
        assert game.state_from_json(state.to_json()).last_move == state.last_move
