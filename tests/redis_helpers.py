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


@contextmanager
def redis_server() -> Iterator[str]:
    """The URL of a fresh Redis server; skips (fails under CI) without redis-server."""
    binary = shutil.which("redis-server")
    if binary is None:
        from tests.tool_helpers import skip_or_fail  # pytest's: benchmarks use these helpers without it

        skip_or_fail("the cluster tests need Redis's server: " + INSTALL)
    assert binary is not None
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="diabolo-redis-")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def flush(url: str) -> None:
    """Empties every database of the Redis server at ``url`` (redis://host:port/db)."""
    host, port = url.removeprefix("redis://").split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(b"FLUSHALL\r\n")
        answer = connection.recv(64)
    assert answer.startswith(b"+OK"), answer
