"""Bad input to Diabolo (Knizia) that only Knizia has: every wrong call raises a specific
DiaboloError and changes nothing. Spec: docs/games/knizia.rst (K1-K10) and the error
contract of docs/interface.rst, "Errors".

- illegal moves raise IllegalMoveError naming the clause broken; the state is unchanged,
- the limits of the notation, bad tables and words for check_word and find_words, bad
  decks,
- state JSON of another configuration or breaking Knizia's invariants, and bad pickles,
  raise StateFormatError,
- hypothesis throws random text as moves and random deals at the engine.

Knizia's bad notation, options, seats, deals and state JSON are samples
(tests/contract/samples/knizia.py) that the contract's checks run over
(tests/contract/test_bad_input.py), with every other game's.

A call of any word is a move (K10.3): in the default ``stale_calls='penalty'`` mode it
never raises, so the rejections of invalid calls are tested with ``'reject'``.
"""

from __future__ import annotations

import copy
import json
import pickle
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon
from diabolo.knizia import Deck, KniziaGame, KniziaMove, KniziaState, check_word, find_words
from tests.bad_input_helpers import assert_illegal, assert_unchanged_after
from tests.contract.samples.knizia import (
    CARDS,
    DECK,
    LEXICON,
    NEAR_NOTATION,
    NUM_ACTIONS,
    WORDS,
    base_data,
    card_total,
    empty_deck_position,
    game,
    game_over_position,
    options_game,
    penalty_position,
    play_position,
    positions,
    reachable_states,
)

# ---------------------------------------------------------------- positions


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


# ---------------------------------------------------------------- notation


def test_notation_limits_accepted() -> None:
    """K7: the limits themselves are fine: 64 letters, position 127."""
    assert KniziaMove.parse("A" * 64).word == "A" * 64
    assert KniziaMove.parse("ß" * 32).word == "S" * 64
    assert KniziaMove.parse("POST@127,0,1,2").cards == (127, 0, 1, 2)
    assert KniziaMove.parse("take@127").position == 127
    state = play_position()
    state.apply("A" * 64, player=1)  # a call (not a word): the penalty
    assert state.last_call is not None and state.last_call["reason"] == "not a word"


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


# ---------------------------------------------------------------- decks


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


# ---------------------------------------------------------------- given deals


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


def load(data: Any, g: KniziaGame | None = None) -> KniziaState:
    text = data if isinstance(data, str) else json.dumps(data)
    return (g or game()).state_from_json(text)


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


# ---------------------------------------------------------------- hypothesis: moves


def state_at(index: int) -> KniziaState:
    states = reachable_states()
    options_index, text = states[index % len(states)]
    return options_game(options_index).state_from_json(text)


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


# ---------------------------------------------------------------- hypothesis: given deals


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
