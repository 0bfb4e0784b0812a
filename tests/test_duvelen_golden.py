"""Golden transcripts: three seeded simulated Duvelen games.

Each file holds every arrival (time, seat, move, taken or not), an observation every
25 accepted moves, and every seat's observation and the table at the end. Any change
in observable behaviour shows here as a diff. When a change is intended, regenerate
with ``DIABOLO_UPDATE_GOLDEN=1 python -m pytest tests/test_duvelen_golden.py`` and
review the diff of tests/golden/ like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import diabolo
from diabolo import realtime
from diabolo.duvelen import GreedyBot, RandomBot

GOLDEN = Path(__file__).parent / "golden"
QUICK = realtime.Reaction({"play": (0.5, 0.1), "turn": (0.4, 0.1)}, minimum=0.1)


def games() -> dict[str, tuple[dict[str, Any], list[Any], int]]:
    return {
        "duvelen_2p_seed21.jsonl": ({"players": 2}, [GreedyBot(), RandomBot()], 21),
        "duvelen_4p_seed42.jsonl": ({"players": 4, "rounds": 2}, [GreedyBot()] * 4, 42),
        "duvelen_5p_seed63.jsonl": ({"players": 5}, [GreedyBot(reaction=QUICK), GreedyBot(), RandomBot(), GreedyBot(), GreedyBot()], 63),
    }


def transcript(options: dict[str, Any], bots: list[Any], seed: int) -> list[str]:
    game = diabolo.load("duvelen", **options)
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
            if taken % 25 == 0:
                entry["observation"] = state.observation(taken // 25 % game.players)
        lines.append(json.dumps(entry, separators=(",", ":")))
    assert state == run.state
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
