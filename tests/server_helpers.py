"""A real server on loopback for the server tests: uvicorn in a thread of its own, on a
port the system picks, with its tables in a store the test names."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from diabolo.server import create_app, listening_socket, uvicorn_config
from tests.protocol_schema import check


class Running:
    """A server that runs: its base URL, an HTTP client, and websocket clients."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def create(self, **table: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json=table)
        assert response.status_code == 201, response.text
        summary: dict[str, Any] = response.json()["table"]
        return summary

    def sit(self, table_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
        response = self.http.post(f"/api/tables/{table_id}/seats", json={"name": name, "seat": seat})
        assert response.status_code == 200, response.text
        data = response.json()
        return data["seat"], data["token"]

    @contextmanager
    def connect(self, table_id: str, **hello: Any) -> Iterator[ClientConnection]:
        """A websocket to the table that has said hello (``seat``, ``token``, ``since``)."""
        with connect(f"{self.ws_url}/ws/{table_id}", max_size=2**24, open_timeout=10) as connection:
            check("client", {"type": "hello", **hello})
            connection.send(json.dumps({"type": "hello", **hello}))
            yield connection


def receive(connection: ClientConnection, timeout: float = 30, skip: tuple[str, ...] = ("presence",)) -> dict[str, Any]:
    """The next message, passing over those of a type in ``skip``: by default the table's
    presence news, which come whenever a page opens, closes or hides (a client of the game
    alone, as a bot's, need not read them; tests/test_server_talk.py does)."""
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=timeout))
        check("server", message)  # every message a test reads is one of the protocol's
        if message["type"] not in skip:
            return message


@contextmanager
def running_server(store: str, **app: Any) -> Iterator[Running]:
    """The server of ``store`` (a URL; ``app``: create_app's options), stopped at the end."""
    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(store, **app), lifespan="on"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    running = Running(port)
    try:
        yield running
    finally:
        running.http.close()
        server.should_exit = True
        thread.join(30)
        sock.close()
