"""Schacht's samples for the contract's bad-input suite, and the positions its own
bad-input tests (tests/test_schacht_bad_input.py) start from. Spec: docs/games/schacht.rst."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import strategies as st

import diabolo
from diabolo.schacht import SchachtGame, SchachtState
from tests.bad_input_helpers import BadInputSamples, states_met
from tests.json_fuzz import OPERATIONS, json_values
from tests.schacht_helpers import data_of, full_deck, position

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


def positions() -> list[Any]:
    return [play_position(), doubler_position(), game_over_position()]


def base_data() -> dict[str, Any]:
    state = play_position()
    state.apply("R1<")
    return data_of(state)


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

BAD_OPTIONS: list[dict[str, Any]] = [
    {"colour": 1},
    {"players": 2},
    {"players": 6},
    {"players": 9, "strict_players": False},
    {"players": 1, "strict_players": False},
    {"rounds": 33},
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
]
"""S1.1, S1.3, S4.1, S6.1: unknown options, wrong types and values."""

GOOD_OPTIONS: list[dict[str, Any]] = [
    {"players": 3},
    {"players": 5},
    {"players": 2, "strict_players": False},
    {"players": 8, "strict_players": False},
    {"rounds": 1},
    {"rounds": 32},
    {"rows_to_end": 1},
    {"rows_to_end": 5},
]

BAD_DEALS: list[Any] = [
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
]
"""S2.4: given deals that are not exactly the deck."""

BAD_DECKS: list[dict[str, Any]] = [
    *({"decks": decks} for decks in ("abc", 5, [5], [full_deck()] * 4, [None] * 4)),
    {"deck": full_deck(), "decks": [full_deck()]},
]
"""S2.4: decks is a list of per-round deals, at most one per round, and not given with deck."""

WRONG_VALUES: list[tuple[str, Any]] = [
    ("format", "diabolo.knizia/1"),
    ("options", []),
    ("options", {"players": 4}),
    ("options", {"players": "3"}),
    ("options", {"players": 3, "colour": 1}),
    ("round", 3),
    ("dealer", 1),
    ("dealer", None),
    ("dealer", 3),
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
"""Wrong types and impossible values of every key of the state JSON."""


near_moves_text = st.text(alphabet=list("xRYGPB0156<>bethold é\x00\u00e9\u65e5\U0001f600"), max_size=4)
near_moves_parts = st.builds(
    lambda a, b, c, d: a + b + c + d,
    st.sampled_from(["", "x", "X", " ", "b", "h", "é", "\x00"]),
    st.sampled_from(["", "R", "Y", "G", "P", "B", "r", "Q", "e", "ho", "日"]),
    st.sampled_from(["", "0", "1", "3", "5", "6", "t", "ld", "é", "\x00"]),
    st.sampled_from(["", "<", ">", "=", "<<", " ", "\n", "é"]),
)
NEAR_MOVES = st.one_of(near_moves_text, near_moves_parts)


def reachable_game(players: int) -> SchachtGame:
    return diabolo.load("schacht", players=players, rounds=2)


def random_move(state: SchachtState, rng: random.Random) -> None:
    """A random legal move by the seat to move (the first that may, while the doubler
    decisions are simultaneous)."""
    player = state.current_player
    if player == diabolo.SIMULTANEOUS:
        player = next(p for p in range(state.game.players) if state.legal_moves(p))
    state.apply(rng.choice(state.legal_moves(player)), player=player)


@cache
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of states met in random play: every phase, 3-5 players."""
    return states_met(
        {players: reachable_game(players) for players in (3, 4, 5)},
        range(3),
        keep=lambda step, state: step % 9 == 0 or state.phase != "play",
        step=random_move,
    )


SAMPLES = BadInputSamples(
    name="schacht",
    widest_options={"strict_players": False},
    game=game3,
    positions=positions,
    movers=lambda: [(state, seat) for state in [play_position()] for seat in (None, 1)],
    simultaneous=lambda: [doubler_position()],
    no_seat_message="doubler decisions are simultaneous (S5.3): name the player",
    seat_moves=("bet", "hold", "R1<"),
    notation_samples=("R1<", "bet"),
    bad_notation=[(text, None) for text in BAD_NOTATION],
    surrogate_notation=("\ud800", "G\udc005<", "x\udfff"),
    wrong_type_moves=(75.0, [1], (75,), {"move": "bet"}, b"G5<"),
    near_notation=NEAR_MOVES,
    bad_seats=(-1, -2, -4, 3, 4, 7, 8, 2**31, 2**63, 2**64, -(2**70), True, False, "0", 1.0, [0]),
    bad_options=[(options, diabolo.OptionError, None) for options in BAD_OPTIONS],
    good_options=GOOD_OPTIONS,
    deal_game=game3,
    good_deal={"deck": full_deck()},
    deal_places=lambda bad: [{"deck": bad}, {"decks": [None, bad]}],
    bad_deals=[(deal, None) for deal in BAD_DEALS],
    bad_decks=[(arguments, None) for arguments in BAD_DECKS],
    base_data=base_data,
    wrong_values=[(key, value, None) for key, value in WRONG_VALUES],
    clause_positions=positions,
    reachable=reachable_states,
    reachable_game=reachable_game,
    reachable_keys=frozenset({3, 4, 5}),
    phases=frozenset({"play", "doubler", "game_over"}),
    json_values=json_values(["R1", "B5", "G9", "xG5", "play", "doubler", "game_over", "P", "é", "1:bet", "0:R1<"]),
    json_operations=tuple(op for op in OPERATIONS if op != "move"),
    json_most=4,
    fuzz_seats=(-10, 10),
    turns=True,
)
