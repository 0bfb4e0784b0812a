"""Load on the game server: many tables played over websockets on loopback, for a fixed
time, by one server process and by two. The server runs as `diabolo serve` in processes
of its own; this process is the players: every seat of every table is a websocket client
that plays a random legal move as soon as it has one. Each setup prints accepted moves
per second, the latency from a move's send to its answer reaching the mover (p50, p99),
the servers' memory per table and CPU time per move, and checks that no accepted move was
lost: the moves the clients saw accepted are the moves the store holds. The baseline,
measured in the same run, is the engine's own work for a move of the server, in one
process without the network: the ratio says how much of the server's time is the engine.

The setups (``--setups``, default the first three): ``sqlite:1``, one process with its SQLite
file (the embedded default); ``cluster:1`` and ``cluster:2``, one and two processes
sharing a PostgreSQL store and a Redis server, the tables made round-robin on the
processes and every seat of a table connected to one process, not the one that made it
(as a proxy that routes by the table's id would: the table follows its people there, and
nothing is relayed); and ``bare:1``, the web stack alone (benchmarks/bare_server.py:
uvicorn and Starlette answering each move as a table does, three updates and the answer,
with no game and no store), the floor under the server's own cost per move. The
cluster setups start a throwaway PostgreSQL and redis-server (Debian's packages, as the
tests do) unless ``--store`` and ``--redis`` name running ones. It needs only the server
extra: ``pip install "diabolo[server]"``.

    python benchmarks/server_load.py [--tables 200] [--game schacht] [--players 3] [--seconds 20] [--pace 0]
                                     [--busy 0] [--route table]

``--route spread`` connects each seat to the next process in turn instead (a proxy
without affinity), so that about half of the messages are relayed through Redis. Each
setup also prints what went wrong on the servers' side: connections dropped (and why),
lease renewals that failed, tables a process lost to another. ``--busy N`` keeps N more
processes spinning on the CPU meanwhile (a machine whose cores are busy with other work).

With --pace 0 every seat moves as soon as it may: the server is saturated, the figure is
its throughput, and the latency is mostly waiting in line (tables / moves per second).
With a pace (a person's thinking time) the load is what people make, and the latency is
what they would feel.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import glob
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system, all threads) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def engine_moves_per_second(args: argparse.Namespace, seconds: float = 3.0) -> float:
    """The baseline, in this process: the engine's work for one accepted move of the
    server (the move tried on a copy, applied to the record, every audience's events as
    JSON, every seat's legal moves), on random games of the same options, per CPU second."""
    import diabolo

    options: dict[str, Any] = {"players": args.players, "rounds": args.rounds}
    game = diabolo.load(args.game, **options)
    rng = random.Random(2)
    moves, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        record = diabolo.Record(game.new_state(seed=moves))
        state: Any = record.state
        while not state.is_terminal and time.process_time() - started < seconds:
            seat = rng.choice(state.pending_seats)
            trial = state.clone()
            trial.apply(rng.choice(trial.legal_moves(seat)), player=seat, version=state.version)
            record.apply(trial.last_move[1], player=seat, time=0.0)
            json.dumps(state.public_events())
            for audience in range(game.players):
                json.dumps(state.events_for(audience))
                [str(move) for move in state.legal_moves(audience)]
            moves += 1
    return moves / (time.process_time() - started)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Seat:
    """One person's connection: plays a random legal move whenever it has one."""

    def __init__(self, url: str, table: str, seat: int, token: str, rng: random.Random, pace: float) -> None:
        self.url, self.table, self.seat, self.token, self.rng, self.pace = url, table, seat, token, rng, pace
        self.accepted = 0
        self.dropped = ""  # why the server ended the connection, if it did
        self.latencies: list[float] = []
        self.rejected = 0
        self.ended = False  # the table's game ended before the time was up

    async def play(self, stop: float) -> None:
        async with connect(f"{self.url}/ws/{self.table}", max_size=2**24, compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token}))
            # one time-out for the whole run, not one per message: the players share the
            # server's cores, and what they spend is taken from the server
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._converse(ws, stop), max(0.01, stop - time.monotonic()))

    async def _converse(self, ws: Any, stop: float) -> None:
        sent_at: float | None = None
        legal: list[str] = []
        version = 0
        while time.monotonic() < stop:
            try:
                message = json.loads(await ws.recv(decode=False))
            except ConnectionClosed as closed:
                self.dropped = self.dropped or f"closed {closed.rcvd.code if closed.rcvd else 'without a code'}"
                break
            kind = message["type"]
            if kind == "error":
                self.dropped = f"error {message.get('reason')}: {message.get('message')}"
            if kind in ("accepted", "rejected") and sent_at is not None:
                # The answer leaves after the move's updates: send -> broadcast done.
                self.latencies.append(time.monotonic() - sent_at)
                sent_at = None
                self.accepted += kind == "accepted"
                self.rejected += kind == "rejected"
            elif kind in ("update", "welcome"):
                legal, version = message.get("legal", []), message["version"]
                self.ended = self.ended or any(event["type"] == "game_ended" for event in message.get("events", ()))
            # The latest news decides, also when it came while a move was on its way
            # (the same seat may be next: a doubler decision, then its card).
            if sent_at is None and legal and time.monotonic() < stop:
                if self.pace:  # a person's thinking time, spread so that tables do not move in step
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.pace)
                try:
                    await ws.send(json.dumps({"type": "move", "move": self.rng.choice(legal), "version": version}))
                except ConnectionClosed as closed:
                    self.dropped = f"closed {closed.rcvd.code if closed.rcvd else 'without a code'}"
                    break
                sent_at, legal = time.monotonic(), []


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


async def run(args: argparse.Namespace, urls: list[str]) -> tuple[list[Seat], list[str]]:
    """Makes the tables (round-robin on the processes), seats the people, and plays."""
    tables, seats = [], []
    rng = random.Random(1)
    for t in range(args.tables):
        options: dict[str, Any] = {"players": args.players, "rounds": args.rounds}
        if args.game == "duvelen":
            options["max_actions"] = 100_000
        body = {"game": args.game, "options": options, "seats": [{}] * args.players, "seed": t}
        made = await asyncio.to_thread(post, f"{urls[t % len(urls)]}/api/tables", body)
        table = made["table"]["id"]
        tables.append(table)
        for s in range(args.players):
            url = urls[(t + (s if args.route == "spread" else 0) + 1) % len(urls)]
            sat = await asyncio.to_thread(post, f"{url}/api/tables/{table}/seats", {"name": f"p{s}", "seat": s})
            ws_url = url.replace("http", "ws")
            seats.append(Seat(ws_url, table, s, sat["token"], random.Random(rng.random()), args.pace))
    stop = time.monotonic() + args.seconds
    await asyncio.gather(*(seat.play(stop) for seat in seats))
    return seats, tables


def start(store: str, redis: str) -> tuple[subprocess.Popen[str], str]:
    """A `diabolo serve` process (for the store ``bare``, benchmarks/bare_server.py), ready:
    it and its URL. What it prints goes to a file (a pipe nobody reads would stop a process
    that logs much), read back by ``printed``."""
    port = free_port()
    command = [sys.executable, "-m", "diabolo", "serve", "--port", str(port), "--store", store]
    if store == BARE:
        command = [sys.executable, str(Path(__file__).with_name("bare_server.py")), "--port", str(port)]
    env = {**os.environ, "DIABOLO_SERVER_MAX_TABLES": "100000", "DIABOLO_SERVER_TABLES_PER_CLIENT": "100000"}
    env.update(DIABOLO_SERVER_CREATIONS_PER_MINUTE="1000000", DIABOLO_SERVER_CONNECTIONS_PER_CLIENT="100000")
    env.update(DIABOLO_SERVER_CONNECTIONS="100000", DIABOLO_SERVER_RATE="1000")
    output = tempfile.TemporaryFile("w+")
    process = subprocess.Popen(
        [*command, *(["--redis", redis] if redis else [])], env=env, stdout=output, stderr=subprocess.STDOUT, text=True
    )
    OUTPUTS[process.pid] = output
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=1):
                return process, url
        except OSError:
            assert process.poll() is None, "the server did not start"
            time.sleep(0.1)
    raise RuntimeError("the server did not get ready")


BARE = "bare"
"""The store of the ``bare`` setup: none (benchmarks/bare_server.py)."""

OUTPUTS: dict[int, Any] = {}
"""Each server process's output file, by pid."""


def printed(pid: int) -> str:
    output = OUTPUTS[pid]
    output.seek(0)
    text: str = output.read()
    return text


def spin(seconds: float) -> None:
    """A process that keeps one core busy for ``seconds``."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        pass


def stored_moves(store: str) -> dict[str, int]:
    query = "SELECT table_id, count(*) FROM diabolo_moves GROUP BY table_id"
    if store.startswith("sqlite:///"):
        return dict(sqlite3.connect(store[len("sqlite:///") :]).execute(query).fetchall())
    import psycopg

    with psycopg.connect(store) as connection:
        return {table: count for table, count in connection.execute(query).fetchall()}


def latency_text(latencies: list[float]) -> str:
    """p50 / p99 of sorted latencies, in ms; n/a when no move was answered before the end
    (a run shorter than a move's round trip, or a server too slow to answer in it)."""
    if not latencies:
        return "n/a (no move answered in the time)"
    return f"{statistics.median(latencies) * 1e3:.1f} / {latencies[int(len(latencies) * 0.99)] * 1e3:.1f} ms"


def cpu_lines(server_cpu: float, stored: int, engine: float) -> list[str]:
    """The servers' CPU per stored move and the engine's share of it; n/a without a stored
    move, or when the run was shorter than the clock tick /proc counts CPU time in (10 ms on
    most systems)."""
    if stored == 0 or server_cpu <= 0:
        why = "no move stored" if stored == 0 else "no CPU tick counted"
        return [
            f"  server CPU per stored move: n/a ({why}; {server_cpu:.1f} s of CPU in all)",
            "  the engine's share of the server's CPU per move: n/a",
        ]
    per_move = server_cpu / stored
    return [
        f"  server CPU per stored move: {per_move * 1e6:,.0f} us ({server_cpu:.1f} s of CPU in all)",
        f"  the engine's share of the server's CPU per move: {1 / engine / per_move:.0%}",
    ]


def measure(args: argparse.Namespace, store: str, redis: str, processes: int, engine: float) -> None:
    import multiprocessing

    servers = [start(store, redis) for _ in range(processes)]
    spinners = [multiprocessing.Process(target=spin, args=(args.seconds + 600,)) for _ in range(args.busy)]
    for spinner in spinners:
        spinner.start()
    try:
        pids = [server.pid for server, _ in servers]
        memory_before = sum(rss_kib(pid) for pid in pids)
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        started = time.monotonic()
        seats, tables = uvloop.run(run(args, [url for _, url in servers]))
        elapsed = time.monotonic() - started
        memory_after = sum(rss_kib(pid) for pid in pids)
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
    finally:
        for spinner in spinners:
            spinner.terminate()
        for server, _ in servers:
            server.terminate()
            server.wait(30)
    logs = "".join(printed(server.pid) for server, _ in servers)
    seen: dict[str, int] = {}
    for seat in seats:
        seen[seat.table] = seen.get(seat.table, 0) + seat.accepted
    stored = seen if store == BARE else stored_moves(store)  # the bare stack stores nothing
    lost = sum(seen.get(t, 0) - stored.get(t, 0) for t in tables if seen.get(t, 0) > stored.get(t, 0))
    latencies = sorted(x for seat in seats for x in seat.latencies)
    accepted = sum(seen.values())
    kind = (
        "the web stack alone (benchmarks/bare_server.py: no game, no store)"
        if store == BARE
        else "SQLite"
        if store.startswith("sqlite")
        else "PostgreSQL and Redis"
    )
    print(f"{processes} process{'es' if processes > 1 else ''}, {kind}:")
    print(f"  connections:            {len(seats)}")
    print(f"  accepted moves:         {accepted:,} ({accepted / args.seconds:,.0f} a second)")
    ended = len({seat.table for seat in seats if seat.ended})
    if ended:  # its seats waited out the rest of the time: the server was not loaded to the end
        print(
            f"  NOTE: {ended} of {len(tables)} games ended before the time was up: "
            "the rates count idle time (raise --rounds)"
        )
    print(f"  refused moves:          {sum(seat.rejected for seat in seats):,}")
    dropped = collections.Counter(seat.dropped for seat in seats if seat.dropped)
    print(f"  connections dropped:    {sum(dropped.values()):,}")
    for why, count in dropped.most_common(3):
        print(f"    {count:,}: {why}")
    renewals_failed = logs.count("the lobby's renew failed")
    print(f"  lease renewals failed:  {renewals_failed}")
    print(f"  tables lost to another process: {logs.count('another process holds it now')}")
    print(f"  send -> answer, p50/p99: {latency_text(latencies)}")
    print(f"  server memory per table: {(memory_after - memory_before) / args.tables:,.0f} KiB (RSS growth)")
    if store == BARE:
        print("  moves stored: none (no store); CPU per accepted move below")
        print(cpu_lines(server_cpu, accepted, engine)[0])
    else:
        print(f"  moves stored: {sum(stored.values()):,}; accepted but not stored: {lost}")
        print("\n".join(cpu_lines(server_cpu, sum(stored.values()), engine)))
    print(f"  whole run {elapsed:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--game", default="schacht", choices=["schacht", "duvelen"])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--pace", type=float, default=0, help="seconds a seat thinks before its move (0: at once, to saturate)"
    )
    parser.add_argument(
        "--rounds", type=int, default=32, help="rounds a game has (32 at most): enough that none ends in the run"
    )
    parser.add_argument("--setups", nargs="+", default=["sqlite:1", "cluster:1", "cluster:2"])
    parser.add_argument("--store", help="a running PostgreSQL for the cluster setups (emptied of diabolo's tables)")
    parser.add_argument("--redis", help="a running Redis for the cluster setups")
    parser.add_argument("--busy", type=int, default=0, help="processes that keep a core busy meanwhile")
    parser.add_argument(
        "--route",
        choices=["spread", "table"],
        default="table",
        help="every seat of a table to one process (a proxy that routes by table, as docs/server.rst advises)"
        " other than the one that made it, or each seat to the next process in turn (a proxy without affinity)",
    )
    args = parser.parse_args()
    if not args.seconds > 0 or args.tables < 1:  # the rates are per second and per table
        parser.error("--seconds must be positive and --tables at least 1")
    print(
        f"server load: {args.tables} {args.game} tables of {args.players} people over websockets, {args.seconds:.0f} s,"
        f" {args.pace} s to think, {args.busy} other processes busy, seats routed: {args.route}"
    )
    engine = engine_moves_per_second(args)
    print(f"baseline, the engine's part of a move in one process: {1e6 / engine:,.0f} us ({engine:,.0f} a second)")
    with contextlib.ExitStack() as stack:
        for setup in args.setups:
            kind, processes = setup.split(":")
            if kind == BARE:
                measure(args, BARE, "", int(processes), engine)
                continue
            if kind == "sqlite":
                folder = Path(tempfile.mkdtemp(prefix="diabolo-load-"))
                measure(args, f"sqlite:///{folder / 'tables.db'}", "", int(processes), engine)
                continue
            store, redis = args.store, args.redis
            missing = [
                tool
                for tool in ("initdb", "redis-server")
                if not shutil.which(tool) and not glob.glob(f"/usr/lib/postgresql/*/bin/{tool}")
            ]
            if (store is None or redis is None) and missing:
                sys.exit(f"the cluster setups need apt-get install postgresql redis-server (missing {missing})")
            if store is None or redis is None:
                sys.path.insert(0, str(ROOT))
                from tests.postgres_helpers import postgres_server
                from tests.redis_helpers import redis_server

                store = store or stack.enter_context(postgres_server())
                redis = redis or stack.enter_context(redis_server())
            empty(store, redis)
            measure(args, store, redis, int(processes), engine)


def empty(store: str, redis_url: str) -> None:
    """A fresh start for a cluster setup: no tables in the store, no leases in Redis."""
    import psycopg
    import redis

    with psycopg.connect(store) as connection:
        for table in ("diabolo_moves", "diabolo_tables"):
            connection.execute(f"DROP TABLE IF EXISTS {table}")
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()


if __name__ == "__main__":
    main()
