"""Events, public views and secrecy as data, for every game (docs: Building a frontend).

The main check: a client that holds its seat's view and is fed only the events its seat
sees (tests/client_models.py) has the engine's view after every move of random games, and
a spectator's client the public view. In CI it runs on 200 random games of each game, the
most a test plays (DIABOLO_EVENT_GAMES sets another number: the released wheel's run,
tests/test_release.py, sets the local 60; longer runs find more, at a minute per 1,000).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

import pytest

import diabolo
from tests.client_models import MODELS, ClientModel, SchachtModel
from tests.contract.games import CATALOGUE, new_game, random_states

GAMES = CATALOGUE
MODELLED = sorted(MODELS)
"""The games with a client model (tests/client_models.py): every listed game has one (a
frontend needs its reducer); a test-only game may not."""
RANDOM_GAMES = int(os.environ.get("DIABOLO_EVENT_GAMES", "200" if os.environ.get("CI") else "60"))


def without_legal(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key not in ("legal", "legal_moves")}


def short_games(name: str, seed: int) -> Any:
    """A game of `name` whose random games end in a few hundred moves: every rule that
    ends a round or a game is reached in a few games."""
    if name == "duvelen":
        return diabolo.load("duvelen", players=2 + seed % 3, rounds=2, max_actions=150 + seed % 200)
    if name == "knizia":
        if seed % 4 == 3:
            return new_game("knizia", players=2 + seed % 3, variant="victory_tiles")
        return new_game("knizia", players=2 + seed % 3, rounds=2)
    if name == "schacht":  # more closed rows to end a round (S4.1) leave hands that cannot be placed (S3.3)
        return diabolo.load("schacht", players=3 + seed % 3, rounds=2, rows_to_end=2 + seed % 4)
    return new_game(name)


def choose(name: str, state: Any, rng: random.Random) -> tuple[int, Any]:
    """A random pending seat and move, biased towards what makes a game move on: Duvelen
    plays cards when it can (pure chance turns and recycles for ever), and Knizia's
    seats call a word that is not one now and then, to draw penalties (K3.5)."""
    seat = rng.choice(state.pending_seats)
    moves = state.legal_moves(seat)
    if name == "duvelen":
        plays = [move for move in moves if move.kind in ("play", "stop")]
        if plays and rng.random() < 0.8:
            return seat, rng.choice(plays)
    if name == "knizia" and state.phase == "play" and rng.random() < 0.05:
        return seat, "XQZ"
    return seat, rng.choice(moves)


def play_with_clients(name: str, seed: int, check: Callable[[Any, list[ClientModel], ClientModel], None]) -> int:
    """Plays a random game with a client model per seat and one for spectators; `check`
    runs after every move. Returns the number of moves."""
    game = short_games(name, seed)
    state = game.new_state(seed=seed)
    model = MODELS.get(name)  # a test-only game has none: its clients are not checked
    seats = [model(state.observation(p)) for p in range(game.players)] if model else []
    spectator = model(state.public_observation()) if model else ClientModel(state.public_observation())
    rng = random.Random(seed)
    moves = 0
    while state.pending_seats and moves < 2000:
        seat, move = choose(name, state, rng)
        state.apply(move, player=seat)
        moves += 1
        for p, client in enumerate(seats):
            client.apply(state.events_for(p))
        if model:
            spectator.apply(state.public_events())
        check(state, seats, spectator)
    return moves


def test_every_listed_game_has_a_client_model() -> None:
    assert set(diabolo.games()) <= set(MODELS)


@pytest.mark.parametrize("name", MODELLED)
def test_a_client_fed_only_its_events_has_its_view_after_every_move(name: str) -> None:
    def check(state: Any, seats: list[ClientModel], spectator: ClientModel) -> None:
        for p, client in enumerate(seats):
            assert client.view == without_legal(state.observation(p)), (p, state.last_move, state.events_for(p))
        assert spectator.view == state.public_observation(), (state.last_move, state.public_events())

    moves = [play_with_clients(name, seed, check) for seed in range(RANDOM_GAMES)]
    assert min(moves) > 0


@pytest.mark.parametrize("name", GAMES)
def test_random_games_reach_every_event(name: str) -> None:
    """The equality test above means something only if its games meet every event."""
    seen: set[str] = set()

    def collect(state: Any, seats: list[ClientModel], spectator: ClientModel) -> None:
        seen.update(entry["event"]["type"] for entry in state.last_events)

    for seed in range(60):
        play_with_clients(name, seed, collect)
    expected = set(short_games(name, 0).visibility["events"])
    rare = {"duvelen": {"blocked", "stoks_rotated"}}.get(name, set())  # checked in test_duvelen_events below
    assert expected - rare <= seen, sorted(expected - rare - seen)


@pytest.mark.parametrize("name", GAMES)
def test_the_public_view_is_the_seat_view_without_its_private_keys(name: str) -> None:
    game = new_game(name)
    private = {key for key, who in game.visibility["observation"].items() if who == "private"}
    assert "legal" in private
    for state in random_states(game, seed=3, limit=120):
        public = state.public_observation()
        assert public["player"] is None
        for p in range(game.players):
            view = state.observation(p)
            assert set(view) == set(game.visibility["observation"])
            assert {key: value for key, value in view.items() if key not in private | {"player"}} == {
                key: value for key, value in public.items() if key != "player"
            }


@pytest.mark.parametrize("name", GAMES)
def test_every_event_states_its_visibility_and_is_seen_as_it_says(name: str) -> None:
    game = new_game(name)
    events = game.visibility["events"]
    assert set(game.visibility["moves"]) >= {move.kind for move in game.new_state(seed=1).legal_moves(0)}
    for state in random_states(game, seed=5, limit=150)[1:]:
        entries = state.last_events
        for entry in entries:
            kind = events[entry["event"]["type"]]
            assert (entry["visible_to"] is None) == (kind == "public")
            assert (entry["public"] is not None) == (kind == "private_with_public_form")
        for viewer, seen in [*enumerate(state.events_for(p) for p in range(game.players)), (None, None)]:
            seen = state.public_events() if viewer is None else seen
            expected = [
                entry["event"] if entry["visible_to"] in (None, viewer) else entry["public"]
                for entry in entries
                if entry["visible_to"] in (None, viewer) or entry["public"] is not None
            ]
            assert seen == expected
        json.dumps(entries)  # JSON-ready


@pytest.mark.parametrize("name", GAMES)
def test_events_are_of_the_last_move_only(name: str) -> None:
    game = new_game(name)
    state = game.new_state(seed=2)
    assert state.last_events == [] and state.public_events() == [] and state.events_for(0) == []
    seat = state.pending_seats[0]
    state.apply(state.legal_actions(seat)[0], player=seat)
    assert state.last_events and state.clone().last_events == state.last_events
    assert game.state_from_json(state.to_json()).last_events == []  # a saved state keeps no move to replay


@pytest.mark.parametrize("name", GAMES)
def test_events_json_is_each_audiences_events_as_compact_text(name: str) -> None:
    """events_json(): for a spectator (None) and every seat, the text of public_events()
    and events_for(seat) as a server sends it (compact, keys in order), from one replay."""
    game = new_game(name)
    for state in random_states(game, seed=5, limit=120):
        texts = state.events_json()
        assert list(texts) == [None, *range(game.players)]
        expected = [state.public_events(), *(state.events_for(seat) for seat in range(game.players))]
        for text, events in zip(texts.values(), expected, strict=True):
            assert text == json.dumps(events, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_learns_from_events_only_what_its_view_shows(name: str) -> None:
    """Leak test: two tables that look the same to seat p (one resampled for p) and stay
    alike to p after the same move give p the same events, and spectators too. An event
    that showed a hidden card (another seat's hand, the order of a pile) would differ."""
    game = new_game(name)
    compared = 0
    states = (state for seed in range(40) for state in random_states(game, seed=seed, limit=200)[:-1])
    while compared < 100:
        state = next(states)
        for p in range(game.players):
            other = state.resample(p, seed=compared)
            for seat in state.pending_seats:
                shared = set(map(str, state.legal_moves(seat))) & set(map(str, other.legal_moves(seat)))
                for move in sorted(shared)[:3]:
                    a, b = state.clone(), other.clone()
                    a.apply(move, player=seat)
                    b.apply(move, player=seat)
                    if a.observation(p) == b.observation(p):
                        assert a.events_for(p) == b.events_for(p), (p, seat, move)
                        compared += 1
                    if a.public_observation() == b.public_observation():
                        assert a.public_events() == b.public_events(), (seat, move)


def test_a_secret_doubler_decision_shows_nothing_to_the_others() -> None:
    """S5.3, S7.1: a seat's view and events do not change when another seat decides,
    until the last decision scores the colour; the history's decisions stay hidden too."""
    game = diabolo.load("schacht", players=4)
    checked = 0
    for seed in range(40):
        for state in random_states(game, seed=seed, limit=300):
            if state.phase != "doubler" or len(state.pending_seats) < 2:
                continue
            seat = state.pending_seats[0]
            for move in ("bet", "hold"):
                after = state.clone()
                after.apply(move, player=seat)
                assert after.phase == "doubler"
                for p in range(4):
                    if p != seat:
                        assert after.observation(p) == state.observation(p)
                        assert after.events_for(p) == []
                assert after.public_observation() == state.public_observation()
                assert after.public_events() == []
                assert after.events_for(seat) == [{"type": "doubler_decided", "seat": seat, "decision": move}]
                checked += 1
    assert checked > 20


def test_duvelen_events_of_a_block_and_its_rotations() -> None:
    """D4.5: a position where nobody can play rotates every Stok, and says so."""
    game = diabolo.load("duvelen", players=2)
    found = 0
    for seed in range(400):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if not state.pending_seats:
                break
            seat, move = choose("duvelen", state, rng)
            state.apply(move, player=seat)
            types = [event["type"] for event in state.public_events()]
            if "blocked" in types:
                found += 1
                rotations = types.count("stoks_rotated")
                assert rotations > 0 or "round_ended" in types
        if found >= 3:
            break
    assert found >= 3


def test_a_given_deal_is_the_deal_the_events_show() -> None:
    """S2.4: a round dealt from a given deck (replacing the shuffle when the round
    begins) shows that deal in its events, and the clients stay equal to their views."""
    cards = [
        colour + str(value)
        for colour in "RYGPB"
        for value, copies in zip(range(1, 6), (4, 3, 3, 2, 2))
        for _ in range(copies)
    ]
    deck = list(reversed(cards))
    game = diabolo.load("schacht", players=3, rounds=2)
    state = game.new_state(seed=5, decks=[None, deck])
    seats = [SchachtModel(state.observation(p)) for p in range(3)]
    rng = random.Random(5)
    while state.round == 0:
        seat = state.pending_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        for p, client in enumerate(seats):
            client.apply(state.events_for(p))
            assert client.view == without_legal(state.observation(p))
    dealt = {
        event["seat"]: event["cards"]
        for p in range(3)
        for event in state.events_for(p)
        if event["type"] == "dealt" and "cards" in event
    }
    first = (state.dealer + 1) % 3  # S2.4: the first six cards go to the seat left of the dealer
    assert sorted(dealt[first]) == sorted(deck[:6])
