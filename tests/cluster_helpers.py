"""Several ``diabolo serve`` processes on loopback sharing a real PostgreSQL and a real
Redis (conftest.py's ``postgres_url`` and ``redis_url``): for the cluster and fault tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.protocol_schema import check

LEASE_SECONDS = 5.0
"""The default lease."""


class Process:
    """One ``diabolo serve`` process of the server."""

    def __init__(self, store: str, redis: str, port: int = 0, **settings: Any) -> None:
        """A process on ``port`` (0: a free one) with more ``settings`` (ServerConfig's, by name)."""
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the port of a process just stopped
            sock.bind(("127.0.0.1", port))
            self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DIABOLO_SERVER_RATE": "1000",
            "DIABOLO_SERVER_LEASE_SECONDS": str(LEASE_SECONDS),
            "PYTHONFAULTHANDLER": "1",  # SIGABRT prints every thread's stack: see stop()
            **{f"DIABOLO_SERVER_{name.upper()}": str(value) for name, value in settings.items()},
        }
        command = [sys.executable, "-m", "diabolo", "serve", "--port", str(self.port), "--store", store]
        redis_args = ["--redis", redis] if redis else []
        # a file, not a pipe: a process that prints more than a pipe holds must not block on it
        self.output = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(
            [*command, *redis_args], env=env, stdout=self.output, stderr=subprocess.STDOUT, text=True
        )
        self.http = httpx.Client(base_url=self.url, timeout=30)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, self.printed()
            with contextlib.suppress(httpx.TransportError):
                if self.http.get("/readyz").status_code == 200:
                    break
            assert time.monotonic() < deadline, "the process did not get ready"
            time.sleep(0.1)

    def stop(self, sig: int = signal.SIGKILL) -> None:
        """Sends ``sig``; a process still there 30 s later fails the test with what it printed
        and where each of its threads stood (SIGABRT under PYTHONFAULTHANDLER)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.send_signal(signal.SIGABRT)
                self.process.wait(30)
                pytest.fail(f"the process did not stop within 30 s of signal {sig}; it printed:\n{self.printed()}")
        self.http.close()

    @property
    def node(self) -> str:
        """The process's node id (the holder named in Redis's leases)."""
        node: str = self.http.get("/healthz").json()["node"]
        return node

    def printed(self) -> str:
        self.output.seek(0)
        return self.output.read()

    def create(self, **table: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json=table)
        assert response.status_code == 201, response.text
        summary: dict[str, Any] = response.json()["table"]
        return summary

    def sit(self, table_id: str, name: str, seat: int) -> str:
        response = self.http.post(f"/api/tables/{table_id}/seats", json={"name": name, "seat": seat})
        assert response.status_code == 200, response.text
        token: str = response.json()["token"]
        return token

    def connect(self, stack: contextlib.ExitStack, table_id: str, **hello: Any) -> ClientConnection:
        """A websocket to the table that has said hello, closed with ``stack`` (quietly if it died)."""
        connection = stack.enter_context(_Quietly(connect(f"{self.ws_url}/ws/{table_id}", open_timeout=10)))
        connection.send(json.dumps({"type": "hello", **hello}))
        return connection


class _Quietly:
    """A websocket as a context, whose closing says nothing if the server already went away."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    def __enter__(self) -> ClientConnection:
        return self.connection.__enter__()

    def __exit__(self, *exc: Any) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            self.connection.__exit__(*exc)


@contextlib.contextmanager
def processes(count: int, store: str, redis: str, **settings: Any) -> Iterator[list[Process]]:
    """``count`` processes on the PostgreSQL database ``store`` and the Redis at ``redis``
    (conftest.py's ``postgres_url`` and ``redis_url``: fresh for each test)."""
    started: list[Process] = []
    try:
        for _ in range(count):  # one after another: each makes the schema if it is not there
            started.append(Process(store, redis, **settings))
        yield started
    finally:
        for process in started:
            process.stop()


def receive(connection: ClientConnection, timeout: float = 30, skip: tuple[str, ...] = ("presence",)) -> dict[str, Any]:
    """The next message, passing over those of a type in ``skip`` (as tests/server_helpers.py's)."""
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=timeout))
        check("server", message)
        if message["type"] not in skip:
            return message
