"""Golden transcripts: three seeded simulated Duvelen games.

Each file holds every arrival (time, seat, move, taken or not), an observation every
25 accepted moves, and every seat's observation and the table at the end. Any change
in observable behaviour shows here as a diff. When a change is intended, regenerate
with ``DIABOLO_UPDATE_GOLDEN=1 python -m pytest tests/test_duvelen_golden.py`` and
review the diff of tests/golden/ like code.
"""

from __future__ import annotations

from typing import Any

import pytest

import diabolo
from diabolo import realtime
from diabolo.duvelen import GreedyBot, RandomBot
from tests.golden_helpers import check_golden, simulated_transcript

QUICK = realtime.Reaction({"play": (0.5, 0.1), "turn": (0.4, 0.1)}, minimum=0.1)


def games() -> dict[str, tuple[dict[str, Any], list[Any], int]]:
    return {
        "duvelen_2p_seed21.jsonl": ({"players": 2}, [GreedyBot(), RandomBot()], 21),
        "duvelen_4p_seed42.jsonl": ({"players": 4, "rounds": 2}, [GreedyBot()] * 4, 42),
        "duvelen_5p_seed63.jsonl": (
            {"players": 5},
            [GreedyBot(reaction=QUICK), GreedyBot(), RandomBot(), GreedyBot(), GreedyBot()],
            63,
        ),
    }


@pytest.mark.parametrize("name", sorted(games()))
def test_simulated_transcript_matches_golden(name: str) -> None:
    options, bots, seed = games()[name]
    start = diabolo.load("duvelen", **options).new_state(seed=seed)
    check_golden(name, simulated_transcript(start, bots, seed, 25, lambda state, seat: state.observation(seat)))
