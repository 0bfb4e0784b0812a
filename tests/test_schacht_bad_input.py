"""Bad input to Diabolo (Schacht): every wrong call raises a specific DiaboloError and
changes nothing. Spec: docs/games/schacht.rst and the error contract of docs/interface.rst, "Errors".

- illegal moves raise IllegalMoveError naming the clause broken; the state is unchanged,
- malformed notation and action ids raise NotationError,
- bad options and seeds raise OptionError, bad seats PlayerError,
- malformed state JSON and given deals raise StateFormatError,
- hypothesis throws random text, ints and JSON mutations at the engine.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diabolo
from diabolo.schacht import SchachtGame, SchachtMove, SchachtState
from tests.bad_input_helpers import assert_unchanged_after
from tests.json_fuzz import OPERATIONS, json_values, mutated_states
from tests.schacht_helpers import data_of, full_deck, position, position_data

YELLOW_CLOSED_EQUAL = ([1, 2, 3], [2, 4])


def game3(**options: Any) -> SchachtGame:
    return diabolo.load("schacht", players=3, **options)


def play_position() -> SchachtState:
    """Seat 1 to move. Purple is closed (S3.1), green's devil side is full (S3.2).
    Seat 1 holds P1 (closed row), G2 (left side full), R1, Y1."""
    return position(
        game3(),
        hands=[["R2", "B1"], ["P1", "R1", "G2", "Y1"], ["G3"]],
        rows={"P": ([1, 2, 3], [4, 5]), "G": ([1, 1, 1], [])},
        current_player=1,
    )


def doubler_position() -> SchachtState:
    """Purple positive (6 < 7) is being scored (S5.3); blue (positive) comes next."""
    state = position(
        game3(rounds=1),
        hands=[["P5", "R1"], ["P4", "P2", "R1"], ["P4", "R2"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([5, 1], [1, 2]), "B": ([], [1])},
        current_player=2,
    )
    state.apply("P4>")
    assert state.phase == "doubler"
    return state


def game_over_position() -> SchachtState:
    state = doubler_position()
    while not state.is_terminal:  # everyone holds on purple, then on blue
        seat = next(p for p in range(3) if state.legal_moves(p))
        state.apply("hold", player=seat)
    return state


def assert_illegal(state: SchachtState, move: SchachtMove | int | str, player: int | None, clause: str) -> None:
    """`move` by `player` raises IllegalMoveError naming `clause` and changes nothing."""
    before = state.to_json()
    history = state.history
    with pytest.raises(diabolo.IllegalMoveError) as error:
        state.apply(move, player=player)
    assert error.value.clause == clause, str(error.value)
    assert clause in str(error.value)
    assert isinstance(error.value, ValueError)
    assert state.to_json() == before
    assert state.history == history


# ---------------------------------------------------------------- the error classes


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


# ---------------------------------------------------------------- notation and action ids

BAD_NOTATION = [
    "",
    " ",
    "G5",
    "G5<<",
    " G5<",
    "G5< ",
    "g5<",
    "G5=",
    "G6<",
    "G0<",
    "Q5<",
    "5G<",
    "<G5",
    "x",
    "xG",
    "xG6",
    "xQ1",
    "XG5",
    "xG5<",
    "x G5",
    "Bet",
    "BET",
    "bet ",
    "hol",
    "holds",
    "pass",
    "G5\n",
    "\x00",
    "G\x005<",
    "xG\x00",
    "G5>>",
    "G10<",
    "R-1<",
    "日<",
    "Gé<",
    "é<",
    "xé",
    "é>",
    "\u0080<",
    "xR\u0301",
    "\U0001f600<",
]


@pytest.mark.parametrize("text", BAD_NOTATION)
def test_malformed_notation(text: str) -> None:
    """S8: text that is not a move raises NotationError wherever a move is read."""
    with pytest.raises(diabolo.NotationError):
        SchachtMove.parse(text)
    with pytest.raises(diabolo.NotationError):
        game3().move(text)
    state = play_position()
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text))
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text, player=1))


@pytest.mark.parametrize("text", ["\ud800", "G\udc005<", "x\udfff"])
def test_lone_surrogates_are_notation_errors(text: str) -> None:
    """docs/interface.rst, Errors,: a str that cannot be a move is a NotationError, also one holding
    a lone surrogate; never a RuntimeError or a crash."""
    state = play_position()
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text))
    with pytest.raises(diabolo.NotationError):
        SchachtMove.parse(text)


@pytest.mark.parametrize("text", ["\ud800", '{"format": "\udc00"}'])
def test_lone_surrogates_in_state_json(text: str) -> None:
    """docs/interface.rst, Errors,: text that is not a valid state is a StateFormatError."""
    with pytest.raises(diabolo.StateFormatError):
        game3().state_from_json(text)


@pytest.mark.parametrize("action", [-1, 77, 78, 100, 255, 256, -(2**31), 2**31, 2**63, 2**64, -(2**70), 2**200])
def test_from_action_out_of_range(action: int) -> None:
    """S8/docs/interface.rst: action ids are 0..76 (applying one out of range: tests/contract)."""
    with pytest.raises(diabolo.NotationError, match="out of range"):
        SchachtMove.from_action(action)


@pytest.mark.parametrize("value", [True, False, 1.0, 75.0, None, [1], (75,), {"move": "bet"}, object(), b"G5<", 1j])
def test_moves_of_the_wrong_type(value: object) -> None:
    """docs/interface.rst: a move is a SchachtMove, an action id or notation; anything else raises
    NotationError (a bool is not an action id) and changes nothing."""
    state = play_position()
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(value))  # type: ignore[arg-type]
    with pytest.raises(diabolo.NotationError):
        game3().move(value)  # type: ignore[arg-type]


def test_other_objects_as_moves() -> None:
    """docs/interface.rst: states, games and other objects are not moves."""
    state = play_position()
    for value in (state, state.game, diabolo, SchachtMove):
        assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(value))  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [True, False])
def test_from_action_rejects_bools(value: bool) -> None:
    """docs/interface.rst: a bool is not an action id (apply rejects it; from_action must too)."""
    with pytest.raises((diabolo.NotationError, TypeError)):
        SchachtMove.from_action(value)


@pytest.mark.parametrize("value", ["75", 1.0, None, [75]])
def test_from_action_wrong_types(value: object) -> None:
    with pytest.raises((diabolo.NotationError, TypeError)):
        SchachtMove.from_action(value)  # type: ignore[arg-type]


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    "options",
    [
        {"colour": 1},
        {"Players": 3},
        {"player": 3},
        {"seed": 1},
        {"players": 2},
        {"players": 6},
        {"players": 0},
        {"players": -1},
        {"players": 2**64},
        {"players": 3.0},
        {"players": True},
        {"players": "3"},
        {"players": None},
        {"players": 9, "strict_players": False},
        {"players": 1, "strict_players": False},
        {"rounds": 0},
        {"rounds": -1},
        {"rounds": 33},
        {"rounds": 2**70},
        {"rounds": 1.5},
        {"rounds": False},
        {"rounds": "4"},
        {"rows_to_end": 0},
        {"rows_to_end": 6},
        {"rows_to_end": -2},
        {"rows_to_end": 2.0},
        {"rows_to_end": None},
        {"value_counts": (4, 3, 3, 2)},
        {"value_counts": (4, 3, 3, 2, 2, 0)},
        {"value_counts": "43322"},
        {"value_counts": 43322},
        {"value_counts": None},
        {"value_counts": {0: 4}},
        {"value_counts": (4, 3, 3, 2, 6)},
        {"value_counts": (4, 3, 3, 2, -1)},
        {"value_counts": (4.0, 3, 3, 2, 2)},
        {"value_counts": (True, 3, 3, 2, 2)},
        {"value_counts": (2**70, 3, 3, 2, 2)},
        {"value_counts": ("4", 3, 3, 2, 2)},
        {"value_counts": (0, 0, 0, 0, 0)},
        {"value_counts": (1, 0, 0, 0, 0), "players": 5},
        {"strict_players": 1},
        {"strict_players": 0},
        {"strict_players": "False"},
        {"strict_players": None},
    ],
)
def test_bad_options(options: dict[str, Any]) -> None:
    """S1.1, S1.3, S4.1, S6.1: unknown options, wrong types and values raise OptionError."""
    with pytest.raises(diabolo.OptionError):
        diabolo.load("schacht", **options)
    with pytest.raises(diabolo.OptionError):
        SchachtGame(**options)


@pytest.mark.parametrize("name", ["chess", "", "Schacht", "knizia ", 1, None])
def test_unknown_game(name: Any) -> None:
    with pytest.raises(diabolo.OptionError):
        diabolo.load(name)


# ---------------------------------------------------------------- seeds


BAD_SEEDS: list[Any] = [-1, -(2**63), 2**64, 2**64 + 1, 2**100, 1.0, 0.5, True, False, None, "1", [1]]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seeds_with_a_given_deal(seed: Any) -> None:
    """docs/interface.rst: a seed is checked with a given deal too (the rest: tests/contract)."""
    with pytest.raises(diabolo.OptionError, match="seed must be an int"):
        game3().new_state(seed=seed, deck=full_deck())


# ---------------------------------------------------------------- seats

BAD_SEATS: list[Any] = [-1, -2, -4, 3, 4, 7, 8, 2**31, 2**63, 2**64, -(2**70), True, False, "0", 1.0, [0]]


@pytest.mark.parametrize("seat", BAD_SEATS)
def test_bad_seats(seat: Any) -> None:
    """docs/interface.rst: a seat is an int 0..n-1; others raise PlayerError and change nothing."""
    for state in (play_position(), doubler_position(), game_over_position()):
        before = state.to_json()
        calls: list[Callable[[], object]] = [
            lambda: state.observation(seat),
            lambda: state.observation_tensor(seat),
            lambda: state.legal_moves(seat),
            lambda: state.legal_actions(seat),
            lambda: state.legal_action_mask(seat),
            lambda: state.resample(seat, 1),
            lambda: state.apply("bet", player=seat),
            lambda: state.apply("R1<", player=seat),
        ]
        for call in calls:
            with pytest.raises(diabolo.PlayerError):
                call()
            assert state.to_json() == before


def test_no_seat_while_simultaneous() -> None:
    """S5.3: during doubler decisions the seat must be named (None is a PlayerError)."""
    state = doubler_position()
    assert state.current_player == diabolo.SIMULTANEOUS
    before = state.to_json()
    calls: list[Callable[[], object]] = [
        lambda: state.apply("bet"),
        lambda: state.apply("hold", player=None),
        lambda: state.legal_moves(),
        lambda: state.legal_actions(None),
        lambda: state.legal_action_mask(),
        lambda: state.observation(None),  # type: ignore[arg-type]
        lambda: state.observation_tensor(None),  # type: ignore[arg-type]
        lambda: state.resample(None, 1),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(diabolo.PlayerError):
            call()
        assert state.to_json() == before


def test_observation_needs_a_seat() -> None:
    state = play_position()
    with pytest.raises(diabolo.PlayerError):
        state.observation(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- given deals


@pytest.mark.parametrize(
    "deck",
    [
        "R1" * 70,
        full_deck()[:-1],
        full_deck() + ["R1"],
        full_deck()[1:] + ["B5"],
        full_deck()[:-1] + [1],
        full_deck()[:-1] + [None],
        full_deck()[:-1] + ["b5"],
        full_deck()[:-1] + ["é"],
        full_deck()[:-1] + ["B5 "],
        {"R1": 4},
        42,
    ],
)
def test_bad_given_deals(deck: Any) -> None:
    """S2.4: a given deal that is not exactly the deck is a StateFormatError."""
    game = game3()
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(deck=deck)
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[None, deck])


def test_empty_given_deal_is_rejected() -> None:
    """S2.4: an empty list is not the deck (None, not [], means "shuffle this round")."""
    game = game3()
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(deck=[])
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[[]])
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[None, []])


def test_bad_decks_argument() -> None:
    """S2.4: decks is a list of per-round deals, at most one per round."""
    game = game3()
    for decks in ("abc", 5, [5], [full_deck()] * 4, [None] * 4):
        with pytest.raises(diabolo.StateFormatError):
            game.new_state(decks=decks)  # type: ignore[arg-type]
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(deck=full_deck(), decks=[full_deck()])


# ---------------------------------------------------------------- state JSON


def base_data() -> dict[str, Any]:
    state = play_position()
    state.apply("R1<")
    return data_of(state)


def load(data: Any) -> SchachtState:
    text = data if isinstance(data, str) else json.dumps(data)
    return game3().state_from_json(text)


def test_state_json_round_trip_is_the_baseline() -> None:
    data = base_data()
    state = load(data)
    assert data_of(state) == data


@pytest.mark.parametrize(
    "text",
    ["", "not json", "{", "[]", "null", "1", '"text"', "{}", "NaN", "[" * 100000 + "]" * 100000, "{'format': 1}"],
)
def test_state_json_not_a_state(text: str) -> None:
    with pytest.raises(diabolo.StateFormatError):
        game3().state_from_json(text)


@pytest.mark.parametrize("key", list(base_data()))
def test_state_json_missing_key(key: str) -> None:
    data = base_data()
    del data[key]
    with pytest.raises(diabolo.StateFormatError, match=key):
        load(data)


WRONG_TYPES: list[tuple[str, Any]] = [
    ("format", 1),
    ("format", "diabolo.schacht/2"),
    ("format", "diabolo.knizia/1"),
    ("options", []),
    ("options", {"players": 4}),
    ("options", {"players": "3"}),
    ("options", {"players": 3, "colour": 1}),
    ("seed", "1"),
    ("seed", -1),
    ("seed", 2**64),
    ("seed", 1.5),
    ("seed", None),
    ("round", "0"),
    ("round", True),
    ("round", -1),
    ("round", 3),
    ("round", 0.0),
    ("dealer", 1),
    ("dealer", None),
    ("dealer", 3),
    ("phase", 0),
    ("phase", "Play"),
    ("phase", "scoring"),
    ("current_player", None),
    ("current_player", "1"),
    ("current_player", 3),
    ("current_player", -1),
    ("current_player", -2),
    ("current_player", -4),
    ("current_player", -5),
    ("scoring_colour", "P"),
    ("scoring_colour", 3),
    ("scoring_colour", "purple"),
    ("scoring_colour", ""),
    ("revealed_colours", "R"),
    ("revealed_colours", ["X"]),
    ("revealed_colours", ["R"]),
    ("revealed_colours", [None]),
    ("doubler_available", [1, 1, 1]),
    ("doubler_available", [True, True]),
    ("doubler_available", [True] * 4),
    ("doubler_available", True),
    ("decided", [True, False, False]),
    ("decided", [0, 0, 0]),
    ("bets", [False, True, False]),
    ("bets", "no"),
    ("pile", "R1"),
    ("pile", None),
    ("pile", [1]),
    ("pile", ["R1"] * 200),
    ("hands", {}),
    ("hands", [[], []]),
    ("hands", [["R1"], ["R1"], ["R1"], ["R1"]]),
    ("hands", "R1"),
    ("hands", [[1], [], []]),
    ("shown", [["R1"], [], []]),
    ("shown", [[], []]),
    ("discarded", [["B5"], [], []]),
    ("discarded", None),
    ("rows", []),
    ("rows", {}),
    ("rows", None),
    ("scores", ["0", 0, 0]),
    ("scores", [0, 0]),
    ("scores", [0, 0, 0, 0]),
    ("scores", [2**40, 0, 0]),
    ("scores", [0.5, 0, 0]),
    ("history", [1]),
    ("history", ["bet"]),
    ("history", ["9:bet"]),
    ("history", ["1:G9<"]),
    ("history", ["1-G5<"]),
    ("history", ["10:G5<"]),
    ("history", "1:G5<"),
    ("decks", "x"),
    ("decks", [1]),
    ("decks", [None, None, None, None]),
    ("decks", [["R1"] * 70]),
    ("decks", [[]]),
    ("decks", [full_deck()[:-1]]),
]


@pytest.mark.parametrize(("key", "value"), WRONG_TYPES)
def test_state_json_wrong_values(key: str, value: Any) -> None:
    """Wrong types and impossible values of every key raise StateFormatError."""
    data = base_data()
    data[key] = value
    with pytest.raises(diabolo.StateFormatError):
        load(data)


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
        dict(hands=hands, rows={"R": ([2], [1])}, phase="doubler", scoring_colour="R", current_player=-2),
        dict(hands=hands, rows={"R": ([1], [1])}, phase="doubler", scoring_colour="R", current_player=-2),
        dict(hands=hands, rows={"R": ([], [1])}, phase="doubler", scoring_colour=None, current_player=-2),
        dict(hands=hands, rows={"R": ([], [1])}, phase="doubler", scoring_colour="R", current_player=1),
        dict(
            hands=hands,
            rows={"R": ([], [1])},
            phase="doubler",
            scoring_colour="R",
            current_player=-2,
            doubler_available=[False, False, False],
        ),
        dict(
            hands=hands,
            rows={"R": ([], [1])},
            phase="doubler",
            scoring_colour="R",
            current_player=-2,
            decided=[True, True, True],
        ),
        dict(
            hands=hands,
            rows={"R": ([], [1])},
            phase="doubler",
            scoring_colour="R",
            current_player=-2,
            bets=[True, False, False],
        ),
        dict(
            hands=hands,
            rows={"R": ([], [1])},
            phase="doubler",
            scoring_colour="R",
            current_player=-2,
            revealed_colours=["G"],
        ),
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
    ok = position_data(game, hands=hands, rows={"R": ([], [1])}, phase="doubler", scoring_colour="R", current_player=-2)
    game.state_from_json(json.dumps(ok))
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


def test_uninitialised_objects_do_not_crash() -> None:
    """docs/interface.rst: no input may crash the process, also objects made with ``cls.__new__``
    without ``__init__`` (using them should raise TypeError or a DiaboloError).

    Run in a child process, so that a crash fails this test instead of the run."""
    calls = [
        "SchachtGame.__new__(SchachtGame).new_state()",
        "SchachtGame.__new__(SchachtGame).players",
        "SchachtState.__new__(SchachtState).to_json()",
        "SchachtState.__new__(SchachtState).legal_moves(0)",
        "SchachtMove.__new__(SchachtMove).action",
    ]
    problems = []
    for call in calls:
        code = (
            "from diabolo.schacht import SchachtGame, SchachtMove, SchachtState\n"
            "import diabolo\n"
            "try:\n"
            f"    {call}\n"
            "except (TypeError, diabolo.DiaboloError):\n"
            "    print('raised')\n"
            "else:\n"
            "    print('no error')\n"
        )
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            problems.append(f"{call}: exit {result.returncode} {result.stderr[-300:]}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- hypothesis: notation


@given(st.text())
def test_fuzz_parse_text(text: str) -> None:
    """Random text: a move whose str() is the text, or NotationError."""
    try:
        move = SchachtMove.parse(text)
    except diabolo.NotationError:
        return
    assert str(move) == text


near_moves_text = st.text(alphabet=list("xRYGPB0156<>bethold é\x00\u00e9\u65e5\U0001f600"), max_size=4)
near_moves_parts = st.builds(
    lambda a, b, c, d: a + b + c + d,
    st.sampled_from(["", "x", "X", " ", "b", "h", "é", "\x00"]),
    st.sampled_from(["", "R", "Y", "G", "P", "B", "r", "Q", "e", "ho", "日"]),
    st.sampled_from(["", "0", "1", "3", "5", "6", "t", "ld", "é", "\x00"]),
    st.sampled_from(["", "<", ">", "=", "<<", " ", "\n", "é"]),
)
near_moves = st.one_of(near_moves_text, near_moves_parts)


@settings(max_examples=500)  # cheap: search the small space of near misses well
@given(near_moves)
def test_fuzz_parse_near_misses(text: str) -> None:
    """Text close to real notation: a move whose str() is the text, or NotationError;
    through apply, an error leaves the state unchanged."""
    try:
        move = SchachtMove.parse(text)
    except diabolo.NotationError:
        state = play_position()
        assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text))
        return
    assert str(move) == text


# ---------------------------------------------------------------- hypothesis: apply


@cache
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of states met in random play: every phase, 3-5 players."""
    found: list[tuple[int, str]] = []
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players, rounds=2)
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new_state(seed=seed)
            step = 0
            while True:
                if step % 9 == 0 or state.phase != "play":
                    found.append((players, state.to_json()))
                if state.is_terminal:
                    break
                player = state.current_player
                if player == diabolo.SIMULTANEOUS:
                    player = next(p for p in range(players) if state.legal_moves(p))
                state.apply(rng.choice(state.legal_moves(player)), player=player)
                step += 1
    return tuple(found)


def state_at(index: int) -> SchachtState:
    players, text = reachable_states()[index % len(reachable_states())]
    return diabolo.load("schacht", players=players, rounds=2).state_from_json(text)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0),
    st.integers(),
    st.one_of(st.none(), st.integers(min_value=-10, max_value=10), st.integers()),
)
def test_fuzz_apply_ints(index: int, action: int, player: int | None) -> None:
    """Random ints as moves and seats: a legal move applies, anything else raises a
    DiaboloError and leaves the state unchanged."""
    state = state_at(index)
    before = state.to_json()
    n = state.game.players
    seat: int | None
    if player is None:
        seat = state.current_player if state.current_player >= 0 else None
    else:
        seat = player if 0 <= player < n else None
    legal = seat is not None and 0 <= action < 77 and action in state.legal_actions(seat)
    try:
        state.apply(action, player=player)
    except diabolo.DiaboloError as error:
        assert not legal, f"legal move {action} by {seat} raised {error!r}"
        assert state.to_json() == before
        if isinstance(error, diabolo.IllegalMoveError):
            assert error.clause.startswith("S")
        return
    assert legal
    assert state.history[-1] == (seat, SchachtMove.from_action(action))


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.lists(st.integers(min_value=0, max_value=76), max_size=20))
def test_fuzz_apply_sequences(index: int, actions: list[int]) -> None:
    """Random action ids by whoever may act: errors never change the state."""
    state = state_at(index)
    for action in actions:
        n = state.game.players
        for seat in range(n):
            before = state.to_json()
            legal = action in state.legal_actions(seat)
            try:
                state.apply(action, player=seat)
            except diabolo.IllegalMoveError:
                assert not legal
                assert state.to_json() == before
                continue
            assert legal
            break


# ---------------------------------------------------------------- hypothesis: JSON

JSON_VALUES = json_values(["R1", "B5", "G9", "xG5", "play", "doubler", "game_over", "P", "é", "1:bet", "0:R1<"])
JSON_OPERATIONS = [op for op in OPERATIONS if op != "move"]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated_states(reachable_states, JSON_VALUES, JSON_OPERATIONS, most=4))
def test_fuzz_state_json_mutations(case: tuple[int, str]) -> None:
    """Mutations of real state JSON: StateFormatError, or a state that works and writes
    itself back exactly."""
    players, text = case
    game = diabolo.load("schacht", players=players, rounds=2)
    try:
        state = game.state_from_json(text)
    except diabolo.StateFormatError:
        return
    again = game.state_from_json(state.to_json())
    assert again == state
    assert again.to_json() == state.to_json()
    for seat in range(players):
        obs = state.observation(seat)
        json.dumps(obs)
        state.legal_moves(seat)
        state.observation_tensor(seat)
    str(state)
    if state.is_terminal:
        return
    seat = state.current_player
    if seat == diabolo.SIMULTANEOUS:
        seat = next(p for p in range(players) if state.legal_moves(p))
    moves = state.legal_moves(seat)
    assert moves, "a seat is to act but has no legal move"
    state.apply(moves[0], player=seat)


@given(st.text(max_size=40))
def test_fuzz_state_json_random_text(text: str) -> None:
    try:
        game3().state_from_json(text)
    except diabolo.StateFormatError:
        return
    raise AssertionError("random text loaded as a state")


@given(st.lists(st.text(max_size=3), max_size=80))
def test_fuzz_given_deal(deck: list[str]) -> None:
    """Random card lists as a given deal: StateFormatError unless exactly the deck."""
    try:
        game3().new_state(deck=deck)
    except diabolo.StateFormatError:
        return
    assert sorted(deck) == sorted(full_deck())
