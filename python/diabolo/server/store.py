"""Where a server keeps its tables: every accepted move is written before anyone hears of
it, so that a restart loses no accepted move and resumes every running game.

A store holds, per table, what it was created with (game, options, seats, settings, the
first state's JSON, secrets included), then one row per accepted move (seat, notation,
seconds since the start), and the finished game's record. Two stores share one schema:
:class:`SqliteStore` (a file, the default of ``diabolo serve``) and
:class:`PostgresStore` (a URL).

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     store = await open_store(f"sqlite:///{path}")
...     await store.create_table(TableRow("t1", "schacht", {"players": 3}, [], {}, "{}", "now"))
...     await store.add_move("t1", 0, 1, "R1<", 0.5)
...     again = await store.running_tables()
...     await store.close()
...     return again[0].moves
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "tables.db"))
[StoredMove(seat=1, move='R1<', time=0.5)]
"""

from __future__ import annotations

import asyncio
import itertools
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

from diabolo.errors import OptionError

__all__ = ["PostgresStore", "SqliteStore", "Store", "StoredMove", "TableRow", "open_store"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS diabolo_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        seats TEXT NOT NULL,
        settings TEXT NOT NULL,
        start TEXT NOT NULL,
        created TEXT NOT NULL,
        record TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS diabolo_moves (
        table_id TEXT NOT NULL REFERENCES diabolo_tables(id),
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, number)
    )""",
]


@dataclass(frozen=True)
class StoredMove:
    """An accepted move: its seat, its notation as applied, seconds since the start."""

    seat: int
    move: str
    time: float


@dataclass
class TableRow:
    """A table as stored: ``seats`` and ``settings`` are JSON-able, ``start`` the first
    state's JSON (its deal included: it never leaves the server), ``record`` the finished
    game's record (None while it runs)."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    start: str
    created: str
    record: str | None = None
    moves: list[StoredMove] = field(default_factory=list)


class Store(Protocol):
    """What the server asks of a store; every method is a coroutine."""

    async def create_table(self, row: TableRow) -> None: ...
    async def update_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None: ...
    async def add_move(self, table_id: str, number: int, seat: int, move: str, time: float) -> None: ...
    async def finish(self, table_id: str, record: str) -> None: ...
    async def delete_table(self, table_id: str) -> None: ...
    async def running_tables(self) -> list[TableRow]: ...
    async def running_table_ids(self) -> list[str]: ...
    async def running_table(self, table_id: str) -> TableRow | None: ...
    async def finished_record(self, table_id: str) -> str | None: ...
    async def check(self) -> None: ...
    async def close(self) -> None: ...


_Write = tuple[str, tuple[Any, ...], "asyncio.Future[None]"]


class _SqlStore(ABC):
    """The queries both stores run. `_rows` reads; `_run` writes, committed before it
    returns: writes that arrive while a commit is under way wait for the next one and
    share it (a group commit), so that many tables moving at once cost one transaction,
    not one each. Within a turn, statements of the same text in a row go in one
    executemany; if that fails, they are run one at a time, each in a savepoint, so that
    a statement that fails (a move numbered as one already stored) fails its own call only.
    """

    placeholder = "?"

    def __init__(self) -> None:
        self._waiting: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None

    def _sql(self, text: str) -> str:
        return text.replace("?", self.placeholder)

    async def _run(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((self._sql(sql), args, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())
        await done

    async def _write(self) -> None:
        """Commits what waits, in turns, until nothing does."""
        while self._waiting:
            turn, self._waiting = self._waiting, []
            groups = [(sql, list(writes)) for sql, writes in itertools.groupby(turn, key=lambda w: w[0])]
            try:
                failed = await self._commit(groups)
            except Exception as error:  # the commit itself failed: every write of the turn did
                failed = {id(done): error for _, _, done in turn}
            for _, _, done in turn:
                if done.cancelled():  # its caller went away (a table closing): the write stands
                    continue
                if id(done) in failed:
                    done.set_exception(failed[id(done)])
                else:
                    done.set_result(None)

    @abstractmethod
    async def _commit(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, BaseException]:
        """Runs a turn's groups of writes in one transaction: the writes that failed, by id of their future."""

    async def _flush(self) -> None:
        if self._writer is not None:
            await self._writer

    @abstractmethod
    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...

    async def create_table(self, row: TableRow) -> None:
        await self._run(
            "INSERT INTO diabolo_tables (id, game, options, seats, settings, start, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                row.game,
                json.dumps(row.options),
                json.dumps(row.seats),
                json.dumps(row.settings),
                row.start,
                row.created,
            ),
        )

    async def update_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        await self._run("UPDATE diabolo_tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))

    async def add_move(self, table_id: str, number: int, seat: int, move: str, time: float) -> None:
        await self._run(
            "INSERT INTO diabolo_moves (table_id, number, seat, move, time) VALUES (?, ?, ?, ?, ?)",
            (table_id, number, seat, move, time),
        )

    async def finish(self, table_id: str, record: str) -> None:
        await self._run("UPDATE diabolo_tables SET record = ? WHERE id = ?", (record, table_id))

    async def delete_table(self, table_id: str) -> None:
        """Forgets an abandoned table and its moves."""
        await self._run("DELETE FROM diabolo_moves WHERE table_id = ?", (table_id,))
        await self._run("DELETE FROM diabolo_tables WHERE id = ?", (table_id,))

    async def running_tables(self) -> list[TableRow]:
        """Every running table, with its moves."""
        return await self._running("")

    async def running_table_ids(self) -> list[str]:
        """The ids of the running tables, oldest first."""
        rows = await self._rows("SELECT id FROM diabolo_tables WHERE record IS NULL ORDER BY created, id")
        return [row[0] for row in rows]

    async def running_table(self, table_id: str) -> TableRow | None:
        """One running table, with its moves; None if it is not running (or not there)."""
        rows = await self._running(table_id)
        return rows[0] if rows else None

    async def _running(self, table_id: str) -> list[TableRow]:
        one, args = (" AND id = ?", (table_id,)) if table_id else ("", ())
        rows = await self._rows(
            "SELECT id, game, options, seats, settings, start, created FROM diabolo_tables"
            f" WHERE record IS NULL{one} ORDER BY created, id",
            args,
        )
        tables = {
            r[0]: TableRow(r[0], r[1], json.loads(r[2]), json.loads(r[3]), json.loads(r[4]), r[5], r[6]) for r in rows
        }
        moves = await self._rows(
            "SELECT m.table_id, m.seat, m.move, m.time FROM diabolo_moves m JOIN diabolo_tables t"
            f" ON t.id = m.table_id WHERE t.record IS NULL{one.replace('id', 't.id')} ORDER BY m.table_id, m.number",
            args,
        )
        for table_id_, seat, move, time in moves:
            if table_id_ in tables:
                tables[table_id_].moves.append(StoredMove(seat, move, time))
        return list(tables.values())

    async def finished_record(self, table_id: str) -> str | None:
        rows = await self._rows("SELECT record FROM diabolo_tables WHERE id = ?", (table_id,))
        return rows[0][0] if rows else None

    async def check(self) -> None:
        """Raises unless the store answers (for /readyz)."""
        await self._rows("SELECT 1")


class SqliteStore(_SqlStore):
    """Tables in an SQLite file, written through :mod:`aiosqlite` (one connection, in WAL
    mode), a group commit at a time."""

    def __init__(self, connection: Any) -> None:
        super().__init__()
        self._db = connection

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        import aiosqlite

        pending = aiosqlite.connect(str(path))
        try:
            connection = await pending
        except BaseException:
            # aiosqlite 0.22 queues its worker thread's stop on a failed connect without
            # waiting for it; a worker that answers after asyncio.run has closed the loop
            # prints "Event loop is closed" (omnilib/aiosqlite#389). Wait for it here.
            await asyncio.to_thread(pending._thread.join)
            raise
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        for statement in SCHEMA:
            await connection.execute(statement)
        await connection.commit()
        return cls(connection)

    async def _commit(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, BaseException]:
        """SQLite undoes a failed statement, and a savepoint the rows of a failed executemany."""
        failed: dict[int, BaseException] = {}
        for sql, writes in groups:
            await self._db.execute("SAVEPOINT diabolo_group")
            try:
                await self._db.executemany(sql, [args for _, args, _ in writes])
                await self._db.execute("RELEASE diabolo_group")
            except Exception:  # undo the rows that went in, then find the one that fails
                await self._db.execute("ROLLBACK TO diabolo_group")
                await self._db.execute("RELEASE diabolo_group")
                for _, args, done in writes:
                    try:
                        await self._db.execute(sql, args)
                    except Exception as error:
                        failed[id(done)] = error
        await self._db.commit()
        return failed

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        async with self._db.execute(self._sql(sql), args) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    async def close(self) -> None:
        await self._flush()
        await self._db.close()


class PostgresStore(_SqlStore):
    """Tables in PostgreSQL, written through :mod:`psycopg`'s connection pool, a group
    commit at a time (several processes may share it)."""

    placeholder = "%s"

    def __init__(self, pool: Any) -> None:
        super().__init__()
        self._pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresStore:
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(url, min_size=1, max_size=8, open=False)
        await pool.open(wait=True, timeout=10)
        async with pool.connection() as connection:  # one process at a time: several may start together
            await connection.execute("SELECT pg_advisory_xact_lock(4242)")
            for statement in SCHEMA:
                await connection.execute(statement)
        return cls(pool)

    async def _commit(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, BaseException]:
        failed: dict[int, BaseException] = {}
        async with self._pool.connection() as connection, connection.transaction():
            for sql, writes in groups:
                try:
                    async with connection.transaction(), connection.cursor() as cursor:  # a savepoint
                        await cursor.executemany(sql, [args for _, args, _ in writes])
                except Exception:  # the savepoint undid the rows: find the one that fails
                    for _, args, done in writes:
                        try:
                            async with connection.transaction():
                                await connection.execute(sql, args)
                        except Exception as error:
                            failed[id(done)] = error
        return failed

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        async with self._pool.connection() as connection:
            cursor = await connection.execute(self._sql(sql), args)
            return [tuple(row) for row in await cursor.fetchall()]

    async def close(self) -> None:
        await self._flush()
        await self._pool.close()


async def open_store(url: str) -> SqliteStore | PostgresStore:
    """The store of ``url``: ``sqlite:///path/to/file.db`` (created if missing) or
    ``postgresql://user@host/db``. OptionError for any other scheme."""
    scheme = urlparse(url).scheme
    if scheme == "sqlite":
        path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ""
        if not path:
            raise OptionError(f"an SQLite store is sqlite:///path/to/file.db, got {url!r}")
        return await SqliteStore.open(path)
    if scheme in ("postgresql", "postgres"):
        return await PostgresStore.open(url)
    raise OptionError(f"a store is sqlite:///file.db or postgresql://..., got {url!r}")
