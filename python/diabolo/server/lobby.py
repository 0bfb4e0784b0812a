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
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import diabolo
from diabolo.errors import OptionError
from diabolo.registry import Game
from diabolo.server.config import ServerConfig
from diabolo.server.pool import EnginePool
from diabolo.server.protocol import Rejection
from diabolo.server.store import Store
from diabolo.server.tables import Seat, Settings, Table, make_bot

__all__ = ["Lobby"]

LOG = logging.getLogger("diabolo.server")

SWEEP_SECONDS = 5.0
"""How often the lobby looks for tables to expire."""


class Lobby:
    """The server's tables and games, its store and its engine pool."""

    def __init__(
        self, store: Store, config: ServerConfig | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.config = config or ServerConfig()
        self.pool = EnginePool(self.config.bot_workers)
        self.tables: dict[str, Table] = {}
        self._clock = clock
        self._games: collections.OrderedDict[str, Game] = collections.OrderedDict()
        self._records: collections.OrderedDict[str, str] = collections.OrderedDict()
        self._creations: dict[str, tuple[float, float]] = {}  # per client: allowance, when
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def _limits(self) -> dict[str, Any]:
        caps: dict[str, float] = {**self.config.bot_caps, "delay": self.config.bot_delay_seconds}
        return {"bot_caps": caps, "hints": self.config.hints, "clock": self._clock}

    def game(self, name: Any, options: Any) -> Game:
        """The game of a client's name and options (cached, the last ``games_cached``: a
        Knizia word list loads once)."""
        if not isinstance(name, str) or name not in diabolo.games():
            raise OptionError(f"unknown game {name!r}; the games are: {', '.join(diabolo.games())}")
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
        """Every running table of the store, replayed in the pool, its bots started."""
        for row in await self.store.running_tables():
            game = self.game(row.game, row.options)
            table = await self.pool.run(
                row.id, lambda row=row, game=game: Table.restore(self.store, self.pool, game, row, **self._limits)
            )
            self.tables[table.id] = table
            table.start()
        self._sweeper = asyncio.ensure_future(self._sweep_forever())

    async def create(self, data: Any, client: str = "") -> Table:
        """A table from a client's request (see docs/server.rst): OptionError for a bad
        request, Rejection ``too_many_tables`` beyond the server's or the client's limit."""
        if not isinstance(data, dict):
            raise OptionError("a table is a JSON object with game, options, seats and settings")
        unknown = set(data) - {"game", "options", "seats", "settings", "seed"}
        if unknown:
            raise OptionError(f"unknown key {sorted(unknown)[0]!r}; a table has game, options, seats, settings, seed")
        self._forget_finished()
        self._admit(client)
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
        table = await Table.create(
            self.store, self.pool, game, name, options, seats, settings, seed, creator=client, **self._limits
        )
        self._spend(client)
        self.tables[table.id] = table
        table.start()
        return table

    def _admit(self, client: str) -> None:
        """Rejection when the server holds max_tables running tables, the client
        tables_per_client, or the client has created tables faster than allowed."""
        running = [table for table in self.tables.values() if not table.finished]
        if len(running) >= self.config.max_tables:
            raise Rejection("too_many_tables", f"this server holds {self.config.max_tables} running tables already")
        mine = sum(1 for table in running if table.creator == client)
        if mine >= self.config.tables_per_client:
            raise Rejection(
                "too_many_tables",
                f"you have made {mine} running tables, the most this server allows; finish or leave one first",
            )
        if self._allowance(client) < 1:
            raise Rejection(
                "too_many_tables",
                f"this server makes at most {self.config.creations_per_minute:g} tables a minute per client",
            )

    def _allowance(self, client: str) -> float:
        rate = self.config.creations_per_minute / 60
        burst = max(1.0, self.config.creations_per_minute / 3)
        allowance, when = self._creations.get(client, (burst, self._clock()))
        return min(burst, allowance + (self._clock() - when) * rate)

    def _spend(self, client: str) -> None:
        self._creations[client] = (self._allowance(client) - 1, self._clock())
        if len(self._creations) > 10 * self.config.max_tables:  # forget clients whose allowance is full again
            burst = max(1.0, self.config.creations_per_minute / 3)
            self._creations = {c: v for c, v in self._creations.items() if self._allowance(c) < burst}

    def _forget_finished(self) -> None:
        """Drops all but the keep_finished most recent finished tables from memory."""
        finished = [table_id for table_id, table in self.tables.items() if table.finished]
        for table_id in finished[: max(0, len(finished) - self.config.keep_finished)]:
            self.tables.pop(table_id).close()

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
        return Seat(_name(spec.get("name", f"{kind} bot")), kind, bot_options)

    async def record(self, table_id: str, public: bool) -> str | None:
        """A game's record as JSON text (see docs/server.rst), or None for no such table.
        A finished game's record is kept (the last records_cached)."""
        table = self.tables.get(table_id)
        if table is not None and (public or not table.finished):
            return await table.record_text(public=True)
        if table is not None:
            return await table.record_text(public=False)
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

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_SECONDS, self.config.waiting_table_seconds, self.config.idle_table_seconds))
            try:
                await self.sweep()
            except Exception:  # a store that failed this time may work next time
                LOG.exception("the lobby could not expire its abandoned tables")

    async def sweep(self) -> list[str]:
        """Expires the abandoned tables: the ids of those it deleted."""
        now = self._clock()
        expired = []
        for table in list(self.tables.values()):
            if table.finished:
                continue
            quiet = now - table.last_activity
            if quiet > (self.config.waiting_table_seconds if table.waiting else self.config.idle_table_seconds):
                expired.append(table)
        for table in expired:
            await self.expire(table)
        return [table.id for table in expired]

    async def expire(self, table: Table) -> None:
        """Closes ``table``, tells its connections, and deletes it from memory and the store."""
        table.close()
        self.tables.pop(table.id, None)
        await table.broadcast(
            {"type": "error", "reason": "no_table", "code": "expired", "clause": "", "message": "the table expired"},
            end=True,
        )
        await self.store.delete_table(table.id)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            table.close()
        self.pool.close()


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
