"""Rule tests of Diabolo (Schacht), one or a few per clause of docs/games/schacht.rst.

Each test names its clause and quotes it (in our words) in the docstring. Positions are
built with a given deal (``new_state(deck=...)``, S2.4) or as exact JSON positions
(``state_from_json``) and always driven through the public API.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

import diabolo
from diabolo.schacht import SchachtGame, SchachtMove, SchachtState
from tests.schacht_helpers import (
    COLOURS,
    DEFAULT_COUNTS,
    data_of,
    decide_all,
    full_deck,
    given_deal,
    hold_all,
    play_out,
    position,
    sorted_cards,
)

# A closed yellow row with equal sums (6 = 6): it scores nothing (S5.5), so it can stand
# as "the first closed row" in positions about other rows.
YELLOW_CLOSED_EQUAL = ([1, 2, 3], [2, 4])


def act(state: SchachtState) -> int:
    """The seat that acts next: the player to move, or the first undecided seat (S5.3)."""
    player = state.current_player
    if player == diabolo.SIMULTANEOUS:
        player = next(p for p in range(state.game.players) if state.legal_moves(p))
    return player


def all_cards_in_play(state: SchachtState) -> Counter[str]:
    """Every card of the state (hands, pile, rows, discards) from its JSON."""
    data = data_of(state)
    cards: Counter[str] = Counter(data["pile"])
    for hand in data["hands"]:
        cards.update(hand)
    for discarded in data["discarded"]:
        cards.update(discarded)
    for colour, row in data["rows"].items():
        cards.update(f"{colour}{v}" for v in row["left"] + row["right"])
    return cards


def hand_of(state: SchachtState, seat: int) -> list[str]:
    hand: list[str] = state.observation(seat)["hand"]
    return hand


# ---------------------------------------------------------------------------- S1


def test_S1_1_three_to_five_players_strict() -> None:
    """S1.1: 3 to 5 players; other counts are rejected with a clear error by default."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        assert game.players == players
        assert game.strict_players is True
        state = game.new_state(seed=1)
        assert len(state.scores) == players
    for players in (0, 1, 2, 6, 7, 8, -3):
        with pytest.raises(diabolo.OptionError, match="players"):
            diabolo.load("schacht", players=players)


def test_S1_1_relaxed_player_count_option() -> None:
    """S1.1: an option may relax the player count for experiments (2..8 here)."""
    for players in (2, 3, 6, 8):
        game = diabolo.load("schacht", players=players, strict_players=False)
        assert game.players == players
        assert game.strict_players is False
        state = game.new_state(seed=players)
        assert state.observation(0)["hand_sizes"][1 % players] == 7
        play_out(state)
        assert state.is_terminal
    for players in (1, 9):
        with pytest.raises(diabolo.OptionError):
            diabolo.load("schacht", players=players, strict_players=False)


def test_S1_2_layout_order_of_colours() -> None:
    """S1.2: five colours in layout order red, yellow, green, purple, blue."""
    state = diabolo.load("schacht", players=3).new_state(seed=4)
    assert list(state.observation(0)["rows"]) == list("RYGPB")
    assert list(data_of(state)["rows"]) == list("RYGPB")


def test_S1_3_deck_composition() -> None:
    """S1.3: 70 cards; each colour has four 1s, three 2s, three 3s, two 4s, two 5s (sum 37)."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        assert game.deck_size == 70
        assert game.options["value_counts"] == DEFAULT_COUNTS
        for seed in (0, 1, 2**64 - 1):
            cards = all_cards_in_play(game.new_state(seed=seed))
            assert sum(cards.values()) == 70
            for colour in COLOURS:
                assert [cards[f"{colour}{v}"] for v in range(1, 6)] == [4, 3, 3, 2, 2]
                assert sum(v * cards[f"{colour}{v}"] for v in range(1, 6)) == 37


def test_S1_3_value_counts_option() -> None:
    """S1.3: the deck composition is a rule option (copies of each value per colour)."""
    counts = (2, 2, 1, 1, 1)
    game = diabolo.load("schacht", players=3, value_counts=counts)
    assert game.options["value_counts"] == counts
    assert game.deck_size == 5 * sum(counts)
    cards = all_cards_in_play(game.new_state(seed=9))
    assert cards == Counter(full_deck(counts))
    big = diabolo.load("schacht", players=5, value_counts=(5, 5, 5, 5, 5))
    assert big.deck_size == 125
    state = big.new_state(seed=3)
    assert all_cards_in_play(state) == Counter(full_deck((5, 5, 5, 5, 5)))
    play_out(state)
    assert state.is_terminal
    # A given deal follows the configured composition (S2.4).
    game.new_state(deck=full_deck(counts))
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(deck=full_deck())


def test_S1_3_value_counts_property() -> None:
    """S1.3: ``game.value_counts`` reports the composition option.

    Run in a child process: reading the property must not crash the interpreter."""
    code = (
        "import diabolo\n"
        "g = diabolo.load('schacht', players=3, value_counts=(2, 2, 1, 1, 1))\n"
        "v = g.value_counts\n"
        "assert tuple(v) == (2, 2, 1, 1, 1), v\n"
        "assert tuple(diabolo.load('schacht').value_counts) == (4, 3, 3, 2, 2)\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    assert result.stdout.strip() == "ok"


def test_S1_4_one_doubler_per_player() -> None:
    """S1.4, S2.1: each player has one doubler, unused at the start of a round."""
    for players in (3, 4, 5):
        state = diabolo.load("schacht", players=players).new_state(seed=players)
        for seat in range(players):
            assert state.observation(seat)["doubler_available"] == [True] * players


# ---------------------------------------------------------------------------- S2


def test_S2_1_deal_sizes() -> None:
    """S2.1: 6 cards face down to each player; the rest is the draw pile."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        state = game.new_state(seed=11)
        starter = state.current_player
        obs = state.observation(0)
        # The starter has already drawn (S2.3).
        assert obs["hand_sizes"] == [7 if seat == starter else 6 for seat in range(players)]
        assert obs["draw_pile"] == 70 - 6 * players - 1
        assert obs["rows"] == {c: {"left": [], "right": [], "closed": False} for c in COLOURS}
        assert obs["scores"] == [0] * players


def test_S2_2_seat_left_of_dealer_starts_and_play_is_clockwise() -> None:
    """S2.2: seat 0 deals round 0; seat (dealer + 1) % n starts; play goes clockwise."""
    for players in (3, 4, 5):
        state = diabolo.load("schacht", players=players).new_state(seed=5)
        assert state.round == 0
        assert state.dealer == 0
        assert state.current_player == 1
        expected = 1
        for _ in range(2 * players):
            assert state.phase == "play"
            assert state.current_player == expected
            state.apply(state.legal_moves()[0])
            expected = (expected + 1) % players


def test_S2_2_S6_1_dealer_rotation_over_rounds() -> None:
    """S2.2, S6.1: seat r % n deals round r, the seat after it starts; each new round is
    a fresh deal of 6 each, empty rows and every doubler returned."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        state = game.new_state(seed=100 + players)
        rng = random.Random(players)
        seen = [0]
        while not state.is_terminal:
            player = act(state)
            state.apply(rng.choice(state.legal_moves(player)), player=player)
            if not state.is_terminal and state.round != seen[-1]:
                r = state.round
                assert r == seen[-1] + 1
                seen.append(r)
                assert state.dealer == r % players
                assert state.phase == "play"
                assert state.current_player == (r + 1) % players
                obs = state.observation(state.dealer)
                assert obs["round"] == r
                assert obs["dealer"] == r % players
                assert obs["hand_sizes"] == [7 if s == (r + 1) % players else 6 for s in range(players)]
                assert obs["draw_pile"] == 70 - 6 * players - 1
                assert obs["doubler_available"] == [True] * players
                assert all(not row["left"] and not row["right"] for row in obs["rows"].values())
                assert obs["revealed"]["shown"] == [[]] * players
                assert obs["revealed"]["discarded"] == [[]] * players
                assert obs["revealed"]["scoring"] == {}
                assert obs["scores"] == state.scores
        assert seen == list(range(players))
        assert state.round == players - 1
        assert state.dealer == (players - 1) % players


def test_S2_3_draw_then_place() -> None:
    """S2.3: the draw is automatic: the player to move already holds the top card of the
    pile (7 cards), then places one card on the left (devil) or right (angel) side."""
    deck = full_deck()
    game = diabolo.load("schacht", players=3)
    state = game.new_state(deck=deck)
    # Seat 1 got deck[0:6] and drew deck[18]; seat 2 got deck[6:12]; seat 0 deck[12:18].
    assert hand_of(state, 1) == sorted_cards(deck[0:6] + [deck[18]])
    assert hand_of(state, 2) == sorted_cards(deck[6:12])
    assert hand_of(state, 0) == sorted_cards(deck[12:18])
    assert state.observation(0)["draw_pile"] == 70 - 19
    state.apply("R1<")
    obs = state.observation(2)
    assert obs["rows"]["R"] == {"left": [1], "right": [], "closed": False}
    assert obs["hand_sizes"] == [6, 6, 7]
    assert obs["draw_pile"] == 70 - 20
    assert obs["hand"] == sorted_cards(deck[6:12] + [deck[19]])
    assert hand_of(state, 1) == sorted_cards(deck[1:6] + [deck[18]])
    state.apply("R2>")
    assert state.observation(0)["rows"]["R"] == {"left": [1], "right": [2], "closed": False}
    assert hand_of(state, 0) == sorted_cards(deck[12:18] + [deck[20]])
    # Every legal move is a placement of a held card on one of the two sides.
    for move in state.legal_moves():
        assert move.kind == "place"
        assert move.card in hand_of(state, 0)
        assert move.side in ("left", "right")
    assert {str(m) for m in state.legal_moves()} == {f"{card}{side}" for card in hand_of(state, 0) for side in "<>"}


def test_S2_3_empty_pile_skips_the_draw() -> None:
    """S2.3 (engine decision): with an empty pile the player to move does not draw."""
    game = diabolo.load("schacht", players=3)
    state = position(game, hands=[[], ["R1", "Y1"], ["G1", "G2"]], rest_to=0, current_player=1)
    before = state.observation(0)
    assert before["draw_pile"] == 0
    sizes = before["hand_sizes"]
    state.apply("R1<")
    obs = state.observation(2)
    assert state.current_player == 2
    assert obs["hand_sizes"] == [sizes[0], 1, 2]
    assert obs["hand"] == ["G1", "G2"]
    assert obs["draw_pile"] == 0


def test_S2_3_player_without_cards_is_skipped_when_the_pile_is_empty() -> None:
    """S2.3 (engine decision): a player with no cards while the pile is empty is skipped."""
    game = diabolo.load("schacht", players=3)
    state = position(game, hands=[["G1"], ["R1", "Y1"], []], rest_to=0, current_player=1)
    state.apply("Y1>")
    assert state.current_player == 0
    assert state.legal_moves(2) == []
    state.apply(state.legal_moves()[0])
    assert state.current_player == 1  # seat 2 still has nothing: skipped again


def test_S2_4_given_deal() -> None:
    """S2.4: the first 6 cards go to the seat left of the dealer, the next 6 to the seat
    after it, clockwise; the rest is the pile, drawn from the front."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        deck = full_deck()
        random.Random(players).shuffle(deck)
        state = game.new_state(seed=1, deck=deck)
        for i in range(players):
            seat = (1 + i) % players
            expected = deck[6 * i : 6 * i + 6]
            if seat == 1:
                expected = expected + [deck[6 * players]]
            assert hand_of(state, seat) == sorted_cards(expected)
        assert data_of(state)["pile"] == deck[6 * players + 1 :]
        # The seed does not matter for a given deal.
        assert game.new_state(seed=2, deck=deck).to_json().replace('"seed":2', '"seed":1') == state.to_json()


def test_S2_4_given_hands_helper_deal() -> None:
    """S2.4: a deal built for chosen hands gives exactly those hands."""
    game = diabolo.load("schacht", players=4)
    hands = {1: ["R5", "R5", "Y5", "G5", "P5", "B5"], 3: ["B1", "B1", "B2", "B3", "B4", "B4"]}
    deck = given_deal(4, hands, pile_front=["P4"])
    state = game.new_state(deck=deck)
    assert hand_of(state, 1) == sorted_cards(hands[1] + ["P4"])
    assert hand_of(state, 3) == sorted_cards(hands[3])


def test_S2_4_decks_for_later_rounds() -> None:
    """S2.4: ``decks=[...]`` gives one deal per round; a round without one is shuffled."""
    game = diabolo.load("schacht", players=3, rounds=3)
    deck1 = full_deck()
    deck2 = list(reversed(full_deck()))
    state = game.new_state(seed=8, decks=[None, deck1, deck2])
    shuffled = game.new_state(seed=8)
    assert state.to_json() != game.new_state(seed=8, deck=deck1).to_json()
    assert hand_of(state, 1) == hand_of(shuffled, 1)  # round 0 shuffled from the seed
    rounds_seen = {0}
    while not state.is_terminal:
        player = act(state)
        state.apply(state.legal_moves(player)[0], player=player)
        if state.round not in rounds_seen and not state.is_terminal:
            rounds_seen.add(state.round)
            r = state.round
            deck = deck1 if r == 1 else deck2
            dealer = r % 3
            for i in range(3):
                seat = (dealer + 1 + i) % 3
                expected = deck[6 * i : 6 * i + 6]
                if seat == (dealer + 1) % 3:
                    expected = expected + [deck[18]]
                assert hand_of(state, seat) == sorted_cards(expected)
            assert data_of(state)["pile"] == deck[19:]
    assert rounds_seen == {0, 1, 2}


@pytest.mark.parametrize(
    "deck",
    [
        full_deck()[:-1],  # 69 cards
        full_deck() + ["R1"],  # 71 cards
        full_deck()[:-1] + ["R1"],  # 70 cards, five red 1s and one blue 5
        ["R1"] * 70,
        [],
        full_deck()[:-1] + ["Q5"],  # not a card
        full_deck()[:-1] + ["B6"],
    ],
)
def test_S2_4_wrong_decks_are_rejected(deck: list[str]) -> None:
    """S2.4: a list that is not exactly the deck is rejected with a clear error."""
    game = diabolo.load("schacht", players=3)
    with pytest.raises(diabolo.StateFormatError, match=r"\S"):
        game.new_state(deck=deck)
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[None, deck])
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[deck])


def test_S2_4_more_decks_than_rounds_rejected() -> None:
    """S2.4: one deal per round, no more."""
    game = diabolo.load("schacht", players=3, rounds=2)
    with pytest.raises(diabolo.StateFormatError):
        game.new_state(decks=[full_deck(), full_deck(), full_deck()])
    game.new_state(decks=[full_deck(), full_deck()])


# ---------------------------------------------------------------------------- S3


def test_S3_1_row_closes_at_five_cards() -> None:
    """S3.1: a row holds at most 5 cards; with 5 it is closed and takes no more."""
    game = diabolo.load("schacht", players=3)
    state = position(
        game,
        hands=[["R3", "B1"], ["R1", "Y1"], ["R2", "R4", "G1"]],
        rows={"R": ([1, 1], [2, 2])},
        current_player=1,
    )
    assert {str(m) for m in state.legal_moves()} == {"R1<", "R1>", "Y1<", "Y1>"}
    state.apply("R1<")
    obs = state.observation(2)
    assert obs["rows"]["R"] == {"left": [1, 1, 1], "right": [2, 2], "closed": True}
    # The first closed row does not end the round (S4.1): seat 2 plays, without red.
    assert state.phase == "play"
    assert state.current_player == 2
    assert [m.card for m in state.legal_moves()] == ["G1", "G1"]
    state.apply("G1>")
    assert state.current_player == 0
    assert {m.card for m in state.legal_moves()} == {"B1"} | {card for card in hand_of(state, 0) if card[0] != "R"}
    assert all(not (m.card or "").startswith("R") for m in state.legal_moves())


def test_S3_2_side_holds_at_most_three() -> None:
    """S3.2: a side with 3 cards takes no more; the other side still may."""
    game = diabolo.load("schacht", players=3)
    state = position(
        game,
        hands=[["B1"], ["P2", "G2"], ["G3"]],
        rows={"P": ([1, 1, 1], []), "G": ([], [1, 1, 1])},
        current_player=1,
    )
    assert [str(m) for m in state.legal_moves()] == ["G2<", "P2>"]
    state.apply("P2>")
    state.apply("G3<")
    obs = state.observation(0)
    assert obs["rows"]["P"] == {"left": [1, 1, 1], "right": [2], "closed": False}
    assert obs["rows"]["G"] == {"left": [3], "right": [1, 1, 1], "closed": False}


def test_S3_2_closed_rows_are_three_plus_two() -> None:
    """S3.1, S3.2: no side ever exceeds 3 cards; a closed row is 3+2 or 2+3."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players, rows_to_end=5)
        for seed in range(6):
            rng = random.Random(seed)
            state = game.new_state(seed=seed)
            while not state.is_terminal:
                player = act(state)
                state.apply(rng.choice(state.legal_moves(player)), player=player)
                for row in state.observation(0)["rows"].values():
                    left, right = len(row["left"]), len(row["right"])
                    assert left <= 3 and right <= 3
                    assert left + right <= 5
                    assert row["closed"] == (left + right == 5)
                    if row["closed"]:
                        assert (left, right) in ((3, 2), (2, 3))


def test_S3_3_discard_only_when_nothing_can_be_placed() -> None:
    """S3.3: a card may be discarded only by a player who cannot place any hand card."""
    game = diabolo.load("schacht", players=3)
    closed_purple = {"P": ([1, 2, 3], [4, 5])}
    # One placeable card (G1): no discard.
    state = position(game, hands=[["R2"], ["P1", "P3", "G1"], ["R3"]], rows=closed_purple, current_player=1)
    assert [str(m) for m in state.legal_moves()] == ["G1<", "G1>"]
    # Only cards of the closed purple row: every held card (once per kind) may be discarded.
    state = position(game, hands=[["R2"], ["P1", "P1", "P3"], ["R3"]], rows=closed_purple, current_player=1)
    moves = state.legal_moves()
    assert [str(m) for m in moves] == ["xP1", "xP3"]
    assert all(m.kind == "discard" and m.side is None for m in moves)


def test_S3_3_discard_shows_the_hand_and_leaves_the_round() -> None:
    """S3.3: the player shows the hand and discards a card out of the round; the shown
    hand and the discarded card are public in every player's observation."""
    game = diabolo.load("schacht", players=3, rounds=1)
    closed_purple = {"P": ([1, 2, 3], [4, 5])}
    state = position(
        game,
        hands=[["R2"], ["P1", "P3", "P3"], ["R3", "G1"]],
        rows=closed_purple,
        current_player=1,
        pile_front=["Y1"],
    )
    hand_before = hand_of(state, 1)
    state.apply("xP3")
    assert state.history[-1] == (1, SchachtMove.parse("xP3"))
    # Play passes on: seat 2 draws Y1.
    assert state.current_player == 2
    assert hand_of(state, 2) == ["R3", "Y1", "G1"]
    assert hand_of(state, 1) == ["P1", "P3"]
    for seat in range(3):
        obs = state.observation(seat)
        shown = obs["revealed"]["shown"]
        discarded = obs["revealed"]["discarded"]
        assert discarded == [[], ["P3"], []]
        assert shown[0] == [] and shown[2] == []
        # The shown hand is the hand at the discard (with or without the discarded card).
        assert not Counter(shown[1]) - Counter(hand_before)
        assert not Counter(hand_before) - (Counter(shown[1]) + Counter(discarded[1]))
        assert obs["hand_sizes"][1] == 2
        # The discarded card is in no row.
        assert obs["rows"]["P"] == {"left": [1, 2, 3], "right": [4, 5], "closed": True}
    # The next turns go on as usual; the shown hand stays public.
    state.apply("Y1>")
    assert state.current_player == 0
    assert state.observation(2)["revealed"]["discarded"] == [[], ["P3"], []]


def test_S3_3_discarded_card_does_not_score() -> None:
    """S3.3, S5.3: a discarded card has left the round and is not in the hand sum."""
    game = diabolo.load("schacht", players=3, rounds=1)
    # Purple is positive (6 < 9) and closed; seat 1 holds P3+P3 and must discard one.
    state = position(
        game,
        hands=[["G4"], ["P3", "P3"], ["G5"]],
        rows={"P": ([1, 2, 3], [4, 5]), "G": ([1, 1], [2, 2])},
        current_player=1,
        doubler_available=[False, False, False],
    )
    state.apply("xP3")
    assert state.current_player == 2
    state.apply("G5<")  # closes green (7 < 4: negative), the 2nd closed row ends the round
    assert state.is_terminal
    # Purple: seat 1 holds P3 only (3); green: seat 0 holds G4, the highest: -4.
    assert state.scores == [-4, 3, 0]


# ---------------------------------------------------------------------------- S4


def test_S4_1_round_ends_when_the_second_row_closes() -> None:
    """S4.1: with 3 or 4 players the round ends immediately when the 2nd row closes."""
    for players in (3, 4):
        game = diabolo.load("schacht", players=players, rounds=1)
        hands: list[list[str]] = [["B1"] for _ in range(players)]
        hands[1] = ["R1", "Y1"]
        state = position(
            game,
            hands=hands,
            rows={"Y": YELLOW_CLOSED_EQUAL, "R": ([1, 2], [1, 1])},
            current_player=1,
        )
        sizes = state.observation(0)["hand_sizes"]
        pile = state.observation(0)["draw_pile"]
        state.apply("R1<")  # red closes (4 vs 2: negative; nobody holds red)
        assert state.is_terminal
        obs = state.observation(0)
        assert obs["rows"]["R"]["closed"] and obs["rows"]["Y"]["closed"]
        # Immediately: nobody drew after the closing card.
        assert obs["draw_pile"] == pile
        assert obs["hand_sizes"] == [s - (1 if seat == 1 else 0) for seat, s in enumerate(sizes)]


def test_S4_1_first_closed_row_does_not_end_the_round() -> None:
    """S4.1: closing the 1st row (3-4 players) or the 2nd (5 players) lets play go on."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        rows = {"R": ([1, 2], [1, 1])}
        if players == 5:
            rows["Y"] = YELLOW_CLOSED_EQUAL
        hands: list[list[str]] = [["B1"] for _ in range(players)]
        hands[1] = ["R1", "Y5"]
        state = position(game, hands=hands, rows=rows, current_player=1)
        state.apply("R1<")
        assert state.phase == "play"
        assert state.round == 0
        assert state.current_player == 2


def test_S4_1_five_players_third_row_ends_the_round() -> None:
    """S4.1: with 5 players the round ends when the 3rd row closes."""
    game = diabolo.load("schacht", players=5, rounds=1)
    assert game.rows_to_end == 3
    hands: list[list[str]] = [["B1"] for _ in range(5)]
    hands[1] = ["G1", "B2"]
    state = position(
        game,
        hands=hands,
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 2, 3], [2, 4]), "G": ([1, 2], [1, 1])},
        current_player=1,
    )
    state.apply("G1<")
    assert state.is_terminal


def test_S4_1_rows_to_end_option() -> None:
    """S4.1: an option sets the number of closed rows that ends a round."""
    assert diabolo.load("schacht", players=3).rows_to_end == 2
    assert diabolo.load("schacht", players=4).rows_to_end == 2
    assert diabolo.load("schacht", players=5).rows_to_end == 3
    # rows_to_end=1: the first closed row ends the round.
    game = diabolo.load("schacht", players=3, rows_to_end=1, rounds=1)
    assert game.rows_to_end == 1
    state = position(game, hands=[["B1"], ["R1", "Y1"], ["B2"]], rows={"R": ([1, 2], [1, 1])}, current_player=1)
    state.apply("R1<")
    assert state.is_terminal
    # rows_to_end=3 with 3 players: the 2nd closed row does not end it, the 3rd does.
    game = diabolo.load("schacht", players=3, rows_to_end=3, rounds=1)
    state = position(
        game,
        hands=[["B1"], ["R1", "G1"], ["B2", "G1"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "R": ([1, 2], [1, 1]), "G": ([2, 3], [2, 2])},
        current_player=1,
    )
    state.apply("R1<")
    assert state.phase == "play" and state.current_player == 2
    state.apply("G1<")
    assert state.is_terminal
    # Played out, a game with rows_to_end=4 closes 4 rows per round (or runs out of cards).
    game = diabolo.load("schacht", players=4, rows_to_end=4, rounds=1)
    state = game.new_state(seed=3)
    play_out(state)
    closed = [row["closed"] for row in state.observation(0)["rows"].values()]
    assert sum(closed) == 4


# ---------------------------------------------------------------------------- S5


def test_S5_1_all_rows_scored_in_layout_order() -> None:
    """S5.1: all five rows are scored, closed or not, one at a time in layout order."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["R5"], ["G4", "P1"], ["B5"]],
        rows={
            "R": ([], [1]),  # positive, open
            "Y": YELLOW_CLOSED_EQUAL,
            "G": ([], [2]),  # positive, open
            "P": ([1, 2], [1, 2]),  # closed by P1< (negative, nobody holds purple)
            "B": ([], [3]),  # positive, open
        },
        current_player=1,
    )
    state.apply("P1<")  # purple closes: left 1+2+1 = 4 > right 3: negative
    order = []
    while state.phase == "doubler":
        order.append(state.observation(0)["scoring_colour"])
        hold_all(state)
    assert order == ["R", "G", "B"]
    assert state.is_terminal
    # R: seat 0 (5); G: seat 1 (4); P negative: nobody holds purple (0: no score);
    # B: seat 2 (5).
    assert state.scores == [5, 4, 5]
    assert set(state.observation(1)["revealed"]["scoring"]) == {"R", "G", "P", "B"}


def test_S5_2_S5_3_positive_colour_highest_hand_scores() -> None:
    """S5.2, S5.3: angel sum (right) > devil sum (left): the highest hand sum of the
    colour scores plus points, the others 0."""
    game = diabolo.load("schacht", players=4, rounds=1)
    state = position(
        game,
        hands=[["G3", "G1"], ["G5"], ["G2", "G2", "G4"], ["R5"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "G": ([1, 1], [1, 3])},
        current_player=2,
    )
    state.apply("G4>")  # green: left 2, right 8: positive; closes the 2nd row
    assert state.phase == "doubler"
    assert state.observation(3)["scoring_colour"] == "G"
    hold_all(state)
    assert state.is_terminal
    # Hand sums: seat 0: 4, seat 1: 5, seat 2: 4, seat 3: 0.
    assert state.scores == [0, 5, 0, 0]
    assert state.observation(0)["revealed"]["scoring"]["G"] == [["G1", "G3"], ["G5"], ["G2", "G2"], []]


def test_S5_3_every_doubler_holder_is_asked_simultaneously() -> None:
    """S5.3: for a positive colour every player with an unused doubler decides, secretly
    and simultaneously, also one who holds none of the colour."""
    game = diabolo.load("schacht", players=4, rounds=1)
    state = position(
        game,
        hands=[["P5"], ["R1"], ["P1", "P4"], ["Y5"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1], [2, 2])},
        current_player=2,
    )
    state.apply("P1>")  # purple 2 < 5: positive, closed
    assert state.phase == "doubler"
    assert state.current_player == diabolo.SIMULTANEOUS
    for seat in range(4):
        assert [str(m) for m in state.legal_moves(seat)] == ["bet", "hold"]
        obs = state.observation(seat)
        assert obs["phase"] == "doubler"
        assert obs["current_player"] == diabolo.SIMULTANEOUS
        assert obs["scoring_colour"] == "P"
    # Purple hands are not revealed before all decided.
    assert "P" not in state.observation(0)["revealed"]["scoring"]
    state.apply("bet", player=1)  # seat 1 holds no purple
    # Secret: nobody else can tell seat 1 decided, let alone how.
    for seat in (0, 2, 3):
        obs = state.observation(seat)
        assert obs["doubler_available"] == [True] * 4
        assert obs["doubler_decision"] is None
        assert [str(m) for m in state.legal_moves(seat)] == ["bet", "hold"]
    assert state.observation(1)["doubler_decision"] == "bet"
    assert state.legal_moves(1) == []
    decide_all(state, {3: "hold", 0: "bet", 2: "hold"})
    assert state.is_terminal
    # Purple: seat 0 holds 5 (bet: 10), seat 2 holds 4; seat 1's bet is spent for nothing.
    assert state.scores == [10, 0, 0, 0]
    assert state.observation(3)["doubler_available"] == [False, False, True, True]


def test_S5_3_doubler_bet_lost_is_still_spent() -> None:
    """S5.3, S5.6: a doubler bet on a colour is spent even when the colour pays nothing
    (here nobody holds it: highest hand sum 0)."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["R1"], ["G5"], ["P1", "P5"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1], [2, 2]), "B": ([], [1])},
        current_player=2,
    )
    state.apply("P1>")  # purple positive; seat 2 keeps P5
    decide_all(state, {0: "bet", 1: "hold", 2: "hold"})
    assert state.scores == [0, 0, 5]
    assert state.phase == "doubler"
    assert state.observation(1)["scoring_colour"] == "B"
    assert state.observation(1)["doubler_available"] == [False, True, True]
    assert state.legal_moves(0) == []
    decide_all(state, {1: "bet", 2: "bet"})  # blue: nobody holds any: nobody scores
    assert state.is_terminal
    assert state.scores == [0, 0, 5]
    assert state.observation(0)["doubler_available"] == [False, False, False]


def test_S5_3_positive_colour_without_doublers_left_scores_directly() -> None:
    """S5.3: when no player holds an unused doubler there is nothing to decide."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["P4"], ["G5"], ["P1", "P3"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1], [2, 2])},
        current_player=2,
        doubler_available=[False, False, False],
    )
    state.apply("P1>")
    assert state.is_terminal
    assert state.scores == [4, 0, 0]  # seat 0: P4; seat 2 keeps P3


def test_S5_4_negative_colour_scores_minus_without_doubler() -> None:
    """S5.4: devil sum > angel sum: all reveal; the highest hand sum scores minus points;
    no doubler decision."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["B4", "B1"], ["B5"], ["B2", "B3"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "B": ([3, 3], [1, 1])},
        current_player=2,
    )
    state.apply("B3<")  # blue 9 > 2: negative; closes the 2nd row
    assert state.is_terminal  # no doubler phase although every doubler is unused
    assert state.observation(0)["doubler_available"] == [True] * 3
    assert state.scores == [-5, -5, 0]  # seat 0: 4+1 = 5 and seat 1: 5 tie
    assert state.observation(2)["revealed"]["scoring"]["B"] == [["B1", "B4"], ["B5"], ["B2"]]


def test_S5_5_equal_sums_score_nothing_and_reveal_nothing() -> None:
    """S5.5: equal sums: the colour scores nothing and nobody reveals it."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["R5", "R4", "G5"], ["G4"], ["P2", "R3"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1, 2], [2]), "R": ([1], [1])},
        current_player=2,
    )
    state.apply("P2>")  # purple 4 = 4, closed
    assert state.is_terminal
    assert state.scores == [0, 0, 0]
    scoring = state.observation(1)["revealed"]["scoring"]
    assert "R" not in scoring and "P" not in scoring and "Y" not in scoring
    # Empty rows are equal (0 = 0) too.
    assert "G" not in scoring and "B" not in scoring


def test_S5_6_ties_for_the_highest_hand_sum_all_score() -> None:
    """S5.6: all players tied for the highest hand sum score (each with their own bet)."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["P5"], ["P4", "P1"], ["P1", "P3"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1], [2, 2])},
        current_player=2,
    )
    state.apply("P1>")  # seat 2 keeps P3
    decide_all(state, {0: "bet", 1: "hold", 2: "bet"})
    assert state.is_terminal
    assert state.scores == [10, 5, 0]


def test_S5_6_highest_hand_sum_zero_nobody_scores() -> None:
    """S5.6: a player with none of the colour has sum 0; if the highest is 0 nobody scores."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["R5"], ["G5"], ["B5", "B1"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "B": ([1, 1], [2, 2]), "R": ([3], [])},
        current_player=2,
    )
    state.apply("B1>")  # blue positive, seat 2 keeps B5 -> scores 5; red negative:
    hold_all(state)
    assert state.is_terminal
    # Red negative: only seat 0 holds red (5): -5. Blue positive: seat 2 (5).
    assert state.scores == [-5, 0, 5]
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["R5"], ["G5"], ["B1"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "B": ([1, 1], [2, 2]), "P": ([3], [])},
        current_player=2,
    )
    state.apply("B1>")  # blue positive but nobody holds blue; purple negative, no purple held
    hold_all(state)
    assert state.is_terminal
    assert state.scores == [0, 0, 0]
    assert state.observation(0)["revealed"]["scoring"]["B"] == [[], [], []]


def test_S5_7_doubler_at_most_once_per_round() -> None:
    """S5.7: a player bets the doubler on at most one colour per round; afterwards the
    player is not asked again that round."""
    game = diabolo.load("schacht", players=3, rounds=2)
    state = position(
        game,
        hands=[["R5", "B5"], ["G5"], ["P1", "P5"]],
        rows={"R": ([], [1]), "Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1], [2, 2]), "B": ([], [1])},
        current_player=2,
    )
    state.apply("P1>")
    assert state.observation(0)["scoring_colour"] == "R"
    decide_all(state, {0: "bet", 1: "hold", 2: "hold"})  # red: seat 0 scores 10
    assert state.observation(0)["scoring_colour"] == "P"
    assert state.legal_moves(0) == []
    assert [str(m) for m in state.legal_moves(1)] == ["bet", "hold"]
    decide_all(state, {1: "hold", 2: "bet"})  # purple: seat 2 scores 10
    assert state.observation(0)["scoring_colour"] == "B"
    assert state.legal_moves(0) == [] and state.legal_moves(2) == []
    decide_all(state, {1: "hold"})  # blue: seat 0 scores 5, not doubled
    assert state.scores == [15, 0, 10]
    # S6.1: the next round returns every doubler.
    assert state.round == 1 and state.phase == "play"
    assert state.observation(0)["doubler_available"] == [True, True, True]


# ------------------------------------------------------------------ S5.8 examples


def test_S5_8_example_purple_positive_two_doublers() -> None:
    """S5.8: purple left 5+1=6, right 1+2+4=7: positive. Two players bet; purple in hand:
    A has 5, B has 4+2. B scores (4+2)x2 = 12, A scores 0; both doublers are spent."""
    game = diabolo.load("schacht", players=3, rounds=1)
    a, b, c = 0, 1, 2
    state = position(
        game,
        hands=[["P5", "R1"], ["P4", "P2", "R1"], ["P4", "R2"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([5, 1], [1, 2]), "B": ([], [1])},
        current_player=c,
    )
    state.apply("P4>")
    obs = state.observation(a)
    assert obs["rows"]["P"] == {"left": [5, 1], "right": [1, 2, 4], "closed": True}
    assert state.phase == "doubler" and obs["scoring_colour"] == "P"
    for seat in (a, b, c):
        assert [str(m) for m in state.legal_moves(seat)] == ["bet", "hold"]
    state.apply("bet", player=a)
    state.apply("bet", player=b)
    state.apply("hold", player=c)
    assert state.scores == [0, 12, 0]
    assert state.observation(c)["revealed"]["scoring"]["P"] == [["P5"], ["P2", "P4"], []]
    # Both doublers are spent: blue (positive) is decided by C alone.
    assert state.phase == "doubler"
    obs = state.observation(c)
    assert obs["scoring_colour"] == "B"
    assert obs["doubler_available"] == [False, False, True]
    assert state.legal_moves(a) == [] and state.legal_moves(b) == []
    with pytest.raises(diabolo.IllegalMoveError) as error:
        state.apply("bet", player=a)
    assert error.value.clause == "S5.7"
    state.apply("hold", player=c)
    assert state.is_terminal
    assert state.scores == [0, 12, 0]


def test_S5_8_example_purple_positive_through_real_play() -> None:
    """S5.8 (first example) reached by real play from a given deal (S2.4): purple ends
    left 5+1, right 1+2+4; A (seat 0) holds P5, B (seat 1) P4+P2; both bet: B scores 12,
    A 0, both doublers are spent."""
    game = diabolo.load("schacht", players=3, rounds=1)
    a, b, c = 0, 1, 2
    hands = {
        b: ["P5", "P4", "P2", "Y1", "Y2", "R1"],
        c: ["P1", "Y4", "Y2", "R1", "R1", "G1"],
        a: ["P5", "P1", "Y3", "G1", "G1", "R1"],
    }
    # Draws in turn order: B draws P2, C P4, A B1, B B1, C B2, A B2, B B3, C B3, ...
    deck = given_deal(3, hands, pile_front=["P2", "P4", "B1", "B1", "B2", "B2", "B3", "B3"])
    state = game.new_state(deck=deck)
    moves = [
        (b, "P5<"),  # purple left 5
        (c, "P1<"),  # purple left 5 1
        (a, "P1>"),  # purple right 1
        (b, "Y1<"),  # yellow left 1
        (c, "Y4>"),  # yellow right 4
        (a, "Y3<"),  # yellow left 1 3
        (b, "P2>"),  # purple right 1 2
        (c, "Y2<"),  # yellow left 1 3 2
        (a, "G1<"),  # green left 1
        (b, "Y2>"),  # yellow right 4 2: closed, 6 = 6 (the first closed row)
        (c, "P4>"),  # purple right 1 2 4: closed, the 2nd closed row ends the round
    ]
    for seat, move in moves:
        assert state.current_player == seat, (seat, move)
        state.apply(move)
    obs = state.observation(a)
    assert obs["rows"]["P"] == {"left": [5, 1], "right": [1, 2, 4], "closed": True}
    assert obs["rows"]["Y"] == {"left": [1, 3, 2], "right": [4, 2], "closed": True}
    assert state.phase == "doubler" and obs["scoring_colour"] == "P"
    assert state.round == 0 and obs["round"] == 0
    purple = {seat: [card for card in hand_of(state, seat) if card[0] == "P"] for seat in (a, b, c)}
    assert purple == {a: ["P5"], b: ["P2", "P4"], c: []}
    # Green (negative, left 1) was scored before purple: A and C hold G1 each: -1 both.
    before = state.scores
    assert before == [-1, 0, -1]
    state.apply("bet", player=a)
    state.apply("bet", player=b)
    state.apply("hold", player=c)
    assert state.is_terminal  # blue is empty (equal): nothing more to score
    assert [after - old for after, old in zip(state.scores, before)] == [0, 12, 0]
    assert state.observation(c)["doubler_available"] == [False, False, True]


def test_S5_8_example_green_negative() -> None:
    """S5.8: green left 2+5=7, right 2+2+1=5: negative; A holds green 3+1, B none:
    A scores -4."""
    game = diabolo.load("schacht", players=3, rounds=1)
    a, b, c = 0, 1, 2
    state = position(
        game,
        hands=[["G3", "G1", "R1"], ["R1", "Y5"], ["G1", "B1"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "G": ([2, 5], [2, 2])},
        current_player=c,
    )
    state.apply("G1>")
    obs = state.observation(b)
    assert obs["rows"]["G"] == {"left": [2, 5], "right": [2, 2, 1], "closed": True}
    assert state.is_terminal  # no doubler decision on a negative colour
    assert state.scores[a] == -4
    assert state.scores[b] == 0
    assert state.scores == [-4, 0, 0]
    assert obs["revealed"]["scoring"]["G"] == [["G1", "G3"], [], []]
    assert obs["doubler_available"] == [True, True, True]


def test_S5_8_example_red_tied() -> None:
    """S5.8: red left 3, right 2+1: no score, and red is not revealed (S5.5)."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["R5", "R4", "B5"], ["R2", "Y5"], ["P1", "B2"]],
        rows={
            "R": ([3], [2, 1]),
            "Y": YELLOW_CLOSED_EQUAL,
            "P": ([1, 1, 2], [3]),
            "B": ([1], []),
        },
        current_player=2,
    )
    state.apply("P1>")  # purple 4 = 4, closed: the round ends
    assert state.is_terminal
    obs = state.observation(1)
    assert obs["rows"]["R"] == {"left": [3], "right": [2, 1], "closed": False}
    # Blue (negative) is revealed and scored; red is neither.
    assert state.scores == [-5, 0, 0]
    assert "R" not in obs["revealed"]["scoring"]
    assert obs["revealed"]["scoring"]["B"] == [["B5"], [], ["B2"]]


# ---------------------------------------------------------------------------- S6


def test_S6_1_as_many_rounds_as_players() -> None:
    """S6.1: as many rounds as players by default; the number of rounds is an option."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        assert game.rounds == players
        assert game.options["rounds"] == players
        state = game.new_state(seed=players)
        rounds = {state.round}
        while not state.is_terminal:
            player = act(state)
            state.apply(state.legal_moves(player)[-1], player=player)
            rounds.add(state.round)
        assert rounds == set(range(players))
        assert state.round == players - 1
        assert state.current_player == diabolo.TERMINAL
        assert state.phase == "game_over"
    for rounds_option in (1, 2, 7):
        game = diabolo.load("schacht", players=3, rounds=rounds_option)
        assert game.rounds == rounds_option
        state = game.new_state(seed=1)
        play_out(state)
        assert state.round == rounds_option - 1
        assert state.observation(0)["round"] == rounds_option - 1


def test_S6_1_new_round_reshuffles_and_returns_doublers() -> None:
    """S6.1: a new round deals 6 each from all 70 cards and returns every doubler."""
    game = diabolo.load("schacht", players=3, rounds=2)
    state = position(
        game,
        hands=[["P5"], ["G5"], ["P1", "P4"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "P": ([1, 1], [2, 2])},
        current_player=2,
        scores=[3, 0, -2],
    )
    state.apply("P1>")
    decide_all(state, {0: "bet", 1: "bet", 2: "bet"})
    assert state.scores == [13, 0, -2]  # seat 0: 3 + 5x2; seat 2 (P4) is not the highest
    assert state.round == 1 and state.dealer == 1 and state.current_player == 2
    assert state.phase == "play"
    obs = state.observation(0)
    assert obs["doubler_available"] == [True, True, True]
    assert obs["hand_sizes"] == [6, 6, 7]
    assert obs["draw_pile"] == 70 - 19
    assert all_cards_in_play(state) == Counter(full_deck())


def test_S6_2_winners_and_returns() -> None:
    """S6.2: the highest total wins, equal totals share; returns() gives the totals."""
    game = diabolo.load("schacht", players=3, rounds=1)
    state = position(
        game,
        hands=[["B1"], ["R1", "Y5"], ["B2"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "R": ([1, 2], [2, 1])},
        current_player=1,
        scores=[5, 3, 5],
    )
    assert state.returns() == [5.0, 3.0, 5.0]
    state.apply("R1>")  # red 3 vs 4: positive but nobody holds red: no score
    hold_all(state)
    assert state.is_terminal
    assert state.scores == [5, 3, 5]
    assert state.returns() == [5.0, 3.0, 5.0]
    assert all(isinstance(r, float) for r in state.returns())
    assert state.winners == [0, 2]
    state = position(
        game,
        hands=[["B1"], ["R1", "Y5"], ["B2"]],
        rows={"Y": YELLOW_CLOSED_EQUAL, "R": ([1, 2], [2, 1])},
        current_player=1,
        scores=[-5, -3, -9],
    )
    state.apply("R1>")
    hold_all(state)
    assert state.winners == [1]
    assert state.returns() == [-5.0, -3.0, -9.0]


def test_S6_2_winners_of_played_games() -> None:
    """S6.2: over whole games, winners are exactly the seats with the highest total."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players)
        for seed in range(3):
            state = game.new_state(seed=seed)
            play_out(state, pick=seed + 1)
            best = max(state.scores)
            assert state.winners == [s for s in range(players) if state.scores[s] == best]
            assert state.returns() == [float(x) for x in state.scores]
            assert state.observation(0)["scores"] == state.scores


# ---------------------------------------------------------------------------- S7.4


def _check_observation(obs: dict[str, Any], state: SchachtState, player: int) -> None:
    n = state.game.players
    required = {
        "round",
        "dealer",
        "current_player",
        "phase",
        "hand",
        "hand_sizes",
        "rows",
        "draw_pile",
        "doubler_available",
        "scores",
        "scoring_colour",
        "revealed",
    }
    assert required <= set(obs)
    assert json.loads(json.dumps(obs)) == obs  # JSON-ready
    assert type(obs["round"]) is int and obs["round"] == state.round
    assert type(obs["dealer"]) is int and obs["dealer"] == state.dealer
    assert type(obs["current_player"]) is int and obs["current_player"] == state.current_player
    assert obs["phase"] in ("play", "doubler", "game_over") and obs["phase"] == state.phase
    if obs["phase"] == "doubler":
        assert obs["current_player"] == diabolo.SIMULTANEOUS
        assert obs["scoring_colour"] in list(COLOURS)
    else:
        assert obs["scoring_colour"] is None
    if obs["phase"] == "game_over":
        assert obs["current_player"] == diabolo.TERMINAL
    assert isinstance(obs["hand"], list) and all(isinstance(c, str) for c in obs["hand"])
    assert obs["hand"] == sorted_cards(obs["hand"])
    assert [type(x) for x in obs["hand_sizes"]] == [int] * n
    assert obs["hand_sizes"][player] == len(obs["hand"])
    assert list(obs["rows"]) == list(COLOURS)
    for row in obs["rows"].values():
        assert set(row) >= {"left", "right", "closed"}
        assert all(type(v) is int and 1 <= v <= 5 for v in row["left"] + row["right"])
        assert type(row["closed"]) is bool
    assert type(obs["draw_pile"]) is int and obs["draw_pile"] >= 0
    assert [type(x) for x in obs["doubler_available"]] == [bool] * n
    assert [type(x) for x in obs["scores"]] == [int] * n
    assert obs["scores"] == state.scores
    assert isinstance(obs["revealed"], dict)


def test_S7_4_observation_keys_and_types() -> None:
    """S7.4: observation(p) is a JSON-ready dict with the documented keys and types."""
    for players in (3, 4, 5):
        game = diabolo.load("schacht", players=players, rounds=2)
        state = game.new_state(seed=21)
        rng = random.Random(players)
        phases = set()
        while True:
            for seat in range(players):
                _check_observation(state.observation(seat), state, seat)
            phases.add(state.phase)
            if state.is_terminal:
                break
            player = act(state)
            state.apply(rng.choice(state.legal_moves(player)), player=player)
        assert "play" in phases and "game_over" in phases


def test_S7_1_turns_tell_who_laid_what_this_round() -> None:
    """S7.1: who placed or discarded which card is public; ``turns`` lists this round's
    placements and discards in order, starts empty with every round and stays through
    the round's scoring and at game over."""
    for players in (3, 5):
        game = diabolo.load("schacht", players=players, rounds=2)
        state = game.new_state(seed=players)
        rng = random.Random(players)
        expected: list[dict[str, Any]] = []
        rounds_seen = set()
        while not state.is_terminal:
            player = act(state)
            move = rng.choice(state.legal_moves(player))
            round_before = state.round
            if move.kind in ("place", "discard"):
                expected.append({"seat": player, "move": str(move)})
            state.apply(move, player=player)
            if state.round != round_before:
                expected = []
            rounds_seen.add(state.round)
            for seat in range(players):
                assert state.observation(seat)["turns"] == expected
            assert state.public_observation()["turns"] == expected
        assert rounds_seen == {0, 1} and expected


def test_S7_1_turns_are_read_from_the_history_of_a_state_json() -> None:
    """The state JSON does not write the turns: they are the history's last placements
    and discards. Without them (no history, or one cut short) the state is read with
    ``turns`` null, stays so for the rest of the round and knows the next round's."""
    game = diabolo.load("schacht", players=3, rounds=2)
    state = game.new_state(seed=7)
    for _ in range(7):
        state.apply(state.legal_moves()[0])
    assert len(state.observation(0)["turns"]) == 7
    again = game.state_from_json(state.to_json())
    assert again == state and again.observation(0)["turns"] == state.observation(0)["turns"]
    full_history: list[str] = json.loads(state.to_json())["history"]
    for history in ([], full_history[2:]):
        data = json.loads(state.to_json())
        data["history"] = history
        loaded = game.state_from_json(json.dumps(data))
        assert loaded.observation(1)["turns"] is None and loaded.public_observation()["turns"] is None
        loaded.apply(loaded.legal_moves()[0])
        assert loaded.observation(1)["turns"] is None
        round_before = loaded.round
        while loaded.round == round_before:
            loaded.apply(loaded.legal_moves(act(loaded))[0], player=act(loaded))
        assert loaded.observation(0)["turns"] == []


# ---------------------------------------------------------------------------- S8


@pytest.mark.parametrize(
    ("text", "kind", "card", "side"),
    [
        ("G5<", "place", "G5", "left"),
        ("P2>", "place", "P2", "right"),
        ("R1<", "place", "R1", "left"),
        ("B5>", "place", "B5", "right"),
        ("Y3<", "place", "Y3", "left"),
        ("xG5", "discard", "G5", None),
        ("xR1", "discard", "R1", None),
        ("bet", "bet", None, None),
        ("hold", "hold", None, None),
    ],
)
def test_S8_notation_examples(text: str, kind: str, card: str | None, side: str | None) -> None:
    """S8: colour initial + value + side (< devil/left, > angel/right); x + card for a
    discard; bet / hold for the doubler decision."""
    move = SchachtMove.parse(text)
    assert move.kind == kind
    assert move.card == card
    assert move.side == side
    assert str(move) == text
    assert repr(move) == f"SchachtMove('{text}')"
    assert SchachtMove.parse(str(move)) == move
    assert SchachtMove.from_action(move.action) == move
    game = diabolo.load("schacht")
    assert game.move(text) == move
    assert game.move(move.action) == move
    assert game.move(move) == move


def test_S8_every_action_id_round_trips() -> None:
    """S8: every move form formats and parses back; action ids are stable and distinct."""
    game = diabolo.load("schacht")
    assert game.num_actions == 77
    texts = set()
    for action in range(game.num_actions):
        move = SchachtMove.from_action(action)
        text = str(move)
        texts.add(text)
        assert move.action == action
        assert SchachtMove.parse(text) == move
        assert hash(SchachtMove.parse(text)) == hash(move)
    expected = (
        {f"{c}{v}{s}" for c in COLOURS for v in range(1, 6) for s in "<>"}
        | {f"x{c}{v}" for c in COLOURS for v in range(1, 6)}
        | {"bet", "hold"}
    )
    assert texts == expected
    assert SchachtMove.parse("R1<").action == 0
    assert SchachtMove.parse("R1>").action == 1
    assert SchachtMove.parse("G5<").action == 28
    assert SchachtMove.parse("xR1").action == 50
    assert SchachtMove.parse("bet").action == 75
    assert SchachtMove.parse("hold").action == 76


def test_S8_moves_are_frozen_hashable_and_applied_in_every_form() -> None:
    """S8: a move may be applied as a SchachtMove, its action id or its notation."""
    game = diabolo.load("schacht", players=3)
    base = game.new_state(seed=2)
    move = base.legal_moves()[0]
    results = []
    for form in (move, move.action, str(move)):
        state = base.clone()
        state.apply(form)
        results.append(state.to_json())
        assert state.history == [(1, move)]
    assert results[0] == results[1] == results[2]
    assert len({move, SchachtMove.parse(str(move))}) == 1
    with pytest.raises(AttributeError):
        move.kind = "bet"  # type: ignore[misc]
    legal = base.legal_moves()
    assert base.legal_actions() == [m.action for m in legal]
    mask = base.legal_action_mask()
    assert mask.shape == (77,)
    assert [i for i in range(77) if mask[i]] == base.legal_actions()
    # Legal moves are listed in action-id order.
    assert base.legal_actions() == sorted(base.legal_actions())


def test_S8_history_uses_notation() -> None:
    """S8: the history records (seat, move); JSON writes it in notation."""
    game = diabolo.load("schacht", players=3)
    state = game.new_state(seed=3)
    first = state.legal_moves()[0]
    state.apply(first)
    second = state.legal_moves()[-1]
    state.apply(second)
    assert state.history == [(1, first), (2, second)]
    assert data_of(state)["history"] == [f"1:{first}", f"2:{second}"]
    assert game.state_from_json(state.to_json()) == state


def test_game_object_is_a_value() -> None:
    """S1.1, S1.3, S4.1, S6.1: the options are recorded and equal games compare equal."""
    a = diabolo.load("schacht", players=3)
    b = SchachtGame(players=3)
    assert a == b and hash(a) == hash(b)
    assert a.options == {
        "players": 3,
        "rounds": 3,
        "rows_to_end": 2,
        "value_counts": DEFAULT_COUNTS,
        "strict_players": True,
    }
    assert a != diabolo.load("schacht", players=4)
    assert a.name == "schacht"
