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

import json
import os
from pathlib import Path
from typing import Any

import pytest

import diabolo
from diabolo import realtime
from diabolo.knizia import RandomBot, WordBot

GOLDEN = Path(__file__).parent / "golden"
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


def transcript(options: dict[str, Any], bots: list[Any], seed: int) -> list[str]:
    game = diabolo.load("knizia", **options)
    start = game.new_state(seed=seed)
    run = realtime.simulate(start, bots, seed=seed)
    lines = []
    state = start.clone()
    taken = 0
    for step in run.log:
        entry: dict[str, Any] = {"t": step.time, "p": step.player, "move": str(step.move), "ok": step.accepted}
        if step.accepted:
            state.apply(step.move, player=step.player)
            taken += 1
            if taken % 10 == 0:
                seen = state.observation(taken // 10 % game.players)
                seen["legal"] = len(seen["legal"])  # the count: the lists are long with a full lexicon
                entry["observation"] = seen
        lines.append(json.dumps(entry, separators=(",", ":")))
    assert state == run.state and state.is_terminal
    final = {"final": [state.observation(p) for p in range(game.players)], "table": str(state).splitlines()}
    lines.append(json.dumps(final, separators=(",", ":")))
    return lines


@pytest.mark.parametrize("name", sorted(games()))
def test_simulated_transcript_matches_golden(name: str) -> None:
    options, bots, seed = games()[name]
    lines = transcript(options, bots, seed)
    path = GOLDEN / name
    if os.environ.get("DIABOLO_UPDATE_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    golden = path.read_text().splitlines()
    assert len(lines) == len(golden), f"{name}: {len(lines)} lines, golden has {len(golden)}"
    for index, (line, expected) in enumerate(zip(lines, golden)):
        assert json.loads(line) == json.loads(expected), f"{name}: first difference at line {index + 1}"
