"""Knizia's samples for the contract's bad-input suite, and the game, positions and
deck its own bad-input tests (tests/test_knizia_bad_input.py) use. Spec: docs/games/knizia.rst.

A call of any word is a move (K10.3): in the default ``stale_calls='penalty'`` mode it
never raises, so the positions include one in ``'reject'`` mode."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon
from diabolo.knizia import Deck, KniziaGame, KniziaMove, KniziaState, WordBot
from tests.bad_input_helpers import BadInputSamples, states_met
from tests.json_fuzz import json_values

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


def base_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(penalty_position().to_json())
    return data


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

BAD_OPTIONS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"players": 1}, diabolo.OptionError, "players must be 2..6 (K1.1), got 1"),
    ({"players": 7}, diabolo.OptionError, "players must be 2..6 (K1.1), got 7"),
    ({"players": 0}, diabolo.OptionError, "players must be 2..6"),
    ({"players": -1}, diabolo.OptionError, "players must be 2..6"),
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
"""K1.1, K1.4, K3.3, K4.2, K4.3, K10.3, K10.7: unknown options, wrong types and values
raise OptionError (an unknown lexicon language LexiconNotFoundError, which says how to
install one)."""

GOOD_OPTIONS: list[dict[str, Any]] = [
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
]

BAD_DEALS: list[tuple[Any, str]] = [
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
]
"""K10.7: a given deal is every card of the deck once, in notation."""

BAD_DECKS: list[tuple[Any, str]] = [
    ("abc", "decks must be a list of deals"),
    (5, "decks must be a list of deals"),
    ([CARDS, 5], "decks[1] must be a list"),
    ([CARDS, "TOR"], "decks[1] must be a list"),
    ([CARDS, CARDS[:3]], "decks[1]: a deal holds every card of the deck once"),
    ([CARDS] * 65, "decks: at most 64 rounds"),
]
"""K10.7: decks is one deal per round, at most 64."""

WRONG_VALUES: list[tuple[str, Any, str]] = [
    ("format", "diabolo.duvelen/1", "format: expected 'diabolo.knizia/1'"),
    ("options", None, "its options differ"),
    ("options", [], "its options differ"),
    ("round", -1, "round: expected an integer in 0..63"),
    ("round", 64, "round: expected an integer in 0..63"),
    ("round", 6, "impossible state: round out of range"),
    ("phase", "Play", "phase: expected 'play', 'penalty' or 'game_over'"),
    ("phase", "over", "phase: expected 'play', 'penalty' or 'game_over'"),
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
    ("history", "0:reveal", "history: expected a list"),
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
"""A value of the wrong type, out of range, or breaking an invariant (cards the deck
lacks, card counts that do not add up, a phase without its penalty)."""

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "stale_calls": "reject"},
    {"players": 4, "variant": "victory_tiles", "handicap": 2},
    {"players": 3, "min_cards": 4, "rounds": 2},
]


def options_game(index: int) -> KniziaGame:
    return game(**OPTION_SETS[index])


def random_move(state: KniziaState, rng: random.Random) -> None:
    """A random legal move, a reveal half the time it may be, and in penalty mode now and
    then an invalid call by a random seat."""
    n = state.game.players
    options = [(m, seat) for seat in range(n) for m in state.legal_moves(seat)]
    reveals = [(m, seat) for m, seat in options if m.kind == "reveal"]
    if state.phase == "play" and rng.random() < 0.15 and state.game.stale_calls == "penalty":
        state.apply(rng.choice(["XYZ", "LAGER", "TOR@0,1,2", "STOP"]), player=rng.randrange(n))
    elif reveals and rng.random() < 0.5:
        state.apply(reveals[0][0], player=reveals[0][1])
    else:
        move, seat = rng.choice(options)
        state.apply(move, player=seat)


@lru_cache(maxsize=1)
def reachable_states() -> tuple[tuple[int, str], ...]:
    """JSON of positions met in seeded random play, with invalid calls mixed in: every
    phase, several option sets."""
    return states_met(
        {index: options_game(index) for index in range(len(OPTION_SETS))},
        range(2),
        keep=lambda step, state: step % 7 == 0 or state.phase != "play" or state.is_terminal,
        step=random_move,
        rng_seed=lambda seed, index: seed * 10 + index,
        limit=400,
    )


def card_total(state: KniziaState) -> int:
    data = json.loads(state.to_json())
    return len(data["deck"]) + len(data["table"]) + sum(len(p["taken"]) + len(p["drawn"]) for p in data["piles"])


def invariant(state: KniziaState) -> None:
    """No card is ever lost, and every seat's view has its parts."""
    assert card_total(state) == state.game.deck_size
    for seat in range(state.game.players):
        assert set(state.observation(seat)) >= {"phase", "table", "penalty", "legal"}


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


SAMPLES = BadInputSamples(
    name="knizia",
    game=game,
    base_options={"players": 3, "lexicon": LEXICON, "deck": DECK},
    positions=positions,
    movers=lambda: [(state, seat) for state in positions() for seat in (0, 1, 2)],
    simultaneous=positions,
    no_seat_message="Diabolo (Knizia) is played simultaneously (K3.2): name the player",
    seat_moves=("reveal", "pass", "TOR", "take@0", 0, 1, KniziaMove.parse("pass")),
    notation_samples=("pass", "LAGER"),
    bad_notation=BAD_NOTATION,
    surrogate_notation=("\ud800", "LAG\udfffER", "take@\udc00", "POST@\ud800"),
    wrong_type_moves=([0], (0,), {"move": "pass"}, b"pass", bytearray(b"pass")),
    canonical_notation=False,
    bad_seats=(-1, -2, 3, 6, 7, 2**31, 2**63, 2**64, -(2**70), True, False, "0", 1.0, [0]),
    bot=WordBot,
    bad_options=BAD_OPTIONS,
    good_options=GOOD_OPTIONS,
    deal_game=game,
    deal_seed=1,
    good_deal={"deck": CARDS},
    deal_places=lambda bad: [{"deck": bad}, {"decks": [CARDS, bad]}],
    bad_deals=BAD_DEALS,
    bad_decks=[({"decks": decks}, fragment) for decks, fragment in BAD_DECKS]
    + [({"deck": CARDS, "decks": [CARDS]}, "not both")],
    base_data=base_data,
    wrong_values=WRONG_VALUES,
    clause_positions=lambda: [play_position(stale_calls="reject"), penalty_position(), game_over_position()],
    reachable=reachable_states,
    reachable_game=options_game,
    reachable_keys=frozenset(range(len(OPTION_SETS))),
    phases=frozenset({"play", "penalty", "game_over"}),
    json_values=JSON_VALUES,
    fuzz_seats=(-2, 6),
    turns=False,
    always_a_move=lambda game, action: action >= 130 and game.stale_calls == "penalty",
    invariant=invariant,
)
