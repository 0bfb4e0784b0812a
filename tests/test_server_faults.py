"""Every fault a server meets, survived by the people at its tables: three ``diabolo
serve`` processes on a real PostgreSQL and a real Redis, tables played by people and
watched by spectators whose clients follow the browser client's reconnect rules
(docs/server.rst, "Reconnecting": only ``no_table`` and ``bad_token`` are final; after
any other close, reconnect to any process with jittered backoff and ``since``), and one
real browser page. For each fault (kill -9 of a holder, SIGSTOP past the lease then
SIGCONT, Redis killed and restarted empty, PostgreSQL stopped as a crash and started,
SIGTERM) every client plays again within the lease and 5 s after the fault ends, none
stops for good, no audience is left behind; at the end every event each client heard
is the engine's replay of the store's moves for its audience (nothing lost, nothing
doubled), every move a person was told was accepted is stored. A process paused past
its lease gives no seat that another gave, and deletes no table another plays. The
same faults for one process alone, on PostgreSQL and on SQLite, where they apply. While
Redis or PostgreSQL is down, every process's /readyz answers 503 within a second."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("redis", reason='the fault tests need pip install "diabolo[server]"')

import httpx  # noqa: E402
import psycopg  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

import diabolo  # noqa: E402
from tests.cluster_helpers import Process  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.postgres_helpers import Cluster
    from tests.redis_helpers import RedisServer

LEASE = 3.0
"""The lease of these processes: a client plays again within LEASE + 5 s of a fault's end."""
SETTINGS: dict[str, Any] = {"lease_seconds": LEASE, "idle_table_seconds": 6}
"""An idle table expires after 6 s, so that a process paused longer would delete its tables if it could."""
FINAL = ("no_table", "bad_token")
PACE = 0.3
"""Seconds a person waits after what the table said before moving: a game lasts minutes."""


class Follower(threading.Thread):
    """A client that follows the browser client's rules: it says hello with ``since`` to
    a process (each in turn), plays the first of its legal moves PACE after the table's last word (a person) or watches
    (a spectator), keeps every event it hears by version, and after any close that is
    not final reconnects after 0.5..1 x 0.25 s, 0.5 s, 1 s, 2 s, then 4 s."""

    def __init__(self, urls: list[str], table_id: str, seat: int | None = None, token: str | None = None) -> None:
        super().__init__(daemon=True)
        self.urls, self.table_id, self.seat, self.token = urls, table_id, seat, token
        self.version = 0
        self.events: dict[int, list[dict[str, Any]]] = {}
        self.heard_at: list[float] = []  # when each new version arrived
        self.accepted: list[str] = []
        self.final: dict[str, Any] | None = None  # the answer it stopped on for good
        self.gaps: list[tuple[int, int]] = []
        self.welcomes = 0
        self.stopping = threading.Event()
        self.next_move = 0.0

    def run(self) -> None:
        retries, turn = 0, random.randrange(len(self.urls))
        while not self.stopping.is_set() and self.final is None:
            url = self.urls[turn % len(self.urls)].replace("http", "ws")
            turn += 1
            welcomes = self.welcomes
            with contextlib.suppress(OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                self._converse(url)
            if self.final is not None or self.stopping.is_set():
                return
            retries = 1 if self.welcomes > welcomes else retries + 1  # a welcome starts the backoff again
            ceiling = min(4.0, 0.25 * 2 ** min(retries - 1, 4))
            self.stopping.wait(ceiling / 2 + random.random() * ceiling / 2)

    def _converse(self, url: str) -> None:
        hello: dict[str, Any] = {"type": "hello", "since": self.version}
        if self.seat is not None:
            hello.update(seat=self.seat, token=self.token)
        with connect(f"{url}/ws/{self.table_id}", open_timeout=3, close_timeout=1) as connection:
            connection.send(json.dumps(hello))
            legal: list[str] = []
            pending: str | None = None
            while not self.stopping.is_set():
                if legal and pending is None and time.monotonic() > self.next_move:
                    pending = legal[0]
                    connection.send(json.dumps({"type": "move", "move": pending, "version": self.version}))
                try:
                    message = json.loads(connection.recv(timeout=0.1))
                except TimeoutError:
                    continue
                kind = message["type"]
                if kind not in ("pong", "presence"):  # the table moved on: think again
                    self.next_move = time.monotonic() + PACE
                if kind == "welcome":
                    self.welcomes += 1
                    for missed in message.get("missed", []):
                        self._heard(missed["version"], missed["events"])
                    if message["version"] != self.version:  # resumed from the view: a gap
                        self.gaps.append((self.version, message["version"]))
                        self.version = message["version"]
                    legal = message.get("legal", [])
                elif kind == "update":
                    self._heard(message["version"], message["events"])
                    legal = message.get("legal", [])
                elif kind == "accepted":
                    assert pending is not None
                    self.accepted.append(pending)
                    pending = None
                elif kind == "rejected":
                    pending = None
                elif kind == "error":
                    if message["reason"] in FINAL:
                        self.final = message
                    return

    def _heard(self, version: int, events: list[dict[str, Any]]) -> None:
        if version != self.version + 1:
            self.gaps.append((self.version, version))
        self.version = version
        self.events[version] = events
        self.heard_at.append(time.monotonic())

    def playing_since(self, moment: float) -> bool:
        return bool(self.heard_at) and self.heard_at[-1] > moment


def duvelen_table(process: Process, seed: int) -> tuple[str, str]:
    """A long Duvelen table made on ``process`` with a person's seat taken: its id and the token."""
    pace = {"delays": {"play": [0.3, 0.05], "turn": [0.3, 0.05], "recycle": [0.3, 0.05]}, "minimum": 0.1}
    table = process.create(
        game="duvelen",
        options={"players": 3, "max_actions": 100000},
        seats=[
            {"name": "Ann"},
            {"bot": "greedy", "options": {"reaction": pace}},
            {"bot": "random", "options": {"reaction": pace}},
        ],
        seed=seed,
    )
    return table["id"], process.sit(table["id"], "Ann", 0)


class Ward:
    """The processes and the followers of a test, and the checks after each fault."""

    def __init__(self, processes: list[Process]) -> None:
        self.processes = processes
        self.followers: list[Follower] = []
        self.recoveries: dict[str, float] = {}

    @property
    def urls(self) -> list[str]:
        return [process.url for process in self.processes]

    def follow(self, table_id: str, seat: int | None = None, token: str | None = None) -> Follower:
        follower = Follower(self.urls, table_id, seat, token)
        self.followers.append(follower)
        follower.start()
        return follower

    def holder(self, table_id: str, redis_url: str) -> Process:
        import redis

        node = redis.Redis.from_url(redis_url, decode_responses=True).get(f"diabolo:lease:{table_id}")
        return next(process for process in self.processes if node == process.node)

    def recovered(self, fault: str, ended: float) -> None:
        """Every follower hears a new version within LEASE + 5 s of ``ended``; none stopped for good."""
        deadline = ended + LEASE + 5
        waiting = list(self.followers)
        while waiting and time.monotonic() < deadline:
            waiting = [f for f in waiting if not f.playing_since(ended)]
            time.sleep(0.05)
        assert not [f.final for f in self.followers if f.final], fault
        assert not waiting, f"{fault}: {len(waiting)} clients not playing again {LEASE + 5:g} s after it ended"
        self.recoveries[fault] = max(min(t for t in f.heard_at if t > ended) for f in self.followers) - ended
        print(f"{fault}: every client playing again {self.recoveries[fault]:.2f} s after it ended")

    def stop(self) -> None:
        for follower in self.followers:
            follower.stopping.set()
        for follower in self.followers:
            follower.join(15)


def heard_what_was_stored(store_url: str, follower: Follower) -> None:
    """The events ``follower`` heard, version by version, are the engine's for its
    audience on replaying the store's moves, and every move it was told was accepted is
    stored (none lost, none doubled, no gap)."""
    with psycopg.connect(store_url) as db:
        game, options, start = db.execute(
            "SELECT game, options, start FROM diabolo_tables WHERE id = %s", (follower.table_id,)
        ).fetchone()  # type: ignore[misc]
        moves = db.execute(
            "SELECT seat, move FROM diabolo_moves WHERE table_id = %s ORDER BY number", (follower.table_id,)
        ).fetchall()
    state = diabolo.load(game, **json.loads(options)).state_from_json(start)
    shown = []
    for seat, move in moves:
        state.apply(move, player=seat)
        events = state.public_events() if follower.seat is None else state.events_for(follower.seat)
        if events or seat == follower.seat:
            shown.append(events)
    assert not follower.gaps, follower.gaps
    heard = [follower.events[v] for v in sorted(follower.events)]
    assert heard == shown[: len(heard)]
    assert len(heard) > len(shown) - 200, "the client fell behind the table"  # no audience left behind
    mine = [move for seat, move in moves if seat == follower.seat]
    for move in set(follower.accepted):
        assert mine.count(move) >= follower.accepted.count(move)


@contextlib.contextmanager
def ward(store: str, redis: str, count: int) -> Iterator[Ward]:
    started: list[Process] = []
    keeper = Ward(started)
    try:
        for _ in range(count):
            started.append(Process(store, redis, **SETTINGS))
        yield keeper
    finally:
        keeper.stop()
        for process in started:
            process.stop()


def test_every_fault_of_a_cluster_is_survived_by_everyone_at_its_tables(
    postgres_url: str, redis_url: str, postgres_service: Cluster, redis_service: RedisServer, browser: Browser
) -> None:
    with ward(postgres_url, redis_url, 3) as keeper:
        tables = [duvelen_table(process, seed) for seed, process in enumerate(keeper.processes)]
        for table_id, token in tables:
            keeper.follow(table_id, 0, token)
            keeper.follow(table_id)
        page = browser.new_page()
        try:
            watched = tables[0][0]
            server_of_page = next(p for p in keeper.processes if p is not keeper.holder(watched, redis_url))
            page.goto(f"{server_of_page.url}/client/table.html?table={watched}&watch=1")
            page.wait_for_function("window.diabolo && window.diabolo.welcomes >= 1", timeout=15000)
            keeper.recovered("start", time.monotonic() - 1)

            # kill -9 of the process that plays the page's table; another takes it over
            victim = keeper.holder(watched, redis_url)
            page_version = page.evaluate("window.diabolo.version")
            victim.stop(signal.SIGKILL)
            ended = time.monotonic()
            keeper.processes[keeper.processes.index(victim)] = Process(
                postgres_url, redis_url, port=victim.port, **SETTINGS
            )
            keeper.recovered("kill -9", ended)
            page.wait_for_function(f"window.diabolo.version > {page_version} + 5", timeout=(LEASE + 5) * 1000)
            assert page.evaluate("document.getElementById('connection').dataset.state") != "closed"

            # SIGSTOP past the lease, then SIGCONT: the paused process gives up its tables
            paused = keeper.holder(tables[1][0], redis_url)
            paused.process.send_signal(signal.SIGSTOP)
            time.sleep(LEASE + 7)  # past the lease and the idle expiry of its tables
            paused.process.send_signal(signal.SIGCONT)
            keeper.recovered("SIGSTOP past the lease", time.monotonic())

            # Redis killed and started again, empty
            redis_service.kill()
            not_ready(keeper.processes)
            time.sleep(1)
            redis_service.start()
            keeper.recovered("Redis restart", time.monotonic())
            ready(keeper.processes)

            # PostgreSQL stopped as a crash, and started again 5 s later
            postgres_outage(postgres_service, keeper)

            # SIGTERM: the process drains and hands its tables over
            leaving = keeper.holder(tables[2][0], redis_url)
            leaving.stop(signal.SIGTERM)
            assert leaving.process.returncode == 0, leaving.printed()[-4000:]
            keeper.processes[keeper.processes.index(leaving)] = Process(
                postgres_url, redis_url, port=leaving.port, **SETTINGS
            )
            keeper.recovered("SIGTERM", time.monotonic())
            assert page.evaluate("document.getElementById('connection').dataset.state") != "closed"
        finally:
            page.close()
        keeper.stop()
        for follower in keeper.followers:
            heard_what_was_stored(postgres_url, follower)
        with psycopg.connect(postgres_url) as db:  # no live table deleted
            running = {row[0] for row in db.execute("SELECT id FROM diabolo_tables WHERE record IS NULL")}
        assert {table_id for table_id, _ in tables} <= running
        print("recoveries:", {fault: round(seconds, 2) for fault, seconds in keeper.recoveries.items()})


def postgres_outage(postgres: Cluster, keeper: Ward) -> None:
    """PostgreSQL stopped as a crash and started again about 5 s later: /readyz says so
    meanwhile, and every client plays again after."""
    postgres.stop()
    not_ready(keeper.processes)
    time.sleep(4)
    postgres.start()
    keeper.recovered("PostgreSQL restart", time.monotonic())
    ready(keeper.processes)


def not_ready(processes: list[Process]) -> None:
    """Every process's /readyz answers 503 within a second (its store or Redis does not answer)."""
    for process in processes:
        started = time.monotonic()
        answer = process.http.get("/readyz")
        assert answer.status_code == 503 and time.monotonic() - started < 1.5, (answer.status_code, answer.text)


def ready(processes: list[Process]) -> None:
    """Every process's /readyz answers 200 again within a few seconds."""
    for process in processes:
        deadline = time.monotonic() + 10
        while process.http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_a_process_paused_past_its_lease_gives_no_seat_twice_and_deletes_nothing(
    postgres_url: str, redis_url: str
) -> None:
    """A seat request queued at a process that is paused past its lease (SIGSTOP) is
    answered, once it wakes, without giving the seat another process gave meanwhile;
    its expiry sweep deletes none of the tables it held, which play on elsewhere."""
    with ward(postgres_url, redis_url, 2) as keeper:
        paused, live = keeper.processes
        waiting = paused.create(game="schacht", options={"players": 3}, seats=[{}, {}, {"bot": "random"}], seed=5)
        paused.sit(waiting["id"], "Ann", 0)
        playing, token = duvelen_table(paused, 7)
        person = keeper.follow(playing, 0, token)
        paused.process.send_signal(signal.SIGSTOP)
        answers: list[httpx.Response] = []
        queued = threading.Thread(
            target=lambda: answers.append(
                httpx.post(
                    f"{paused.url}/api/tables/{waiting['id']}/seats", json={"name": "Bea", "seat": 1}, timeout=60
                )
            )
        )
        queued.start()
        time.sleep(LEASE + 1)
        given = live.http.post(f"/api/tables/{waiting['id']}/seats", json={"name": "Cai", "seat": 1})
        assert given.status_code == 200, given.text
        time.sleep(SETTINGS["idle_table_seconds"])  # past the idle expiry of the paused copies
        paused.process.send_signal(signal.SIGCONT)
        queued.join(30)
        assert answers and answers[0].status_code != 200, answers  # refused: try again (and then it is taken)
        with psycopg.connect(postgres_url) as db:
            row = db.execute("SELECT seats FROM diabolo_tables WHERE id = %s", (waiting["id"],)).fetchone()
        assert row is not None and json.loads(row[0])[1]["name"] == "Cai"
        woke = time.monotonic()
        while not person.playing_since(woke):
            late = time.monotonic() - woke
            assert late < LEASE + 5 and person.final is None, (
                person.final,
                person.welcomes,
                person.version,
                late,
                paused.printed()[-3000:],
                live.printed()[-3000:],
            )
            time.sleep(0.05)
        time.sleep(SETTINGS["idle_table_seconds"])  # a sweep of the woken process had its chance
        with psycopg.connect(postgres_url) as db:
            running = {row[0] for row in db.execute("SELECT id FROM diabolo_tables WHERE record IS NULL")}
        assert playing in running
        keeper.stop()
        heard_what_was_stored(postgres_url, person)


@pytest.mark.parametrize("store", ["postgresql", "sqlite"])
def test_one_process_alone_survives_its_faults(
    store: str, postgres_url: str, postgres_service: Cluster, tmp_path: Any
) -> None:
    """One process alone: a kill -9 and a SIGTERM, each followed by a restart on the same
    port, and (on PostgreSQL) a PostgreSQL restart under play: every client plays again,
    none stops for good, nothing heard differs from the store."""
    url = postgres_url if store == "postgresql" else f"sqlite:///{tmp_path / 'tables.db'}"
    process = Process(url, "", lease_seconds=LEASE, idle_table_seconds=60)
    keeper = Ward([process])
    try:
        table_id, token = duvelen_table(process, 11)
        keeper.follow(table_id, 0, token)
        keeper.follow(table_id)
        keeper.recovered("start", time.monotonic() - 1)
        for how in (signal.SIGKILL, signal.SIGTERM):
            port = process.port
            process.stop(how)
            process = Process(url, "", port=port, lease_seconds=LEASE, idle_table_seconds=60)
            keeper.processes[0] = process
            keeper.recovered(f"signal {how.name} and a restart", time.monotonic())
        if store == "postgresql":
            postgres_outage(postgres_service, keeper)
        keeper.stop()
        if store == "postgresql":
            for follower in keeper.followers:
                heard_what_was_stored(url, follower)
        assert not [f.gaps for f in keeper.followers if f.gaps]
    finally:
        keeper.stop()
        process.stop()
