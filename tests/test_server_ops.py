"""The server as an operator runs it: ``diabolo serve`` and its configuration, the health
and readiness checks, Prometheus's metrics, and going down on SIGTERM without losing a
move."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import httpx  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

import diabolo  # noqa: E402
from diabolo.server import ServerConfig  # noqa: E402
from diabolo.server.app import listening_socket  # noqa: E402
from tests.server_helpers import Running, receive, running_server  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs" / "server.rst"


def serve(*args: str, env: dict[str, str] | None = None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diabolo", "serve", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "70000"], "port must be 1..65535, got 70000"),  # was an OverflowError
        (["--store", "mysql://db/x"], "a store is sqlite:///file.db or postgresql://..., got 'mysql://db/x'"),
        (["--store", "sqlite:////no/such/folder/tables.db"], "cannot open the store sqlite:////no/such/folder"),
        (["--store", "postgresql://nobody@127.0.0.1:1/x"], "cannot open the store postgresql://nobody@127.0.0.1:1/x"),
        (["--store", "sqlite:///t.db", "--redis", "redis://127.0.0.1:1"], "with redis, store must be postgresql"),
        (["--config", "/no/such/file.toml"], "cannot read the configuration file '/no/such/file.toml'"),
    ],
)
def test_serve_answers_a_bad_setting_with_one_line(args: list[str], said: str, tmp_path: Path) -> None:
    """Before, a bad store printed "server running" and then a traceback."""
    result = serve("--port", str(free_port()), *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and said in result.stderr, result.stderr


def test_serve_answers_a_port_in_use_with_one_line() -> None:
    """Before: OSError 98 and a traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = serve("--port", str(taken.getsockname()[1]))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot listen on 127.0.0.1:" in result.stderr and "in use" in result.stderr


def test_settings_come_from_a_file_then_the_environment_then_the_flags(tmp_path: Path) -> None:
    path = tmp_path / "server.toml"
    path.write_text(
        'max_tables = 50\nbot_iterations = 2000\norigins = ["https://a.example"]\nstore = "sqlite:///x.db"\n'
    )
    environ = {
        "DIABOLO_SERVER_BOT_ITERATIONS": "3000",
        "DIABOLO_SERVER_ORIGINS": "https://b.example, https://c.example",
    }
    config = ServerConfig.load(path, environ=environ, store="sqlite:///y.db", port=None)
    assert (config.max_tables, config.bot_iterations, config.store) == (50, 3000, "sqlite:///y.db")
    assert config.origins == ("https://b.example", "https://c.example") and config.port == 8000
    cases: list[tuple[dict[str, Any], str]] = [
        ({"max_tablez": 1}, "unknown server setting 'max_tablez'"),
        ({"max_tables": "many"}, "max_tables must be a whole number, got 'many'"),
        ({"max_tables": 0}, "max_tables must be more than 0"),
        ({"origins": 5}, "origins must be a list of text"),
        ({"rate": True}, "rate must be a number"),
    ]
    for bad, said in cases:
        with pytest.raises(diabolo.OptionError, match=re.escape(said)):
            ServerConfig.from_values(bad)
    path.write_text("max_tables = [")
    with pytest.raises(diabolo.OptionError, match="is not TOML"):
        ServerConfig.load(path, environ={})


def test_the_docs_list_every_setting_with_its_default() -> None:
    """docs/server.rst's table of settings is ServerConfig's, row by row."""
    text = DOCS.read_text()
    for name, default, what in ServerConfig.documentation():
        row = f"   * - ``{name}``\n     - {default}\n     - {what}"
        assert row in text, row


def test_health_readiness_and_metrics(tmp_path: Path) -> None:
    """/healthz and /readyz on the public port; /metrics only on the monitoring port (and,
    with metrics_token, on the public one to a request that carries the token)."""
    monitor = listening_socket("127.0.0.1", 0)
    config = ServerConfig(metrics_token="s3cret")
    with running_server(f"sqlite:///{tmp_path / 'tables.db'}", config=config, monitor=monitor) as server:
        assert server.http.get("/healthz").json() == {"status": "ok", "node": None}
        assert server.http.get("/readyz").status_code == 200
        table = server.create(game="schacht", options={"players": 3}, seats=[{}, {}, {}], seed=2)
        tokens = [server.sit(table["id"], f"p{s}", s)[1] for s in range(3)]
        seat = diabolo.load("schacht", players=3).new_state(seed=2).pending_seats[0]
        with server.connect(table["id"], seat=seat, token=tokens[seat]) as connection:
            welcome = receive(connection)
            connection.send(json.dumps({"type": "move", "move": "Q9<"}))
            assert receive(connection)["reason"] == "bad_move"
            connection.send(json.dumps({"type": "move", "move": welcome["legal"][0]}))
            while receive(connection)["type"] != "accepted":
                pass
        assert server.http.get("/metrics").status_code == 401
        assert server.http.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert server.http.get("/metrics", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        own = f"http://127.0.0.1:{monitor.getsockname()[1]}"
        metrics = httpx.get(f"{own}/metrics")
        assert httpx.get(f"{own}/readyz").status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert 'diabolo_moves_total{game="schacht"} ' in text
    assert re.search(r'diabolo_refusals_total\{code="[a-z_]+",reason="bad_move"\} 1\.0', text), text
    assert 'diabolo_tables{state="playing"} 1.0' in text
    assert "diabolo_move_seconds_count 1.0" in text and "diabolo_engine_queued" in text
    assert "diabolo_connections" in text


def test_metrics_are_not_public_by_default(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'tables.db'}") as server:
        assert server.http.get("/metrics").status_code == 404
        assert server.http.get("/readyz").status_code == 200


OVERDUE = """
import asyncio
from diabolo.server.runner import _exit_unless_stopped_within

async def never_answers() -> None:
    await asyncio.Event().wait()

async def main() -> None:
    _exit_unless_stopped_within(0.5, asyncio.get_running_loop())
    await never_answers()

asyncio.run(main())
"""


def test_a_stop_that_overruns_prints_where_it_stood_and_exits_1() -> None:
    """The bound on a stop: a process still there when the time after SIGTERM is up (here
    an await that never returns) prints its tasks' and threads' stacks and exits 1."""
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", OVERDUE], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert time.monotonic() - started < 30
    assert "not stopped 0.5 s after the signal" in result.stderr
    assert "never_answers" in result.stderr  # the task's stack
    assert "Current thread" in result.stderr or "Thread 0x" in result.stderr  # every thread's


def test_sigterm_tells_every_client_and_loses_no_move(tmp_path: Path) -> None:
    """SIGTERM: the server is not ready any more, every connection hears ``draining`` and
    is closed, the moves already accepted are in the store, the process exits 0; started
    again on the same store it resumes the table."""
    store = f"sqlite:///{tmp_path / 'tables.db'}"
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "diabolo", "serve", "--port", str(port), "--store", store],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        running = Running(port)
        deadline = time.monotonic() + 30
        while True:
            try:
                if running.http.get("/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        table = running.create(game="schacht", options={"players": 3}, seats=[{}, {}, {}], seed=3)
        tokens = [running.sit(table["id"], f"p{s}", s)[1] for s in range(3)]
        mirror = diabolo.load("schacht", players=3).new_state(seed=3)
        with connect(f"ws://127.0.0.1:{port}/ws/{table['id']}") as connection:
            seat = mirror.pending_seats[0]
            connection.send(json.dumps({"type": "hello", "seat": seat, "token": tokens[seat]}))
            receive(connection)
            move = str(mirror.legal_moves(seat)[0])
            connection.send(json.dumps({"type": "move", "move": move}))
            heard: list[dict[str, Any]] = []
            while not heard or heard[-1]["type"] != "accepted":
                heard.append(receive(connection))
            process.send_signal(signal.SIGTERM)
            last = receive(connection, timeout=15)
            assert last["type"] == "error" and last["reason"] == last["code"] == "draining"
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    with running_server(store) as again:
        listed = again.http.get("/api/tables").json()["tables"]
        assert [(t["id"], t["version"]) for t in listed] == [(table["id"], 1)]
