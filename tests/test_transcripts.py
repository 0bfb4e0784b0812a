"""The golden transcripts (tests/transcripts.py) from Python: each seeded game, played
again through the Python API, gives the same bots' answers, legal actions, moves,
events, views and scores as the file, line by line. C (tests/test_cpp_core.py) and
JavaScript (tests/test_wasm.py) check the same files. ``DIABOLO_UPDATE_GOLDEN=1``
writes them anew (review their diff like code)."""

from __future__ import annotations

import json
import os

import pytest

from tests.transcripts import FORMAT, SPECS, TRANSCRIPTS, Spec, transcript


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_python_plays_the_golden_transcript(spec: Spec) -> None:
    lines = transcript(spec)
    path = TRANSCRIPTS / f"{spec.name}.txt"
    if os.environ.get("DIABOLO_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    golden = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(golden), f"{path.name}: {len(lines)} lines, golden has {len(golden)}"
    for number, (line, expected) in enumerate(zip(lines, golden), start=1):
        assert line == expected, f"{path.name}: first difference at line {number}"


def test_every_transcript_is_a_whole_game_of_its_bots() -> None:
    """Each file is a finished game (or its move limit) with views, events and the bots'
    answers: the shared files check what they are meant to."""
    assert {path.stem for path in TRANSCRIPTS.glob("*.txt")} == {spec.name for spec in SPECS}
    for spec in SPECS:
        lines = (TRANSCRIPTS / f"{spec.name}.txt").read_text(encoding="utf-8").splitlines()
        assert lines[0] == FORMAT and lines[-1] == "end"
        tags = [line.split(" ", 1)[0] for line in lines]
        assert {"bot", "legal", "move", "events", "view", "scores"} <= set(tags), spec.name
        assert any(line.startswith("bot ") and not line.endswith(" -") for line in lines)
        final = [json.loads(line.split(" ", 2)[2]) for line in lines if line.startswith("view ")][-1]
        assert final["phase"] in {"game_over", "after_game"} or tags.count("move") == spec.max_moves, spec.name
