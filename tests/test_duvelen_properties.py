"""Properties over random real-time play of Duvelen (hypothesis): in every step a random
seat makes a random legal move. Card conservation, pile shape, D5 scores recomputed from
the JSON, round trips, determinism, value semantics, and information hiding (D8).
Spec: docs/games/duvelen.rst.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import diabolo
from diabolo.duvelen import DuvelenGame, DuvelenState
from tests.duvelen_helpers import (
    RANKS,
    SUITS,
    card_places,
    data_of,
    expected_round_scores,
    full_deck,
    play,
    random_step,
)

# Whole-game walks check every step; they run fewer examples than the other properties.
WALKS = max(6, settings().max_examples // 10)


def game_of(players: int, rounds: int = 1, on_block: str = "rotate_stok") -> DuvelenGame:
    return diabolo.load("duvelen", players=players, rounds=rounds, on_block=on_block, max_actions=3000)


@st.composite
def states(draw: st.DrawFn) -> DuvelenState:
    """A state reached by random real-time play from a random deal, anywhere in a game
    (also after Stop and at game over; the bias makes card plays, and so Stop, likelier)."""
    players = draw(st.sampled_from([2, 2, 3, 4, 5, 8]))
    rounds = draw(st.integers(1, 2))
    on_block = draw(st.sampled_from(["rotate_stok", "end_round"]))
    seed = draw(st.integers(0, 2**64 - 1))
    bias = draw(st.sampled_from([0.0, 0.6, 0.9]))
    state = game_of(players, rounds, on_block).new_state(seed=seed)
    rng = random.Random(seed)
    if draw(st.booleans()):
        return play(state, rng, draw(st.integers(0, 500 * rounds)), bias)
    # Play on to the first Stop (or the end), then a few steps more: after-Stop states.
    while state.phase == "play":
        random_step(state, rng, 0.9)
    return play(state, rng, draw(st.integers(0, 6)), bias)


def expected_cards(players: int) -> Counter[tuple[int, str]]:
    return Counter({(seat, name): 1 for seat in range(players) for name in full_deck()})


def check_table(state: DuvelenState, data: dict[str, Any]) -> None:
    """The invariants every reachable table keeps (D1.1, D3.2, D3.3, D3.9, D5, D8)."""
    n = state.game.players
    # D1.1: every card of every deck is in exactly one place.
    assert card_places(data) == expected_cards(n)
    # D3.2, D3.3, D3.9: a pile is one suit from the Ace up, one rank at a time, each card
    # with its owner; complete (13 cards) exactly when it is a Herenhoop, held by the
    # player who played its King; completion numbers 1, 2, ... in order.
    completed = []
    for p in data["piles"]:
        assert p["suit"] in SUITS
        assert 1 <= len(p["owners"]) <= len(RANKS)
        assert all(0 <= owner < n for owner in p["owners"])
        if p["holder"] is None:
            assert len(p["owners"]) < 13 and p["completed"] == 0
        else:
            assert len(p["owners"]) == 13
            assert p["holder"] == p["owners"][-1]
            completed.append(p["completed"])
    assert sorted(completed) == list(range(1, len(completed) + 1))
    obs = state.observation(0)
    centre = [(i + 1, p) for i, p in enumerate(data["piles"]) if p["holder"] is None]
    assert [(v["id"], v["suit"], v["top"], v["owners"]) for v in obs["piles"]] == [
        (i, p["suit"], len(p["owners"]), p["owners"]) for i, p in centre
    ]
    assert len(obs["herenhopen"]) == len(completed)
    # D5: the round's score as the JSON says.
    assert state.round_scores == expected_round_scores(data)
    assert obs["round_scores"] == state.round_scores and obs["scores"] == state.scores
    # D2, D3.4: place sizes.
    for seat in data["seats"]:
        assert len(seat["stok"]) <= 13 and len(seat["rij"]) == 4
        assert len(seat["waste"]) + len(seat["draaistok"]) <= 35
        if seat["stok"]:
            assert None not in seat["rij"]
    # D4: phases.
    if data["phase"] == "play":
        assert data["stop_called_by"] is None
        assert not any(seat["passed"] for seat in data["seats"])
    if data["phase"] == "after_stop":
        assert data["seats"][data["stop_called_by"]]["stok"] == []
        for seat in data["seats"]:
            assert seat["waste"] or not seat["draaistok"]  # D4.3
        assert not all(seat["passed"] for seat in data["seats"])  # D4.4


@settings(max_examples=WALKS)
@given(st.sampled_from([2, 3, 4, 6, 8]), st.integers(0, 2**64 - 1), st.sampled_from([0.0, 0.7]), st.integers(1, 2))
def test_invariants_hold_at_every_step(players: int, seed: int, bias: float, rounds: int) -> None:
    """D1.1, D3, D5: along whole random games, every card is in exactly one place, piles
    ascend by one in one suit with their owners, and round_scores is the D5 score of the
    JSON, after every single move."""
    state = game_of(players, rounds).new_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        check_table(state, data_of(state))
        if state.is_terminal:
            break
        round_before, scores_before = state.round, state.scores
        random_step(state, rng, bias)
        steps += 1
        if state.round == round_before and not state.is_terminal:
            assert state.scores == scores_before  # totals change only at a round's end
    assert steps > 0


@given(states())
def test_every_card_is_in_exactly_one_place(state: DuvelenState) -> None:
    check_table(state, data_of(state))


@given(states())
def test_scores_add_up_as_D5_says(state: DuvelenState) -> None:
    """D5: round_scores recomputed from the JSON; at game over the totals of a one-round
    game are that round's score (D1.3)."""
    data = data_of(state)
    assert state.round_scores == expected_round_scores(data)
    if state.is_terminal and state.game.rounds == 1:
        assert state.scores == state.round_scores
    assert state.returns() == [float(s) for s in state.scores]
    best = max(state.scores)
    assert state.winners == [p for p, s in enumerate(state.scores) if s == best]


@given(states())
def test_clone_copy_pickle_json_round_trip(state: DuvelenState) -> None:
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
        assert twin.game == state.game
        for seat in range(state.game.players):
            assert twin.legal_actions(seat) == state.legal_actions(seat)
            assert twin.observation(seat) == state.observation(seat)
            assert np.array_equal(twin.observation_tensor(seat), state.observation_tensor(seat))


@given(states(), st.integers(0, 2**32))
def test_apply_on_a_clone_never_changes_the_original(state: DuvelenState, seed: int) -> None:
    before = state.to_json()
    observation = state.observation(0)
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        play(twin, random.Random(seed), 20, bias=0.5)
        assert state.to_json() == before
        assert state.observation(0) == observation
        if twin.history != state.history:
            assert twin != state


@settings(max_examples=WALKS)
@given(st.integers(0, 2**64 - 1), st.sampled_from([2, 3, 5]), st.integers(1, 2))
def test_same_seed_same_game(seed: int, players: int, rounds: int) -> None:
    """docs/interface.rst: the same seed (and the same sequence of moves) gives the same game."""
    game = game_of(players, rounds)
    first = play(game.new_state(seed=seed), random.Random(seed), 100_000, bias=0.7)
    second = play(game.new_state(seed=seed), random.Random(seed), 100_000, bias=0.7)
    assert first.is_terminal
    assert first.to_json() == second.to_json()
    assert game.new_state(seed=seed).to_json() == game.new_state(seed=seed).to_json()


def test_different_seeds_deal_differently() -> None:
    game = game_of(2)
    deals = {json.dumps(data_of(game.new_state(seed=seed))["seats"]) for seed in range(20)}
    assert len(deals) == 20


# ---- information hiding (D8) -------------------------------------------------------------


def visible(data: dict[str, Any]) -> list[Any]:
    """Everything public in a state's JSON (D8.1): per seat the Stok top, the Rij, the
    waste top and the counts; the piles; phase, Stop, scores, history."""
    seats = [
        (
            s["stok"][:1],
            s["rij"],
            s["waste"][-1:],
            len(s["stok"]),
            len(s["waste"]),
            len(s["draaistok"]),
            s["passed"],
        )
        for s in data["seats"]
    ]
    return [
        seats,
        data["piles"],
        data["phase"],
        data["stop_called_by"],
        data["scores"],
        data["history"],
        data["round"],
        data["actions"],
        data["options"],
    ]


def hidden(data: dict[str, Any], seat: int) -> tuple[tuple[str, ...], ...]:
    """A seat's face-down cards in order (D8.2): Stok under the top, waste under the top,
    Draaistok."""
    s = data["seats"][seat]
    return tuple(s["stok"][1:]), tuple(s["waste"][:-1]), tuple(s["draaistok"])


@given(states(), st.integers(0, 2**64 - 1))
def test_resample_keeps_what_the_player_sees(state: DuvelenState, seed: int) -> None:
    """D8: observation(p), observation_tensor(p) and p's legal moves are unchanged by
    resample(p, s)."""
    for player in range(state.game.players):
        twin = state.resample(player, seed)
        assert twin.observation(player) == state.observation(player)
        assert np.array_equal(twin.observation_tensor(player), state.observation_tensor(player))
        assert twin.legal_actions(player) == state.legal_actions(player)
        assert [str(m) for m in twin.legal_moves(player)] == [str(m) for m in state.legal_moves(player)]


@given(states(), st.integers(0, 2**64 - 1))
def test_resample_keeps_every_visible_card_and_count(state: DuvelenState, seed: int) -> None:
    """D8.2: resampling keeps every visible card and count, and redeals each seat's own
    face-down cards among its own hidden places (the same set of cards); the result is a
    valid state (it loads back) that still conserves every card."""
    data = data_of(state)
    for player in range(state.game.players):
        twin = state.resample(player, seed)
        again = data_of(twin)
        assert visible(again) == visible(data)
        for seat in range(state.game.players):
            assert Counter(c for part in hidden(again, seat) for c in part) == Counter(
                c for part in hidden(data, seat) for c in part
            )
        assert card_places(again) == card_places(data)
        assert state.game.state_from_json(twin.to_json()) == twin
        assert twin.round_scores == state.round_scores


@given(states(), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_resample_depends_only_on_what_the_player_knows(state: DuvelenState, seed: int, other: int) -> None:
    """docs/interface.rst, D8.2: two states that look the same to a player resample identically; as
    every seat knows the same (nobody sees face-down cards), so does every seat."""
    reference = state.resample(0, seed).to_json()
    for player in range(state.game.players):
        lookalike = state.resample(player, other)
        assert lookalike.resample(player, seed).to_json() == state.resample(player, seed).to_json()
        assert state.resample(player, seed).to_json() == reference


@given(states())
def test_resample_really_redeals(state: DuvelenState) -> None:
    """D8.2: resampling is not a copy of the true hidden order: for a seat with 3 or
    more face-down cards some seed deals them differently."""
    data = data_of(state)
    twins = [data_of(state.resample(0, seed)) for seed in range(16)]
    for seat in range(state.game.players):
        truth = hidden(data, seat)
        if sum(len(part) for part in truth) >= 3:
            assert any(hidden(twin, seat) != truth for twin in twins), f"seat {seat} never redealt"


def card_strings(value: Any) -> list[str]:
    """Every str in a JSON value that is a card in notation."""
    names = set(full_deck())
    if isinstance(value, str):
        return [value] if value in names else []
    if isinstance(value, dict):
        return [c for item in value.values() for c in card_strings(item)]
    if isinstance(value, list):
        return [c for item in value for c in card_strings(item)]
    return []


@given(states())
def test_observation_never_lists_face_down_cards(state: DuvelenState) -> None:
    """D8.2: an observation shows the visible cards only: per seat exactly the Stok top,
    the Rij and the waste top; no list of Stok, waste or Draaistok cards anywhere."""
    data = data_of(state)
    for player in range(state.game.players):
        obs = state.observation(player)
        assert not {"stok", "waste", "draaistok", "decks", "seed", "history"} & set(obs)
        for seat, view in enumerate(obs["seats"]):
            places = data["seats"][seat]
            shown = places["stok"][:1] + [c for c in places["rij"] if c is not None] + places["waste"][-1:]
            assert Counter(card_strings(view)) == Counter(shown)
            assert not {"stok", "waste", "draaistok"} & set(view)
        without_legal = {k: v for k, v in obs.items() if k not in ("legal", "legal_moves")}
        assert card_strings(without_legal) == [c for view in obs["seats"] for c in card_strings(view)]
        # The legal moves name only the player's own visible cards.
        mine = data["seats"][player]
        own = set(mine["stok"][:1] + [c for c in mine["rij"] if c is not None] + mine["waste"][-1:])
        for text in obs["legal"]:
            if ":" in text:
                assert text.split(":")[1].split(">")[0] in own
        assert {move["card"] for move in obs["legal_moves"] if "card" in move} <= own


def test_observation_is_blind_to_the_face_down_order() -> None:
    """D8.2: swapping two face-down cards of a seat (in the JSON) changes no observation
    and no tensor."""
    rng = random.Random(12)
    game = game_of(3)
    state = play(game.new_state(seed=12), rng, 60, bias=0.5)
    data = data_of(state)
    for seat in range(3):
        changed = json.loads(json.dumps(data))
        draaistok = changed["seats"][seat]["draaistok"]
        assert len(draaistok) >= 2
        draaistok[0], draaistok[-1] = draaistok[-1], draaistok[0]
        stok = changed["seats"][seat]["stok"]
        if len(stok) >= 3:
            stok[1], stok[-1] = stok[-1], stok[1]
        twin = game.state_from_json(json.dumps(changed))
        assert twin.to_json() != state.to_json()
        for player in range(3):
            assert twin.observation(player) == state.observation(player)
            assert np.array_equal(twin.observation_tensor(player), state.observation_tensor(player))
