"""Several processes as one server, on one machine or several: PostgreSQL is the store of
record, Redis carries the rest (:mod:`redis.asyncio`).

- **Leases.** A table is played by one process at a time, the holder of its lease
  (``diabolo:lease:<table>``, a key that expires after ``lease_seconds`` unless its
  holder renews it, every third of that). A process that finds a running table of the
  store with no holder takes the lease, claims the table's fence in the store and
  restores the table from it: a process that dies (``kill -9``) loses its tables to the
  others within a lease and a second. A holder sends no write once its last renewal is
  older than FRESH of the lease (a process paused past its lease stops before another
  can take the table), and the store refuses every write of a fence that moved on
  (:class:`~diabolo.server.store.Fenced`), so a holder that lost its table without
  noticing changes nothing. A lease that vanished with a Redis restart is taken again by
  its holder at the next renewal. Leases use connections of their own, which relays and
  calls cannot use up.
- **Relays.** A client may connect to any process. The holder publishes every message of
  a table to a channel per audience (``diabolo:table:<table>:<seat or spectators>``);
  the process the client is connected to subscribes to its audience's channel and sends
  the client's requests (hello, moves, seats, records) to the holder as calls over Redis.
  Clients never need to know which process plays their table.
- **The lobby.** Each holder keeps its tables' summaries in a hash
  (``diabolo:summaries``), which every process lists.
- **The limits on making tables** are counted in Redis, by one script that checks and
  counts at once (so that clients sending many requests at once, to one process or to
  several, get no more than the limits): the running tables (a set), each client's (a
  set per client) and each client's allowance of creations (a token bucket on Redis's
  clock). After a Redis restart, and every LIMITS_SECONDS, the sets are rebuilt from the
  store, which keeps each table's creator.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from diabolo.server.protocol import Rejection, compact_json, error_message
from diabolo.server.talk import is_away

__all__ = ["Cluster"]

LOG = logging.getLogger("diabolo.server")

PREFIX = "diabolo:"
REDIS_CONNECTIONS = 64
"""Connections to Redis a process opens at most for relays, calls and the lobby (besides its
subscription and LEASE_CONNECTIONS); more requests at once wait for one."""
LEASE_CONNECTIONS = 4
"""Connections of a process's own for its leases: renewals never wait behind relays."""
FRESH = 0.8
"""The part of the lease after its last renewal within which a holder still writes."""
SUMMARY_SECONDS = 0.25
"""How often the changed summaries of a process's tables are written to the lobby's list."""
LIMITS_SECONDS = 60.0
"""How often the counts of running tables are rebuilt from the store (at once after a Redis restart)."""
HANDOVER_SECONDS = 1.0
"""How long a process waits for a table's holder to hand it over (a live one answers in
milliseconds, one on busy cores within a second; one that died must not hold up its
clients' failover). A holder that hands the table over later still leaves it to the
asker, who takes it at the next hello."""
CALL_SECONDS = 2.0
"""How long a process waits for the holder's answer to a call before it tells the client to reconnect."""
CLOSE_SECONDS = 2.0
"""How long closing waits for each of its steps: the queued messages to go out, the
connection's tasks to end, each connection to close. A task still running after it is left
behind rather than waited for: redis-py's pipeline can swallow a task's cancellation, and a
process that waited on it never finished going down."""

_RENEW = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
  return 2
end
return 0
"""
"""Renews a lease this process holds, or takes it again if it vanished (a Redis restart):
1 renewed, 2 taken again, 0 held by another."""
_ADMIT = """
local now = redis.call('time')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
if redis.call('scard', KEYS[1]) >= tonumber(ARGV[2]) then return 1 end
if redis.call('scard', KEYS[2]) >= tonumber(ARGV[3]) then return 2 end
local rate, burst = tonumber(ARGV[4]), tonumber(ARGV[5])
local bucket = redis.call('hmget', KEYS[3], 'allowance', 'at')
local allowance = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
allowance = math.min(burst, allowance + (now - at) * rate)
if allowance < 1 then return 3 end
redis.call('hset', KEYS[3], 'allowance', tostring(allowance - 1), 'at', tostring(now))
redis.call('expire', KEYS[3], math.ceil(burst / rate) + 1)
redis.call('sadd', KEYS[1], ARGV[1])
redis.call('sadd', KEYS[2], ARGV[1])
return 0
"""
"""Admits a new table (ARGV[1]) if the server holds fewer than ARGV[2] running tables, the
client fewer than ARGV[3], and the client's bucket (ARGV[4] a second, at most ARGV[5])
holds a creation; counts it. 0: admitted; 1, 2, 3: refused by that limit."""
_TRANSFER = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('set', KEYS[1], ARGV[2], 'px', ARGV[3]) "
    "else return 0 end"
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
        self._leases: Any = None
        self._fresh: dict[str, float] = {}  # when each lease was last taken or renewed (sent), by table
        self._pubsub: Any = None
        self._handler: Handler | None = None
        self._listeners: dict[str, set[Callable[[str], None]]] = {}
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._outbox: collections.deque[tuple[str, tuple[Any, ...]]] = collections.deque()
        self._ready = asyncio.Event()
        self._summaries: dict[str, Callable[[], dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._sender: asyncio.Task[None] | None = None
        self._closing = False

    async def open(self, handler: Handler) -> None:
        import redis.asyncio

        # a bounded pool that waits for a free connection, however many clients arrive at once
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            self.url, decode_responses=True, max_connections=REDIS_CONNECTIONS, timeout=CALL_SECONDS
        )
        self.redis = redis.asyncio.Redis(connection_pool=pool)
        await self.redis.ping()
        leases = redis.asyncio.BlockingConnectionPool.from_url(
            self.url, decode_responses=True, max_connections=LEASE_CONNECTIONS, timeout=CALL_SECONDS
        )
        self._leases = redis.asyncio.Redis(connection_pool=leases)
        self._renew = self._leases.register_script(_RENEW)
        self._admit = self.redis.register_script(_ADMIT)
        self._release = self._leases.register_script(_RELEASE)
        self._transfer = self._leases.register_script(_TRANSFER)
        self._handler = handler
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(f"{PREFIX}call:{self.node}", f"{PREFIX}answer:{self.node}")
        self._sender = asyncio.ensure_future(self._send_outbox())
        self._tasks = [asyncio.ensure_future(self._listen()), self._sender, asyncio.ensure_future(self._summarize())]

    async def close(self) -> None:
        """Sends what is queued (a drain's last messages), then stops the connection's
        tasks and closes its connections, each step within CLOSE_SECONDS."""
        self._closing = True
        self._ready.set()  # the sender sends the rest, then ends
        if self._sender is not None:
            await asyncio.wait([self._sender], timeout=CLOSE_SECONDS)
        if self._tasks:
            for task in self._tasks:
                task.cancel()
            _, left = await asyncio.wait(self._tasks, timeout=CLOSE_SECONDS)
            if left:
                LOG.warning("%d of the Redis connection's tasks did not stop when closing", len(left))
        for client in (self._pubsub, self.redis, self._leases):
            if client is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.aclose(), CLOSE_SECONDS)

    async def check(self) -> None:
        """Raises unless Redis answers (for /readyz)."""
        await self._leases.ping()

    # ---- leases --------------------------------------------------------------------------

    async def acquire(self, table_id: str) -> bool:
        """Takes the table's lease if nobody holds it."""
        sent = time.monotonic()
        taken = bool(await self._leases.set(f"{PREFIX}lease:{table_id}", self.node, nx=True, px=self.lease_ms))
        if taken:
            self._fresh[table_id] = sent
        return taken

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renews this process's leases (taking again those that vanished): the tables
        whose lease another process holds now."""
        sent = time.monotonic()
        async with self._leases.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._renew(keys=[f"{PREFIX}lease:{table_id}"], args=[self.node, self.lease_ms], client=pipe)
            renewed = await pipe.execute()
        lost = []
        for table_id, held in zip(table_ids, renewed):
            if held:
                self._fresh[table_id] = sent
            else:
                lost.append(table_id)
        return lost

    def fresh(self, table_id: str) -> bool:
        """Whether this process surely holds the table's lease still: it was taken or
        renewed less than FRESH of the lease ago (by this machine's clock, from when the
        request was sent, so that the lease in Redis outlives it)."""
        taken = self._fresh.get(table_id)
        return taken is not None and time.monotonic() - taken < FRESH * self.lease_ms / 1000

    async def transfer(self, table_id: str, node: str) -> bool:
        """Gives this process's lease of the table to process ``node``, in one step: whether it held it."""
        self._fresh.pop(table_id, None)
        moved = await self._transfer(keys=[f"{PREFIX}lease:{table_id}"], args=[self.node, node, self.lease_ms])
        return bool(moved)

    def leased(self, table_id: str, since: float) -> None:
        """The table's lease was given to this process (by its holder) after ``since``
        (this machine's monotonic clock, before it was asked for)."""
        self._fresh[table_id] = since

    async def release(self, table_id: str) -> None:
        self._fresh.pop(table_id, None)
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

    def stop_publishing(self, table_id: str) -> None:
        """Stops writing the table's summary (another process holds it now)."""
        self._summaries.pop(table_id, None)

    def forget_summary(self, table_id: str) -> None:
        self._summaries.pop(table_id, None)
        self._queue("hdel", f"{PREFIX}summaries", table_id)

    async def summaries(self) -> list[dict[str, Any]]:
        values = await self.redis.hvals(f"{PREFIX}summaries")
        return sorted((json.loads(value) for value in values), key=lambda s: (s["created"], s["id"]))

    # ---- the limits on making tables -----------------------------------------------------

    async def admit(
        self, table_id: str, client: str, most: int, per_client: int, per_second: float, burst: float
    ) -> int:
        """Counts a new table of ``client`` unless a limit refuses it: 0, or the limit that
        refused it (1: the server's tables, 2: the client's, 3: its rate of creations)."""
        keys = [f"{PREFIX}running", f"{PREFIX}made:{client}", f"{PREFIX}bucket:{client}"]
        refused: int = await self._admit(keys=keys, args=[table_id, most, per_client, per_second, burst])
        return refused

    def ended(self, table_id: str, client: str) -> None:
        """The table no longer runs (it finished, expired, or was never made): it no longer counts."""
        self._queue("srem", f"{PREFIX}running", table_id)
        self._queue("srem", f"{PREFIX}made:{client}", table_id)

    async def recount(self, creators: Callable[[], Awaitable[dict[str, str]]]) -> bool:
        """Rebuilds the counts of running tables from ``creators()`` (the store's: each
        running table's creator) when they are older than LIMITS_SECONDS or were lost
        with a Redis restart: whether it did."""
        if not await self.redis.set(f"{PREFIX}counted", "1", nx=True, ex=int(LIMITS_SECONDS)):
            return False
        made: dict[str, list[str]] = {}
        for table_id, client in (await creators()).items():
            made.setdefault(client, []).append(table_id)
        old = [key async for key in self.redis.scan_iter(match=f"{PREFIX}made:*", count=1000)]
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(f"{PREFIX}running", *old)
            if made:
                pipe.sadd(f"{PREFIX}running", *(t for tables in made.values() for t in tables))
            for client, tables in made.items():
                pipe.sadd(f"{PREFIX}made:{client}", *tables)
            await pipe.execute()
        return True

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

    async def call(self, node: str, request: dict[str, Any], timeout: float = CALL_SECONDS) -> dict[str, Any]:
        """Sends ``request`` to process ``node`` and returns its answer; TimeoutError when
        none comes within ``timeout`` seconds (the node died, or is going down)."""
        call_id = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = answer
        try:
            self._queue("publish", f"{PREFIX}call:{node}", json.dumps({**request, "id": call_id, "from": self.node}))
            return await asyncio.wait_for(answer, timeout)
        finally:
            self._waiting.pop(call_id, None)

    async def _answer(self, request: dict[str, Any]) -> None:
        assert self._handler is not None
        try:
            result = await self._handler(request)
        except Exception as error:  # a bug: the caller hears of it instead of waiting out its time
            LOG.exception("a call from another process failed: %r", request.get("op"))
            result = {"error": Rejection("bad_request", str(error), "internal").to_json()}
        self._queue("publish", f"{PREFIX}answer:{request['from']}", json.dumps({"id": request["id"], **result}))

    # ---- the connection's tasks ------------------------------------------------------------

    def _queue(self, command: str, *args: Any) -> None:
        self._outbox.append((command, args))
        self._ready.set()

    async def _send_outbox(self) -> None:
        """Sends what is queued, in order, a pipeline at a time; once closing, what is
        left, and ends (close() does not rely on cancelling it)."""
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
            if self._closing:
                return

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
                LOG.warning("the Redis subscription failed; listening again", exc_info=True)
                # what was published meanwhile is lost: every relayed client reconnects and resumes
                for receivers in list(self._listeners.values()):
                    for receive in list(receivers):
                        receive(MISSED)
                await asyncio.sleep(0.2)


MISSED = compact_json(
    error_message(Rejection("moved", "messages of this table were lost on their way: reconnect", "moved"))
)
"""What a relayed client is told when messages may have been lost on their way to it."""

_UPDATE_VERSION = re.compile(r'\{"type":"update","version":(\d+),')


class RemoteTable:
    """A table another process plays, as seen from this one: the same calls as a local
    :class:`~diabolo.server.tables.Table` (join, leave, submit, now, take_seat,
    leave_seat, seat_bot, rematch_offer, set_rematch, record_text), answered by the holder over
    Redis; the client's messages come from the holder's channel for its audience."""

    def __init__(self, cluster: Cluster, node: str, table_id: str) -> None:
        self.id = table_id
        self._cluster = cluster
        self._node = node
        self._clock_offset = 0.0
        self._token: Any = None
        self._away = False  # the client's page is hidden (its last presence message)
        self._receivers: dict[Any, Callable[[str], None]] = {}

    async def _call(self, op: str, **args: Any) -> dict[str, Any]:
        try:
            answer = await self._cluster.call(self._node, {"op": op, "table": self.id, **args})
        except asyncio.TimeoutError:
            raise Rejection("moved", "the process that plays this table does not answer: reconnect") from None
        if "error" in answer:
            error = answer["error"]
            code, clause, params = error.get("code", ""), error.get("clause", ""), error.get("params", {})
            raise Rejection(error["reason"], error["message"], code, clause, params)
        return answer

    async def join(self, hello: dict[str, Any], connection: Any) -> tuple[int | None, dict[str, Any]]:
        """Listens to the audience's channel first (keeping what comes until the welcome
        has gone to the client, then passing on only what is newer), then asks the holder
        for the welcome. An update that skips a version (messages lost on their way) ends
        the connection with ``moved``: the client reconnects and resumes."""
        requested = hello.get("seat")
        requested = requested if isinstance(requested, int) and not isinstance(requested, bool) else None
        self._token = hello.get("token")
        held: list[str] = []
        welcome_version: list[int] = []
        live = [False]

        def receive(text: str) -> None:
            if not live[0]:
                held.append(text)
                return
            update = _UPDATE_VERSION.match(text)
            if update is not None:
                version = int(update.group(1))
                if version > welcome_version[0] + 1:
                    text = MISSED
                welcome_version[0] = max(welcome_version[0], version)
            _forward(connection, text)

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

        def go_live() -> None:
            live[0] = True
            for text in held:  # only what the holder sent after the welcome's version: the
                # rest (an earlier holder's "moved", a summary) the welcome has made stale
                if json.loads(text).get("version", -1) > welcome["version"]:
                    receive(text)
            held.clear()

        # after the welcome: the caller queues it for the client as soon as this returns,
        # before the event loop runs anything else
        asyncio.get_running_loop().call_soon(go_live)
        return answer["audience"], welcome

    async def leave(self, audience: int | None, connection: Any) -> None:
        receive = self._receivers.pop(connection, None)
        if receive is not None:
            await self._cluster.unlisten(table_channel(self.id, audience), receive)
        with contextlib.suppress(Exception):
            await self._call("leave", audience=audience, away=self._away)

    async def presence(self, audience: int | None, connection: Any, state: Any) -> None:
        """The client's page is hidden or shown again: the holder counts it (once a change)."""
        away = is_away(state)
        if away != self._away:
            self._away = away
            await self._call("presence", audience=audience, away=away)

    async def chat(self, audience: int | None, text: Any) -> None:
        await self._call("chat", seat=audience, token=self._token, text=text)

    async def submit(self, seat: int, move: Any, version: Any) -> int:
        answer = await self._call("move", seat=seat, token=self._token, move=move, version=version)
        version_: int = answer["version"]
        return version_

    def now(self) -> float:
        return round(time.monotonic() + self._clock_offset, 3)

    async def take_seat(
        self, seat: int | None, name: str, token: Any = None, handoff: Any = None
    ) -> tuple[int, str, dict[str, Any]]:
        answer = await self._call("seat", seat=seat, name=name, token=token, handoff=handoff)
        return answer["seat"], answer["token"], answer["table"]

    async def handoff(self, seat: Any, token: Any) -> tuple[str, str]:
        """The code of Table.handoff, and the table's game."""
        answer = await self._call("handoff", seat=seat, token=token)
        return answer["code"], answer["game"]

    async def leave_seat(self, seat: Any, token: Any) -> dict[str, Any] | None:
        answer = await self._call("leave_seat", seat=seat, token=token)
        summary: dict[str, Any] | None = answer["table"]
        return summary

    async def seat_bot(self, seat: Any, by: Any, token: Any) -> dict[str, Any]:
        answer = await self._call("seat_bot", seat=seat, by=by, token=token)
        summary: dict[str, Any] = answer["table"]
        return summary

    async def rematch_offer(self, seat: Any, token: Any) -> dict[str, Any]:
        return await self._call("rematch_offer", seat=seat, token=token)

    async def set_rematch(self, table_id: str, seat: Any, token: Any) -> str:
        answer = await self._call("set_rematch", rematch=table_id, seat=seat, token=token)
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
