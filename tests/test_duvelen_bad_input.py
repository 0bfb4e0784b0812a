"""Bad input to Duvelen that only Duvelen has: every wrong call raises a specific
DiaboloError and changes nothing. Spec: docs/games/duvelen.rst and the error contract of
docs/interface.rst, "Errors".

- illegal moves raise IllegalMoveError naming the clause broken; the state is unchanged,
- given decks and state JSON that break Duvelen's invariants (its seats, piles and
  Herenhopen) raise StateFormatError,
- hypothesis throws random text as moves and random decks at the engine.

Duvelen's bad notation, options, seats, deals and state JSON are samples
(tests/contract/samples/duvelen.py) that the contract's checks run over
(tests/contract/test_bad_input.py), with every other game's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diabolo
from diabolo.duvelen import DuvelenMove, DuvelenState
from tests.bad_input_helpers import assert_illegal
from tests.contract.samples.duvelen import (
    after_stop_position,
    base_data,
    base_position,
    empty_cycle_position,
    game2,
    game3,
    game_over_position,
    reachable_game,
    reachable_states,
)
from tests.duvelen_helpers import (
    NUM_ACTIONS,
    PASS,
    RECYCLE,
    RECYCLE_UP,
    STOP,
    TURN,
    data_of,
    deck,
    full_deck,
    herenhoop,
    legal_texts,
    pile,
    position_data,
)

# ---------------------------------------------------------------- positions


def test_base_positions_are_what_they_say() -> None:
    state = base_position()
    assert legal_texts(state, 0) == ["R2:2c>2", "turn", "stop"]
    assert legal_texts(state, 1) == ["R1:Ah>new", "turn"]
    assert legal_texts(state, 2) == ["turn"]
    assert [p["id"] for p in state.observation(0)["piles"]] == [2]
    assert legal_texts(after_stop_position(), 1) == ["R1:Ah>new", "pass"]
    empty = empty_cycle_position()
    assert legal_texts(empty, 0) == ["R1:Kc>3"]
    assert legal_texts(empty, 1)[-2:] == ["recycle", "recycle^"]


# ---------------------------------------------------------------- illegal moves


def test_D3_1_empty_source() -> None:
    """D3.1: a play from an empty place (an empty Rij slot, an empty waste, an empty
    Stok) is illegal, in long form, short form and as an action id."""
    state = base_position()
    for move in ("R1:2c>2", "R1>2", "R1>new", 1 * 33 + 2, "W:Qs>new", "W>2", 5 * 33, "S>2", "S:Ah>new", 0):
        assert_illegal(state, move, 0, "D3.1")


def test_D3_2_ace_goes_to_a_new_pile() -> None:
    """D3.2: an Ace only starts a new pile; only an Ace starts a new pile."""
    state = base_position()
    for move in ("R1:Ah>1", "R1:Ah>2", "R1>2", 1 * 33 + 2, "R1:Ah>5"):
        assert_illegal(state, move, 1, "D3.2")
    for move in ("R2:2c>new", "R2>new", 2 * 33):
        assert_illegal(state, move, 0, "D3.2")
    for move in ("R2:7h>new", "W:Qs>new", "W>new", "R3>new"):
        assert_illegal(state, move, 1, "D3.2")


def test_D3_3_wrong_pile() -> None:
    """D3.3: a card goes only onto a pile of its suit whose top is one lower."""
    state = base_position()
    assert_illegal(state, "R3:Kd>2", 0, "D3.3")
    assert_illegal(state, "R4:5s>2", 0, "D3.3")
    assert_illegal(state, "R3:2d>2", 1, "D3.3")  # a 2, but of diamonds on clubs
    assert_illegal(state, "W:Qs>2", 1, "D3.3")
    assert_illegal(state, 3 * 33 + 2, 1, "D3.3")
    state.apply("R2:2c>2", player=0)
    assert_illegal(state, "R2:7h>2", 1, "D3.3")
    assert_illegal(state, "R2>2", 0, "D3.1")  # R2 is empty now (seat 0 has no Stok)


def test_D3_9_completed_pile() -> None:
    """D3.9: a Herenhoop has left the centre: nothing more goes on it."""
    state = base_position()
    for move in ("R2:7h>1", "R2>1", "R4:Kc>1", "W:Qs>1", 2 * 33 + 1):
        assert_illegal(state, move, 1, "D3.9")
    assert_illegal(state, "R2:2c>1", 0, "D3.9")


def test_D3_10_stale_card() -> None:
    """D3.10: a play naming a card that is no longer (or never was) at its source."""
    state = base_position()
    stok_top = state.observation(1)["seats"][1]["stok_top"]
    for move in ("R1:As>new", "R1:2h>new", "R2:8h>2", "W:Ks>2", "R2:2c>2"):
        assert_illegal(state, move, 1, "D3.10")
    assert_illegal(state, "R1:Ah>new", 0, "D3.1")  # seat 0's R1 is empty
    state.apply("R1:Ah>new", player=1)
    assert_illegal(state, "R1:Ah>new", 1, "D3.10")
    assert_illegal(state, f"S:{stok_top}>new", 1, "D3.10")


def test_D4_1_stop_with_stok_or_twice() -> None:
    """D4.1: Stop needs an empty Stok, and only one Stop per round."""
    state = base_position()
    for seat in (1, 2):
        assert_illegal(state, "stop", seat, "D4.1")
        assert_illegal(state, STOP, seat, "D4.1")
        assert_illegal(state, DuvelenMove.parse("stop"), seat, "D4.1")
    state.apply("stop", player=0)
    for seat in range(3):
        assert_illegal(state, "stop", seat, "D4.1")


def test_D4_2_turn_or_recycle_after_stop() -> None:
    """D4.2: after Stop nobody turns or recycles."""
    state = after_stop_position()
    for seat in range(3):
        for move in ("turn", "recycle", "recycle^", TURN, RECYCLE, RECYCLE_UP):
            assert_illegal(state, move, seat, "D4.2")


def test_D3_7_D3_8_turn_or_recycle_when_not_allowed() -> None:
    """D3.7: a turn needs Draaistok cards; D3.8: a recycle needs an empty Draaistok and a
    waste."""
    state = base_position()
    for seat in range(3):
        assert_illegal(state, "recycle", seat, "D3.8")
        assert_illegal(state, RECYCLE_UP, seat, "D3.8")
    state = empty_cycle_position()
    for move in ("turn", TURN):
        assert_illegal(state, move, 0, "D3.7")
        assert_illegal(state, move, 1, "D3.7")
    for move in ("recycle", "recycle^", RECYCLE):
        assert_illegal(state, move, 0, "D3.8")
    state.apply("recycle^", player=1)


def test_D4_4_pass_before_stop() -> None:
    """D4.4: before Stop there is no pass."""
    state = base_position()
    for seat in range(3):
        assert_illegal(state, "pass", seat, "D4.4")
        assert_illegal(state, PASS, seat, "D4.4")


def test_D1_3_game_over() -> None:
    """D1.3: after the last round nothing may be played."""
    state = game_over_position()
    for seat in range(3):
        assert state.legal_moves(seat) == []
        assert state.legal_actions(seat) == []
        assert not state.legal_action_mask(seat).any()
        for move in ("turn", "pass", "stop", "recycle", "R2:2c>2", "R1>new", 0, TURN, PASS, NUM_ACTIONS - 1):
            assert_illegal(state, move, seat, "D1.3")


def test_D7_no_such_pile() -> None:
    """D7: piles are numbered from 1 in start order; a number not yet given is no pile."""
    state = base_position()
    for move in ("R2:2c>3", "R2:2c>32", "R2>3", 2 * 33 + 32):
        assert_illegal(state, move, 0, "D7")
    assert_illegal(state, "R2:7h>3", 1, "D7")


# ---------------------------------------------------------------- given deals


def good_decks(n: int = 2) -> list[list[str]]:
    return [deck(draaistok=["Ah"]) for _ in range(n)]


def test_given_decks_as_tuples_are_fine() -> None:
    decks = good_decks()
    state = game2().new_state(seed=1, decks=tuple(tuple(d) for d in decks))
    assert state.to_json() == game2().new_state(seed=1, decks=decks).to_json()


# ---------------------------------------------------------------- state JSON


def load3(data: Any) -> DuvelenState:
    text = data if isinstance(data, str) else json.dumps(data)
    return game3().state_from_json(text)


@pytest.mark.parametrize("key", ["stok", "rij", "waste", "draaistok", "passed"])
def test_state_json_missing_seat_key(key: str) -> None:
    data = base_data()
    del data["seats"][1][key]
    with pytest.raises(diabolo.StateFormatError, match=key):
        load3(data)


@pytest.mark.parametrize("key", ["suit", "owners", "holder", "completed"])
def test_state_json_missing_pile_key(key: str) -> None:
    data = base_data()
    del data["piles"][2][key]
    with pytest.raises(diabolo.StateFormatError, match=key):
        load3(data)


SEAT_VALUES: list[tuple[str, Any]] = [
    ("stok", "Ks"),
    ("stok", None),
    ("stok", [1]),
    ("stok", ["Xs"]),
    ("stok", full_deck()[:14]),
    ("rij", ["Kh", "Kd", "Kc"]),
    ("rij", ["Kh", "Kd", "Kc", "Ks", "Qh"]),
    ("rij", ["Kh", "Kd", "Kc", 1]),
    ("rij", "KhKdKcKs"),
    ("rij", None),
    ("waste", "Qs"),
    ("waste", [None]),
    ("waste", full_deck()[:36]),
    ("draaistok", None),
    ("draaistok", [""]),
    ("draaistok", full_deck()[:36]),
    ("passed", 0),
    ("passed", "false"),
    ("passed", None),
    ("passed", True),  # no pass before Stop (D4.4)
]


@pytest.mark.parametrize(("key", "value"), SEAT_VALUES)
def test_state_json_wrong_seat_values(key: str, value: Any) -> None:
    data = base_data()
    data["seats"][2][key] = value
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


PILE_VALUES: list[tuple[str, Any]] = [
    ("suit", "x"),
    ("suit", ""),
    ("suit", "hh"),
    ("suit", "H"),
    ("suit", "\x00"),
    ("suit", None),
    ("suit", 1),
    ("owners", []),
    ("owners", [1] * 14),
    ("owners", [3]),
    ("owners", [-1]),
    ("owners", ["1"]),
    ("owners", [1.0]),
    ("owners", None),
    ("owners", 1),
    ("holder", 1),  # a pile of one card is no Herenhoop
    ("holder", 3),
    ("holder", "1"),
    ("completed", -1),
    ("completed", 33),
    ("completed", "0"),
    ("completed", None),
]


@pytest.mark.parametrize(("key", "value"), PILE_VALUES)
def test_state_json_wrong_pile_values(key: str, value: Any) -> None:
    data = base_data()
    data["piles"][2][key] = value  # pile 3: seat 1's Ah
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


def test_state_json_card_conservation() -> None:
    """D1.1: every card of every deck is in exactly one place."""
    mutations: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d["seats"][0]["draaistok"].pop(),
        lambda d: d["seats"][1]["stok"].pop(),
        lambda d: d["seats"][2]["waste"].pop(),
        lambda d: d["seats"][1]["stok"].append(d["seats"][1]["draaistok"][0]),
        lambda d: d["seats"][0]["draaistok"].append(d["seats"][0]["draaistok"][0]),
        lambda d: d["seats"][1]["rij"].__setitem__(0, d["seats"][1]["rij"][1]),
        lambda d: d["seats"][2]["waste"].append(d["seats"][2]["stok"][0]),
        lambda d: d["seats"][0]["draaistok"].__setitem__(0, "Kh"),  # seat 0's Kh is in pile 1
        lambda d: d["seats"][1]["draaistok"].append("Ah"),  # seat 1's Ah is in pile 3
        lambda d: d["piles"][1]["owners"].append(0),  # seat 0's 2c is in its Rij
        lambda d: d["piles"][2]["owners"].__setitem__(0, 2),  # seat 2's Ah is in its Draaistok
        lambda d: d["piles"].append(dict(d["piles"][2])),
        lambda d: d["seats"][1].__setitem__("stok", d["seats"][2]["stok"]),
    ]
    for change in mutations:
        data = base_data()
        change(data)
        with pytest.raises(diabolo.StateFormatError):
            load3(data)


def test_state_json_rij_gap_with_a_stok() -> None:
    """D3.4: a Rij slot is empty only when the Stok is empty."""
    data = base_data()
    seat = data["seats"][1]
    moved = seat["rij"][2]
    seat["rij"][2] = None
    seat["waste"].append(moved)
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


def test_state_json_impossible_phases() -> None:
    """Phase data must be consistent: Stop only in after_stop (D4.1), passes only after
    Stop (D4.4), an empty waste after Stop must have taken the Draaistok (D4.3), a
    blocked position must have been resolved (D4.5), game over only in the last round
    (D1.3), the action cap not yet reached (D4.5)."""
    g = game2(rounds=2)
    piles = [herenhoop("h", [0] * 13, 1)]
    ok_seats: list[dict[str, Any]] = [dict(waste=["2c"]), dict(waste=["Ac"])]
    g.state_from_json(json.dumps(position_data(g, ok_seats, piles)))
    g.state_from_json(json.dumps(position_data(g, ok_seats, piles, phase="after_stop", stop_called_by=0)))
    cases: list[dict[str, Any]] = [
        dict(phase="after_stop"),
        dict(phase="play", stop_called_by=0),
        dict(phase="game_over"),
        dict(round=2),
        dict(actions=100_000),
    ]
    for case in cases:
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(position_data(g, ok_seats, piles, **case)))
    passed: list[dict[str, Any]] = [dict(waste=["2c"], passed=True), dict(waste=["Ac"])]
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(position_data(g, passed, piles)))
    unflipped: list[dict[str, Any]] = [dict(waste=["2c"]), dict(waste=[])]
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(position_data(g, unflipped, piles, phase="after_stop", stop_called_by=0)))
    # A blocked deal: every Ace under a Stok top, nothing else wanted.
    blocked = [
        dict(stok=["Kh", "Ah", "Ad", "Ac", "As"], rest="auto"),
        dict(stok=["Kd", "Ah", "Ad", "Ac", "As"], rest="auto"),
    ]
    data = position_data(game2(), blocked)
    for seat in data["seats"]:
        assert not any(c.startswith("A") for c in seat["draaistok"] + seat["rij"] + seat["stok"][:1])
    with pytest.raises(diabolo.StateFormatError):
        game2().state_from_json(json.dumps(data))


def test_state_json_herenhoop_invariants() -> None:
    """D3.9: a Herenhoop is exactly a pile up to its King, with a completion order."""
    g = game2()
    seats: list[dict[str, Any]] = [dict(), dict()]
    bad_piles = [
        [pile("h", [0] * 13)],  # a complete pile still in the centre
        [pile("h", [0] * 12, holder=0, completed=1)],  # a Herenhoop without King
        [pile("h", [0] * 13, holder=0, completed=0)],  # no completion order
        [pile("h", [0] * 13, holder=0, completed=2)],  # order beyond the count
    ]
    for piles in bad_piles:
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(position_data(g, seats, piles)))


def test_state_json_herenhoop_holder_played_the_king() -> None:
    """D3.9, D1.1: a Herenhoop is held by the player who played its King, and a player
    plays only own cards, so the holder is the owner of the King. A state where they
    differ is impossible and must be rejected."""
    g = game2()
    data = position_data(g, [dict(), dict()], [pile("h", [0] * 13, holder=1, completed=1)])
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(data))


def test_state_json_completion_order_is_consistent() -> None:
    """D8.3, D7: Herenhopen are listed in the order completed, so their order numbers are
    distinct (1..count); a pile still in the centre has none."""
    g = game2()
    for piles in (
        [herenhoop("h", [0] * 13, 1), herenhoop("d", [0] * 13, 1)],
        [herenhoop("h", [0] * 13, 1), pile("d", [0] * 3, completed=2)],
    ):
        data = position_data(g, [dict(), dict()], piles)
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(data))


def test_state_json_stop_called_by_a_seat_with_a_stok() -> None:
    """D4.1: only a player whose Stok is empty calls Stop, and a Stok never grows, so a
    state whose Stop caller still has Stok cards is impossible."""
    g = game2()
    piles = [herenhoop("h", [0] * 13, 1)]
    data = position_data(g, [dict(waste=["2c"]), dict(waste=["Ac"])], piles, phase="after_stop", stop_called_by=1)
    assert data["seats"][1]["stok"]
    with pytest.raises(diabolo.StateFormatError):
        g.state_from_json(json.dumps(data))


def test_state_json_after_stop_round_that_should_have_ended() -> None:
    """D4.4: after Stop the round ends as soon as every pass stands or nobody has a card
    play; like a blocked position before Stop (which the loader rejects, D4.5), such an
    after-Stop state cannot arise and must be rejected."""
    g = game2()
    piles = [herenhoop("h", [0] * 13, 1)]
    all_passed = [dict(waste=["2c"], passed=True), dict(waste=["Ac"], passed=True)]
    no_play = [dict(waste=["2c"]), dict(waste=["3c"])]
    for seats in (all_passed, no_play):
        data = position_data(g, seats, piles, phase="after_stop", stop_called_by=0)
        with pytest.raises(diabolo.StateFormatError):
            g.state_from_json(json.dumps(data))


def test_state_json_of_another_configuration() -> None:
    """A state of another configuration is not a state of this game (of another game:
    tests/contract)."""
    text = game3().new_state(seed=1).to_json()
    for other in (game2(), game3(rounds=2), game3(on_block="end_round"), game3(max_actions=99)):
        with pytest.raises(diabolo.StateFormatError):
            other.state_from_json(text)
    data = base_data()
    data["options"]["players"] = 2
    with pytest.raises(diabolo.StateFormatError):
        load3(data)


def test_state_json_non_ascii_cards() -> None:
    """Cards that are not cards, in any alphabet, raise StateFormatError."""
    for text in ("é", "Aé", "é5", "日", "\u0080", "Ａh", "1０h", "\x00h"):
        for where in ("stok", "draaistok", "rij"):
            data = base_data()
            data["seats"][2][where][0] = text
            with pytest.raises(diabolo.StateFormatError):
                load3(data)
        data = base_data()
        data["history"] = [f"0:R1:{text}>new"]
        with pytest.raises(diabolo.StateFormatError):
            load3(data)


# ---------------------------------------------------------------- hypothesis: apply


def state_at(index: int) -> DuvelenState:
    players, text = reachable_states()[index % len(reachable_states())]
    return reachable_game(players).state_from_json(text)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0), st.integers(0, 3), st.text(max_size=12))
def test_fuzz_apply_text(index: int, seat: int, text: str) -> None:
    """Random text as moves: NotationError or IllegalMoveError leave the state as it was."""
    state = state_at(index)
    seat %= state.game.players
    before = state.to_json()
    try:
        state.apply(text, player=seat)
    except (diabolo.NotationError, diabolo.IllegalMoveError):
        assert state.to_json() == before
        return
    assert str(state.history[-1][1]).startswith(text.split(">")[0].split(":")[0])


# ---------------------------------------------------------------- hypothesis: given decks


@given(st.lists(st.sampled_from(full_deck() + ["1h", "Ah ", "é", "", "10", "K"]), max_size=60))
def test_fuzz_given_deck(cards: list[str]) -> None:
    """Random card lists as a seat's deck: StateFormatError unless exactly one deck."""
    try:
        game2().new_state(seed=1, decks=[cards, full_deck()])
    except diabolo.StateFormatError:
        assert sorted(cards) != sorted(full_deck())
        return
    assert sorted(cards) == sorted(full_deck())


@given(st.permutations(full_deck()), st.permutations(full_deck()))
def test_fuzz_given_permutations(first: list[str], second: list[str]) -> None:
    """D2.5: any two permutations of the deck are a valid deal."""
    state = game2().new_state(seed=1, decks=[first, second])
    assert state.phase in ("play", "game_over")
    data = data_of(state)
    assert sorted(data["seats"][0]["stok"] + data["seats"][0]["rij"] + data["seats"][0]["draaistok"]) == sorted(first)
