"""Views as Python values, the same in every game: ``observation``, ``public_observation``
and the events come as new dicts and lists at every call, the caller's to change; their
strs are made once and shared (a bounded table of short texts), and come out exact
whatever texts pass through it."""

from __future__ import annotations

import random

import pytest

import diabolo
from diabolo import Lexicon
from tests.contract.games import CATALOGUE, new_game, random_states


@pytest.mark.parametrize("name", CATALOGUE)
def test_views_are_new_values_whose_short_strs_are_shared(name: str) -> None:
    for state in random_states(new_game(name), seed=5, limit=60)[::6]:
        first, second = state.observation(0), state.observation(0)
        assert first == second and first is not second
        assert all(a is b for a, b in zip(first, second))  # each key made once
        assert first["phase"] is second["phase"]
        first["player"] = None  # the caller's to change: the next view is whole
        first.clear()
        assert state.observation(0) == second
        assert state.public_observation() == state.public_observation()
        assert state.events_for(0) == state.events_for(0)


def test_a_view_with_more_texts_than_the_table_of_strs_holds_is_exact() -> None:
    # 10,000 words, most of them legal claims: every slot of the table is taken and
    # replaced many times over while one view is made.
    pick = random.Random(3)
    words = sorted({"".join(pick.choice("AEINRST") for _ in range(pick.randrange(3, 9))) for _ in range(20000)})
    game = diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(words))
    state = game.new_state(seed=2)
    for _ in range(20):
        state.apply("reveal", player=0)
    legal = state.observation(1)["legal"]
    assert len(legal) > 10_000
    assert legal == [str(move) for move in state.legal_moves(1)]
    assert state.observation(1)["legal"] == legal
