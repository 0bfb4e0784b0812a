"""The samples of High card (the catalogue's test game) for the contract's bad-input suite."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import diabolo
from tests.bad_input_helpers import BadInputSamples
from tests.contract.games import random_states
from tests.json_fuzz import json_values

CARDS = list(range(1, 13))
"""The deck of 12 cards, in notation 1..12 (H7)."""


def game(players: int = 3, **options: Any) -> Any:
    return diabolo.load("highcard", players=players, **options)


def positions() -> list[Any]:
    """The start, the middle and the end of a seeded game of 3 seats."""
    states = random_states(game(), seed=1, limit=1000)
    assert states[-1].is_terminal
    return [states[0], states[len(states) // 2], states[-1]]


def base_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(random_states(game(), seed=1, limit=5)[-1].to_json())
    return data


def reachable_game(players: int) -> Any:
    return game(players, rounds=2)


@cache
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of states met in random play, 2-4 players."""
    return tuple(
        (players, state.to_json())
        for players in (2, 3, 4)
        for seed in range(3)
        for state in random_states(reachable_game(players), seed, limit=1000)[::3]
    )


NOTATION = "a move is a card's number 1..12"
BAD_NOTATION = ["", " ", "0", "13", "99", "x", "+1", "-1", " 1", "1 ", "1.0", "1,2", "１", "1\x00", "é", "\U0001f600"]

SAMPLES = BadInputSamples(
    name="highcard",
    game=game,
    positions=positions,
    movers=lambda: [(state, seat) for state in positions()[:1] for seat in (None, 0)],
    seat_moves=("1", "12", 0),
    notation_samples=("1", "12"),
    bad_notation=[(text, NOTATION) for text in BAD_NOTATION],
    surrogate_notation=("\ud800", "1\udc00"),
    wrong_type_moves=(5.0, [0], (0,), {"move": "1"}, b"1"),
    canonical_notation=False,  # "01" is card 1
    bad_seats=(-1, -2, 3, 4, 2**64, -(2**70), True, False, "0", 1.0, [0]),
    bad_options=[
        ({"players": 1}, diabolo.OptionError, "players must be 2..4 (H1), got 1"),
        ({"players": 5}, diabolo.OptionError, "players must be 2..4 (H1), got 5"),
        ({"rounds": 0}, diabolo.OptionError, "rounds must be 1..20 (H1), got 0"),
        ({"rounds": 21}, diabolo.OptionError, "rounds must be 1..20 (H1), got 21"),
    ],
    good_options=[{"players": 2}, {"players": 4}, {"rounds": 1}, {"rounds": 20}],
    deal_game=game,
    deal_seed=1,
    good_deal={"deck": CARDS},
    deal_places=lambda bad: [{"deck": bad}],
    bad_deals=[
        ([1] * 12, "deck[1] must be a card 1..12 not listed before (H7)"),
        (CARDS[:-1], "deck must list the 12 cards 1..12 once each (H7)"),
        ([*CARDS, 13], "deck must list the 12 cards"),
        ([0, *CARDS[1:]], "deck[0] must be a card 1..12"),
        ([str(card) for card in CARDS], "deck[0] must be a card 1..12"),
        ([*CARDS[:-1], 1.0], "deck[11] must be a card 1..12"),
        ([*CARDS[:-1], True], "deck[11] must be a card 1..12"),
        ([*CARDS[:-1], None], "deck[11] must be a card 1..12"),
        ([], "deck must list the 12 cards"),
        ("123", "deck must list the 12 cards"),
        (None, "deck must list the 12 cards"),
        (42, "deck must list the 12 cards"),
    ],
    bad_decks=[({"decks": [CARDS]}, 'a deal has only "deck" (H7), got "decks"')],
    base_data=base_data,
    wrong_values=[
        ("round", -1, "round: expected an integer in 0..10"),
        ("phase", "Play", "phase: expected 'play' or 'game_over'"),
        ("phase", "game_over", "phase: does not match the round"),
        ("to_move", 7, "to_move: expected an integer in 0..2"),
        ("to_move", None, "to_move: expected an integer"),
        ("leader", 5, "leader: expected an integer in 0..2"),
        ("hands", None, "hands: expected a list"),
        ("hands", [[1], [2]], "hands: expected one entry per seat"),
        ("unseen", [1], "unseen: must hold the undealt cards"),
        ("trick", [0, 0], "trick: expected one entry per seat"),
        ("tricks", -1, "tricks: expected an integer in 0..3"),
        ("scores", [0, 0], "scores: expected one entry per seat"),
        ("history", "x", "history: expected a list"),
        ("history", [1], "history[0]: expected a string"),
        ("history", ["9:1"], "history[0]: a step is 'seat:card'"),
    ],
    clause_positions=positions,
    reachable=reachable_states,
    reachable_game=reachable_game,
    reachable_keys=frozenset({2, 3, 4}),
    phases=frozenset({"play", "game_over"}),
    json_values=json_values(["1", "12", "13", "play", "game_over", "0:1", "1:12"]),
    fuzz_seats=(-3, 6),
    turns=True,
)
