"""Running the server as ``diabolo serve`` does: the configuration checked before anything
starts (a bad port, a port in use, a store or Redis that does not answer: one clear
line), then uvicorn, which drains on SIGTERM or Ctrl-C: every connection is told to
reconnect (elsewhere, if other processes share the tables), the moves under way are
written, and only then does the process stop.
"""

from __future__ import annotations

import asyncio
import signal
import socket
from types import FrameType
from typing import Any, TextIO

import uvicorn

from diabolo.errors import OptionError
from diabolo.server.app import create_app, listening_socket, uvicorn_config
from diabolo.server.config import ServerConfig
from diabolo.server.store import open_store

__all__ = ["DrainingServer", "check_services", "serve"]


class DrainingServer(uvicorn.Server):
    """uvicorn's server, which on the first SIGTERM or SIGINT drains the lobby (at most
    ``drain_seconds``) before it stops; a second signal stops it at once."""

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

    async def drain(self) -> None:
        """Drains the lobby, then lets uvicorn stop."""
        app: Any = self.config.app
        lobby = getattr(app.state, "lobby", None)
        try:
            if lobby is not None:
                await asyncio.wait_for(lobby.drain(), app.state.config.drain_seconds)
        except asyncio.TimeoutError:
            pass
        finally:
            self.should_exit = True


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
    try:
        asyncio.run(check_services(config))
    except OptionError:
        sock.close()
        raise
    where = f"tables in {config.store}" + (f", sharing them through {config.redis}" if config.redis else "")
    print(f"diabolo server on http://{config.host}:{config.port}/ ({where}); Ctrl-C stops it", file=out, flush=True)
    server = DrainingServer(uvicorn_config(create_app(config.store, config=config)))
    server.run(sockets=[sock])
    return 0
