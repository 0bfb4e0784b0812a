"""Tests of the reference model itself (spec: docs/games/schacht.rst)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from tests.reference.schacht import (
    COLOURS,
    SIMULTANEOUS,
    TERMINAL,
    SchachtModel,
    full_deck,
    sorted_cards,
)

DEFAULT_COUNTS = (4, 3, 3, 2, 2)


def deck_with_front(front: list[str], value_counts: tuple[int, int, int, int, int] = DEFAULT_COUNTS) -> list[str]:
    """A full deck starting with `front`, the other cards after it in sorted order."""
    rest = Counter(full_deck(value_counts))
    rest.subtract(Counter(front))
    assert all(v >= 0 for v in rest.values())
    return list(front) + sorted_cards(list(rest.elements()))


def sorted_decks(count: int) -> list[list[str]]:
    """`count` copies of the sorted deck."""
    return [full_deck(DEFAULT_COUNTS) for _ in range(count)]


def scoring_model(
    players: int,
    hands: list[list[str]],
    rows: dict[str, tuple[list[int], list[int]]],
    rounds: int = 1,
) -> SchachtModel:
    """A model forced into the given hands and rows, then scored (S5)."""
    model = SchachtModel(players, sorted_decks(rounds), rounds=rounds)
    model.hands = [list(h) for h in hands]
    for colour in COLOURS:
        left, right = rows.get(colour, ([], []))
        model.left[colour] = list(left)
        model.right[colour] = list(right)
    model.start_scoring()
    return model


# ---------------------------------------------------------------- S2


def test_deal_and_automatic_first_draw() -> None:
    """S2.2-S2.4: seat left of the dealer gets the first 6 cards and has already drawn."""
    deck = full_deck(DEFAULT_COUNTS)
    model = SchachtModel(3, [deck, deck, deck])
    obs = model.observation(1)
    assert obs["dealer"] == 0
    assert obs["current_player"] == 1
    assert obs["phase"] == "play"
    assert obs["hand_sizes"] == [6, 7, 6]
    assert obs["draw_pile"] == 70 - 18 - 1
    assert obs["hand"] == sorted_cards(deck[0:6] + [deck[18]])
    assert model.observation(2)["hand"] == sorted_cards(deck[6:12])
    assert model.observation(0)["hand"] == sorted_cards(deck[12:18])
    assert obs["doubler_available"] == [True, True, True]
    assert obs["rounds"] == 3
    assert model.legal_moves(0) == [] and model.legal_moves(2) == []


def test_turn_passes_clockwise_with_draw() -> None:
    """S2.2, S2.3: after a placement the next seat clockwise draws and moves."""
    deck = full_deck(DEFAULT_COUNTS)
    model = SchachtModel(3, [deck] * 3)
    move = model.legal_moves(1)[0]
    model.apply(move, 1)
    obs = model.observation(2)
    assert obs["current_player"] == 2
    assert obs["hand_sizes"] == [6, 6, 7]
    assert obs["draw_pile"] == 70 - 18 - 2
    assert obs["hand"] == sorted_cards(deck[6:12] + [deck[19]])


def test_canonical_move_order() -> None:
    """S8: placements by colour (layout order), value, then side `<` before `>`."""
    front = ["B1", "R4", "G5", "R1", "R4", "Y2"]
    model = SchachtModel(2, [deck_with_front(front)] * 2)
    drawn = model.hands[1][-1]
    cards = sorted_cards(list(set(front + [drawn])))
    assert model.legal_moves(1) == [c + s for c in cards for s in "<>"]


# ---------------------------------------------------------------- S3


def test_side_limit() -> None:
    """S3.2: a side with 3 cards takes no more; the other side still may."""
    model = SchachtModel(2, sorted_decks(2))
    model.hands[1] = ["R1", "Y2"]
    model.left["R"] = [1, 2, 3]
    model.right["Y"] = [1, 1, 1]
    assert model.legal_moves(1) == ["R1>", "Y2<"]


def test_closed_row_and_discard() -> None:
    """S3.1, S3.3: closed rows take nothing; with no legal placement a card is discarded and the hand shown."""
    model = SchachtModel(3, sorted_decks(3), rows_to_end=3)
    model.left["R"] = [1, 1, 1]
    model.right["R"] = [2, 2]
    model.left["G"] = [1, 1]
    model.right["G"] = [3, 3, 3]
    model.hands[1] = ["G4", "R1", "R1"]
    assert model.legal_moves(1) == ["xR1", "xG4"]
    model.apply("xR1", 1)
    assert model.current_player == 2
    obs = model.observation(0)
    assert obs["revealed"]["shown"] == [[], ["R1", "G4"], []]
    assert obs["revealed"]["discarded"] == [[], ["R1"], []]
    assert obs["hand_sizes"][1] == 2
    # A later discard of a shown card removes it from the shown list.
    model.current_player = 1
    model.apply("xG4", 1)
    obs = model.observation(2)
    assert obs["revealed"]["shown"][1] == ["R1"]
    assert obs["revealed"]["discarded"][1] == ["R1", "G4"]


def test_illegal_move_rejected() -> None:
    """S3: a move not in legal_moves is refused."""
    model = SchachtModel(3, sorted_decks(3))
    with pytest.raises(AssertionError):
        model.apply("bet", 1)
    with pytest.raises(AssertionError):
        model.apply(model.legal_moves(1)[0], 0)


# ---------------------------------------------------------------- S4


def test_round_ends_when_enough_rows_close() -> None:
    """S4.1: closing the 2nd row (3 or 4 players) ends the round at once."""
    model = SchachtModel(3, sorted_decks(3))
    model.left["Y"] = [1, 1, 1]
    model.right["Y"] = [2, 1]  # closed, equal sums: no score (S5.5)
    model.left["B"] = [2, 1]
    model.right["B"] = [1, 1]
    model.hands[1] = ["B1"]
    model.apply("B1>", 1)  # blue is the 2nd closed row
    # All rows are equal, so scoring needs nothing and round 1 starts (S6.1).
    obs = model.observation(0)
    assert obs["round"] == 1
    assert obs["dealer"] == 1
    assert obs["current_player"] == 2
    assert obs["hand_sizes"] == [6, 6, 7]
    assert obs["scores"] == [0, 0, 0]
    assert obs["revealed"]["scoring"] == {}
    assert all(not obs["rows"][c]["closed"] for c in COLOURS)


def test_five_players_need_three_closed_rows() -> None:
    """S4.1: with 5 players the 3rd closed row ends the round."""
    model = SchachtModel(5, sorted_decks(5))
    assert model.rows_to_end == 3
    model.left["R"], model.right["R"] = [1, 1, 1], [1, 1]
    model.left["Y"], model.right["Y"] = [1, 1], [1, 1]
    model.hands[1] = ["Y1", "G1"]
    model.apply("Y1>", 1)
    assert model.round == 0 and model.current_player == 2


def test_empty_hands_are_skipped_and_round_ends() -> None:
    """S2.3 engine decision: empty pile, empty hand: turn skipped; all empty ends the round."""
    model = SchachtModel(3, sorted_decks(3), rounds=1)
    model.pile = []
    model.hands = [[], ["R1"], ["Y1"]]
    model.apply("R1<", 1)
    assert model.current_player == 2
    model.hands[2] = []
    model.hands[0] = ["G2"]
    model.current_player = 1
    model.hands[1] = ["Y1"]
    model.apply("Y1>", 1)  # seat 2 is empty: seat 0 moves
    assert model.current_player == 0
    model.apply("G2>", 0)  # nobody holds a card: the round is scored
    # Red is negative with nobody holding red; yellow and green are positive.
    assert model.phase == "doubler" and model.scoring_colour == "Y"
    while model.current_player == SIMULTANEOUS:
        for p in range(3):
            if model.legal_moves(p):
                model.apply("hold", p)
    assert model.scores == [0, 0, 0]
    assert model.is_terminal
    assert model.current_player == TERMINAL


# ---------------------------------------------------------------- S5


def test_rulebook_example() -> None:
    """S5.8: the rulebook's worked examples (seat 0 is A, seat 1 is B)."""
    model = scoring_model(
        2,
        hands=[["P5", "G3", "G1"], ["P4", "P2"]],
        rows={"R": ([3], [2, 1]), "G": ([2, 5], [2, 2, 1]), "P": ([5, 1], [1, 2, 4])},
    )
    # Red ties (no reveal), green is negative: A scores -4 at once.
    assert model.scores == [-4, 0]
    assert model.current_player == SIMULTANEOUS
    obs = model.observation(0)
    assert obs["phase"] == "doubler"
    assert obs["scoring_colour"] == "P"
    assert obs["legal"] == ["bet", "hold"]
    assert list(obs["revealed"]["scoring"]) == ["G"]
    assert obs["revealed"]["scoring"]["G"] == [["G1", "G3"], []]
    model.apply("bet", 1)
    assert model.observation(1)["doubler_decision"] == "bet"
    assert model.observation(0)["doubler_decision"] is None  # S7.1: secret
    assert model.observation(0)["doubler_available"] == [True, True]
    model.apply("bet", 0)
    # B scores (4+2)x2 = 12, A scores 0, both doublers spent. Blue ties.
    assert model.scores == [-4, 12]
    assert model.doubler_available == [False, False]
    assert model.is_terminal
    obs = model.observation(1)
    assert obs["phase"] == "game_over"
    assert obs["current_player"] == TERMINAL
    assert obs["round"] == 0
    assert list(obs["revealed"]["scoring"]) == ["G", "P"]
    assert obs["revealed"]["scoring"]["P"] == [["P5"], ["P2", "P4"]]
    assert obs["legal"] == []


def test_negative_ties_and_zero() -> None:
    """S5.4, S5.6: all tied seats score; highest 0 means nobody scores."""
    model = scoring_model(
        3,
        hands=[["R2", "R3"], ["R5"], ["Y4"]],
        rows={"R": ([5], [1]), "Y": ([3], [])},
    )
    assert model.scores == [-5, -5, -4]
    model = scoring_model(3, hands=[["R2"], ["Y1"], []], rows={"B": ([4], [])})
    assert model.scores == [0, 0, 0]
    assert model.revealed_scoring == {"B": [[], [], []]}


def test_hold_keeps_doubler_and_one_bet_per_round() -> None:
    """S5.3, S5.7: holding keeps the doubler; a spent doubler is not asked again."""
    model = scoring_model(
        3,
        hands=[["R3", "Y1"], ["R3", "Y5"], ["B2"]],
        rows={"R": ([], [1]), "Y": ([], [2]), "B": ([1], [3])},
    )
    assert model.scoring_colour == "R"
    assert model.legal_moves(2) == ["bet", "hold"]  # asked even without red (S5.3)
    model.apply("hold", 1)
    model.apply("bet", 0)
    assert model.current_player == SIMULTANEOUS
    model.apply("bet", 2)
    # Red: seats 0 and 1 tie with 3; only seat 0 bet.
    assert model.scores == [6, 3, 0]
    assert model.doubler_available == [False, True, False]
    assert model.scoring_colour == "Y"
    assert model.legal_moves(0) == [] and model.legal_moves(2) == []
    model.apply("bet", 1)
    # Yellow: seat 1 doubles 5; blue: no doubler left, scored without a decision.
    assert model.scores == [6, 13, 2] and model.is_terminal
    assert model.revealed_scoring["B"] == [[], [], ["B2"]]


def test_positive_without_doublers_and_next_round() -> None:
    """S5.3, S6.1: no unused doubler means no decision; the next round returns the doublers."""
    model = scoring_model(
        2,
        hands=[["G4"], ["G4", "R1"]],
        rows={"R": ([], [2]), "G": ([], [5])},
        rounds=2,
    )
    model.apply("bet", 0)
    model.apply("bet", 1)
    # Red: only seat 1 holds red (1x2); both doublers are spent.
    # Green: no doublers left, both tie with 4; then round 1 starts.
    assert model.scores == [4, 6]
    obs = model.observation(0)
    assert obs["round"] == 1 and obs["dealer"] == 1 and obs["current_player"] == 0
    assert obs["doubler_available"] == [True, True]
    assert obs["revealed"] == {"shown": [[], []], "discarded": [[], []], "scoring": {}}
    assert obs["hand_sizes"] == [7, 6]


# ---------------------------------------------------------------- full games


def check_conservation(model: SchachtModel, deck_size: int) -> None:
    """Every card is in a hand, the pile, a row or the discards (public counts only)."""
    obs = model.observation(0)
    in_rows = sum(len(r["left"]) + len(r["right"]) for r in obs["rows"].values())
    discarded = sum(len(d) for d in obs["revealed"]["discarded"])
    assert sum(obs["hand_sizes"]) + obs["draw_pile"] + in_rows + discarded == deck_size
    cards = Counter(c for hand in model.hands for c in hand) + Counter(model.pile)
    for d in model.discarded:
        cards += Counter(d)
    for colour in COLOURS:
        for v in model.left[colour] + model.right[colour]:
            cards[colour + str(v)] += 1
    assert cards == Counter(full_deck(model.value_counts))


def play_random_game(
    seed: int,
    players: int,
    rows_to_end: int | None = None,
    value_counts: tuple[int, int, int, int, int] = DEFAULT_COUNTS,
) -> SchachtModel:
    """Play random legal moves until game over, checking invariants on the way."""
    rng = random.Random(seed)
    decks: list[list[str]] = []
    for _ in range(players):
        deck = full_deck(value_counts)
        rng.shuffle(deck)
        decks.append(deck)
    model = SchachtModel(players, decks, rows_to_end=rows_to_end, value_counts=value_counts)
    deck_size = len(decks[0])
    rounds_seen = {0}
    steps = 0
    while not model.is_terminal:
        steps += 1
        assert steps < 10_000
        check_conservation(model, deck_size)
        observations = [model.observation(p) for p in range(players)]
        for p, obs in enumerate(observations):
            json.dumps(obs)
            assert obs["hand"] == sorted_cards(model.hands[p])
            assert obs["legal"] == model.legal_moves(p)
        rounds_seen.add(model.round)
        if model.current_player == SIMULTANEOUS:
            deciders = [p for p in range(players) if model.legal_moves(p)]
            assert deciders
            p = rng.choice(deciders)
            model.apply(rng.choice(["bet", "hold"]), p)
        else:
            p = model.current_player
            assert 0 <= p < players
            assert all(not model.legal_moves(q) for q in range(players) if q != p)
            model.apply(rng.choice(model.legal_moves(p)), p)
    assert rounds_seen == set(range(players))
    obs = model.observation(0)
    assert obs["phase"] == "game_over" and obs["current_player"] == TERMINAL
    assert obs["round"] == players - 1
    assert all(model.legal_moves(p) == [] for p in range(players))
    check_conservation(model, deck_size)
    return model


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(4))
def test_random_games(players: int, seed: int) -> None:
    """Random full games reach game over and conserve cards."""
    play_random_game(1000 * players + seed, players)


@pytest.mark.parametrize("seed", range(3))
def test_random_games_all_rows_and_small_deck(seed: int) -> None:
    """Options: rows_to_end=5 (rounds end by empty hands) and a smaller deck (S1.3, S4.1)."""
    play_random_game(seed, 3, rows_to_end=5)
    play_random_game(seed, 4, rows_to_end=6, value_counts=(2, 2, 2, 1, 1))


def test_random_games_are_deterministic() -> None:
    """Same decks and moves give the same scores."""
    a = play_random_game(7, 4)
    b = play_random_game(7, 4)
    assert a.scores == b.scores
