"""The games that cpp/tests/capi/test_capi.c plays through the C API, played again through
the Python API: both languages must reach the same final state (tests/test_cpp_core.py)."""

from __future__ import annotations

from typing import Any

import diabolo
from diabolo import Lexicon

KNIZIA_WORDS = ["Tor", "Rot", "Ort", "Tore", "Rest", "Rast", "Rate", "Stern", "Nest", "Ernst", "Nase", "Rasen"]
KNIZIA_WORDS += ["Aster", "Taste", "Osten", "Tee", "See"]
KNIZIA_DECK = {"A": 3, "E": 4, "N": 2, "O": 2, "R": 3, "S": 3, "T": 4, "ST": 1, "?": 1, "??": 1}
MASK = (1 << 64) - 1


def game_of(name: str) -> Any:
    """The game the C program plays under `name`, with the same options."""
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
