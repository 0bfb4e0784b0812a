"""Helpers for the Schacht rule tests: decks, given deals and exact positions.

Spec: docs/games/schacht.rst. Positions are built either by a given deal
(``game.new_state(deck=...)``, S2.4) or by editing a real state's JSON and loading it
back with ``game.state_from_json`` (the loader checks every invariant).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import diabolo
from diabolo.schacht import SchachtGame, SchachtState

COLOURS = "RYGPB"
"""Colour letters in layout order (S1.2, S8)."""

DEFAULT_COUNTS = (4, 3, 3, 2, 2)
"""Copies of the values 1..5 per colour (S1.3)."""

RowSpec = tuple[Sequence[int], Sequence[int]]
"""A row as (devil/left values, angel/right values), in the order placed."""


def card_key(card: str) -> tuple[int, int]:
    """Sort key of a card: colour in layout order, then value (S7.4)."""
    return COLOURS.index(card[0]), int(card[1])


def sorted_cards(cards: Iterable[str]) -> list[str]:
    """Cards sorted by colour in layout order, then by value."""
    return sorted(cards, key=card_key)


def full_deck(value_counts: Sequence[int] = DEFAULT_COUNTS) -> list[str]:
    """Every card of the deck, sorted (S1.2, S1.3)."""
    return [f"{colour}{value}" for colour in COLOURS for value in range(1, 6) for _ in range(value_counts[value - 1])]


def remove_cards(pool: Counter[str], cards: Iterable[str]) -> None:
    """Takes `cards` out of `pool`; fails the test if a card is not there."""
    for card in cards:
        assert pool[card] > 0, f"the deck has no more {card}"
        pool[card] -= 1


def given_deal(
    players: int,
    hands: Mapping[int, Sequence[str]],
    *,
    dealer: int = 0,
    pile_front: Sequence[str] = (),
    value_counts: Sequence[int] = DEFAULT_COUNTS,
) -> list[str]:
    """A deck list for ``new_state(deck=...)`` (S2.4) that deals `hands` (seat -> 6 cards)
    and puts `pile_front` on top of the draw pile. Seats not named get cards from the
    sorted rest of the deck, as does the pile after `pile_front`."""
    pool: Counter[str] = Counter(full_deck(value_counts))
    for cards in hands.values():
        assert len(cards) == 6
        remove_cards(pool, cards)
    remove_cards(pool, pile_front)
    rest = sorted_cards(pool.elements())
    deck: list[str] = []
    for i in range(players):
        seat = (dealer + 1 + i) % players
        if seat in hands:
            deck.extend(hands[seat])
        else:
            deck.extend(rest[:6])
            del rest[:6]
    deck.extend(pile_front)
    deck.extend(rest)
    return deck


def position(game: SchachtGame, **fields: Any) -> SchachtState:
    """An exact position loaded through ``state_from_json``; ``fields`` as for
    :func:`position_data`."""
    return game.state_from_json(json.dumps(position_data(game, **fields)))


def position_data(
    game: SchachtGame,
    *,
    hands: Sequence[Sequence[str]],
    rows: Mapping[str, RowSpec] | None = None,
    current_player: int,
    pile: Sequence[str] | None = None,
    pile_front: Sequence[str] = (),
    rest_to: int | None = None,
    discarded: Sequence[Sequence[str]] | None = None,
    shown: Sequence[Sequence[str]] | None = None,
    scores: Sequence[int] | None = None,
    round: int = 0,
    doubler_available: Sequence[bool] | None = None,
    phase: str = "play",
    scoring_colour: str | None = None,
    decided: Sequence[bool] | None = None,
    bets: Sequence[bool] | None = None,
    revealed_colours: Sequence[str] = (),
) -> dict[str, Any]:
    """The state JSON data of an exact position (a test may mutate it further).

    The cards not named (hands, rows, discards, `pile_front`) go to the draw pile after
    `pile_front`, sorted, unless `pile` is given (then it is the whole pile) or `rest_to`
    names a seat that holds them as discarded cards, out of the round (for positions with
    an empty pile: no hand may hold more than 6 cards, 7 for the seat to move, S2.3)."""
    n = game.players
    rows = rows or {}
    discarded = discarded or [[] for _ in range(n)]
    shown = shown or [[] for _ in range(n)]
    hand_lists = [list(h) for h in hands]
    assert len(hand_lists) == n
    data: dict[str, Any] = json.loads(game.new_state(seed=0).to_json())
    pool: Counter[str] = Counter(full_deck(game.options["value_counts"]))
    for hand in hand_lists:
        remove_cards(pool, hand)
    for cards in discarded:
        remove_cards(pool, cards)
    for colour, (left, right) in rows.items():
        remove_cards(pool, (f"{colour}{v}" for v in (*left, *right)))
    if pile is not None:
        remove_cards(pool, pile)
        assert sum(pool.values()) == 0, "the given pile does not hold the rest of the deck"
        pile_list = list(pile)
    else:
        remove_cards(pool, pile_front)
        rest = sorted_cards(pool.elements())
        if rest_to is not None:
            discarded = [[*d, *rest] if seat == rest_to else list(d) for seat, d in enumerate(discarded)]
            pile_list = list(pile_front)
        else:
            pile_list = list(pile_front) + rest
    data["round"] = round
    data["dealer"] = round % n
    data["phase"] = phase
    data["current_player"] = current_player
    data["scoring_colour"] = scoring_colour
    data["revealed_colours"] = list(revealed_colours)
    data["doubler_available"] = list(doubler_available) if doubler_available is not None else [True] * n
    data["decided"] = list(decided) if decided is not None else [False] * n
    data["bets"] = list(bets) if bets is not None else [False] * n
    data["pile"] = pile_list
    data["hands"] = [sorted_cards(h) for h in hand_lists]
    data["shown"] = [sorted_cards(h) for h in shown]
    data["discarded"] = [sorted_cards(h) for h in discarded]
    data["rows"] = {
        colour: {"left": list(rows.get(colour, ((), ()))[0]), "right": list(rows.get(colour, ((), ()))[1])}
        for colour in COLOURS
    }
    data["scores"] = list(scores) if scores is not None else [0] * n
    data["history"] = []
    data["decks"] = []
    return data


def decide_all(state: SchachtState, decisions: Mapping[int, str]) -> None:
    """Plays the doubler decision (``'bet'`` or ``'hold'``) of each named seat (S5.3)."""
    for seat, decision in decisions.items():
        state.apply(decision, player=seat)


def hold_all(state: SchachtState) -> None:
    """Every seat still to decide on the colour being scored holds its doubler (S5.3).

    Only the current colour: a later positive colour opens a new doubler phase."""
    assert state.phase == "doubler"
    for seat in [p for p in range(state.game.players) if state.legal_moves(p)]:
        state.apply("hold", player=seat)


def play_out(state: SchachtState, *, pick: int = 0) -> None:
    """Plays the game to its end: the `pick`-th legal move (modulo) of whoever acts."""
    while not state.is_terminal:
        player = state.current_player
        if player == diabolo.SIMULTANEOUS:
            player = next(p for p in range(state.game.players) if state.legal_moves(p))
        moves = state.legal_moves(player)
        state.apply(moves[pick % len(moves)], player=player)


def data_of(state: SchachtState) -> dict[str, Any]:
    """The JSON data of a state."""
    result: dict[str, Any] = json.loads(state.to_json())
    return result
