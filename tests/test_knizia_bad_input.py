"""Bad input to Diabolo (Knizia): every wrong call raises a specific DiaboloError and
changes nothing. Spec: docs/games/knizia.rst (K1-K10) and the error contract of docs/interface.rst, "Errors".

- illegal moves raise IllegalMoveError naming the clause broken; the state is unchanged,
- malformed notation, action ids and move objects raise NotationError,
- bad options and seeds raise OptionError (an unknown lexicon language
  LexiconNotFoundError), bad or missing seats PlayerError,
- malformed state JSON and given deals raise StateFormatError,
- hypothesis throws random text, ints, action sequences, deals and JSON mutations at the
  engine.

A call of any word is a move (K10.3): in the default ``stale_calls='penalty'`` mode it
never raises, so the rejections of invalid calls are tested with ``'reject'``.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon
from diabolo.duvelen import DuvelenMove
from diabolo.knizia import Deck, KniziaGame, KniziaMove, KniziaState, WordBot, check_word, find_words
from tests.bad_input_helpers import assert_unchanged_after
from tests.json_fuzz import json_values, mutated_states

WORDS = ["Hang", "Lager", "Regal", "Stop", "Post", "Tops", "Tor", "Rot", "Eis", "On"]
LEXICON = Lexicon.from_words(WORDS)
# The test deck: TOR/ROT, LAGER/REGAL, STOP/POST/TOPS with jokers (K1.2).
CARDS = ["T", "O", "R", "L", "A", "G", "E", "R", "P", "ST", "?", "??", "X"]
DECK = dict(Counter(CARDS))
NUM_ACTIONS = 130 + len(LEXICON)


def game(players: int = 3, **options: Any) -> KniziaGame:
    return diabolo.load("knizia", players=players, lexicon=LEXICON, deck=DECK, **options)


def play_position(**options: Any) -> KniziaState:
    """Three seats, round 0: seat 0 (the dealer) has revealed T, O, R, L, A; the deck
    holds 8 cards. TOR and ROT are on the table."""
    state = game(**options).new_state(seed=4, deck=CARDS)
    for _ in range(5):
        state.apply("reveal", player=0)
    assert state.table == ["T", "O", "R", "L", "A"]
    return state


def penalty_position() -> KniziaState:
    """play_position after seat 1's invalid call XYZ: seat 2, then seat 0, take a card."""
    state = play_position()
    state.apply("XYZ", player=1)
    assert state.phase == "penalty" and state.penalty == [2, 0]
    return state


def empty_deck_position() -> KniziaState:
    """Every card revealed, words left: the round goes on without a deck (K3.7)."""
    state = play_position()
    for _ in range(8):
        state.apply("reveal", player=0)
    assert state.deck_count == 0 and state.round == 0
    return state


def game_over_position() -> KniziaState:
    state = game(rounds=1).new_state(seed=4, deck=CARDS)
    for _ in range(13):
        state.apply("reveal", player=0)
    for seat in range(3):
        state.apply("pass", player=seat)
    assert state.is_terminal
    return state


def positions() -> list[KniziaState]:
    return [
        play_position(),
        penalty_position(),
        empty_deck_position(),
        game_over_position(),
        play_position(stale_calls="reject"),
    ]


def assert_illegal(state: KniziaState, move: KniziaMove | int | str, player: int, clause: str, fragment: str) -> None:
    """``move`` by ``player`` raises IllegalMoveError naming ``clause`` and changes nothing."""
    before = state.to_json()
    history = state.history
    with pytest.raises(diabolo.IllegalMoveError, match=fragment) as error:
        state.apply(move, player=player)
    assert error.value.clause == clause, str(error.value)
    assert str(error.value).startswith(clause + ": ")
    assert state.to_json() == before
    assert state.history == history


# ---------------------------------------------------------------- the error classes


def test_positions_are_what_they_say() -> None:
    state = play_position()
    assert [str(m) for m in state.legal_moves(0)] == ["reveal", "ROT", "TOR", "pass"]
    assert [str(m) for m in penalty_position().legal_moves(2)] == [f"take@{i}" for i in range(5)]
    assert game_over_position().legal_moves(0) == []


# ---------------------------------------------------------------- illegal moves


def test_K3_1_reveal_by_a_non_dealer_or_without_cards() -> None:
    """K3.1: only the dealer reveals, and only while the deck has cards."""
    state = play_position()
    for seat in (1, 2):
        for move in ("reveal", 0, KniziaMove.parse("reveal"), " reveal "):
            assert_illegal(state, move, seat, "K3.1", r"only the dealer \(seat 0\) reveals cards")
    state = empty_deck_position()
    assert_illegal(state, "reveal", 0, "K3.1", "the deck is used up")
    assert_illegal(state, 0, 0, "K3.1", "the deck is used up")
    assert_illegal(state, "reveal", 2, "K3.1", "only the dealer")


def test_K3_5_take_outside_a_penalty() -> None:
    """K3.5: a card is taken only as the penalty of another's invalid call."""
    state = play_position()
    for seat in range(3):
        for move in ("take@0", "take@4", "take@127", 2, 129, KniziaMove.parse("take@1")):
            assert_illegal(state, move, seat, "K3.5", "a card is taken only as the penalty of an invalid call")


def test_K3_5_take_of_no_table_card() -> None:
    """K3.5: the head of the penalty takes a card that is on the table."""
    state = penalty_position()
    for move in ("take@5", "take@127", 7, 129):
        assert_illegal(state, move, 2, "K3.5", "there is no table position .*; the table has 5 cards")


def test_K10_2_only_the_head_takes_and_only_takes() -> None:
    """K10.2: during a penalty only the seat at its head moves, and only take@i."""
    state = penalty_position()
    for seat in (0, 1):
        assert_illegal(state, "take@0", seat, "K10.2", f"seat 2 takes a card now, not seat {seat}")
        assert_illegal(state, 2, seat, "K10.2", "seat 2 takes a card now")
    for seat in range(3):
        for move in ("reveal", "pass", "TOR", "XYZ", "TOR@0,1,2", 0, 1, NUM_ACTIONS - 1, KniziaMove.parse("ROT")):
            assert_illegal(state, move, seat, "K10.2", "the game waits for seat 2 to take a card for the invalid call")


def test_K4_2_nothing_after_the_game() -> None:
    """K4.2: after the last round no move is legal."""
    state = game_over_position()
    for seat in range(3):
        assert state.legal_actions(seat) == [] and not state.legal_action_mask(seat).any()
        for move in ("reveal", "pass", "take@0", "TOR", "XYZ", 0, 1, 2, NUM_ACTIONS - 1):
            assert_illegal(state, move, seat, "K4.2", "the game is over")


def test_K10_3_reject_mode_refuses_calls_that_are_not_valid_claims() -> None:
    """K10.3: with stale_calls='reject' an invalid call raises (naming the failed check
    of K3.3 and the option) and changes nothing."""
    state = play_position(stale_calls="reject")
    cases: list[tuple[str | int, str]] = [
        ("XYZ", "not a word"),
        ("ON", "too few cards"),
        ("LAGER", "letters missing"),
        ("TOR@0,1", "too few cards"),
        ("TOR@1,0,2", "letters missing"),
        ("TOR@0,1,9", "letters missing"),
        ("TOR@0,1,127", "letters missing"),
        (130 + sorted(w.upper() for w in WORDS).index("TOPS"), "letters missing"),
    ]
    for move, reason in cases:
        for seat in range(3):
            assert_illegal(state, move, seat, "K3.3", f"is not a valid claim: {reason} .*stale_calls.*K10.3")
    state.apply("TOR@0,1,2", player=1)
    assert_illegal(state, "TOR", 2, "K3.3", "'TOR' is not a valid claim: letters missing")


def test_penalty_mode_calls_never_raise() -> None:
    """K10.3: in the default mode every claim action id and any called word is a move."""
    state = play_position()
    for action in range(130, NUM_ACTIONS):
        for seat in range(3):
            twin = state.clone()
            twin.apply(action, player=seat)
            assert twin.last_call is not None and twin.last_call["seat"] == seat
    assert state.last_call is None


def test_illegal_move_errors_name_clauses_for_every_action_id() -> None:
    """Every action id that is not legal raises IllegalMoveError with a K clause and
    changes nothing (claims in reject mode, where an invalid call is illegal)."""
    states = [play_position(stale_calls="reject"), penalty_position(), game_over_position()]
    for state in states:
        for seat in range(3):
            legal = set(state.legal_actions(seat))
            for action in range(NUM_ACTIONS):
                if action in legal:
                    continue
                before = state.to_json()
                with pytest.raises(diabolo.IllegalMoveError) as error:
                    state.apply(action, player=seat)
                assert re.fullmatch(r"K\d+(\.\d+)?", error.value.clause), str(error.value)
                assert state.to_json() == before


# ---------------------------------------------------------------- notation

BAD_NOTATION: list[tuple[str, str]] = [
    ("", "not a move: ''"),
    (" ", "not a move"),
    ("\t\n", "not a move"),
    ("LAG3R", "not a move: 'LAG3R'"),
    ("LAGER!", "not a move"),
    ("LA GER", "not a move"),
    ("U-Boot", "not a move"),
    ("z.B.", "not a move"),
    ("1:LAGER", "not a move"),
    ("@1", "not a move: '@1'"),
    ("@", "not a move"),
    ("?", "not a move"),
    ("??", "not a move"),
    ("日本", "not a move"),
    ("\x00", "not a move"),
    ("LAGER\x00", "not a move"),
    ("\U0001f600", "not a move"),
    ("POST@", "a call's cards are table positions 0..127"),
    ("POST@1,,2", "a call's cards are table positions"),
    ("POST@,1", "a call's cards are table positions"),
    ("POST@1,2,", "a call's cards are table positions"),
    ("POST@a", "a call's cards are table positions"),
    ("POST@-1", "a call's cards are table positions"),
    ("POST@+1", "a call's cards are table positions"),
    ("POST@ 1", "a call's cards are table positions"),
    ("POST@1 ,2", "a call's cards are table positions"),
    ("POST@1@2", "a call's cards are table positions"),
    ("POST@128", "a call's cards are table positions 0..127"),
    ("POST@999", "a call's cards are table positions 0..127"),
    ("POST@1000", "a call's cards are table positions"),
    ("POST@١", "a call's cards are table positions"),
    ("POST@1,1,2", "a call names table position 1 twice"),
    ("POST@3,7,3", "a call names table position 3 twice"),
    ("POST@0,1,2,3,4", "a call names at most one card per letter: 5 cards for 'POST'"),
    ("take@", "a take is 'take@' and a table position 0..127"),
    ("take@x", "a take is 'take@' and a table position 0..127"),
    ("take@999", "a take is 'take@' and a table position 0..127"),
    ("take@128", "a take is 'take@' and a table position 0..127"),
    ("take@-1", "a take is 'take@'"),
    ("take@1,2", "a take is 'take@'"),
    ("take@ 1", "a take is 'take@'"),
    ("take@1e2", "a take is 'take@'"),
    ("A" * 65, "a called word has 1..64 letters, got 65"),
    ("LAGER" * 13, "a called word has 1..64 letters, got 65"),
    ("ß" * 33, "a called word has 1..64 letters, got 66"),
    ("A" * 1000 + "@1", "a called word has 1..64 letters, got 1000"),
]


@pytest.mark.parametrize(("text", "fragment"), BAD_NOTATION)
def test_malformed_notation(text: str, fragment: str) -> None:
    """K7, K10.8: text that is not a move raises NotationError wherever a move is read,
    in every phase, and changes nothing."""
    with pytest.raises(diabolo.NotationError, match=re.escape(fragment)):
        KniziaMove.parse(text)
    with pytest.raises(diabolo.NotationError, match=re.escape(fragment)):
        game().move(text)
    with pytest.raises(diabolo.NotationError, match=re.escape(fragment)):
        game().action(text)
    for state in positions():
        for seat in (0, 2):
            assert_unchanged_after(
                state, diabolo.NotationError, lambda: state.apply(text, player=seat), match=re.escape(fragment)
            )


def test_notation_limits_accepted() -> None:
    """K7: the limits themselves are fine: 64 letters, position 127."""
    assert KniziaMove.parse("A" * 64).word == "A" * 64
    assert KniziaMove.parse("ß" * 32).word == "S" * 64
    assert KniziaMove.parse("POST@127,0,1,2").cards == (127, 0, 1, 2)
    assert KniziaMove.parse("take@127").position == 127
    state = play_position()
    state.apply("A" * 64, player=1)  # a call (not a word): the penalty
    assert state.last_call is not None and state.last_call["reason"] == "not a word"


@pytest.mark.parametrize("text", ["\ud800", "LAG\udfffER", "take@\udc00", "POST@\ud800"])
def test_lone_surrogates_are_notation_errors(text: str) -> None:
    """docs/interface.rst: a str holding a lone surrogate is a NotationError, never a crash."""
    for state in positions():
        assert_unchanged_after(
            state, diabolo.NotationError, lambda: state.apply(text, player=1), match="unpaired surrogate"
        )
    with pytest.raises(diabolo.NotationError, match="unpaired surrogate"):
        KniziaMove.parse(text)


def test_action_of_a_word_too_long_to_call() -> None:
    """K7: a lexicon word longer than 64 letters has an action id but no call; applying
    it raises NotationError, and find_words never offers it."""
    long_word = "A" * 65
    lexicon = Lexicon.from_words([long_word, "Tor"])
    g = diabolo.load("knizia", players=2, lexicon=lexicon, deck={"A": 66, "T": 1, "O": 1, "R": 1})
    assert g.num_actions == 132
    with pytest.raises(diabolo.NotationError, match="longer than 64 letters"):
        g.move(130)
    state = g.new_state(seed=1)
    while state.deck_count:
        state.apply("reveal", player=0)
    assert long_word not in [m.word for m in find_words(state.table, lexicon)]
    assert_unchanged_after(
        state, diabolo.NotationError, lambda: state.apply(130, player=1), match="longer than 64 letters"
    )


def test_a_word_of_millions_of_letters_is_indexed_without_a_deep_recursion() -> None:
    """The legal actions read an index of the list's words (Lexicon.letter_index), built by
    a walk of the automaton with its own stack: a recursion as deep as a word of three
    million letters overflowed the thread's stack."""
    lexicon = Lexicon.from_words(["A" * 3_000_000, "Tor"])
    state = diabolo.load("knizia", players=2, lexicon=lexicon, deck={"A": 66, "T": 1, "O": 1, "R": 1}).new_state(seed=1)
    while state.deck_count:
        state.apply("reveal", player=0)
    assert [str(m) for m in state.legal_moves(1)] == ["TOR", "pass"]
    assert state.legal_actions(1) == [1, 131]


WRONG_TYPES: list[object] = [
    True,
    False,
    1.0,
    0.0,
    None,
    [0],
    (0,),
    {"move": "pass"},
    object(),
    b"pass",
    bytearray(b"pass"),
    1j,
    DuvelenMove.parse("turn"),
    KniziaMove,
    diabolo,
]


@pytest.mark.parametrize("value", WRONG_TYPES)
def test_moves_of_the_wrong_type(value: object) -> None:
    """docs/interface.rst: a move is a KniziaMove, an action id, notation or move data; anything else
    (a bool is not an action id, a dict without a kind is not move data) raises
    NotationError and changes nothing."""
    expected = "a Knizia move as data is like" if isinstance(value, dict) else "a Knizia move is a KniziaMove"
    for state in positions():
        assert_unchanged_after(
            state,
            diabolo.NotationError,
            lambda: state.apply(value, player=1),  # type: ignore[arg-type]
            match=expected,
        )
    with pytest.raises(diabolo.NotationError, match=expected):
        game().move(value)  # type: ignore[arg-type]


def test_states_and_games_are_not_moves() -> None:
    state = play_position()
    for value in (state, state.game, penalty_position()):
        assert_unchanged_after(
            state,
            diabolo.NotationError,
            lambda: state.apply(value, player=1),  # type: ignore[arg-type]
            match="a Knizia move is",
        )


# ---------------------------------------------------------------- words: check_word, find_words


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ("TOR", "a table is a list of cards"),
        (None, "a table is a list of cards"),
        (5, "a table is a list of cards"),
        (["T", "O", "Ä"], "not a card"),
        (["T", "O", "ABC"], "not a card: 'ABC'"),
        (["T", "O", "???"], "not a card: '???'"),
        (["t", "o", "r"], "not a card: 't'"),
        (["T", ""], "not a card: ''"),
        (["T", " O"], "not a card"),
        (["T", 5], "a card must be a str"),
        (["T", None], "a card must be a str"),
        (["T"] * 129, "a table holds at most 128 cards, got 129"),
    ],
)
def test_bad_tables(table: Any, fragment: str) -> None:
    """K6.1, K6.2: a table is a list of card notations, at most 128."""
    with pytest.raises(diabolo.NotationError, match=re.escape(fragment)):
        find_words(table, LEXICON)
    with pytest.raises(diabolo.NotationError, match=re.escape(fragment)):
        check_word("TOR", table, LEXICON)


@pytest.mark.parametrize("min_cards", [0, -1, 129, 1.5, "3", None, True])
def test_bad_min_cards_for_words(min_cards: Any) -> None:
    with pytest.raises(diabolo.OptionError, match="min_cards must be"):
        find_words(["T", "O", "R"], LEXICON, min_cards)
    with pytest.raises(diabolo.OptionError, match="min_cards must be"):
        check_word("TOR", ["T", "O", "R"], LEXICON, min_cards)


@pytest.mark.parametrize(
    ("word", "error", "fragment"),
    [
        (5, diabolo.NotationError, "a word must be a str"),
        (None, diabolo.NotationError, "a word must be a str"),
        ("\ud800", diabolo.NotationError, "unpaired surrogate"),
        ("", diabolo.InvalidWordError, "not a word"),
        ("LAG3R", diabolo.InvalidWordError, "not a word"),
    ],
)
def test_bad_words_for_check_word(word: Any, error: type[Exception], fragment: str) -> None:
    """K6.2: check_word raises InvalidWordError for text that is no word, NotationError
    for a word that is no text."""
    with pytest.raises(error, match=fragment):
        check_word(word, ["T", "O", "R"], LEXICON)


# ---------------------------------------------------------------- options

BAD_OPTIONS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"players": 1}, diabolo.OptionError, "players must be 2..6 (K1.1), got 1"),
    ({"players": 7}, diabolo.OptionError, "players must be 2..6 (K1.1), got 7"),
    ({"players": 0}, diabolo.OptionError, "players must be 2..6"),
    ({"players": -1}, diabolo.OptionError, "players must be 2..6"),
    ({"players": 2**64}, diabolo.OptionError, "players"),
    ({"players": 3.0}, diabolo.OptionError, "players must be an int"),
    ({"players": True}, diabolo.OptionError, "players must be an int"),
    ({"players": "3"}, diabolo.OptionError, "players must be an int"),
    ({"players": None}, diabolo.OptionError, "players must be an int"),
    ({"min_cards": 0}, diabolo.OptionError, "min_cards must be 1..64 (K3.3), got 0"),
    ({"min_cards": -3}, diabolo.OptionError, "min_cards must be 1..64"),
    ({"min_cards": 65}, diabolo.OptionError, "min_cards must be 1..64"),
    ({"min_cards": 3.0}, diabolo.OptionError, "min_cards must be an int"),
    ({"min_cards": "4"}, diabolo.OptionError, "min_cards must be an int"),
    ({"min_cards": True}, diabolo.OptionError, "min_cards must be an int"),
    ({"min_cards": None}, diabolo.OptionError, "min_cards must be an int"),
    ({"rounds": 0}, diabolo.OptionError, "rounds must be 1..64"),
    ({"rounds": -1}, diabolo.OptionError, "rounds must be 1..64"),
    ({"rounds": 65}, diabolo.OptionError, "rounds must be 1..64"),
    ({"rounds": 1.0}, diabolo.OptionError, "rounds must be an int"),
    ({"rounds": "2"}, diabolo.OptionError, "rounds must be an int"),
    ({"rounds": False}, diabolo.OptionError, "rounds must be an int"),
    (
        {"variant": "victory_tiles", "rounds": 4},
        diabolo.OptionError,
        "victory_tiles variant plays until a seat has 2 tiles",
    ),
    ({"variant": "victory_tiles", "rounds": 1}, diabolo.OptionError, "leave rounds out"),
    ({"variant": "Standard"}, diabolo.OptionError, "variant must be one of 'standard', 'victory_tiles'"),
    ({"variant": "victory tiles"}, diabolo.OptionError, "variant must be one of"),
    ({"variant": "tiles"}, diabolo.OptionError, "variant must be one of"),
    ({"variant": "standard "}, diabolo.OptionError, "variant must be one of"),
    ({"variant": ""}, diabolo.OptionError, "variant must be one of"),
    ({"variant": None}, diabolo.OptionError, "variant must be one of"),
    ({"variant": 0}, diabolo.OptionError, "variant must be one of"),
    (
        {"variant": b"standard"},
        diabolo.OptionError,
        "variant must be a number, text, a list or a dict, got b'standard'",
    ),
    ({"variant": ["standard"]}, diabolo.OptionError, "variant must be one of"),
    ({"variant": "\ud800"}, diabolo.OptionError, "variant"),
    ({"stale_calls": "Reject"}, diabolo.OptionError, "stale_calls must be one of 'penalty', 'reject' (K10.3)"),
    ({"stale_calls": "ignore"}, diabolo.OptionError, "stale_calls must be one of"),
    ({"stale_calls": ""}, diabolo.OptionError, "stale_calls must be one of"),
    ({"stale_calls": None}, diabolo.OptionError, "stale_calls must be one of"),
    ({"stale_calls": True}, diabolo.OptionError, "stale_calls must be one of"),
    ({"handicap": -1}, diabolo.OptionError, "handicap must be 0..1000"),
    ({"handicap": 1001}, diabolo.OptionError, "handicap must be 0..1000"),
    ({"handicap": 10.0}, diabolo.OptionError, "handicap must be an int"),
    ({"handicap": "10"}, diabolo.OptionError, "handicap must be an int"),
    ({"handicap": None}, diabolo.OptionError, "handicap must be an int"),
    ({"seed": 1}, diabolo.OptionError, "unknown option 'seed' for knizia"),
    ({"Players": 3}, diabolo.OptionError, "unknown option 'Players'"),
    ({"min_card": 3}, diabolo.OptionError, "unknown option 'min_card'"),
    ({"language": "de"}, diabolo.OptionError, "unknown option 'language'"),
    ({"decks": None}, diabolo.OptionError, "unknown option 'decks'"),
    ({"stale": "reject"}, diabolo.OptionError, "the options are players, rounds, min_cards"),
    ({"deck": {"A": 0}}, diabolo.OptionError, "the count of 'A' must be a positive integer, got 0"),
    ({"deck": {"A": -2}}, diabolo.OptionError, "the count of 'A' must be a positive integer"),
    ({"deck": {"A": 1.0}}, diabolo.OptionError, "the count of 'A' must be a positive integer"),
    ({"deck": {"A": True}}, diabolo.OptionError, "the count of 'A' must be a positive integer"),
    ({"deck": {"A": "2"}}, diabolo.OptionError, "the count of 'A' must be a positive integer"),
    ({"deck": {"A": None}}, diabolo.OptionError, "the count of 'A' must be a positive integer"),
    ({"deck": {"A": 129}}, diabolo.OptionError, "the deck's count of 'A' must be 1..128"),
    ({"deck": {"A": 100, "B": 29}}, diabolo.OptionError, "a deck has at most 128 cards, got 129"),
    ({"deck": {}}, diabolo.OptionError, "a deck's cards are a mapping of card to count"),
    ({"deck": {"Ä": 1}}, diabolo.OptionError, "not a card: 'Ä'"),
    ({"deck": {"ABC": 1}}, diabolo.OptionError, "not a card: 'ABC'"),
    ({"deck": {"???": 1}}, diabolo.OptionError, "not a card: '???'"),
    ({"deck": {"a": 1}}, diabolo.OptionError, "not a card: 'a'"),
    ({"deck": {"": 1}}, diabolo.OptionError, "not a card: ''"),
    ({"deck": {1: 1}}, diabolo.OptionError, "not a card: 1"),
    ({"deck": 5}, diabolo.OptionError, "deck must be a diabolo.knizia.Deck, a language code"),
    ({"deck": ["A", "B"]}, diabolo.OptionError, "deck must be a diabolo.knizia.Deck"),
    ({"deck": b"de"}, diabolo.OptionError, "deck must be a diabolo.knizia.Deck"),
    ({"deck": "xx"}, diabolo.OptionError, "no packaged deck for language 'xx'"),
    ({"deck": "tlh"}, diabolo.OptionError, "no packaged deck for language 'tlh'"),
    ({"deck": "DE"}, diabolo.OptionError, "no packaged deck"),
    ({"deck": "../de"}, diabolo.OptionError, "no packaged deck"),
    ({"deck": ""}, diabolo.OptionError, "no packaged deck"),
    ({"deck": "a" * 300}, diabolo.OptionError, "no packaged deck for language 'aaaa"),  # was an OSError
    ({"lexicon": 5}, diabolo.OptionError, "lexicon must be a diabolo.Lexicon or a language code"),
    ({"lexicon": None}, diabolo.OptionError, "lexicon must be a diabolo.Lexicon"),
    ({"lexicon": ["Hang", "Lager"]}, diabolo.OptionError, "lexicon must be a diabolo.Lexicon"),
    ({"lexicon": b"de"}, diabolo.OptionError, "lexicon must be a diabolo.Lexicon"),
    ({"lexicon": Lexicon}, diabolo.OptionError, "lexicon must be a diabolo.Lexicon"),
    ({"lexicon": Deck({"A": 1})}, diabolo.OptionError, "lexicon must be a diabolo.Lexicon"),
    ({"lexicon": "tlh"}, diabolo.LexiconNotFoundError, "no word list for language 'tlh'"),
    ({"lexicon": "xx1"}, diabolo.LexiconNotFoundError, "a language is a code like 'de'"),
    ({"lexicon": ""}, diabolo.LexiconNotFoundError, "a language is a code like 'de'"),
    ({"lexicon": "a" * 300}, diabolo.LexiconNotFoundError, "a language is a code like 'de'"),  # was an OSError
]


@pytest.mark.parametrize(("options", "error", "fragment"), BAD_OPTIONS)
def test_bad_options(options: dict[str, Any], error: type[Exception], fragment: str) -> None:
    """K1.1, K1.4, K3.3, K4.2, K4.3, K10.3, K10.7: unknown options, wrong types and values
    raise OptionError (an unknown lexicon language LexiconNotFoundError, which says how
    to install one)."""
    full: dict[str, Any] = {"players": 3, "lexicon": LEXICON, "deck": DECK}
    full.update(options)
    with pytest.raises(error, match=re.escape(fragment)):
        diabolo.load("knizia", **full)
    with pytest.raises(error, match=re.escape(fragment)):
        KniziaGame(**full)


def test_good_option_bounds() -> None:
    for options in (
        {"players": 2},
        {"players": 6},
        {"min_cards": 1},
        {"min_cards": 64},
        {"rounds": 1},
        {"rounds": 64},
        {"rounds": None},
        {"handicap": 0},
        {"handicap": 1000},
        {"deck": {"A": 128}},
        {"variant": "victory_tiles", "rounds": None},
        {"stale_calls": "reject"},
        {"deck": Deck({"?": 1})},
    ):
        full: dict[str, Any] = {"players": 3, "lexicon": LEXICON, "deck": DECK}
        full.update(options)
        diabolo.load("knizia", **full).new_state(seed=1)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Deck({}), "a deck's cards are a mapping"),
        (lambda: Deck(["A"]), "a deck's cards are a mapping"),  # type: ignore[arg-type]
        (lambda: Deck({"A": 1}, 5), "a deck's language is a code"),  # type: ignore[arg-type]
        (lambda: Deck.from_json("not json"), "a deck file is not valid JSON"),
        (lambda: Deck.from_json("[]"), "a deck file is a JSON object"),
        (lambda: Deck.from_json('{"language": "xx"}'), "a deck file is a JSON object"),
        (lambda: Deck.from_json('{"language": "xx", "cards": {"A": 1}, "x": 1}'), "a deck file is a JSON object"),
        (lambda: Deck.from_json('{"language": "xx", "cards": {"Ö": 1}}'), "not a card"),
        (lambda: Deck.from_json('{"language": "xx", "cards": {"A": 0}}'), "must be a positive integer"),
        (lambda: Deck.load("xx"), "no packaged deck for language 'xx'"),
        (lambda: Deck.load(5), "no packaged deck"),  # type: ignore[arg-type]
    ],
)
def test_bad_decks(make: Callable[[], object], fragment: str) -> None:
    """K10.7: a deck is counts of cards in notation; a file is {"language", "cards"}."""
    with pytest.raises(diabolo.OptionError, match=re.escape(fragment)):
        make()


# ---------------------------------------------------------------- seeds

BAD_SEEDS: list[Any] = [-1, -(2**63), 2**64, 2**100, 1.0, 0.5, True, False, None, "1", [1]]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seeds_with_a_given_deal(seed: Any) -> None:
    """docs/interface.rst: a seed is checked with a given deal too (the rest: tests/contract)."""
    with pytest.raises(diabolo.OptionError, match="seed must be an int"):
        game().new_state(seed=seed, deck=CARDS)


# ---------------------------------------------------------------- seats

BAD_SEATS: list[Any] = [-1, -2, 3, 6, 7, 2**31, 2**63, 2**64, -(2**70), True, False, "0", 1.0, [0]]


@pytest.mark.parametrize("seat", BAD_SEATS)
def test_bad_seats(seat: Any) -> None:
    """docs/interface.rst: a seat is an int 0..n-1 (a bool is not a seat); anything else raises
    PlayerError and changes nothing."""
    for state in positions():
        calls: list[Callable[[], object]] = [
            lambda: state.observation(seat),
            lambda: state.observation_tensor(seat),
            lambda: state.legal_moves(seat),
            lambda: state.legal_actions(seat),
            lambda: state.legal_action_mask(seat),
            lambda: state.resample(seat, 1),
            lambda: state.apply("reveal", player=seat),
            lambda: state.apply("pass", player=seat),
            lambda: state.apply("TOR", player=seat),
            lambda: state.apply("take@0", player=seat),
            lambda: state.apply(1, player=seat),
        ]
        for call in calls:
            assert_unchanged_after(state, diabolo.PlayerError, call, match="player must be a seat 0..2, got")
        assert_unchanged_after(
            state, diabolo.PlayerError, lambda: WordBot().choose(state, seat), match="player must be a seat 0..2, got"
        )


def test_missing_player() -> None:
    """K3.2, K10.2: there are no turns, so a move or a query without a player raises
    PlayerError (saying so) and changes nothing."""
    for state in positions():
        for move in ("reveal", "pass", "TOR", "take@0", 0, KniziaMove.parse("pass")):
            assert_unchanged_after(
                state, diabolo.PlayerError, lambda: state.apply(move), match="played simultaneously .*name the player"
            )
        for query in (state.legal_moves, state.legal_actions, state.legal_action_mask):
            assert_unchanged_after(state, diabolo.PlayerError, lambda: query(), match="name the player")
        for call in (lambda: state.observation(None), lambda: state.observation_tensor(None)):  # type: ignore[arg-type]
            assert_unchanged_after(state, diabolo.PlayerError, call, match="player must be a seat 0..2, got None")
    assert play_position().current_player == diabolo.SIMULTANEOUS


def test_seat_of_a_bigger_game() -> None:
    """K1.1: a seat that exists with more players does not exist here."""
    state = game(players=2).new_state(seed=1)
    for seat in (2, 5):
        assert_unchanged_after(
            state, diabolo.PlayerError, lambda: state.apply("reveal", player=seat), match="player must be a seat 0..1"
        )


# ---------------------------------------------------------------- given deals


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        (CARDS[:-1], "a deal holds every card of the deck once: 13 cards, got 12"),
        (CARDS + ["X"], "a deal holds every card of the deck once: 13 cards, got 14"),
        ([], "13 cards, got 0"),
        (CARDS * 10, "13 cards, got"),
        (CARDS[:-1] + ["T"], "1 x 'T', got 2"),
        (["T"] * 13, "a deal holds every card of the deck once"),
        (CARDS[:-1] + ["B"], "the deck has no card 'B'"),
        (CARDS[:-1] + ["EI"], "the deck has no card 'EI'"),
        (CARDS[:-1] + ["Ä"], "not a card"),
        (CARDS[:-1] + ["ABC"], "not a card: 'ABC'"),
        (CARDS[:-1] + ["???"], "not a card: '???'"),
        (CARDS[:-1] + ["x"], "not a card: 'x'"),
        (CARDS[:-1] + ["X "], "not a card"),
        (CARDS[:-1] + [""], "not a card: ''"),
        (CARDS[:-1] + ["\ud800"], "unpaired surrogate"),
        (CARDS[:-1] + [None], "must be a str"),
        (CARDS[:-1] + [13], "must be a str"),
        (CARDS[:-1] + [["X"]], "must be a str"),
        ("".join(CARDS), "must be a list of the deck's 13 cards in reveal order"),
        (DECK, "must be a list of the deck's 13 cards in reveal order"),
        (42, "must be a list of the deck's 13 cards"),
    ],
)
def test_bad_given_deal(bad: Any, fragment: str) -> None:
    """K10.7: a given deal is every card of the deck once, in notation."""
    g = game()
    with pytest.raises(diabolo.StateFormatError, match=re.escape(fragment)):
        g.new_state(seed=1, deck=bad)
    with pytest.raises(diabolo.StateFormatError, match=re.escape(fragment)):
        g.new_state(seed=1, decks=[CARDS, bad])


@pytest.mark.parametrize(
    ("decks", "fragment"),
    [
        ("abc", "decks must be a list of deals"),
        (5, "decks must be a list of deals"),
        ([CARDS, 5], "decks[1] must be a list"),
        ([CARDS, "TOR"], "decks[1] must be a list"),
        ([CARDS, CARDS[:3]], "decks[1]: a deal holds every card of the deck once"),
        ([CARDS] * 65, "decks: at most 64 rounds"),
    ],
)
def test_bad_decks_argument(decks: Any, fragment: str) -> None:
    """K10.7: decks is one deal per round, at most 64."""
    with pytest.raises(diabolo.StateFormatError, match=re.escape(fragment)):
        game().new_state(seed=1, decks=decks)


def test_deck_and_decks_together() -> None:
    with pytest.raises(diabolo.StateFormatError, match="not both"):
        game().new_state(seed=1, deck=CARDS, decks=[CARDS])


def test_a_none_deal_is_shuffled_from_the_seed() -> None:
    """K10.7: decks[r] = None leaves round r to the seed's shuffle."""
    decks: Any = [None, CARDS]  # (typed loosely: older stubs list only deals)
    state = game().new_state(seed=1, decks=decks)
    assert json.loads(state.to_json())["deck"] == json.loads(game().new_state(seed=1).to_json())["deck"]
    assert json.loads(state.to_json())["deals"] == [None, CARDS]


def test_given_deals_as_tuples_are_fine() -> None:
    first = game().new_state(seed=1, deck=tuple(CARDS))
    second = game().new_state(seed=1, decks=(tuple(CARDS), tuple(reversed(CARDS))))
    assert json.loads(first.to_json())["deck"] == CARDS
    assert json.loads(second.to_json())["deals"] == [CARDS, list(reversed(CARDS))]


# ---------------------------------------------------------------- state JSON


def base_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(penalty_position().to_json())
    return data


def load(data: Any, g: KniziaGame | None = None) -> KniziaState:
    text = data if isinstance(data, str) else json.dumps(data)
    return (g or game()).state_from_json(text)


def test_state_json_round_trip_is_the_baseline() -> None:
    for state in positions():
        g = state.game
        again = g.state_from_json(state.to_json())
        assert again == state and again.to_json() == state.to_json()
        assert again.history == state.history


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not valid JSON"),
        ("not json", "not valid JSON"),
        ("{", "not valid JSON"),
        ("\x00", "not valid JSON"),
        ("[" * 100000 + "]" * 100000, "state JSON"),
        ("{'format': 1}", "not valid JSON"),
        ("[]", "expected an object"),
        ("null", "expected an object"),
        ("1", "expected an object"),
        ('"text"', "expected an object"),
        ("NaN", "expected an object"),
        ("{}", "missing key 'format'"),
        ('{"format": "diabolo.knizia/1"}', "missing key 'options'"),
    ],
)
def test_state_json_not_a_state(text: str, fragment: str) -> None:
    with pytest.raises(diabolo.StateFormatError, match=re.escape(fragment)):
        game().state_from_json(text)


@pytest.mark.parametrize("text", ["\ud800", '{"format": "\udc00"}'])
def test_lone_surrogates_in_state_json(text: str) -> None:
    with pytest.raises(diabolo.StateFormatError, match="unpaired surrogate"):
        game().state_from_json(text)


@pytest.mark.parametrize("key", list(base_data()))
def test_state_json_missing_key(key: str) -> None:
    data = base_data()
    del data[key]
    with pytest.raises(diabolo.StateFormatError, match=f"missing key '{key}'"):
        load(data)


@pytest.mark.parametrize(
    ("path", "key"),
    [
        (("piles", 0), "taken"),
        (("piles", 2), "drawn"),
        (("last_call",), "seat"),
        (("last_call",), "word"),
        (("last_call",), "valid"),
        (("last_call",), "reason"),
    ],
)
def test_state_json_missing_inner_key(path: tuple[Any, ...], key: str) -> None:
    data = base_data()
    inner: Any = data
    for part in path:
        inner = inner[part]
    del inner[key]
    with pytest.raises(diabolo.StateFormatError, match=f"missing key '{key}'"):
        load(data)


@pytest.mark.parametrize(
    "g",
    [
        pytest.param(lambda: game(players=2), id="players"),
        pytest.param(lambda: game(min_cards=4), id="min_cards"),
        pytest.param(lambda: game(rounds=2), id="rounds"),
        pytest.param(lambda: game(variant="victory_tiles"), id="variant"),
        pytest.param(lambda: game(handicap=3), id="handicap"),
        pytest.param(lambda: game(stale_calls="reject"), id="stale_calls"),
        pytest.param(lambda: diabolo.load("knizia", players=3, lexicon=LEXICON, deck={**DECK, "X": 2}), id="deck"),
        pytest.param(
            lambda: diabolo.load("knizia", players=3, lexicon=LEXICON, deck=Deck(DECK, "de")), id="deck-language"
        ),
        pytest.param(
            lambda: diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(WORDS[:-1]), deck=DECK), id="lexicon"
        ),
        pytest.param(
            lambda: diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(WORDS[:-1] + ["Tag"]), deck=DECK),
            id="lexicon-of-the-same-size",
        ),
    ],
)
def test_state_json_of_another_game(g: Callable[[], KniziaGame]) -> None:
    """A state is read only by a game with its options."""
    with pytest.raises(diabolo.StateFormatError, match="its options differ from this game's"):
        g().state_from_json(penalty_position().to_json())


def test_state_json_of_another_game_kind() -> None:
    duvelen = diabolo.load("duvelen", players=3).new_state(seed=1).to_json()
    with pytest.raises(diabolo.StateFormatError, match="format: expected 'diabolo.knizia/1'"):
        game().state_from_json(duvelen)
    with pytest.raises(diabolo.StateFormatError, match="format"):
        diabolo.load("duvelen", players=3).state_from_json(penalty_position().to_json())


WRONG_VALUES: list[tuple[str, Any, str]] = [
    ("format", 1, "format: expected a string"),
    ("format", None, "format: expected a string"),
    ("format", "diabolo.knizia/2", "format: expected 'diabolo.knizia/1'"),
    ("format", "diabolo.duvelen/1", "format: expected 'diabolo.knizia/1'"),
    ("options", None, "its options differ"),
    ("options", [], "its options differ"),
    ("options", {}, "its options differ"),
    ("seed", "1", "seed must be an int"),
    ("seed", -1, "seed must be an int"),
    ("seed", 2**64, "seed must be an int"),
    ("seed", 1.5, "seed must be an int"),
    ("seed", None, "seed must be an int"),
    ("seed", True, "seed must be an int"),
    ("round", -1, "round: expected an integer in 0..63"),
    ("round", 64, "round: expected an integer in 0..63"),
    ("round", 6, "impossible state: round out of range"),
    ("round", "0", "round: expected an integer"),
    ("round", 0.0, "round: expected an integer"),
    ("round", True, "round: expected an integer"),
    ("round", None, "round: expected an integer"),
    ("phase", "Play", "phase: expected 'play', 'penalty' or 'game_over'"),
    ("phase", "over", "phase: expected 'play', 'penalty' or 'game_over'"),
    ("phase", 0, "phase: expected a string"),
    ("phase", None, "phase: expected a string"),
    ("phase", "play", "the phase does not match the penalty"),
    ("phase", "game_over", "the phase does not match the penalty"),
    ("deck", None, "deck: expected a list"),
    ("deck", "ERP", "deck: expected a list"),
    ("deck", ["B", "R", "P", "ST", "?", "??", "X", "E"], "deck[0]: the deck has no card 'B'"),
    (
        "deck",
        ["G", "E", "R", "P", "ST", "?", "??", "X", "A"],
        "the deck, table and piles hold 2 'A' cards, the deck has 1",
    ),
    ("deck", ["G", "E", "R", "P", "ST", "?", "??"], "hold 0 'X' cards, the deck has 1"),
    ("deck", ["Ä"], "deck[0]: not a card"),
    ("deck", [1], "deck[0]: expected a string"),
    ("deck", CARDS * 10, "deck: more cards than the deck has"),
    ("table", None, "table: expected a list"),
    ("table", {}, "table: expected a list"),
    ("table", ["T", "O", "R", "L"], "hold 0 'A' cards, the deck has 1"),
    ("table", ["T", "O", "R", "L", "A", "A"], "hold 2 'A' cards"),
    ("table", ["T", "O", "R", "L", "EI"], "table[4]: the deck has no card 'EI'"),
    ("table", ["T", "O", "R", "L", "ABC"], "table[4]: not a card: 'ABC'"),
    ("table", [None], "table[0]: expected a string"),
    ("table", [], "impossible state"),
    ("piles", None, "piles: expected a list"),
    ("piles", [], "piles: expected one entry per seat"),
    ("piles", [{"taken": [], "drawn": []}] * 4, "piles: expected one entry per seat"),
    ("piles", [{"taken": "T", "drawn": []}] * 3, "piles[0].taken: expected a list"),
    (
        "piles",
        [{"taken": ["A"], "drawn": []}, {"taken": [], "drawn": []}, {"taken": [], "drawn": []}],
        "hold 2 'A' cards",
    ),
    (
        "piles",
        [{"taken": [], "drawn": ["B"]}, {"taken": [], "drawn": []}, {"taken": [], "drawn": []}],
        "the deck has no card 'B'",
    ),
    ("passed", None, "passed: expected a list"),
    ("passed", [True, False], "passed: expected one entry per seat"),
    ("passed", [1, 0, 0], "passed[0]: expected true or false"),
    ("passed", ["yes", False, False], "passed[0]: expected true or false"),
    ("penalty", None, "penalty: expected a list"),
    ("penalty", [2, 0, 1], "penalty: at most one entry per other seat"),
    ("penalty", [3, 0], "penalty[0]: expected an integer in 0..2"),
    ("penalty", [-1, 0], "penalty[0]: expected an integer in 0..2"),
    ("penalty", ["2", 0], "penalty[0]: expected an integer"),
    ("penalty", [], "the phase does not match the penalty"),
    ("last_call", 1, "last_call: expected an object"),
    ("last_call", [], "last_call: expected an object"),
    ("last_call", {}, "missing key 'seat' in last_call"),
    (
        "last_call",
        {"seat": 3, "word": "XYZ", "valid": False, "reason": "not a word"},
        "last_call.seat: expected an integer in 0..2",
    ),
    (
        "last_call",
        {"seat": 1, "word": "", "valid": False, "reason": "not a word"},
        "last_call.word: a called word has 1..64 letters",
    ),
    (
        "last_call",
        {"seat": 1, "word": "A" * 65, "valid": False, "reason": "not a word"},
        "a called word has 1..64 letters, got 65",
    ),
    ("last_call", {"seat": 1, "word": "xyz", "valid": False, "reason": "not a word"}, "written with letters A-Z"),
    (
        "last_call",
        {"seat": 1, "word": "XYZ", "valid": "no", "reason": "not a word"},
        "last_call.valid: expected true or false",
    ),
    ("last_call", {"seat": 1, "word": "XYZ", "valid": False, "reason": None}, "last_call.reason: expected a string"),
    (
        "last_call",
        {"seat": 1, "word": "XYZ", "valid": False, "reason": "Not a word"},
        "expected one of the reasons of K10.8",
    ),
    ("last_call", {"seat": 1, "word": "XYZ", "valid": False, "reason": ""}, "expected one of the reasons of K10.8"),
    ("last_call", {"seat": 1, "word": "TOR", "valid": True, "reason": "not a word"}, "a valid call has no reason"),
    ("scores", None, "scores: expected a list"),
    ("scores", [0, 0], "scores: expected one entry per seat"),
    ("scores", [0, 0, 0, 0], "scores: expected one entry per seat"),
    ("scores", [-1, 0, 0], "scores[0]: expected an integer in 0..100000"),
    ("scores", [100001, 0, 0], "scores[0]: expected an integer in 0..100000"),
    ("scores", [0.5, 0, 0], "scores[0]: expected an integer"),
    ("scores", [True, 0, 0], "scores[0]: expected an integer"),
    ("deals", None, "deals: expected a list"),
    ("deals", [["T"]], "deals[0]: a deal holds every card of the deck once"),
    ("deals", [CARDS[:-1] + ["B"]], "deals[0][12]: the deck has no card 'B'"),
    ("deals", [CARDS[:-1] + ["T"]], "deals[0]: a deal holds every card of the deck once: 1 x 'T', got 2"),
    ("deals", [CARDS] * 65, "deals: too many deals"),
    ("history", None, "history: expected a list"),
    ("history", "0:reveal", "history: expected a list"),
    ("history", [1], "history[0]: expected a string"),
    ("history", [None], "history[0]: expected a string"),
    ("history", ["reveal"], "history[0]: expected 'seat:move'"),
    ("history", ["3:reveal"], "history[0]: expected 'seat:move'"),
    ("history", ["-1:reveal"], "history[0]: expected 'seat:move'"),
    ("history", ["10:reveal"], "history[0]: expected 'seat:move'"),
    ("history", ["0-reveal"], "history[0]: expected 'seat:move'"),
    ("history", ["0:"], "history[0]: not a move"),
    ("history", ["0:LAG3R"], "history[0]: not a move: 'LAG3R'"),
    ("history", ["0:take@x"], "history[0]: not a move: 'take@x'"),
    ("history", ["0:POST@1,1,2"], "history[0]: a call names table position 1 twice"),
]


@pytest.mark.parametrize(("key", "value", "fragment"), WRONG_VALUES)
def test_state_json_wrong_value(key: str, value: Any, fragment: str) -> None:
    """A value of the wrong type, out of range, or breaking an invariant (cards the deck
    lacks, card counts that do not add up, a phase without its penalty)."""
    data = base_data()
    data[key] = value
    with pytest.raises(diabolo.StateFormatError, match=re.escape(fragment)):
        load(data)


def test_state_json_values_that_are_fine() -> None:
    """The baseline with values that are allowed: no deals, no history, no last call."""
    for key, value in (("deals", []), ("history", []), ("last_call", None), ("passed", [True, True, False])):
        data = base_data()
        data[key] = value
        state = load(data)
        assert json.loads(state.to_json())[key] == value


def test_state_json_card_moved_between_places() -> None:
    """K5.1: a card moved from the deck to a pile still adds up; one copied does not."""
    data = base_data()
    data["piles"][1]["drawn"].append(data["deck"].pop())
    state = load(data)
    assert state.piles == [0, 1, 0]
    data = base_data()
    data["piles"][1]["drawn"].append(data["deck"][-1])
    with pytest.raises(diabolo.StateFormatError, match="the deck, table and piles hold 2 'X' cards, the deck has 1"):
        load(data)


# ---------------------------------------------------------------- pickling and copies


def test_pickle_round_trip() -> None:
    """Games, states (every phase), moves, decks and lexicons survive pickling."""
    for state in positions():
        again = pickle.loads(pickle.dumps(state))
        assert again == state and again.to_json() == state.to_json() and again.game == state.game
        assert again.history == state.history
        for seat in range(3):
            assert again.legal_moves(seat) == state.legal_moves(seat)
            assert again.observation(seat) == state.observation(seat)
    g = game(variant="victory_tiles", handicap=4, min_cards=4, stale_calls="reject")
    again_game = pickle.loads(pickle.dumps(g))
    assert again_game == g and again_game.options["handicap"] == 4
    assert len(again_game.lexicon) == len(LEXICON) and again_game.deck == g.deck
    for text in ("reveal", "pass", "take@5", "LAGER", "POST@3,7,9"):
        move = KniziaMove.parse(text)
        assert pickle.loads(pickle.dumps(move)) == move
    deck = Deck(DECK, "xx")
    assert pickle.loads(pickle.dumps(deck)) == deck
    assert pickle.loads(pickle.dumps(LEXICON)).to_bytes() == LEXICON.to_bytes()


def test_copies_are_independent() -> None:
    state = penalty_position()
    before = state.to_json()
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        twin.apply("take@0", player=2)
        assert twin.penalty == [0]
        assert state.to_json() == before


def test_bad_pickled_state() -> None:
    """A pickled state is (game, JSON); anything else raises StateFormatError."""
    state = penalty_position()
    game_part, text = getattr(state, "__getstate__")()  # noqa: B009 (pickle's hook, not in the stubs)
    assert game_part == state.game and text == state.to_json()
    bad_states: list[tuple[Any, ...]] = [
        ("not", "a", "state"),
        (game_part, "{}"),
        (game_part, text.replace('"penalty"', '"Penalty"')),
    ]
    for bad in bad_states:
        fresh = KniziaState.__new__(KniziaState)
        with pytest.raises(diabolo.StateFormatError, match="pickled KniziaState|state JSON"):
            getattr(fresh, "__setstate__")(bad)  # noqa: B009


# ---------------------------------------------------------------- hypothesis: reachable states

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "stale_calls": "reject"},
    {"players": 4, "variant": "victory_tiles", "handicap": 2},
    {"players": 3, "min_cards": 4, "rounds": 2},
]


def options_game(index: int) -> KniziaGame:
    return game(**OPTION_SETS[index])


@lru_cache(maxsize=1)
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of positions met in seeded random play, with invalid calls mixed in: every
    phase, several option sets."""
    found: list[tuple[int, str]] = []
    for index in range(len(OPTION_SETS)):
        g = options_game(index)
        n = g.players
        for seed in range(2):
            rng = random.Random(seed * 10 + index)
            state = g.new_state(seed=seed)
            for step in range(400):
                if step % 7 == 0 or state.phase != "play" or state.is_terminal:
                    found.append((index, state.to_json()))
                if state.is_terminal:
                    break
                options = [(m, seat) for seat in range(n) for m in state.legal_moves(seat)]
                reveals = [(m, seat) for m, seat in options if m.kind == "reveal"]
                if state.phase == "play" and rng.random() < 0.15 and g.stale_calls == "penalty":
                    state.apply(rng.choice(["XYZ", "LAGER", "TOR@0,1,2", "STOP"]), player=rng.randrange(n))
                elif reveals and rng.random() < 0.5:
                    state.apply(reveals[0][0], player=reveals[0][1])
                else:
                    move, seat = rng.choice(options)
                    state.apply(move, player=seat)
    return tuple(found)


def state_at(index: int) -> KniziaState:
    states = reachable_states()
    options_index, text = states[index % len(states)]
    return options_game(options_index).state_from_json(text)


def test_reachable_states_cover_every_phase() -> None:
    phases = {json.loads(text)["phase"] for _, text in reachable_states()}
    assert phases == {"play", "penalty", "game_over"}
    assert {index for index, _ in reachable_states()} == set(range(len(OPTION_SETS)))


def card_total(state: KniziaState) -> int:
    data = json.loads(state.to_json())
    return len(data["deck"]) + len(data["table"]) + sum(len(p["taken"]) + len(p["drawn"]) for p in data["piles"])


# ---------------------------------------------------------------- hypothesis: moves

NEAR_NOTATION = st.builds(
    lambda head, tail: head + tail,
    st.sampled_from(
        [
            "",
            "reveal",
            "pass",
            "take@",
            "take@0",
            "TOR",
            "tor",
            "LAGER@",
            "POST@3,7,9",
            "Straße",
            "ROT@2,1,0",
            " ",
            "@",
            "A" * 64,
        ]
    ),
    st.text(alphabet="0123456789,@ ?AERTOLGSXß\x00é\ud800\t", max_size=8),
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.one_of(st.text(max_size=24), NEAR_NOTATION))
def test_fuzz_apply_text(index: int, text: str) -> None:
    """Arbitrary text as seat 0's move: it applies (one more history entry), or raises a
    DiaboloError and leaves the state exactly as it was."""
    state = state_at(index)
    before = state.to_json()
    count = len(state.history)
    total = card_total(state)
    try:
        state.apply(text, player=0)
    except diabolo.DiaboloError as error:
        assert isinstance(error, (diabolo.NotationError, diabolo.IllegalMoveError)), repr(error)
        if isinstance(error, diabolo.IllegalMoveError):
            assert re.fullmatch(r"K\d+(\.\d+)?", error.clause)
        assert state.to_json() == before
        return
    assert len(state.history) == count + 1 and state.history[-1][0] == 0
    assert card_total(state) == total == state.game.deck_size


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0), st.integers(), st.one_of(st.none(), st.integers(min_value=-2, max_value=6), st.integers())
)
def test_fuzz_apply_ints(index: int, action: int, player: int | None) -> None:
    """Random ints as moves and seats: a legal move applies; anything else raises a
    DiaboloError (PlayerError without a seat) and leaves the state unchanged."""
    state = state_at(index)
    before = state.to_json()
    n = state.game.players
    seat = player if player is not None and 0 <= player < n else None
    legal = seat is not None and action in state.legal_actions(seat)
    try:
        state.apply(action, player=player)
    except diabolo.DiaboloError as error:
        assert not legal, f"legal move {action} by {seat} raised {error!r}"
        assert state.to_json() == before
        if seat is None:
            assert isinstance(error, diabolo.PlayerError)
        return
    # A call is always a move in penalty mode (K10.3), legal or not.
    assert legal or (action >= 130 and state.game.stale_calls == "penalty")
    assert seat is not None and state.history[-1][0] == seat


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.lists(st.tuples(st.integers(0, NUM_ACTIONS - 1), st.integers(0, 5)), max_size=30))
def test_fuzz_apply_sequences(index: int, steps: list[tuple[int, int]]) -> None:
    """Random action ids by random seats: legal ones (and calls in penalty mode) apply,
    the rest raise IllegalMoveError and change nothing; no card is ever lost."""
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
        assert legal or (action >= 130 and state.game.stale_calls == "penalty")
        assert card_total(state) == state.game.deck_size
        for s in range(state.game.players):
            assert set(state.observation(s)) >= {"phase", "table", "penalty", "legal"}


# ---------------------------------------------------------------- hypothesis: JSON

JSON_VALUES = json_values(
    [
        "T",
        "O",
        "R",
        "ST",
        "?",
        "??",
        "EI",
        "play",
        "penalty",
        "game_over",
        "not a word",
        "0:reveal",
        "1:TOR@0,1,2",
        "2:take@0",
        "diabolo.knizia/1",
        "é",
    ]
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated_states(reachable_states, JSON_VALUES))
def test_fuzz_state_json_mutations(case: tuple[int, str]) -> None:
    """Mutations of real state JSON: StateFormatError, or a state that works, keeps every
    card of the deck in one place, and writes itself back exactly."""
    index, text = case
    g = options_game(index)
    try:
        state = g.state_from_json(text)
    except diabolo.StateFormatError:
        return
    again = g.state_from_json(state.to_json())
    assert again == state and again.to_json() == state.to_json()
    assert card_total(state) == g.deck_size
    n = g.players
    for seat in range(n):
        json.dumps(state.observation(seat))
        state.observation_tensor(seat)
        state.resample(seat, 1)
    str(state)
    for seat in range(n):
        moves = state.legal_moves(seat)
        if state.is_terminal:
            assert moves == []
            continue
        for move in moves[:1] + moves[-1:]:
            before = state.to_json()
            twin = state.clone()
            twin.apply(move, player=seat)
            assert state.to_json() == before


@given(st.text(max_size=40))
def test_fuzz_state_json_random_text(text: str) -> None:
    with pytest.raises(diabolo.StateFormatError, match="state JSON"):
        game().state_from_json(text)


@given(st.lists(st.sampled_from(sorted(set(CARDS)) + ["EI", "B", "Ä", "", "t", "??? ", "TOR"]), max_size=16))
def test_fuzz_given_deal(cards: list[str]) -> None:
    """K10.7: random card lists as a deal: StateFormatError unless exactly the deck."""
    try:
        state = game().new_state(seed=1, decks=[CARDS, cards])
    except diabolo.StateFormatError:
        assert Counter(cards) != Counter(CARDS)
        return
    assert Counter(cards) == Counter(CARDS)
    assert json.loads(state.to_json())["deals"][1] == cards


@given(st.permutations(CARDS))
def test_fuzz_given_permutations(cards: list[str]) -> None:
    """K10.7: any order of the deck's cards is a deal, revealed in that order."""
    state = game(players=2).new_state(seed=1, deck=cards)
    assert json.loads(state.to_json())["deck"] == list(cards)
    state.apply("reveal", player=0)
    assert state.table == [cards[0]]
