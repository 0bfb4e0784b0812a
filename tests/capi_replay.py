"""The games that cpp/tests/capi/test_capi.c plays through the C API, played again through
the Python API: both languages must reach the same final state (tests/test_cpp_core.py
runs it built under the sanitizers, tests/test_installed.py built against the installed
package's library and header)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import diabolo
from diabolo import Lexicon
from tests import background
from tests.transcripts import SPECS, TRANSCRIPTS

KNIZIA_WORDS = ["Tor", "Rot", "Ort", "Tore", "Rest", "Rast", "Rate", "Stern", "Nest", "Ernst", "Nase", "Rasen"]
KNIZIA_WORDS += ["Aster", "Taste", "Osten", "Tee", "See"]
KNIZIA_DECK = {"A": 3, "E": 4, "N": 2, "O": 2, "R": 3, "S": 3, "T": 4, "ST": 1, "?": 1, "??": 1}
MASK = (1 << 64) - 1


def game_of(name: str) -> Any:
    """The game the C program plays under `name`, with the same options: a game of the
    catalogue with its defaults as "<game>/default"."""
    if name.endswith("/default"):
        return diabolo.load(name.removesuffix("/default"))
    if name == "schacht":
        return diabolo.load("schacht", players=3)
    if name == "duvelen":
        return diabolo.load("duvelen", players=2, max_actions=300)
    return diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(KNIZIA_WORDS), deck=KNIZIA_DECK)


def replay(name: str, seed: int, limit: int) -> tuple[int, Any]:
    """Plays as the C program does: the lowest pending seat, the legal action the shared
    generator picks. Returns the number of moves and the final state."""
    state = game_of(name).new_state(seed=seed)
    x = seed
    moves = 0
    while not state.is_terminal and moves < limit:
        seat = min(state.pending_seats)
        legal = state.legal_actions(seat)
        x = (x * 6364136223846793005 + 1442695040888963407) & MASK
        state.apply(legal[(x >> 33) % len(legal)], player=seat)
        moves += 1
    return moves, state


def run_capi_test(program: Path, folder: Path, runner: Sequence[str] = ()) -> background.Run:
    """Runs the C test `program` (cpp/tests/capi/test_capi.c, built), behind `runner` if
    given (wine, qemu-user), on every golden transcript (tests/transcripts.py) and a lexicon
    file it writes to `folder` (niced in a background job, tests/background.py)."""
    lexicon = folder / "words.lexicon"
    lexicon.write_bytes(Lexicon.from_words(KNIZIA_WORDS).to_bytes())
    return background.run([*runner, str(program), f"lexicon={lexicon}", *_transcripts()], timeout=600)


def c_api_functions() -> set[str]:
    """The functions cpp/include/diabolo/diabolo.h declares."""
    header = (Path(__file__).resolve().parent.parent / "cpp" / "include" / "diabolo" / "diabolo.h").read_text()
    return set(re.findall(r"^DIABOLO_API [^(]*?\b(diabolo_\w+)\(", header, re.MULTILINE))


def _transcripts() -> list[str]:
    transcripts = sorted(str(path) for path in TRANSCRIPTS.glob("*.txt"))
    assert len(transcripts) == len(SPECS)
    return transcripts


def check_capi_run(capi: background.Run) -> None:
    """Checks what the C test printed: it checked every golden transcript, and its seeded
    games, replayed through the Python API, end in the same state text."""
    transcripts = _transcripts()
    assert capi.returncode == 0 and capi.stdout.endswith("ok\n"), capi.stdout[-2000:] + capi.stderr
    checked = dict(line.split(" ") for line in capi.stdout.splitlines() if line.startswith(tuple(transcripts)))
    for path in transcripts:
        assert int(checked[path]) == len(Path(path).read_text().splitlines()) - 5, path
    games = [line.split(" ", 3) for line in capi.stdout.splitlines()[:-1] if not line.startswith(tuple(transcripts))]
    plain = [f"{entry.name}/default" for entry in diabolo.catalogue() if entry.lexicon is None]
    assert sorted({name for name, _, _, _ in games}) == sorted(["duvelen", "knizia", "schacht", *plain])
    for name, seed, moves, text in games:
        played, state = replay(name, int(seed), 400 if name == "knizia" else 2000)
        assert (played, state.to_json()) == (int(moves), text), (name, seed)


def check_capi_test(program: Path, folder: Path, runner: Sequence[str] = ()) -> None:
    """Runs the C test `program` (see :func:`run_capi_test`) and checks what it printed
    (:func:`check_capi_run`)."""
    check_capi_run(run_capi_test(program, folder, runner))
