"""Every integer argument of every game accepts any object with ``__index__`` (numpy
integers included), and refuses bools, floats and text with the same specific errors as
before: frameworks hand over numpy scalars (``np.argmax``, ``rng.integers``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import diabolo
from tests.contract.games import CATALOGUE

INTEGER_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.intp]


def acting_seat(state: Any) -> int:
    if state.current_player >= 0:
        return int(state.current_player)
    return next(p for p in range(state.game.players) if state.legal_actions(p))


@pytest.mark.parametrize("name", CATALOGUE)
@pytest.mark.parametrize("integer", INTEGER_TYPES)
def test_numpy_integers_are_accepted_everywhere(name: str, integer: Any) -> None:
    plain = diabolo.load(name, players=3)
    game = diabolo.load(name, players=integer(3))
    assert game == plain
    state = game.new_state(seed=integer(5))
    assert state == plain.new_state(seed=5)
    seat = acting_seat(state)
    assert state.legal_actions(integer(seat)) == state.legal_actions(seat)
    assert state.legal_action_mask(integer(seat)).tolist() == state.legal_action_mask(seat).tolist()
    assert state.observation(integer(seat)) == state.observation(seat)
    assert np.array_equal(state.observation_tensor(integer(seat)), state.observation_tensor(seat))
    assert state.resample(integer(seat), integer(9)) == state.resample(seat, 9)
    action = state.legal_actions(seat)[-1]
    as_id = integer if action <= np.iinfo(integer).max else np.int64  # Duvelen's ids pass 127
    expected = state.clone()
    expected.apply(action, seat)
    state.apply(as_id(action), integer(seat))
    assert state == expected
    assert game.move(as_id(action)) == game.move(action)
    batch = game.play_random(integer(2), seed=integer(1), threads=integer(1))
    assert np.array_equal(batch["scores"], plain.play_random(2, seed=1)["scores"])


@pytest.mark.parametrize("name", CATALOGUE)
@pytest.mark.parametrize("value", [True, np.bool_(True), 1.0, np.float32(1.0), "1.5", None])
def test_numbers_that_are_not_integers_are_refused(name: str, value: Any) -> None:
    game = diabolo.load(name, players=3)
    state = game.new_state(seed=1)
    before = state.to_json()
    with pytest.raises(diabolo.PlayerError):
        state.legal_actions(value) if value is not None else state.observation(value)  # type: ignore[arg-type]
    with pytest.raises(diabolo.NotationError if value is not None else diabolo.DiaboloError):
        state.apply(value, acting_seat(state))
    with pytest.raises(diabolo.OptionError):
        game.new_state(seed=value) if value is not None else diabolo.load(name, players=value)
    assert state.to_json() == before


def test_numpy_integers_in_matches_options_and_decks() -> None:
    from diabolo.knizia import Deck
    from diabolo.schacht import IsmctsBot, RandomBot

    game = diabolo.load("schacht", players=np.int64(3), rounds=np.uint8(1), value_counts=np.array([4, 3, 3, 2, 2]))
    assert game.rounds == 1 and game.value_counts == (4, 3, 3, 2, 2)
    result = diabolo.match(game, [RandomBot()] * 3, games=np.int64(3), seed=np.uint64(2), threads=np.int32(1))
    assert np.array_equal(result.scores, diabolo.match(game, [RandomBot()] * 3, games=3, seed=2).scores)
    search = IsmctsBot(iterations=np.int64(20), threads=np.int8(1)).search(game.new_state(seed=1), seed=np.int64(3))
    assert search.iterations == 20
    assert Deck({"A": np.int64(3), "?": np.uint8(1)}).cards == {"A": 3, "?": 1}
    with pytest.raises(diabolo.OptionError):
        Deck({"A": np.bool_(True)})  # type: ignore[dict-item]
