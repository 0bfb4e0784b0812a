"""The expensive processes the tests share, each started once per run: Chromium (through
Playwright), a Ray cluster on loopback, a PostgreSQL cluster and a Redis server.

Each is started by the first test that asks for its fixture (conftest.py) and stopped
after the last one: conftest.py runs the tests that use one of them one after another, and
stops it as soon as the next test does not use it (and at the end of the run, whatever
happened), so that nothing is left running and no idle cluster slows the tests that follow.
A test gets a clean share: a fresh browser context, a fresh PostgreSQL database, an empty
Redis database.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from typing import Any, Generic, TypeVar

__all__ = ["Shared", "SHARED"]

T = TypeVar("T")


class Shared(Generic[T]):
    """One process (or cluster) behind a context manager, entered on first use and left by
    :meth:`stop`; :meth:`get` after a stop starts it again. ``fixture`` names the fixture
    that gives it (its key in SHARED)."""

    def __init__(self, fixture: str, start: Callable[[], AbstractContextManager[T]]) -> None:
        self._start = start
        self._running: tuple[ExitStack, T] | None = None  # how to stop it, and what it gave
        SHARED[fixture] = self

    def get(self) -> T:
        if self._running is None:
            with ExitStack() as stack:
                value = stack.enter_context(self._start())
                self._running = stack.pop_all(), value
        return self._running[1]

    @property
    def running(self) -> bool:
        return self._running is not None

    def stop(self) -> None:
        running, self._running = self._running, None
        if running is not None:
            running[0].close()


SHARED: dict[str, Shared[Any]] = {}
"""Every shared process by the name of the fixture that gives it."""


def stop_all() -> None:
    """Stops every shared process that runs (the end of the run)."""
    for shared in SHARED.values():
        with contextlib.suppress(Exception):
            shared.stop()
