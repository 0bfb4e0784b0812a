"""Limits below the application, on uvicorn's HTTP protocol: a connection has
``header_seconds`` to send each request's headers (uvicorn waits for them forever, so a
thousand half-open requests would hold a thousand file descriptors), one peer address
holds at most ``per_peer`` connections (0: no limit, as behind a proxy, whose address
every client would share), and a websocket whose peer reads nothing for ``stall_seconds``
while the server has more to send it than the socket takes is cut (aborted). Closing a
socket waits until what it holds is sent, so without the cut a peer that stops reading
kept its socket, its buffers and its place in ``connections`` for good, even after the
server had closed it (idle, or too far behind) and the table had forgotten it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["guarded_http"]


def guarded_http(header_seconds: float, per_peer: int, stall_seconds: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the limits above, as a class for ``uvicorn.Config(http=...)``."""
    open_by_peer: dict[str, int] = {}

    class GuardedH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _peer: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else ""
            if per_peer and open_by_peer.get(peer, 0) >= per_peer:
                transport.abort()  # refused before a byte was read: the peer holds enough
                return
            self._peer = peer
            open_by_peer[peer] = open_by_peer.get(peer, 0) + 1
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._timer = self.loop.call_later(header_seconds, self._headers_overdue)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _headers_overdue(self) -> None:
            """Closes a connection whose next request has not got its headers through in time
            (one whose request is being answered stays)."""
            self._timer = None
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)
            websocket: Any = self.transport.get_protocol()
            lost, pause, resume = websocket.connection_lost, websocket.pause_writing, websocket.resume_writing
            stall: list[asyncio.TimerHandle] = []  # armed while the socket waits for its peer to read
            transport = self.transport

            def cut_later() -> None:
                if not stall:
                    stall.append(self.loop.call_later(stall_seconds, transport.abort))

            def uncut() -> None:
                while stall:
                    stall.pop().cancel()

            def pause_writing() -> None:
                pause()
                cut_later()

            def closing() -> None:
                transport.close()
                if transport.get_write_buffer_size():  # the close waits for the peer to read it all
                    cut_later()

            def resume_writing() -> None:
                uncut()
                resume()

            def connection_lost(exc: Exception | None) -> None:
                uncut()
                self._release()
                lost(exc)

            websocket.connection_lost = connection_lost
            websocket.pause_writing = pause_writing
            websocket.resume_writing = resume_writing
            websocket.transport = _Closing(transport, closing)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.transport.get_protocol() is self:
                self._release()
            super().connection_lost(exc)

        def _release(self) -> None:
            if self._peer is not None:
                open_by_peer[self._peer] -= 1
                if not open_by_peer[self._peer]:
                    del open_by_peer[self._peer]
                self._peer = None

    return GuardedH11Protocol


class _Closing:
    """A transport whose close() is ``closing`` (the rest is the transport's own): uvloop's
    transports take no attribute, so the websocket protocol is handed this instead."""

    def __init__(self, transport: asyncio.Transport, closing: Callable[[], None]) -> None:
        self._transport = transport
        self.close = closing

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
