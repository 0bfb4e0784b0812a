"""Bad input to Duvelen: every wrong call raises a specific DiaboloError and changes
nothing. Spec: docs/games/duvelen.rst and the error contract of docs/interface.rst, "Errors".

- illegal moves raise IllegalMoveError naming the clause broken; the state is unchanged,
- malformed notation and action ids raise NotationError,
- bad options and seeds raise OptionError, bad or missing seats PlayerError,
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
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState
from diabolo.schacht import SchachtMove
from tests.bad_input_helpers import assert_unchanged_after
from tests.duvelen_helpers import (
    NUM_ACTIONS,
    PASS,
    RECYCLE,
    RECYCLE_UP,
    STOP,
    TURN,
    data_of,
    deck,
    full_deck,
    herenhoop,
    legal_texts,
    pile,
    play,
    position,
    position_data,
)
from tests.json_fuzz import json_values, mutated_states


def game2(**options: Any) -> DuvelenGame:
    return diabolo.load("duvelen", players=2, **options)


def game3(**options: Any) -> DuvelenGame:
    return diabolo.load("duvelen", players=3, **options)


def base_position() -> DuvelenState:
    """Three seats, before Stop.

    - Pile 1: seat 0's hearts, a Herenhoop (complete, D3.9); pile 2: seat 0's Ac.
    - Seat 0: empty Stok (may call Stop), Rij [--, 2c, Kd, 5s], empty waste, a full
      Draaistok of 35.
    - Seat 1: Rij [Ah, 7h, 2d, Kc], waste top Qs.
    - Seat 2: a fresh seat (Stok 13, Rij of Kings, Draaistok 35).
    """
    piles = [herenhoop("h", [0] * 13, 1), pile("c", [0])]
    seats: list[dict[str, Any]] = [
        dict(rij=[None, "2c", "Kd", "5s"], rest="draaistok"),
        dict(rij=["Ah", "7h", "2d", "Kc"], waste=["Qs"]),
        dict(),
    ]
    return position(game3(), seats, piles)


def after_stop_position() -> DuvelenState:
    state = base_position()
    state.apply("stop", player=0)
    assert state.phase == "after_stop"
    return state


def game_over_position() -> DuvelenState:
    state = after_stop_position()
    for seat in range(3):
        state.apply("pass", player=seat)
    assert state.is_terminal
    return state


def empty_cycle_position() -> DuvelenState:
    """Seat 0: Draaistok and waste both empty (its cards are in the centre, the Rij and
    the Stok); seat 1: Draaistok empty, waste full."""
    piles = [herenhoop("h", [0] * 13, 1), herenhoop("d", [0] * 13, 2), pile("c", [0] * 12)]
    spades = ["10s", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "As"]
    seats: list[dict[str, Any]] = [
        dict(stok=spades, rij=["Kc", "Ks", "Qs", "Js"], rest="none"),
        dict(draaistok=[], rest="waste+stok"),
    ]
    return position(game2(), seats, piles)


def assert_illegal(state: DuvelenState, move: DuvelenMove | int | str, player: int, clause: str) -> None:
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


def test_base_positions_are_what_they_say() -> None:
    state = base_position()
    assert legal_texts(state, 0) == ["R2:2c>2", "turn", "stop"]
    assert legal_texts(state, 1) == ["R1:Ah>new", "turn"]
    assert legal_texts(state, 2) == ["turn"]
    assert [p["id"] for p in state.observation(0)["piles"]] == [2]
    assert legal_texts(after_stop_position(), 1) == ["R1:Ah>new", "pass"]
    empty = empty_cycle_position()
    assert legal_texts(empty, 0) == ["R1:Kc>3"]
    assert legal_texts(empty, 1)[-2:] == ["recycle", "recycle^"]


# ---------------------------------------------------------------- illegal moves


def test_D3_1_empty_source() -> None:
    """D3.1: a play from an empty place (an empty Rij slot, an empty waste, an empty
    Stok) is illegal, in long form, short form and as an action id."""
    state = base_position()
    for move in ("R1:2c>2", "R1>2", "R1>new", 1 * 33 + 2, "W:Qs>new", "W>2", 5 * 33, "S>2", "S:Ah>new", 0):
        assert_illegal(state, move, 0, "D3.1")


def test_D3_2_ace_goes_to_a_new_pile() -> None:
    """D3.2: an Ace only starts a new pile; only an Ace starts a new pile."""
    state = base_position()
    for move in ("R1:Ah>1", "R1:Ah>2", "R1>2", 1 * 33 + 2, "R1:Ah>5"):
        assert_illegal(state, move, 1, "D3.2")
    for move in ("R2:2c>new", "R2>new", 2 * 33):
        assert_illegal(state, move, 0, "D3.2")
    for move in ("R2:7h>new", "W:Qs>new", "W>new", "R3>new"):
        assert_illegal(state, move, 1, "D3.2")


def test_D3_3_wrong_pile() -> None:
    """D3.3: a card goes only onto a pile of its suit whose top is one lower."""
    state = base_position()
    assert_illegal(state, "R3:Kd>2", 0, "D3.3")
    assert_illegal(state, "R4:5s>2", 0, "D3.3")
    assert_illegal(state, "R3:2d>2", 1, "D3.3")  # a 2, but of diamonds on clubs
    assert_illegal(state, "W:Qs>2", 1, "D3.3")
    assert_illegal(state, 3 * 33 + 2, 1, "D3.3")
    state.apply("R2:2c>2", player=0)
    assert_illegal(state, "R2:7h>2", 1, "D3.3")
    assert_illegal(state, "R2>2", 0, "D3.1")  # R2 is empty now (seat 0 has no Stok)


def test_D3_9_completed_pile() -> None:
    """D3.9: a Herenhoop has left the centre: nothing more goes on it."""
    state = base_position()
    for move in ("R2:7h>1", "R2>1", "R4:Kc>1", "W:Qs>1", 2 * 33 + 1):
        assert_illegal(state, move, 1, "D3.9")
    assert_illegal(state, "R2:2c>1", 0, "D3.9")


def test_D3_10_stale_card() -> None:
    """D3.10: a play naming a card that is no longer (or never was) at its source."""
    state = base_position()
    stok_top = state.observation(1)["seats"][1]["stok_top"]
    for move in ("R1:As>new", "R1:2h>new", "R2:8h>2", "W:Ks>2", "R2:2c>2"):
        assert_illegal(state, move, 1, "D3.10")
    assert_illegal(state, "R1:Ah>new", 0, "D3.1")  # seat 0's R1 is empty
    state.apply("R1:Ah>new", player=1)
    assert_illegal(state, "R1:Ah>new", 1, "D3.10")
    assert_illegal(state, f"S:{stok_top}>new", 1, "D3.10")


def test_D4_1_stop_with_stok_or_twice() -> None:
    """D4.1: Stop needs an empty Stok, and only one Stop per round."""
    state = base_position()
    for seat in (1, 2):
        assert_illegal(state, "stop", seat, "D4.1")
        assert_illegal(state, STOP, seat, "D4.1")
        assert_illegal(state, DuvelenMove.parse("stop"), seat, "D4.1")
    state.apply("stop", player=0)
    for seat in range(3):
        assert_illegal(state, "stop", seat, "D4.1")


def test_D4_2_turn_or_recycle_after_stop() -> None:
    """D4.2: after Stop nobody turns or recycles."""
    state = after_stop_position()
    for seat in range(3):
        for move in ("turn", "recycle", "recycle^", TURN, RECYCLE, RECYCLE_UP):
            assert_illegal(state, move, seat, "D4.2")


def test_D3_7_D3_8_turn_or_recycle_when_not_allowed() -> None:
    """D3.7: a turn needs Draaistok cards; D3.8: a recycle needs an empty Draaistok and a
    waste."""
    state = base_position()
    for seat in range(3):
        assert_illegal(state, "recycle", seat, "D3.8")
        assert_illegal(state, RECYCLE_UP, seat, "D3.8")
    state = empty_cycle_position()
    for move in ("turn", TURN):
        assert_illegal(state, move, 0, "D3.7")
        assert_illegal(state, move, 1, "D3.7")
    for move in ("recycle", "recycle^", RECYCLE):
        assert_illegal(state, move, 0, "D3.8")
    state.apply("recycle^", player=1)


def test_D4_4_pass_before_stop() -> None:
    """D4.4: before Stop there is no pass."""
    state = base_position()
    for seat in range(3):
        assert_illegal(state, "pass", seat, "D4.4")
        assert_illegal(state, PASS, seat, "D4.4")


def test_D1_3_game_over() -> None:
    """D1.3: after the last round nothing may be played."""
    state = game_over_position()
    for seat in range(3):
        assert state.legal_moves(seat) == []
        assert state.legal_actions(seat) == []
        assert not state.legal_action_mask(seat).any()
        for move in ("turn", "pass", "stop", "recycle", "R2:2c>2", "R1>new", 0, TURN, PASS, NUM_ACTIONS - 1):
            assert_illegal(state, move, seat, "D1.3")


def test_D7_no_such_pile() -> None:
    """D7: piles are numbered from 1 in start order; a number not yet given is no pile."""
    state = base_position()
    for move in ("R2:2c>3", "R2:2c>32", "R2>3", 2 * 33 + 32):
        assert_illegal(state, move, 0, "D7")
    assert_illegal(state, "R2:7h>3", 1, "D7")


def test_illegal_move_errors_name_clauses_for_every_action_id() -> None:
    """Every action id that is not legal raises IllegalMoveError with a D clause."""
    for state in (base_position(), after_stop_position(), empty_cycle_position()):
        for seat in range(state.game.players):
            legal = set(state.legal_actions(seat))
            for action in range(NUM_ACTIONS):
                if action in legal:
                    continue
                before = state.to_json()
                with pytest.raises(diabolo.IllegalMoveError) as error:
                    state.apply(action, player=seat)
                assert error.value.clause.startswith("D"), str(error.value)
                assert state.to_json() == before


# ---------------------------------------------------------------- notation and action ids

BAD_NOTATION = [
    "",
    " ",
    "Turn",
    "TURN",
    "turn ",
    " turn",
    "turns",
    "tur",
    "recycle^^",
    "recycle ^",
    "^recycle",
    "stop!",
    "Pass",
    "pas",
    "R2:7h>",
    "R2:7h",
    "R2:7h>>3",
    "R2:7h>3>4",
    "R2>03",
    "R2>0",
    "R2>33",
    "R2>100",
    "R2>-1",
    "R2>+3",
    "R2> 3",
    "R2 >3",
    "R5>3",
    "R0>3",
    "R>3",
    "r2>3",
    "S1>3",
    "W1>3",
    "X>3",
    ">3",
    ":7h>3",
    "R2:>3",
    "R2:7>3",
    "R2:h7>3",
    "R2:7x>3",
    "R2:1h>3",
    "R2:11h>3",
    "R2:0h>3",
    "R2:7H>3",
    "R2:kh>3",
    "R2:7h7h>3",
    "R2::7h>3",
    "R2:7h:8h>3",
    "S:Ah>New",
    "S:Ah>NEW",
    "S:Ah>new ",
    "S:Ah>news",
    "S:Ah<new",
    "2:R2:7h>3",
    "R2:7h>3\n",
    "\x00",
    "R2:7h\x00>3",
    "R2>3\x00",
    "turn\x00",
    "R2:7é>3",
    "R2:日>3",
    "日",
    "é",
    "R２>3",
    "R2>３",
    "S:Ａh>new",
    "\u0080",
    "R2:10h>1\u0301",
    "\U0001f600",
    "R2:7h>3 ",
    "R2;7h>3",
]


@pytest.mark.parametrize("text", BAD_NOTATION)
def test_malformed_notation(text: str) -> None:
    """D7: text that is not a move raises NotationError wherever a move is read, and
    changes nothing."""
    with pytest.raises(diabolo.NotationError):
        DuvelenMove.parse(text)
    state = base_position()
    for seat in (0, 1):
        assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text, player=seat))


@pytest.mark.parametrize("text", ["\ud800", "R2:7h>\udc00", "tur\udfff"])
def test_lone_surrogates_are_notation_errors(text: str) -> None:
    """docs/interface.rst, Errors,: a str holding a lone surrogate is a NotationError, never a crash."""
    state = base_position()
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text, player=1))
    with pytest.raises(diabolo.NotationError):
        DuvelenMove.parse(text)


@pytest.mark.parametrize("text", ["\ud800", '{"format": "\udc00"}'])
def test_lone_surrogates_in_state_json(text: str) -> None:
    with pytest.raises(diabolo.StateFormatError):
        game2().state_from_json(text)


@pytest.mark.parametrize("action", [-1, 203, 204, 255, 256, 1000, -(2**31), 2**31, 2**63, 2**64, -(2**70), 2**200])
def test_from_action_out_of_range(action: int) -> None:
    """D7/docs/interface.rst: action ids are 0..202 (applying one out of range: tests/contract)."""
    with pytest.raises(diabolo.NotationError, match="out of range"):
        DuvelenMove.from_action(action)


@pytest.mark.parametrize(
    "value", [True, False, 1.0, 198.0, None, [198], (198,), {"move": "turn"}, object(), b"turn", 1j]
)
def test_moves_of_the_wrong_type(value: object) -> None:
    """docs/interface.rst: a move is a DuvelenMove, an action id or notation; anything else raises
    NotationError (a bool is not an action id) and changes nothing."""
    state = base_position()
    assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(value, player=1))  # type: ignore[arg-type]


def test_other_objects_as_moves() -> None:
    """docs/interface.rst: states, games, moves of another game and other objects are not moves."""
    state = base_position()
    others: list[object] = [
        state,
        state.game,
        diabolo,
        DuvelenMove,
        SchachtMove.parse("R1<"),
        SchachtMove.from_action(0),
    ]
    for value in others:
        assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(value, player=1))  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [True, False, "198", 1.0, None, [198]])
def test_from_action_wrong_types(value: object) -> None:
    with pytest.raises((diabolo.NotationError, TypeError)):
        DuvelenMove.from_action(value)  # type: ignore[arg-type]


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 9},
        {"players": 0},
        {"players": -1},
        {"players": 2**64},
        {"players": 3.0},
        {"players": True},
        {"players": "3"},
        {"players": None},
        {"rounds": 0},
        {"rounds": -1},
        {"rounds": 65},
        {"rounds": 2**70},
        {"rounds": 1.5},
        {"rounds": False},
        {"rounds": "2"},
        {"on_block": "rotate"},
        {"on_block": "Rotate_Stok"},
        {"on_block": "end_round "},
        {"on_block": ""},
        {"on_block": None},
        {"on_block": 1},
        {"on_block": True},
        {"on_block": b"end_round"},
        {"on_block": ["end_round"]},
        {"on_block": "\ud800"},
        {"max_actions": 0},
        {"max_actions": -1},
        {"max_actions": 100_000_001},
        {"max_actions": 2**64},
        {"max_actions": 1.0},
        {"max_actions": True},
        {"max_actions": "100"},
        {"max_actions": None},
        {"seed": 1},
        {"Players": 3},
        {"player": 3},
        {"strict_players": False},
        {"rows_to_end": 2},
        {"value_counts": (4, 3, 3, 2, 2)},
        {"decks": None},
    ],
)
def test_bad_options(options: dict[str, Any]) -> None:
    """D1.2, D1.3, D4.5: unknown options, wrong types and values raise OptionError."""
    with pytest.raises(diabolo.OptionError):
        diabolo.load("duvelen", **options)
    with pytest.raises(diabolo.OptionError):
        DuvelenGame(**options)


def test_good_options_bounds() -> None:
    for options in ({"players": 2}, {"players": 8}, {"rounds": 64}, {"max_actions": 1}, {"max_actions": 100_000_000}):
        diabolo.load("duvelen", **options)


# ---------------------------------------------------------------- seeds

BAD_SEEDS: list[Any] = [-1, -(2**63), 2**64, 2**100, 1.0, 0.5, True, False, None, "1", [1]]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seeds_with_given_decks(seed: Any) -> None:
    """docs/interface.rst: a seed is checked with given decks too (the rest: tests/contract)."""
    with pytest.raises(diabolo.OptionError, match="seed must be an int"):
        game2().new_state(seed=seed, decks=[full_deck(), full_deck()])


# ---------------------------------------------------------------- seats

BAD_SEATS: list[Any] = [-1, -2, -4, 3, 4, 8, 2**31, 2**63, 2**64, -(2**70), True, False, "0", 1.0, [0], None]


@pytest.mark.parametrize("seat", BAD_SEATS)
def test_bad_seats(seat: Any) -> None:
    """docs/interface.rst: a seat is an int 0..n-1; anything else (None included: there are no turns,
    D3) raises PlayerError and changes nothing."""
    for state in (base_position(), after_stop_position(), game_over_position()):
        before = state.to_json()
        calls: list[Callable[[], object]] = [
            lambda: state.observation(seat),
            lambda: state.observation_tensor(seat),
            lambda: state.legal_moves(seat),
            lambda: state.legal_actions(seat),
            lambda: state.legal_action_mask(seat),
            lambda: state.resample(seat, 1),
            lambda: state.apply("turn", player=seat),
            lambda: state.apply("pass", player=seat),
            lambda: state.apply("R1:Ah>new", player=seat),
            lambda: state.apply(TURN, player=seat),
        ]
        for call in calls:
            with pytest.raises(diabolo.PlayerError):
                call()
            assert state.to_json() == before


def test_missing_player() -> None:
    """D3: there are no turns, so a move or query without a player is a PlayerError."""
    for state in (base_position(), after_stop_position(), game_over_position()):
        for move in ("turn", "R1:Ah>new", TURN, DuvelenMove.parse("pass")):
            assert_unchanged_after(state, diabolo.PlayerError, lambda: state.apply(move))
        for query in (state.legal_moves, state.legal_actions, state.legal_action_mask):
            assert_unchanged_after(state, diabolo.PlayerError, lambda: query())
    assert diabolo.SIMULTANEOUS == -2 and diabolo.TERMINAL == -4


def test_seat_of_a_smaller_game() -> None:
    """A seat that exists in a bigger game does not exist in this one."""
    state = game2().new_state(seed=1)
    for seat in (2, 7):
        assert_unchanged_after(state, diabolo.PlayerError, lambda: state.apply("turn", player=seat))


# ---------------------------------------------------------------- given deals


def good_decks(n: int = 2) -> list[list[str]]:
    return [deck(draaistok=["Ah"]) for _ in range(n)]


@pytest.mark.parametrize(
    "bad",
    [
        full_deck()[:-1],  # 51 cards
        full_deck() + ["Ah"],  # 53 cards
        full_deck()[:-1] + ["Ah"],  # a duplicate
        ["Ah"] * 52,
        [],
        full_deck()[:-1] + ["1s"],
        full_deck()[:-1] + ["Ks "],
        full_deck()[:-1] + ["KS"],
        full_deck()[:-1] + ["ks"],
        full_deck()[:-1] + ["11s"],
        full_deck()[:-1] + ["é"],
        full_deck()[:-1] + ["\ud800"],
        full_deck()[:-1] + [None],
        full_deck()[:-1] + [13],
        full_deck()[:-1] + [["Ks"]],
        "".join(full_deck()),
        {"Ah": 1},
        42,
        None,
    ],
)
def test_bad_given_deck(bad: Any) -> None:
    """D2.5: a seat's deck that is not exactly the 52 cards is a StateFormatError."""
    game = game2()
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(seed=1, decks=[full_deck(), bad])
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(seed=1, decks=[bad, full_deck()])


@pytest.mark.parametrize(
    "decks",
    [
        [],
        [full_deck()],
        [full_deck()] * 3,
        "abc",
        5,
        {"0": full_deck(), "1": full_deck()},
        [None, None],
        [full_deck(), None],
    ],
)
def test_bad_decks_argument(decks: Any) -> None:
    """D2.5: decks is one list of 52 cards per seat."""
    with pytest.raises(diabolo.StateFormatError):
        game2().new_state(seed=1, decks=decks)


def test_given_decks_as_tuples_are_fine() -> None:
    decks = good_decks()
    state = game2().new_state(seed=1, decks=tuple(tuple(d) for d in decks))
    assert state.to_json() == game2().new_state(seed=1, decks=decks).to_json()


# ---------------------------------------------------------------- state JSON


def base_data() -> dict[str, Any]:
    state = base_position()
    state.apply("R1:Ah>new", player=1)
    state.apply("turn", player=2)
    return data_of(state)


def load3(data: Any) -> DuvelenState:
    text = data if isinstance(data, str) else json.dumps(data)
    return game3().state_from_json(text)


def test_state_json_round_trip_is_the_baseline() -> None:
    data = base_data()
    state = load3(data)
    assert data_of(state) == data


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "{",
        "[]",
        "null",
        "1",
        '"text"',
        "{}",
        "NaN",
        "[" * 100000 + "]" * 100000,
        "{'format': 1}",
        '{"format": "diabolo.duvelen/1"}',
        "\x00",
    ],
)
def test_state_json_not_a_state(text: str) -> None:
    with pytest.raises(diabolo.StateFormatError):
        game3().state_from_json(text)


@pytest.mark.parametrize("key", list(base_data()))
def test_state_json_missing_key(key: str) -> None:
    data = base_data()
    del data[key]
    with pytest.raises(diabolo.StateFormatError, match=key):
        load3(data)


@pytest.mark.parametrize("key", ["stok", "rij", "waste", "draaistok", "passed"])
def test_state_json_missing_seat_key(key: str) -> None:
    data = base_data()
    del data["seats"][1][key]
    with pytest.raises(diabolo.StateFormatError, match=key):
        load3(data)


@pytest.mark.parametrize("key", ["suit", "owners", "holder", "completed"])
def test_state_json_missing_pile_key(key: str) -> None:
    data = base_data()
    del data["piles"][2][key]
    with pytest.raises(diabolo.StateFormatError, match=key):
        load3(data)


WRONG_VALUES: list[tuple[str, Any]] = [
    ("format", 1),
    ("format", "diabolo.duvelen/2"),
    ("format", "diabolo.schacht/1"),
    ("format", None),
    ("options", []),
    ("options", None),
    ("options", {"players": 2}),
    ("options", {"players": "3"}),
    ("options", {"players": 3, "rounds": 2}),
    ("options", {"players": 3, "colour": 1}),
    ("options", {"players": 3, "on_block": "end_round"}),
    ("options", {"players": 3, "max_actions": 0}),
    ("seed", "1"),
    ("seed", -1),
    ("seed", 2**64),
    ("seed", 1.5),
    ("seed", None),
    ("seed", True),
    ("round", "0"),
    ("round", True),
    ("round", -1),
    ("round", 1),
    ("round", 64),
    ("round", 0.0),
    ("round", None),
    ("phase", 0),
    ("phase", "Play"),
    ("phase", "after-stop"),
    ("phase", "after_stop"),
    ("phase", ""),
    ("phase", None),
    ("stop_called_by", 0),
    ("stop_called_by", 3),
    ("stop_called_by", -1),
    ("stop_called_by", "0"),
    ("stop_called_by", 0.0),
    ("stop_called_by", False),
    ("actions", -1),
    ("actions", "0"),
    ("actions", 1.0),
    ("actions", None),
    ("actions", 100_000),
    ("actions", 2**64),
    ("piles", {}),
    ("piles", "h"),
    ("piles", None),
    ("piles", [1]),
    ("piles", [{}]),
    ("piles", []),
    ("seats", []),
    ("seats", None),
    ("seats", {}),
    ("seats", [{}, {}, {}]),
    ("seats", [1, 2, 3]),
    ("scores", ["0", 0, 0]),
    ("scores", [0, 0]),
    ("scores", [0, 0, 0, 0]),
    ("scores", [0.5, 0, 0]),
    ("scores", [2**40, 0, 0]),
    ("scores", [None, 0, 0]),
    ("scores", [True, 0, 0]),
    ("scores", None),
    ("history", [1]),
    ("history", ["turn"]),
    ("history", ["3:turn"]),
    ("history", ["9:turn"]),
    ("history", ["-1:turn"]),
    ("history", ["10:turn"]),
    ("history", ["0-turn"]),
    ("history", ["0:"]),
    ("history", ["0"]),
    ("history", [""]),
    ("history", ["0:R2:1h>3"]),
    ("history", ["0:tur"]),
    ("history", "0:turn"),
    ("history", None),
    ("history", [None]),
]


@pytest.mark.parametrize(("key", "value"), WRONG_VALUES)
def test_state_json_wrong_values(key: str, value: Any) -> None:
    """Wrong types and impossible values of every key raise StateFormatError."""
    data = base_data()
    data[key] = value
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


SEAT_VALUES: list[tuple[str, Any]] = [
    ("stok", "Ks"),
    ("stok", None),
    ("stok", [1]),
    ("stok", ["Xs"]),
    ("stok", full_deck()[:14]),
    ("rij", ["Kh", "Kd", "Kc"]),
    ("rij", ["Kh", "Kd", "Kc", "Ks", "Qh"]),
    ("rij", ["Kh", "Kd", "Kc", 1]),
    ("rij", "KhKdKcKs"),
    ("rij", None),
    ("waste", "Qs"),
    ("waste", [None]),
    ("waste", full_deck()[:36]),
    ("draaistok", None),
    ("draaistok", [""]),
    ("draaistok", full_deck()[:36]),
    ("passed", 0),
    ("passed", "false"),
    ("passed", None),
    ("passed", True),  # no pass before Stop (D4.4)
]


@pytest.mark.parametrize(("key", "value"), SEAT_VALUES)
def test_state_json_wrong_seat_values(key: str, value: Any) -> None:
    data = base_data()
    data["seats"][2][key] = value
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


PILE_VALUES: list[tuple[str, Any]] = [
    ("suit", "x"),
    ("suit", ""),
    ("suit", "hh"),
    ("suit", "H"),
    ("suit", "\x00"),
    ("suit", None),
    ("suit", 1),
    ("owners", []),
    ("owners", [1] * 14),
    ("owners", [3]),
    ("owners", [-1]),
    ("owners", ["1"]),
    ("owners", [1.0]),
    ("owners", None),
    ("owners", 1),
    ("holder", 1),  # a pile of one card is no Herenhoop
    ("holder", 3),
    ("holder", "1"),
    ("completed", -1),
    ("completed", 33),
    ("completed", "0"),
    ("completed", None),
]


@pytest.mark.parametrize(("key", "value"), PILE_VALUES)
def test_state_json_wrong_pile_values(key: str, value: Any) -> None:
    data = base_data()
    data["piles"][2][key] = value  # pile 3: seat 1's Ah
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


def test_state_json_card_conservation() -> None:
    """D1.1: every card of every deck is in exactly one place."""
    mutations: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d["seats"][0]["draaistok"].pop(),
        lambda d: d["seats"][1]["stok"].pop(),
        lambda d: d["seats"][2]["waste"].pop(),
        lambda d: d["seats"][1]["stok"].append(d["seats"][1]["draaistok"][0]),
        lambda d: d["seats"][0]["draaistok"].append(d["seats"][0]["draaistok"][0]),
        lambda d: d["seats"][1]["rij"].__setitem__(0, d["seats"][1]["rij"][1]),
        lambda d: d["seats"][2]["waste"].append(d["seats"][2]["stok"][0]),
        lambda d: d["seats"][0]["draaistok"].__setitem__(0, "Kh"),  # seat 0's Kh is in pile 1
        lambda d: d["seats"][1]["draaistok"].append("Ah"),  # seat 1's Ah is in pile 3
        lambda d: d["piles"][1]["owners"].append(0),  # seat 0's 2c is in its Rij
        lambda d: d["piles"][2]["owners"].__setitem__(0, 2),  # seat 2's Ah is in its Draaistok
        lambda d: d["piles"].append(dict(d["piles"][2])),
        lambda d: d["seats"][1].__setitem__("stok", d["seats"][2]["stok"]),
    ]
    for change in mutations:
        data = base_data()
        change(data)
        with pytest.raises(diabolo.StateFormatError):
            load3(data)


def test_state_json_rij_gap_with_a_stok() -> None:
    """D3.4: a Rij slot is empty only when the Stok is empty."""
    data = base_data()
    seat = data["seats"][1]
    moved = seat["rij"][2]
    seat["rij"][2] = None
    seat["waste"].append(moved)
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


def test_state_json_impossible_phases() -> None:
    """Phase data must be consistent: Stop only in after_stop (D4.1), passes only after
    Stop (D4.4), an empty waste after Stop must have taken the Draaistok (D4.3), a
    blocked position must have been resolved (D4.5), game over only in the last round
    (D1.3), the action cap not yet reached (D4.5)."""
    g = game2(rounds=2)
    piles = [herenhoop("h", [0] * 13, 1)]
    ok_seats: list[dict[str, Any]] = [dict(waste=["2c"]), dict(waste=["Ac"])]
    g.state_from_json(json.dumps(position_data(g, ok_seats, piles)))
    g.state_from_json(json.dumps(position_data(g, ok_seats, piles, phase="after_stop", stop_called_by=0)))
    cases: list[dict[str, Any]] = [
        dict(phase="after_stop"),
        dict(phase="play", stop_called_by=0),
        dict(phase="game_over"),
        dict(round=2),
        dict(actions=100_000),
    ]
    for case in cases:
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(position_data(g, ok_seats, piles, **case)))
    passed: list[dict[str, Any]] = [dict(waste=["2c"], passed=True), dict(waste=["Ac"])]
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(position_data(g, passed, piles)))
    unflipped: list[dict[str, Any]] = [dict(waste=["2c"]), dict(waste=[])]
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(position_data(g, unflipped, piles, phase="after_stop", stop_called_by=0)))
    # A blocked deal: every Ace under a Stok top, nothing else wanted.
    blocked = [
        dict(stok=["Kh", "Ah", "Ad", "Ac", "As"], rest="auto"),
        dict(stok=["Kd", "Ah", "Ad", "Ac", "As"], rest="auto"),
    ]
    data = position_data(game2(), blocked)
    for seat in data["seats"]:
        assert not any(c.startswith("A") for c in seat["draaistok"] + seat["rij"] + seat["stok"][:1])
    with pytest.raises(diabolo.StateFormatError):
        game2().state_from_json(json.dumps(data))


def test_state_json_herenhoop_invariants() -> None:
    """D3.9: a Herenhoop is exactly a pile up to its King, with a completion order."""
    g = game2()
    seats: list[dict[str, Any]] = [dict(), dict()]
    bad_piles = [
        [pile("h", [0] * 13)],  # a complete pile still in the centre
        [pile("h", [0] * 12, holder=0, completed=1)],  # a Herenhoop without King
        [pile("h", [0] * 13, holder=0, completed=0)],  # no completion order
        [pile("h", [0] * 13, holder=0, completed=2)],  # order beyond the count
    ]
    for piles in bad_piles:
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(position_data(g, seats, piles)))


def test_state_json_herenhoop_holder_played_the_king() -> None:
    """D3.9, D1.1: a Herenhoop is held by the player who played its King, and a player
    plays only own cards, so the holder is the owner of the King. A state where they
    differ is impossible and must be rejected."""
    g = game2()
    data = position_data(g, [dict(), dict()], [pile("h", [0] * 13, holder=1, completed=1)])
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(data))


def test_state_json_completion_order_is_consistent() -> None:
    """D8.3, D7: Herenhopen are listed in the order completed, so their order numbers are
    distinct (1..count); a pile still in the centre has none."""
    g = game2()
    for piles in (
        [herenhoop("h", [0] * 13, 1), herenhoop("d", [0] * 13, 1)],
        [herenhoop("h", [0] * 13, 1), pile("d", [0] * 3, completed=2)],
    ):
        data = position_data(g, [dict(), dict()], piles)
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(data))


def test_state_json_stop_called_by_a_seat_with_a_stok() -> None:
    """D4.1: only a player whose Stok is empty calls Stop, and a Stok never grows, so a
    state whose Stop caller still has Stok cards is impossible."""
    g = game2()
    piles = [herenhoop("h", [0] * 13, 1)]
    data = position_data(g, [dict(waste=["2c"]), dict(waste=["Ac"])], piles, phase="after_stop", stop_called_by=1)
    assert data["seats"][1]["stok"]
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(data))


def test_state_json_after_stop_round_that_should_have_ended() -> None:
    """D4.4: after Stop the round ends as soon as every pass stands or nobody has a card
    play; like a blocked position before Stop (which the loader rejects, D4.5), such an
    after-Stop state cannot arise and must be rejected."""
    g = game2()
    piles = [herenhoop("h", [0] * 13, 1)]
    all_passed = [dict(waste=["2c"], passed=True), dict(waste=["Ac"], passed=True)]
    no_play = [dict(waste=["2c"]), dict(waste=["3c"])]
    for seats in (all_passed, no_play):
        data = position_data(g, seats, piles, phase="after_stop", stop_called_by=0)
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(data))


def test_state_json_of_another_configuration() -> None:
    """A state of another configuration is not a state of this game."""
    text = game3().new_state(seed=1).to_json()
    for other in (game2(), game3(rounds=2), game3(on_block="end_round"), game3(max_actions=99)):
        with pytest.raises(diabolo.StateFormatError):
            other.state_from_json(text)
    schacht = diabolo.load("schacht", players=3).new_state(seed=1).to_json()
    with pytest.raises(diabolo.StateFormatError):
        game3().state_from_json(schacht)
    data = base_data()
    data["options"]["players"] = 2
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


def test_state_json_non_ascii_cards() -> None:
    """Cards that are not cards, in any alphabet, raise StateFormatError."""
    for text in ("é", "Aé", "é5", "日", "\u0080", "Ａh", "1０h", "\x00h"):
        for where in ("stok", "draaistok", "rij"):
            data = base_data()
            data["seats"][2][where][0] = text
            with pytest.raises(diabolo.StateFormatError):
                load3(data)
        data = base_data()
        data["history"] = [f"0:R1:{text}>new"]
        with pytest.raises(diabolo.StateFormatError):
            load3(data)


def test_uninitialised_objects_do_not_crash() -> None:
    """docs/interface.rst: no input may crash the process, also objects made with ``cls.__new__``
    without ``__init__``. Run in a child process, so that a crash fails this test
    instead of the run."""
    calls = [
        "DuvelenGame.__new__(DuvelenGame).new_state()",
        "DuvelenGame.__new__(DuvelenGame).players",
        "DuvelenState.__new__(DuvelenState).to_json()",
        "DuvelenState.__new__(DuvelenState).legal_moves(0)",
        "DuvelenState.__new__(DuvelenState).observation(0)",
        "DuvelenState.__new__(DuvelenState).observation_tensor(0)",
        "DuvelenState.__new__(DuvelenState).resample(0, 1)",
        "DuvelenState.__new__(DuvelenState).apply('turn', player=0)",
        "DuvelenState.__new__(DuvelenState).apply('R1>new', player=0)",
        "str(DuvelenState.__new__(DuvelenState))",
        "DuvelenMove.__new__(DuvelenMove).action",
        "str(DuvelenMove.__new__(DuvelenMove))",
    ]
    code = "from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState\nimport diabolo\n"
    for call in calls:
        code += f"try:\n    {call}\nexcept (TypeError, diabolo.DiaboloError):\n    pass\n"
    code += "print('ok')\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    assert result.stdout.strip() == "ok"


# ---------------------------------------------------------------- hypothesis: notation


@given(st.text())
def test_fuzz_parse_text(text: str) -> None:
    """Random text: a move whose str() is the text, or NotationError."""
    try:
        move = DuvelenMove.parse(text)
    except diabolo.NotationError:
        return
    assert str(move) == text


near_moves_parts = st.builds(
    lambda a, b, c, d, e: a + b + c + d + e,
    st.sampled_from(["", "S", "R1", "R4", "R5", "W", "r2", "turn", "recycle", "pass", " ", "é", "\x00"]),
    st.sampled_from(["", ":", "::", ";", "^"]),
    st.sampled_from(["", "Ah", "10h", "1h", "Ks", "7x", "Q", "é", "\x00"]),
    st.sampled_from(["", ">", ">>", "<", " >"]),
    st.sampled_from(["", "new", "1", "3", "32", "33", "0", "03", "New", "é", "\x00", "^"]),
)
near_moves = st.one_of(st.text(alphabet=list("SRW1234:>newAhK0^ é\x00"), max_size=8), near_moves_parts)


@settings(max_examples=400)
@given(near_moves)
def test_fuzz_parse_near_misses(text: str) -> None:
    """Text close to real notation: a move whose str() is the text, or NotationError;
    through apply, an error leaves the state unchanged."""
    try:
        move = DuvelenMove.parse(text)
    except diabolo.NotationError:
        state = base_position()
        assert_unchanged_after(state, diabolo.NotationError, lambda: state.apply(text, player=1))
        return
    assert str(move) == text
    assert DuvelenMove.parse(str(move)) == move
    state = base_position()
    before = state.to_json()
    try:
        state.apply(text, player=1)
    except diabolo.IllegalMoveError:
        assert state.to_json() == before
        return
    assert state.history[-1][0] == 1


# ---------------------------------------------------------------- hypothesis: apply


@cache
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of states met in random play (2-4 players, 2 rounds): every phase."""
    found: list[tuple[int, str]] = []
    for players in (2, 3, 4):
        game = diabolo.load("duvelen", players=players, rounds=2, max_actions=3000)
        for seed in range(2):
            rng = random.Random(seed)
            state = game.new_state(seed=seed)
            step = 0
            while True:
                if step % 40 == 0 or state.is_terminal or (state.phase != "play" and step % 3 == 0):
                    found.append((players, state.to_json()))
                if state.is_terminal:
                    break
                play(state, rng, 1, bias=0.7)
                step += 1
    return tuple(found)


def state_at(index: int) -> DuvelenState:
    players, text = reachable_states()[index % len(reachable_states())]
    return diabolo.load("duvelen", players=players, rounds=2, max_actions=3000).state_from_json(text)


def test_reachable_states_cover_every_phase() -> None:
    phases = {json.loads(text)["phase"] for _, text in reachable_states()}
    assert phases == {"play", "after_stop", "game_over"}


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0), st.integers(), st.one_of(st.none(), st.integers(min_value=-3, max_value=6), st.integers())
)
def test_fuzz_apply_ints(index: int, action: int, player: int | None) -> None:
    """Random ints as moves and seats: a legal move applies, anything else raises a
    DiaboloError and leaves the state unchanged."""
    state = state_at(index)
    before = state.to_json()
    n = state.game.players
    seat = player if player is not None and 0 <= player < n else None
    legal = seat is not None and 0 <= action < NUM_ACTIONS and action in state.legal_actions(seat)
    try:
        state.apply(action, player=player)
    except diabolo.DiaboloError as error:
        assert not legal, f"legal move {action} by {seat} raised {error!r}"
        assert state.to_json() == before
        if isinstance(error, diabolo.IllegalMoveError):
            assert error.clause.startswith("D")
        elif seat is None:
            assert isinstance(error, diabolo.PlayerError)
        return
    assert legal
    assert seat is not None
    assert state.history[-1][0] == seat
    assert state.history[-1][1].action == action


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.lists(st.tuples(st.integers(0, NUM_ACTIONS - 1), st.integers(0, 3)), max_size=25))
def test_fuzz_apply_sequences(index: int, steps: list[tuple[int, int]]) -> None:
    """Random action ids by random seats: legal ones apply, others raise
    IllegalMoveError and never change the state."""
    state = state_at(index)
    for action, seat in steps:
        seat %= state.game.players
        before = state.to_json()
        legal = action in state.legal_actions(seat)
        try:
            state.apply(action, player=seat)
        except diabolo.IllegalMoveError:
            assert not legal
            assert state.to_json() == before
            continue
        assert legal


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.integers(0, 3), st.text(max_size=12))
def test_fuzz_apply_text(index: int, seat: int, text: str) -> None:
    """Random text as moves: NotationError or IllegalMoveError leave the state as it was."""
    state = state_at(index)
    seat %= state.game.players
    before = state.to_json()
    try:
        state.apply(text, player=seat)
    except (diabolo.NotationError, diabolo.IllegalMoveError):
        assert state.to_json() == before
        return
    assert str(state.history[-1][1]).startswith(text.split(">")[0].split(":")[0])


# ---------------------------------------------------------------- hypothesis: JSON

JSON_VALUES = json_values(["Ah", "10h", "Ks", "1h", "h", "play", "after_stop", "game_over", "é", "0:turn", "1:R2:7h>3"])


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated_states(reachable_states, JSON_VALUES))
def test_fuzz_state_json_mutations(case: tuple[int, str]) -> None:
    """Mutations of real state JSON: StateFormatError, or a state that works and writes
    itself back exactly."""
    players, text = case
    game = diabolo.load("duvelen", players=players, rounds=2, max_actions=3000)
    try:
        state = game.state_from_json(text)
    except diabolo.StateFormatError:
        return
    again = game.state_from_json(state.to_json())
    assert again == state
    assert again.to_json() == state.to_json()
    for seat in range(players):
        json.dumps(state.observation(seat))
        state.observation_tensor(seat)
        state.resample(seat, 1)
    str(state)
    for seat in range(players):
        moves = state.legal_moves(seat)
        if state.is_terminal:
            assert moves == []
            continue
        if moves:
            before = state.to_json()
            twin = state.clone()
            twin.apply(moves[-1], player=seat)
            assert state.to_json() == before


@given(st.text(max_size=40))
def test_fuzz_state_json_random_text(text: str) -> None:
    try:
        game2().state_from_json(text)
    except diabolo.StateFormatError:
        return
    raise AssertionError("random text loaded as a state")


@given(st.lists(st.sampled_from(full_deck() + ["1h", "Ah ", "é", "", "10", "K"]), max_size=60))
def test_fuzz_given_deck(cards: list[str]) -> None:
    """Random card lists as a seat's deck: StateFormatError unless exactly one deck."""
    try:
        game2().new_state(seed=1, decks=[cards, full_deck()])
    except diabolo.StateFormatError:
        assert sorted(cards) != sorted(full_deck())
        return
    assert sorted(cards) == sorted(full_deck())


@given(st.permutations(full_deck()), st.permutations(full_deck()))
def test_fuzz_given_permutations(first: list[str], second: list[str]) -> None:
    """D2.5: any two permutations of the deck are a valid deal."""
    state = game2().new_state(seed=1, decks=[first, second])
    assert state.phase in ("play", "game_over")
    data = data_of(state)
    assert sorted(data["seats"][0]["stok"] + data["seats"][0]["rij"] + data["seats"][0]["draaistok"]) == sorted(first)
