"""A real Redis server for the cluster tests: Debian's redis-server on a free loopback
port, without persistence, in a temporary folder, stopped at the end. The suite starts
one per run (conftest.py's ``redis_url``) and empties it for each test."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

INSTALL = "apt-get install redis-server (or bash tools/install-test-tools.sh as root)"


class RedisServer:
    """A running redis-server on a fixed loopback port: :meth:`kill` (kill -9) and
    :meth:`start` again on the same port, empty, as a restart without persistence is."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = tempfile.mkdtemp(prefix="diabolo-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            + ["--dir", self.folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            assert self.process.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


@contextmanager
def redis_service() -> Iterator[RedisServer]:
    """A fresh Redis server (:class:`RedisServer`); skips (fails under CI) without redis-server."""
    binary = shutil.which("redis-server")
    if binary is None:
        from tests.tool_helpers import skip_or_fail  # pytest's: benchmarks use these helpers without it

        skip_or_fail("the cluster tests need Redis's server: " + INSTALL)
    assert binary is not None
    server = RedisServer(binary)
    try:
        server.start()
        yield server
    finally:
        server.kill()
        shutil.rmtree(server.folder, ignore_errors=True)


@contextmanager
def redis_server() -> Iterator[str]:
    """The URL of a fresh Redis server; skips (fails under CI) without redis-server."""
    with redis_service() as server:
        yield server.url


def flush(url: str) -> None:
    """Empties every database of the Redis server at ``url`` (redis://host:port/db)."""
    host, port = url.removeprefix("redis://").split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(b"FLUSHALL\r\n")
        answer = connection.recv(64)
    assert answer.startswith(b"+OK"), answer
