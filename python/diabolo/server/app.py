"""The server as an ASGI application (Starlette): the lobby over HTTP, play over
websockets, the browser client as static files. ``diabolo serve`` runs it with uvicorn;
docs/server.rst describes every message and every limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import segno
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import diabolo
from diabolo.errors import DiaboloError, OptionError
from diabolo.registry import default_options
from diabolo.server.cluster import Cluster, RemoteTable
from diabolo.server.config import ServerConfig
from diabolo.server.lobby import Lobby, _name, _object
from diabolo.server.metrics import Metrics
from diabolo.server.protocol import (
    RETRY,
    BadMessage,
    Rejection,
    accepted,
    compact_json,
    error_message,
    pong,
    read_json,
    rejected,
)
from diabolo.server.store import Store, open_store
from diabolo.server.tables import HANDOFF_SECONDS, Table, bot_level, table_settings
from diabolo.server.transport import guarded_http

__all__ = ["create_app", "listening_socket", "uvicorn_config"]

CLIENT = Path(__file__).resolve().parent / "client"
LOG = logging.getLogger("diabolo.server")


def create_app(
    store: str | Store,
    *,
    config: ServerConfig | None = None,
    client: Path = CLIENT,
    rate: float | None = None,
    monitor: socket.socket | None = None,
) -> Starlette:
    """The server's application, its tables in ``store`` (a URL for :func:`open_store`,
    or a store), its limits those of ``config`` (``rate`` overrides its messages per
    second); running tables resume when it starts. With ``monitor`` (a listening
    socket, :func:`listening_socket`), ``/metrics``, ``/healthz`` and ``/readyz`` are
    also served there, for monitoring that does not share the public address.

    >>> from diabolo.server import ServerConfig, create_app
    >>> app = create_app("sqlite:///tables.db", config=ServerConfig(max_tables=10))
    >>> app.state.config.max_tables
    10
    """
    config = config or ServerConfig()
    if rate is not None:
        config = dataclasses.replace(config, rate=float(rate))
        config.check()

    metrics = Metrics()
    websockets = [0]  # open websockets of this process

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        opened = await open_store(store) if isinstance(store, str) else store
        cluster = Cluster(config.redis, config.lease_seconds) if config.redis else None
        lobby = Lobby(opened, config, metrics=metrics, cluster=cluster)
        await lobby.restore()
        app.state.lobby = lobby
        metrics.watch(lambda: _gauges(lobby, websockets[0]))
        watching = None
        if monitor is not None:
            monitoring = Starlette(
                routes=[Route("/metrics", export), Route("/healthz", healthz), Route("/readyz", readyz)]
            )
            monitoring.state.lobby = lobby
            watching = _Monitor(uvicorn_monitor_config(monitoring), monitor)
        try:
            yield
        finally:
            if watching is not None:
                await watching.stop()
            await lobby.close()
            await opened.close()

    async def games(request: Request) -> Response:
        return JSONResponse(
            {
                "games": [
                    {
                        "name": entry.name,
                        "title": entry.title,
                        "min_players": entry.min_players,
                        "max_players": entry.max_players,
                        "real_time": entry.real_time,
                        "bots": list(entry.bots),
                        "bot_levels": {kind: bot_level(entry.name, kind, {}) for kind in entry.bots},
                        "options": default_options(entry.name),
                        "settings": list(table_settings(entry.name)),
                    }
                    for entry in diabolo.catalogue()
                    if entry.name in config.offered
                ],
                "limits": {
                    "bot_iterations": config.bot_iterations,
                    "bot_threads": config.bot_threads,
                    "bot_delay_seconds": config.bot_delay_seconds,
                },
            }
        )

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": await _lobby(request).summaries()})

    async def create_table(request: Request) -> Response:
        try:
            _check_origin(request, config)
            table = await _lobby(request).create(await _body(request, config), _client(request))
        except (DiaboloError, Rejection) as error:
            return _refusal(error, metrics)
        return JSONResponse({"table": table.summary()}, status_code=201)

    async def take_seat(request: Request) -> Response:
        try:
            _check_origin(request, config)
            data = _object(await _body(request, config), "a seat request")
            seat = data.get("seat")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise OptionError(f"seat must be a seat number or null, got {seat!r}")
            handoff = data.get("handoff")
            if handoff is not None and not (isinstance(handoff, str) and len(handoff) <= 64):
                raise OptionError("handoff must be the code of a link to continue on another device")
            table = await _lobby(request).find(request.path_params["table"])
            taken, token, summary = await table.take_seat(seat, _name(data.get("name", "player")), handoff=handoff)
        except (DiaboloError, Rejection) as error:
            return _refusal(error, metrics)
        return JSONResponse({"seat": taken, "token": token, "table": summary})

    async def handoff(request: Request) -> Response:
        """A seated person's link (and its QR code) to continue in their seat on another
        device: it works once, for HANDOFF_SECONDS, and the device that uses it holds the
        seat from then on (this one's token stops)."""
        try:
            _check_origin(request, config)
            data = _object(await _body(request, config), "a handoff request")
            table_id = request.path_params["table"]
            code, game = await _lobby(request).handoff(table_id, data.get("seat"), data.get("token"))
        except (DiaboloError, Rejection) as error:
            return _refusal(error, metrics)
        origin = request.headers.get("origin") or str(request.base_url).rstrip("/")  # checked above
        query = urlencode({"table": table_id, "game": game, "seat": data["seat"], "handoff": code})
        link = f"{origin}/client/table.html?{query}"
        # Drawing the code takes about 14 ms of Python: a worker draws it, in the table's turn.
        qr = await _lobby(request).pool.run(table_id, _qr_code, link)
        return JSONResponse({"link": link, "seconds": HANDOFF_SECONDS, "qr": qr}, status_code=201)

    async def rematch(request: Request) -> Response:
        """A player of a finished game takes their seat in its rematch (made by the first who asks)."""
        try:
            _check_origin(request, config)
            data = _object(await _body(request, config), "a rematch request")
            name = None if data.get("name") is None else _name(data["name"])
            seat, token, summary = await _lobby(request).rematch(
                request.path_params["table"], data.get("seat"), data.get("token"), name, _client(request)
            )
        except (DiaboloError, Rejection) as error:
            return _refusal(error, metrics)
        return JSONResponse({"seat": seat, "token": token, "table": summary}, status_code=201)

    async def leave(request: Request) -> Response:
        """A person leaves a table (or declines a rematch's seat reserved for them)."""
        try:
            _check_origin(request, config)
            data = _object(await _body(request, config), "a leave request")
            summary = await _lobby(request).leave_seat(
                request.path_params["table"], data.get("seat"), data.get("token")
            )
        except (DiaboloError, Rejection) as error:
            return _refusal(error, metrics)
        return JSONResponse({"table": summary})

    async def seat_bot(request: Request) -> Response:
        """A person at a table that waits fills a free seat with the game's stand-in bot."""
        try:
            _check_origin(request, config)
            data = _object(await _body(request, config), "a bot request")
            summary = await _lobby(request).seat_bot(
                request.path_params["table"], data.get("seat"), data.get("by"), data.get("token")
            )
        except (DiaboloError, Rejection) as error:
            return _refusal(error, metrics)
        return JSONResponse({"table": summary})

    async def record(request: Request) -> Response:
        """A game's record: the public (redacted) one while it runs, the full one after;
        with ``?audience=public`` the public one always."""
        table_id = request.path_params["table"]
        public = request.query_params.get("audience") == "public"
        text = await _lobby(request).record(table_id, public)
        if text is None:
            return _refusal(Rejection("no_table", f"no table {table_id!r}"), metrics)
        return Response(text, media_type="application/json")

    async def play(websocket: WebSocket) -> None:
        try:
            _check_origin(websocket, config)
        except Rejection as error:
            metrics.refused(error.reason, error.code)
            await websocket.close(code=1008)  # before accepting: the handshake is answered 403
            return
        await websocket.accept()
        websockets[0] += 1
        try:
            await converse(websocket)
        finally:
            websockets[0] -= 1

    async def converse(websocket: WebSocket) -> None:
        connection = _Client(websocket, config.chat_rate)
        audience: int | None = None
        table: Table | RemoteTable | None = None
        try:
            try:
                hello = await asyncio.wait_for(_receive(websocket, config), config.hello_seconds)
            except asyncio.TimeoutError:
                raise Rejection("too_slow", f"say hello within {config.hello_seconds:g} s") from None
            if hello.get("type") != "hello":
                raise Rejection("bad_message", 'the first message is {"type": "hello", ...}')
            # found and joined with no wait in between: a table found here cannot be let go
            # (handed over, expired, drained) before this connection counts at it
            table = await _lobby(websocket).find(websocket.path_params["table"], joining=True)
            audience, welcome = await table.join(hello, connection)
        except (Rejection, BadMessage) as error:
            connection.discard()
            await _close(websocket, error, metrics)
            return
        except WebSocketDisconnect:
            connection.discard()
            return
        except Exception as error:  # Redis or the store failed under the hello: the client tries again
            LOG.warning("a hello for table %s failed: %r", websocket.path_params["table"], error)
            connection.discard()
            await _close(websocket, Rejection("unavailable", "the server cannot reach its store: try again"), metrics)
            return
        try:
            await connection.send(welcome)
            await _serve(websocket, connection, table, audience, config, metrics)
        except WebSocketDisconnect:
            pass
        finally:
            await table.leave(audience, connection)
            await connection.close()

    async def healthz(request: Request) -> Response:
        """The process runs (its event loop answers); with other processes, its node id
        (the holder named in Redis's leases)."""
        cluster = _lobby(request).cluster
        return JSONResponse({"status": "ok", "node": None if cluster is None else cluster.node})

    async def readyz(request: Request) -> Response:
        """The process takes new work: its store answers and it is not going down."""
        ready = await _lobby(request).ready()
        return JSONResponse({"status": "ready" if ready else "not ready"}, status_code=200 if ready else 503)

    async def export(request: Request) -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    async def prometheus(request: Request) -> Response:
        """/metrics on the public port: only with ``Authorization: Bearer <metrics_token>``."""
        if not config.metrics_token:
            return Response(status_code=404)
        given = request.headers.get("authorization", "")
        if not secrets.compare_digest(given.encode(), f"Bearer {config.metrics_token}".encode()):
            return Response(status_code=401, headers={"WWW-Authenticate": "Bearer"})
        return await export(request)

    routes = [
        Route("/api/games", games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}/seats", take_seat, methods=["POST"]),
        Route("/api/tables/{table}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{table}/leave", leave, methods=["POST"]),
        Route("/api/tables/{table}/bot", seat_bot, methods=["POST"]),
        Route("/api/tables/{table}/handoff", handoff, methods=["POST"]),
        Route("/api/tables/{table}/record", record),
        WebSocketRoute("/ws/{table}", play),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", prometheus),
    ]
    if client.is_dir():
        routes.append(Route("/", lambda request: FileResponse(client / "index.html")))
        # Compressed: the client's modules take a quarter of their size on the wire (a slow
        # network waits on bytes as much as on round trips; tests/test_client_first_load.py).
        routes.append(Mount("/client", GZipMiddleware(StaticFiles(directory=client), minimum_size=1000)))

    async def unavailable(request: Request, error: Exception) -> Response:
        LOG.warning("%s %s: the store or Redis failed: %r", request.method, request.url.path, error)
        return _refusal(Rejection("unavailable", "the server cannot reach its store: try again"), metrics)

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=dict.fromkeys(_outages(), unavailable))
    app.state.config = config
    app.state.metrics = metrics
    app.add_middleware(ClientLimit, most=config.connections_per_client, metrics=metrics)
    return app


def uvicorn_monitor_config(app: Starlette) -> Any:
    """How uvicorn serves the monitoring port: quiet, no lifespan (the main app's runs it)."""
    import uvicorn

    return uvicorn.Config(app, log_level="warning", lifespan="off", ws="none")


class _Monitor:
    """uvicorn's server for the monitoring port on ``sock``, serving from now on beside the
    main one in its event loop (the main server handles the signals)."""

    def __init__(self, config: Any, sock: socket.socket) -> None:
        import uvicorn

        class Quiet(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Any:
                yield

        self.server = Quiet(config)
        self.task = asyncio.ensure_future(self.server.serve(sockets=[sock]))

    async def stop(self) -> None:
        self.server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, 5)


def _outages() -> tuple[type[Exception], ...]:
    """The errors of a store or Redis that does not answer: a request they stop is
    answered 503 ``unavailable`` (the client tries again), not 500."""
    found: list[type[Exception]] = [OSError, asyncio.TimeoutError]
    with contextlib.suppress(ImportError):
        import redis.exceptions

        found.append(redis.exceptions.RedisError)
    with contextlib.suppress(ImportError):
        import psycopg

        found.append(psycopg.OperationalError)
    return tuple(found)


def _gauges(lobby: Lobby, websockets: int) -> dict[str, Any]:
    tables = {"waiting": 0, "playing": 0, "finished": 0}
    for table in lobby.tables.values():
        tables["finished" if table.finished else "waiting" if table.waiting else "playing"] += 1
    return {"tables": tables, "connections": websockets, "pool_queued": lobby.pool.queued, "pool_busy": lobby.pool.busy}


class ClientLimit:
    """ASGI middleware: a client (its address, as a trusted proxy names it) holds at most
    ``most`` requests and websockets at once; more are answered 429 (a websocket's
    handshake 403 before it is accepted)."""

    def __init__(self, app: ASGIApp, most: int, metrics: Metrics) -> None:
        self.app = app
        self.most = most
        self.metrics = metrics
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else ""
        if self.open.get(client, 0) >= self.most:
            if scope["type"] == "http":
                error = Rejection("too_many_connections", f"a client holds at most {self.most} connections")
                await _refusal(error, self.metrics)(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]


def _lobby(connection: HTTPConnection) -> Lobby:
    lobby: Lobby = connection.app.state.lobby
    return lobby


def _qr_code(link: str) -> str:
    """The QR code of a handoff link as an SVG data URI (segno, pure Python)."""
    return str(segno.make(link, error="m", micro=False).svg_data_uri(scale=4, dark="#2b2118"))


def _client(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else ""


def _check_origin(connection: HTTPConnection, config: ServerConfig) -> None:
    """Rejection ``bad_origin`` for a browser's request from a page of another site: its
    ``Origin`` is neither this server (the ``Host`` it asked for) nor one of
    ``config.origins``. Requests without an Origin (not from a browser page) pass."""
    origin = connection.headers.get("origin")
    if origin is None or origin in config.origins:
        return
    if urlsplit(origin).netloc == connection.headers.get("host"):
        return
    raise Rejection("bad_origin", f"pages of {origin} may not use this server")


def _refusal(error: Exception, metrics: Metrics) -> JSONResponse:
    if not isinstance(error, Rejection):
        error = Rejection(
            "bad_request", str(error), getattr(error, "code", "bad_request"), getattr(error, "clause", "")
        )
    metrics.refused(error.reason, error.code)
    return JSONResponse({"error": error.to_json()}, status_code=error.status)


async def _body(request: Request, config: ServerConfig) -> Any:
    """The request's JSON body: at most max_body bytes, sent within body_seconds, of
    content type application/json."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise Rejection("bad_content_type", f"the lobby takes application/json bodies, got {content_type or 'none'!r}")
    chunks, size = [], 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > config.max_body:
                raise OptionError(f"a request body is at most {config.max_body} bytes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), config.body_seconds)
    except asyncio.TimeoutError:
        raise Rejection("too_slow", f"send the request's body within {config.body_seconds:g} s") from None
    try:
        return read_json(b"".join(chunks) or b"{}", limit=config.max_body)
    except BadMessage as error:
        raise Rejection("bad_request", f"the body is not a JSON request: {error}", "bad_json") from None


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound to ``host``:``port`` (0: a free port): with TCP_NODELAY,
    which accepted connections inherit, so that a move's messages (an update, then the
    answer to the mover) leave at once instead of waiting for the client's delayed ACK.
    OptionError (one clear line) for a port out of range or in use, or a host that is not
    this machine's."""
    if not isinstance(port, int) or not 0 <= port < 65536:
        raise OptionError(f"a port is 0..65535, got {port!r}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OptionError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def uvicorn_config(app: Starlette, **options: Any) -> Any:
    """How uvicorn runs the server (``options`` override, e.g. ``lifespan="on"``): the
    limits of the app's ServerConfig (frames, connections, the time for a request's
    headers, drain_seconds for connections to close at a stop), proxies' headers only
    from trusted_proxies, and no per-message compression.
    A message of the protocol is a few hundred bytes of JSON, which deflate barely
    shrinks, while it costs CPU time on every message and a compressor's memory on every
    connection (13% of the server's samples in a py-spy profile of
    benchmarks/server_load.py). A proxy in front may still compress.

    >>> from diabolo.server import create_app, uvicorn_config
    >>> uvicorn_config(create_app("sqlite:///tables.db")).ws_per_message_deflate
    False
    """
    import uvicorn

    config: ServerConfig = app.state.config
    per_peer = 0 if config.trusted_proxies else config.connections_per_client
    settings: dict[str, Any] = {
        "ws_max_size": config.max_frame,
        "ws_per_message_deflate": False,
        "log_level": "warning",
        "limit_concurrency": config.connections,
        "timeout_graceful_shutdown": config.drain_seconds,  # a connection never holds a stop for longer
        "http": guarded_http(config.header_seconds, per_peer, config.idle_seconds),
        "proxy_headers": bool(config.trusted_proxies),
        "forwarded_allow_ips": config.trusted_proxies or None,
    }
    return uvicorn.Config(app, **{**settings, **options})


class _Client:
    """A websocket as a table's Connection. Messages wait in a bounded queue that a task of
    the connection writes out, so that a client that reads slowly never holds up a table:
    one that falls QUEUE messages behind is disconnected."""

    QUEUE = 512

    def __init__(self, websocket: WebSocket, chat_rate: float) -> None:
        self._websocket = websocket
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE)
        self._writer = asyncio.ensure_future(self._write())
        self._chat_rate = chat_rate
        self._chat_allowance = 10 * chat_rate  # chat messages it may send now (a bucket, full at first)
        self._chat_last = time.monotonic()

    def may_chat(self) -> bool:
        """Whether the connection may send a chat message now (``chat_rate`` a second on
        average, bursts of ten times as many); if so, it is counted."""
        now = time.monotonic()
        allowance = min(10 * self._chat_rate, self._chat_allowance + (now - self._chat_last) * self._chat_rate)
        self._chat_last = now
        if allowance < 1:
            self._chat_allowance = allowance
            return False
        self._chat_allowance = allowance - 1
        return True

    async def send(self, message: dict[str, Any] | str) -> None:
        """Queues ``message`` (an object, or its JSON text) for the client."""
        self.push(message if isinstance(message, str) else compact_json(message))

    def push(self, text: str) -> None:
        """Queues JSON ``text`` for the client; ConnectionError if it is QUEUE messages behind."""
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self._writer.cancel()
            raise ConnectionError("the client does not read its messages") from None

    def discard(self) -> None:
        """Stops the writer at once, leaving the websocket open (a connection refused before its welcome)."""
        self._writer.cancel()

    def end(self) -> None:
        """Closes the websocket once what is queued is written."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self._websocket.send_text(text)
            await self._websocket.close(code=4000)
        except Exception:  # the socket is gone, or too slow: close it
            with contextlib.suppress(Exception):
                await self._websocket.close(code=1008)

    async def close(self) -> None:
        """Writes what is queued, then stops."""
        self.end()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 5)


async def _receive(websocket: WebSocket, config: ServerConfig) -> dict[str, Any]:
    """The next message: a JSON object within the limits; BadMessage otherwise."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise BadMessage("messages are JSON text, not binary")
    data = read_json(text, limit=config.max_message)
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object")
    return data


async def _close(websocket: WebSocket, error: Exception, metrics: Metrics) -> None:
    if not isinstance(error, Rejection):
        error = Rejection("bad_message", str(error))
    metrics.refused(error.reason, error.code)
    code = (
        1013
        if error.reason in RETRY
        else {"bad_token": 4401, "no_table": 4404, "too_slow": 4408}.get(error.reason, 4400)
    )
    with contextlib.suppress(Exception):
        await websocket.send_text(compact_json(error_message(error)))
        await websocket.close(code=code)


async def _serve(
    websocket: WebSocket,
    connection: _Client,
    table: Table | RemoteTable,
    seat: int | None,
    config: ServerConfig,
    metrics: Metrics,
) -> None:
    """A connection's messages, one at a time, until it closes. One that sends nothing
    for idle_seconds is told ``idle`` and closed by a watchdog (a timer per connection,
    not one per message: a move costs no timer)."""
    rate = config.rate
    burst = 2 * rate
    allowance, last = burst, time.monotonic()
    loop = asyncio.get_running_loop()

    def watch() -> None:
        quiet = time.monotonic() - last
        if quiet < config.idle_seconds:
            timer[0] = loop.call_later(config.idle_seconds - quiet, watch)
            return
        metrics.refused("idle", "idle")
        with contextlib.suppress(ConnectionError):
            connection.push(
                compact_json(error_message(Rejection("idle", f"nothing sent for {config.idle_seconds:g} s")))
            )
        connection.end()

    timer = [loop.call_later(config.idle_seconds, watch)]
    try:
        while True:
            try:
                message = await _receive(websocket, config)
            except BadMessage as error:
                last = time.monotonic()
                metrics.refused("bad_message", "bad_message")
                await connection.send(error_message(Rejection("bad_message", str(error))))
                continue
            now = time.monotonic()
            allowance = min(burst, allowance + (now - last) * rate)
            last = now
            request_id = message.get("id")
            if not (request_id is None or isinstance(request_id, (int, str)) and len(str(request_id)) <= 64):
                request_id = None
            if allowance < 1:
                metrics.refused("too_fast", "too_fast")
                await connection.send(
                    rejected(request_id, Rejection("too_fast", f"at most {rate:g} messages a second"))
                )
                continue
            allowance -= 1
            await _handle(connection, table, seat, message, request_id, metrics, config)
    finally:
        timer[0].cancel()


async def _handle(
    connection: _Client,
    table: Table | RemoteTable,
    seat: int | None,
    message: dict[str, Any],
    request_id: Any,
    metrics: Metrics,
    config: ServerConfig,
) -> None:
    kind = message.get("type")
    try:
        if kind == "ping":
            await connection.send(pong(request_id, table.now()))
            return
        if kind == "presence":
            await table.presence(seat, connection, message.get("state"))
            return
        if kind == "chat":
            if not connection.may_chat():
                raise Rejection("too_fast", f"at most {config.chat_rate:g} chat messages a second")
            await table.chat(seat, message.get("text"))
            return
        if kind != "move":
            raise Rejection(
                "bad_message", f"unknown message type {kind!r}; a client sends move, chat, presence or ping"
            )
        if seat is None:
            raise Rejection("not_your_seat", "a spectator cannot move")
        move = message.get("move")
        if not (isinstance(move, (str, dict)) or isinstance(move, int) and not isinstance(move, bool)):
            raise Rejection("bad_move", f"a move is its notation, action id or data, got {move!r}")
        version = await table.submit(seat, move, message.get("version"))
    except Rejection as error:
        metrics.refused(error.reason, error.code)
        await connection.send(rejected(request_id, error))
        return
    await connection.send(accepted(request_id, version))
