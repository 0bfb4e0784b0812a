"""Bad input to Diabolo (Schacht) that only Schacht has: every wrong call raises a specific
DiaboloError and changes nothing. Spec: docs/games/schacht.rst and the error contract of
docs/interface.rst, "Errors".

- illegal moves raise IllegalMoveError naming the clause broken; the state is unchanged,
- given deals and state JSON that break Schacht's invariants raise StateFormatError,
- hypothesis throws random deals at the engine.

Schacht's bad notation, options, seats, deals and state JSON are samples
(tests/contract/samples/schacht.py) that the contract's checks run over
(tests/contract/test_bad_input.py), with every other game's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import diabolo
from diabolo.schacht import SchachtMove, SchachtState
from tests.bad_input_helpers import assert_illegal
from tests.contract.samples.schacht import (
    YELLOW_CLOSED_EQUAL,
    base_data,
    doubler_position,
    game3,
    game_over_position,
    play_position,
)
from tests.schacht_helpers import data_of, full_deck, position, position_data

# ---------------------------------------------------------------- illegal moves


def test_S2_2_wrong_seat() -> None:
    """S2.2: only the player to move may place."""
    state = play_position()
    for seat in (0, 2):
        assert_illegal(state, "R1<", seat, "S2.2")
        assert_illegal(state, "R2<", seat, "S2.2")
        for move in state.legal_moves():
            assert_illegal(state, move, seat, "S2.2")
            assert_illegal(state, move.action, seat, "S2.2")
            assert_illegal(state, str(move), seat, "S2.2")


def test_S2_3_card_not_in_hand() -> None:
    """S2.3: a player places (or discards) only a card from the hand."""
    state = play_position()
    for move in ("B5<", "B5>", "R2<", "Y5>", "xB5"):
        assert_illegal(state, move, None, "S2.3")
        assert_illegal(state, move, 1, "S2.3")
    # Also while only discards are legal (S3.3).
    state = position(game3(), hands=[["R2"], ["P1", "P3"], ["R3"]], rows={"P": ([1, 2, 3], [4, 5])}, current_player=1)
    assert_illegal(state, "xP2", None, "S2.3")
    assert_illegal(state, "xR2", None, "S2.3")


def test_S3_1_closed_row() -> None:
    """S3.1: a closed row (5 cards) takes no more cards."""
    state = play_position()
    assert_illegal(state, "P1<", None, "S3.1")
    assert_illegal(state, "P1>", None, "S3.1")
    assert_illegal(state, SchachtMove.parse("P1>").action, 1, "S3.1")


def test_S3_2_full_side() -> None:
    """S3.2: a side with 3 cards takes no more."""
    state = play_position()
    assert_illegal(state, "G2<", None, "S3.2")
    state.apply("G2>")  # the other side still may


def test_S3_3_discard_while_a_placement_exists() -> None:
    """S3.3: a card may be discarded only when no hand card can be placed."""
    state = play_position()
    for move in ("xR1", "xY1", "xG2", "xP1"):
        assert_illegal(state, move, None, "S3.3")


def test_S5_3_decision_outside_the_doubler_phase() -> None:
    """S5.3: bet/hold exist only while a positive colour is scored."""
    state = play_position()
    for move in ("bet", "hold", 75, 76):
        assert_illegal(state, move, None, "S5.3")
        assert_illegal(state, move, 0, "S5.3")
        assert_illegal(state, move, 2, "S5.3")
    fresh = game3().new_state(seed=4)
    assert_illegal(fresh, "bet", None, "S5.3")


def test_S5_3_decision_twice_and_placements_during_scoring() -> None:
    """S5.3: each seat decides once per colour; during scoring only bet/hold are moves."""
    state = doubler_position()
    state.apply("bet", player=0)
    assert_illegal(state, "bet", 0, "S5.3")
    assert_illegal(state, "hold", 0, "S5.3")
    state.apply("hold", player=1)
    assert_illegal(state, "hold", 1, "S5.3")
    assert_illegal(state, "bet", 1, "S5.3")
    for seat in range(3):
        assert_illegal(state, "R1<", seat, "S5.3")
        assert_illegal(state, "xR1", seat, "S5.3")


def test_S5_7_spent_doubler() -> None:
    """S5.7: a doubler bet on one colour cannot be used again that round."""
    state = doubler_position()
    state.apply("bet", player=0)
    state.apply("hold", player=1)
    state.apply("hold", player=2)
    assert state.phase == "doubler"  # blue
    assert_illegal(state, "bet", 0, "S5.7")
    assert_illegal(state, "hold", 0, "S5.7")
    assert_illegal(state, 75, 0, "S5.7")


def test_S6_1_game_over() -> None:
    """S6.1: after the last round no move is legal."""
    state = game_over_position()
    assert state.is_terminal
    for seat in range(3):
        assert state.legal_moves(seat) == []
        for move in ("bet", "hold", "R1<", "xR1", 0, 76):
            assert_illegal(state, move, seat, "S6.1")
    # Without a seat there is nobody to move: an error either way, nothing changes.
    before = state.to_json()
    with pytest.raises((diabolo.IllegalMoveError, diabolo.PlayerError)) as error:
        state.apply("bet")
    assert "S6.1" in str(error.value)
    assert state.to_json() == before


# ---------------------------------------------------------------- given deals


def test_empty_given_deal_is_rejected() -> None:
    """S2.4: an empty list is not the deck (None, not [], means "shuffle this round")."""
    game = game3()
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(deck=[])
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[[]])
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[None, []])


# ---------------------------------------------------------------- state JSON


def load(data: Any) -> SchachtState:
    text = data if isinstance(data, str) else json.dumps(data)
    return game3().state_from_json(text)


def test_state_json_card_conservation() -> None:
    """Every card must be in exactly one place (hands, pile, rows, discards)."""
    mutations: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d["pile"].pop(),
        lambda d: d["pile"].append("R1"),
        lambda d: d["pile"].append(d["pile"][0]),
        lambda d: d["hands"][0].append(d["pile"][0]),
        lambda d: d["hands"][1].pop(),
        lambda d: d["hands"].__setitem__(2, d["hands"][2] + ["B5"]),
        lambda d: d["discarded"].__setitem__(0, [d["pile"][0]]),
        lambda d: d["rows"]["R"]["left"].append(1),
        lambda d: d["rows"]["B"]["right"].append(5),
        lambda d: d["rows"]["R"].__setitem__("left", [2]),
        lambda d: d["pile"].__setitem__(0, "B5" if d["pile"][0] != "B5" else "R1"),
    ]
    for change in mutations:
        data = base_data()
        change(data)
        with pytest.raises(diabolo.StateFormatError):
            load(data)


def test_state_json_rows() -> None:
    """S3.1, S3.2: a side holds at most 3 cards, a row at most 5, values are 1..5."""
    game = game3()
    hands = [["Y2", "B1"], ["Y1", "Y3"], ["G3"]]
    bad_rows: list[dict[str, tuple[list[int], list[int]]]] = [
        {"R": ([1, 1, 1, 1], [])},
        {"G": ([], [1, 2, 3, 4])},
        {"P": ([1, 2, 3], [1, 2, 3])},
    ]
    for rows in bad_rows:
        data = position_data(game, hands=hands, rows=rows, current_player=1)
        with pytest.raises(diabolo.StateFormatError):
            load(data)
    for value in (0, 6, -1, "1", None, 1.0, True):
        data = position_data(game, hands=hands, rows={"Y": ([1], [])}, current_player=1)
        data["rows"]["Y"]["left"] = [value]
        with pytest.raises(diabolo.StateFormatError):
            load(data)
    broken_rows: list[Any] = [{"left": [], "right": 1}, {"left": []}, [], None]
    for broken in broken_rows:
        data = position_data(game, hands=hands, current_player=1)
        data["rows"]["B"] = broken
        with pytest.raises(diabolo.StateFormatError):
            load(data)


def test_state_json_impossible_phases() -> None:
    """Phase data must be consistent (S4.1, S5.3, S6.1)."""
    game = game3(rounds=2)
    hands = [["R2", "B1"], ["R1", "Y1"], ["G3"]]
    # red positive, being scored: a doubler phase that loads (each case breaks one thing)
    doubler: dict[str, Any] = dict(
        hands=hands, rows={"R": ([], [1])}, phase="doubler", scoring_colour="R", current_player=-2
    )
    cases: list[dict[str, Any]] = [
        # play: the player to move must hold a card
        dict(hands=[["R2"], [], ["G3"]], current_player=1),
        # play: the round should have ended (2 closed rows, S4.1)
        dict(hands=hands, rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 2, 3], [2, 4])}, current_player=1),
        # play with scoring data
        dict(hands=hands, current_player=1, scoring_colour="R"),
        dict(hands=hands, current_player=1, decided=[True, False, False]),
        dict(hands=hands, current_player=1, revealed_colours=["R"]),
        # play with a non-seat to move
        dict(hands=hands, current_player=diabolo.SIMULTANEOUS),
        dict(hands=hands, current_player=diabolo.TERMINAL),
        # doubler phase on a colour that is not positive, or without colour / doublers
        {**doubler, "rows": {"R": ([2], [1])}},
        {**doubler, "rows": {"R": ([1], [1])}},
        {**doubler, "scoring_colour": None},
        {**doubler, "current_player": 1},
        {**doubler, "doubler_available": [False, False, False]},
        {**doubler, "decided": [True, True, True]},
        {**doubler, "bets": [True, False, False]},
        {**doubler, "revealed_colours": ["G"]},
        # game over before the last round, or with a seat to move
        dict(hands=hands, phase="game_over", current_player=-4),
        dict(hands=hands, phase="game_over", current_player=0, round=1),
        # round beyond the game, shown cards not in hand / of an open row
        dict(hands=hands, current_player=1, round=2),
        dict(hands=hands, current_player=1, shown=[["B5"], [], []]),
        dict(hands=hands, current_player=1, shown=[["R2"], [], []]),
    ]
    for case in cases:
        data = position_data(game, **case)
        with pytest.raises(diabolo.StateFormatError):
            load(json.dumps(data))
    # The same positions with the phase fixed load fine (the cases test one thing each).
    game.state_from_json(json.dumps(position_data(game, hands=hands, current_player=1)))
    game.state_from_json(json.dumps(position_data(game, **doubler)))
    data = position_data(game, hands=hands, current_player=1)
    data["dealer"] = 1
    with pytest.raises(diabolo.StateFormatError):
        game.state_from_json(json.dumps(data))


def test_state_json_wrong_number_of_seats_and_other_games() -> None:
    """A state of another configuration is not a state of this game."""
    four = diabolo.load("schacht", players=4).new_state(seed=1)
    with pytest.raises(diabolo.StateFormatError):
        game3().state_from_json(four.to_json())
    with pytest.raises(diabolo.StateFormatError):
        game3(rounds=2).state_from_json(game3().new_state(seed=1).to_json())
    with pytest.raises(diabolo.StateFormatError):
        game3(value_counts=(4, 3, 3, 2, 3)).state_from_json(game3().new_state(seed=1).to_json())
    data = data_of(four)
    data["options"]["players"] = 3
    with pytest.raises(diabolo.StateFormatError):
        load(data)


def test_state_json_non_ascii_cards() -> None:
    """Cards that are not cards, in any alphabet, raise StateFormatError."""
    for key in ("pile", "hands", "history"):
        for text in ("é", "Ré", "é5", "日", "\u0080"):
            data = base_data()
            if key == "pile":
                data["pile"][0] = text
            elif key == "hands":
                data["hands"][0][0] = text
            else:
                data["history"] = [f"0:{text}<"]
            with pytest.raises(diabolo.StateFormatError):
                load(data)


def test_loaded_doubler_state_is_usable() -> None:
    """A doubler-phase state loaded from JSON without history (as a frontend may write
    it) is either rejected or fully usable: resample must not fail with a non-Diabolo
    error (it drops the other seats' undisclosed decisions from the history)."""
    state = doubler_position()
    state.apply("bet", player=0)
    data = data_of(state)
    data["history"] = []
    try:
        loaded = game3(rounds=1).state_from_json(json.dumps(data))
    except diabolo.StateFormatError:
        return
    for seat in range(3):
        loaded.resample(seat, 1)
        loaded.observation(seat)


# ---------------------------------------------------------------- hypothesis: given deals


@given(st.lists(st.text(max_size=3), max_size=80))
def test_fuzz_given_deal(deck: list[str]) -> None:
    """Random card lists as a given deal: StateFormatError unless exactly the deck."""
    try:
        game3().new_state(deck=deck)
    except diabolo.StateFormatError:
        return
    assert sorted(deck) == sorted(full_deck())
