"""Checks shared by every game's bad-input tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def assert_unchanged_after(
    state: Any,
    error: type[BaseException] | tuple[type[BaseException], ...],
    call: Callable[[], object],
    match: str | None = None,
) -> None:
    """``call`` raises ``error`` (with a message matching ``match``, if given) and leaves
    ``state`` as it was (docs/interface.rst: bad input changes nothing)."""
    before = state.to_json()
    with pytest.raises(error, match=match):
        call()
    assert state.to_json() == before
