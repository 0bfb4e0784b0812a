"""Bots, matches and action ids for every game of the catalogue, through the generic
functions alone: ``diabolo.bot`` for each bot kind, ``diabolo.match`` with C++ bots and
with a bot written in Python, ``realtime.simulate`` for the real-time games and
``game.action``. A new game passes these with no edit (core/match.hpp, core/realtime.hpp)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import diabolo
from diabolo import realtime
from tests.contract.games import CATALOGUE, new_game, random_states


class FirstLegalMove:
    """A bot written in Python: the first legal move of its seat (None while it has none)."""

    name = "first"

    def choose(self, state: Any, player: int) -> Any:
        moves = state.legal_moves(player)
        return moves[0] if moves else None


@pytest.mark.parametrize("name", CATALOGUE)
def test_every_bot_kind_plays_a_match_that_does_not_depend_on_threads(name: str) -> None:
    game = new_game(name, players=2 if name != "schacht" else 3)
    for kind in diabolo.registry.bot_kinds(name):
        bots = [diabolo.bot(name, kind, **_quick(name, kind)) for _ in range(game.players)]
        one = diabolo.match(game, bots, games=4, seed=5, threads=1)
        two = diabolo.match(game, bots, games=4, seed=5, threads=2)
        assert one.scores.shape == (4, game.players), kind
        assert np.array_equal(one.scores, two.scores), kind


@pytest.mark.parametrize("name", CATALOGUE)
def test_a_bot_written_in_python_plays_a_match(name: str) -> None:
    game = new_game(name, players=2 if name != "schacht" else 3)
    bots = [FirstLegalMove()] + [diabolo.bot(name, "random") for _ in range(game.players - 1)]
    result = diabolo.match(game, bots, games=2, seed=1)
    assert result.scores.shape == (2, game.players)
    assert np.array_equal(result.scores, diabolo.match(game, bots, games=2, seed=1).scores)


@pytest.mark.parametrize("name", [name for name in CATALOGUE if diabolo.registry.catalogue_entry(name).real_time])
def test_a_simulation_of_a_real_time_game_replays_from_its_log(name: str) -> None:
    game = new_game(name, players=2)
    start = game.new_state(seed=3)
    bots = [diabolo.bot(name, "random"), FirstLegalMove()]
    run = realtime.simulate(start, bots, seed=4, max_events=400)
    assert run.accepted == sum(step.accepted for step in run.log) > 0
    assert realtime.replay(start, run.log).to_json() == run.state.to_json()


@pytest.mark.parametrize("name", [name for name in CATALOGUE if not diabolo.registry.catalogue_entry(name).real_time])
def test_simulate_refuses_a_turn_based_game(name: str) -> None:
    game = new_game(name)
    with pytest.raises(TypeError, match="real-time games"):
        realtime.simulate(game.new_state(seed=1), [diabolo.bot(name, "random")] * game.players)
    with pytest.raises(TypeError, match="real-time games"):
        realtime.simulate_many(game, [diabolo.bot(name, "random")] * game.players, games=1)


@pytest.mark.parametrize("name", CATALOGUE)
def test_the_action_of_every_legal_move_is_one_of_the_legal_actions(name: str) -> None:
    game = new_game(name)
    for state in random_states(game, seed=2, limit=40)[::5]:
        for seat in state.pending_seats:
            actions = set(state.legal_actions(seat))
            for legal in state.legal_moves(seat):
                assert game.action(legal) in actions, str(legal)
                assert game.action(str(legal)) == game.action(legal)


QUICK: dict[str, dict[str, Any]] = {"ismcts": {"iterations": 20}, "search": {"worlds": 4, "horizon": 2.0}}
"""Options that keep a searching bot quick: what these tests check does not depend on how
deep it looks (at its defaults, a Duvelen match of two searches takes half a minute a game)."""


def _quick(name: str, kind: str) -> dict[str, Any]:
    return QUICK.get(kind, {})


@pytest.mark.parametrize("name", CATALOGUE)
def test_the_stand_in_of_the_catalogue_is_a_bot_of_the_game_that_plays(name: str) -> None:
    """kInfo.stand_in, the bot a server seats for a person who leaves, is one of the game's
    kinds and plays a match."""
    entry = diabolo.registry.catalogue_entry(name)
    assert entry.stand_in in entry.bots
    game = new_game(name, players=2 if name != "schacht" else 3)
    bots = [diabolo.bot(name, entry.stand_in, **_quick(name, entry.stand_in)) for _ in range(game.players)]
    assert diabolo.match(game, bots, games=2, seed=3).scores.shape == (2, game.players)
