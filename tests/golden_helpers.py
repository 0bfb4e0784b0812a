"""Golden transcripts, shared by every game: a transcript is a list of JSON lines that
must equal the file in tests/golden/ line by line. ``DIABOLO_UPDATE_GOLDEN=1`` writes
the files anew instead (review their diff like code)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diabolo import realtime

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, lines: list[str]) -> None:
    """`lines` equal the golden file `name` (or are written to it when updating)."""
    path = GOLDEN / name
    if os.environ.get("DIABOLO_UPDATE_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    golden = path.read_text().splitlines()
    assert len(lines) == len(golden), f"{name}: {len(lines)} lines, golden has {len(golden)}"
    for index, (line, expected) in enumerate(zip(lines, golden)):
        assert json.loads(line) == json.loads(expected), f"{name}: first difference at line {index + 1}"


def simulated_transcript(
    start: Any, bots: list[Any], seed: int, every: int, observe: Callable[[Any, int], dict[str, Any]]
) -> list[str]:
    """A seeded real-time simulation from `start`: every arrival (time, seat, move,
    taken or not), `observe(state, seat)` every `every` accepted moves, and every
    seat's observation and the table at the end. Replaying the log must give the
    simulation's final state."""
    run = realtime.simulate(start, bots, seed=seed)
    players = len(bots)
    lines = []
    state = start.clone()
    taken = 0
    for step in run.log:
        entry: dict[str, Any] = {"t": step.time, "p": step.player, "move": str(step.move), "ok": step.accepted}
        if step.accepted:
            state.apply(step.move, player=step.player)
            taken += 1
            if taken % every == 0:
                entry["observation"] = observe(state, taken // every % players)
        lines.append(json.dumps(entry, separators=(",", ":")))
    assert state == run.state and state.is_terminal
    final = {"final": [state.observation(p) for p in range(players)], "table": str(state).splitlines()}
    lines.append(json.dumps(final, separators=(",", ":")))
    return lines
