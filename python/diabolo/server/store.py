"""Where a server keeps its tables: every accepted move is written before anyone hears of
it, so that a restart loses no accepted move and resumes every running game.

A store holds, per table, what it was created with (game, options, seats, settings, the
first state's JSON, secrets included, the client that made it), then one row per accepted
move (seat, notation, seconds since the start), and the finished game's record. Two stores
share one schema: :class:`SqliteStore` (a file, the default of ``diabolo serve``) and
:class:`PostgresStore` (a URL).

**Fencing.** Every table has a fence: a number that :meth:`~Store.claim` raises by one
each time a process takes the table (a restart, a takeover, a failover). Every write that
changes a table names the fence its writer holds, and changes nothing once the fence has
moved on (:class:`Fenced`): a process paused past its lease, or that lost its table
without noticing, can neither store a move, nor give a seat, nor finish or delete a game
that another process plays now. A move's write may be sent again after an outage (its
first attempt may have landed): a move stored under the same number with the same seat
and notation counts as written.

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     store = await open_store(f"sqlite:///{path}")
...     await store.create_table(TableRow("t1", "schacht", {"players": 3}, [], {}, "{}", "now"))
...     await store.add_move("t1", 1, 0, 1, "R1<", 0.5)
...     await store.add_move("t1", 1, 0, 1, "R1<", 0.5)  # sent again: written once
...     fence = await store.claim("t1")  # another process takes the table
...     try:
...         await store.add_move("t1", 1, 1, 2, "R2<", 0.7)  # the old holder is fenced off
...     except Fenced as error:
...         print(error)
...     again = await store.running_tables()
...     await store.close()
...     return fence, again[0].moves
>>> asyncio.run(demo(pathlib.Path(tempfile.mkdtemp()) / "tables.db"))
table t1 is held by another process now
(2, [StoredMove(seat=1, move='R1<', time=0.5)])
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlparse

from diabolo.errors import OptionError

_T = TypeVar("_T")

__all__ = ["Fenced", "PostgresStore", "SqliteStore", "Store", "StoredMove", "TableRow", "open_store"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS diabolo_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        seats TEXT NOT NULL,
        settings TEXT NOT NULL,
        start TEXT NOT NULL,
        created TEXT NOT NULL,
        record TEXT,
        fence BIGINT NOT NULL DEFAULT 1,
        creator TEXT NOT NULL DEFAULT ''
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
SQLITE_SCHEMA = [*SCHEMA[:-1], SCHEMA[-1] + " WITHOUT ROWID"]
"""SCHEMA as an SQLite file makes it: its moves kept in the order of their primary key
(table, number), so that writing a move updates one B-tree instead of a row's and its
key's, and a table's moves read as one range (a fifth less of SQLite's time a move).
A file made before keeps its moves with row ids: the same statements serve both."""
ADDED_COLUMNS = {"fence": "BIGINT NOT NULL DEFAULT 1", "creator": "TEXT NOT NULL DEFAULT ''"}
"""Columns of diabolo_tables that stores made by earlier versions lack: added when a store opens."""

WAIT_SECONDS = 5.0
"""How long a PostgreSQL store waits for a connection before an attempt fails."""


class Fenced(Exception):
    """A write for a table whose fence has moved on: another process took the table."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is held by another process now")
        self.table_id = table_id


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
    game's record (None while it runs), ``fence`` the fence of the process that holds it
    (a new table's maker holds fence 1), ``creator`` the address of the client that made
    it (for its limit of tables)."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    start: str
    created: str
    record: str | None = None
    moves: list[StoredMove] = field(default_factory=list)
    fence: int = 1
    creator: str = ""


class Store(Protocol):
    """What the server asks of a store; every method is a coroutine. The writes that
    change a table name the writer's ``fence`` and raise :class:`Fenced` once it moved on."""

    async def create_table(self, row: TableRow) -> None: ...
    async def claim(self, table_id: str) -> int | None: ...
    async def claim_all(self) -> None: ...
    async def update_seats(self, table_id: str, fence: int, seats: list[dict[str, Any]]) -> None: ...
    async def add_move(self, table_id: str, fence: int, number: int, seat: int, move: str, time: float) -> None: ...
    async def finish(self, table_id: str, fence: int, record: str) -> None: ...
    async def delete_table(self, table_id: str, fence: int) -> None: ...
    async def running_tables(self) -> list[TableRow]: ...
    async def running_table_ids(self) -> list[str]: ...
    async def running_table(self, table_id: str) -> TableRow | None: ...
    async def creators(self) -> dict[str, str]: ...
    async def finished_record(self, table_id: str) -> str | None: ...
    async def check(self) -> None: ...
    async def close(self) -> None: ...


@dataclass
class _Write:
    """A statement waiting for its commit; ``done`` gets the number of rows it changed
    (with ``returning``, the rows it returned) or the exception it raised."""

    sql: str
    args: tuple[Any, ...]
    done: asyncio.Future[Any]
    returning: bool = False


_FENCE = "EXISTS (SELECT 1 FROM diabolo_tables WHERE id = ? AND fence = ?)"
"""The condition of a fenced write to a table's moves: the table's fence is the writer's."""


class _Recount(Exception):
    """An executemany changed fewer rows than it had statements (a fenced write)."""


class _SqlStore(ABC):
    """The queries both stores run. `_rows` reads; `_run` writes, committed before it
    returns: writes that arrive while a commit is under way wait for the next one and
    share it (a group commit), so that many tables moving at once cost one transaction,
    not one each. Within a turn, statements of the same text in a row go in one
    executemany; if that fails, or changes fewer rows than it has statements (a fenced
    write), they are run one at a time (SQLite: each in a savepoint; PostgreSQL: each in a
    transaction of its own), so that a statement that fails or changes nothing does so for
    its own call only.
    """

    placeholder = "?"

    def __init__(self) -> None:
        self._waiting: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None

    def _sql(self, text: str) -> str:
        return text.replace("?", self.placeholder)

    async def _run(self, sql: str, args: tuple[Any, ...] = (), returning: bool = False) -> Any:
        """Commits ``sql``: the number of rows it changed (with ``returning``, its rows)."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Write(self._sql(sql), args, done, returning))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write())
        return await done

    async def _write(self) -> None:
        """Commits what waits, in turns, until nothing does."""
        while self._waiting:
            turn, self._waiting = self._waiting, []
            groups = [(sql, list(writes)) for sql, writes in itertools.groupby(turn, key=lambda w: w.sql)]
            try:
                results = await self._commit(groups)
            except Exception as error:  # the commit itself failed: every write of the turn did
                results = {id(write): error for write in turn}
            for write in turn:
                if write.done.cancelled():  # its caller went away (a table closing): the write stands
                    continue
                result = results[id(write)]
                if isinstance(result, BaseException):
                    write.done.set_exception(result)
                else:
                    write.done.set_result(result)

    @abstractmethod
    async def _commit(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, Any]:
        """Runs a turn's groups of writes in one transaction: each write's result (rows
        changed, rows returned, or the exception it raised) by id of the write."""

    async def _flush(self) -> None:
        if self._writer is not None:
            await self._writer

    @abstractmethod
    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...

    async def create_table(self, row: TableRow) -> None:
        await self._run(
            "INSERT INTO diabolo_tables (id, game, options, seats, settings, start, created, fence, creator)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                row.game,
                json.dumps(row.options),
                json.dumps(row.seats),
                json.dumps(row.settings),
                row.start,
                row.created,
                row.fence,
                row.creator,
            ),
        )

    async def claim(self, table_id: str) -> int | None:
        """Takes a running table for the caller: its new fence, one more than before (the
        writes of whoever held it are refused from now on); None if it is not running."""
        rows = await self._run(
            "UPDATE diabolo_tables SET fence = fence + 1 WHERE id = ? AND record IS NULL RETURNING fence",
            (table_id,),
            returning=True,
        )
        return int(rows[0][0]) if rows else None

    async def claim_all(self) -> None:
        """Takes every running table (a process alone, as it starts): claim for each."""
        await self._run("UPDATE diabolo_tables SET fence = fence + 1 WHERE record IS NULL")

    async def _fenced(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        if await self._run(sql, args) != 1:
            raise Fenced(table_id)

    async def update_seats(self, table_id: str, fence: int, seats: list[dict[str, Any]]) -> None:
        await self._fenced(
            table_id,
            "UPDATE diabolo_tables SET seats = ? WHERE id = ? AND fence = ?",
            (json.dumps(seats), table_id, fence),
        )

    async def add_move(self, table_id: str, fence: int, number: int, seat: int, move: str, time: float) -> None:
        """Stores move ``number`` (0 for the first), once however often it is sent."""
        changed = await self._run(
            "INSERT INTO diabolo_moves (table_id, number, seat, move, time)"
            f" SELECT ?, CAST(? AS INTEGER), CAST(? AS INTEGER), ?, CAST(? AS DOUBLE PRECISION) WHERE {_FENCE}"
            " ON CONFLICT (table_id, number) DO NOTHING",
            (table_id, number, seat, move, time, table_id, fence),
        )
        if changed != 1:  # fenced off, or stored already: by an earlier attempt of this call, or by another holder
            stored = await self._rows(
                f"SELECT seat, move FROM diabolo_moves WHERE table_id = ? AND number = ? AND {_FENCE}",
                (table_id, number, table_id, fence),
            )
            if stored != [(seat, move)]:
                raise Fenced(table_id)

    async def finish(self, table_id: str, fence: int, record: str) -> None:
        await self._fenced(
            table_id, "UPDATE diabolo_tables SET record = ? WHERE id = ? AND fence = ?", (record, table_id, fence)
        )

    async def delete_table(self, table_id: str, fence: int) -> None:
        """Forgets an abandoned table and its moves (in one commit)."""
        moves = self._run(f"DELETE FROM diabolo_moves WHERE table_id = ? AND {_FENCE}", (table_id, table_id, fence))
        table = self._fenced(table_id, "DELETE FROM diabolo_tables WHERE id = ? AND fence = ?", (table_id, fence))
        await asyncio.gather(moves, table)

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

    async def creators(self) -> dict[str, str]:
        """The client that made each running table, by table id (the limits per client)."""
        rows = await self._rows("SELECT id, creator FROM diabolo_tables WHERE record IS NULL")
        return {table_id: creator for table_id, creator in rows}

    async def _running(self, table_id: str) -> list[TableRow]:
        one, args = (" AND id = ?", (table_id,)) if table_id else ("", ())
        rows = await self._rows(
            "SELECT id, game, options, seats, settings, start, created, fence, creator FROM diabolo_tables"
            f" WHERE record IS NULL{one} ORDER BY created, id",
            args,
        )
        tables = {
            r[0]: TableRow(
                r[0], r[1], json.loads(r[2]), json.loads(r[3]), json.loads(r[4]), r[5], r[6], fence=r[7], creator=r[8]
            )
            for r in rows
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
    """Tables in an SQLite file (one connection, in WAL mode), used from a thread of its
    own so that the event loop never waits for the file: a turn's group commit is one
    call to that thread, whatever its statements (a call costs a wake-up of the thread and
    one of the loop, more than most statements)."""

    def __init__(self, connection: sqlite3.Connection, worker: ThreadPoolExecutor) -> None:
        super().__init__()
        self._db = connection
        self._worker = worker

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="diabolo-sqlite")
        try:
            connection = await asyncio.get_running_loop().run_in_executor(worker, _open_sqlite, str(path))
        except BaseException:
            worker.shutdown(wait=True)  # its thread has ended when the error goes on
            raise
        return cls(connection, worker)

    async def _call(self, function: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, function, *args)

    async def _commit(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, Any]:
        return await self._call(self._commit_now, groups)

    def _commit_now(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, Any]:
        """The turn in one transaction, in the store's thread. SQLite undoes a failed
        statement, and a savepoint the rows of a failed executemany."""
        results: dict[int, Any] = {}
        db = self._db
        db.execute("BEGIN")
        try:
            for sql, writes in groups:
                if not writes[0].returning:
                    db.execute("SAVEPOINT diabolo_group")
                    try:
                        if db.executemany(sql, [write.args for write in writes]).rowcount != len(writes):
                            raise _Recount
                        db.execute("RELEASE diabolo_group")
                        results.update((id(write), 1) for write in writes)
                        continue
                    except Exception:  # undo the rows that went in, then find the write that fails or changes nothing
                        db.execute("ROLLBACK TO diabolo_group")
                        db.execute("RELEASE diabolo_group")
                for write in writes:
                    try:
                        cursor = db.execute(sql, write.args)
                        results[id(write)] = cursor.fetchall() if write.returning else cursor.rowcount
                    except Exception as error:
                        results[id(write)] = error
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return results

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return await self._call(lambda: [tuple(row) for row in self._db.execute(self._sql(sql), args)])

    async def close(self) -> None:
        await self._flush()
        await self._call(self._db.close)
        self._worker.shutdown(wait=True)


def _open_sqlite(path: str) -> sqlite3.Connection:
    """The store's connection to ``path``, its schema made or brought up to date. Its
    transactions are explicit (``isolation_level=None``): one per turn of writes."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        for statement in SQLITE_SCHEMA:
            connection.execute(statement)
        present = {row[1] for row in connection.execute("PRAGMA table_info(diabolo_tables)")}
        for column, kind in ADDED_COLUMNS.items():
            if column not in present:
                connection.execute(f"ALTER TABLE diabolo_tables ADD COLUMN {column} {kind}")
    except BaseException:
        connection.close()
        raise
    return connection


class PostgresStore(_SqlStore):
    """Tables in PostgreSQL, written through :mod:`psycopg`'s connection pool, a group
    commit at a time (several processes may share it). A connection is waited for at
    most WAIT_SECONDS: a store that does not answer is an outage its caller waits out
    (:class:`~diabolo.server.ledger.Ledger`), not a request that hangs."""

    placeholder = "%s"

    def __init__(self, pool: Any) -> None:
        super().__init__()
        self._pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresStore:
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(url, min_size=1, max_size=8, open=False, timeout=WAIT_SECONDS)
        await pool.open(wait=True, timeout=10)
        async with pool.connection() as connection:  # one process at a time: several may start together
            await connection.execute("SELECT pg_advisory_xact_lock(4242)")
            for statement in SCHEMA:
                await connection.execute(statement)
            for column, kind in ADDED_COLUMNS.items():
                await connection.execute(f"ALTER TABLE diabolo_tables ADD COLUMN IF NOT EXISTS {column} {kind}")
        return cls(pool)

    async def _commit(self, groups: list[tuple[str, list[_Write]]]) -> dict[int, Any]:
        """The turn in one transaction, an executemany per group; when one fails or changes
        fewer rows than it has statements (rare: a fenced write, a move sent again), the
        transaction is undone and each write runs in a transaction of its own (no
        savepoints on the common path: each costs a round trip)."""
        async with self._pool.connection() as connection:
            if not any(writes[0].returning for _, writes in groups):
                try:
                    async with connection.transaction():
                        for sql, writes in groups:
                            async with connection.cursor() as cursor:
                                await cursor.executemany(sql, [write.args for write in writes])
                                if cursor.rowcount != len(writes):
                                    raise _Recount
                    return {id(write): 1 for _, writes in groups for write in writes}
                except _Recount:
                    pass
                except Exception:
                    if connection.broken:
                        raise
            results: dict[int, Any] = {}
            for sql, writes in groups:
                for write in writes:
                    try:
                        async with connection.transaction(), connection.cursor() as cursor:
                            await cursor.execute(sql, write.args)
                            results[id(write)] = await cursor.fetchall() if write.returning else cursor.rowcount
                    except Exception as error:
                        if connection.broken:
                            raise
                        results[id(write)] = error
            return results

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
