"""The engine's work off the event loop: bots' decisions, Knizia's word finding, records.

One :class:`EnginePool` serves every table of a server: a fixed number of worker threads
(the C++ bots and the word finder release the GIL, so they run on every core), with a
queue per table. Engine time is shared by cost, not by job: when a worker is free, the
table that has used the least worker time goes next (a table that just came, or came
back after waiting, starts level with the least busy one, a little ahead of it). So a
table whose bots think for a second a move and a table whose bots answer in a millisecond
each get their share of the workers: once every table has had a job, the light table's
decision waits for at most about one heavy job, whatever the number of heavy tables (a
table that has not had one yet used less, so it goes first). A table has at most
``per_owner`` jobs running at once.

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
import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["EnginePool"]

T = TypeVar("T")

_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


CREDIT = 0.05
"""Seconds of worker time an owner that comes (back) is put ahead of the least busy one."""
KEPT = 1000
"""Owners whose use is remembered before those that it no longer sets apart are forgotten."""


class EnginePool:
    """Worker threads shared fairly by owners (tables): each owner's jobs run in the order
    they came, the owner that used the least worker time goes next, and an owner runs at
    most ``per_owner`` jobs at once (default: half the workers)."""

    def __init__(self, workers: int, per_owner: int | None = None) -> None:
        self.workers = workers
        self.per_owner = per_owner or max(1, workers // 2)
        self._executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="diabolo-engine")
        self._queues: collections.OrderedDict[str, collections.deque[_Job]] = collections.OrderedDict()
        self._running: collections.Counter[str] = collections.Counter()
        self._used: dict[str, float] = {}  # worker seconds each owner used, on a scale shared by the owners
        self._level = 0.0  # the least use of the owners with jobs, as last seen (it only grows)
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
        if owner not in self._queues and not self._running[owner]:  # it comes (back): level with the least busy
            active = [self._used[o] for o in (*self._queues, *self._running) if o in self._used]
            self._level = max(self._level, min(active, default=self._level))  # never back: no credit on credit
            floor = self._level - CREDIT
            self._used[owner] = max(self._used.get(owner, floor), floor)
            if len(self._used) > KEPT:  # an owner at or below the floor would come back to it anyway
                self._used = {o: used for o, used in self._used.items() if used > floor or o == owner}
        self._queues.setdefault(owner, collections.deque()).append((work, args, future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        """Starts jobs while workers are free: of the owners that may run one more, the
        one that used the least worker time goes."""
        while self._busy < self.workers:
            ready = [o for o in self._queues if self._running[o] < self.per_owner]
            if not ready:
                return
            owner = min(ready, key=self._used.__getitem__)
            queue = self._queues[owner]
            work, args, future = queue.popleft()
            if not queue:
                del self._queues[owner]
            if future.cancelled():
                continue
            self._start(owner, work, args, future)

    def _start(self, owner: str, work: Callable[..., Any], args: tuple[Any, ...], future: asyncio.Future[Any]) -> None:
        loop = asyncio.get_running_loop()
        self._busy += 1
        self._running[owner] += 1
        started = time.perf_counter()
        done = self._executor.submit(work, *args)

        def finished(result: concurrent.futures.Future[Any]) -> None:
            took = time.perf_counter() - started
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(self._finish, owner, took, result, future)

        done.add_done_callback(finished)

    def _finish(
        self, owner: str, took: float, result: concurrent.futures.Future[Any], future: asyncio.Future[Any]
    ) -> None:
        self._busy -= 1
        self._running[owner] -= 1
        if self._running[owner] == 0:
            del self._running[owner]
        if owner in self._used:
            self._used[owner] += took
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
        self._used.pop(owner, None)

    def close(self) -> None:
        """Stops the workers once their jobs finish; waiting jobs are cancelled."""
        for owner in list(self._queues):
            self.forget(owner)
        self._executor.shutdown(wait=False, cancel_futures=True)
