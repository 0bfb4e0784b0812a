"""The real-time simulator (diabolo.realtime) on Duvelen: reproducible runs, replayable
logs, races, reaction times, Python bots, and greedy matches that always finish."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import diabolo
from diabolo import realtime
from diabolo.duvelen import DuvelenMove, DuvelenState, GreedyBot, RandomBot
from tests.realtime_helpers import assert_rejected_moves_were_illegal


def bots_for(players: int, rng: random.Random) -> list[Any]:
    return [rng.choice([GreedyBot(), RandomBot()]) for _ in range(players)]


@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_same_seed_same_run_and_replay_reproduces_it(players: int, deal: int, seed: int) -> None:
    bots = bots_for(players, random.Random(seed))
    start = diabolo.load("duvelen", players=players).new_state(seed=deal)
    first = realtime.simulate(start, bots, seed=seed)
    second = realtime.simulate(start, bots, seed=seed)
    assert first.log == second.log and first.state == second.state
    assert start.history == []  # the start state is not changed
    assert realtime.replay(start, first.log) == first.state
    assert [step.move for step in first.log if step.accepted] == [move for _, move in first.state.history]
    times = [step.time for step in first.log]
    assert times == sorted(times)


@given(st.integers(0, 2**32))
def test_rejected_moves_were_illegal_when_they_arrived(seed: int) -> None:
    """D3.10: a move that lost a race is logged as rejected and changes nothing."""
    start = diabolo.load("duvelen", players=4).new_state(seed=seed)
    run = realtime.simulate(start, [GreedyBot()] * 4, seed=seed)
    assert_rejected_moves_were_illegal(start, run)


def test_races_happen_between_greedy_bots() -> None:
    rejected = realtime.simulate_many(diabolo.load("duvelen", players=6), [GreedyBot()] * 6, games=20, seed=1)[
        "rejected"
    ]
    assert rejected.sum() > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_greedy_matches_always_finish(players: int) -> None:
    game = diabolo.load("duvelen", players=players, rounds=2)
    for seed in range(15):
        run = realtime.simulate(game.new_state(seed=seed), [GreedyBot()] * players, seed=seed)
        assert run.state.is_terminal
        # Both rounds together stay far below one round's action cap (D4.5), so the
        # cap, which must never trigger in play, did not end either round.
        assert run.accepted < game.max_actions // 10


def test_simulate_many_is_reproducible_and_thread_independent() -> None:
    game = diabolo.load("duvelen", players=4)
    bots = [GreedyBot(), RandomBot(), GreedyBot(), GreedyBot()]
    one = realtime.simulate_many(game, bots, games=30, seed=5, threads=1)
    two = realtime.simulate_many(game, bots, games=30, seed=5, threads=2)
    for key in ("scores", "actions", "rejected", "time"):
        assert np.array_equal(one[key], two[key]), key
    other = realtime.simulate_many(game, bots, games=30, seed=6)
    assert not np.array_equal(one["scores"], other["scores"])
    assert one["scores"].dtype == np.int32 and one["time"].dtype == np.float64


class PythonGreedy:
    """The greedy bot's rule written in Python, for the slower path."""

    def choose(self, state: DuvelenState, player: int) -> DuvelenMove | None:
        moves = state.legal_moves(player)
        for kind in ("stop", "play", "turn", "recycle"):
            for move in moves:
                if move.kind == kind:
                    return move
        if state.observation(player)["seats"][player]["passed"]:
            return None
        return next((move for move in moves if move.kind == "pass"), None)


def test_python_bots_take_the_same_path_as_cpp_bots() -> None:
    """A Python bot with the greedy rule gives exactly the C++ greedy bot's run."""
    start = diabolo.load("duvelen", players=3).new_state(seed=11)
    native = realtime.simulate(start, [GreedyBot()] * 3, seed=4)
    python = realtime.simulate(start, [PythonGreedy(), GreedyBot(), PythonGreedy()], seed=4)
    assert python.log == native.log
    assert python.state == native.state


def test_reaction_times_shape_who_wins_the_races() -> None:
    fast = realtime.Reaction({"play": (0.3, 0.05), "turn": (0.2, 0.05)})
    slow = realtime.Reaction({"play": (1.8, 0.3), "turn": (1.2, 0.3)})
    result = realtime.simulate_many(
        diabolo.load("duvelen", players=2), [GreedyBot(reaction=fast), GreedyBot(reaction=slow)], games=60, seed=2
    )
    assert result["scores"][:, 0].mean() > result["scores"][:, 1].mean()


def test_simultaneous_arrivals_break_ties_reproducibly() -> None:
    exact = realtime.Reaction({kind: (1.0, 0.0) for kind in ("play", "turn", "recycle", "stop", "pass")})
    start = diabolo.load("duvelen", players=4).new_state(seed=3)
    runs = [realtime.simulate(start, [GreedyBot(reaction=exact)] * 4, seed=9) for _ in range(2)]
    assert runs[0].log == runs[1].log
    assert runs[0].log[0].time == runs[0].log[1].time == 1.0
    orders = {
        tuple(step.player for step in realtime.simulate(start, [GreedyBot(reaction=exact)] * 4, seed=s).log[:4])
        for s in range(8)
    }
    assert len(orders) > 1


def test_limits_stop_a_run_early() -> None:
    start = diabolo.load("duvelen", players=2).new_state(seed=1)
    run = realtime.simulate(start, [GreedyBot()] * 2, seed=1, max_time=5.0)
    assert not run.state.is_terminal and run.time <= 5.0
    assert len(realtime.simulate(start, [GreedyBot()] * 2, seed=1, max_events=7).log) == 7


def test_bad_simulation_arguments_give_specific_errors() -> None:
    start = diabolo.load("duvelen", players=2).new_state(seed=1)
    with pytest.raises(diabolo.OptionError, match="one bot per seat"):
        realtime.simulate(start, [GreedyBot()], seed=1)
    with pytest.raises(diabolo.OptionError, match="unknown kind"):
        realtime.simulate(start, [GreedyBot(reaction=realtime.Reaction({"jump": (1.0, 0.1)}))] * 2)
    with pytest.raises(diabolo.OptionError, match="choose"):
        realtime.simulate(start, [object(), GreedyBot()])
    with pytest.raises(diabolo.OptionError, match="C\\+\\+ bots only"):
        realtime.simulate_many(start.game, [PythonGreedy(), GreedyBot()], games=1)
    with pytest.raises(diabolo.OptionError, match="max_time"):
        realtime.simulate(start, [GreedyBot()] * 2, max_time=0.0)


class ShortFormBot:
    """Sends positional moves (action ids), which the rules resolve to the card there."""

    def choose(self, state: DuvelenState, player: int) -> int | None:
        actions = state.legal_actions(player)
        return actions[0] if actions else None


def test_the_log_and_history_hold_moves_as_applied() -> None:
    """A bot may send the short form; the log and the history name the card played."""
    start = diabolo.load("duvelen", players=2).new_state(seed=8)
    run = realtime.simulate(start, [ShortFormBot(), GreedyBot()], seed=3)
    plays = [step.move for step in run.log if step.accepted and step.move.kind == "play"]
    assert plays and all(move.card is not None for move in plays)
    assert all(move.card is not None for _, move in run.state.history if move.kind == "play")
    assert realtime.replay(start, run.log) == run.state
