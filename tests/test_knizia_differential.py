"""Differential test: the C++ Diabolo (Knizia) engine against the pure-Python reference
model (tests/reference/knizia.py), a plain second implementation of docs/games/knizia.rst.

On random games (decks, options and moves from a seeded ``random.Random``) every seat's
legal moves, the phase and the scores must equal the model's at every step, and the
full observation of one seat is compared every few steps. Besides legal moves, the
random players make calls that are not valid claims (words of the lexicon that the
table cannot form, words that are not in it, claims naming wrong cards), so the
penalties of K3.5 and the reasons of K10.8 are compared too; with
``stale_calls='reject'`` both sides must refuse them.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

import diabolo
from diabolo import Lexicon
from diabolo.knizia import Deck
from tests.reference.knizia import KniziaModel, split_double_letters
from tests.reference.knizia_words import best

# CI plays 1,000 games; a local run plays fewer.
GAMES = int(os.environ.get("DIABOLO_KNIZIA_DIFF_GAMES", "1000" if os.environ.get("CI") else "120"))
CHUNKS = 10

# Short words over few letters, so that random tables form many of them; plus
# words with double letters (EI, ST, CH) of the test deck.
WORDS = sorted(
    {
        "TOR",
        "ROT",
        "ORT",
        "TORE",
        "ROTE",
        "ORTE",
        "REST",
        "RAST",
        "RATE",
        "TEER",
        "STERN",
        "STAR",
        "RASTE",
        "ARTE",
        "OSTEN",
        "NEST",
        "NETT",
        "TANTE",
        "ERNST",
        "STEIN",
        "REIN",
        "SEIN",
        "EIER",
        "NEIN",
        "TEIN",
        "ACH",
        "NACH",
        "ACHT",
        "RACHE",
        "STOP",
        "POST",
        "TOPS",
        "SPOT",
        "OPER",
        "PORT",
        "SORTE",
        "ROSE",
        "NASE",
        "RASEN",
        "ASTER",
        "TASTE",
        "SENAT",
        "ANTEN",
        "OTTER",
        "ANSTOSS",
        # letters of a double-letter card apart or reversed (K3.3 d): no I, H or single S here
        "SIE",
        "NIE",
        "TIER",
        "TIERE",
        "SATT",
        "STATT",
        "CHOR",
        "OCHSE",
        "ECHT",
        "TOSEN",
    }
)
CARDS = ["A", "E", "N", "O", "P", "R", "S", "T", "CH", "EI", "ST", "?", "??"]


def normalised(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def random_deck(rng: random.Random) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in rng.sample(CARDS, rng.randint(5, len(CARDS))):
        counts[card] = rng.randint(1, 1 if card in ("?", "??") else 3)
    return counts


def odd_call(rng: random.Random, model: KniziaModel) -> str:
    """A call that is usually not a valid claim (K3.5, K10.8)."""
    choice = rng.random()
    word = rng.choice(WORDS)
    if choice < 0.2:  # a word the table forms only with a double letter split (K3.3 d)
        split = split_double_letters(model.table)
        torn = [w for w in WORDS if best(w, model.table) is None and best(w, split) is not None]
        return rng.choice(torn) if torn else word
    if choice < 0.35:
        return word  # a word of the lexicon, perhaps not on the table
    if choice < 0.5:
        return rng.choice(["XYZ", "TORT", "ST", "NE", "ESTRO"])  # not in the lexicon / too short
    count = rng.randint(1, max(1, len(model.table)))
    positions = rng.sample(range(len(model.table) + 2), min(count, len(word), len(model.table) + 2))
    return word + "@" + ",".join(map(str, positions))


def play_and_compare(seed: int) -> int:
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    options: dict[str, Any] = {
        "min_cards": rng.choice([3, 3, 4]),
        "variant": rng.choice(["standard", "victory_tiles"]),
        "stale_calls": rng.choice(["penalty", "penalty", "reject"]),
    }
    if options["variant"] == "victory_tiles":
        options["handicap"] = rng.choice([0, 2, 10])
    deck = Deck(random_deck(rng), "xx")
    cards = [card for card, count in deck.cards.items() for _ in range(count)]
    deals = []
    for _ in range(2 * players + 2):
        rng.shuffle(cards)
        deals.append(list(cards))
    game = diabolo.load("knizia", players=players, lexicon=Lexicon.from_words(WORDS), deck=deck, **options)
    state = game.new_state(seed=seed, decks=deals)
    model = KniziaModel(players, deals, WORDS, **options)
    steps = 0
    while True:
        where = f"seed {seed} step {steps}"
        assert state.is_terminal == model.is_terminal and state.phase == model.phase, where
        assert state.scores == model.scores and state.round == model.round, where
        legal = [model.legal_moves(p) for p in range(players)]
        for p in range(players):
            assert [str(m) for m in state.legal_moves(p)] == legal[p], f"{where} seat {p}"
        if steps % 7 == 0 or state.is_terminal:
            p = steps % players
            assert normalised(state.observation(p)) == normalised(model.observation(p)), f"{where} seat {p}"
        if state.is_terminal:
            return steps
        player = rng.choice([p for p in range(players) if legal[p]] or [0])
        move = rng.choice(legal[player]) if legal[player] and rng.random() < 0.8 else odd_call(rng, model)
        try:
            model.apply(move, player)
        except ValueError:
            before = state.to_json()
            with pytest.raises(diabolo.IllegalMoveError):
                state.apply(move, player=player)
            assert state.to_json() == before, where
        else:
            state.apply(move, player=player)
        steps += 1


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_reference_model(chunk: int) -> None:
    assert sum(play_and_compare(seed) for seed in range(chunk, GAMES, CHUNKS)) > 0
