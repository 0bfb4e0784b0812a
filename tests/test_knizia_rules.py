"""Rule tests of Diabolo (Knizia), one or a few per clause of docs/games/knizia.rst (K1-K10).

Each test names its clause and says (in our words) what the clause asks in its docstring.
Positions are built from a given deal (``new_state(deck=...)`` or ``decks=...``, K10.7)
with a small test deck and lexicon, and always driven through the public API:
``apply(move, player=p)`` in arrival order, as a real-time game is fed. Seat 0 deals
round 0 (K10.1), so a helper's reveals are seat 0's.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import diabolo
from diabolo import Lexicon
from diabolo.knizia import Deck, KniziaGame, KniziaMove, KniziaState, RandomBot, WordBot, check_word, find_words

# The rulebook's words (HANG, LAGER, STOP, POST) and a few more, as a German player
# would write them: K2 normalises them (STRASSE, AERGER, CAFE).
WORDS = [
    "Hang",
    "Lager",
    "Regal",
    "Stop",
    "Post",
    "Tops",
    "Tor",
    "Rot",
    "Reis",
    "Eis",
    "Sie",
    "On",
    "Pass",
    "Straße",
    "Ärger",
    "Café",
]
LEXICON = Lexicon.from_words(WORDS)
NORMALISED = sorted(
    {
        "HANG",
        "LAGER",
        "REGAL",
        "STOP",
        "POST",
        "TOPS",
        "TOR",
        "ROT",
        "REIS",
        "EIS",
        "SIE",
        "ON",
        "PASS",
        "STRASSE",
        "AERGER",
        "CAFE",
    }
)
OBSERVATION_KEYS = {
    "player",
    "round",
    "rounds",
    "dealer",
    "phase",
    "table",
    "deck_count",
    "piles",
    "scores",
    "last_call",
    "penalty",
    "passed",
    "legal",
    "legal_moves",
}
REASONS = ("not a word", "too few cards", "letters missing", "double letter split or reversed")


def game(cards: Sequence[str] = ("Z",), players: int = 2, **options: Any) -> KniziaGame:
    """A game with the test lexicon whose deck is exactly ``cards`` (K10.7)."""
    return diabolo.load("knizia", players=players, lexicon=LEXICON, deck=dict(Counter(cards)), **options)


def deal(cards: Sequence[str], players: int = 2, **options: Any) -> KniziaState:
    """Round 0 dealt from ``cards`` in reveal order (K10.7)."""
    return game(cards, players, **options).new_state(deck=list(cards))


def reveal(state: KniziaState, count: int) -> None:
    """The dealer reveals ``count`` cards (K3.1)."""
    for _ in range(count):
        state.apply("reveal", player=state.dealer)


def on_table(table: Sequence[str], rest: Sequence[str] = ("Z",), players: int = 2, **options: Any) -> KniziaState:
    """Round 0 with ``table`` revealed by seat 0 and ``rest`` still in the deck."""
    state = deal([*table, *rest], players, **options)
    reveal(state, len(table))
    assert state.table == list(table) and state.round == 0
    return state


def texts(state: KniziaState, player: int) -> list[str]:
    return [str(move) for move in state.legal_moves(player)]


def data(state: KniziaState) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(state.to_json())
    return loaded


def phase_of(state: KniziaState) -> str:
    """The phase as a plain str (a later check is not narrowed by an earlier one)."""
    return state.phase


def history(state: KniziaState) -> list[str]:
    return [f"{seat}:{move}" for seat, move in state.history]


def assert_illegal(state: KniziaState, move: KniziaMove | int | str, player: int, clause: str, fragment: str) -> None:
    """``move`` by ``player`` raises IllegalMoveError naming ``clause`` and changes nothing."""
    before = state.to_json()
    with pytest.raises(diabolo.IllegalMoveError, match=fragment) as error:
        state.apply(move, player=player)
    assert error.value.clause == clause, str(error.value)
    assert str(error.value).startswith(clause + ":")
    assert state.to_json() == before


def reason_of(word: str, table: Sequence[str], min_cards: int = 3) -> str:
    with pytest.raises(diabolo.InvalidWordError) as error:
        check_word(word, table, LEXICON, min_cards)
    assert error.value.reason in REASONS
    assert error.value.reason in str(error.value)
    return error.value.reason


def call_reason(word: str, table: Sequence[str], players: int = 2, **options: Any) -> str:
    """The reason a call of ``word`` on ``table`` is invalid, as the game records it (K10.8)."""
    state = on_table(table, rest=("Z", "Z"), players=players, **options)
    state.apply(word, player=1)
    call = state.last_call
    assert call is not None and call["seat"] == 1 and call["valid"] is False
    assert state.phase == "penalty" and state.piles[1] == 0
    reason: str = call["reason"]
    return reason


def claimed(word: str, table: Sequence[str], **options: Any) -> tuple[int, ...]:
    """The table positions a valid call of ``word`` by seat 1 takes (K3.4)."""
    state = on_table(table, rest=("Z", "Z"), **options)
    state.apply(word, player=1)
    call = state.last_call
    assert call is not None and call["valid"] is True, call
    move = state.history[-1][1]
    assert move.cards is not None
    assert state.piles == [0, len(move.cards)]
    assert state.table == [card for i, card in enumerate(table) if i not in move.cards]
    return move.cards


# ---------------------------------------------------------------------------- K1


def test_K1_1_two_to_six_players() -> None:
    """K1.1: 2 to 6 players; other counts are refused."""
    for players in range(2, 7):
        state = game(players=players).new_state()
        assert state.game.players == players
        obs = state.observation(players - 1)
        assert obs["piles"] == [0] * players and obs["scores"] == [0] * players and obs["passed"] == [False] * players
    for players in (0, 1, 7, 8):
        with pytest.raises(diabolo.OptionError, match="players must be 2..6"):
            game(players=players)


def test_K1_2_the_german_deck_has_66_cards_6_of_them_jokers() -> None:
    """K1.2, K10.7: the default deck has 66 cards: letters, double letters (EI, ST, CH),
    4 jokers and 2 double jokers."""
    deck = Deck.load("de")
    assert deck.size == 66 and deck.language == "de"
    assert deck.cards["?"] == 4 and deck.cards["??"] == 2
    assert {"EI", "ST", "CH"} <= {card for card in deck.cards if len(card) == 2 and card.isalpha()}
    default = diabolo.load("knizia", players=4, lexicon=LEXICON)
    assert default.deck == deck and default.deck_size == 66
    state = default.new_state(seed=3)
    assert state.observation(0)["deck_count"] == 66
    assert Counter(data(state)["deck"]) == Counter(dict(deck.cards))


def test_K1_3_the_deck_is_data(tmp_path: Path) -> None:
    """K1.3, K10.7: the deck is an input: a Deck, a dict of counts, a packaged language or
    a deck file; the game deals exactly those cards."""
    path = tmp_path / "mini.json"
    path.write_text('{"language": "xx", "cards": {"A": 2, "ST": 1, "?": 1}}', encoding="utf-8")
    from_file = Deck.from_file(path)
    assert from_file == Deck({"A": 2, "ST": 1, "?": 1}, "xx") and from_file.size == 4
    for deck in (from_file, {"A": 2, "ST": 1, "?": 1}):
        g = diabolo.load("knizia", players=2, lexicon=LEXICON, deck=deck)
        assert g.deck_size == 4 and dict(g.deck.cards) == {"A": 2, "ST": 1, "?": 1}
        state = g.new_state(seed=9)
        assert sorted(data(state)["deck"]) == ["?", "A", "A", "ST"]
    assert diabolo.load("knizia", lexicon=LEXICON, deck="en").deck == Deck.load("en")
    assert Deck.from_json(from_file.to_json()) == from_file


def test_K1_4_words_are_checked_against_the_lexicon_given() -> None:
    """K1.4: the lexicon is an input: the same table offers the words of the lexicon
    the game was made with, and German is the default language."""
    cards = ["T", "O", "R", "Z"]
    state = on_table(cards[:3])
    assert texts(state, 1) == ["ROT", "TOR", "pass"]
    other = diabolo.load("knizia", players=2, lexicon=Lexicon.from_words(["Ort"]), deck=dict(Counter(cards)))
    state = other.new_state(deck=cards)
    reveal(state, 3)
    assert texts(state, 1) == ["ORT", "pass"]
    german = diabolo.load("knizia", players=2)
    assert german.lexicon.language == "de" and german.deck.language == "de"
    assert "LAGER" in german.lexicon and "Straße" in german.lexicon


def test_K1_4_the_options_a_state_writes_make_its_game_again() -> None:
    """K1.4, K10.7: the options of a state's JSON (what a record keeps) load the same game
    when they name the packaged word list of their language; another list is refused by
    name (a fingerprint that differs, or no language), and so is a deck that is no deck."""
    game = diabolo.load("knizia", players=3, deck={"A": 2, "ST": 1, "?": 3}, min_cards=4)
    options = json.loads(game.new_state(seed=1).to_json())["options"]
    again = diabolo.load("knizia", **options)
    assert again == game and again.deck == game.deck and again.min_cards == 4
    assert again.new_state(seed=1).to_json() == game.new_state(seed=1).to_json()
    other = {**options, "lexicon": {**options["lexicon"], "fingerprint": "0" * 16}}
    with pytest.raises(diabolo.OptionError, match="another lexicon"):
        diabolo.load("knizia", **other)
    custom = json.loads(diabolo.load("knizia", lexicon=LEXICON).new_state(seed=1).to_json())["options"]
    with pytest.raises(diabolo.OptionError, match="not a packaged one"):
        diabolo.load("knizia", **custom)
    with pytest.raises(diabolo.OptionError, match="count of 'A'"):
        diabolo.load("knizia", **{**options, "deck": {"language": "de", "cards": {"A": "two"}}})


# ---------------------------------------------------------------------------- K2


def test_K2_1_words_compare_in_upper_case_with_umlauts_spelled_out() -> None:
    """K2.1: words compare in A-Z: lower case, Ä->AE, Ö->OE, Ü->UE, ß->SS; so "ärger" is
    AERGER and "Straße" is STRASSE, both in the lexicon and in calls."""
    assert len(LEXICON) == len(NORMALISED)
    for word in ("STRASSE", "Straße", "strasse", "AERGER", "Ärger", "ärger", "lager"):
        assert word in LEXICON
    assert "ARGER" not in LEXICON and "STRAE" not in LEXICON
    state = on_table(["A", "E", "R", "G", "E", "R"])
    state.apply("ärger", player=1)
    assert state.last_call == {"seat": 1, "word": "AERGER", "valid": True, "reason": None}
    assert state.piles == [0, 6]
    state = on_table(["S", "T", "R", "A", "S", "S", "E"])
    state.apply("Straße", player=0)
    assert state.last_call is not None and state.last_call["word"] == "STRASSE" and state.piles == [7, 0]


def test_K2_1_decomposed_umlauts_and_accents_are_letters_too() -> None:
    """K2.1, K10.8: an umlaut or accent written as a letter plus a combining mark (the
    Unicode decomposed form, as macOS and some word lists write it) is the same letter:
    "A\u0308rger" is ÄRGER, so AERGER; "Cafe\u0301" is CAFE; in a lexicon and in a call."""
    decomposed = Lexicon.from_words(["A\u0308rger", "Cafe\u0301"])
    assert len(decomposed) == 2 and "AERGER" in decomposed and "CAFE" in decomposed
    assert KniziaMove.parse("a\u0308rger").word == "AERGER"
    state = on_table(["C", "A", "F", "E"])
    state.apply("Cafe\u0301", player=1)
    assert state.last_call == {"seat": 1, "word": "CAFE", "valid": True, "reason": None}


def test_K2_2_abbreviations_are_not_words() -> None:
    """K2.2: entries that are not purely alphabetic after K2.1 are dropped from a lexicon;
    such text is not a word to call either."""
    lexicon = Lexicon.from_words(["U-Boot", "z.B.", "abc1", "Hang", "Hang Gang"])
    assert len(lexicon) == 1 and "HANG" in lexicon and "UBOOT" not in lexicon
    state = on_table(["U", "B", "O", "O", "T"])
    before = state.to_json()
    with pytest.raises(diabolo.NotationError, match="not a move"):
        state.apply("U-Boot", player=1)
    assert state.to_json() == before


# ---------------------------------------------------------------------------- K3.1, K3.2


def test_K3_1_the_dealer_reveals_one_card_at_a_time_into_a_line() -> None:
    """K3.1: only the dealer reveals; each reveal puts the deck's next card at the end of
    the table line; the dealer plays too."""
    state = deal(["H", "A", "N", "G", "Z"], players=3)
    assert state.dealer == 0 and state.table == [] and state.deck_count == 5
    assert texts(state, 0) == ["reveal", "pass"] and texts(state, 1) == ["pass"]
    for seat in (1, 2):
        assert_illegal(state, "reveal", seat, "K3.1", r"only the dealer \(seat 0\) reveals")
        assert_illegal(state, 0, seat, "K3.1", "only the dealer")
    for count, card in enumerate(["H", "A", "N", "G"], start=1):
        state.apply("reveal", player=0)
        assert state.table[-1] == card and len(state.table) == count and state.deck_count == 5 - count
    state.apply("HANG", player=0)  # the dealer calls words too
    assert state.piles == [4, 0, 0] and state.table == []


def test_K3_1_no_reveal_once_the_deck_is_used_up() -> None:
    """K3.1: the dealer reveals while cards remain; with the deck used up (and a word
    still on the table, so the round goes on) reveal is neither offered nor allowed."""
    state = on_table(["T", "O", "R"], rest=())
    assert state.deck_count == 0 and state.round == 0
    assert texts(state, 0) == ["ROT", "TOR", "pass"]
    assert_illegal(state, "reveal", 0, "K3.1", "the deck is used up")
    assert_illegal(state, "reveal", 1, "K3.1", "only the dealer")


def test_K3_2_everyone_plays_at_once() -> None:
    """K3.2, K10.2: there are no turns: current_player is SIMULTANEOUS, every seat has
    moves at any moment and any seat may call between two reveals."""
    state = deal(["T", "O", "R", "L", "A", "G", "E", "R", "Z"], players=4)
    assert state.current_player == diabolo.SIMULTANEOUS
    reveal(state, 3)
    for seat in range(4):
        assert "TOR" in texts(state, seat) and texts(state, seat)[-1] == "pass"
    state.apply("ROT", player=3)
    reveal(state, 5)
    state.apply("pass", player=1)
    state.apply("LAGER", player=2)
    assert state.current_player == diabolo.SIMULTANEOUS
    assert state.piles == [0, 0, 5, 3]
    assert history(state)[-3:] == ["0:reveal", "1:pass", "2:LAGER@0,1,2,3,4"]


# ---------------------------------------------------------------------------- K3.3


def test_K3_3_rulebook_examples() -> None:
    """K3.3: the rulebook's examples are valid claims: LAGER from L, A, G, E, R; HANG;
    STOP from the ST card, O and a joker; POST from P, T and a double joker."""
    assert claimed("LAGER", ["L", "A", "G", "E", "R"]) == (0, 1, 2, 3, 4)
    assert claimed("HANG", ["G", "N", "A", "H"]) == (3, 2, 1, 0)
    assert claimed("STOP", ["ST", "O", "?"]) == (0, 1, 2)
    assert claimed("POST", ["P", "T", "??"]) == (0, 2, 1)
    for word, table, cards in (
        ("STOP", ["ST", "O", "?"], 3),
        ("POST", ["P", "T", "??"], 3),
        ("HANG", ["H", "A", "N", "G"], 4),
    ):
        match = check_word(word, table, LEXICON)
        assert match.word == word and match.card_count == cards


def test_K3_3a_the_word_must_be_in_the_lexicon() -> None:
    """K3.3(a): a word the lexicon lacks is no claim, even when the cards spell it."""
    assert call_reason("GALER", ["L", "A", "G", "E", "R"]) == "not a word"
    assert reason_of("GALER", ["L", "A", "G", "E", "R"]) == "not a word"
    assert texts(on_table(["L", "A", "G", "E", "R"]), 1) == ["LAGER", "REGAL", "pass"]


def test_K3_3b_a_word_uses_at_least_three_cards() -> None:
    """K3.3(b): at least 3 cards: a two-letter word never counts, nor a three-letter word
    made of two cards (EI + S); three cards do (TOR, STOP from ST, O, ?)."""
    assert call_reason("ON", ["O", "N", "X"]) == "too few cards"
    assert call_reason("EIS", ["R", "EI", "S"]) == "too few cards"
    assert texts(on_table(["R", "EI", "S"]), 1) == ["REIS", "pass"]
    assert claimed("TOR", ["T", "O", "R"]) == (0, 1, 2)
    assert game().min_cards == 3


def test_K3_3b_the_childrens_variant_needs_four_cards() -> None:
    """K3.3(b): min_cards=4 (the children's variant): three-card words, even four-letter
    ones like STOP from ST, O, P, are too few cards; four cards are fine."""
    assert game(min_cards=4).min_cards == 4
    state = on_table(["ST", "O", "P", "T", "R"], min_cards=4)
    assert texts(state, 1) == ["pass"]
    assert call_reason("STOP", ["ST", "O", "P"], min_cards=4) == "too few cards"
    assert call_reason("TOR", ["T", "O", "R"], min_cards=4) == "too few cards"
    assert reason_of("STOP", ["ST", "O", "P"], min_cards=4) == "too few cards"
    state = on_table(["S", "T", "O", "P", "R"], min_cards=4)
    assert texts(state, 1) == ["POST", "STOP", "TOPS", "pass"]
    assert claimed("STOP", ["S", "T", "O", "P"], min_cards=4) == (0, 1, 2, 3)
    assert [m.word for m in find_words(["S", "T", "O", "P", "R"], LEXICON, min_cards=4)] == ["POST", "STOP", "TOPS"]


def test_K3_3c_each_card_once_in_any_order_not_all_needed() -> None:
    """K3.3(c): the cards may be used in any order, each card once, and a word need not
    use every table card."""
    assert claimed("REGAL", ["L", "A", "G", "E", "R"]) == (4, 3, 2, 1, 0)
    assert call_reason("PASS", ["P", "A", "S"]) == "letters missing"  # one S cannot be both
    assert claimed("PASS", ["S", "P", "A", "S"]) == (1, 2, 0, 3)
    state = on_table(["X", "L", "A", "G", "E", "R", "Y"])
    state.apply("LAGER", player=1)
    assert state.table == ["X", "Y"] and state.piles == [0, 5]
    assert call_reason("HANG", ["H", "A", "N"]) == "letters missing"


def test_K3_3d_a_double_letter_is_used_whole_in_printed_order() -> None:
    """K3.3(d): a double-letter card gives both its letters together, in printed order:
    EI makes REIS but never SIE (I, E) nor two letters apart; ST makes POST, not TOPS."""
    assert claimed("REIS", ["R", "EI", "S"]) == (0, 1, 2)
    assert call_reason("SIE", ["S", "EI", "X"]) == "double letter split or reversed"
    assert call_reason("REIS", ["R", "IE", "S"]) == "double letter split or reversed"
    assert claimed("POST", ["O", "P", "ST"]) == (1, 0, 2)
    assert call_reason("TOPS", ["O", "P", "ST"]) == "double letter split or reversed"
    assert texts(on_table(["O", "P", "ST"]), 1) == ["POST", "STOP", "pass"]  # no TOPS


def test_K3_3e_a_joker_stands_for_exactly_one_letter() -> None:
    """K3.3(e): a joker is one letter, any letter, never two: STOP from ST, O, ?; P, T, ?
    make no POST; a joker is not used where a plain card will do."""
    match = check_word("STOP", ["ST", "O", "?"], LEXICON)
    assert match.cards == (0, 1, 2) and match.jokers == 1
    assert claimed("TOR", ["?", "O", "R"]) == (0, 1, 2)
    assert call_reason("POST", ["P", "T", "?"]) == "letters missing"
    assert "POST" not in [m.word for m in find_words(["P", "T", "?"], LEXICON)]
    state = on_table(["S", "?", "T", "O", "P"])
    state.apply("STOP", player=1)
    assert state.table == ["?"]  # the plain S, T, O, P were taken, the joker stays


def test_K3_3f_a_double_joker_stands_for_two_consecutive_letters() -> None:
    """K3.3(f): a double joker is exactly two consecutive letters of the word: P, T, ??
    make POST; T, O, ?? make TOPS (?? = PS) but no TOR (?? is never one letter, and T
    with ?? for OR is two cards); O, T, ?? make no POST (P and S are not adjacent)."""
    match = check_word("POST", ["P", "T", "??"], LEXICON)
    assert match.cards == (0, 2, 1) and match.jokers == 1 and match.card_count == 3
    assert texts(on_table(["T", "O", "??"]), 1) == ["TOPS", "pass"]
    assert claimed("TOPS", ["T", "O", "??"]) == (0, 1, 2)
    assert call_reason("TOR", ["T", "O", "??"]) == "too few cards"
    assert call_reason("POST", ["O", "T", "??"]) == "letters missing"
    assert claimed("HANG", ["H", "??", "G"]) == (0, 1, 2)  # ?? = AN
    assert call_reason("HANG", ["H", "??"]) == "letters missing"  # ?? = AN, and no G


# ---------------------------------------------------------------------------- K3.4, K10.4


def test_K3_4_a_valid_call_takes_the_cards_into_the_callers_pile() -> None:
    """K3.4: the caller takes the cards used into their pile; the record names them."""
    state = on_table(["X", "L", "A", "G", "E", "R", "Q"], players=3)
    state.apply("pass", player=2)
    state.apply("lager", player=2)
    assert state.piles == [0, 0, 5] and state.table == ["X", "Q"]
    assert state.last_call == {"seat": 2, "word": "LAGER", "valid": True, "reason": None}
    assert history(state)[-1] == "2:LAGER@1,2,3,4,5"
    assert Counter(data(state)["piles"][2]["taken"]) == Counter("LAGER")
    assert state.phase == "play" and state.penalty == []


def test_K3_4_a_call_may_name_the_exact_cards() -> None:
    """K3.4, K7: a call may name its cards (positions in word order): POST@3,7,9 takes P,
    the double joker and the T at 3, 7 and 9, though the default would take four cards."""
    table = ["Z", "T", "A", "P", "S", "O", "T", "??", "R", "T"]
    assert check_word("POST", table, LEXICON).cards == (3, 5, 4, 1)
    state = on_table(table)
    state.apply("POST@3,7,9", player=1)
    assert state.last_call is not None and state.last_call["valid"]
    assert state.piles == [0, 3] and state.table == ["Z", "T", "A", "S", "O", "T", "R"]
    assert history(state)[-1] == "1:POST@3,7,9"
    state = on_table(["T", "O", "T", "R"])
    state.apply("TOR@2,1,3", player=0)
    assert state.table == ["T"] and state.piles == [3, 0]
    # The caller may even choose a joker where a plain card would do.
    state = on_table(["T", "O", "R", "?"])
    state.apply("TOR@0,1,3", player=1)
    assert state.table == ["R"] and state.history[-1][1].cards == (0, 1, 3)
    # Named cards that do not spell the word in that order: an invalid call (K3.5).
    state = on_table(["P", "O", "ST", "X"])
    state.apply("POST@1,0,2", player=1)
    assert state.last_call == {"seat": 1, "word": "POST", "valid": False, "reason": "letters missing"}
    assert state.phase == "penalty"


def test_K10_4_best_assignment_most_cards_first() -> None:
    """K10.4: the default assignment takes the most cards: P, O, ? (as S), T (four cards,
    one joker) beats P, O, ST (three plain cards)."""
    match = check_word("POST", ["P", "ST", "O", "?", "T"], LEXICON)
    assert match.cards == (0, 2, 3, 4) and match.card_count == 4 and match.jokers == 1
    state = on_table(["P", "ST", "O", "?", "T"])
    state.apply("POST", player=0)
    assert state.table == ["ST"] and state.piles == [4, 0]
    # A double letter is one card: its two letters as plain cards take more.
    assert check_word("STOP", ["S", "T", "ST", "O", "P"], LEXICON).cards == (0, 1, 3, 4)
    assert check_word("REIS", ["R", "EI", "E", "I", "S"], LEXICON).cards == (0, 2, 3, 4)
    assert check_word("REIS", ["R", "EI", "E", "?", "S"], LEXICON) == ("REIS", (0, 2, 3, 4), 1)


def test_K10_4_best_assignment_fewest_jokers_then_lowest_positions() -> None:
    """K10.4: among assignments with as many cards, the fewest jokers (? and ?? one
    each); then the lowest positions; .cards lists positions in word order, 0-based."""
    assert check_word("POST", ["P", "?", "O", "S", "T", "T"], LEXICON).cards == (0, 2, 3, 4)
    assert check_word("TOR", ["?", "T", "O", "R"], LEXICON).cards == (1, 2, 3)
    assert check_word("TOR", ["??", "T", "O", "R"], LEXICON).cards == (1, 2, 3)
    assert check_word("TOR", ["T", "O", "T", "R"], LEXICON).cards == (0, 1, 3)
    assert check_word("TOR", ["R", "T", "O", "T", "O"], LEXICON).cards == (1, 2, 0)
    assert check_word("TOR", ["T", "?", "?", "Z"], LEXICON).cards == (0, 1, 2)
    match = check_word("LAGER", ["X", "?", "L", "A", "G", "E", "R"], LEXICON)
    assert match.cards == (2, 3, 4, 5, 6) and match.jokers == 0
    assert claimed("TOR", ["T", "O", "T", "R", "O", "R"]) == (0, 1, 3)


# ---------------------------------------------------------------------------- K3.5, K10.2


def test_K3_5_invalid_call_each_other_seat_takes_a_card_clockwise_from_the_caller() -> None:
    """K3.5, K10.1: an invalid call gives the caller nothing; each other seat, clockwise
    (seat + 1) from the caller, takes one card of its choice from the table."""
    state = on_table(["H", "A", "N"], rest=("X", "Y"), players=4)
    state.apply("HANG", player=2)
    assert state.last_call == {"seat": 2, "word": "HANG", "valid": False, "reason": "letters missing"}
    assert state.phase == "penalty" and state.penalty == [3, 0, 1]
    assert texts(state, 3) == ["take@0", "take@1", "take@2"]
    assert texts(state, 0) == texts(state, 1) == texts(state, 2) == []
    state.apply("take@1", player=3)
    assert state.table == ["H", "N"] and state.penalty == [0, 1] and state.piles == [0, 0, 0, 1]
    state.apply("take@1", player=0)
    state.apply("take@0", player=1)
    assert state.table == [] and state.penalty == [] and phase_of(state) == "play"
    assert state.piles == [1, 1, 0, 1]
    piles = data(state)["piles"]
    assert [p["taken"] for p in piles] == [["N"], ["H"], [], ["A"]]
    assert history(state)[-4:] == ["2:HANG", "3:take@1", "0:take@1", "1:take@0"]
    state = on_table(["H", "A", "N", "G", "X"], rest=("Y",), players=6)
    state.apply("XYZ", player=4)
    assert state.penalty == [5, 0, 1, 2, 3]


def test_K3_5_only_the_head_of_the_penalty_takes() -> None:
    """K3.5, K10.2: the penalty is taken in order: only the seat at its head has moves
    (take@i of a table card); a take by anyone else, or of no card, is refused."""
    state = on_table(["H", "A"], rest=("X",), players=3)
    state.apply("HANG", player=0)
    assert state.penalty == [1, 2]
    assert_illegal(state, "take@0", 2, "K10.2", "seat 1 takes a card now, not seat 2")
    assert_illegal(state, "take@0", 0, "K10.2", "seat 1 takes a card now, not seat 0")
    assert_illegal(state, "take@2", 1, "K3.5", "there is no table position 2")
    assert_illegal(state, "take@127", 1, "K3.5", "the table has 2 cards")
    state.apply("take@0", player=1)
    assert state.penalty == [2] and texts(state, 2) == ["take@0"] and texts(state, 1) == []
    assert_illegal(state, "take@0", 1, "K10.2", "seat 2 takes a card now")


def test_K3_5_with_the_table_empty_the_rest_take_the_deck_top_automatically() -> None:
    """K3.5, K10.2: when the table runs out, the remaining takers each get the deck's top
    card at once (not a move, not listed in penalty, not in the history)."""
    state = on_table(["H"], rest=("X", "Y", "Z"), players=4)
    state.apply("HANG", player=1)
    assert state.penalty == [2, 3, 0] and texts(state, 2) == ["take@0"]
    state.apply("take@0", player=2)
    assert state.phase == "play" and state.penalty == [] and state.table == []
    assert state.piles == [1, 0, 1, 1] and state.deck_count == 1
    piles = data(state)["piles"]
    assert piles[3]["drawn"] == ["X"] and piles[0]["drawn"] == ["Y"] and piles[2]["taken"] == ["H"]
    assert history(state)[-2:] == ["1:HANG", "2:take@0"]
    assert data(state)["deck"] == ["Z"]
    # A call on an empty table: the others draw at once (seat 0 the last card, seats 1
    # and 2 nothing), with no penalty phase; the deck and table are empty: round over.
    state.apply("TOR", player=3)
    assert state.round == 1 and state.scores == [2, 0, 1, 1]


def test_K3_5_with_table_and_deck_empty_the_rest_take_nothing() -> None:
    """K3.5: "(if any)": with the table empty and the deck running out, the takers after
    the last deck card get nothing; the round then ends (K3.7) and the piles score."""
    state = deal(["X"], players=4)
    state.apply("HANG", player=3)
    assert state.round == 1 and state.scores == [1, 0, 0, 0]
    state = on_table(["H"], rest=("X",), players=4)
    state.apply("HANG", player=0)
    assert state.penalty == [1, 2, 3]
    state.apply("take@0", player=1)
    assert state.round == 1 and state.scores == [0, 1, 1, 0]


def test_K3_5_take_is_only_the_penalty_of_an_invalid_call() -> None:
    """K3.5: outside a penalty nobody takes a card."""
    state = on_table(["H", "A", "N", "G"])
    for seat in (0, 1):
        assert_illegal(state, "take@0", seat, "K3.5", "a card is taken only as the penalty")
        assert_illegal(state, 2, seat, "K3.5", "only as the penalty")


def test_K10_2_nothing_but_take_during_a_penalty() -> None:
    """K10.2: during a penalty the game is paused: no reveal, pass or call by anyone (the
    head included), as text, KniziaMove or action id; current_player stays SIMULTANEOUS."""
    state = on_table(["L", "A", "G", "E", "R"], rest=("X",), players=3)
    g = state.game
    state.apply("XYZ", player=1)
    assert state.phase == "penalty" and state.penalty == [2, 0]
    assert state.current_player == diabolo.SIMULTANEOUS
    for seat in range(3):
        for move in (
            "reveal",
            "pass",
            "LAGER",
            "XYZ",
            "LAGER@0,1,2,3,4",
            KniziaMove.parse("pass"),
            0,
            1,
            g.action("LAGER"),
        ):
            assert move is not None
            assert_illegal(state, move, seat, "K10.2", "the game waits for seat 2 to take a card")
    assert texts(state, 2) == [f"take@{i}" for i in range(5)]
    assert state.legal_actions(2) == list(range(2, 7))
    assert state.observation(0)["legal"] == [] and state.observation(2)["legal"] == texts(state, 2)


# ---------------------------------------------------------------------------- K3.6


def test_K3_6_after_a_call_the_rest_stay_and_the_dealer_goes_on() -> None:
    """K3.6: after a call, valid or not, the other table cards stay in line and the
    dealer reveals the next card behind them."""
    state = on_table(["X", "T", "Y", "O", "R", "Q"], rest=("H", "A", "N", "G", "Z"), players=3)
    state.apply("TOR", player=2)
    assert state.table == ["X", "Y", "Q"]
    state.apply("reveal", player=0)
    assert state.table == ["X", "Y", "Q", "H"]
    state.apply("HANG", player=1)
    state.apply("take@3", player=2)
    state.apply("take@0", player=0)
    assert state.table == ["Y", "Q"] and state.phase == "play"
    reveal(state, 3)
    assert state.table == ["Y", "Q", "A", "N", "G"] and state.deck_count == 1


# ---------------------------------------------------------------------------- K3.7, K10.5


def test_K3_7_the_round_ends_when_no_word_is_left() -> None:
    """K3.7: with the deck used up, the round ends as soon as the table forms no word:
    after a claim that takes the last word, or after a reveal of the last card."""
    state = on_table(["L", "A", "G", "E", "R", "X"], rest=())
    assert state.round == 0 and state.deck_count == 0  # LAGER and REGAL are still there
    state.apply("LAGER", player=1)
    assert state.round == 1 and state.scores == [0, 5] and state.dealer == 1
    assert state.table == [] and state.deck_count == 6 and state.piles == [0, 0]
    state = deal(["X", "Y"])
    reveal(state, 2)
    assert state.round == 1 and state.scores == [0, 0]


def test_K3_7_the_round_goes_on_while_the_deck_lasts() -> None:
    """K3.7, K10.5: passes and a wordless table do not end a round while cards remain."""
    state = deal(["X", "Y", "Z"], players=2)
    state.apply("pass", player=0)
    state.apply("pass", player=1)
    assert state.round == 0 and state.observation(0)["passed"] == [True, True]
    reveal(state, 2)
    assert state.round == 0 and state.table == ["X", "Y"]
    assert state.observation(1)["passed"] == [False, True]  # the reveals lifted seat 0's pass
    state.apply("reveal", player=0)
    assert state.round == 1


def test_K10_5_the_round_ends_when_every_pass_stands() -> None:
    """K10.5: with the deck empty the round ends once every seat's pass stands, words
    or not; table cards left score nothing."""
    state = on_table(["L", "A", "G", "E", "R", "T", "O", "R"], rest=(), players=3)
    state.apply("TOR", player=2)
    state.apply("pass", player=0)
    state.apply("pass", player=0)  # a pass again changes nothing
    state.apply("pass", player=1)
    assert state.round == 0 and state.observation(2)["passed"] == [True, True, False]
    assert "LAGER" in texts(state, 2)
    state.apply("pass", player=2)
    assert state.round == 1 and state.scores == [0, 0, 3]
    assert state.observation(0)["passed"] == [False] * 3


def test_K10_5_a_valid_claim_clears_every_pass() -> None:
    """K10.5: a valid claim clears every seat's pass, so the others may pass again."""
    state = on_table(["L", "A", "G", "E", "R", "T", "O", "R"], rest=(), players=3)
    state.apply("pass", player=0)
    state.apply("pass", player=1)
    state.apply("TOR", player=2)
    assert state.observation(0)["passed"] == [False, False, False] and state.round == 0
    state.apply("pass", player=0)
    state.apply("pass", player=2)
    assert state.round == 0
    state.apply("pass", player=1)
    assert state.round == 1 and state.scores == [0, 0, 3]


def test_K10_5_a_move_lifts_the_movers_pass_only() -> None:
    """K10.5: a pass stands until that seat moves again: a reveal, a call or a take lifts
    the mover's pass; an automatic deck card (K10.2, not a move) lifts nothing."""
    state = on_table(["H", "A"], rest=("X", "Y", "Z"), players=3)
    for seat in range(3):
        state.apply("pass", player=seat)
    assert state.observation(0)["passed"] == [True, True, True]
    state.apply("HANG", player=1)  # the caller's pass is lifted
    assert state.observation(0)["passed"] == [True, False, True]
    state.apply("take@0", player=2)
    assert state.observation(0)["passed"] == [True, False, False]
    state.apply("take@0", player=0)
    assert state.observation(0)["passed"] == [False, False, False]
    state.apply("pass", player=1)
    state.apply("pass", player=2)
    state.apply("XYZ", player=0)  # the table is empty: 1 and 2 draw X and Y automatically
    assert state.piles == [1, 1, 2] and state.deck_count == 1
    assert state.observation(0)["passed"] == [False, True, True]
    state.apply("reveal", player=0)
    assert state.round == 1  # the last card formed no word


def test_K10_5_pass_is_always_offered_in_play() -> None:
    """K10.5: every seat may pass at any moment of play, dealer or not, deck or not."""
    state = deal(["T", "O", "R", "Z"], players=3)
    for _ in range(4):
        for seat in range(3):
            assert texts(state, seat)[-1] == "pass"
            actions = state.legal_actions(seat)  # ascending: pass (1) after reveal (0), before claims
            assert 1 in actions and actions == sorted(actions)
        if state.deck_count:
            state.apply("reveal", player=0)


# ---------------------------------------------------------------------------- K3.8, K10.3


def test_K3_8_a_stale_call_is_an_invalid_call_when_applied() -> None:
    """K3.8, K10.3: two calls of the same word arrive in order; the first takes the cards,
    the second is no longer possible and, applied, is an invalid call (K3.5)."""
    state = on_table(["L", "A", "G", "E", "R", "X"], rest=("Y", "Z"), players=3)
    state.apply("LAGER", player=1)
    state.apply("LAGER", player=2)
    assert state.last_call == {"seat": 2, "word": "LAGER", "valid": False, "reason": "letters missing"}
    assert state.piles == [0, 5, 0] and state.penalty == [0, 1]
    state.apply("take@0", player=0)  # X; the table is empty, seat 1 draws Y
    assert state.piles == [1, 6, 0] and state.phase == "play"


def test_K10_3_stale_calls_reject_refuses_invalid_calls() -> None:
    """K10.3: with stale_calls='reject' a call that is not a valid claim raises
    IllegalMoveError and changes nothing (naming the failed check of K3.3); valid calls
    and other moves work as usual."""
    assert game(stale_calls="reject").stale_calls == "reject" and game().stale_calls == "penalty"
    state = on_table(["L", "A", "G", "E", "R", "X"], rest=("Y",), players=3, stale_calls="reject")
    state.apply("pass", player=2)
    state.apply("LAGER", player=1)
    for word, reason in (
        ("LAGER", "letters missing"),
        ("XYZ", "not a word"),
        ("ON", "too few cards"),
        ("REGAL@0", "too few cards"),
        ("TOR@0,1,2", "letters missing"),
    ):
        assert_illegal(state, word, 2, "K3.3", f"is not a valid claim: {reason} .*K10.3")
    assert state.phase == "play" and state.observation(0)["passed"] == [False, False, False]
    state = on_table(["S", "EI", "T", "O", "R"], stale_calls="reject")
    assert_illegal(state, "SIE", 1, "K3.3", "double letter split or reversed")
    assert_illegal(state, "ROT@2,1,0", 1, "K3.3", "letters missing")
    assert_illegal(state, "reveal", 1, "K3.1", "only the dealer")
    state.apply("ROT@4,3,2", player=1)
    assert state.table == ["S", "EI"] and state.piles == [0, 3]


def test_K10_3_any_word_is_a_call_in_penalty_mode() -> None:
    """K10.3: apply("WORD") takes any word; one that is not a valid claim draws the
    penalty and does not raise, with the reason of K10.8."""
    for word, reason in (
        ("QWERTZ", "not a word"),
        ("ON", "too few cards"),
        ("HANG", "letters missing"),
        ("SIE", "double letter split or reversed"),
        ("LAGER@4,3,2,1,0", "letters missing"),
    ):
        assert call_reason(word, ["S", "EI", "L", "A", "G", "E", "R"]) == reason


# ---------------------------------------------------------------------------- K4


def test_K4_1_each_round_scores_the_cards_in_each_pile() -> None:
    """K4.1, K10.5: at a round's end each seat scores its pile (cards taken and cards
    drawn as a penalty); the totals add up over rounds; table leftovers score nothing."""
    cards = ["T", "O", "R", "H", "A", "X", "Y"]
    state = game(cards, players=3).new_state(decks=[cards, cards])
    reveal(state, 3)
    state.apply("ROT", player=1)
    reveal(state, 2)
    state.apply("HANG", player=2)  # invalid: seats 0 and 1 take H and A
    state.apply("take@0", player=0)
    state.apply("take@0", player=1)
    state.apply("TOR", player=0)  # the table is empty: 1 and 2 draw X and Y
    assert state.round == 1 and state.scores == [1, 5, 1]
    assert state.piles == [0, 0, 0]
    reveal(state, 7)
    state.apply("HANG", player=2)  # invalid: seats 0 and 1 take a card each
    state.apply("take@6", player=0)
    state.apply("take@5", player=1)
    assert state.piles == [1, 1, 0] and state.table == ["T", "O", "R", "H", "A"]
    for seat in range(3):
        state.apply("pass", player=seat)  # T, O, R, H, A stay on the table: nobody scores them
    assert state.round == 2 and state.scores == [2, 6, 1]


@pytest.mark.parametrize(("players", "rounds"), [(2, 4), (3, 6), (4, 4), (5, 5), (6, 6)])
def test_K4_2_everyone_deals_once_or_twice_and_the_dealer_passes_left(players: int, rounds: int) -> None:
    """K4.2, K10.1: seat r % n deals round r; with 2 or 3 players everyone deals twice,
    with 4 to 6 once; then the game is over."""
    g = game(players=players)
    assert g.rounds == rounds and g.options["rounds"] == rounds
    state = g.new_state(seed=1)
    for r in range(rounds):
        assert state.round == r and state.dealer == r % players and not state.is_terminal
        obs = state.observation(0)
        assert obs["round"] == r and obs["dealer"] == r % players and obs["rounds"] == rounds
        assert texts(state, r % players) == ["reveal", "pass"]
        assert all(texts(state, seat) == ["pass"] for seat in range(players) if seat != r % players)
        state.apply("reveal", player=r % players)  # Z: no word, deck empty: the round ends
    assert state.is_terminal and state.phase == "game_over" and state.round == rounds - 1
    assert state.current_player == diabolo.TERMINAL
    assert state.scores == [0] * players and state.winners == list(range(players))


def test_K4_2_rounds_option_and_game_over() -> None:
    """K4.2: `rounds` sets the number of rounds; after the last nothing may be played."""
    cards = ["T", "O", "R", "Z"]
    state = game(cards, rounds=1).new_state(deck=cards)
    assert state.game.rounds == 1 and state.observation(0)["rounds"] == 1
    reveal(state, 3)
    state.apply("TOR", player=1)
    state.apply("reveal", player=0)
    assert state.is_terminal and state.scores == [0, 3] and state.winners == [1]
    assert state.returns() == [0.0, 3.0]
    for seat in (0, 1):
        assert state.legal_moves(seat) == [] and state.legal_actions(seat) == []
        assert not state.legal_action_mask(seat).any()
        for move in ("reveal", "pass", "TOR", "XYZ", "take@0", 0, 1):
            assert_illegal(state, move, seat, "K4.2", "the game is over")


def test_K4_2_the_highest_total_wins_ties_share() -> None:
    """K4.2: the highest total over all rounds wins; equal totals share the win."""
    cards = ["T", "O", "R", "Z"]
    state = game(cards, rounds=2).new_state(decks=[cards, cards])
    reveal(state, 3)
    state.apply("TOR", player=1)
    state.apply("reveal", player=0)
    assert state.round == 1 and state.scores == [0, 3] and state.dealer == 1
    reveal(state, 3)
    state.apply("ROT", player=0)
    state.apply("reveal", player=1)
    assert state.is_terminal and state.scores == [3, 3] and state.winners == [0, 1]


VICTORY = ["L", "A", "G", "E", "R", "T", "O", "R", "Z"]


def victory_round(state: KniziaState, lager: int | None, tor: int | None) -> None:
    """A round of the VICTORY deal: LAGER and TOR by the seats given (None: nobody), then
    every seat passes (a no-op if the round has ended)."""
    round_ = state.round
    reveal(state, 5)
    if lager is not None:
        state.apply("LAGER", player=lager)
    reveal(state, 4)
    if tor is not None:
        state.apply("TOR", player=tor)
    for seat in range(state.game.players):
        if state.round == round_ and not state.is_terminal:
            state.apply("pass", player=seat)
    assert state.round != round_ or state.is_terminal


def test_K4_3_victory_tiles_go_to_the_most_cards_with_a_handicap() -> None:
    """K4.3: in the victory-tiles variant the most cards of a round win a tile; a seat
    that has a tile counts `handicap` (10) cards fewer; the first to 2 tiles wins."""
    g = game(VICTORY, variant="victory_tiles")
    assert g.rounds is None and g.handicap == 10 and g.options["rounds"] is None
    state = g.new_state(decks=[VICTORY] * 4)
    assert state.observation(0)["rounds"] is None
    victory_round(state, lager=0, tor=1)  # 5 against 3
    assert state.round == 1 and state.scores == [1, 0]
    victory_round(state, lager=0, tor=1)  # 5 - 10 against 3
    assert state.round == 2 and state.scores == [1, 1]
    victory_round(state, lager=1, tor=None)  # 0 - 10 against 5 - 10
    assert state.is_terminal and state.scores == [1, 2] and state.winners == [1]
    assert state.observation(0)["scores"] == [1, 2]


def test_K4_3_handicap_option() -> None:
    """K4.3: handicap=0 takes nothing away: 5 cards beat 3 again and win the second tile."""
    g = game(VICTORY, variant="victory_tiles", handicap=0)
    assert g.handicap == 0
    state = g.new_state(decks=[VICTORY] * 2)
    victory_round(state, lager=0, tor=1)
    victory_round(state, lager=0, tor=1)
    assert state.is_terminal and state.round == 1 and state.scores == [2, 0] and state.winners == [0]


def test_K4_3_ties_each_get_a_tile() -> None:
    """K4.3: tied seats each get a tile, and two seats may reach 2 tiles together."""
    state = game(VICTORY, players=3, variant="victory_tiles").new_state(decks=[VICTORY] * 3)
    victory_round(state, lager=None, tor=None)  # 0, 0, 0: everyone gets a tile
    assert state.round == 1 and state.scores == [1, 1, 1]
    victory_round(state, lager=2, tor=None)  # -10, -10, -5
    assert state.scores == [1, 1, 2] and state.is_terminal and state.winners == [2]
    state = game(VICTORY, variant="victory_tiles").new_state(decks=[VICTORY] * 2)
    victory_round(state, lager=None, tor=None)
    victory_round(state, lager=None, tor=None)
    assert state.is_terminal and state.scores == [2, 2] and state.winners == [0, 1]


def test_K4_3_the_game_lasts_until_someone_has_two_tiles() -> None:
    """K4.3: the variant ignores the round count of K4.2: four players, each winning one
    tile in turn, play a fifth round."""
    cards = ["T", "O", "R", "Z"]
    state = game(cards, players=4, variant="victory_tiles").new_state(decks=[cards] * 5)
    for r in range(5):
        assert not state.is_terminal and state.round == r and state.dealer == r % 4
        reveal(state, 3)
        state.apply("TOR", player=r % 4)
        state.apply("reveal", player=r % 4)
    assert state.is_terminal and state.round == 4 and state.scores == [2, 1, 1, 1] and state.winners == [0]


# ---------------------------------------------------------------------------- K5


def test_K5_1_everything_but_the_deck_order_is_public() -> None:
    """K5.1: every seat sees the same table, pile sizes, calls and deck count (only
    `player` and `legal` differ); the deck order is unknown: two deals with the same
    revealed cards look the same, and resample keeps all that is public."""
    first = on_table(["T", "O", "R", "X"], rest=("A", "B", "C"), players=3)
    second = game(["T", "O", "R", "X", "A", "B", "C"], players=3).new_state(deck=["T", "O", "R", "X", "C", "A", "B"])
    reveal(second, 4)
    for state in (first, second):
        state.apply("TOR", player=1)
        state.apply("HANG", player=2)
    views = [state.observation(seat) for state in (first, second) for seat in range(3)]
    for view in views:
        own = ("player", "legal", "legal_moves")
        public = {k: v for k, v in view.items() if k not in own}
        assert public == {k: v for k, v in views[0].items() if k not in own}
        assert view["deck_count"] == 3 and "deck" not in view
    assert first.to_json() != second.to_json()
    for seed in range(4):
        twin = first.resample(0, seed)
        assert [twin.observation(s) for s in range(3)] == [first.observation(s) for s in range(3)]
        assert Counter(data(twin)["deck"]) == Counter(data(first)["deck"])


# ---------------------------------------------------------------------------- K6


def test_K6_1_find_words_is_the_move_generator() -> None:
    """K6.1, K9: find_words gives every valid word with its best assignment, sorted by
    word; the claims of legal_moves are exactly those words."""
    table = ["L", "A", "G", "E", "R", "T", "O", "?"]
    matches = find_words(table, LEXICON)
    assert [m.word for m in matches] == sorted(m.word for m in matches)
    assert {m.word for m in matches} >= {"LAGER", "REGAL", "TOR", "ROT"}
    by_word = {m.word: m for m in matches}
    assert by_word["LAGER"].cards == (0, 1, 2, 3, 4) and by_word["LAGER"].card_count == 5
    assert by_word["TOR"].cards == (5, 6, 4) and by_word["TOR"].jokers == 0
    for match in matches:
        assert match == check_word(match.word, table, LEXICON)
        assert match.card_count == len(match.cards) >= 3
    state = on_table(table)
    assert texts(state, 1) == [m.word for m in matches] + ["pass"]
    assert texts(state, 0) == ["reveal"] + [m.word for m in matches] + ["pass"]
    assert len(find_words([], LEXICON)) == 0 and list(find_words(["ON"], LEXICON)) == []
    assert [(m.word, m.cards) for m in find_words(["ON"], LEXICON, min_cards=1)] == [("ON", (0,))]


def test_K6_2_check_word_says_why_a_word_fails() -> None:
    """K6.2, K10.8: check_word returns the best match or raises InvalidWordError (a
    ValueError) with one of the four reasons."""
    assert issubclass(diabolo.InvalidWordError, ValueError)
    assert reason_of("SPOT", ["S", "P", "O", "T"]) == "not a word"
    assert reason_of("ON", ["O", "N"]) == "too few cards"
    assert reason_of("HANG", ["H", "A", "N"]) == "letters missing"
    assert reason_of("SIE", ["S", "EI"]) == "double letter split or reversed"
    assert check_word("hang", ["G", "N", "A", "H"], LEXICON).cards == (3, 2, 1, 0)


def test_K6_3_bots() -> None:
    """K6.3: the word bot calls the longest word it knows (vocabulary, max_length), reveals
    as dealer when it knows none, and takes a card when it heads a penalty; the random
    bot makes legal moves."""
    state = on_table(["T", "O", "R", "L", "A", "G", "E", "R"], rest=("Z", "Z"), players=3)
    bot = WordBot()
    assert bot.name == "word" and str(bot.choose(state, 1)) == "LAGER"
    assert str(WordBot(max_length=3).choose(state, 1)) in ("ROT", "TOR")
    assert str(WordBot(vocabulary=Lexicon.from_words(["Regal"])).choose(state, 2)) == "REGAL"
    assert str(WordBot(vocabulary=Lexicon.from_words(["Hang"])).choose(state, 0)) == "reveal"
    assert WordBot(vocabulary=Lexicon.from_words(["Hang"])).choose(state, 1) is None
    state.apply("XYZ", player=0)
    assert str(bot.choose(state, 1)).startswith("take@") and bot.choose(state, 2) is None
    random_bot = RandomBot()
    for seed in range(5):
        move = random_bot.choose(state, 1, seed=seed)
        assert move is not None and move in state.legal_moves(1)
    assert random_bot.choose(state, 0, seed=1) is None


# ---------------------------------------------------------------------------- K7


@pytest.mark.parametrize(
    ("text", "kind", "word", "cards", "position"),
    [
        ("reveal", "reveal", None, None, None),
        ("pass", "pass", None, None, None),
        ("take@5", "take", None, None, 5),
        ("LAGER", "claim", "LAGER", None, None),
        ("POST@3,7,9", "claim", "POST", (3, 7, 9), None),
        ("TOR@0,1,127", "claim", "TOR", (0, 1, 127), None),
    ],
)
def test_K7_notation(
    text: str, kind: str, word: str | None, cards: tuple[int, ...] | None, position: int | None
) -> None:
    """K7: reveal, pass, take@i and a called word in capitals, optionally with the
    positions of its cards; str() writes the notation back."""
    move = KniziaMove.parse(text)
    assert (move.kind, move.word, move.cards, move.position) == (kind, word, cards, position)
    assert str(move) == text and KniziaMove.parse(str(move)) == move
    assert game().move(text) == move and hash(move) == hash(KniziaMove.parse(text))


def test_K7_the_log_prefixes_each_move_with_the_seat() -> None:
    """K7: in a log each move is prefixed by its seat: 1:LAGER (with the cards taken)."""
    state = on_table(["L", "A", "G", "E", "R", "X"], players=3)
    state.apply("LAGER", player=1)
    state.apply("TOR", player=2)
    state.apply("take@0", player=0)
    log = data(state)["history"]
    assert log == ["0:reveal"] * 6 + ["1:LAGER@0,1,2,3,4", "2:TOR", "0:take@0"]
    assert history(state) == log
    assert [seat for seat, _ in state.history] == [0] * 6 + [1, 2, 0]


# ---------------------------------------------------------------------------- K8, K10.6


def test_K8_observation_keys_are_json_ready() -> None:
    """K8: observation(p) is a JSON-ready dict with the documented keys, in play, in a
    penalty and at game over."""
    state = on_table(["L", "A", "G", "E", "R", "X", "Y"], rest=("Z",), players=3, rounds=1)
    seen = [state.observation(1)]
    for move, seat in (("LAGER", 2), ("XYZ", 0), ("take@0", 1), ("take@0", 2), ("reveal", 0)):
        state.apply(move, player=seat)
        seen.append(state.observation(1))
    assert [obs["phase"] for obs in seen] == ["play", "play", "penalty", "penalty", "play", "game_over"]
    for obs in seen:
        assert set(obs) == OBSERVATION_KEYS and obs["player"] == 1
        assert json.loads(json.dumps(obs)) == obs


def test_K10_6_observation_values() -> None:
    """K10.6, K8: phase is play/penalty/game_over; table in notation; piles count this
    round's cards; scores the totals of finished rounds; last_call null or its four
    keys; penalty the seats still to take, in order."""
    cards = ["T", "O", "R", "EI", "?", "??", "X"]
    state = game(cards, players=3, rounds=2).new_state(decks=[cards, cards])
    assert state.observation(1) == {
        "player": 1,
        "round": 0,
        "rounds": 2,
        "dealer": 0,
        "phase": "play",
        "table": [],
        "deck_count": 7,
        "piles": [0, 0, 0],
        "scores": [0, 0, 0],
        "last_call": None,
        "penalty": [],
        "passed": [False] * 3,
        "legal": ["pass"],
        "legal_moves": [{"kind": "pass"}],
    }
    reveal(state, 6)
    state.apply("pass", player=1)
    state.apply("ROT", player=2)
    obs = state.observation(0)
    assert obs["table"] == ["EI", "?", "??"] and obs["deck_count"] == 1 and obs["piles"] == [0, 0, 3]
    assert obs["last_call"] == {"seat": 2, "word": "ROT", "valid": True, "reason": None}
    assert obs["passed"] == [False, False, False] and obs["legal"] == ["reveal", "pass"]
    state.apply("XYZ", player=1)
    obs = state.observation(2)
    assert obs["phase"] == "penalty" and obs["penalty"] == [2, 0] and obs["legal"] == ["take@0", "take@1", "take@2"]
    assert obs["last_call"] == {"seat": 1, "word": "XYZ", "valid": False, "reason": "not a word"}
    state.apply("take@2", player=2)
    state.apply("take@0", player=0)
    state.apply("reveal", player=0)
    assert state.round == 1
    obs = state.observation(1)
    assert obs["phase"] == "play" and obs["scores"] == [1, 0, 4] and obs["piles"] == [0, 0, 0]
    assert obs["last_call"] is None and obs["table"] == [] and obs["dealer"] == 1
    reveal(state, 7)
    for seat in range(3):
        state.apply("pass", player=seat)
    obs = state.observation(2)
    assert obs["phase"] == "game_over" and obs["legal"] == [] and obs["scores"] == [1, 0, 4]
    assert state.is_terminal and state.winners == [2]


# ---------------------------------------------------------------------------- K9


def test_K9_legal_moves() -> None:
    """K9: reveal for the dealer while cards remain, every valid claim in word order,
    take@i for the seat heading a penalty, and pass."""
    state = on_table(["L", "A", "G", "E", "R"], rest=("X",), players=3)
    assert texts(state, 0) == ["reveal", "LAGER", "REGAL", "pass"]
    assert texts(state, 1) == texts(state, 2) == ["LAGER", "REGAL", "pass"]
    assert all(m.cards is None for m in state.legal_moves(1))  # claims with the best assignment
    state.apply("reveal", player=0)
    assert texts(state, 0) == ["LAGER", "REGAL", "pass"]
    state.apply("HANG", player=0)
    assert texts(state, 1) == [f"take@{i}" for i in range(6)] and texts(state, 0) == texts(state, 2) == []


def test_K9_action_ids() -> None:
    """K9, K7: action ids: reveal 0, pass 1, take@i 2 + i, a claim 130 + its word's index
    in the lexicon; num_actions = 130 + len(lexicon); legal_actions and the mask agree
    with legal_moves; a claim's action applies with the best assignment."""
    g = game()
    assert g.num_actions == 130 + len(LEXICON)
    assert g.action("reveal") == 0 and g.action("pass") == 1 and g.action("take@0") == 2 and g.action("take@127") == 129
    for index, word in enumerate(NORMALISED):
        assert g.action(word) == 130 + index and g.action(KniziaMove.parse(word)) == 130 + index
        assert g.move(130 + index) == KniziaMove.parse(word)
    assert g.action("QWERTZ") is None and g.action("LAGER@0,1,2,3,4") == g.action("LAGER")
    assert g.move(0) == KniziaMove.parse("reveal") and g.move(7) == KniziaMove.parse("take@5")
    state = on_table(["X", "L", "A", "G", "E", "R"])
    for seat in (0, 1):
        actions = state.legal_actions(seat)
        ids = [g.action(m) for m in state.legal_moves(seat)]
        assert None not in ids and actions == sorted(i for i in ids if i is not None)  # ascending, as in every game
        mask = state.legal_action_mask(seat)
        assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
        assert list(np.flatnonzero(mask)) == sorted(actions)
    state.apply(130 + NORMALISED.index("REGAL"), player=1)
    assert history(state)[-1] == "1:REGAL@5,4,3,2,1" and state.table == ["X"]


# ---------------------------------------------------------------------------- K10.1, K10.7


def test_K10_1_seats_clockwise_and_dealers_in_turn() -> None:
    """K10.1: clockwise is seat + 1: the penalty after seat 5's call starts at seat 0;
    seat r % n deals round r, from round 0."""
    state = on_table(["H", "A", "N", "G", "X", "Y"], players=6)
    state.apply("XYZ", player=5)
    assert state.penalty == [0, 1, 2, 3, 4]
    state = game(players=5, rounds=7).new_state()
    dealers = []
    while not state.is_terminal:
        dealers.append(state.dealer)
        state.apply("reveal", player=state.dealer)
    assert dealers == [0, 1, 2, 3, 4, 0, 1]


def test_K10_7_a_given_deal_is_revealed_in_order_later_rounds_from_the_seed() -> None:
    """K10.7: new_state(deck=...) deals round 0 in the given reveal order; later rounds
    are shuffled from the seed, the same as without a given deal."""
    cards = ["H", "A", "N", "G", "T", "O", "R"]
    g = game(cards, rounds=3)
    order = ["R", "O", "T", "G", "N", "A", "H"]
    state = g.new_state(seed=11, deck=order)
    assert data(state)["deck"] == order and data(state)["deals"] == [order]
    reveal(state, 7)
    assert state.table == order
    for seat in (0, 1):
        state.apply("pass", player=seat)
    plain = g.new_state(seed=11)
    reveal(plain, 7)
    for seat in (0, 1):
        plain.apply("pass", player=seat)
    assert state.round == plain.round == 1
    assert data(state)["deck"] == data(plain)["deck"]
    assert sorted(data(state)["deck"]) == sorted(cards)
    again = g.new_state(seed=11)
    assert data(again)["deck"] == data(g.new_state(seed=11))["deck"]


def test_K10_7_decks_give_one_deal_per_round() -> None:
    """K10.7: decks=[...] deals round r from decks[r]; rounds past the list are
    shuffled from the seed."""
    cards = ["T", "O", "R", "Z"]
    decks = [["Z", "T", "O", "R"], ["T", "O", "R", "Z"]]
    state = game(cards, rounds=3).new_state(seed=2, decks=decks)
    assert data(state)["deck"] == decks[0] and data(state)["deals"] == decks
    reveal(state, 4)
    for seat in (0, 1):
        state.apply("pass", player=seat)
    assert state.round == 1 and data(state)["deck"] == decks[1]
    reveal(state, 3)
    state.apply("TOR", player=0)
    state.apply("reveal", player=1)
    assert state.round == 2 and sorted(data(state)["deck"]) == sorted(cards) and state.scores == [3, 0]


def test_K10_7_deck_files() -> None:
    """K10.7: deck files are JSON {"language", "cards"} with counts per card; the packaged
    German deck has 66 cards, 4 single and 2 double jokers."""
    deck = Deck.load("de")
    assert json.loads(deck.to_json()) == {"language": "de", "cards": dict(deck.cards)}
    assert sum(deck.cards.values()) == 66
    assert deck.cards["?"] + deck.cards["??"] == 6
    text = '{"language": "de", "cards": {"E": 7, "EI": 2, "?": 4, "??": 2}}'
    small = Deck.from_json(text)
    assert small.size == 15 and small.language == "de" and small.cards["EI"] == 2
    assert diabolo.load("knizia", lexicon=LEXICON, deck=small).deck_size == 15


# ---------------------------------------------------------------------------- K10.8


@pytest.mark.parametrize(
    ("called", "word", "table"),
    [
        ("Straße", "STRASSE", ["S", "T", "R", "A", "S", "S", "E"]),
        ("STRAẞE", "STRASSE", ["S", "T", "R", "A", "S", "S", "E"]),
        (" lager ", "LAGER", ["L", "A", "G", "E", "R"]),
        ("\tLager\n", "LAGER", ["L", "A", "G", "E", "R"]),
        ("Ärger", "AERGER", ["A", "E", "R", "G", "E", "R"]),
        ("café", "CAFE", ["C", "A", "F", "E"]),
        ("CAFÉ", "CAFE", ["C", "A", "F", "E"]),
        ("Pass", "PASS", ["P", "A", "S", "S"]),
        ("PASS", "PASS", ["P", "A", "S", "S"]),
        ("hang@3,2,1,0", "HANG", ["G", "N", "A", "H"]),
    ],
)
def test_K10_8_called_words_are_normalised(called: str, word: str, table: list[str]) -> None:
    """K10.8: called words are normalised (K2, other accents stripped, ẞ -> SS, white
    space trimmed). The keywords are lower case, so "Pass" is a call of the word PASS."""
    assert KniziaMove.parse(called).word == word
    state = on_table(table)
    state.apply(called, player=1)
    assert state.last_call == {"seat": 1, "word": word, "valid": True, "reason": None}
    assert state.piles == [0, len(table)] and state.table == []
    assert check_word(called.split("@")[0], table, LEXICON).word == word


def test_K10_8_keywords_are_lower_case() -> None:
    """K10.8, K7: "pass" and "reveal" are moves; "Pass" on a table without P, A, S, S is
    an invalid call of PASS; "Reveal" is a call of REVEAL (not a word)."""
    state = on_table(["T", "O", "R"], rest=("X", "Y"), players=3)
    state.apply("pass", player=1)
    assert state.last_call is None and state.observation(0)["passed"] == [False, True, False]
    state.apply("Pass", player=1)
    assert state.last_call == {"seat": 1, "word": "PASS", "valid": False, "reason": "letters missing"}
    assert state.phase == "penalty"
    state = on_table(["T", "O", "R"], rest=("X",), players=3)
    state.apply("Reveal", player=0)
    assert state.last_call == {"seat": 0, "word": "REVEAL", "valid": False, "reason": "not a word"}
    assert state.table == ["T", "O", "R"] and state.penalty == [1, 2]


def test_K10_8_reasons_are_checked_in_order() -> None:
    """K10.8: the reason is the first failing check of: not a word, too few cards,
    letters missing, double letter split or reversed."""
    # Not a word, though also too short and missing letters.
    assert reason_of("XY", ["S", "EI"]) == "not a word"
    assert call_reason("XY", ["S", "EI"]) == "not a word"
    # A word, too short, and its letters missing.
    assert reason_of("ON", ["X"]) == "too few cards"
    assert call_reason("ON", ["X"]) == "too few cards"
    # Letters missing and a double letter reversed: letters missing (S is not there).
    assert reason_of("SIE", ["EI", "X"]) == "letters missing"
    assert call_reason("SIE", ["EI", "X"]) == "letters missing"
    # Only the double letter fails.
    assert reason_of("SIE", ["EI", "S"]) == "double letter split or reversed"
    assert call_reason("SIE", ["EI", "S"]) == "double letter split or reversed"
    # Named cards: too few named before letters missing.
    assert call_reason("LAGER@0,1", ["L", "A", "G", "E", "R"]) == "too few cards"
    assert call_reason("LAGER@0,1,2,3,9", ["L", "A", "G", "E", "R"]) == "letters missing"
    assert call_reason("TOPS@2,1,0", ["P", "O", "ST"]) == "double letter split or reversed"


def test_K10_8_reason_order_on_random_tables() -> None:
    """K10.8: on random tables, the reason of check_word and of a call agree, and a word
    valid by check_word is a legal claim."""
    rng = random.Random(7)
    cards = ["A", "E", "G", "H", "L", "N", "O", "P", "R", "S", "T", "EI", "ST", "?", "??"]
    words = NORMALISED + ["XYZ", "SPOT"]
    for _ in range(40):
        table = [rng.choice(cards) for _ in range(rng.randint(0, 6))]
        legal = {m.word for m in find_words(table, LEXICON)}
        for word in rng.sample(words, 4):
            try:
                check_word(word, table, LEXICON)
            except diabolo.InvalidWordError as error:
                assert word not in legal
                if table:
                    assert call_reason(word, table) == error.reason
            else:
                assert word in legal


def test_K10_7_a_deck_is_its_counts_in_any_order() -> None:
    """K10.7: a deck is how many of each card; the order the cards are named in does not
    count, so a game's deck (listed in card order) equals the deck it was given."""
    given = Deck({"T": 1, "R": 1, "O": 1, "?": 1}, "xx")
    assert given == Deck({"?": 1, "O": 1, "R": 1, "T": 1}, "xx") and hash(given) == hash(Deck(dict(given.cards), "xx"))
    assert given != Deck({"T": 1, "R": 1, "O": 2, "?": 1}, "xx") and given != Deck(dict(given.cards), "yy")
    g = diabolo.load("knizia", players=2, lexicon=LEXICON, deck=given)
    assert g.deck == given and list(g.deck.cards) == ["O", "R", "T", "?"]
