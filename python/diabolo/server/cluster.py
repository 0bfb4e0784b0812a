"""Several processes as one server, on one machine or several: PostgreSQL is the store of
record, Redis carries the rest (:mod:`redis.asyncio`).

- **Leases.** A table is played by one process at a time, the holder of its lease
  (``diabolo:lease:<table>``, a key that expires after ``lease_seconds`` unless its
  holder renews it, every third of that). A process that finds a running table of the
  store with no holder takes the lease and restores the table from the store: a process
  that dies (``kill -9``) loses its tables to the others within a lease and a second.
  The store fences a holder that lost its lease without noticing: a move numbered as one
  already stored is refused by the primary key, and that process drops the table.
- **Relays.** A client may connect to any process. The holder publishes every message of
  a table to a channel per audience (``diabolo:table:<table>:<seat or spectators>``);
  the process the client is connected to subscribes to its audience's channel and sends
  the client's requests (hello, moves, seats, records) to the holder as calls over Redis.
  Clients never need to know which process plays their table.
- **The lobby.** Each holder keeps its tables' summaries in a hash
  (``diabolo:summaries``), which every process lists, and the running tables' creators
  (``diabolo:creators``), for the limit per client.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from diabolo.server.protocol import Rejection

__all__ = ["Cluster"]

LOG = logging.getLogger("diabolo.server")

PREFIX = "diabolo:"
REDIS_CONNECTIONS = 16
"""Connections to Redis a process opens at most (besides its subscription)."""
SUMMARY_SECONDS = 0.25
"""How often the changed summaries of a process's tables are written to the lobby's list."""
CALL_SECONDS = 5.0
"""How long a process waits for the holder's answer to a call before it tells the client to reconnect."""

_RENEW = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
)
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def table_channel(table_id: str, audience: int | None) -> str:
    """The channel of a table's messages to one audience."""
    return f"{PREFIX}table:{table_id}:{'spectators' if audience is None else audience}"


class Cluster:
    """This process's connection to the others: leases, relays, calls and the lobby's
    hashes. ``open`` connects and starts listening; ``handle`` answers the calls of others."""

    def __init__(self, url: str, lease_seconds: float) -> None:
        self.url = url
        self.node = secrets.token_hex(6)
        self.lease_ms = int(lease_seconds * 1000)
        self.redis: Any = None
        self._pubsub: Any = None
        self._handler: Handler | None = None
        self._listeners: dict[str, set[Callable[[str], None]]] = {}
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._outbox: collections.deque[tuple[str, tuple[Any, ...]]] = collections.deque()
        self._ready = asyncio.Event()
        self._summaries: dict[str, Callable[[], dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    async def open(self, handler: Handler) -> None:
        import redis.asyncio

        # a bounded pool that waits for a free connection, however many clients arrive at once
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            self.url, decode_responses=True, max_connections=REDIS_CONNECTIONS, timeout=CALL_SECONDS
        )
        self.redis = redis.asyncio.Redis(connection_pool=pool)
        await self.redis.ping()
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._handler = handler
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(f"{PREFIX}call:{self.node}", f"{PREFIX}answer:{self.node}")
        self._tasks = [asyncio.ensure_future(task) for task in (self._listen(), self._send_outbox(), self._summarize())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ---- leases --------------------------------------------------------------------------

    async def acquire(self, table_id: str) -> bool:
        """Takes the table's lease if nobody holds it."""
        return bool(await self.redis.set(f"{PREFIX}lease:{table_id}", self.node, nx=True, px=self.lease_ms))

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renews this process's leases: the tables whose lease it no longer holds."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._renew(keys=[f"{PREFIX}lease:{table_id}"], args=[self.node, self.lease_ms], client=pipe)
            renewed = await pipe.execute()
        return [table_id for table_id, ok in zip(table_ids, renewed) if not ok]

    async def release(self, table_id: str) -> None:
        await self._release(keys=[f"{PREFIX}lease:{table_id}"], args=[self.node])

    async def holders(self, table_ids: list[str]) -> list[str | None]:
        """The node holding each table's lease, or None."""
        if not table_ids:
            return []
        holders: list[str | None] = await self.redis.mget([f"{PREFIX}lease:{t}" for t in table_ids])
        return holders

    # ---- the lobby's hashes ----------------------------------------------------------------

    def publish_summary(self, table_id: str, summarize: Callable[[], dict[str, Any]]) -> None:
        """Writes the table's summary (``summarize()``) to the lobby's list, within
        SUMMARY_SECONDS: a table that moves many times a second is written once."""
        self._summaries[table_id] = summarize

    def forget_summary(self, table_id: str) -> None:
        self._summaries.pop(table_id, None)
        self._queue("hdel", f"{PREFIX}summaries", table_id)
        self._queue("hdel", f"{PREFIX}creators", table_id)

    def note_creator(self, table_id: str, client: str) -> None:
        self._queue("hset", f"{PREFIX}creators", table_id, client)

    async def summaries(self) -> list[dict[str, Any]]:
        values = await self.redis.hvals(f"{PREFIX}summaries")
        return sorted((json.loads(value) for value in values), key=lambda s: (s["created"], s["id"]))

    async def creators(self) -> dict[str, str]:
        creators: dict[str, str] = await self.redis.hgetall(f"{PREFIX}creators")
        return creators

    # ---- relays ----------------------------------------------------------------------------

    def relay(self, channel: str, text: str) -> None:
        """Publishes ``text`` on ``channel``, after what was queued before it."""
        self._queue("publish", channel, text)

    async def listen(self, channel: str, receive: Callable[[str], None]) -> None:
        """Hands every message of ``channel`` to ``receive`` from now on."""
        first = channel not in self._listeners
        self._listeners.setdefault(channel, set()).add(receive)
        if first:
            await self._pubsub.subscribe(channel)

    async def unlisten(self, channel: str, receive: Callable[[str], None]) -> None:
        listeners = self._listeners.get(channel, set())
        listeners.discard(receive)
        if not listeners and channel in self._listeners:
            del self._listeners[channel]
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    # ---- calls -----------------------------------------------------------------------------

    async def call(self, node: str, request: dict[str, Any]) -> dict[str, Any]:
        """Sends ``request`` to process ``node`` and returns its answer; TimeoutError when
        none comes within CALL_SECONDS (the node died, or is going down)."""
        call_id = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = answer
        try:
            self._queue("publish", f"{PREFIX}call:{node}", json.dumps({**request, "id": call_id, "from": self.node}))
            return await asyncio.wait_for(answer, CALL_SECONDS)
        finally:
            self._waiting.pop(call_id, None)

    async def _answer(self, request: dict[str, Any]) -> None:
        assert self._handler is not None
        try:
            result = await self._handler(request)
        except Exception as error:  # a bug: the caller hears of it instead of waiting out its time
            LOG.exception("a call from another process failed: %r", request.get("op"))
            result = {"error": {"reason": "bad_request", "code": "internal", "clause": "", "message": str(error)}}
        self._queue("publish", f"{PREFIX}answer:{request['from']}", json.dumps({"id": request["id"], **result}))

    # ---- the connection's tasks ------------------------------------------------------------

    def _queue(self, command: str, *args: Any) -> None:
        self._outbox.append((command, args))
        self._ready.set()

    async def _send_outbox(self) -> None:
        """Sends what is queued, in order, a pipeline at a time."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._outbox:
                batch = [self._outbox.popleft() for _ in range(min(len(self._outbox), 500))]
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for command, args in batch:
                            getattr(pipe, command)(*args)
                        await pipe.execute()
                except Exception:  # Redis went away for a moment: what was lost is resent by resumes
                    LOG.exception("could not publish %d messages to Redis", len(batch))

    async def _summarize(self) -> None:
        while True:
            await asyncio.sleep(SUMMARY_SECONDS)
            changed, self._summaries = self._summaries, {}
            for table_id, summarize in changed.items():
                self._queue("hset", f"{PREFIX}summaries", table_id, json.dumps(summarize()))

    async def _listen(self) -> None:
        calls, answers = f"{PREFIX}call:{self.node}", f"{PREFIX}answer:{self.node}"
        background: set[asyncio.Task[None]] = set()
        while True:
            try:
                async for message in self._pubsub.listen():
                    if message["type"] != "message":
                        continue
                    channel, data = message["channel"], message["data"]
                    if channel == calls:
                        task = asyncio.ensure_future(self._answer(json.loads(data)))
                        background.add(task)
                        task.add_done_callback(background.discard)
                    elif channel == answers:
                        answer = json.loads(data)
                        waiting = self._waiting.get(answer.pop("id"))
                        if waiting is not None and not waiting.done():
                            waiting.set_result(answer)
                    else:
                        for receive in list(self._listeners.get(channel, ())):
                            receive(data)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection broke: redis-py reconnects and subscribes again
                LOG.exception("the Redis subscription failed; listening again")
                await asyncio.sleep(0.2)


class RemoteTable:
    """A table another process plays, as seen from this one: the same calls as a local
    :class:`~diabolo.server.tables.Table` (join, leave, submit, now, take_seat,
    leave_seat, rematch_offer, set_rematch, record_text), answered by the holder over
    Redis; the client's messages come from the holder's channel for its audience."""

    def __init__(self, cluster: Cluster, node: str, table_id: str) -> None:
        self.id = table_id
        self._cluster = cluster
        self._node = node
        self._clock_offset = 0.0
        self._receivers: dict[Any, Callable[[str], None]] = {}

    async def _call(self, op: str, **args: Any) -> dict[str, Any]:
        try:
            answer = await self._cluster.call(self._node, {"op": op, "table": self.id, **args})
        except asyncio.TimeoutError:
            raise Rejection("moved", "the process that plays this table does not answer: reconnect") from None
        if "error" in answer:
            error = answer["error"]
            raise Rejection(error["reason"], error["message"], error.get("code", ""), error.get("clause", ""))
        return answer

    async def join(self, hello: dict[str, Any], connection: Any) -> tuple[int | None, dict[str, Any]]:
        """Listens to the audience's channel first (keeping what comes until the welcome
        is known, then passing on only what is newer), then asks the holder for the welcome."""
        requested = hello.get("seat")
        requested = requested if isinstance(requested, int) and not isinstance(requested, bool) else None
        held: list[str] = []
        welcome_version: list[int] = []

        def receive(text: str) -> None:
            if welcome_version:
                _forward(connection, text)
            else:
                held.append(text)

        channel = table_channel(self.id, requested)
        await self._cluster.listen(channel, receive)
        try:
            answer = await self._call(
                "hello", seat=hello.get("seat"), token=hello.get("token"), since=hello.get("since")
            )
        except BaseException:
            await self._cluster.unlisten(channel, receive)
            raise
        welcome = answer["welcome"]
        self._clock_offset = welcome["time"] - time.monotonic()
        self._receivers[connection] = receive
        welcome_version.append(welcome["version"])
        for text in held:  # what the holder sent after the welcome's version
            if json.loads(text).get("version", welcome["version"] + 1) > welcome["version"]:
                _forward(connection, text)
        return answer["audience"], welcome

    async def leave(self, audience: int | None, connection: Any) -> None:
        receive = self._receivers.pop(connection, None)
        if receive is not None:
            await self._cluster.unlisten(table_channel(self.id, audience), receive)
        with contextlib.suppress(Exception):
            await self._call("leave", audience=audience)

    async def submit(self, seat: int, move: Any, version: Any) -> int:
        answer = await self._call("move", seat=seat, move=move, version=version)
        version_: int = answer["version"]
        return version_

    def now(self) -> float:
        return round(time.monotonic() + self._clock_offset, 3)

    async def take_seat(self, seat: int | None, name: str, token: Any = None) -> tuple[int, str, dict[str, Any]]:
        answer = await self._call("seat", seat=seat, name=name, token=token)
        return answer["seat"], answer["token"], answer["table"]

    async def leave_seat(self, seat: Any, token: Any) -> dict[str, Any] | None:
        answer = await self._call("leave_seat", seat=seat, token=token)
        summary: dict[str, Any] | None = answer["table"]
        return summary

    async def rematch_offer(self, seat: Any, token: Any) -> dict[str, Any]:
        return await self._call("rematch_offer", seat=seat, token=token)

    async def set_rematch(self, table_id: str) -> str:
        answer = await self._call("set_rematch", rematch=table_id)
        rematch: str = answer["rematch"]
        return rematch

    async def record_text(self, public: bool) -> str:
        answer = await self._call("record", public=public)
        text: str = answer["text"]
        return text


def _forward(connection: Any, text: str) -> None:
    """A relayed message to a client (queued: ``push``); an error (the table expired,
    moved, or its process is going down) is its last."""
    with contextlib.suppress(ConnectionError):
        connection.push(text)
        if text.startswith('{"type":"error"'):
            connection.end()
