"""Duvelen's samples for the contract's bad-input suite, and the positions its own
bad-input tests (tests/test_duvelen_bad_input.py) start from. Spec: docs/games/duvelen.rst."""

from __future__ import annotations

from functools import cache
from typing import Any

from hypothesis import strategies as st

import diabolo
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState
from tests.bad_input_helpers import BadInputSamples, states_met
from tests.duvelen_helpers import TURN, data_of, full_deck, herenhoop, pile, play, position
from tests.json_fuzz import json_values


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


def positions() -> list[Any]:
    return [base_position(), after_stop_position(), game_over_position()]


def base_data() -> dict[str, Any]:
    state = base_position()
    state.apply("R1:Ah>new", player=1)
    state.apply("turn", player=2)
    return data_of(state)


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

BAD_OPTIONS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 9},
    {"rounds": 65},
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
    {"strict_players": False},
    {"rows_to_end": 2},
    {"value_counts": (4, 3, 3, 2, 2)},
    {"decks": None},
]
"""D1.2, D1.3, D4.5: unknown options, wrong types and values."""

GOOD_OPTIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 8},
    {"rounds": 64},
    {"max_actions": 1},
    {"max_actions": 100_000_000},
]

BAD_DEALS: list[Any] = [
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
]
"""D2.5: a seat's deck that is not exactly the 52 cards."""

BAD_DECKS: list[Any] = [
    [],
    [full_deck()],
    [full_deck()] * 3,
    "abc",
    5,
    {"0": full_deck(), "1": full_deck()},
    [None, None],
    [full_deck(), None],
]
"""D2.5: decks is one list of 52 cards per seat."""

WRONG_VALUES: list[tuple[str, Any]] = [
    ("format", "diabolo.schacht/1"),
    ("options", []),
    ("options", None),
    ("options", {"players": 2}),
    ("options", {"players": "3"}),
    ("options", {"players": 3, "rounds": 2}),
    ("options", {"players": 3, "colour": 1}),
    ("options", {"players": 3, "on_block": "end_round"}),
    ("options", {"players": 3, "max_actions": 0}),
    ("round", 1),
    ("round", 64),
    ("phase", "after-stop"),
    ("phase", "after_stop"),
    ("phase", ""),
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
]
"""Wrong types and impossible values of every key of the state JSON."""

near_moves_parts = st.builds(
    lambda a, b, c, d, e: a + b + c + d + e,
    st.sampled_from(["", "S", "R1", "R4", "R5", "W", "r2", "turn", "recycle", "pass", " ", "é", "\x00"]),
    st.sampled_from(["", ":", "::", ";", "^"]),
    st.sampled_from(["", "Ah", "10h", "1h", "Ks", "7x", "Q", "é", "\x00"]),
    st.sampled_from(["", ">", ">>", "<", " >"]),
    st.sampled_from(["", "new", "1", "3", "32", "33", "0", "03", "New", "é", "\x00", "^"]),
)
near_moves = st.one_of(st.text(alphabet=list("SRW1234:>newAhK0^ é\x00"), max_size=8), near_moves_parts)


def reachable_game(players: int) -> DuvelenGame:
    return diabolo.load("duvelen", players=players, rounds=2, max_actions=3000)


@cache
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of states met in random play (2-4 players, 2 rounds): every phase."""
    return states_met(
        {players: reachable_game(players) for players in (2, 3, 4)},
        range(2),
        keep=lambda step, state: step % 40 == 0 or state.is_terminal or (state.phase != "play" and step % 3 == 0),
        step=lambda state, rng: play(state, rng, 1, bias=0.7),
    )


SAMPLES = BadInputSamples(
    name="duvelen",
    game=game3,
    positions=positions,
    movers=lambda: [(state, seat) for state in [base_position()] for seat in (0, 1)],
    simultaneous=positions,
    no_seat_message="Duvelen is played simultaneously (D3): name the player",
    seat_moves=("turn", "pass", "R1:Ah>new", TURN, DuvelenMove.parse("pass")),
    notation_samples=("turn", "R1>new"),
    bad_notation=[(text, None) for text in BAD_NOTATION],
    surrogate_notation=("\ud800", "R2:7h>\udc00", "tur\udfff"),
    wrong_type_moves=(198.0, [198], (198,), {"move": "turn"}, b"turn"),
    near_notation=near_moves,
    bad_seats=(-1, -2, -4, 3, 4, 8, 2**31, 2**63, 2**64, -(2**70), True, False, "0", 1.0, [0]),
    bad_options=[(options, diabolo.OptionError, None) for options in BAD_OPTIONS],
    good_options=GOOD_OPTIONS,
    deal_game=game2,
    deal_seed=1,
    good_deal={"decks": [full_deck(), full_deck()]},
    deal_places=lambda bad: [{"decks": [full_deck(), bad]}, {"decks": [bad, full_deck()]}],
    bad_deals=[(deal, None) for deal in BAD_DEALS],
    bad_decks=[({"decks": decks}, None) for decks in BAD_DECKS],
    base_data=base_data,
    wrong_values=[(key, value, None) for key, value in WRONG_VALUES],
    clause_positions=lambda: [base_position(), after_stop_position(), empty_cycle_position()],
    reachable=reachable_states,
    reachable_game=reachable_game,
    reachable_keys=frozenset({2, 3, 4}),
    phases=frozenset({"play", "after_stop", "game_over"}),
    json_values=json_values(
        ["Ah", "10h", "Ks", "1h", "h", "play", "after_stop", "game_over", "é", "0:turn", "1:R2:7h>3"]
    ),
    fuzz_seats=(-3, 6),
    turns=False,
)
