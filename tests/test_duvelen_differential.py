"""Differential test: the C++ Duvelen engine against the pure-Python reference model.

On random games (deals and moves from a seeded ``random.Random``; a random seat acts
each step, as in a real-time game) every seat's legal moves and the scores must equal
the model's at every step, and the full observation of one seat is compared every few
steps and at the end. The model (tests/reference/duvelen.py) is a plain second
implementation of docs/games/duvelen.rst.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

import diabolo
from tests.reference.duvelen import DuvelenModel, full_deck

# CI plays 1,000 games (the floor); a local run plays fewer.
GAMES = int(os.environ.get("DIABOLO_DUVELEN_DIFF_GAMES", "1000" if os.environ.get("CI") else "120"))
CHUNKS = 10
MAX_ACTIONS = 2500


def normalised(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def play_and_compare(seed: int) -> int:
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4, 5])
    on_block = rng.choice(["rotate_stok", "end_round"])
    decks = []
    for _ in range(players):
        deck = full_deck()
        rng.shuffle(deck)
        decks.append(deck)
    game = diabolo.load("duvelen", players=players, on_block=on_block, max_actions=MAX_ACTIONS)
    state = game.new_state(seed=seed, decks=decks)
    model = DuvelenModel(players, [decks], on_block=on_block, max_actions=MAX_ACTIONS)
    steps = 0
    while True:
        where = f"seed {seed} step {steps}"
        assert state.is_terminal == model.is_terminal, where
        assert state.scores == model.scores and state.round_scores == model.round_scores(), where
        legal = [model.legal_moves(p) for p in range(players)]
        for p in range(players):
            assert [str(m) for m in state.legal_moves(p)] == legal[p], f"{where} seat {p}"
        if steps % 25 == 0 or state.is_terminal:
            p = steps % players
            assert normalised(state.observation(p)) == normalised(model.observation(p)), f"{where} seat {p}"
        if state.is_terminal:
            return steps
        player = rng.choice([p for p in range(players) if legal[p]])
        move = rng.choice(legal[player])
        state.apply(move, player=player)
        model.apply(move, player)
        steps += 1


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_reference_model(chunk: int) -> None:
    assert sum(play_and_compare(seed) for seed in range(chunk, GAMES, CHUNKS)) > 0
