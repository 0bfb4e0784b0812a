"""The web stack of the game server alone, for ``server_load.py --setups bare:1``: uvicorn
and Starlette as ``diabolo serve`` runs them (uvloop, websockets' sans-I/O protocol, no
per-message compression), speaking as much of the protocol as the load's players need,
with no game, no store and no lobby behind it. A move message is answered as a table
answers it: under the table's lock an update to every seat (the next seat's with its
legal moves), then ``accepted`` to the mover, each written through a bounded queue per
connection as the server does. What a move costs here is what the stack costs before any
of the server's own work: the floor under ``server CPU per stored move`` (with the
garbage collector set as ``diabolo serve`` sets it).

    python benchmarks/bare_server.py --port 8000
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from diabolo.server.runner import tune_collector

LEGAL = '["R1<","R1>","Y3<","Y3>","G2<","G2>","P4<","P4>","B1<","B1>"]'
"""A seat's legal moves in an update: a Schacht hand's, as the real server lists them."""

EVENTS = '[{"type":"placed","seat":0,"card":"G3","side":"right"},{"type":"drew","seat":0},{"type":"turn","seat":1}]'
"""A move's events as a seat sees them: a Schacht move's."""


class Client:
    """A connection's bounded queue of texts, written by a task of its own (as the
    server's _Client)."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(512)
        self.writer = asyncio.ensure_future(self.write())

    async def write(self) -> None:
        while True:
            await self.websocket.send_text(await self.queue.get())


class Table:
    def __init__(self, players: int) -> None:
        self.players = players
        self.clients: dict[int, Client] = {}
        self.turn = 0
        self.version = 0
        self.lock = asyncio.Lock()

    def update(self, seat: int) -> str:
        legal = LEGAL if seat == self.turn else "[]"
        return (
            f'{{"type":"update","version":{self.version},"time":{self.version * 0.5},"events":{EVENTS},'
            f'"legal":{legal},"deadlines":[null,null,null]}}'
        )


def create_app() -> Starlette:
    tables: dict[str, Table] = {}
    ids = itertools.count()

    async def make_table(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        table_id = str(next(ids))
        tables[table_id] = Table(len(body["seats"]))
        return JSONResponse({"table": {"id": table_id}})

    async def take_seat(request: Request) -> Response:
        return JSONResponse({"token": "t"})

    async def ready(request: Request) -> Response:
        return JSONResponse({"ready": True})

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables[websocket.path_params["table"]]
        seat = int(json.loads(await websocket.receive_text())["seat"])
        client = Client(websocket)
        table.clients[seat] = client
        legal = LEGAL if seat == table.turn else "[]"
        client.queue.put_nowait(f'{{"type":"welcome","version":{table.version},"legal":{legal}}}')
        try:
            while True:
                message = json.loads(await websocket.receive_text())
                async with table.lock:
                    table.version += 1
                    table.turn = (table.turn + 1) % table.players
                    for other, connection in table.clients.items():
                        connection.queue.put_nowait(table.update(other))
                client.queue.put_nowait(
                    json.dumps({"type": "accepted", "id": message.get("id"), "version": table.version})
                )
        except WebSocketDisconnect:
            pass
        finally:
            client.writer.cancel()

    return Starlette(
        routes=[
            Route("/api/tables", make_table, methods=["POST"]),
            Route("/api/tables/{table}/seats", take_seat, methods=["POST"]),
            Route("/readyz", ready),
            WebSocketRoute("/ws/{table}", play),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    tune_collector()  # as diabolo serve
    uvicorn.run(create_app(), port=args.port, log_level="warning", ws_per_message_deflate=False, lifespan="off")


if __name__ == "__main__":
    main()
