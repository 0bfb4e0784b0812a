"""Running the server as ``diabolo serve`` does: the configuration checked before anything
starts (a bad port, a port in use, a store or Redis that does not answer: one clear
line), then uvicorn, which drains on SIGTERM or Ctrl-C: every connection is told to
reconnect (elsewhere, if other processes share the tables), the moves under way are
written, and only then does the process stop.
"""

from __future__ import annotations

import asyncio
import faulthandler
import gc
import logging
import os
import signal
import socket
import sys
import threading
from types import FrameType
from typing import Any, TextIO

import uvicorn

from diabolo.errors import OptionError
from diabolo.server.app import create_app, listening_socket, uvicorn_config
from diabolo.server.config import ServerConfig
from diabolo.server.store import open_store

__all__ = ["YOUNG_COLLECTION", "DrainingServer", "check_services", "serve", "tune_collector"]

LOG = logging.getLogger("diabolo.server")

YOUNG_COLLECTION = 20_000
"""Container objects allocated (net) between two of the collector's young collections in
a serving process (Python's default: 700)."""


def tune_collector() -> None:
    """Sets the cyclic garbage collector for a long-running server: what the process made
    while starting (modules, classes, the app) is frozen out of every collection, and a
    young collection runs after YOUNG_COLLECTION allocations. A move allocates a few
    hundred short-lived objects (messages, futures, events); at Python's default of 700 the
    young collections came every few moves and promoted whatever was alive then, so that
    full collections (each a pause of the whole process, every table) ran every few
    seconds: 12% of the server's CPU under benchmarks/server_load.py, 1-2% so. Memory
    stays bounded: what waits for a collection is at most that many objects.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> tune_collector()
    >>> gc.get_threshold()[0] == YOUNG_COLLECTION and gc.get_freeze_count() > 0
    True
    >>> gc.unfreeze(); gc.set_threshold(*before)
    """
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])


class DrainingServer(uvicorn.Server):
    """uvicorn's server, which on the first SIGTERM or SIGINT drains the lobby (at most
    ``drain_seconds``) before it stops; a second signal stops it at once. The whole stop
    is bounded: a process still there ``2 * drain_seconds + 5`` seconds after the signal
    (something it waits for never answers) prints where every task and thread stood and
    exits 1, so that a supervisor never waits on it."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._draining: asyncio.Task[None] | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._draining is not None or self._loop is None or sig not in (signal.SIGTERM, signal.SIGINT):
            super().handle_exit(sig, frame)
            return
        self._loop.call_soon_threadsafe(self._start_draining)

    def _start_draining(self) -> None:
        if self._draining is None:
            self._draining = asyncio.ensure_future(self.drain())
            _exit_unless_stopped_within(2 * self._drain_seconds() + 5, asyncio.get_running_loop())

    def _drain_seconds(self) -> float:
        app: Any = self.config.app
        seconds: float = app.state.config.drain_seconds
        return seconds

    async def drain(self) -> None:
        """Drains the lobby, then lets uvicorn stop."""
        app: Any = self.config.app
        lobby = getattr(app.state, "lobby", None)
        try:
            if lobby is not None:
                await asyncio.wait_for(lobby.drain(), self._drain_seconds())
        except asyncio.TimeoutError:
            LOG.warning("the drain took over %g s: stopping anyway", self._drain_seconds())
        finally:
            self.should_exit = True


def _exit_unless_stopped_within(seconds: float, loop: asyncio.AbstractEventLoop) -> None:
    """A daemon thread that, if the process is still there after ``seconds``, prints the
    stacks of the loop's tasks and of every thread, and exits 1."""

    def overdue() -> None:
        print(f"diabolo serve: not stopped {seconds:g} s after the signal; where it stood:", file=sys.stderr)
        print("".join(_awaiting(task) for task in asyncio.all_tasks(loop)), file=sys.stderr, flush=True)
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        os._exit(1)

    timer = threading.Timer(seconds, overdue)
    timer.daemon = True
    timer.start()


def _awaiting(task: asyncio.Task[Any]) -> str:
    """A task and the chain of awaits it is suspended in, innermost last."""
    lines = [f"{task!r}\n"]
    awaited: Any = task.get_coro()
    while awaited is not None and getattr(awaited, "cr_frame", None) is not None:
        frame = awaited.cr_frame
        lines.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}\n")
        awaited = awaited.cr_await
    return "".join(lines)


async def check_services(config: ServerConfig) -> None:
    """OptionError, in one line, unless the store (and Redis, if configured) answers."""
    try:
        if config.store.startswith(("postgresql:", "postgres:")):
            import psycopg  # one attempt, where the store's pool would retry and log each

            connection = await psycopg.AsyncConnection.connect(config.store, connect_timeout=5)
            await connection.close()
        else:
            store = await open_store(config.store)
            await store.close()
    except OptionError:
        raise
    except Exception as error:
        raise OptionError(f"cannot open the store {config.store}: {_first_line(error)}") from None
    if config.redis:
        import redis.asyncio

        client = redis.asyncio.from_url(config.redis)
        try:
            await client.ping()
        except Exception as error:
            raise OptionError(f"cannot reach Redis at {config.redis}: {_first_line(error)}") from None
        finally:
            await client.aclose()


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def serve(config: ServerConfig, out: TextIO) -> int:
    """Runs the server of ``config`` until SIGTERM or Ctrl-C (draining first)."""
    sock = listening_socket(config.host, config.port)
    monitor = None
    try:
        if config.metrics_port:
            monitor = listening_socket(config.metrics_host, config.metrics_port)
        asyncio.run(check_services(config))
    except OptionError:
        sock.close()
        if monitor is not None:
            monitor.close()
        raise
    where = f"tables in {config.store}" + (f", sharing them through {config.redis}" if config.redis else "")
    print(f"diabolo server on http://{config.host}:{config.port}/ ({where}); Ctrl-C stops it", file=out, flush=True)
    if monitor is not None:
        print(
            f"monitoring (/metrics, /healthz, /readyz) on http://{config.metrics_host}:{config.metrics_port}/", file=out
        )
    server = DrainingServer(uvicorn_config(create_app(config.store, config=config, monitor=monitor)))
    tune_collector()
    server.run(sockets=[sock])
    return 0
