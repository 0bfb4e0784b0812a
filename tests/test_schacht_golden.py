"""Golden transcripts: three seeded Schacht games, every move and every observation.

Any change in observable behaviour shows up here as a diff. When a change is
intended, regenerate with ``DIABOLO_UPDATE_GOLDEN=1 python -m pytest tests/test_schacht_golden.py``
and review the diff of tests/golden/ like code.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import diabolo
from diabolo.schacht import SchachtGame
from tests.golden_helpers import check_golden

GAMES = {
    "schacht_3p_seed11.jsonl": ({"players": 3}, 11),
    "schacht_4p_seed22.jsonl": ({"players": 4, "rounds": 2}, 22),
    "schacht_5p_seed33.jsonl": ({"players": 5, "rounds": 1}, 33),
}


def transcript(options: dict[str, Any], seed: int) -> list[str]:
    """One JSON line per position: the move that led to it and every seat's observation."""
    game = SchachtGame(**options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    lines = []
    move_text = None
    while True:
        observations = [state.observation(p) for p in range(game.players)]
        lines.append(json.dumps({"move": move_text, "observations": observations}, separators=(",", ":")))
        if state.is_terminal:
            break
        player = state.current_player
        if player == diabolo.SIMULTANEOUS:
            player = rng.choice([p for p in range(game.players) if state.legal_moves(p)])
        move = rng.choice(state.legal_moves(player))
        state.apply(move, player=player)
        move_text = f"{player}:{move}"
    lines.append(json.dumps({"final": str(state).splitlines()}))
    return lines


@pytest.mark.parametrize("name", sorted(GAMES))
def test_transcript_matches_golden(name: str) -> None:
    options, seed = GAMES[name]
    check_golden(name, transcript(options, seed))
