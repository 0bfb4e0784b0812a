"""Tests of the Diabolo (Knizia) reference model itself (spec: docs/games/knizia.rst)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.reference.knizia import KniziaModel, default_rounds

# A small word list with the rulebook's words (K3.3, K6.2); upper case A-Z (K2).
WORDS = ["HANG", "LAGER", "REGAL", "STOP", "POST", "TOR", "ROT", "REIS", "EIS", "SIE", "ON", "TOPS"]

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


def model(players: int, *decks: list[str], min_cards: int = 3, stale_calls: str = "penalty") -> KniziaModel:
    """A standard game with the given decks, one per round; later rounds get empty decks."""
    all_decks = list(decks) + [[] for _ in range(default_rounds(players))]
    return KniziaModel(players, all_decks, WORDS, min_cards=min_cards, stale_calls=stale_calls)


def reveal_all(game: KniziaModel, count: int) -> None:
    """The dealer reveals `count` cards (K3.1)."""
    for _ in range(count):
        game.apply("reveal", game.dealer)


def test_start_of_game_and_observation_keys_K8() -> None:
    game = model(4, ["L", "A", "G", "E", "R"])
    assert game.round == 0 and game.phase == "play" and not game.is_terminal
    assert game.legal_moves(0) == ["reveal", "pass"]  # seat 0 deals round 0 (K10.1)
    assert game.legal_moves(1) == ["pass"]
    obs = game.observation(2)
    assert set(obs) == OBSERVATION_KEYS
    assert obs == {
        "player": 2,
        "round": 0,
        "rounds": 4,
        "dealer": 0,
        "phase": "play",
        "table": [],
        "deck_count": 5,
        "piles": [0, 0, 0, 0],
        "scores": [0, 0, 0, 0],
        "last_call": None,
        "penalty": [],
        "passed": [False] * 4,
        "legal": ["pass"],
        "legal_moves": [{"kind": "pass"}],
    }


def test_reveal_only_by_the_dealer_with_cards_left_K3_1() -> None:
    game = model(3, ["T", "O", "R"], ["X"])
    with pytest.raises(ValueError, match="dealer"):
        game.apply("reveal", 1)
    game.apply("reveal", 0)
    assert game.table == ["T"] and game.observation(0)["deck_count"] == 2
    reveal_all(game, 2)
    assert game.table == ["T", "O", "R"] and game.legal_moves(0) == ["ROT", "TOR", "pass"]
    with pytest.raises(ValueError, match="empty"):
        game.apply("reveal", 0)
    game.apply("pass", 0)
    game.apply("TOR", 2)  # the deck is empty and no word is left: round 1 starts at once
    assert game.round == 1 and game.dealer == 1 and game.table == [] and game.scores == [0, 0, 3]
    assert game.legal_moves(1) == ["reveal", "pass"] and game.legal_moves(0) == ["pass"]


def test_valid_claim_takes_the_cards_and_the_rest_keep_their_order_K3_4() -> None:
    game = model(4, ["X", "L", "A", "G", "E", "R", "Q"])
    reveal_all(game, 6)
    assert game.legal_moves(2) == ["LAGER", "REGAL", "pass"]  # alphabetical, then pass
    assert game.legal_moves(0) == ["reveal", "LAGER", "REGAL", "pass"]
    game.apply("pass", 3)
    game.apply("REGAL", 2)
    assert game.table == ["X"]
    assert game.piles == [0, 0, 5, 0]
    assert game.passed == [False] * 4  # a valid claim clears every pass (K10.5)
    assert game.last_call == {"seat": 2, "word": "REGAL", "valid": True, "reason": None}


def test_best_assignment_most_cards_then_fewest_jokers_then_lowest_positions_K10_4() -> None:
    # P, ?, O, S, T, T: POST with four plain cards, the lower T (K10.4).
    game = model(2, ["P", "?", "O", "S", "T", "T", "Z"])
    reveal_all(game, 6)
    game.apply("POST", 1)
    assert game.table == ["?", "T"] and game.piles == [0, 4]
    # P, ST, O, ?, T: POST as P, O, S?, T (4 cards) beats P, O, ST (3 cards).
    game = model(2, ["P", "ST", "O", "?", "T", "Z"])
    reveal_all(game, 5)
    game.apply("POST", 0)
    assert game.table == ["ST"] and game.piles == [4, 0]


def test_double_joker_stands_for_two_letters_K3_3f() -> None:
    # The rulebook's example: P, T and a double joker make POST.
    game = model(2, ["P", "T", "??", "Z"])
    reveal_all(game, 3)
    assert game.legal_moves(1) == ["POST", "pass"]  # STOP would need ?? for S and O apart
    game.apply("POST@0,2,1", 1)
    assert game.table == [] and game.piles == [0, 3]
    # A double joker never stands for one letter: T, O, ?? is no TOR; only T + ?? (OR),
    # which is two cards.
    game = model(2, ["T", "O", "??", "Z"])
    reveal_all(game, 3)
    assert game.legal_moves(0) == ["reveal", "TOPS", "pass"]  # T, O, ?? as PS
    game.apply("TOR", 0)
    assert game.last_call is not None and game.last_call["reason"] == "too few cards"


def test_reasons_for_a_bare_claim_in_order_K10_8() -> None:
    game = model(3, ["S", "EI", "R", "Z"], stale_calls="reject")
    reveal_all(game, 3)
    assert game.legal_moves(1) == ["REIS", "pass"]  # EIS is only two cards
    cases = {
        "XYZ": "not a word",
        "ON": "too few cards",  # a word shorter than min_cards
        "EIS": "too few cards",  # EI + S: the best assignment has 2 cards
        "SIE": "double letter split or reversed",  # EI used as I, E
        "TOR": "letters missing",
    }
    for word, reason in cases.items():
        with pytest.raises(ValueError, match=reason):
            game.apply(word, 1)
        checked = game.check_claim(word)
        assert checked == (None, reason)


def test_named_positions_K7() -> None:
    game = model(2, ["P", "O", "ST", "X", "Z"], stale_calls="reject")
    reveal_all(game, 4)
    checks = {
        "POST@0,1": "too few cards",
        "POST@0,2,1": "letters missing",  # P, ST, O spells PSTO: the order is wrong, no double letter
        "TOPS@2,1,0": "double letter split or reversed",  # ST would have to be split
        "POST@0,1,3": "letters missing",
        "POST@0,1,9": "letters missing",  # a position off the table
        "HANG@0,1,2": "letters missing",
        "POTS@0,1,2": "not a word",
    }
    for move, reason in checks.items():
        with pytest.raises(ValueError, match=reason):
            game.apply(move, 0)
    game.apply("STOP@2,1,0", 1)
    assert game.table == ["X"] and game.piles == [0, 3]


def test_malformed_claims_are_not_calls_K10_3() -> None:
    game = model(2, ["P", "O", "ST", "X", "Z"])  # penalty mode: an invalid call would not raise
    reveal_all(game, 4)
    before = game.observation(0)
    for move in ["POST@", "POST@0,,1", "POST@0,1,1", "POST@-1,0,1", "POST@a,b,c", "post", "POST@0, 1,2", "take@x"]:
        with pytest.raises(ValueError):
            game.apply(move, 0)
        assert game.observation(0) == before
    game.apply("POST@0,1,9", 0)  # off the table: a call, and invalid
    assert game.phase == "penalty" and game.last_call is not None and not game.last_call["valid"]


def test_invalid_call_penalty_with_table_cards_K3_5() -> None:
    game = model(3, ["A", "B", "C", "D", "E"])
    reveal_all(game, 2)
    game.apply("pass", 1)
    game.apply("pass", 0)
    game.apply("HANG", 0)
    assert game.last_call == {"seat": 0, "word": "HANG", "valid": False, "reason": "letters missing"}
    assert game.phase == "penalty" and game.penalty == [1, 2]
    assert game.passed == [False, True, False]  # only the caller's pass is cleared
    assert game.legal_moves(1) == ["take@0", "take@1"]
    assert game.legal_moves(0) == [] and game.legal_moves(2) == []
    for move, seat in [("take@0", 2), ("reveal", 0), ("pass", 1), ("LAGER", 1), ("take@2", 1)]:
        with pytest.raises(ValueError):
            game.apply(move, seat)
    game.apply("take@1", 1)
    assert game.table == ["A"] and game.penalty == [2] and game.passed == [False, False, False]
    game.apply("take@0", 2)
    assert game.table == [] and game.phase == "play" and game.penalty == []
    assert game.piles == [0, 1, 1]
    with pytest.raises(ValueError, match="penalty"):
        game.apply("take@0", 1)


def test_penalty_takers_get_deck_cards_when_the_table_runs_out_K10_2() -> None:
    game = model(4, ["A", "B", "C", "D"])
    game.apply("reveal", 0)
    game.apply("ROT", 2)  # the table has one card: seat 3 takes it, then 0 and 1 draw
    assert game.phase == "penalty" and game.penalty == [3, 0, 1]
    game.apply("take@0", 3)
    assert game.penalty == [] and game.phase == "play"
    assert game.piles == [1, 1, 0, 1]
    assert game.table == [] and game.observation(0)["deck_count"] == 1
    # An empty table and one card left: seat 0 draws it, seats 1 and 2 get nothing;
    # then the deck is empty and the table forms no word: the round ends.
    game.apply("XYZ", 3)
    assert game.round == 1 and game.scores == [2, 1, 0, 1]


def test_round_ends_when_every_pass_stands_K10_5() -> None:
    game = model(2, ["T", "O", "R"], ["Z"])
    reveal_all(game, 3)
    assert game.round == 0 and game.legal_moves(0) == ["ROT", "TOR", "pass"]
    game.apply("pass", 0)
    game.apply("pass", 0)  # pass is offered again and changes nothing
    assert game.round == 0
    game.apply("pass", 1)
    assert game.round == 1 and game.scores == [0, 0] and game.table == []
    assert game.dealer == 1 and game.passed == [False, False]


def test_passes_do_not_end_the_round_while_the_deck_lasts_and_reveal_clears_the_dealers() -> None:
    game = model(2, ["T", "O", "R", "X"])
    reveal_all(game, 3)
    game.apply("pass", 0)
    game.apply("pass", 1)
    assert game.round == 0 and game.passed == [True, True]
    game.apply("reveal", 0)
    assert game.passed == [False, True] and game.round == 0
    game.apply("pass", 0)
    assert game.round == 1


def test_round_ends_when_no_word_is_left_K3_7() -> None:
    game = model(2, ["L", "A", "G", "E", "R", "X"], ["Z"])
    reveal_all(game, 6)
    assert game.round == 0  # the words on the table keep the round going
    game.apply("LAGER", 1)
    assert game.round == 1 and game.scores == [0, 5]


def test_rounds_per_player_count_K4_2() -> None:
    assert [default_rounds(n) for n in range(2, 7)] == [4, 6, 4, 5, 6]
    for players, rounds in [(2, 4), (3, 6), (4, 4), (6, 6)]:
        game = KniziaModel(players, [["Z"]] * rounds, WORDS)
        assert game.rounds == rounds
        for r in range(rounds):
            assert game.round == r and game.dealer == r % players
            game.apply("reveal", r % players)
        assert game.is_terminal and game.phase == "game_over"
    with pytest.raises(ValueError):
        KniziaModel(3, [["Z"]] * 5, WORDS)  # six rounds need six decks


def test_game_over_keeps_the_last_round_and_refuses_moves() -> None:
    game = KniziaModel(2, [["T", "O", "R", "Z"]], WORDS, rounds=1)
    reveal_all(game, 3)
    game.apply("TOR", 1)
    game.apply("pass", 1)
    game.apply("reveal", 0)
    assert game.is_terminal and game.scores == [0, 3]
    obs = game.observation(0)
    assert obs["table"] == ["Z"] and obs["piles"] == [0, 3] and obs["passed"] == [False, True]
    assert obs["last_call"] == {"seat": 1, "word": "TOR", "valid": True, "reason": None}
    assert obs["legal"] == [] and game.legal_moves(1) == []
    for move in ["pass", "reveal", "TOR", "take@0"]:
        with pytest.raises(ValueError, match="over"):
            game.apply(move, 0)


def test_victory_tiles_ties_and_handicap_K4_3() -> None:
    decks = [
        ["L", "A", "G", "E", "R", "Z"],  # seat 0 takes LAGER: tile
        ["T", "O", "R", "L", "A", "G", "E", "R", "Z"],  # 0 takes 5 - 3, 1 takes 3: seat 1's tile
        ["Z"],  # nobody takes anything: both tie and each gets a tile
        ["Z"],
    ]
    game = KniziaModel(2, decks, WORDS, variant="victory_tiles", handicap=3)
    assert game.rounds is None and game.observation(0)["rounds"] is None
    reveal_all(game, 5)
    game.apply("LAGER", 0)
    game.apply("reveal", 0)
    assert game.round == 1 and game.scores == [1, 0]
    reveal_all(game, 3)
    game.apply("TOR", 1)
    reveal_all(game, 5)
    game.apply("LAGER", 0)
    game.apply("reveal", 1)
    assert game.round == 2 and game.scores == [1, 1]
    game.apply("reveal", 0)
    assert game.is_terminal and game.scores == [2, 2]


def test_victory_tiles_end_at_two_tiles_not_at_the_round_count_K4_3() -> None:
    game = KniziaModel(4, [["Z"]] * 8, WORDS, variant="victory_tiles")
    game.apply("reveal", 0)  # all tie with 0 cards: a tile each
    game.apply("reveal", 1)
    assert game.is_terminal and game.scores == [2, 2, 2, 2] and game.round == 1
    # Four players usually play four rounds; here each seat wins one, and round 4 decides.
    game = KniziaModel(4, [["T", "O", "R", "Z"]] * 8, WORDS, variant="victory_tiles")
    for r in range(5):
        reveal_all(game, 3)
        game.apply("TOR", r % 4)
        game.apply("reveal", game.dealer)
    assert game.is_terminal and game.round == 4 and game.scores == [2, 1, 1, 1]


def test_reject_mode_leaves_the_state_unchanged_K10_3() -> None:
    game = model(3, ["T", "O", "R", "X"], stale_calls="reject")
    reveal_all(game, 2)
    game.apply("pass", 1)
    before = game.observation(1)
    for word in ["TOR", "XYZ", "STOP", "TOR@0,1,2"]:
        with pytest.raises(ValueError, match="invalid call"):
            game.apply(word, 1)
        assert game.observation(1) == before


def test_children_variant_min_cards_4() -> None:
    game = model(2, ["T", "O", "R", "S", "P", "Z"], min_cards=4)
    reveal_all(game, 5)
    assert game.legal_moves(1) == ["POST", "STOP", "TOPS", "pass"]
    game.apply("TOR", 1)
    assert game.last_call is not None and game.last_call["reason"] == "too few cards"


def test_random_games_keep_every_card_K5_1() -> None:
    letters = ["T", "O", "R", "P", "S", "ST", "EI", "A", "G", "E", "L", "?", "??", "N", "H"]
    for seed in range(30):
        rng = random.Random(seed)
        players = rng.randint(2, 4)
        variant = rng.choice(["standard", "victory_tiles"])
        decks = [[rng.choice(letters) for _ in range(rng.randint(0, 12))] for _ in range(40)]
        game = KniziaModel(players, decks, WORDS, variant=variant, handicap=rng.randint(0, 4))
        for _ in range(2000):
            if game.is_terminal:
                break
            round_before = game.round
            options = [(move, seat) for seat in range(players) for move in game.legal_moves(seat)]
            if game.phase == "play" and rng.random() < 0.1:
                options.append((rng.choice(WORDS), rng.randrange(players)))
            move, seat = rng.choice(options)
            game.apply(move, seat)
            if game.round == round_before and not game.is_terminal:
                counted = Counter(game.table) + Counter(game.deck)
                assert sum(counted.values()) + sum(game.piles) == len(decks[game.round])
            assert set(game.observation(seat)) == OBSERVATION_KEYS
        assert game.is_terminal
