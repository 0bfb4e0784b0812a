"""Properties of Diabolo (Knizia) over random play: card conservation, the limits of
the rules, round trips, determinism, and leak tests for what nobody may see (K5.1).

Random states come from random walks: at each step a random seat with moves makes a
random legal move, or (sometimes) a call that is not a valid claim, which draws the
penalty of K3.5. Small decks and a small lexicon keep the walks short and rich in words.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import diabolo
from diabolo import Lexicon
from diabolo.knizia import Deck, KniziaGame, KniziaState

WALKS = 300 if os.environ.get("CI") else 60

LEXICON = Lexicon.from_words(
    [
        "TOR",
        "ROT",
        "ORT",
        "TORE",
        "ROTE",
        "REST",
        "RAST",
        "RATE",
        "STERN",
        "STAR",
        "NEST",
        "ERNST",
        "STEIN",
        "REIN",
        "SEIN",
        "NEIN",
        "NACH",
        "ACHT",
        "STOP",
        "POST",
        "SPOT",
        "OPER",
        "PORT",
        "ROSE",
        "NASE",
        "RASEN",
        "ASTER",
        "TASTE",
        "SENAT",
        "OTTER",
        "TEE",
        "SEE",
        "OSTEN",
        "ARTEN",
        "ANTE",
        "TANTE",
    ]
)
DECK = Deck(
    {"A": 2, "E": 3, "N": 2, "O": 2, "P": 1, "R": 2, "S": 2, "T": 3, "CH": 1, "EI": 1, "ST": 1, "?": 1, "??": 1}, "xx"
)


def game_of(players: int, **options: Any) -> KniziaGame:
    return diabolo.load("knizia", players=players, lexicon=LEXICON, deck=DECK, **options)


def walk(state: KniziaState, rng: random.Random, steps: int, odd: float = 0.1) -> KniziaState:
    """Plays up to `steps` random moves (a share `odd` of calls that are not claims)."""
    players = state.game.players
    for _ in range(steps):
        if state.is_terminal:
            break
        movers = [p for p in range(players) if state.legal_moves(p)]
        player = rng.choice(movers)
        if state.phase == "play" and rng.random() < odd:
            state.apply(rng.choice(["TEER", "XYZ", "ROT@0,1,2", "STERN"]), player=player)
        else:
            state.apply(rng.choice(state.legal_moves(player)), player=player)
    return state


@st.composite
def states(draw: st.DrawFn) -> KniziaState:
    players = draw(st.integers(2, 6))
    variant = draw(st.sampled_from(["standard", "victory_tiles"]))
    seed = draw(st.integers(0, 2**64 - 1))
    game = game_of(players, variant=variant, min_cards=draw(st.sampled_from([3, 4])))
    return walk(game.new_state(seed=seed), random.Random(seed), draw(st.integers(0, 400)))


def cards_of(data: dict[str, Any]) -> Counter[str]:
    """Every card the state JSON places: deck, table and piles."""
    placed = Counter(data["deck"]) + Counter(data["table"])
    for pile in data["piles"]:
        placed += Counter(pile["taken"]) + Counter(pile["drawn"])
    return placed


@settings(max_examples=WALKS)
@given(st.integers(2, 6), st.integers(0, 2**64 - 1), st.sampled_from(["standard", "victory_tiles"]))
def test_invariants_hold_at_every_step(players: int, seed: int, variant: str) -> None:
    state = game_of(players, variant=variant).new_state(seed=seed)
    rng = random.Random(seed)
    deck = Counter({card: count for card, count in DECK.cards.items()})
    while not state.is_terminal:
        data = json.loads(state.to_json())
        assert cards_of(data) == deck  # every card in exactly one place (K1.2)
        assert sum(state.piles) + len(state.table) + state.deck_count == DECK.size
        assert state.phase == ("penalty" if state.penalty else "play")  # K10.2
        assert all(p != state.penalty[0] for p in state.penalty[1:]) if state.penalty else True
        walk(state, rng, 1, odd=0.15)
    assert state.current_player == diabolo.TERMINAL and all(not state.legal_moves(p) for p in range(players))
    if variant == "victory_tiles":
        assert max(state.scores) >= 2  # K4.3: someone has two tiles
    else:
        assert state.round == (state.game.rounds or 0) - 1  # K4.2


@given(states())
def test_scores_are_whole_rounds(state: KniziaState) -> None:
    """K4.1: a standard game's totals are sums of piles; nobody scores more than the deck."""
    if state.game.variant == "standard":
        assert sum(state.scores) <= DECK.size * (state.round + (1 if state.is_terminal else 0))
    else:
        assert all(0 <= tiles <= state.round + 1 for tiles in state.scores)


@given(states())
def test_clone_copy_pickle_json_round_trip(state: KniziaState) -> None:
    text = state.to_json()
    for other in (
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
        state.game.state_from_json(text),
    ):
        assert other == state and other.to_json() == text
        assert [str(m) for m in other.legal_moves(0)] == [str(m) for m in state.legal_moves(0)]


@given(states(), st.integers(0, 2**32))
def test_apply_on_a_clone_never_changes_the_original(state: KniziaState, seed: int) -> None:
    before = state.to_json()
    walk(state.clone(), random.Random(seed), 20)
    assert state.to_json() == before


@settings(max_examples=WALKS // 3)
@given(st.integers(0, 2**64 - 1), st.integers(2, 6))
def test_same_seed_same_game(seed: int, players: int) -> None:
    one = walk(game_of(players).new_state(seed=seed), random.Random(seed), 10_000)
    two = walk(game_of(players).new_state(seed=seed), random.Random(seed), 10_000)
    assert one == two and one.is_terminal


def test_different_seeds_deal_differently() -> None:
    decks = {tuple(json.loads(game_of(3).new_state(seed=s).to_json())["deck"]) for s in range(20)}
    assert len(decks) == 20


@given(states())
def test_legal_moves_action_ids_and_mask_agree(state: KniziaState) -> None:
    game = state.game
    for p in range(game.players):
        moves = state.legal_moves(p)
        actions = state.legal_actions(p)
        ids = [game.action(m) for m in moves]
        assert None not in ids and actions == sorted(i for i in ids if i is not None)  # ascending, as in every game
        mask = state.legal_action_mask(p)
        assert mask.shape == (game.num_actions,) and mask.nonzero()[0].tolist() == actions
        assert sorted(str(game.move(a)) for a in actions) == sorted(str(m) for m in moves)


# ---- leak tests (K5.1): the deck order and the blind draws are hidden from everyone --------


def hidden_free(data: dict[str, Any]) -> dict[str, Any]:
    """The state JSON without what nobody knows: which unseen card (the deck's and the
    blind draws') is where, the seed of later shuffles, and given deals."""
    data = dict(data)
    unseen = list(data.pop("deck"))
    for pile in data["piles"]:
        unseen += pile["drawn"]
    data["piles"] = [{"taken": pile["taken"], "drawn": len(pile["drawn"])} for pile in data["piles"]]
    data["unseen"] = sorted(unseen)
    data.pop("seed")
    data.pop("deals")
    return data


@given(states(), st.integers(0, 2**64 - 1))
def test_resample_keeps_what_every_player_sees(state: KniziaState, seed: int) -> None:
    for p in range(state.game.players):
        resampled = state.resample(p, seed)
        assert resampled.observation(p) == state.observation(p)
        assert resampled.observation_tensor(p).tolist() == state.observation_tensor(p).tolist()
        assert cards_of(json.loads(resampled.to_json())) == cards_of(json.loads(state.to_json()))


@given(states(), st.integers(0, 2**64 - 1))
def test_resample_depends_only_on_what_is_public(state: KniziaState, seed: int) -> None:
    """Two states that differ only in hidden facts resample to the same state."""
    data = json.loads(state.to_json())
    rng = random.Random(seed)
    rng.shuffle(data["deck"])
    data["seed"] = rng.getrandbits(64)
    pool = [card for pile in data["piles"] for card in pile["drawn"]] + data["deck"]
    rng.shuffle(pool)
    for pile in data["piles"]:
        count = len(pile["drawn"])
        pile["drawn"], pool = pool[:count], pool[count:]
    data["deck"] = pool
    twin = state.game.state_from_json(json.dumps(data))
    assert hidden_free(json.loads(twin.to_json())) == hidden_free(json.loads(state.to_json()))
    assert twin.resample(0, seed) == state.resample(0, seed)


def test_resample_really_redeals() -> None:
    state = game_of(3).new_state(seed=5)
    decks = {tuple(json.loads(state.resample(0, s).to_json())["deck"]) for s in range(10)}
    assert len(decks) == 10


@given(states())
def test_observation_never_shows_the_deck_or_blind_draws(state: KniziaState) -> None:
    data = json.loads(state.to_json())
    for p in range(state.game.players):
        seen = state.observation(p)
        assert set(seen) == {
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
        assert seen["deck_count"] == len(data["deck"]) and seen["table"] == data["table"]
        assert "deck" not in seen and "seed" not in seen
