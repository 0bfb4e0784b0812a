"""Checks shared by the real-time games' tests (Duvelen and Knizia)."""

from __future__ import annotations

from typing import Any

import pytest

import diabolo


def assert_rejected_moves_were_illegal(start: Any, run: Any) -> None:
    """Replays ``run`` (a diabolo.realtime simulation) from ``start``: every accepted
    move applies, and every rejected one raises IllegalMoveError at the moment it
    arrived and changes nothing (D3.10, K3.8)."""
    state = start.clone()
    for step in run.log:
        if step.accepted:
            state.apply(step.move, player=step.player)
        else:
            before = state.to_json()
            with pytest.raises(diabolo.IllegalMoveError):
                state.apply(step.move, player=step.player)
            assert state.to_json() == before
