"""Checks shared by every game's bad-input tests, and the samples each game gives the
contract's bad-input suite (tests/contract/test_bad_input.py)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from hypothesis import strategies as st

import diabolo
from tests.json_fuzz import OPERATIONS


def assert_unchanged_after(
    state: Any,
    error: type[BaseException] | tuple[type[BaseException], ...],
    call: Callable[[], object],
    match: str | None = None,
) -> None:
    """``call`` raises ``error`` (with a message matching ``match``, if given) and leaves
    ``state`` as it was (docs/interface.rst: bad input changes nothing)."""
    before = state.to_json()
    with pytest.raises(error, match=match):
        call()
    assert state.to_json() == before


def assert_illegal(state: Any, move: Any, player: int | None, clause: str, fragment: str | None = None) -> None:
    """``move`` by ``player`` raises IllegalMoveError naming ``clause`` first in its message
    (which matches ``fragment``, if given) and changes nothing, its history included."""
    before = state.to_json()
    history = state.history
    with pytest.raises(diabolo.IllegalMoveError, match=fragment) as error:
        state.apply(move, player=player)
    assert error.value.clause == clause, str(error.value)
    assert str(error.value).startswith(clause + ": ")
    assert isinstance(error.value, ValueError)
    assert state.to_json() == before
    assert state.history == history


K = TypeVar("K")


def states_met(
    games: Mapping[K, Any],
    seeds: Iterable[int],
    keep: Callable[[int, Any], bool],
    step: Callable[[Any, random.Random], object],
    *,
    rng_seed: Callable[[int, K], int] = lambda seed, key: seed,
    limit: int | None = None,
) -> tuple[tuple[K, str], ...]:
    """(key, JSON) of states met in seeded random games of each of `games`: those that
    `keep(step number, state)` picks, up to the end of the game (or `limit` steps). `step`
    makes one random move with the game's own rng (seeded `rng_seed(seed, key)`)."""
    found: list[tuple[K, str]] = []
    for key, game in games.items():
        for seed in seeds:
            rng = random.Random(rng_seed(seed, key))
            state = game.new_state(seed=seed)
            for number in itertools.count() if limit is None else range(limit):
                if keep(number, state):
                    found.append((key, state.to_json()))
                if state.is_terminal:
                    break
                step(state, rng)
    return tuple(found)


def never(game: Any, action: int) -> bool:
    return False


def nothing(state: Any) -> None:
    return None


Case = tuple[Any, str | None]
"""A bad input and a fragment of its error's message (None: any message)."""


@dataclass(frozen=True)
class BadInputSamples:
    """What one game gives the contract's bad-input suite: its positions, its own bad
    input (notation, options, deals, state JSON) and how a deal and a state are given.
    The suite runs every check over every game of the catalogue with these; what only
    one game has stays in tests/test_<game>_bad_input.py."""

    name: str
    game: Callable[[], Any]
    """The game (3 seats) of `positions`, `movers` and `base_data`."""
    positions: Callable[[], list[Any]]
    """States of `game` in every phase: bad and missing seats are tried on each."""
    movers: Callable[[], list[tuple[Any, int | None]]]
    """(state, seat) to which bad notation and objects that are no moves are applied
    (None: the seat to move)."""
    seat_moves: tuple[Any, ...]
    """Moves applied with a bad seat, without a seat, or with a seat of a bigger game."""
    notation_samples: tuple[str, ...]
    """Notation of real moves: other games apply them as moves of the wrong game."""
    bad_notation: Sequence[Case]
    surrogate_notation: tuple[str, ...]
    wrong_type_moves: tuple[object, ...]
    """Values that look like a move of this game but are of the wrong type."""
    bad_seats: tuple[Any, ...]
    bad_options: Sequence[tuple[dict[str, Any], type[Exception], str | None]]
    good_options: Sequence[dict[str, Any]]
    deal_game: Callable[[], Any]
    """The game of the deal tests."""
    good_deal: Mapping[str, Any]
    """new_state's arguments for a deal that is fine."""
    deal_places: Callable[[Any], list[dict[str, Any]]]
    """new_state's arguments that give the deal `bad` in each place a deal is given."""
    bad_deals: Sequence[Case]
    bad_decks: Sequence[tuple[dict[str, Any], str | None]]
    """new_state's arguments (decks, deck with decks) that are no deals at all."""
    base_data: Callable[[], dict[str, Any]]
    """The JSON data of a state of `game` that the state JSON tests break."""
    wrong_values: Sequence[tuple[str, Any, str | None]]
    """(key, value, fragment): base_data with data[key] = value raises StateFormatError."""
    clause_positions: Callable[[], list[Any]]
    """States where every action id that is not legal raises IllegalMoveError."""
    reachable: Callable[[], Sequence[tuple[Any, str]]]
    """(key, JSON) of states met in random play; `reachable_game(key)` reads them."""
    reachable_game: Callable[[Any], Any]
    reachable_keys: frozenset[Any]
    phases: frozenset[str]
    json_values: st.SearchStrategy[Any]
    """Values the JSON mutations write, with the game's own words among the strings."""
    fuzz_seats: tuple[int, int]
    """The range of small ints the apply fuzz tries as seats (with None and any int)."""
    turns: bool
    """A seat is to move alone, so player=None means that seat."""
    deal_seed: int | None = None
    """The seed the deal tests pass (None: none)."""
    base_options: Mapping[str, Any] = field(default_factory=dict)
    """Options every load of the option tests adds."""
    widest_options: Mapping[str, Any] = field(default_factory=dict)
    """Options that allow every seat count of the catalogue's min_players_any..max_players_any."""
    simultaneous: Callable[[], list[Any]] = list
    """States where no one seat is to move: a move or query must name its player."""
    no_seat_message: str = ""
    canonical_notation: bool = True
    """str(Move.parse(text)) == text for every text that parses."""
    near_notation: st.SearchStrategy[str] | None = None
    """Text close to real notation, for a thorough search of the parser."""
    bot: Callable[[], Any] | None = None
    """A bot whose choose() must refuse a bad seat."""
    always_a_move: Callable[[Any, int], bool] = never
    """Action ids that apply even when not legal (Knizia's calls in penalty mode)."""
    invariant: Callable[[Any], None] = nothing
    """What every state, applied to or loaded, keeps."""
    json_operations: tuple[str, ...] = OPERATIONS
    json_most: int = 3
