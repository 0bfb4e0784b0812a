"""The lobby: a server's tables, the games they are made of, and the limits on making them.

Everything a visitor can make is bounded (:class:`~diabolo.server.config.ServerConfig`):
tables in total and per client, table creations per client and minute, games kept in
the cache, finished records kept ready. Tables nobody plays expire: one still waiting for
a person after ``waiting_table_seconds``, one where nothing moved for
``idle_table_seconds``; an expired table is closed and deleted from the store, so that a
restart does not bring it back.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import diabolo
from diabolo.errors import DiaboloError, OptionError
from diabolo.registry import Game
from diabolo.server.cluster import HANDOVER_SECONDS, Cluster, RemoteTable, table_channel
from diabolo.server.config import ServerConfig
from diabolo.server.metrics import Metrics
from diabolo.server.pool import EnginePool
from diabolo.server.protocol import Reason, Rejection, error_message
from diabolo.server.store import Fenced, Store, TableRow
from diabolo.server.tables import Seat, Settings, Table, bot_name, make_bot
from diabolo.server.talk import ChatRules, load_filter

__all__ = ["Lobby"]

T = TypeVar("T")

LOG = logging.getLogger("diabolo.server")

SWEEP_SECONDS = 5.0
"""How often the lobby looks for tables to expire."""
TAKEOVER_SECONDS = 1.0
"""With other processes: how often a process looks for tables that nobody holds."""
HANDOVER_GRACE = 2.0
"""Seconds a table taken over by a process stays there before it may be handed over again:
the hello that brought it there joins first (tables do not go back and forth)."""
READY_SECONDS = 1.0
"""How long /readyz waits for the store (and Redis) to answer."""


class Lobby:
    """The server's tables and games, its store and its engine pool."""

    def __init__(
        self,
        store: Store,
        config: ServerConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.config = config or ServerConfig()
        self.metrics = metrics
        self.cluster = cluster
        self.draining = False
        self._renewing = asyncio.Lock()  # held while leases are renewed: drain() waits out one under way
        self.pool = EnginePool(self.config.bot_workers)
        self.tables: dict[str, Table] = {}
        self._clock = clock
        self._games: collections.OrderedDict[str, Game] = collections.OrderedDict()
        self._records: collections.OrderedDict[str, str] = collections.OrderedDict()
        self._creations: dict[str, tuple[float, float]] = {}  # per client: allowance, when (alone)
        self._making: dict[str, str] = {}  # tables admitted and not yet held: their creators (alone)
        self._tasks: list[asyncio.Task[None]] = []
        self._rematch_lock = asyncio.Lock()
        self._taking: dict[str, asyncio.Future[Table | None]] = {}  # tables being taken, by id
        self._asking: dict[str, asyncio.Future[Table | None]] = {}  # tables asked of their holder, by id
        self._late: dict[str, float] = {}  # tables whose handover was not answered in time: when, by id
        self._held_since: dict[str, float] = {}  # when this process took over each table it took
        self._background: set[asyncio.Future[None]] = set()
        self._chat = ChatRules(self.config.chat_length, self.config.chat_kept, load_filter(self.config.chat_filter))

    @property
    def _limits(self) -> dict[str, Any]:
        caps: dict[str, float] = {**self.config.bot_caps, "delay": self.config.bot_delay_seconds}
        return {
            "bot_caps": caps,
            "hints": self.config.hints,
            "chat": self._chat,
            "clock": self._clock,
            "metrics": self.metrics,
        }

    def game(self, name: Any, options: Any) -> Game:
        """The game of a client's name and options (cached, the last ``games_cached``: a
        Knizia word list loads once)."""
        if not isinstance(name, str) or name not in self.config.offered:
            raise OptionError(f"unknown game {name!r}; the games are: {', '.join(self.config.offered)}")
        if not isinstance(options, dict):
            raise OptionError(f"a game's options are a JSON object, got {options!r}")
        key = json.dumps([name, options], sort_keys=True)
        if key in self._games:
            self._games.move_to_end(key)
        else:
            self._games[key] = diabolo.load(name, **options)
            while len(self._games) > self.config.games_cached:
                self._games.popitem(last=False)
        return self._games[key]

    async def restore(self) -> None:
        """Alone: every running table of the store, replayed in the pool, its bots
        started. With other processes: this process joins them, and takes the tables
        nobody holds (now, and every TAKEOVER_SECONDS)."""
        if self.cluster is None:
            await self.store.claim_all()
            for row in await self.store.running_tables():
                await self._adopt(row)
        else:
            await self.cluster.open(self.answer)
            await self.take_over()
            self._tasks += [asyncio.ensure_future(self._every(TAKEOVER_SECONDS, self.take_over))]
            renew_seconds = self.config.lease_seconds / 3
            self._tasks += [asyncio.ensure_future(self._every(renew_seconds, self.renew))]
        sweep_seconds = min(
            SWEEP_SECONDS,
            self.config.unclaimed_table_seconds,
            self.config.waiting_table_seconds,
            self.config.idle_table_seconds,
        )
        self._tasks.append(asyncio.ensure_future(self._every(sweep_seconds, self.sweep)))

    async def _every(self, seconds: float, work: Callable[[], Awaitable[Any]]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except Exception:  # a store or Redis that failed this time may work next time
                LOG.exception("the lobby's %s failed", getattr(work, "__name__", "work"))

    async def _adopt(self, row: TableRow) -> Table:
        """A stored table, replayed in the pool, held by this process from now on (its
        fence claimed by the caller). Clients that other processes relayed from its last
        holder are told ``moved`` (they reconnect and resume); a game that ended without
        its record stored gets it stored now."""
        game = self.game(row.game, row.options)
        table = await self.pool.run(row.id, lambda: Table.restore(self.store, self.pool, game, row, **self._limits))
        self._hold(table)
        await table.audiences.broadcast(MOVED)
        if table.finished:
            await table.store_finish()
        return table

    async def _take(self, table_id: str, leased: bool = False) -> Table | None:
        """Takes a table nobody holds (one attempt per table at a time in a process):
        with other processes its lease first (unless ``leased``: handed to this process),
        then its fence in the store, then its rows. None when another process took it
        first; Rejection ``no_table`` when the store does not hold it running (finished,
        deleted, or never made)."""
        return await _once(self._taking, table_id, lambda: self._take_once(table_id, leased))

    async def _take_once(self, table_id: str, leased: bool) -> Table | None:
        if self.cluster is not None and not leased and not await self.cluster.acquire(table_id):
            return None
        try:
            fence = await self.store.claim(table_id)
            row = None if fence is None else await self.store.running_table(table_id)
            if row is None or row.fence != fence:
                await self._release(table_id)
                if row is None:
                    raise Rejection("no_table", f"no running table {table_id!r}")
                return None  # claimed again meanwhile: by a process that holds the lease now
            table = await self._adopt(row)
            self._held_since[table_id] = self._clock()
            return table
        except BaseException:
            if table_id not in self.tables:
                await self._release(table_id)
            raise

    async def _release(self, table_id: str) -> None:
        if self.cluster is not None:
            await self.cluster.release(table_id)

    def _hold(self, table: Table) -> None:
        self.tables[table.id] = table
        table.on_lost = self._lost
        if self.cluster is not None:
            cluster = self.cluster
            table.ledger.fresh = lambda: cluster.fresh(table.id)
            table.audiences.relay = lambda audience, text: cluster.relay(table_channel(table.id, audience), text)
            table.on_change = lambda changed: self._summary_changed(cluster, changed)
            self._summary_changed(cluster, table)
        table.start()

    def _drop(self, table_id: str) -> Table | None:
        """Forgets a table this process held (it is let go, handed over, expired, or finished long ago)."""
        self._held_since.pop(table_id, None)
        return self.tables.pop(table_id, None)

    @staticmethod
    def _summary_changed(cluster: Cluster, table: Table) -> None:
        cluster.publish_summary(table.id, table.summary)
        if table.finished:
            cluster.ended(table.id, table.creator)

    def _lost(self, table: Table) -> None:
        """Another process holds ``table`` now (the store fenced a write off, or its lease
        went to another): this process lets it go at once, its lease included, and its
        clients reconnect (``moved``) to wherever it is played."""
        if self.tables.get(table.id) is table:
            self._drop(table.id)
            table.close("moved")
            self._later(self._let_go(table))

    async def _let_go(self, table: Table, to: str | None = None) -> None:
        """After ``table`` was dropped and closed here: its lease released (or given to
        process ``to``, in one step), and its clients told to reconnect."""
        if self.cluster is not None:
            self.cluster.stop_publishing(table.id)
            if to is None:
                await self.cluster.release(table.id)
            else:
                await self.cluster.transfer(table.id, to)
        await table.audiences.broadcast(MOVED, end=True)

    def _later(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ---- several processes ---------------------------------------------------------------

    async def take_over(self) -> list[str]:
        """Takes every running table of the store that no process holds (its process died,
        or let it go): the ids taken."""
        assert self.cluster is not None
        if self.draining:
            return []
        if await self.cluster.recount(self.store.creators):
            LOG.info("counted the running tables of every client again")
        ids = [table_id for table_id in await self.store.running_table_ids() if table_id not in self.tables]
        taken = []
        for table_id, holder in zip(ids, await self.cluster.holders(ids)):
            if holder is None:
                try:
                    table = await self._take(table_id)
                except Rejection:  # it finished or expired meanwhile
                    continue
                if table is not None:
                    taken.append(table_id)
                    LOG.info("took over table %s", table_id)
        return taken

    async def renew(self) -> None:
        """Renews this process's leases; a table whose lease another took is let go. Not
        while draining: a renewal takes a lease that vanished again (a Redis restart), and
        would take back the leases drain() let go, holding them for a process on its way
        out until they expire."""
        assert self.cluster is not None
        async with self._renewing:
            if self.draining:
                return
            lost = await self.cluster.renew(list(self.tables))
        for table_id in lost:
            table = self.tables.get(table_id)
            if table is not None:
                self._lost(table)

    async def find(self, table_id: str, joining: bool = False) -> Table | RemoteTable:
        """The table a client asks for: here, where another process plays it, or taken
        from the store when nobody holds it (alone: when this process let it go). Final
        answers: Rejection ``no_table`` when the store does not hold it running; transient
        ones (the client tries again): ``moved`` while it changes hands, ``draining``,
        ``unavailable`` while the store or Redis does not answer.

        ``joining`` (a websocket's hello): the table follows its people. When the process
        that plays it has no connection of its own to it, it hands the table over to this
        one, so that behind a proxy that sends a table's connections to one process (by
        the table's id), a table is played where its people are and nothing is relayed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        try:
            return await self._locate(table_id, joining)
        except Rejection:
            raise
        except Exception as error:  # the store or Redis does not answer
            LOG.warning("could not find table %s: %r", table_id, error)
            raise Rejection("unavailable", "the server's store does not answer: try again") from None

    async def _locate(self, table_id: str, joining: bool) -> Table | RemoteTable:
        for attempt in range(5):
            if attempt:
                await asyncio.sleep(0.05 * attempt)
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if self.cluster is not None:
                (holder,) = await self.cluster.holders([table_id])
                if holder is not None and holder != self.cluster.node:
                    handed = await self._handed_over(holder, table_id) if joining and not self.draining else None
                    if handed is not None:
                        return handed
                    return RemoteTable(self.cluster, holder, table_id)
                if holder == self.cluster.node and table_id not in self._taking:
                    late = await self._take_late(table_id)
                    if late is not None:
                        return late
                    continue  # this process is letting it go, or just made it: look again
            if self.draining:
                raise Rejection("draining", "this server is going down: reconnect")
            taken = await self._take(table_id)  # a lost race: look again
            if taken is not None:
                return taken
        raise Rejection("moved", f"table {table_id!r} is changing hands: reconnect")

    async def _handed_over(self, holder: str, table_id: str) -> Table | None:
        """Asks ``holder`` to hand the table over to this process (it does when it has no
        connection of its own to it): the table, taken here, or None. Hellos for the
        table that come meanwhile wait for the same answer."""
        return await _once(self._asking, table_id, lambda: self._ask_handover(holder, table_id))

    async def _ask_handover(self, holder: str, table_id: str) -> Table | None:
        assert self.cluster is not None
        asked = time.monotonic()
        request = {"op": "handover", "table": table_id, "to": self.cluster.node}
        try:
            answer = await self.cluster.call(holder, request, HANDOVER_SECONDS)
        except asyncio.TimeoutError:
            # a busy holder may hand it over still, after this process stopped waiting
            now = self._clock()
            self._late = {t: at for t, at in self._late.items() if now - at <= self.config.lease_seconds}
            self._late[table_id] = now
            return await self._take_late(table_id)
        if not answer.get("handed"):
            return None
        self.cluster.leased(table_id, asked)  # the lease is this process's since the answer: no gap to take
        return await self._take(table_id, leased=True)

    async def _take_late(self, table_id: str) -> Table | None:
        """Takes a table whose holder handed it over after this process stopped waiting
        for the answer (within a lease of asking): its lease is this process's and nobody
        plays it. None when the lease is another's, or nothing was asked."""
        assert self.cluster is not None
        asked = self._late.get(table_id)
        if asked is None or self.draining or self._clock() - asked > self.config.lease_seconds:
            self._late.pop(table_id, None)
            return None
        if await self.cluster.renew([table_id]):  # lost: another process holds the lease
            return None
        # renewed (or taken, if it vanished): this process's, and fresh for the writes to come
        self._late.pop(table_id, None)
        return await self._take(table_id, leased=True)

    async def _hand_over(self, table: Table, to: Any) -> bool:
        """Hands ``table`` over to process ``to``, which asks for it, if no connection of
        this one plays or watches it: its bots and timers stop, the move under way is
        written, the lease goes to ``to`` in one step (no other process can take the table
        in between), and the clients relayed from here reconnect (``moved``)."""
        assert self.cluster is not None
        if not isinstance(to, str) or table.audiences.connections or self.draining:
            return False
        if self.tables.get(table.id) is not table:
            return False
        if self._clock() - self._held_since.get(table.id, 0.0) < HANDOVER_GRACE:
            return False  # just taken here, for a hello that is about to join: it stays
        self._drop(table.id)
        table.close("moved")
        await table.settle()
        await self._let_go(table, to)
        LOG.info("handed table %s over to its people's process", table.id)
        return True

    async def summaries(self) -> list[dict[str, Any]]:
        """What the lobby lists: the tables of every process."""
        if self.cluster is not None:
            return await self.cluster.summaries()
        return [table.summary() for table in self.tables.values()]

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answers another process's call for a table this one plays (cluster.RemoteTable)."""
        table_id = request.get("table", "")
        taking = self._taking.get(table_id) if isinstance(table_id, str) else None
        if taking is not None:  # being taken here (handed over, or taken over): answer once it is
            with contextlib.suppress(Exception):
                await asyncio.shield(taking)
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            return {"error": Rejection("moved", "this table is not played here now: reconnect").to_json()}
        op = request.get("op")
        if op == "handover":
            return {"handed": await self._hand_over(table, request.get("to"))}
        try:
            if op == "hello":
                audience, welcome = await table.join(request, None)
                table.audiences.watched_elsewhere(audience, +1)
                return {"audience": audience, "welcome": welcome}
            if op == "leave":
                table.audiences.watched_elsewhere(request["audience"], -1, bool(request.get("away")))
                return {}
            if op == "presence":
                table.audiences.set_away(request["audience"], None, bool(request["away"]))
                return {}
            if op == "chat":
                speaker = request.get("seat")
                if speaker is not None:
                    speaker = table.authenticate(speaker, request.get("token"))
                await table.chat(speaker, request["text"])
                return {}
            if op == "move":
                seat = table.authenticate(request["seat"], request.get("token"))  # Redis carries no authority
                return {"version": await table.submit(seat, request["move"], request["version"])}
            if op == "seat":
                seat, token, summary = await table.take_seat(
                    request["seat"], request["name"], request.get("token"), request.get("handoff")
                )
                return {"seat": seat, "token": token, "table": summary}
            if op == "handoff":
                code, game = await table.handoff(request["seat"], request["token"])
                return {"code": code, "game": game}
            if op == "leave_seat":
                return {"table": await self._leave_here(table, request["seat"], request["token"])}
            if op == "seat_bot":
                return {"table": await table.seat_bot(request["seat"], request["by"], request["token"])}
            if op == "rematch_offer":
                return await table.rematch_offer(request["seat"], request["token"])
            if op == "set_rematch":
                rematch = await table.set_rematch(request["rematch"], request.get("seat"), request.get("token"))
                return {"rematch": rematch}
            if op == "record":
                return {"text": await table.record_text(public=bool(request["public"]))}
        except Rejection as error:
            return {"error": error.to_json()}
        except DiaboloError as error:
            return {"error": Rejection("bad_request", str(error), getattr(error, "code", "")).to_json()}
        return {"error": Rejection("bad_request", f"unknown call {op!r}").to_json()}

    async def leave_seat(self, table_id: str, seat: Any, token: Any) -> dict[str, Any] | None:
        """A person leaves a table (Table.leave_seat): its summary after, or None when no
        person is left at it and it was closed."""
        table = await self.find(table_id)
        if isinstance(table, RemoteTable):
            summary: dict[str, Any] | None = await table.leave_seat(seat, token)
            return summary
        return await self._leave_here(table, seat, token)

    async def handoff(self, table_id: str, seat: Any, token: Any) -> tuple[str, str]:
        """A one-time code that moves a person's seat to another device, and the table's
        game (Table.handoff)."""
        table = await self.find(table_id)
        answer: tuple[str, str] = await table.handoff(seat, token)
        return answer

    async def seat_bot(self, table_id: str, seat: Any, by: Any, token: Any) -> dict[str, Any]:
        """A person at a table that waits fills a free seat with a bot (Table.seat_bot)."""
        table = await self.find(table_id)
        summary: dict[str, Any] = await table.seat_bot(seat, by, token)
        return summary

    async def _leave_here(self, table: Table, seat: Any, token: Any) -> dict[str, Any] | None:
        summary = await table.leave_seat(seat, token)
        if table.abandoned:
            await self.expire(table, "closed", "every player left: the table is closed")
            return None
        return summary

    async def rematch(
        self, table_id: str, seat: Any, token: Any, name: str | None = None, client: str = ""
    ) -> tuple[int, str, dict[str, Any]]:
        """The player of ``seat`` (``token``) of a finished game takes the same seat in its
        rematch, which the first to ask makes: the same game, options, settings and bots
        with a new seed, each person's seat reserved for its player of this game until
        they take it or decline it (leave_seat). ``name``: the seat's name at the old table
        unless given. The seat, its token and the rematch's summary; making it counts
        against the client's limits, as any new table."""
        old = await self.find(table_id)
        offer = await old.rematch_offer(seat, token)
        rematch_id = offer["rematch"]
        if rematch_id is None:
            async with self._rematch_lock:  # two players who ask at once make one rematch
                offer = await old.rematch_offer(seat, token)
                rematch_id = offer["rematch"] or await self._make_rematch(old, offer, client, seat, token)
        rematch = await self.find(rematch_id)
        return await rematch.take_seat(seat, name or offer["seats"][seat]["name"], token)

    async def _make_rematch(
        self, old: Table | RemoteTable, offer: dict[str, Any], client: str, seat: Any, token: Any
    ) -> str:
        if self.draining:
            raise Rejection("draining", "this server is going down: make the table on another")
        game = self.game(offer["game"], offer["options"])
        seats = [Seat.from_json(spec) for spec in offer["seats"]]
        settings = Settings.from_json(offer["settings"], offer["game"])
        table = await self._new_table(
            game, offer["game"], offer["options"], seats, settings, time.time_ns() & (2**63 - 1), client
        )
        linked = await old.set_rematch(table.id, seat, token)
        if linked != table.id:  # another process made one first: this one goes
            await self.expire(table, "closed", "a rematch was made elsewhere")
        return linked

    async def create(self, data: Any, client: str = "") -> Table:
        """A table from a client's request (see docs/server.rst): OptionError for a bad
        request, Rejection ``too_many_tables`` beyond the server's or the client's limit."""
        if not isinstance(data, dict):
            raise OptionError("a table is a JSON object with game, options, seats and settings")
        unknown = set(data) - {"game", "options", "seats", "settings", "seed"}
        if unknown:
            raise OptionError(f"unknown key {sorted(unknown)[0]!r}; a table has game, options, seats, settings, seed")
        if self.draining:
            raise Rejection("draining", "this server is going down: make the table on another")
        await self._forget_finished()
        name, options = data.get("game"), data.get("options", {})
        game = self.game(name, options)
        assert isinstance(name, str)  # self.game checked it
        seats = [self._seat(name, spec, s) for s, spec in enumerate(_list(data.get("seats"), "seats"))]
        settings = Settings.from_json(
            _object(data.get("settings", {}), "settings"), name, max_pace=self.config.bot_delay_seconds
        )
        seed = data.get("seed", time.time_ns() & (2**63 - 1))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise OptionError(f"seed must be an integer 0..2**64-1, got {seed!r}")
        return await self._new_table(game, name, options, seats, settings, seed, client)

    async def _new_table(
        self,
        game: Game,
        name: str,
        options: dict[str, Any],
        seats: list[Seat],
        settings: Settings,
        seed: int,
        client: str,
    ) -> Table:
        """A new table, held by this process: with other processes its lease is taken
        before it is stored (no other process may take it over before it is held)."""
        table_id = secrets.token_hex(6)
        await self._admit(client, table_id)
        try:
            if self.cluster is not None and not await self.cluster.acquire(table_id):
                raise Rejection("unavailable", "could not make a table: try again")
            table = await Table.create(
                self.store, self.pool, game, name, options, seats, settings, seed, client, table_id, **self._limits
            )
        except BaseException:
            self._ended(table_id, client)
            await self._release(table_id)
            raise
        self._hold(table)
        self._making.pop(table_id, None)
        return table

    async def _admit(self, client: str, table_id: str) -> None:
        """Counts the new table ``table_id`` of ``client``, or Rejection
        ``too_many_tables`` when the server (every process) holds max_tables running
        tables, the client tables_per_client, or the client made tables faster than
        creations_per_minute (bursts of a third of it). Checked and counted at once: in
        Redis with other processes, with no await in between alone."""
        per_second = self.config.creations_per_minute / 60
        burst = max(1.0, self.config.creations_per_minute / 3)
        most, per_client = self.config.max_tables, self.config.tables_per_client
        if self.cluster is not None:
            await self.cluster.recount(self.store.creators)  # at once after a Redis restart, not a round later
            refused = await self.cluster.admit(table_id, client, most, per_client, per_second, burst)
        else:
            refused = self._admit_here(table_id, client, per_second, burst)
        if refused == 1:
            raise Rejection("too_many_tables", f"this server holds {most} running tables already")
        if refused == 2:
            raise Rejection(
                "too_many_tables",
                f"you have made {per_client} running tables, the most this server allows; finish or leave one first",
            )
        if refused == 3:
            raise Rejection(
                "too_many_tables",
                f"this server makes at most {self.config.creations_per_minute:g} tables a minute per client",
            )

    def _admit_here(self, table_id: str, client: str, per_second: float, burst: float) -> int:
        """Lobby._admit for a process alone (see Cluster.admit for the answer)."""
        running = [table.creator for table in self.tables.values() if not table.finished]
        running += self._making.values()
        if len(running) >= self.config.max_tables:
            return 1
        if running.count(client) >= self.config.tables_per_client:
            return 2
        now = self._clock()
        allowance, when = self._creations.get(client, (burst, now))
        allowance = min(burst, allowance + (now - when) * per_second)
        if allowance < 1:
            return 3
        self._creations[client] = (allowance - 1, now)
        if len(self._creations) > 10 * self.config.max_tables:  # forget clients whose allowance is full again
            self._creations = {c: (a, w) for c, (a, w) in self._creations.items() if a + (now - w) * per_second < burst}
        self._making[table_id] = client
        return 0

    def _ended(self, table_id: str, client: str) -> None:
        """A table of ``client`` no longer runs, or was never made: it no longer counts."""
        self._making.pop(table_id, None)
        if self.cluster is not None:
            self.cluster.ended(table_id, client)

    async def _forget_finished(self) -> None:
        """Drops all but the keep_finished most recent finished tables from memory (and,
        with other processes, from the lobby's list)."""
        finished = [table_id for table_id, table in self.tables.items() if table.finished]
        for table_id in finished[: max(0, len(finished) - self.config.keep_finished)]:
            dropped = self._drop(table_id)
            if dropped is not None:
                dropped.close()
            if self.cluster is not None:
                self.cluster.forget_summary(table_id)
                await self.cluster.release(table_id)

    def _seat(self, game: str, spec: Any, seat: int) -> Seat:
        spec = _object(spec, f"seat {seat}")
        unknown = set(spec) - {"bot", "options", "name"}
        if unknown:
            raise OptionError(f"seat {seat}: unknown key {sorted(unknown)[0]!r}; a seat has bot, options, name")
        kind = spec.get("bot")
        if kind is None:
            return Seat(_name(spec.get("name", f"seat {seat}")))
        bot_options = _object(spec.get("options", {}), f"seat {seat}'s bot options")
        make_bot(game, kind, bot_options, self._limits["bot_caps"])  # refused here, before the table exists
        return Seat(_name(spec.get("name", bot_name(seat))), kind, bot_options)

    async def record(self, table_id: str, public: bool) -> str | None:
        """A game's record as JSON text (see docs/server.rst), or None for no such table.
        A finished game's record is kept (the last records_cached)."""
        table: Table | RemoteTable | None = self.tables.get(table_id)
        if table is None and self.cluster is not None:
            (holder,) = await self.cluster.holders([table_id])
            if holder is not None and holder != self.cluster.node:
                table = RemoteTable(self.cluster, holder, table_id)
        if table is not None:
            try:
                return await table.record_text(public)
            except Rejection:  # it moved, or finished and was let go: the store has it
                pass
        key = f"{table_id}/{public}"
        if key in self._records:
            self._records.move_to_end(key)
            return self._records[key]
        full = await self.store.finished_record(table_id)
        if not full:
            return None
        text = full
        if public:
            text = await self.pool.run(table_id, lambda: diabolo.Record.load(full).redacted(None).dump())
        self._records[key] = text
        while len(self._records) > self.config.records_cached:
            self._records.popitem(last=False)
        return text

    # ---- expiry --------------------------------------------------------------------------

    async def sweep(self) -> list[str]:
        """Expires the abandoned tables: the ids of those it deleted."""
        now = self._clock()
        expired = []
        for table in list(self.tables.values()):
            if table.finished or table.busy:  # a move under way (waiting out a store outage) is not idleness
                continue
            quiet = now - table.last_activity
            if table.waiting:
                most = self.config.waiting_table_seconds
                if table.abandoned:  # nobody holds or may come back to a seat: nobody waits for it
                    most = min(most, self.config.unclaimed_table_seconds)
            else:
                most = self.config.idle_table_seconds
            if quiet > most:
                expired.append(table)
        deleted = []
        for table in expired:
            if not table.ledger.fresh():  # its lease may be another's: expired by its holder, if at all
                continue
            try:
                await self.expire(table)
            except Rejection:  # the store does not answer: the next sweep tries again
                continue
            deleted.append(table.id)
        return deleted

    async def expire(self, table: Table, code: str = "expired", message: str = "the table expired") -> None:
        """Deletes ``table`` from the store (a fenced write: only while this process holds
        it), then closes it, tells its connections (``no_table``, with ``code`` and
        ``message``) and forgets it. Rejection ``unavailable`` when the store does not
        answer (the table stays, to expire later)."""
        try:
            await table.ledger.delete()
        except Fenced:
            self._lost(table)
            return
        table.close()
        self._drop(table.id)
        await table.audiences.broadcast(_error("no_table", code, message), end=True)
        self._ended(table.id, table.creator)
        if self.cluster is not None:
            self.cluster.forget_summary(table.id)
            await self.cluster.release(table.id)

    async def ready(self) -> bool:
        """Whether this process takes new work, answered within READY_SECONDS: not
        draining, and its store and (with other processes) Redis answer."""
        if self.draining:
            return False
        checks = [self.store.check()]
        if self.cluster is not None:
            checks.append(self.cluster.check())
        try:
            await asyncio.wait_for(asyncio.gather(*checks), READY_SECONDS)
        except Exception:
            return False
        return True

    async def drain(self) -> None:
        """Going down: refuses new tables, stops every table's bots and timers, waits for
        the moves under way to be written and sent, then tells every connection to
        reconnect (``draining``) and closes it; with other processes, lets the tables go,
        so that the others take them over at once."""
        self.draining = True
        async with self._renewing:  # a renewal already sent ends before any lease is let go
            pass
        for table in list(self.tables.values()):
            table.close("draining")
        for table in list(self.tables.values()):
            await table.settle()
            if self.cluster is not None:  # first, so that a client reconnecting at once finds the table free
                await self.cluster.release(table.id)
            await table.audiences.broadcast(
                _error("draining", "draining", "the server is going down: reconnect"), end=True
            )

    async def close(self) -> None:
        for task in [*self._tasks, *self._background]:
            task.cancel()
        for table in self.tables.values():
            table.close()
        self.pool.close()
        if self.cluster is not None:
            await self.cluster.close()


def _error(reason: Reason, code: str, message: str) -> dict[str, Any]:
    return error_message(Rejection(reason, message, code))


MOVED = _error("moved", "moved", "this table moved: reconnect")
"""What a table's clients are told when it changes hands: reconnect, to any process."""


async def _once(pending: dict[str, asyncio.Future[T]], key: str, work: Callable[[], Awaitable[T]]) -> T:
    """``work()``'s result, started once for ``key`` while it runs (``pending``): callers
    that come meanwhile wait for the same result; cancelling one cancels only its wait."""
    running = pending.get(key)
    if running is None:
        running = pending[key] = asyncio.ensure_future(work())
        running.add_done_callback(lambda _: pending.pop(key, None))
    return await asyncio.shield(running)


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise OptionError(f"{what} must be a JSON object, got {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise OptionError(f"{what} must be a JSON list, got {value!r}")
    return value


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 40 or not value.isprintable():
        raise OptionError(f"a name is 1..40 printable characters, got {value!r}")
    return value
