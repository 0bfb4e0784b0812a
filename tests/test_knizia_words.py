"""Words for Diabolo (Knizia): K2 normalisation, the lexicon, find_words and
check_word, against a brute-force reference (tests/reference/knizia_words.py)."""

from __future__ import annotations

import copy
import gzip
import pickle
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon
from diabolo.knizia import check_word, find_words
from diabolo.lexicon import normalise_word
from tests.reference import knizia_words as reference

# A small German test lexicon with the rulebook's words (K3.3, K6.2).
WORDS = [
    "Hang",
    "Lager",
    "Stop",
    "Post",
    "Pose",
    "Rest",
    "Regal",
    "Gang",
    "Angel",
    "Laser",
    "Ast",
    "Tor",
    "Rot",
    "Rose",
    "Sorte",
    "Torte",
    "Eis",
    "Reis",
    "Preis",
    "Greis",
    "Leiste",
    "Stein",
    "Seite",
    "Ei",
    "Tee",
    "See",
]
LEXICON = Lexicon.from_words(WORDS)


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("Straße", "STRASSE"),
        ("Ärger", "AERGER"),
        ("über", "UEBER"),
        ("Öl", "OEL"),
        ("café", "CAFE"),
        ("  Hang ", "HANG"),
        ("ẞ", "SS"),
        ("U-Boot", None),
        ("z.B.", None),
        ("abc1", None),
        ("", None),
        ("Hang Gang", None),
        # K10.8: decomposed accents (a letter and a combining mark) and typographic spaces
        ("A\u0308rger", "AERGER"),
        ("Cafe\u0301", "CAFE"),
        ("\u00a0Lager\u2009", "LAGER"),
        ("\u0308A", None),
        ("No\u00a0Way", None),
    ],
)
def test_normalisation_K2(entry: str, expected: str | None) -> None:
    assert normalise_word(entry) == expected


def test_lexicon_membership_and_size() -> None:
    assert len(LEXICON) == len(WORDS)
    assert "hang" in LEXICON and "HANG" in LEXICON and "Straße" not in LEXICON
    assert 42 not in LEXICON and "" not in LEXICON
    assert Lexicon.from_bytes(LEXICON.to_bytes()).to_bytes() == LEXICON.to_bytes()
    with pytest.raises(diabolo.StateFormatError):
        Lexicon.from_bytes(b"not a lexicon")


def test_lexicon_from_file_with_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIABOLO_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "words.txt.gz"
    source.write_bytes(gzip.compress("Hang\nLager\nStraße\nU-Boot\n".encode()))
    first = Lexicon.from_file(source)
    assert len(first) == 3 and "strasse" in first
    assert list((tmp_path / "cache" / "lexicons").glob("*.bin"))
    second = Lexicon.from_file(source)
    assert second.to_bytes() == first.to_bytes()


def test_lexicon_bytes_with_a_node_no_edge_leads_to_are_refused() -> None:
    data = LEXICON.to_bytes()
    nodes, edges = (int.from_bytes(data[at : at + 4], "little") for at in (12, 16))
    masks, firsts, targets = data[20 : 20 + 4 * nodes], data[20 + 4 * nodes : 20 + 8 * nodes], data[20 + 8 * nodes :]
    assert len(targets) == 4 * edges
    orphan = data[:12] + (nodes + 1).to_bytes(4, "little") + data[16:20]
    orphan += masks + (0).to_bytes(4, "little") + firsts + edges.to_bytes(4, "little") + targets
    with pytest.raises(diabolo.StateFormatError, match="a node no edge leads to"):
        Lexicon.from_bytes(orphan)


def test_missing_language_says_how_to_get_one() -> None:
    with pytest.raises(diabolo.LexiconNotFoundError, match="pip install ./lexicons/de"):
        Lexicon.load("tlh")


@pytest.mark.parametrize("language", ["en", "nl"])
def test_packaged_lists_load(language: str) -> None:
    lexicon = Lexicon.load(language)
    assert len(lexicon) > 50_000
    assert ("water" if language == "en" else "water") in lexicon


@pytest.mark.parametrize(
    ("word", "table", "cards"),
    [
        ("HANG", ["H", "A", "N", "G"], (0, 1, 2, 3)),
        ("LAGER", ["R", "E", "G", "A", "L"], (4, 3, 2, 1, 0)),
        ("STOP", ["ST", "O", "?"], (0, 1, 2)),  # the ST card and a joker for P
        ("POST", ["P", "T", "??"], (0, 2, 1)),  # a double joker for OS
    ],
)
def test_rulebook_examples_K3_3(word: str, table: list[str], cards: tuple[int, ...]) -> None:
    assert check_word(word, table, LEXICON).cards == cards


@pytest.mark.parametrize(
    ("word", "table", "reason"),
    [
        ("TOPS", ["T", "O", "P", "S"], "not a word"),
        ("EI", ["E", "I"], "too few cards"),
        ("AST", ["A", "ST"], "too few cards"),
        ("TOR", ["T", "O"], "letters missing"),
        ("REST", ["R", "E", "TS"], "double letter split or reversed"),
        ("REIS", ["R", "IE", "S"], "double letter split or reversed"),
    ],
)
def test_invalid_words_K6_2(word: str, table: list[str], reason: str) -> None:
    with pytest.raises(diabolo.InvalidWordError) as error:
        check_word(word, table, LEXICON)
    assert error.value.reason == reason
    assert isinstance(error.value, ValueError)


def test_children_variant_needs_four_cards() -> None:
    assert check_word("TOR", ["T", "O", "R"], LEXICON, min_cards=3).card_count == 3
    with pytest.raises(diabolo.InvalidWordError, match="too few cards"):
        check_word("TOR", ["T", "O", "R"], LEXICON, min_cards=4)


@pytest.mark.parametrize("bad", [["Q1"], ["e"], ["???"], [""], ["A", 3], "ABC", ["A"] * 129])
def test_bad_tables_give_notation_errors(bad: object) -> None:
    with pytest.raises(diabolo.NotationError):
        find_words(bad, LEXICON)  # type: ignore[arg-type]


def test_bad_min_cards() -> None:
    with pytest.raises(diabolo.OptionError):
        find_words(["A"], LEXICON, min_cards=0)


def test_matches_is_a_read_only_sequence_sorted_by_word() -> None:
    table = ["L", "A", "G", "E", "R", "S", "?"]
    matches = find_words(table, LEXICON)
    everything = list(matches)
    assert isinstance(matches, Sequence) and len(matches) == len(everything) > 3
    assert [matches[i] for i in range(len(matches))] == everything
    assert matches[-1] == everything[-1] and matches[1:3] == everything[1:3] and matches[::-1] == everything[::-1]
    assert everything[0] in matches and matches.index(everything[2]) == 2
    assert all(match == check_word(match.word, table, LEXICON) for match in matches)
    for bad in (len(matches), -len(matches) - 1):
        with pytest.raises(IndexError):
            matches[bad]
    with pytest.raises(TypeError):
        matches["LAGER"]  # type: ignore[call-overload]
    assert repr(matches).startswith("FoundWords([FoundWord(word=") and f"({len(matches)} matches)" in repr(matches)
    assert repr(find_words(["X"], LEXICON)) == "FoundWords([])"
    copied: object = copy.deepcopy(matches)  # a FoundWords copies and pickles as a list
    assert pickle.loads(pickle.dumps(matches)) == everything and copied == everything and type(copied) is list


CARDS = st.sampled_from(["A", "E", "G", "I", "L", "N", "O", "P", "R", "S", "T", "EI", "ST", "IE", "?", "??"])


@settings(max_examples=10 * settings().max_examples)  # thousands of tables in CI
@given(st.lists(CARDS, min_size=0, max_size=9), st.integers(1, 4))
def test_find_words_equals_brute_force(table: list[str], min_cards: int) -> None:
    expected = reference.find_words(table, [normalise_word(w) or "" for w in WORDS], min_cards)
    matches = find_words(table, LEXICON, min_cards)
    assert [match.word for match in matches] == sorted(expected)  # each word once, in word order
    assert {match.word: list(match.cards) for match in matches} == expected


@given(st.lists(CARDS, min_size=0, max_size=8), st.sampled_from(WORDS))
def test_check_word_agrees_with_brute_force(table: list[str], word: str) -> None:
    normal = normalise_word(word)
    assert normal is not None
    best = reference.best(normal, table)
    if best is not None and len(best) >= 3:
        assert list(check_word(word, table, LEXICON).cards) == best
    else:
        with pytest.raises(diabolo.InvalidWordError):
            check_word(word, table, LEXICON)


@pytest.mark.parametrize(("size", "seed"), [(9, 1), (12, 2), (15, 3)])
def test_the_legal_claims_are_find_words_words_with_the_german_list(size: int, seed: int) -> None:
    """K3.3: at tables with every joker of the German deck, the legal claim ids (each word's
    letter counts tested over the whole list, split across threads where the machine has
    them) are exactly the words find_words' walk finds (the legal moves)."""
    game = diabolo.load("knizia", players=3)
    cards = [card for card, count in game.deck.cards.items() for _ in range(count)]
    jokers = [card for card in cards if card.startswith("?")]
    others = [card for card in cards if not card.startswith("?")]
    random.Random(seed).shuffle(others)
    state = game.new_state(deck=jokers + others)
    for _ in range(size):
        state.apply("reveal", player=0)
    moves = state.legal_moves(1)
    walked = sorted(action for move in moves if (action := game.action(move)) is not None)
    assert state.legal_actions(1) == walked and len(walked) == len(moves) > 50_000


@pytest.mark.parametrize(
    ("cards", "claims"),
    [
        # Five double letter cards and every joker: 51,000 words need tiles, hundreds of them
        # the exact search.
        ("? ? ? ? ?? ?? X S N CH Z E EN ER P EN T IE E H E A", 300_000),
        # Ten double letter cards, two double jokers, no single one (among the hardest tables
        # found): 233,000 words need tiles, 3,600 of them the exact search.
        ("EN EN ER CH ST ER EN EI IE CH G U G S E ?? M ?? D L T J S H E Z R", 150_000),
    ],
)
def test_the_legal_claims_are_find_words_words_where_words_need_tiles(cards: str, claims: int) -> None:
    """K3.3 d-f: tables where most words short of a letter need a double letter card or a
    double joker, decided from the positions of their letters (bounds on the tiles, every
    choice of short positions) and by the exact search over tiles and its memo of failed
    states: the legal claim ids are still exactly the words find_words finds."""
    game = diabolo.load("knizia", players=3)
    table = cards.split()
    rest = Counter(card for card, count in game.deck.cards.items() for _ in range(count))
    rest.subtract(table)
    state = game.new_state(deck=table + sorted(rest.elements()))
    for _ in table:
        state.apply("reveal", player=0)
    moves = state.legal_moves(1)
    walked = sorted(action for move in moves if (action := game.action(move)) is not None)
    assert state.legal_actions(1) == walked and len(walked) == len(moves) > claims
