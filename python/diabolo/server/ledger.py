"""A table's writes to the store, for the process that holds it: every write fenced, a
process that may have lost its lease stopped before it writes, a store that does not
answer waited out (docs/server.rst, "Fencing" and "Outages")."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from diabolo.server.protocol import Rejection
from diabolo.server.store import Fenced, Store

__all__ = ["STORE_WAIT_SECONDS", "Ledger"]

LOG = logging.getLogger("diabolo.server")

STORE_WAIT_SECONDS = 15.0
"""How long a write waits for a store that does not answer (retrying) before the request
that needs it is refused as ``unavailable`` (the client tries again)."""


class Ledger:
    """A table's writes to the store, for the process that holds it. Each names the
    table's fence (the store refuses it, :class:`~diabolo.server.store.Fenced`, once
    another process took the table). None is sent while ``fresh()`` says the holder's
    lease may have run out (a process paused past its lease stops before another can
    take the table): the request is refused as ``unavailable`` until a renewal comes
    through, or the lobby finds the table taken and lets it go. A store that does not
    answer is waited out, the write sent again with backoff, for up to ``wait`` seconds,
    then the request is refused as ``unavailable`` and changes nothing here. After
    ``stop()`` (the table closed) a write that waits gives up at once.

    >>> import asyncio
    >>> from diabolo.server.store import TableRow, open_store
    >>> async def demo():
    ...     store = await open_store("sqlite:///:memory:")
    ...     await store.create_table(TableRow("t1", "schacht", {}, [], {}, "{}", "now"))
    ...     ledger = Ledger(store, "t1", fence=1)
    ...     await ledger.add_move(0, 1, "R1<", 0.5)
    ...     ledger.fresh = lambda: False  # this process could not renew its lease in time
    ...     try:
    ...         await ledger.add_move(1, 2, "R2<", 0.9)
    ...     except Rejection as error:
    ...         print(error.reason)
    ...     await store.claim("t1")  # another process takes the table
    ...     ledger.fresh = lambda: True
    ...     try:
    ...         await ledger.add_move(1, 2, "R2<", 0.9)
    ...     except Fenced as error:
    ...         print(error)
    ...     await store.close()
    >>> asyncio.run(demo())
    unavailable
    table t1 is held by another process now
    """

    def __init__(self, store: Store, table_id: str, fence: int, wait: float = STORE_WAIT_SECONDS) -> None:
        self.table_id = table_id
        self.fence = fence
        self.fresh: Callable[[], bool] = lambda: True
        """Whether this process surely still holds the table's lease (set by the lobby)."""
        self._store = store
        self._wait = wait
        self._stopped = False

    def stop(self) -> None:
        self._stopped = True

    async def add_move(self, number: int, seat: int, move: str, time: float) -> None:
        await self._write(lambda: self._store.add_move(self.table_id, self.fence, number, seat, move, time))

    async def update_seats(self, seats: list[dict[str, Any]]) -> None:
        await self._write(lambda: self._store.update_seats(self.table_id, self.fence, seats))

    async def finish(self, record: str) -> None:
        await self._write(lambda: self._store.finish(self.table_id, self.fence, record))

    async def delete(self) -> None:
        await self._write(lambda: self._store.delete_table(self.table_id, self.fence))

    async def _write(self, attempt: Callable[[], Any]) -> None:
        deadline, pause = time.monotonic() + self._wait, 0.05
        while True:
            if not self.fresh():
                raise Rejection("unavailable", "this process cannot renew its hold on the table now: try again")
            try:
                await attempt()
                return
            except Fenced:
                raise
            except Exception as error:  # the store does not answer: wait for it (a write is idempotent)
                if self._stopped or time.monotonic() + pause > deadline:
                    LOG.warning("table %s: the store does not answer (%s)", self.table_id, error)
                    raise Rejection("unavailable", "the server's store does not answer: try again") from None
                await asyncio.sleep(pause)
                pause = min(1.0, pause * 2)
