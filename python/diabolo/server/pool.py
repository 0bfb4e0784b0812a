"""The engine's work off the event loop: bots' decisions, Knizia's word finding, records.

One :class:`EnginePool` serves every table of a server: a fixed number of worker threads
(the C++ bots and the word finder release the GIL, so they run on every core), with a
queue per table served in turn, so that a table with many slow bots waits for its own
work and never holds up another's. A table has at most ``per_owner`` jobs running at once.

>>> import asyncio
>>> async def demo():
...     pool = EnginePool(workers=2)
...     try:
...         return await pool.run("table 1", sum, [1, 2, 3])
...     finally:
...         pool.close()
>>> asyncio.run(demo())
6
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["EnginePool"]

T = TypeVar("T")

_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class EnginePool:
    """Worker threads shared fairly by owners (tables): each owner's jobs run in the order
    they came, owners take turns, and an owner runs at most ``per_owner`` jobs at once
    (default: half the workers)."""

    def __init__(self, workers: int, per_owner: int | None = None) -> None:
        self.workers = workers
        self.per_owner = per_owner or max(1, workers // 2)
        self._executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="diabolo-engine")
        self._queues: collections.OrderedDict[str, collections.deque[_Job]] = collections.OrderedDict()
        self._running: collections.Counter[str] = collections.Counter()
        self._busy = 0

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(queue) for queue in self._queues.values())

    @property
    def busy(self) -> int:
        """Jobs running now."""
        return self._busy

    async def run(self, owner: str, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on a worker thread, in ``owner``'s turn; its result or exception."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(owner, collections.deque()).append((work, args, future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        """Starts jobs while workers are free: the first owner in line that may run one
        more goes, then moves to the back of the line."""
        while self._busy < self.workers:
            owner = next((o for o in self._queues if self._running[o] < self.per_owner), None)
            if owner is None:
                return
            queue = self._queues.pop(owner)
            work, args, future = queue.popleft()
            if queue:
                self._queues[owner] = queue  # back of the line
            if future.cancelled():
                continue
            self._start(owner, work, args, future)

    def _start(self, owner: str, work: Callable[..., Any], args: tuple[Any, ...], future: asyncio.Future[Any]) -> None:
        loop = asyncio.get_running_loop()
        self._busy += 1
        self._running[owner] += 1
        done = self._executor.submit(work, *args)

        def finished(result: concurrent.futures.Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(self._finish, owner, result, future)

        done.add_done_callback(finished)

    def _finish(self, owner: str, result: concurrent.futures.Future[Any], future: asyncio.Future[Any]) -> None:
        self._busy -= 1
        self._running[owner] -= 1
        if self._running[owner] == 0:
            del self._running[owner]
        if not future.cancelled():
            error = result.exception()
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result.result())
        self._dispatch()

    def forget(self, owner: str) -> None:
        """Drops ``owner``'s waiting jobs (its table closed); running ones finish unheard."""
        for _, _, future in self._queues.pop(owner, ()):
            future.cancel()

    def close(self) -> None:
        """Stops the workers once their jobs finish; waiting jobs are cancelled."""
        for owner in list(self._queues):
            self.forget(owner)
        self._executor.shutdown(wait=False, cancel_futures=True)
