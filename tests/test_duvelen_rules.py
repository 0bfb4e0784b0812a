"""Rule tests of Duvelen, one or a few per clause of docs/games/duvelen.rst (D1-D8).

Each test names its clause and says (in our words) what the clause asks in its docstring.
Positions are built with a given deal (``new_state(decks=...)``, D2.5) or as exact JSON
positions (``state_from_json``, see tests/duvelen_helpers.py), and always driven through
the public API: ``apply(move, player=p)`` in arrival order, as a real-time game is fed.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import diabolo
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState
from tests.duvelen_helpers import (
    CYCLE,
    NUM_ACTIONS,
    PASS,
    RECYCLE,
    RECYCLE_UP,
    SOURCES,
    STOP,
    TURN,
    card_places,
    data_of,
    deck,
    expected_round_scores,
    full_deck,
    herenhoop,
    legal_texts,
    load,
    pile,
    play,
    play_out,
    position,
    position_data,
)


def game(players: int = 2, **options: Any) -> DuvelenGame:
    return diabolo.load("duvelen", players=players, **options)


def obs_seat(state: DuvelenState, seat: int, viewer: int = 0) -> dict[str, Any]:
    seats: list[dict[str, Any]] = state.observation(viewer)["seats"]
    return seats[seat]


def apply_all(state: DuvelenState, moves: list[tuple[int, str]]) -> None:
    for player, move in moves:
        state.apply(move, player=player)


def assert_rejected(state: DuvelenState, move: str | int | DuvelenMove, player: int, clause: str) -> None:
    """`move` by `player` raises IllegalMoveError naming `clause` and changes nothing."""
    before = state.to_json()
    with pytest.raises(diabolo.IllegalMoveError) as error:
        state.apply(move, player=player)
    assert error.value.clause == clause, str(error.value)
    assert state.to_json() == before


def stop_ready(players: int = 2, **options: Any) -> DuvelenState:
    """Seat 0 has an empty Stok (its 13 hearts form its own Herenhoop) and may call Stop;
    every other seat is fresh: full Stok, Rij 4, Draaistok 35."""
    seats: list[dict[str, Any]] = [dict(rij=["5s", "6s", "Kd", "Qd"], waste=["2c", "3c"])]
    seats += [dict() for _ in range(players - 1)]
    return position(game(players, **options), seats, [herenhoop("h", [0] * 13, 1)])


# ---------------------------------------------------------------------------- D1


def test_D1_1_every_seat_has_a_full_deck() -> None:
    """D1.1: every player has a complete 52-card deck; a card's identity is (owner, suit,
    rank), so the table holds each (seat, card) exactly once."""
    for players in range(2, 9):
        state = game(players).new_state(seed=players)
        expected = Counter({(seat, name): 1 for seat in range(players) for name in full_deck()})
        assert card_places(data_of(state)) == expected


def test_D1_2_two_to_eight_players() -> None:
    """D1.2: 2..8 players; other counts are rejected with a clear error."""
    for players in range(2, 9):
        g = game(players)
        assert g.players == players
        state = g.new_state(seed=1)
        assert len(state.observation(players - 1)["seats"]) == players
        assert state.scores == [0] * players
    for players in (-1, 0, 1, 9, 10, 64):
        with pytest.raises(diabolo.OptionError, match="players"):
            game(players)


def test_D1_3_rounds_numbered_from_zero_and_scores_add_up() -> None:
    """D1.3: a game is `rounds` rounds (default 1), numbered from 0; the scores of the
    rounds add up. Each round here is cut off by the action cap after two turns, so each
    scores -26 per seat (13 Stok cards, D5.4)."""
    assert game().rounds == 1
    assert game().options["rounds"] == 1
    g = game(3, rounds=3, max_actions=2)
    state = g.new_state(seed=5)
    for r in range(3):
        assert state.round == r and state.observation(1)["round"] == r
        assert state.observation(1)["rounds"] == 3
        assert state.scores == [-26 * r] * 3
        assert state.observation(2)["scores"] == [-26 * r] * 3
        state.apply("turn", player=r % 3)
        assert not state.is_terminal
        state.apply("turn", player=0)
    assert state.is_terminal
    assert state.round == 2
    assert state.scores == [-78] * 3
    assert state.returns() == [-78.0] * 3
    assert state.round_scores == [-26] * 3  # the last round's score stays readable


def test_D1_3_totals_over_rounds_with_a_stop() -> None:
    """D1.3, D5.5: a round ended by Stop scores (with the Stop bonus) into the totals; the
    next round is dealt afresh with empty centre, and its pile numbers start at 1 again
    (D7)."""
    state = stop_ready(rounds=2)
    assert state.round_scores == [26, -26]
    state.apply("stop", player=0)  # nobody can play a card: the round ends at once (D4.4)
    assert state.round == 1 and state.phase == "play"
    assert state.scores == [36, -26]
    obs = state.observation(1)
    assert obs["piles"] == [] and obs["herenhopen"] == []
    assert obs["stop_called_by"] is None
    assert [s["stok_count"] for s in obs["seats"]] == [13, 13]
    assert [s["draaistok_count"] for s in obs["seats"]] == [35, 35]
    assert state.round_scores == [-26, -26]
    rng = random.Random(3)
    while not state.is_terminal:
        before = state.round_scores
        player = rng.choice([0, 1])
        moves = state.legal_moves(player)
        aces = [m for m in moves if m.target == "new"]
        if aces:
            state.apply(aces[0], player=player)
            first = state.observation(0)["piles"]
            assert first[0]["id"] == 1
            break
        state.apply(rng.choice(moves), player=player)
        assert state.round_scores == before
    assert state.round == 1


def test_D1_3_random_multi_round_games_total_the_round_scores() -> None:
    """D1.3: at every round end the totals grow by exactly that round's D5 score. The
    finished round is replayed on a one-round twin (the same table loaded into a game of
    one round), whose final round_scores are the round's score."""
    for seed in range(6):
        rounds = 2 + seed % 2
        players = 2 + seed % 3
        g = game(players, rounds=rounds, max_actions=400)
        one_round = game(players, rounds=1, max_actions=400)
        state = g.new_state(seed=seed)
        rng = random.Random(seed)
        rounds_seen = [0]
        while not state.is_terminal:
            before = data_of(state)
            player = rng.choice([p for p in range(players) if state.legal_moves(p)])
            moves = state.legal_moves(player)
            plays = [m for m in moves if m.kind == "play"]
            move = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(moves)
            state.apply(move, player=player)
            if state.round == rounds_seen[-1] and not state.is_terminal:
                continue
            before["options"]["rounds"] = 1
            before["round"] = 0
            twin = load(one_round, before)
            twin.apply(move, player=player)
            assert twin.is_terminal
            assert twin.round_scores == expected_round_scores(data_of(twin))
            assert [a - b for a, b in zip(state.scores, before["scores"])] == twin.round_scores
            assert state.scores == twin.scores
            if not state.is_terminal:
                rounds_seen.append(state.round)
        assert rounds_seen == list(range(rounds))


# ---------------------------------------------------------------------------- D2


def test_D2_1_to_D2_4_deal_shape() -> None:
    """D2.1-D2.4: 13 Stok cards with the top face up, 4 Rij cards face up, 35 in the
    Draaistok, no waste, an empty centre."""
    for players in (2, 5, 8):
        state = game(players).new_state(seed=11)
        obs = state.observation(0)
        assert obs["piles"] == [] and obs["herenhopen"] == []
        assert obs["phase"] == "play" and obs["stop_called_by"] is None
        data = data_of(state)
        for seat, view in enumerate(obs["seats"]):
            assert view["stok_count"] == 13
            assert view["stok_top"] == data["seats"][seat]["stok"][0]
            assert len(view["rij"]) == 4 and all(isinstance(c, str) for c in view["rij"])
            assert view["waste_top"] is None and view["waste_count"] == 0
            assert view["draaistok_count"] == 35
            assert view["passed"] is False
        assert state.round_scores == [-26] * players


def test_D2_5_given_deal_order() -> None:
    """D2.5: a given deal lists each seat's 52 cards top to bottom: 13 Stok cards (the
    first on top, face up), 4 Rij cards in slots 1-4, then 35 Draaistok cards (the first
    is turned first)."""
    rng = random.Random(7)
    decks = []
    for _ in range(3):
        cards = full_deck()
        rng.shuffle(cards)
        cards.remove("Ah")
        cards.insert(20, "Ah")  # an Ace in the Draaistok: the deal is never blocked (D4.5)
        decks.append(cards)
    state = game(3).new_state(seed=1, decks=decks)
    data = data_of(state)
    for seat, cards in enumerate(decks):
        assert data["seats"][seat]["stok"] == cards[:13]
        assert data["seats"][seat]["rij"] == cards[13:17]
        assert data["seats"][seat]["draaistok"] == cards[17:]
        assert data["seats"][seat]["waste"] == []
        assert obs_seat(state, seat)["stok_top"] == cards[0]
        assert obs_seat(state, seat)["rij"] == cards[13:17]
    state.apply("turn", player=2)
    assert data_of(state)["seats"][2]["waste"] == decks[2][17:20]
    assert obs_seat(state, 2)["waste_top"] == decks[2][19]
    # The seed does not change a given deal.
    other = game(3).new_state(seed=99, decks=decks)
    assert data_of(other)["seats"] == data["seats"]


def test_D2_5_later_rounds_are_shuffled_from_the_seed() -> None:
    """D2.5: ``decks`` deals round 0 only; later rounds are shuffled from the seed: the
    same seed deals the same later round, another seed another one."""
    decks = [deck(draaistok=["Ah"]), deck(draaistok=["As"])]
    g = game(2, rounds=2, max_actions=1)

    def second_round(seed: int) -> list[Any]:
        state = g.new_state(seed=seed, decks=decks)
        state.apply("turn", player=0)
        assert state.round == 1
        seats: list[Any] = data_of(state)["seats"]
        return seats

    first = second_round(4)
    assert first == second_round(4)
    assert first != second_round(5)
    assert [s["stok"] for s in first] != [decks[0][:13], decks[1][:13]]
    for seat in first:
        assert len(seat["stok"]) == 13 and len(seat["draaistok"]) == 35


# ---------------------------------------------------------------------------- D3


def available_position() -> DuvelenState:
    """Seat 0: Stok top Kc with Ah under it, Rij As Kd Kh Ks, waste Qc on top of Ad,
    Draaistok starting with Ac: only As (Rij) fits now."""
    return position(
        game(2),
        [
            dict(stok=["Kc", "Ah"], rij=["As", "Kd", "Kh", "Ks"], waste=["Ad", "Qc"], draaistok=["Ac"]),
            dict(rij=["Qs", "Qh", "Qd", "Jh"], draaistok=["Ah", "Ad", "Ac", "As"]),
        ],
    )


def test_D3_1_only_available_cards_are_played() -> None:
    """D3.1: a player may play the Stok's face-up top, a Rij card or the waste's top card;
    no other card (an Ace under the Stok top, under the waste top or in the Draaistok)."""
    state = available_position()
    assert legal_texts(state, 0) == ["R1:As>new", "turn"]
    assert legal_texts(state, 1) == ["turn"]
    for move in ("S:Ah>new", "W:Ad>new"):
        assert_rejected(state, move, 0, "D3.10")
    assert_rejected(state, "S>new", 0, "D3.2")  # Kc is at the Stok top
    assert_rejected(state, "W>new", 0, "D3.2")  # Qc is at the waste top
    state.apply("turn", player=0)  # Ac, ... turned: Ac is now deeper than the top
    view = obs_seat(state, 0)
    assert view["waste_count"] == 5
    assert "W:Ac>new" not in legal_texts(state, 0)


def test_D3_1_all_six_sources() -> None:
    """D3.1, D7: every source (S, R1-R4, W) plays its card."""
    state = position(
        game(2),
        [
            dict(stok=["Ah", "Kc"], rij=["Ad", "Ac", "As", "2h"], waste=["Kd", "3h"]),
            dict(),
        ],
    )
    assert legal_texts(state, 0) == ["S:Ah>new", "R1:Ad>new", "R2:Ac>new", "R3:As>new", "turn"]
    apply_all(state, [(0, "S:Ah>new"), (0, "R4:2h>1"), (0, "W:3h>1"), (0, "R1:Ad>new"), (0, "R2:Ac>new")])
    state.apply("R3:As>new", player=0)
    piles = state.observation(1)["piles"]
    assert [(p["id"], p["suit"], p["top"]) for p in piles] == [(1, "h", 3), (2, "d", 1), (3, "c", 1), (4, "s", 1)]


def test_D3_2_ace_starts_a_new_pile_and_several_piles_of_a_suit() -> None:
    """D3.2: an Ace always goes to the centre as a new pile, numbered in start order (D7);
    several piles of one suit may exist at once, and a card fitting several piles may go
    to any of them (listed in pile number order)."""
    g = game(3)
    state = position(
        g,
        [
            dict(rij=["Ah", "2h", "Kd", "Kc"]),
            dict(rij=["Ah", "As", "Kd", "Kc"]),
            dict(rij=["Ah", "2h", "Kd", "Kc"]),
        ],
    )
    for seat in range(3):
        assert legal_texts(state, seat)[0] == "R1:Ah>new"
    state.apply("R1:Ah>new", player=1)
    state.apply(DuvelenMove.parse("R1:Ah>new"), player=2)
    state.apply("R2>new", player=1)  # the short form: As
    piles = state.observation(0)["piles"]
    assert [(p["id"], p["suit"], p["top"], p["owners"]) for p in piles] == [
        (1, "h", 1, [1]),
        (2, "h", 1, [2]),
        (3, "s", 1, [1]),
    ]
    # Seat 0's 2h fits piles 1 and 2; its own Ah is still an Ace for a new pile.
    assert legal_texts(state, 0)[:3] == ["R1:Ah>new", "R2:2h>1", "R2:2h>2"]
    state.apply("R2:2h>2", player=0)
    state.apply("R1:Ah>new", player=0)
    piles = state.observation(2)["piles"]
    assert [(p["id"], p["top"], p["owners"]) for p in piles] == [(1, 1, [1]), (2, 2, [2, 0]), (3, 1, [1]), (4, 1, [0])]
    assert legal_texts(state, 2)[0] == "R2:2h>1"
    assert "R2:2h>4" in legal_texts(state, 2)


def test_D3_3_piles_ascend_by_one_in_one_suit() -> None:
    """D3.3: any other card goes onto a pile of its suit whose top is exactly one lower;
    piles only go up."""
    g = game(2)
    piles = [pile("h", [0] * 5), pile("s", [0] * 5)]
    state = position(
        g,
        [dict(rij=["Kd", "Kc", "Qd", "Qc"]), dict(rij=["6h", "7h", "6s", "6d"], draaistok=["5h", "4s"])],
        piles,
    )
    assert legal_texts(state, 1) == ["R1:6h>1", "R3:6s>2", "turn"]
    state.apply("R1:6h>1", player=1)
    refill = obs_seat(state, 1)["rij"][0]
    assert [m for m in legal_texts(state, 1) if m.startswith("R2")] == ["R2:7h>1"]
    state.apply("R2:7h>1", player=1)
    state.apply("turn", player=1)  # 5h, 4s and the next card are turned; 4s below the top
    texts = legal_texts(state, 1)
    assert not any(":5h>" in t or ":4s>" in t for t in texts)
    assert not any(">1" in t for t in texts if t.startswith(("R3", "R4")))
    pile_view = state.observation(0)["piles"][0]
    assert pile_view == {"id": 1, "suit": "h", "top": 7, "owners": [0, 0, 0, 0, 0, 1, 1]}
    assert isinstance(refill, str)


def test_D3_4_rij_refills_from_stok() -> None:
    """D3.4: a card leaving the Rij is replaced by the Stok's face-up top, and the next
    Stok card turns face up."""
    state = position(game(2), [dict(stok=["9c", "8c", "7c"], rij=["Kd", "Ah", "Kc", "Ks"]), dict()])
    before = data_of(state)["seats"][0]
    state.apply("R2:Ah>new", player=0)
    after = data_of(state)["seats"][0]
    assert after["rij"] == ["Kd", "9c", "Kc", "Ks"]
    assert after["stok"] == before["stok"][1:]
    view = obs_seat(state, 0, viewer=1)
    assert view["stok_top"] == "8c" and view["stok_count"] == len(before["stok"]) - 1
    assert view["rij"] == ["Kd", "9c", "Kc", "Ks"]


def test_D3_4_rij_slot_stays_empty_with_an_empty_stok() -> None:
    """D3.4: with an empty Stok the Rij slot stays empty (null)."""
    piles = [herenhoop("h", [0] * 13, 1)]
    state = position(game(2), [dict(rij=["Kd", "As", "Kc", "Ks"]), dict()], piles)
    state.apply("R2:As>new", player=0)
    view = obs_seat(state, 0)
    assert view["rij"] == ["Kd", None, "Kc", "Ks"]
    assert view["stok_top"] is None and view["stok_count"] == 0
    assert data_of(state)["seats"][0]["rij"] == ["Kd", None, "Kc", "Ks"]
    assert not any(t.startswith("R2") for t in legal_texts(state, 0))


def test_D3_5_stok_play_turns_the_next_card() -> None:
    """D3.5: after the Stok's top is played the next Stok card is face up."""
    state = position(game(2), [dict(stok=["Ah", "2h", "3h", "Kc"], rij=["Kd", "Qd", "Jd", "10d"]), dict()])
    count = obs_seat(state, 0)["stok_count"]
    for step, name in enumerate(["Ah", "2h", "3h"]):
        assert obs_seat(state, 0)["stok_top"] == name
        state.apply("S>new" if name == "Ah" else "S>1", player=0)
        assert obs_seat(state, 0)["stok_count"] == count - step - 1
    assert obs_seat(state, 0)["stok_top"] == "Kc"
    assert obs_seat(state, 0)["rij"] == ["Kd", "Qd", "Jd", "10d"]


def test_D3_6_waste_card_beneath_becomes_available() -> None:
    """D3.6: after the waste's top card is played the card beneath it is available."""
    state = position(game(2), [dict(waste=["Kc", "2d", "Ad"], rij=["Kd", "Qd", "Jd", "10d"]), dict()])
    assert legal_texts(state, 0) == ["W:Ad>new", "turn"]
    state.apply("W:Ad>new", player=0)
    assert obs_seat(state, 0)["waste_top"] == "2d"
    assert legal_texts(state, 0) == ["W:2d>1", "turn"]
    state.apply("W>1", player=0)
    assert obs_seat(state, 0)["waste_top"] == "Kc"
    assert obs_seat(state, 0)["waste_count"] == 1
    assert data_of(state)["seats"][0]["waste"] == ["Kc"]


def test_D3_7_turn_three_cards() -> None:
    """D3.7: a turn moves the next 3 Draaistok cards onto the waste one by one, so the
    third ends on top."""
    state = game(2).new_state(seed=21)
    draaistok = data_of(state)["seats"][1]["draaistok"]
    state.apply("turn", player=1)
    seat = data_of(state)["seats"][1]
    assert seat["waste"] == draaistok[:3]
    assert seat["draaistok"] == draaistok[3:]
    assert obs_seat(state, 1)["waste_top"] == draaistok[2]
    state.apply(TURN, player=1)
    seat = data_of(state)["seats"][1]
    assert seat["waste"] == draaistok[:6]
    assert (obs_seat(state, 1)["waste_count"], obs_seat(state, 1)["draaistok_count"]) == (6, 29)


def test_D3_7_turn_with_fewer_than_three_left() -> None:
    """D3.7: with fewer than 3 cards left, all remaining are turned."""
    for left in (1, 2):
        draaistok = ["Kc", "Qc"][:left]
        state = position(game(2), [dict(rest="waste+stok", draaistok=draaistok, rij=["Kd", "Qd", "Jd", "10d"]), dict()])
        waste = data_of(state)["seats"][0]["waste"]
        assert obs_seat(state, 0)["draaistok_count"] == left
        assert "turn" in legal_texts(state, 0) and "recycle" not in legal_texts(state, 0)
        state.apply("turn", player=0)
        seat = data_of(state)["seats"][0]
        assert seat["waste"] == waste + draaistok
        assert seat["draaistok"] == []
        assert obs_seat(state, 0)["waste_top"] == draaistok[-1]
        texts = legal_texts(state, 0)
        assert "turn" not in texts and texts[-2:] == ["recycle", "recycle^"]


def recycle_position(waste: list[str]) -> DuvelenState:
    """Seat 0's Draaistok is empty; its waste is `waste` (bottom first) plus the
    rest of its deck under it."""
    return position(
        game(2), [dict(rest="waste+stok", waste=waste, draaistok=[], rij=["Kd", "Qd", "Jd", "10d"]), dict()]
    )


def test_D3_8_recycle_moves_the_first_card_to_the_bottom() -> None:
    """D3.8: with an empty Draaistok and a waste, `recycle` turns the waste over as the
    new Draaistok (the first-turned card on top), moves that top card to the bottom and
    turns 3 at once."""
    state = recycle_position([])
    old = data_of(state)["seats"][0]["waste"]
    assert len(old) == CYCLE
    assert legal_texts(state, 0)[-2:] == ["recycle", "recycle^"]
    state.apply("recycle", player=0)
    cycle = old[1:] + old[:1]
    seat = data_of(state)["seats"][0]
    assert seat["waste"] == cycle[:3]
    assert seat["draaistok"] == cycle[3:]
    assert obs_seat(state, 0)["waste_top"] == old[3]
    assert state.history[-1] == (0, DuvelenMove.parse("recycle"))


def test_D3_8_recycle_up_moves_the_last_card_to_the_top() -> None:
    """D3.8: `recycle^` moves the bottom card of the new Draaistok (the last-turned card)
    to the top, then turns 3 at once."""
    state = recycle_position([])
    old = data_of(state)["seats"][0]["waste"]
    state.apply(RECYCLE_UP, player=0)
    cycle = old[-1:] + old[:-1]
    seat = data_of(state)["seats"][0]
    assert seat["waste"] == cycle[:3]
    assert seat["draaistok"] == cycle[3:]
    assert obs_seat(state, 0)["waste_top"] == old[1]
    assert str(state.history[-1][1]) == "recycle^"


def test_D3_8_both_recycles_legal_even_when_they_agree() -> None:
    """D3.8: both recycles are legal whenever a recycle is, even with a one-card waste
    where they do the same thing; recycling needs an empty Draaistok and a waste."""
    piles = [herenhoop("h", [0] * 13, 1), herenhoop("d", [0] * 13, 2), pile("c", [0] * 12), pile("s", [0] * 9)]
    state = position(game(2), [dict(waste=["Ks"], rij=["Kc", "Qs", "Js", "10s"], rest="none"), dict()], piles)
    assert legal_texts(state, 0) == ["R1:Kc>3", "R4:10s>4", "recycle", "recycle^", "stop"]
    one = state.clone()
    one.apply("recycle", player=0)
    other = state.clone()
    other.apply("recycle^", player=0)
    for twin in (one, other):
        assert data_of(twin)["seats"][0]["waste"] == ["Ks"]
        assert data_of(twin)["seats"][0]["draaistok"] == []
    assert data_of(one)["seats"] == data_of(other)["seats"]
    # Without a waste (and an empty Draaistok) there is nothing to turn or recycle.
    piles = [herenhoop("h", [0] * 13, 1), herenhoop("d", [0] * 13, 2), pile("c", [0] * 12)]
    spades = ["10s", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "As"]
    empty = position(game(2), [dict(stok=spades, rij=["Kc", "Ks", "Qs", "Js"], rest="none"), dict()], piles)
    assert legal_texts(empty, 0) == ["R1:Kc>3"]
    assert_rejected(empty, "recycle", 0, "D3.8")
    assert_rejected(empty, "recycle^", 0, "D3.8")
    assert_rejected(empty, "turn", 0, "D3.7")


def test_D3_9_king_completes_a_herenhoop() -> None:
    """D3.9: a King played on a pile completes it: it becomes a Herenhoop held by the
    player who played the King and leaves the centre; its number is never reused (D7)."""
    piles = [pile("h", [0] * 12), pile("s", [1] * 12)]
    state = position(
        game(3),
        [dict(rij=["Ks", "Kd", "Qd", "Jd"]), dict(rij=["Kh", "Kd", "Qd", "Jd"]), dict(rij=["Kh", "Ks", "Ad", "Jd"])],
        piles,
    )
    state.apply("R1:Kh>1", player=1)
    obs = state.observation(2)
    assert [p["id"] for p in obs["piles"]] == [2]
    assert obs["herenhopen"] == [{"holder": 1, "suit": "h", "owners": [0] * 12 + [1]}]
    # Seat 2's Kh no longer has a pile; pile 1 left the centre (D3.9, D7).
    assert_rejected(state, "R1:Kh>1", 2, "D3.9")
    state.apply("R1:Ks>2", player=0)
    state.apply("R3:Ad>new", player=2)
    obs = state.observation(0)
    assert obs["herenhopen"] == [
        {"holder": 1, "suit": "h", "owners": [0] * 12 + [1]},
        {"holder": 0, "suit": "s", "owners": [1] * 12 + [0]},
    ]
    assert [(p["id"], p["suit"]) for p in obs["piles"]] == [(3, "d")]
    data = data_of(state)
    assert [(p["holder"], p["completed"]) for p in data["piles"]] == [(1, 1), (0, 2), (None, 0)]
    # D5.2: 12 of seat 0's hearts in seat 1's Herenhoop (+12), seat 0's own Ks (+2);
    # 12 of seat 1's spades in seat 0's Herenhoop (+12), seat 1's own Kh (+2).
    assert state.round_scores[0] == 12 + 2 - 2 * len(data["seats"][0]["stok"])
    assert state.round_scores[1] == 12 + 2 - 2 * len(data["seats"][1]["stok"])
    assert state.round_scores == expected_round_scores(data)


def race_position() -> DuvelenState:
    """Pile 1 is hearts up to seat 0's 5h; seats 1 and 2 both hold a 6h in R1, seat 2 also
    a 7h in R2; pile 2 is spades up to the Queen and both hold Ks in R3."""
    piles = [pile("h", [0] * 5), pile("s", [0] * 12)]
    return position(
        game(3),
        [dict(rij=["Kd", "Qd", "Jd", "10d"]), dict(rij=["6h", "Qc", "Ks", "Jc"]), dict(rij=["6h", "7h", "Ks", "Jc"])],
        piles,
    )


def test_D3_10_race_for_the_same_pile() -> None:
    """D3.10: when two players play onto the same pile at once, the first action applied
    wins; the second is no longer legal: IllegalMoveError, and nothing changes."""
    state = race_position()
    assert "R1:6h>1" in legal_texts(state, 1) and "R1:6h>1" in legal_texts(state, 2)
    state.apply("R1:6h>1", player=1)  # seat 1's message arrives first
    for move in ("R1:6h>1", "R1>1", 1 * 33 + 1, DuvelenMove.parse("R1:6h>1")):
        assert_rejected(state, move, 2, "D3.3")
    # Seat 2's 7h now fits: the table changed in its favour.
    state.apply("R2:7h>1", player=2)
    assert state.observation(0)["piles"][0]["owners"] == [0, 0, 0, 0, 0, 1, 2]
    # A race for a King: the first completes the pile, the second finds it gone.
    state.apply("R3:Ks>2", player=2)
    assert_rejected(state, "R3:Ks>2", 1, "D3.9")
    assert state.observation(1)["herenhopen"][0]["holder"] == 2


def test_D3_10_stale_long_form_never_plays_another_card() -> None:
    """D3.10: a long-form play names its card; sent before the source changed (here the
    same message twice), it cannot play the new card there: IllegalMoveError and no
    change. The short form and action ids play whatever lies at the source."""
    state = race_position()
    stok_top = obs_seat(state, 1)["stok_top"]
    state.apply("R1:6h>1", player=1)
    assert obs_seat(state, 1)["rij"][0] == stok_top
    assert_rejected(state, "R1:6h>1", 1, "D3.10")
    # The Stok top changed too (it refilled R1): a play naming the old top is stale.
    assert_rejected(state, f"S:{stok_top}>1", 1, "D3.10")
    # A waste top that changed: seat 0 turns, its waste top is now another card.
    state.apply("turn", player=0)
    top = obs_seat(state, 0)["waste_top"]
    state.apply("turn", player=0)
    assert obs_seat(state, 0)["waste_top"] != top
    assert_rejected(state, f"W:{top}>new", 0, "D3.10")


def test_D3_10_no_turns_moves_apply_in_arrival_order() -> None:
    """D3, D3.10: there are no turns; any seat may act at any time, in any order, and
    `current_player` stays SIMULTANEOUS until the game is over."""
    state = game(4).new_state(seed=3)
    assert state.current_player == diabolo.SIMULTANEOUS
    for player in (3, 3, 0, 2, 2, 2, 1):
        state.apply("turn", player=player)
        assert state.current_player == diabolo.SIMULTANEOUS
    assert [p for p, _ in state.history] == [3, 3, 0, 2, 2, 2, 1]
    counts = [obs_seat(state, s)["waste_count"] for s in range(4)]
    assert counts == [3, 3, 9, 6]


# ---------------------------------------------------------------------------- D4


def test_D4_1_stop_needs_an_empty_stok_and_is_called_once() -> None:
    """D4.1: a player whose Stok is empty may call Stop (a move, not forced); only one
    Stop per round."""
    state = stop_ready(3)
    assert "stop" in legal_texts(state, 0)
    for seat in (1, 2):
        assert "stop" not in legal_texts(state, seat)
        assert_rejected(state, "stop", seat, "D4.1")
    state.apply("turn", player=0)  # not forced: seat 0 may go on
    assert state.phase == "play"
    state.apply(STOP, player=0)
    assert str(state.phase) == "after_stop"
    obs = state.observation(1)
    assert obs["stop_called_by"] == 0 and obs["phase"] == "after_stop"
    assert_rejected(state, "stop", 0, "D4.1")


def test_D4_2_no_turn_or_recycle_after_stop() -> None:
    """D4.2: after Stop nobody turns or recycles; the Draaistok is put aside (still
    counted), and everyone may go on playing available cards."""
    state = stop_ready(2)
    state.apply("turn", player=1)
    state.apply("stop", player=0)
    assert state.phase == "after_stop"
    for seat in (0, 1):
        texts = legal_texts(state, seat)
        assert not {"turn", "recycle", "recycle^", "stop"} & set(texts)
        assert texts[-1] == "pass"
    view = obs_seat(state, 1)
    assert (view["waste_count"], view["draaistok_count"]) == (3, 32)
    assert_rejected(state, "turn", 1, "D4.2")
    assert_rejected(state, TURN, 1, "D4.2")


def test_D4_3_empty_waste_takes_the_draaistok_at_the_stop() -> None:
    """D4.3: after Stop a player whose waste is empty turns the whole put-aside Draaistok
    over at once as the new waste: its bottom card ends on top."""
    state = stop_ready(2)
    draaistok = data_of(state)["seats"][1]["draaistok"]
    waste0 = data_of(state)["seats"][0]
    state.apply("stop", player=0)
    seat = data_of(state)["seats"][1]
    assert seat["waste"] == draaistok and seat["draaistok"] == []
    view = obs_seat(state, 1)
    assert view["waste_top"] == draaistok[-1]
    assert (view["waste_count"], view["draaistok_count"]) == (35, 0)
    # Seat 0 had a waste: its Draaistok stays put aside.
    assert data_of(state)["seats"][0]["waste"] == waste0["waste"]
    assert data_of(state)["seats"][0]["draaistok"] == waste0["draaistok"]


def test_D4_3_waste_emptied_later_takes_the_draaistok() -> None:
    """D4.3: a waste that becomes empty after the Stop takes the put-aside Draaistok at
    once; then its cards come up from the bottom of the old Draaistok upwards."""
    piles = [herenhoop("h", [0] * 13, 1), pile("c", [0, 0, 0, 0])]
    state = position(
        game(2),
        [dict(rij=["5s", "6s", "Kd", "Qd"], waste=["5c"], draaistok=["8s", "7d", "6c"]), dict()],
        piles,
    )
    draaistok = data_of(state)["seats"][0]["draaistok"]
    assert draaistok[:3] == ["8s", "7d", "6c"] and len(draaistok) == 52 - 17 - 4 - 1
    state.apply("stop", player=0)
    assert obs_seat(state, 0)["waste_top"] == "5c"
    assert obs_seat(state, 0)["draaistok_count"] == 30
    state.apply("W:5c>2", player=0)
    seat = data_of(state)["seats"][0]
    assert seat["waste"] == draaistok and seat["draaistok"] == []
    assert obs_seat(state, 0)["waste_top"] == draaistok[-1]


def test_D4_4_no_pass_before_stop() -> None:
    """D4.4: before Stop there is no `pass`."""
    state = stop_ready(2)
    for seat in (0, 1):
        assert "pass" not in legal_texts(state, seat)
        assert_rejected(state, "pass", seat, "D4.4")
        assert_rejected(state, PASS, seat, "D4.4")


def after_stop_position() -> DuvelenState:
    """After seat 0's Stop: seat 1 holds 2c and 3c in its Rij for pile 1 (clubs Ace of
    seat 0); seat 0 holds 4c in its Rij."""
    piles = [herenhoop("h", [0] * 13, 1), pile("c", [0])]
    state = position(
        game(2),
        [dict(rij=["4c", "6s", "Kd", "Qd"], waste=["Kc"]), dict(rij=["2c", "3c", "Ks", "Qs"], draaistok=["Qc"])],
        piles,
    )
    state.apply("stop", player=0)
    return state


def test_D4_4_pass_stands_until_that_player_plays() -> None:
    """D4.4: after Stop anyone may pass; a pass stands until that same player plays a
    card; a player whose pass stands may still play, and pass again. The round ends when
    every player's pass stands."""
    state = after_stop_position()
    assert legal_texts(state, 1) == ["R1:2c>2", "pass"]
    assert legal_texts(state, 0) == ["pass"]
    state.apply("pass", player=1)
    assert obs_seat(state, 1)["passed"] is True
    assert data_of(state)["seats"][1]["passed"] is True
    assert legal_texts(state, 1) == ["R1:2c>2", "pass"]
    state.apply("pass", player=1)  # passing again is allowed
    assert obs_seat(state, 1)["passed"] is True and state.phase == "after_stop"
    state.apply("R1:2c>2", player=1)  # playing ends the standing pass
    assert obs_seat(state, 1)["passed"] is False
    state.apply("pass", player=0)
    assert state.phase == "after_stop"  # seat 1's pass no longer stands
    assert [obs_seat(state, s)["passed"] for s in (0, 1)] == [True, False]
    state.apply("pass", player=1)
    assert state.is_terminal
    assert state.current_player == diabolo.TERMINAL
    assert state.observation(0)["phase"] == "game_over"
    assert state.legal_moves(0) == [] and state.legal_moves(1) == []
    # Seat 0: own Herenhoop 13 * 2, Ac +1, Stop +10; seat 1: 2c +1, and 12 Stok cards
    # (one refilled R1, D3.4): -24.
    assert state.scores == [26 + 1 + 10, 1 - 24]
    assert state.round_scores == state.scores


def test_D4_4_every_seat_must_pass() -> None:
    """D4.4: one seat's pass does not end the round while another seat can play."""
    state = after_stop_position()
    state.apply("pass", player=0)
    assert state.phase == "after_stop"
    state.apply("pass", player=0)
    assert state.phase == "after_stop"
    state.apply("pass", player=1)
    assert state.is_terminal and state.scores == [26 + 1 + 10, -26]


def test_D4_4_round_ends_when_nobody_can_play_a_card() -> None:
    """D4.4: after Stop the round also ends as soon as no player has a legal card play."""
    state = after_stop_position()
    state.apply("R1:2c>2", player=1)
    state.apply("R2:3c>2", player=1)
    assert not state.is_terminal
    state.apply("R1:4c>2", player=0)  # the last card any seat could play
    assert state.is_terminal
    assert state.scores == [26 + 2 + 10, 2 - 22]  # seat 1: 2 refills, 11 Stok cards
    # Straight after a Stop that leaves nobody a card play, the round is over at once.
    state = stop_ready(2)
    state.apply("stop", player=0)
    assert state.is_terminal and state.scores == [36, -26]


def blocked_deal_decks() -> list[list[str]]:
    """Every Ace lies in a Stok under the top: the deal is blocked (D4.5). Seat 0's first
    Ace is 3 cards under its top, seat 1's 8 cards under."""
    return [
        deck(stok=["Kh", "Qh", "Jh", "Ah", "Ad", "Ac", "As"]),
        deck(stok=["Kd", "Qd", "Jd", "10d", "9d", "8d", "7d", "6d", "Ah", "Ad", "Ac", "As"]),
    ]


def test_D4_5_blocked_deal_rotates_the_stoks() -> None:
    """D4.5 (rotate_stok, the default): a block right after the deal makes every player
    move the Stok top to the bottom and turn the next, until the position unblocks."""
    decks = blocked_deal_decks()
    g = game(2)
    assert g.on_block == "rotate_stok"
    state = g.new_state(seed=1, decks=decks)
    data = data_of(state)
    assert data["seats"][0]["stok"] == decks[0][3:13] + decks[0][:3]
    assert data["seats"][1]["stok"] == decks[1][3:13] + decks[1][:3]
    assert obs_seat(state, 0)["stok_top"] == "Ah"
    assert data["seats"][0]["rij"] == decks[0][13:17]
    assert data["actions"] == 0 and state.history == []
    assert state.phase == "play" and state.scores == [0, 0]


def test_D4_5_block_after_a_move_rotates_until_unblocked() -> None:
    """D4.5: the block test runs after every action; a play that leaves nobody a card to
    play (and nobody able to call Stop) rotates every Stok until one fits. Rotations are
    not actions."""
    seats = [
        dict(stok=["Kh", "Qh", "Jh", "10h", "Ad", "Ac", "As", "2h"], rij=["Ah", "Kd", "Kc", "Ks"]),
        dict(stok=["Kd", "Qd", "Jd", "10d", "9d", "8d", "Ah", "Ad", "Ac", "As", "2h"], rij=["Qs", "Js", "Qc", "Jc"]),
    ]
    state = position(game(2), seats)
    before = data_of(state)
    assert legal_texts(state, 0) == ["R1:Ah>new", "turn"]
    state.apply("R1:Ah>new", player=0)
    after = data_of(state)
    stok0 = before["seats"][0]["stok"][1:]  # Kh went to R1
    stok1 = before["seats"][1]["stok"]
    # Three rotations: seat 0's Ad comes to the top.
    assert after["seats"][0]["stok"] == stok0[3:] + stok0[:3]
    assert after["seats"][1]["stok"] == stok1[3:] + stok1[:3]
    assert after["seats"][0]["rij"] == ["Kh", "Kd", "Kc", "Ks"]
    assert obs_seat(state, 1)["stok_top"] == "10d"
    assert after["actions"] == 1 and len(state.history) == 1
    assert legal_texts(state, 0)[0] == "S:Ad>new"


def test_D4_5_end_round_option() -> None:
    """D4.5 (on_block='end_round'): a block ends the round at once, scored as it stands
    with no Stop bonus, the Stoks left as they are."""
    decks = blocked_deal_decks()
    g = game(2, on_block="end_round")
    assert g.on_block == "end_round" and g.options["on_block"] == "end_round"
    state = g.new_state(seed=1, decks=decks)
    assert state.is_terminal
    assert state.scores == [-26, -26] and state.round_scores == [-26, -26]
    data = data_of(state)
    assert data["seats"][0]["stok"] == decks[0][:13]
    assert data["seats"][1]["stok"] == decks[1][:13]
    # After a move, too.
    seats = [
        dict(stok=["Kh", "Qh", "Jh", "10h", "Ad", "Ac", "As", "2h"], rij=["Ah", "Kd", "Kc", "Ks"]),
        dict(stok=["Kd", "Qd", "Jd", "10d", "9d", "8d", "Ah", "Ad", "Ac", "As", "2h"], rij=["Qs", "Js", "Qc", "Jc"]),
    ]
    state = position(game(2, on_block="end_round", rounds=2), seats)
    stoks = [s["stok"] for s in data_of(state)["seats"]]
    state.apply("R1:Ah>new", player=0)
    assert state.round == 1 and state.phase == "play"
    assert state.scores == [1 - 2 * (len(stoks[0]) - 1), -2 * len(stoks[1])]


def test_D4_5_max_actions_ends_the_round_after_that_move() -> None:
    """D4.5: `max_actions` ends a round after that many actions; it is scored as it
    stands, with no Stop bonus unless Stop was called."""
    g = game(2, max_actions=3)
    assert g.max_actions == 3
    state = g.new_state(seed=8)
    state.apply("turn", player=0)
    state.apply("turn", player=1)
    assert not state.is_terminal
    state.apply("turn", player=0)
    assert state.is_terminal
    assert state.scores == [-26, -26]
    # After a Stop the cap still ends the round, and the Stop bonus counts.
    g = game(2, max_actions=5)
    data = position_data(
        g,
        [dict(rij=["5s", "6s", "Kd", "Qd"], waste=["2c", "3c"]), dict(rij=["As", "2s", "3s", "4s"])],
        [herenhoop("h", [0] * 13, 1)],
        actions=3,
    )
    state = load(g, data)
    state.apply("stop", player=0)
    assert state.phase == "after_stop"
    state.apply("R1:As>new", player=1)  # action 5
    assert state.is_terminal
    assert state.scores == [26 + 10, 1 - 24]  # R1 refilled from seat 1's Stok (D3.4)
    # The default cap is 100,000.
    assert game().max_actions == 100_000


# ---------------------------------------------------------------------------- D5


def worked_example() -> DuvelenState:
    """D5.6 as a position: seat 0 has 3 Stok cards; its own Herenhoop (hearts) holds 4 of
    its cards; 15 of its cards lie in the centre (clubs A-3) or in seat 1's Herenhoop
    (diamonds A-Q)."""
    piles = [
        herenhoop("h", [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0], 1),
        herenhoop("d", [0] * 12 + [1], 2),
        pile("c", [0, 0, 0]),
    ]
    seats = [
        dict(stok=["9s", "8s", "7s"], rij=["Ks", "Qs", "Js", "10s"]),
        dict(stok=["9s", "8s", "7s"], rij=["Ks", "Qs", "Js", "10s"]),
    ]
    return position(game(2, max_actions=1), seats, piles)


def test_D5_6_worked_example() -> None:
    """D5.6: 3 cards left in the Stok (-6), 4 own cards in the own Herenhoop (+8), 15
    cards in the centre or other players' Herenhopen (+15): 17 points."""
    state = worked_example()
    data = data_of(state)
    assert len(data["seats"][0]["stok"]) == 3
    assert state.round_scores[0] == 17
    # Seat 1: 9 hearts in seat 0's Herenhoop (+9), its own Kd in its own (+2), 3 Stok cards.
    assert state.round_scores == [17, 9 + 2 - 6]
    assert state.observation(1)["round_scores"] == [17, 5]
    assert expected_round_scores(data) == [17, 5]
    state.apply("turn", player=1)  # the cap of one action ends the round (D4.5)
    assert state.is_terminal and state.scores == [17, 5]


def test_D5_1_to_D5_5_each_part_of_the_score() -> None:
    """D5.1 +1 per own card in a centre pile; D5.2 +2 per own card in an own Herenhoop,
    +1 in another's; D5.3 Rij, Draaistok and waste score 0; D5.4 -2 per Stok card;
    D5.5 +10 for the Stop."""
    state = stop_ready(3)
    assert state.round_scores == [26, -26, -26]  # D5.2 (13 * 2), D5.4 (13 * -2)
    state.apply("turn", player=1)
    assert state.round_scores == [26, -26, -26]  # D5.3: turning changes nothing
    piles = [herenhoop("h", [1] * 12 + [0], 1), pile("s", [0, 2, 1])]
    state = position(game(3), [dict(), dict(rij=["2d", "Kd", "Qd", "Jd"]), dict()], piles)
    data = data_of(state)
    stok = [len(s["stok"]) for s in data["seats"]]
    assert state.round_scores == [2 + 1 - 2 * stok[0], 12 + 1 - 2 * stok[1], 1 - 2 * stok[2]]
    assert state.round_scores == expected_round_scores(data)


# ---------------------------------------------------------------------------- D7

NOTATION = [
    ("S:Ah>new", "play", "S", "Ah", "new", 0),
    ("R1:10h>12", "play", "R1", "10h", 12, 1 * 33 + 12),
    ("R2:7h>3", "play", "R2", "7h", 3, 2 * 33 + 3),
    ("R3:Qd>1", "play", "R3", "Qd", 1, 3 * 33 + 1),
    ("R4:Ks>32", "play", "R4", "Ks", 32, 4 * 33 + 32),
    ("W:2c>9", "play", "W", "2c", 9, 5 * 33 + 9),
    ("W:Jc>new", "play", "W", "Jc", "new", 5 * 33),
    ("R2>3", "play", "R2", None, 3, 2 * 33 + 3),
    ("S>new", "play", "S", None, "new", 0),
    ("W>32", "play", "W", None, 32, 5 * 33 + 32),
    ("turn", "turn", None, None, None, TURN),
    ("recycle", "recycle", None, None, None, RECYCLE),
    ("recycle^", "recycle^", None, None, None, RECYCLE_UP),
    ("stop", "stop", None, None, None, STOP),
    ("pass", "pass", None, None, None, PASS),
]


@pytest.mark.parametrize(("text", "kind", "source", "name", "target", "action"), NOTATION)
def test_D7_notation_round_trips(
    text: str, kind: str, source: str | None, name: str | None, target: Any, action: int
) -> None:
    """D7: every move form has a text that parses back to the same move; a play names
    source, card and pile (`R2:7h>3`, `S:Ah>new`), the short form drops the card."""
    move = DuvelenMove.parse(text)
    assert str(move) == text
    assert repr(move) == f"DuvelenMove('{text}')"
    assert DuvelenMove.parse(str(move)) == move
    assert hash(DuvelenMove.parse(text)) == hash(move)
    assert (move.kind, move.source, move.card, move.target, move.action) == (kind, source, name, target, action)
    assert pickle.loads(pickle.dumps(move)) == move
    assert copy.deepcopy(move) == move
    short = DuvelenMove.from_action(action)
    assert short.action == action
    if kind == "play":
        assert str(short) == f"{source}>{target}"
        assert short.card is None
        assert (short == move) == (name is None)
    else:
        assert short == move


def test_D7_every_action_id_round_trips() -> None:
    """D7: action ids 0..202 are positional (source * 33 + target; 198 turn, 199
    recycle, 200 recycle^, 201 stop, 202 pass) and map to short-form notation."""
    assert game().num_actions == NUM_ACTIONS
    seen = set()
    for action in range(NUM_ACTIONS):
        move = DuvelenMove.from_action(action)
        assert move.action == action
        assert DuvelenMove.parse(str(move)) == move
        seen.add(str(move))
        if action < TURN:
            source, target = divmod(action, 33)
            assert move.source == SOURCES[source]
            assert move.target == ("new" if target == 0 else target)
    assert len(seen) == NUM_ACTIONS


def test_D7_applied_forms_are_recorded_in_long_form() -> None:
    """D7: the engine always prints the long form: a short-form play, an action id or a
    DuvelenMove is recorded with its card; the JSON log prefixes each move with the seat
    (`2:R2:7h>3`)."""
    state = race_position()
    state.apply(1 * 33 + 1, player=1)  # R1>1: seat 1's 6h
    state.apply("R2>1", player=2)  # seat 2's 7h
    state.apply(DuvelenMove.parse("turn"), player=0)
    state.apply("R3:Ks>2", player=2)
    assert [(p, str(m)) for p, m in state.history] == [(1, "R1:6h>1"), (2, "R2:7h>1"), (0, "turn"), (2, "R3:Ks>2")]
    assert data_of(state)["history"] == ["1:R1:6h>1", "2:R2:7h>1", "0:turn", "2:R3:Ks>2"]
    for _player, move in state.history:
        assert isinstance(move, DuvelenMove)
        assert DuvelenMove.parse(str(move)) == move


def test_D7_legal_moves_match_actions_and_mask() -> None:
    """D7: legal_actions are the positional ids of legal_moves; the mask marks them."""
    rng = random.Random(4)
    state = game(3).new_state(seed=4)
    for _ in range(120):
        for seat in range(3):
            moves = state.legal_moves(seat)
            actions = state.legal_actions(seat)
            assert actions == [m.action for m in moves]
            mask = state.legal_action_mask(seat)
            assert mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(set(actions))
            for move in moves:
                assert move.kind != "play" or move.card is not None  # long form
        play(state, rng, 1, bias=0.5)
        if state.is_terminal:
            break


# ---------------------------------------------------------------------------- D8

SEAT_KEYS = {"stok_top", "stok_count", "rij", "waste_top", "waste_count", "draaistok_count"}
OBS_KEYS = {"round", "phase", "stop_called_by", "piles", "herenhopen", "seats", "scores", "round_scores", "legal"}


def check_observation(state: DuvelenState, player: int) -> None:
    obs = state.observation(player)
    assert OBS_KEYS | {"player"} <= set(obs)
    assert obs["player"] == player
    assert isinstance(obs["round"], int) and obs["round"] == state.round
    assert obs["phase"] in ("play", "after_stop", "game_over") and obs["phase"] == state.phase
    assert obs["stop_called_by"] is None or obs["stop_called_by"] in range(state.game.players)
    n = state.game.players
    for p in obs["piles"]:
        assert set(p) >= {"id", "suit", "top", "owners"}
        assert isinstance(p["id"], int) and p["suit"] in "hdcs" and len(p["suit"]) == 1
        assert isinstance(p["top"], int) and 1 <= p["top"] <= 12
        assert len(p["owners"]) == p["top"] and all(o in range(n) for o in p["owners"])
    assert [p["id"] for p in obs["piles"]] == sorted(p["id"] for p in obs["piles"])
    for h in obs["herenhopen"]:
        assert set(h) >= {"holder", "suit", "owners"}
        assert h["holder"] in range(n) and len(h["owners"]) == 13 and h["suit"] in "hdcs"
    assert len(obs["seats"]) == n
    for view in obs["seats"]:
        assert SEAT_KEYS <= set(view)
        assert view["stok_top"] is None or isinstance(view["stok_top"], str)
        assert isinstance(view["stok_count"], int) and 0 <= view["stok_count"] <= 13
        assert (view["stok_top"] is None) == (view["stok_count"] == 0)
        assert isinstance(view["rij"], list) and len(view["rij"]) == 4
        assert all(c is None or isinstance(c, str) for c in view["rij"])
        assert view["waste_top"] is None or isinstance(view["waste_top"], str)
        assert (view["waste_top"] is None) == (view["waste_count"] == 0)
        assert isinstance(view["waste_count"], int) and isinstance(view["draaistok_count"], int)
        assert view["waste_count"] + view["draaistok_count"] <= 35
    assert obs["scores"] == state.scores and all(isinstance(s, int) for s in obs["scores"])
    assert obs["round_scores"] == state.round_scores
    assert obs["legal"] == legal_texts(state, player)
    assert all(isinstance(t, str) for t in obs["legal"])
    assert json.loads(json.dumps(obs)) == obs


def test_D8_3_observation_keys_and_types() -> None:
    """D8.3: `observation(p)` is a JSON-ready dict with at least round, phase,
    stop_called_by, piles, herenhopen, seats (stok_top, stok_count, rij, waste_top,
    waste_count, draaistok_count), scores, round_scores and legal."""
    rng = random.Random(8)
    phases = set()
    for seed in range(3):
        state = game(2 + seed, rounds=2).new_state(seed=seed)
        while True:
            phases.add(state.phase)
            for seat in range(state.game.players):
                check_observation(state, seat)
            if state.is_terminal:
                break
            play(state, rng, 7, bias=0.8)
    assert phases == {"play", "after_stop", "game_over"}


def test_D8_3_observation_same_for_every_seat_but_player_and_legal() -> None:
    """D8.1, D8.3: everything in an observation is public: it is the same for every seat
    except `player` and its legal moves."""
    rng = random.Random(9)
    state = game(4).new_state(seed=9)
    steps = 0
    while not state.is_terminal and steps < 600:
        views = [state.observation(p) for p in range(4)]
        for p, view in enumerate(views):
            assert view.pop("player") == p
            assert view.pop("legal") == legal_texts(state, p)
            assert view.pop("legal_moves") == [move.to_dict() for move in state.legal_moves(p)]
        assert all(view == views[0] for view in views)
        play(state, rng, 3, bias=0.8)
        steps += 3


def test_D8_1_observation_shows_the_visible_cards() -> None:
    """D8.1: every visible card (Stok tops, Rij, waste tops), every count, and every pile
    with the owner of each card are public."""
    rng = random.Random(10)
    state = play(game(3).new_state(seed=10), rng, 150, bias=0.6)
    data = data_of(state)
    obs = state.observation(2)
    for seat, places in enumerate(data["seats"]):
        view = obs["seats"][seat]
        assert view["stok_top"] == (places["stok"][0] if places["stok"] else None)
        assert view["stok_count"] == len(places["stok"])
        assert view["rij"] == places["rij"]
        assert view["waste_top"] == (places["waste"][-1] if places["waste"] else None)
        assert view["waste_count"] == len(places["waste"])
        assert view["draaistok_count"] == len(places["draaistok"])
        assert view["passed"] == places["passed"]
    centre = [(i + 1, p) for i, p in enumerate(data["piles"]) if p["holder"] is None]
    assert [(p["id"], p["suit"], p["owners"]) for p in obs["piles"]] == [(i, p["suit"], p["owners"]) for i, p in centre]
    done = sorted((p for p in data["piles"] if p["holder"] is not None), key=lambda p: p["completed"])
    assert obs["herenhopen"] == [{"holder": p["holder"], "suit": p["suit"], "owners": p["owners"]} for p in done]


def test_D8_observation_tensor_shape() -> None:
    """D8: the tensor has the game's fixed shape and is float32."""
    for players in (2, 5, 8):
        g = game(players)
        state = g.new_state(seed=players)
        for seat in range(players):
            tensor = state.observation_tensor(seat)
            assert tensor.dtype == np.float32
            assert tensor.shape == g.observation_tensor_shape
            assert np.all(np.isfinite(tensor))


def test_game_object_is_a_value() -> None:
    """docs/interface.rst: a game is a value: equal options, equal games; it pickles."""
    g = game(3, rounds=2, on_block="end_round", max_actions=500)
    assert g == game(3, rounds=2, on_block="end_round", max_actions=500)
    assert g != game(3, rounds=2)
    assert hash(g) == hash(game(3, rounds=2, on_block="end_round", max_actions=500))
    assert pickle.loads(pickle.dumps(g)) == g
    assert g.options == {"players": 3, "rounds": 2, "on_block": "end_round", "max_actions": 500}
    assert g.name == "duvelen"
    assert DuvelenGame(players=3, rounds=2, on_block="end_round", max_actions=500) == g
    assert g.new_state(seed=1).game == g
    assert "duvelen" in diabolo.games()


def test_play_out_every_player_count() -> None:
    """D1.2, D4: random games of 2..8 players end, with one total per seat."""
    for players in range(2, 9):
        state = play_out(game(players).new_state(seed=players), random.Random(players))
        assert state.is_terminal and len(state.scores) == players
        assert state.round_scores == state.scores
        assert state.round_scores == expected_round_scores(data_of(state))
