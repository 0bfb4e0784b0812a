"""Several ``diabolo serve`` processes as one server, on loopback with a real PostgreSQL
(the store of record) and a real Redis (leases, relays, the lobby's list): a client may
use any process for any table, and when the process that plays a table dies (kill -9) or
is told to stop (SIGTERM), another takes it over from the store, the clients reconnect
with ``since``, and no accepted move is lost or doubled."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import threading
import time
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("redis", reason='the cluster tests need pip install "diabolo[server]"')

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import ClientConnection  # noqa: E402

import diabolo  # noqa: E402
from diabolo.server.cluster import Cluster  # noqa: E402
from diabolo.server.config import ServerConfig  # noqa: E402
from diabolo.server.lobby import Lobby  # noqa: E402
from diabolo.server.store import open_store  # noqa: E402
from tests.cluster_helpers import LEASE_SECONDS, Process, processes, receive  # noqa: E402
from tests.test_server_limits import create_at_once  # noqa: E402
from tests.test_server_talk import next_of, nothing_but_pong, told  # noqa: E402

if TYPE_CHECKING:
    from tests.redis_helpers import RedisServer


class Person:
    """A person at a Duvelen table who plays a legal move whenever there is one, keeps
    every event they were told, version by version, and reconnects with ``since`` to
    another process when the connection ends."""

    def __init__(self, table_id: str, seat: int, token: str) -> None:
        self.table_id, self.seat, self.token = table_id, seat, token
        self.version = 0
        self.events: dict[int, list[dict[str, Any]]] = {}
        self.accepted: list[str] = []  # the moves the table answered "accepted"
        self.pending: str | None = None  # a move sent, not answered yet
        self.connection: ClientConnection | None = None
        self.welcomes = 0
        self.over = False
        self.legal: list[str] = []
        self.connections = contextlib.ExitStack()

    def join(self, process: Process) -> dict[str, Any]:
        self.connection = process.connect(
            self.connections, self.table_id, seat=self.seat, token=self.token, since=self.version
        )
        welcome = receive(self.connection)
        assert welcome["type"] == "welcome", welcome
        self.welcomes += 1
        for missed in welcome.get("missed", []):
            self._heard(missed["version"], missed["events"])
        assert welcome["version"] == self.version, (welcome["version"], self.version)  # resumed, no gap
        self.legal = welcome["legal"]
        return welcome

    def _heard(self, version: int, events: list[dict[str, Any]]) -> None:
        assert version == self.version + 1, (version, self.version)
        self.version = version
        self.events[version] = events
        self.over = self.over or any(event["type"] == "game_ended" for event in events)

    def step(self) -> bool:
        """Plays and hears one message; False when the connection ended."""
        assert self.connection is not None
        try:
            if self.legal and self.pending is None:
                self.pending = self.legal[0]
                self.connection.send(json.dumps({"type": "move", "move": self.pending, "version": self.version}))
            message = receive(self.connection, timeout=15)
        except (ConnectionClosed, TimeoutError):
            return False
        if message["type"] == "update":
            self._heard(message["version"], message["events"])
            self.legal = message.get("legal", [])
        elif message["type"] == "accepted":
            assert self.pending is not None
            self.accepted.append(self.pending)
            self.pending = None
        elif message["type"] == "rejected":
            assert message["reason"] in ("stale", "illegal", "moved", "draining"), message
            self.pending = None
        elif message["type"] == "error":
            assert message["reason"] in ("moved", "draining"), message
            return False
        return True

    def reconnect(self, processes: list[Process]) -> float:
        """Reconnects to the first of ``processes`` that welcomes it again: the seconds it took."""
        started = time.monotonic()
        self.pending = None  # a move sent to the lost process: its fate shows in what was missed
        while True:
            for process in processes:
                with contextlib.suppress(OSError, ConnectionClosed, TimeoutError, AssertionError, KeyError):
                    welcome = self.join(process)
                    if welcome:
                        return time.monotonic() - started
            assert time.monotonic() - started < 60, "no process took the table over"
            time.sleep(0.2)


def quick_duvelen() -> dict[str, Any]:
    quick = {"delays": {"play": [0.05, 0.01], "turn": [0.05, 0.01], "recycle": [0.05, 0.01]}, "minimum": 0.01}
    return {
        "game": "duvelen",
        "options": {"players": 3, "max_actions": 300},
        "seats": [
            {"name": "Ann"},
            {"bot": "greedy", "options": {"reaction": quick}},
            {"bot": "random", "options": {"reaction": quick}},
        ],
        "seed": 3,
    }


def check_nothing_lost(process: Process, person: Person) -> None:
    """The finished game's record holds every move the person saw accepted, once, and the
    events the person heard are the engine's for that seat, version by version."""
    record = diabolo.Record.load(process.http.get(f"/api/tables/{person.table_id}/record").text)
    mine = [step.move for step in record.moves if step.seat == person.seat]
    for move in set(person.accepted):
        assert mine.count(move) >= person.accepted.count(move)
    shown = []
    states = list(record.states())
    for step, state in zip(record.moves, states[1:]):
        events = state.events_for(person.seat)
        if events or step.seat == person.seat:
            shown.append(events)
    assert [person.events[v] for v in sorted(person.events)] == shown


def test_any_process_serves_any_table_and_lists_every_table(postgres_url: str, redis_url: str) -> None:
    """A table made on one process is sat at through a second and played through a third
    (relayed over Redis), watched through the first; every process's lobby lists it. Its
    rematch is asked through the second (the seat already taken, asking again is refused),
    its seat moved to another device through the second and taken through the third (the
    old token then opens nothing), and left through the third."""
    with processes(3, postgres_url, redis_url) as (first, second, third):
        table = first.create(**quick_duvelen())
        token = second.sit(table["id"], "Ann", 0)
        person = Person(table["id"], 0, token)
        person.join(third)
        with person.connections, contextlib.ExitStack() as stack:
            spectator = first.connect(stack, table["id"])
            assert receive(spectator)["type"] == "welcome"
            while not person.over:
                assert person.step()
        for process in (first, second, third):  # the lobby's list follows within a quarter of a second
            deadline = time.monotonic() + 5
            while not listed_as_finished(process, table["id"]):
                assert time.monotonic() < deadline
                time.sleep(0.05)
        check_nothing_lost(second, person)
        # a rematch asked through another process than the one that plays the game, left through a third
        answer = second.http.post(f"/api/tables/{table['id']}/rematch", json={"seat": 0, "token": token})
        assert answer.status_code == 201, answer.text
        rematch = answer.json()
        assert rematch["seat"] == 0 and rematch["table"]["id"] != table["id"]
        assert (
            second.http.post(f"/api/tables/{table['id']}/rematch", json={"seat": 0, "token": token}).status_code == 409
        )
        rid = rematch["table"]["id"]
        offer = second.http.post(f"/api/tables/{rid}/handoff", json={"seat": 0, "token": rematch["token"]})
        assert offer.status_code == 201, offer.text
        code = offer.json()["link"].split("handoff=")[1]
        moved = third.http.post(f"/api/tables/{rid}/seats", json={"seat": 0, "handoff": code})
        assert moved.status_code == 200, moved.text
        stale = first.http.post(f"/api/tables/{rid}/leave", json={"seat": 0, "token": rematch["token"]})
        assert stale.json()["error"]["reason"] == "bad_token"
        left = third.http.post(f"/api/tables/{rid}/leave", json={"seat": 0, "token": moved.json()["token"]})
        assert left.json() == {"table": None}


def listed_as_finished(process: Process, table_id: str) -> bool:
    listed = {t["id"]: t for t in process.http.get("/api/tables").json()["tables"]}
    return bool(listed[table_id]["finished"])


@pytest.mark.parametrize("how", ["kill", "term"])
def test_a_process_that_dies_or_stops_loses_its_tables_to_the_others(
    how: str, postgres_url: str, redis_url: str
) -> None:
    """The process that plays a table is killed (kill -9) or told to stop (SIGTERM) in
    the middle of the game: another process takes the table over from the store (within
    a lease and a second after a kill; at once after SIGTERM, which hands it over), the
    person reconnects with ``since`` to a process that is left, hears what they missed,
    and plays to the end; nothing accepted is lost or doubled."""
    with processes(3, postgres_url, redis_url) as group, contextlib.ExitStack() as stack:
        holder, *others = group
        table = holder.create(**quick_duvelen())
        person = Person(table["id"], 0, holder.sit(table["id"], "Ann", 0))
        stack.enter_context(person.connections)
        person.join(holder)
        while person.version < 40:
            assert person.step()
        stopped = time.monotonic()
        holder.stop(signal.SIGKILL if how == "kill" else signal.SIGTERM)
        if how == "term":
            assert holder.process.returncode == 0, holder.printed()
        while person.step():  # what was on its way, up to the end of the connection
            pass
        took = person.reconnect(others)
        failover = time.monotonic() - stopped
        assert failover < (LEASE_SECONDS + 5 if how == "kill" else 5), failover
        print(f"{how}: welcomed again {failover:.2f} s after the stop ({took:.2f} s reconnecting)")
        while not person.over:
            if not person.step():
                person.reconnect(others)
        check_nothing_lost(others[0], person)


def test_a_draining_process_never_takes_back_the_leases_it_let_go(postgres_url: str, redis_url: str) -> None:
    """The drain lets each table's lease go so that another process takes the table at
    once; the lease renewal that comes after it (every third of a lease) must not take
    the lease back. It did (a renewal takes a lease that vanished, as after a Redis
    restart): a process that stopped while its renewal ran held its tables' leases after
    it was gone, and their people waited a lease for another process to take them.
    Closing after the drain ends too: it hung about every second time, waiting for ever
    on a Redis task whose cancellation redis-py's pipeline swallowed (cluster.CLOSE_SECONDS)."""

    async def drain_then_renew(client: str) -> list[str | None]:
        store = await open_store(postgres_url)
        cluster = Cluster(redis_url, LEASE_SECONDS)
        lobby = Lobby(store, ServerConfig(store=postgres_url, redis=redis_url), cluster=cluster)
        await lobby.restore()
        try:
            table = await lobby.create(quick_duvelen(), client)
            assert await cluster.holders([table.id]) == [cluster.node]
            await lobby.drain()
            await lobby.renew()  # the renewal's next round
            return await cluster.holders([table.id])
        finally:
            await lobby.close()
            await store.close()

    for attempt in range(10):
        assert asyncio.run(asyncio.wait_for(drain_then_renew(f"drainer{attempt}"), 30)) == [None], attempt


def test_the_limits_on_making_tables_hold_across_processes_and_a_redis_restart(
    postgres_url: str, redis_url: str, redis_service: RedisServer
) -> None:
    """40 creations sent at once by one client to two processes make at most a burst (a
    third of creations_per_minute) between them; the client's limit of running tables
    holds across the processes, and still holds after Redis restarts empty (the counts
    are rebuilt from the store, which keeps each table's creator)."""
    with processes(2, postgres_url, redis_url, creations_per_minute=30, tables_per_client=12) as group:
        statuses = create_at_once([process.url for process in group], 40)
        assert statuses.count(201) == 10 and statuses.count(429) == 30, statuses
        first, second = group
        time.sleep(20 / 30 * 60 / 10)  # two more creations allowed by the rate: 4 s
        first.create(**quick_duvelen())
        second.create(**quick_duvelen())
        refused = first.http.post("/api/tables", json=quick_duvelen())
        assert refused.status_code == 429 and "12 running tables" in refused.text, refused.text
        redis_service.kill()
        redis_service.start()
        deadline = time.monotonic() + 10
        while True:  # the counts come back from the store within a takeover round
            answer = second.http.post("/api/tables", json=quick_duvelen())
            if answer.status_code == 429 and "12 running tables" in answer.text:
                break
            assert answer.status_code == 503 and time.monotonic() < deadline, answer.text
            time.sleep(0.2)


def test_a_table_follows_its_people_to_their_process(postgres_url: str, redis_url: str) -> None:
    """A table made through one process, whose person says hello through another while
    the first has no connection to it, is handed over to the person's process (nothing of
    its play is relayed then); a spectator through the first process is relayed from the
    new holder, hears every move, and the table does not move again."""
    import redis

    with processes(2, postgres_url, redis_url) as (maker, player):
        table = maker.create(**quick_duvelen())
        person = Person(table["id"], 0, maker.sit(table["id"], "Ann", 0))
        leases = redis.Redis.from_url(redis_url, decode_responses=True)
        assert leases.get(f"diabolo:lease:{table['id']}") == maker.node
        person.join(player)
        assert leases.get(f"diabolo:lease:{table['id']}") == player.node
        with person.connections, contextlib.ExitStack() as stack:
            spectator = maker.connect(stack, table["id"])
            welcome = receive(spectator)
            assert welcome["type"] == "welcome"
            while not person.over:
                assert person.step()
            heard = welcome["version"]
            while heard < listed_version(maker, table["id"]):
                message = receive(spectator)
                if message["type"] == "update":
                    assert message["version"] == heard + 1
                    heard = message["version"]
        assert leases.get(f"diabolo:lease:{table['id']}") in (player.node, None)  # finished: let go or kept
        check_nothing_lost(player, person)


def test_a_table_handed_over_after_its_asker_stopped_waiting_is_taken_at_the_next_hello(
    postgres_url: str, redis_url: str
) -> None:
    """A holder on busy cores (here: paused 2 s) answers a handover after the asking
    process stopped waiting (HANDOVER_SECONDS): the lease is the asker's then, and the
    person's next hello there takes the table at once, not a lease (5 s) later when the
    lease nobody renews runs out."""
    import redis

    with processes(2, postgres_url, redis_url) as (maker, player):
        table = maker.create(**quick_duvelen())
        person = Person(table["id"], 0, maker.sit(table["id"], "Ann", 0))
        time.sleep(2.5)  # past the maker's HANDOVER_GRACE: it hands the table over when asked
        maker.process.send_signal(signal.SIGSTOP)
        resumed = time.monotonic() + 2.0
        timer = threading.Timer(2.0, maker.process.send_signal, [signal.SIGCONT])
        timer.start()
        try:
            with person.connections:
                person.reconnect([player])  # asked and timed out, relayed to the paused maker: moved, and again
                assert time.monotonic() - resumed < 2.0
                leases = redis.Redis.from_url(redis_url, decode_responses=True)
                assert leases.get(f"diabolo:lease:{table['id']}") == player.node
                while not person.over:
                    assert person.step()
        finally:
            timer.cancel()
            maker.process.send_signal(signal.SIGCONT)
        check_nothing_lost(player, person)


def listed_version(process: Process, table_id: str) -> int:
    listed = {t["id"]: t for t in process.http.get("/api/tables").json()["tables"]}
    version: int = listed[table_id]["version"]
    return version


def test_a_call_over_redis_without_the_seats_token_is_refused(postgres_url: str, redis_url: str) -> None:
    """Redis carries no authority: a move published as a call on the holder's channel is
    refused (``bad_token``) without the seat's token, with a wrong one and with another
    seat's, and changes nothing; with the seat's token it is played."""
    import redis

    with processes(1, postgres_url, redis_url) as (holder,):
        table = holder.create(game="schacht", options={"players": 3}, seats=[{}, {}, {}], seed=1)
        tokens = [holder.sit(table["id"], f"p{s}", s) for s in range(3)]
        state = diabolo.load("schacht", players=3).new_state(seed=1)
        seat = state.pending_seats[0]
        move = str(state.legal_moves(seat)[0])
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        answers = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        answers.subscribe("diabolo:answer:forger")

        def call(number: int, token: str | None) -> dict[str, Any]:
            request = {"op": "move", "table": table["id"], "seat": seat, "token": token, "move": move}
            client.publish(
                f"diabolo:call:{holder.node}", json.dumps({**request, "version": None, "id": number, "from": "forger"})
            )
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                message = answers.get_message(timeout=1)
                if message is not None:
                    answer: dict[str, Any] = json.loads(message["data"])
                    return answer
            raise AssertionError("no answer")

        for number, token in enumerate([None, "wrong", tokens[(seat + 1) % 3]]):
            assert call(number, token)["error"]["reason"] == "bad_token"
        assert diabolo.Record.load(holder.http.get(f"/api/tables/{table['id']}/record").text).moves == []
        assert call(3, tokens[seat]) == {"id": 3, "version": 1}
        answers.close()
        client.close()


def test_presence_and_chat_cross_processes(postgres_url: str, redis_url: str) -> None:
    """Bo at a table another process plays (relayed over Redis): his page going away and
    coming back, his leaving, and his chat reach Ann on the holder; a spectator's chat
    through his process stays in the spectators' room."""
    with processes(2, postgres_url, redis_url) as (holder, other):
        seats = [{"name": "Ann"}, {"name": "Bo"}, {}]
        table = holder.create(game="schacht", options={"players": 3}, seats=seats, seed=3)
        tid = table["id"]
        ann, bo = holder.sit(tid, "Ann", 0), holder.sit(tid, "Bo", 1)
        with contextlib.ExitStack() as stack:
            a = holder.connect(stack, tid, seat=0, token=ann)
            next_of(a, "welcome")
            with contextlib.ExitStack() as his:
                b = other.connect(his, tid, seat=1, token=bo)  # the holder has a connection: relayed
                next_of(b, "welcome")
                told(a, ["online", "online", "gone"])
                b.send(json.dumps({"type": "presence", "state": "away"}))
                told(a, ["online", "away", "gone"])
                b.send(json.dumps({"type": "chat", "text": "back soon"}))
                for connection in (a, b):
                    line = next_of(connection, "chat")
                    assert (line["seat"], line["name"], line["text"]) == (1, "Bo", "back soon")
                watcher = other.connect(his, tid)
                next_of(watcher, "welcome")
                watcher.send(json.dumps({"type": "chat", "text": "hello"}))
                assert next_of(watcher, "chat")["name"] == "a spectator"
                told(a, ["online", "away", "gone"], spectators=1)
                nothing_but_pong(a)
            told(a, ["online", "gone", "gone"])  # he left while away: nothing of him is counted
