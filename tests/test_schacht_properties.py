"""Properties over random play of Schacht (hypothesis): conservation, limits, round
trips, determinism, value semantics, and information hiding (S7)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import diabolo
from diabolo.schacht import SchachtGame, SchachtState

COLOURS = "RYGPB"


def random_player(state: SchachtState, rng: random.Random) -> int:
    """The player to move, or a random seat still to decide during doubler decisions."""
    if state.current_player != diabolo.SIMULTANEOUS:
        return state.current_player
    return rng.choice([p for p in range(state.game.players) if state.legal_actions(p)])


def play(state: SchachtState, rng: random.Random, steps: int) -> SchachtState:
    for _ in range(steps):
        if state.is_terminal:
            break
        player = random_player(state, rng)
        state.apply(rng.choice(state.legal_actions(player)), player=player)
    return state


@st.composite
def states(draw: st.DrawFn) -> SchachtState:
    """A state reached by random play from a random deal, anywhere in a game."""
    players = draw(st.sampled_from([3, 4, 5]))
    rounds = draw(st.integers(1, 2))
    seed = draw(st.integers(0, 2**64 - 1))
    steps = draw(st.integers(0, 90 * rounds))
    state = SchachtGame(players=players, rounds=rounds).new_state(seed=seed)
    return play(state, random.Random(seed), steps)


def card_counts(data: dict[str, Any]) -> Counter[str]:
    """Every card of a state's JSON, counted: pile, hands, discards and rows."""
    counts: Counter[str] = Counter(data["pile"])
    for seat_cards in data["hands"] + data["discarded"]:
        counts.update(seat_cards)
    for colour, row in data["rows"].items():
        counts.update(f"{colour}{value}" for value in row["left"] + row["right"])
    return counts


@given(states())
def test_every_card_is_in_exactly_one_place(state: SchachtState) -> None:
    data = json.loads(state.to_json())
    counts = data["options"]["value_counts"]
    expected = Counter({f"{c}{v}": counts[v - 1] for c in COLOURS for v in range(1, 6) if counts[v - 1]})
    assert card_counts(data) == expected


@given(states())
def test_placement_limits_never_exceeded(state: SchachtState) -> None:
    """S3.1: at most 5 per row; S3.2: at most 3 per side; S4.1: rounds end on time."""
    rows = state.observation(0)["rows"]
    for row in rows.values():
        assert len(row["left"]) <= 3 and len(row["right"]) <= 3
        assert len(row["left"]) + len(row["right"]) <= 5
        assert row["closed"] == (len(row["left"]) + len(row["right"]) == 5)
    if state.phase == "play":
        assert sum(row["closed"] for row in rows.values()) < state.game.rows_to_end


@given(states())
def test_clone_copy_pickle_json_round_trip(state: SchachtState) -> None:
    text = state.to_json()
    for twin in (
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
        state.game.state_from_json(text),
    ):
        assert twin == state
        assert twin.to_json() == text
        assert twin.history == state.history
        assert (
            twin.legal_actions(random_player(state, random.Random(0)))
            == state.legal_actions(random_player(state, random.Random(0)))
            if not state.is_terminal
            else True
        )


@given(states(), st.integers(0, 2**32))
def test_apply_on_a_clone_never_changes_the_original(state: SchachtState, seed: int) -> None:
    before = state.to_json()
    twin = play(state.clone(), random.Random(seed), 20)
    assert state.to_json() == before
    if twin.history != state.history:
        assert twin != state


@given(st.integers(0, 2**64 - 1), st.sampled_from([3, 4, 5]))
def test_same_seed_same_game(seed: int, players: int) -> None:
    game = SchachtGame(players=players, rounds=2)
    first = play(game.new_state(seed=seed), random.Random(seed), 10_000)
    second = play(game.new_state(seed=seed), random.Random(seed), 10_000)
    assert first.is_terminal
    assert first.to_json() == second.to_json()


def test_seeded_deal_is_pinned() -> None:
    """The same seed deals the same cards on every platform (portable RNG)."""
    state = SchachtGame(players=4).new_state(seed=2026)
    assert state.observation(1)["hand"] == ["Y3", "G3", "G5", "P3", "P5", "P5", "B1"]


def test_batch_play_is_reproducible_and_thread_independent() -> None:
    game = SchachtGame(players=4)
    one = game.play_random(200, seed=9, threads=1)
    two = game.play_random(200, seed=9, threads=2)
    assert one["scores"].shape == (200, 4) and one["scores"].dtype == np.int32
    assert np.array_equal(one["scores"], two["scores"])
    assert np.array_equal(one["moves"], two["moves"])
    assert not np.array_equal(one["scores"], game.play_random(200, seed=10)["scores"])


# ---- information hiding (S7) -------------------------------------------------------------


@given(states(), st.integers(0, 2**64 - 1))
def test_resample_keeps_what_the_player_sees(state: SchachtState, seed: int) -> None:
    for player in range(state.game.players):
        twin = state.resample(player, seed)
        assert twin.observation(player) == state.observation(player)
        assert np.array_equal(twin.observation_tensor(player), state.observation_tensor(player))
        assert twin.legal_actions(player) == state.legal_actions(player)


@given(states(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_resample_depends_only_on_what_the_player_knows(state: SchachtState, seed: int, other: int) -> None:
    """Two states that look the same to a player resample identically (S7.3)."""
    for player in range(state.game.players):
        lookalike = state.resample(player, other)
        assert lookalike.resample(player, seed).to_json() == state.resample(player, seed).to_json()


def hidden_cards(state: SchachtState, player: int) -> tuple[Any, ...]:
    data = json.loads(state.to_json())
    others = tuple(tuple(h) for seat, h in enumerate(data["hands"]) if seat != player)
    return (tuple(data["pile"]), others)


@given(states())
def test_resample_really_redeals(state: SchachtState) -> None:
    """Resampling is not a copy of the true hidden cards whenever something is hidden."""
    player = 0
    observation = state.observation(player)
    known = sum(len(c) for c in observation["revealed"]["shown"]) + sum(
        len(cards) for colour in observation["revealed"]["scoring"].values() for cards in colour
    )
    unseen = observation["draw_pile"] + sum(observation["hand_sizes"]) - len(observation["hand"]) - known
    truth = hidden_cards(state, player)
    redealt = {hidden_cards(state.resample(player, seed), player) for seed in range(12)}
    if unseen >= 4:
        assert redealt != {truth}


def test_observation_never_names_hidden_cards() -> None:
    """No observation lists another seat's unrevealed hand card or the pile order."""
    rng = random.Random(5)
    state = SchachtGame(players=4).new_state(seed=5)
    while not state.is_terminal:
        data = json.loads(state.to_json())
        for player in range(4):
            observation = state.observation(player)
            text = json.dumps(observation)
            assert "pile" not in observation and "hands" not in observation
            assert observation["hand"] == data["hands"][player]
            for seat in range(4):
                if seat == player:
                    continue
                revealed = observation["revealed"]
                visible = Counter(revealed["shown"][seat])
                for colour_cards in revealed["scoring"].values():
                    visible.update(colour_cards[seat])
                assert not visible - Counter(data["hands"][seat])
            assert str(data["pile"]) not in text
        play(state, rng, 1)


def test_doubler_decisions_stay_secret_until_all_decided() -> None:
    """S5.3, S7.1: another seat's bet is invisible in observations and lost in resampling."""
    rng = random.Random(1)
    for seed in range(200):
        state = SchachtGame(players=3).new_state(seed=seed)
        while state.phase != "doubler" and not state.is_terminal:
            play(state, rng, 1)
        if state.phase != "doubler":
            continue
        seats = [p for p in range(3) if state.legal_actions(p)]
        if len(seats) < 2:
            continue
        first, second = seats[0], seats[1]
        before = state.observation(second)
        state.apply("bet", player=first)
        assert state.observation(second) == before
        assert state.observation(first)["doubler_decision"] == "bet"
        twin = state.resample(second, 3)
        assert twin.legal_actions(first) == [75, 76]
        assert twin.history[-1][1].kind not in ("bet", "hold") or twin.history[-1][0] == second
        return
    raise AssertionError("no doubler phase with two deciders found")
