"""Golden transcripts: three seeded simulated games of Diabolo (Knizia).

Bots of different strength (vocabulary, word length, reaction time) play with the
packaged or installed word lists. Each file holds every arrival (time, seat, move,
taken or not), an observation every 10 accepted moves, and every seat's observation
and the table at the end. Any change in observable behaviour shows here as a diff.
When a change is intended, regenerate with
``DIABOLO_UPDATE_GOLDEN=1 python -m pytest tests/test_knizia_golden.py`` and review the
diff of tests/golden/ like code.
"""

from __future__ import annotations

from typing import Any

import pytest

import diabolo
from diabolo import realtime
from diabolo.knizia import RandomBot, WordBot
from tests.golden_helpers import check_golden, simulated_transcript

SLOW = realtime.Reaction({"claim": (2.0, 0.5)}, minimum=0.3)


def games() -> dict[str, tuple[dict[str, Any], list[Any], int]]:
    return {
        "knizia_2p_de_seed7.jsonl": (
            {"players": 2, "rounds": 1},
            [WordBot(), WordBot(max_length=5, coverage=0.3, reaction=SLOW, per_letter=0.5)],
            7,
        ),
        "knizia_4p_de_reject_seed8.jsonl": (
            {"players": 4, "rounds": 1, "stale_calls": "reject"},
            [WordBot(coverage=0.1, memory=p) for p in range(3)] + [RandomBot()],
            8,
        ),
        "knizia_3p_en_tiles_seed9.jsonl": (
            {"players": 3, "lexicon": "en", "variant": "victory_tiles", "min_cards": 4},
            [WordBot(coverage=0.05, memory=1), WordBot(coverage=0.02, memory=2), WordBot(max_length=6, coverage=0.05)],
            9,
        ),
    }


def observe(state: Any, seat: int) -> dict[str, Any]:
    seen: dict[str, Any] = state.observation(seat)
    seen["legal"] = len(seen["legal"])  # the count: the lists are long with a full lexicon
    return seen


@pytest.mark.parametrize("name", sorted(games()))
def test_simulated_transcript_matches_golden(name: str) -> None:
    options, bots, seed = games()[name]
    start = diabolo.load("knizia", **options).new_state(seed=seed)
    check_golden(name, simulated_transcript(start, bots, seed, 10, observe))
