"""Views as Python values, the same in every game: ``observation``, ``public_observation``
and the events come as new dicts and lists at every call, the caller's to change; their
strs are made once and shared (a bounded table of short texts), and come out exact
whatever texts pass through it. A view is written into a tape that the thread keeps
between views; a view made while another is being made (a finaliser that the garbage
collector runs meanwhile) gets its own."""

from __future__ import annotations

import gc
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


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_view_made_by_a_finaliser_while_a_view_is_made_leaves_both_whole(name: str) -> None:
    states = random_states(new_game(name), seed=9, limit=40)[::8]
    expected = [state.observation(0) for state in states]
    made: list[bool] = []

    class ViewOnCollect:
        """Garbage in a cycle, so only the collector frees it, and makes a view then."""

        def __init__(self, state: diabolo.State) -> None:
            self.state, self.cycle = state, self

        def __del__(self) -> None:
            made.append(self.state.observation(0) == expected[-1])

    threshold = gc.get_threshold()
    try:
        for every in range(2, 40):  # a collection after every `every` containers: somewhere inside a view
            gc.collect()
            gc.set_threshold(every)
            # Dicts and lists held, so that the views' come from the allocator (which
            # collects) rather than from CPython's lists of free ones (which do not).
            held: list[tuple[dict[str, int], list[int]]] = [({}, []) for _ in range(200)]
            ViewOnCollect(states[-1])  # garbage at once: collected while the views below are made
            assert [state.observation(0) for state in states] == expected
            del held
    finally:
        gc.set_threshold(*threshold)
    gc.collect()
    assert len(made) == 38 and all(made)


def test_small_views_after_a_view_larger_than_the_kept_tape_are_exact() -> None:
    pick = random.Random(4)
    words = sorted({"".join(pick.choice("AEINRST") for _ in range(pick.randrange(3, 9))) for _ in range(20000)})
    game = diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(words))
    state = game.new_state(seed=2)
    small = state.observation(1)
    for _ in range(20):
        state.apply("reveal", player=0)
    assert len(state.observation(1)["legal"]) > 10_000
    assert game.new_state(seed=2).observation(1) == small
