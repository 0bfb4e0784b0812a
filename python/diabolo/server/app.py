"""The server as an ASGI application (Starlette): the lobby over HTTP, play over
websockets, the browser client as static files. ``diabolo serve`` runs it with uvicorn;
docs/server.rst describes every message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import diabolo
from diabolo.errors import DiaboloError, OptionError
from diabolo.registry import Game
from diabolo.server.store import Store, open_store
from diabolo.server.tables import Rejection, Seat, Settings, Table, compact_json, make_bot

__all__ = ["Lobby", "create_app", "listening_socket", "uvicorn_config"]

CLIENT = Path(__file__).resolve().parent / "client"
MAX_BODY = 16 * 1024
"""The largest request body the lobby reads, in bytes."""
MAX_MESSAGE = 4 * 1024
"""The largest websocket message a client may send, in bytes (a move is a few dozen)."""
MAX_FRAME = 16 * 1024
"""The largest websocket frame uvicorn reads; a larger one closes the connection (1009)."""
MAX_TABLES = 2000
"""Running tables a server holds at most: creating one more is refused."""
KEEP_FINISHED = 200
"""Finished tables kept in memory (the lobby lists them); older ones are served from the store."""
RATE = 20.0
"""Messages a connection may send per second by default, on average (bursts of twice as many)."""


class Lobby:
    """The server's tables and games, and its store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._games: dict[str, Game] = {}

    def game(self, name: Any, options: Any) -> Game:
        """The game of a client's name and options (cached: a Knizia word list loads once)."""
        if not isinstance(name, str) or name not in diabolo.games():
            raise OptionError(f"unknown game {name!r}; the games are: {', '.join(diabolo.games())}")
        if not isinstance(options, dict):
            raise OptionError(f"a game's options are a JSON object, got {options!r}")
        key = json.dumps([name, options], sort_keys=True)
        if key not in self._games:
            self._games[key] = diabolo.load(name, **options)
        return self._games[key]

    async def restore(self) -> None:
        for row in await self.store.running_tables():
            table = Table.restore(self.store, self.game(row.game, row.options), row)
            self.tables[table.id] = table
            table.start()

    async def create(self, data: Any) -> Table:
        """A table from a client's request (see docs/server.rst)."""
        if not isinstance(data, dict):
            raise OptionError("a table is a JSON object with game, options, seats and settings")
        unknown = set(data) - {"game", "options", "seats", "settings", "seed"}
        if unknown:
            raise OptionError(f"unknown key {sorted(unknown)[0]!r}; a table has game, options, seats, settings, seed")
        self._forget_finished()
        if len(self.tables) >= MAX_TABLES:
            raise OptionError(f"this server holds {MAX_TABLES} running tables already")
        name, options = data.get("game"), data.get("options", {})
        game = self.game(name, options)
        assert isinstance(name, str)  # self.game checked it
        seats = [self._seat(name, spec, s) for s, spec in enumerate(_list(data.get("seats"), "seats"))]
        settings = Settings.from_json(_object(data.get("settings", {}), "settings"))
        seed = data.get("seed", time.time_ns() & (2**63 - 1))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise OptionError(f"seed must be an integer 0..2**64-1, got {seed!r}")
        table = await Table.create(self.store, game, name, options, seats, settings, seed)
        self.tables[table.id] = table
        table.start()
        return table

    def _forget_finished(self) -> None:
        """Drops all but the KEEP_FINISHED most recent finished tables from memory."""
        finished = [table_id for table_id, table in self.tables.items() if table.finished]
        for table_id in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.tables[table_id]

    @staticmethod
    def _seat(game: str, spec: Any, seat: int) -> Seat:
        spec = _object(spec, f"seat {seat}")
        unknown = set(spec) - {"bot", "options", "name"}
        if unknown:
            raise OptionError(f"seat {seat}: unknown key {sorted(unknown)[0]!r}; a seat has bot, options, name")
        kind = spec.get("bot")
        if kind is None:
            return Seat(_name(spec.get("name", f"seat {seat}")))
        bot_options = _object(spec.get("options", {}), f"seat {seat}'s bot options")
        make_bot(game, kind, bot_options)  # refused here, before the table exists
        return Seat(_name(spec.get("name", f"{kind} bot")), kind, bot_options)

    def close(self) -> None:
        for table in self.tables.values():
            table.close()


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise OptionError(f"{what} must be a JSON object, got {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise OptionError(f"{what} must be a JSON list, got {value!r}")
    return value


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 40 or not value.isprintable():
        raise OptionError(f"a name is 1..40 printable characters, got {value!r}")
    return value


def _refusal(error: Exception, status: int = 400) -> JSONResponse:
    if isinstance(error, Rejection):
        return JSONResponse({"error": error.to_json()}, status_code=409 if error.reason != "no_table" else 404)
    code = getattr(error, "code", "bad_request")
    return JSONResponse({"error": {"reason": "bad_request", "code": code, "message": str(error)}}, status_code=status)


async def _body(request: Request) -> Any:
    """The request's JSON body, at most MAX_BODY bytes."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise OptionError(f"a request body is at most {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"{}")
    except ValueError as error:
        raise OptionError(f"the body is not JSON: {error}") from None


def create_app(store: str | Store, *, client: Path = CLIENT, rate: float = RATE) -> Starlette:
    """The server's application, its tables in ``store`` (a URL for :func:`open_store`,
    or a store); running tables resume when it starts. A connection may send ``rate``
    messages a second on average, in bursts of twice as many; more are refused as
    ``too_fast``."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        opened = await open_store(store) if isinstance(store, str) else store
        lobby = Lobby(opened)
        await lobby.restore()
        app.state.lobby = lobby
        try:
            yield
        finally:
            lobby.close()
            await opened.close()

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    def table_of(lobby: Lobby, table_id: str) -> Table:
        if table_id not in lobby.tables:
            raise Rejection("no_table", f"no running table {table_id!r}")
        return lobby.tables[table_id]

    async def games(request: Request) -> Response:
        return JSONResponse(
            {
                "games": [
                    {"name": name, "bots": list(diabolo.bot_kinds(name)), "options": _defaults(name)}
                    for name in diabolo.games()
                ]
            }
        )

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": [table.summary() for table in lobby_of(request).tables.values()]})

    async def create_table(request: Request) -> Response:
        try:
            table = await lobby_of(request).create(await _body(request))
        except (DiaboloError, Rejection) as error:
            return _refusal(error)
        return JSONResponse({"table": table.summary()}, status_code=201)

    async def take_seat(request: Request) -> Response:
        try:
            table = table_of(lobby_of(request), request.path_params["table"])
            data = _object(await _body(request), "a seat request")
            seat = data.get("seat")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise OptionError(f"seat must be a seat number or null, got {seat!r}")
            taken, token = await table.take_seat(seat, _name(data.get("name", "player")))
        except (DiaboloError, Rejection) as error:
            return _refusal(error)
        return JSONResponse({"seat": taken, "token": token, "table": table.summary()})

    async def record(request: Request) -> Response:
        """A game's record: the public (redacted) one while it runs, the full one after;
        with ``?audience=public`` the public one always (a replay viewer feeds its events
        to a client model: a full record holds moves, not what each move showed)."""
        lobby = lobby_of(request)
        table_id = request.path_params["table"]
        table = lobby.tables.get(table_id)
        public = request.query_params.get("audience") == "public"
        if table is not None and (public or not table.finished):
            text = table.record.redacted(None).dump()
        else:
            text = table.record.dump() if table is not None else await lobby.store.finished_record(table_id) or ""
            if text and public:
                text = diabolo.Record.load(text).redacted(None).dump()
        if not text:
            return _refusal(Rejection("no_table", f"no table {table_id!r}"))
        return Response(text, media_type="application/json")

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        lobby = lobby_of(websocket)
        try:
            table = table_of(lobby, websocket.path_params["table"])
            hello = await _receive(websocket)
            if hello.get("type") != "hello":
                raise Rejection("bad_message", 'the first message is {"type": "hello", ...}')
            seat = None if hello.get("seat") is None else table.authenticate(hello.get("seat"), hello.get("token"))
            since = hello.get("since")
            since = since if isinstance(since, int) and not isinstance(since, bool) else None
        except (Rejection, WebSocketDisconnect, ValueError) as error:
            await _close(websocket, error)
            return
        connection = _Client(websocket)
        table.attach(seat, connection)
        try:
            await connection.send(table.welcome(seat, since))
            await _serve(websocket, connection, table, seat, rate)
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(seat, connection)
            await connection.close()

    routes = [
        Route("/api/games", games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}/seats", take_seat, methods=["POST"]),
        Route("/api/tables/{table}/record", record),
        WebSocketRoute("/ws/{table}", play),
    ]
    if client.is_dir():
        routes.append(Route("/", lambda request: FileResponse(client / "index.html")))
        routes.append(Mount("/client", StaticFiles(directory=client)))
    return Starlette(routes=routes, lifespan=lifespan)


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound to ``host``:``port`` (0: a free port): with TCP_NODELAY,
    which accepted connections inherit, so that a move's messages (an update, then the
    answer to the mover) leave at once instead of waiting for the client's delayed ACK."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    return sock


def uvicorn_config(app: Starlette, **options: Any) -> Any:
    """How uvicorn runs the server (``options`` override, e.g. ``lifespan="on"``): frames of
    at most MAX_FRAME bytes, and no per-message compression. A message of the protocol is
    a few hundred bytes of JSON, which deflate barely shrinks, while it costs CPU time on
    every message and a compressor's memory on every connection (13% of the server's
    samples in a py-spy profile of benchmarks/server_load.py). A proxy in front may
    still compress.

    >>> from diabolo.server import create_app, uvicorn_config
    >>> uvicorn_config(create_app("sqlite:///tables.db")).ws_per_message_deflate
    False
    """
    import uvicorn

    settings: dict[str, Any] = {"ws_max_size": MAX_FRAME, "ws_per_message_deflate": False, "log_level": "warning"}
    return uvicorn.Config(app, **{**settings, **options})


def _defaults(name: str) -> dict[str, Any]:
    """A game's options with their defaults, as JSON (a Knizia game's word list by language)."""
    if name == "knizia":
        return {"players": 3, "lexicon": "de"}
    options = diabolo.load(name).options
    return {key: list(value) if isinstance(value, tuple) else value for key, value in options.items()}


class _Client:
    """A websocket as a table's Connection. Messages wait in a bounded queue that a task of
    the connection writes out, so that a client that reads slowly never holds up a table:
    one that falls QUEUE messages behind is disconnected."""

    QUEUE = 512

    def __init__(self, websocket: WebSocket) -> None:
        self._websocket = websocket
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE)
        self._writer = asyncio.ensure_future(self._write())

    async def send(self, message: dict[str, Any] | str) -> None:
        """Queues ``message`` (an object, or its JSON text) for the client."""
        try:
            self._queue.put_nowait(message if isinstance(message, str) else compact_json(message))
        except asyncio.QueueFull:
            self._writer.cancel()
            raise ConnectionError("the client does not read its messages") from None

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self._websocket.send_text(text)
        except Exception:  # the socket is gone, or too slow: close it
            with contextlib.suppress(Exception):
                await self._websocket.close(code=1008)

    async def close(self) -> None:
        """Writes what is queued, then stops."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 5)


async def _receive(websocket: WebSocket) -> dict[str, Any]:
    """The next message: a JSON object of at most MAX_MESSAGE bytes; ValueError otherwise."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ValueError("messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise ValueError(f"a message is at most {MAX_MESSAGE} bytes")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("a message is a JSON object")
    return data


async def _close(websocket: WebSocket, error: Exception) -> None:
    if isinstance(error, WebSocketDisconnect):
        return
    reason = error.reason if isinstance(error, Rejection) else "bad_message"
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "reason": reason, "message": str(error)}))
        await websocket.close(code=4400 if reason != "bad_token" else 4401)


async def _serve(websocket: WebSocket, connection: _Client, table: Table, seat: int | None, rate: float) -> None:
    """A connection's messages, one at a time, until it closes."""
    burst = 2 * rate
    allowance, last = burst, time.monotonic()
    while True:
        try:
            message = await _receive(websocket)
        except ValueError as error:
            await connection.send({"type": "error", "reason": "bad_message", "message": str(error)})
            continue
        now = time.monotonic()
        allowance = min(burst, allowance + (now - last) * rate)
        last = now
        request_id = message.get("id")
        if not (request_id is None or isinstance(request_id, (int, str)) and len(str(request_id)) <= 64):
            request_id = None
        if allowance < 1:
            await connection.send({"type": "rejected", "id": request_id, "reason": "too_fast", "message": "slow down"})
            continue
        allowance -= 1
        await _handle(connection, table, seat, message, request_id)


async def _handle(
    connection: _Client, table: Table, seat: int | None, message: dict[str, Any], request_id: Any
) -> None:
    kind = message.get("type")
    try:
        if kind == "ping":
            await connection.send({"type": "pong", "id": request_id, "time": table.now()})
            return
        if kind != "move":
            raise Rejection("bad_message", f"unknown message type {kind!r}; a client sends move or ping")
        if seat is None:
            raise Rejection("not_your_seat", "a spectator cannot move")
        move = message.get("move")
        if not (isinstance(move, (str, dict)) or isinstance(move, int) and not isinstance(move, bool)):
            raise Rejection("bad_move", f"a move is its notation, action id or data, got {move!r}")
        version = await table.submit(seat, move, message.get("version"))
    except Rejection as error:
        await connection.send({"type": "rejected", "id": request_id, **error.to_json()})
        return
    await connection.send({"type": "accepted", "id": request_id, "version": version})
