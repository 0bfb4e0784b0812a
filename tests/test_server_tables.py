"""The server's pieces without sockets: tables, the lobby and the engine pool, driven
directly with an SQLite store in a temporary folder and connections that record what they
are sent. Here races, slow decisions and expiry are set up exactly, in milliseconds."""

from __future__ import annotations

import asyncio
import collections
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import diabolo  # noqa: E402
from diabolo.server import EnginePool, Lobby, ServerConfig  # noqa: E402
from diabolo.server.audiences import listed_moves  # noqa: E402
from diabolo.server.protocol import Rejection  # noqa: E402
from diabolo.server.store import SqliteStore, open_store  # noqa: E402
from diabolo.server.tables import Table  # noqa: E402
from tests.tool_helpers import under_ci  # noqa: E402


class Recorder:
    """A connection that keeps every message it is sent, as JSON values."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.ended = False

    async def send(self, message: dict[str, Any] | str) -> None:
        self.messages.append(json.loads(message) if isinstance(message, str) else message)

    def end(self) -> None:
        self.ended = True


class SlowPool(EnginePool):
    """The engine pool with a random wait before and after each job: decisions that take
    long, so that the table moves on while a bot is still deciding."""

    def __init__(self, workers: int, rng: random.Random, most: float) -> None:
        super().__init__(workers)
        self.rng, self.most = rng, most

    async def run(self, owner: str, work: Callable[..., Any], *args: Any) -> Any:
        await asyncio.sleep(self.rng.random() * self.most)
        result = await super().run(owner, work, *args)
        await asyncio.sleep(self.rng.random() * self.most)
        return result


QUICK_DUVELEN = {
    "delays": {"play": [0.005, 0.001], "turn": [0.005, 0.001], "recycle": [0.005, 0.001], "stop": [0.005, 0.001]},
    "minimum": 0.001,
}
QUICK_KNIZIA = {
    "reaction": {
        "delays": {"reveal": [0.003, 0.001], "claim": [0.01, 0.002], "take": [0.003, 0.001], "pass": [0.01, 0.002]},
        "minimum": 0.001,
    },
    "per_letter": 0.001,
    "coverage": 0.3,
}
BOT_TABLES = {
    "schacht": {
        "options": {"players": 3, "rounds": 1},
        "seats": [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}],
        "settings": {"bot_pace": 0},
    },
    "duvelen": {
        "options": {"players": 3, "max_actions": 300},
        "seats": [
            {"bot": "greedy", "options": {"reaction": QUICK_DUVELEN}},
            {"bot": "random", "options": {"reaction": QUICK_DUVELEN}},
            {"bot": "lookahead", "options": {"reaction": QUICK_DUVELEN}},
        ],
    },
    "knizia": {
        "options": {"players": 2, "lexicon": "de", "rounds": 1},
        "seats": [{"bot": "word", "options": QUICK_KNIZIA}, {"bot": "word", "options": QUICK_KNIZIA}],
    },
}
LIVENESS_TABLES = 8 if under_ci() else 4
"""Bot-only tables per game in the liveness test."""


async def open_lobby(path: Path, config: ServerConfig | None = None, **options: Any) -> Lobby:
    store = await open_store(f"sqlite:///{path}")
    lobby = Lobby(store, config or ServerConfig(), **options)
    await lobby.restore()
    return lobby


async def close_lobby(lobby: Lobby) -> None:
    await lobby.close()
    await lobby.store.close()


async def play_first_moves(lobby: Lobby, moves: int = 40) -> Table:
    """A 3-seat Schacht table of ``lobby`` (seed 5) with every seat taken, after ``moves``
    moves, each the first legal move of the first seat to act."""
    request = {"game": "schacht", "options": {"players": 3}, "seats": [{}, {}, {}], "seed": 5}
    table = await lobby.create(request)
    for seat in range(3):
        await table.take_seat(seat, f"p{seat}")
    for _ in range(moves):
        seat = table.state.pending_seats[0]
        await table.submit(seat, str(table.state.legal_moves(seat)[0]), None)
    return table


@pytest.mark.parametrize("game", sorted(BOT_TABLES))
def test_no_bot_table_stalls_whatever_its_decisions_take(tmp_path: Path, game: str) -> None:
    """Liveness: bot-only tables whose every decision waits a random 0-30 ms before and
    after the engine's work (a decision still under way when the table moves on, and one
    that finds nothing to do) all play to the end. Before, a bot that found nothing to do
    while the table moved on was never started again: the table stopped for good."""

    async def play() -> list[bool]:
        lobby = await open_lobby(tmp_path / "tables.db")
        lobby.pool = SlowPool(4, random.Random(7), 0.03)
        try:
            tables = [
                await lobby.create({"game": game, "seed": seed, **BOT_TABLES[game]}, f"client {seed}")
                for seed in range(LIVENESS_TABLES)
            ]
            deadline = time.monotonic() + 120
            while not all(table.finished for table in tables) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return [table.finished for table in tables]
        finally:
            await close_lobby(lobby)

    assert all(asyncio.run(play()))


def test_a_secret_decision_sends_nothing_to_anyone_and_races_are_still_told(tmp_path: Path) -> None:
    """S7.1: when a Schacht seat bets or holds, no other seat, no spectator and not the
    lobby's list hears anything: no update, no new version, no time (before, each got an
    update with a new version and time and no events). Races on the seats' own versions:
    the next test."""

    async def play() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table = await lobby.create(
                {"game": "schacht", "options": {"players": 3}, "seats": [{}, {}, {}], "seed": 5}, "ann"
            )
            for seat in range(3):
                await table.take_seat(seat, f"p{seat}")
            heard = {audience: Recorder() for audience in (0, 1, 2, None)}
            for audience, recorder in heard.items():
                table.audiences.attach(audience, recorder)
            decided = 0
            while not table.finished and decided < 3:
                state = table.state
                seat = state.pending_seats[0]
                legal = [str(move) for move in state.legal_moves(seat)]
                move = "bet" if "bet" in legal else legal[0]
                counts = {audience: len(recorder.messages) for audience, recorder in heard.items()}
                lobby_before = table.summary()
                await table.submit(seat, move, None)
                if move == "bet" and not table.state.public_events():
                    decided += 1
                    for audience, recorder in heard.items():
                        new = recorder.messages[counts[audience] :]
                        assert [m["type"] for m in new] == (["update"] if audience == seat else []), (audience, new)
                    assert table.summary() == lobby_before  # the lobby's list does not move either
            assert decided >= 1
        finally:
            await close_lobby(lobby)

    asyncio.run(play())


def test_a_move_that_lost_a_race_is_stale_on_the_seats_own_versions(tmp_path: Path) -> None:
    """Duvelen: two seats move on the same version; the second move, no longer legal, is
    refused as stale (and its message counts the seat's versions), a move never legal as
    illegal or bad_move, and a version ahead of the seat's as a bad message."""

    async def play() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table = await lobby.create({"game": "duvelen", "options": {"players": 2}, "seats": [{}, {}], "seed": 3})
            for seat in range(2):
                await table.take_seat(seat, f"p{seat}")
            mirror = diabolo.load("duvelen", players=2).new_state(seed=3)
            for _ in range(400):  # find two seats' moves on one version where the second loses the race
                moves = [(s, str(m)) for s in mirror.pending_seats for m in mirror.legal_moves(s)]
                for (a, first), (b, second) in ((x, y) for x in moves for y in moves if x[0] != y[0]):
                    trial = mirror.clone()
                    trial.apply(first, player=a)
                    if second not in [str(m) for m in trial.legal_moves(b)]:
                        version = table.audiences.seen[b].version
                        await table.submit(a, first, table.audiences.seen[a].version)
                        with pytest.raises(Rejection) as lost:
                            await table.submit(b, second, version)
                        assert lost.value.reason == "stale" and lost.value.code == "stale_move"
                        assert f"your version {table.audiences.seen[b].version}" in lost.value.message
                        with pytest.raises(Rejection) as ahead:
                            await table.submit(b, second, table.audiences.seen[b].version + 5)
                        assert ahead.value.reason == "bad_message"
                        return
                seat, move = moves[0]
                await table.submit(seat, move, None)
                mirror.apply(move, player=seat)
            raise AssertionError("no race found")
        finally:
            await close_lobby(lobby)

    asyncio.run(play())


def knizia_heavy_state(players: int = 6, reveals: int = 40) -> Any:
    """A Knizia state with many cards on the table: the most claimable words."""
    state = diabolo.load("knizia", players=players, lexicon="de").new_state(seed=11)
    for _ in range(reveals):
        state.apply("reveal", player=state.dealer)
    return state


def test_a_knizia_table_sends_no_claimable_words_and_practice_a_bounded_number(tmp_path: Path) -> None:
    """On a normal Knizia table a seat's legal moves are its controls (reveal, take@i,
    pass) and never the claimable words, which are the answer key of the race; a practice
    table sends each seat at most ``hints`` of them after each move."""
    state = knizia_heavy_state()
    assert len(state.legal_moves(1)) > 1000  # the answer key the server must not send
    assert listed_moves(state, 1) == ["pass"] and listed_moves(state, state.dealer) == ["reveal", "pass"]

    async def play(practice: bool) -> Recorder:
        lobby = await open_lobby(tmp_path / f"tables-{practice}.db", ServerConfig(hints=5))
        try:
            table = await lobby.create(
                {
                    "game": "knizia",
                    "options": {"players": 2, "lexicon": "de"},
                    "seats": [{}, {}],
                    "settings": {"practice": practice},
                    "seed": 2,
                }
            )
            for seat in range(2):
                await table.take_seat(seat, f"p{seat}")
            heard = Recorder()
            table.audiences.attach(1, heard)
            for _ in range(12):
                state = table.state
                assert isinstance(state, diabolo.knizia.KniziaState)
                await table.submit(state.dealer, "reveal", None)
            await asyncio.sleep(0.5)  # the hints are found in the pool
            return heard
        finally:
            await close_lobby(lobby)

    normal = asyncio.run(play(False))
    moves = [m for m in normal.messages if m["type"] != "presence"]  # the seat's own coming, told to all
    assert moves and all(m["type"] == "update" and m["legal"] == ["pass"] for m in moves)
    practice = asyncio.run(play(True))
    hints = [m for m in practice.messages if m["type"] == "hints"]
    assert hints and all(len(m["words"]) <= 5 for m in hints) and max(m["count"] for m in hints) > 5


def test_the_pool_serves_tables_in_turn(tmp_path: Path) -> None:
    """A table that queues many jobs waits for its own: another table's job runs after at
    most one of them, not after all (and one table runs at most half the workers)."""
    order: list[str] = []
    lock = threading.Lock()

    def job(owner: str) -> None:
        time.sleep(0.02)
        with lock:
            order.append(owner)

    async def run() -> None:
        pool = EnginePool(workers=2)
        try:
            busy = [asyncio.ensure_future(pool.run("busy", job, "busy")) for _ in range(10)]
            await asyncio.sleep(0)
            quiet = asyncio.ensure_future(pool.run("quiet", job, "quiet"))
            await asyncio.gather(*busy, quiet)
        finally:
            pool.close()

    asyncio.run(run())
    assert order.index("quiet") <= 2, order


def test_the_pool_shares_engine_time_by_cost_not_by_job() -> None:
    """Eight tables whose bots think 100 ms a move, each asking again as soon as it has
    its answer (as a bot seat does), and a table whose bot answers at once that comes
    when they are all at work, after each had its first job (0.4 s on two workers: a
    table that has not had one used less and goes first, so that earlier the light table
    waited for one and a half jobs): on two workers the light table's decision waits for
    at most about one heavy job (taking turns per table, it waited for four: every heavy
    table's job before its own), and the heavy tables share the rest evenly. "One heavy
    job" is the longest a heavy job took here: on a loaded machine a 100 ms sleep takes
    longer, and the light table's wait with it."""
    heavy_seconds, waits, took = 0.1, [], []
    done: collections.Counter[str] = collections.Counter()

    def think(owner: str, seconds: float) -> None:
        started = time.monotonic()
        time.sleep(seconds)  # as the C++ bots do, without the GIL
        if seconds >= heavy_seconds:
            took.append(time.monotonic() - started)

    async def bot(pool: EnginePool, owner: str, seconds: float, until: float, after: float = 0.0) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(after)
        while loop.time() < until:
            asked = loop.time()
            await pool.run(owner, think, owner, seconds)
            if seconds < heavy_seconds:
                waits.append(loop.time() - asked)
            done[owner] += 1

    async def run() -> None:
        pool = EnginePool(workers=2)
        until = asyncio.get_running_loop().time() + 1.5
        try:
            heavy = [bot(pool, f"heavy {n}", heavy_seconds, until) for n in range(8)]
            await asyncio.gather(*heavy, bot(pool, "light", 0.001, until, after=0.45))
        finally:
            pool.close()

    asyncio.run(run())
    assert max(waits) < 1.6 * max(took), (sorted(waits)[-5:], max(took))
    heavy = [done[f"heavy {n}"] for n in range(8)]
    assert max(heavy) - min(heavy) <= 2, heavy
    assert done["light"] >= 10, done  # a decision per heavy job finished at worst (21 in 1.05 s), not one per round


def test_tables_per_client_and_in_total_are_limited(tmp_path: Path) -> None:
    """One client cannot fill the lobby: it has at most tables_per_client running tables
    and creates at most creations_per_minute tables a minute; the server holds at most
    max_tables. Each refusal is too_many_tables and makes nothing."""
    now = [0.0]
    config = ServerConfig(tables_per_client=3, creations_per_minute=6, max_tables=5)
    request = {"game": "schacht", "options": {"players": 3}, "seats": [{}, {}, {}]}

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db", config, clock=lambda: now[0])
        try:
            for _ in range(2):  # a burst of a third of a minute's creations
                await lobby.create(request, "mallory")
            with pytest.raises(Rejection, match="tables a minute") as fast:
                await lobby.create(request, "mallory")
            assert fast.value.reason == "too_many_tables" and len(lobby.tables) == 2
            now[0] += 10  # one more a minute's sixth later
            await lobby.create(request, "mallory")
            now[0] += 60
            with pytest.raises(Rejection, match="3 running tables"):
                await lobby.create(request, "mallory")
            await lobby.create(request, "alice")
            await lobby.create(request, "bob")
            with pytest.raises(Rejection, match="5 running tables"):
                await lobby.create(request, "carol")
            assert len(lobby.tables) == 5 and len(await lobby.store.running_tables()) == 5
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_abandoned_tables_expire_in_memory_and_in_the_store(tmp_path: Path) -> None:
    """A table where nobody sat down expires unclaimed_table_seconds after it was made
    (abandoned tables cannot lock newcomers out), one still waiting for a second person
    waiting_table_seconds after its last seat was taken, one where nothing moved
    idle_table_seconds after its last move; its connections are told and closed, and a
    restart does not bring it back. A table in play stays."""
    now = [0.0]
    config = ServerConfig(unclaimed_table_seconds=30, waiting_table_seconds=60, idle_table_seconds=600)

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db", config, clock=lambda: now[0])
        try:
            three = {"game": "schacht", "options": {"players": 3}, "seed": 1}
            unclaimed = await lobby.create({**three, "seats": [{}, {"bot": "random"}, {"bot": "random"}]})
            waiting = await lobby.create({**three, "seats": [{}, {}, {"bot": "random"}]})
            await waiting.take_seat(0, "early")
            idle = await lobby.create({**three, "seats": [{}, {"bot": "random"}, {"bot": "random"}]})
            await idle.take_seat(0, "gone")
            watcher = Recorder()
            unclaimed.audiences.attach(None, watcher)
            now[0] = 31
            assert await lobby.sweep() == [unclaimed.id]
            assert watcher.ended and watcher.messages[-1]["code"] == "expired"
            now[0] = 61
            assert await lobby.sweep() == [waiting.id]
            now[0] = 700  # idle's bots wait for its person, who never moves
            assert await lobby.sweep() == [idle.id]
            assert lobby.tables == {}
        finally:
            await close_lobby(lobby)
        again = await open_lobby(tmp_path / "tables.db", config)
        try:
            assert again.tables == {} and await again.store.running_tables() == []
        finally:
            await close_lobby(again)

    asyncio.run(run())


def test_bot_strength_is_capped_by_the_server(tmp_path: Path) -> None:
    """Client-chosen bot options are bounded by the configuration: ISMCTS iterations and
    threads, and every time a bot waits (bot_pace, reaction delays, per_letter); the
    Knizia search's deals and the learned bot's weights by the engine (docs/server.rst)."""
    config = ServerConfig(bot_iterations=5000, bot_threads=2, bot_delay_seconds=5)
    three = {"game": "schacht", "options": {"players": 3}}

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db", config)
        try:
            refusals = [
                ({**three, "seats": [{}, {}, {"bot": "ismcts", "options": {"iterations": 10**8}}]}, "5000 iterations"),
                ({**three, "seats": [{}, {}, {"bot": "ismcts", "options": {"threads": 256}}]}, "2 threads"),
                ({**three, "seats": [{}, {}, {}], "settings": {"bot_pace": 30}}, "bot_pace must be"),
                (
                    {
                        "game": "duvelen",
                        "options": {"players": 2},
                        "seats": [{}, {"bot": "greedy", "options": {"reaction": {"delays": {"play": [3600, 0]}}}}],
                    },
                    "wait at most 5 s",
                ),
                (
                    {
                        "game": "knizia",
                        "options": {"players": 2, "lexicon": "de"},
                        "seats": [{}, {"bot": "word", "options": {"per_letter": 100}}],
                    },
                    "wait at most 5 s",
                ),
                (
                    {
                        "game": "knizia",
                        "options": {"players": 2, "lexicon": "de"},
                        "seats": [{}, {"bot": "search", "options": {"worlds": 10**6, "horizon": 3600}}],
                    },
                    "worlds must be 1..64",
                ),
                (
                    {**three, "seats": [{}, {}, {"bot": "learned", "options": {"weights": [1e300] * 17}}]},
                    r"weights\[0\] must be a number in -1e6..1e6",
                ),
                ({**three, "seats": [{}, {}, {"bot": "learned", "options": {"weights": [0] * 10**5}}]}, "17 numbers"),
            ]
            for request, fragment in refusals:
                with pytest.raises(diabolo.OptionError, match=fragment):
                    await lobby.create(request)
            assert lobby.tables == {} and await lobby.store.running_tables() == []
            await lobby.create({**three, "seats": [{}, {}, {"bot": "ismcts", "options": {"iterations": 5000}}]})
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_the_game_cache_and_the_record_cache_are_bounded(tmp_path: Path, monkeypatch: Any) -> None:
    """The games made for clients' options are kept up to games_cached; a finished game's
    record is built once and then served from the cache, not replayed per request."""
    config = ServerConfig(games_cached=2, records_cached=2)

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db", config)
        try:
            for rounds in range(1, 6):
                lobby.game("schacht", {"players": 3, "rounds": rounds})
            assert len(lobby._games) == 2
            table = await lobby.create(
                {
                    "game": "schacht",
                    "options": {"players": 3, "rounds": 1},
                    "seats": [{"bot": "random"}] * 3,
                    "settings": {"bot_pace": 0},
                    "seed": 4,
                }
            )
            while not table.finished:
                await asyncio.sleep(0.01)
            await table.settle()  # the finished record is written
            lobby.tables.clear()  # as after a restart: the record comes from the store
            built: list[int | None] = []
            redacted = diabolo.Record.redacted

            def counted(record: diabolo.Record, audience: int | None) -> diabolo.Record:
                built.append(audience)
                return redacted(record, audience)

            monkeypatch.setattr(diabolo.Record, "redacted", counted)
            first = await lobby.record(table.id, public=True)
            assert first is not None and await lobby.record(table.id, public=True) == first
            assert built == [None]
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_deleting_a_table_removes_it_and_its_moves_only(tmp_path: Path) -> None:
    """delete_table removes a table and its moves, and nothing else."""

    async def run() -> None:
        store = await SqliteStore.open(tmp_path / "tables.db")
        from diabolo.server.store import TableRow

        for name in ("a", "b"):
            await store.create_table(TableRow(name, "schacht", {}, [], {}, "{}", "now"))
            await store.add_move(name, 1, 0, 0, "R1<", 0.1)
        await store.delete_table("a", 1)
        assert [row.id for row in await store.running_tables()] == ["b"]
        await store.close()

    asyncio.run(run())


def test_a_store_that_cannot_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    """An SQLite file that cannot be opened raises, and the store's thread has ended by
    then: a thread answering after ``asyncio.run`` returned would print "Event loop is
    closed" (as aiosqlite's worker did once in about 30 attempts, so that ``diabolo
    serve`` printed a traceback under its one-line error)."""
    failures: list[BaseException | None] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: failures.append(args.exc_value)
    try:
        for _ in range(300):
            with pytest.raises(Exception, match="unable to open database file"):
                asyncio.run(open_store(f"sqlite:///{tmp_path}/no/such/folder/tables.db"))
        time.sleep(0.2)  # a worker still running would fail within this
    finally:
        threading.excepthook = previous
    assert failures == []
    assert [thread.name for thread in threading.enumerate() if thread.name.startswith("diabolo-sqlite")] == []


def test_table_restore_replays_versions_per_audience(tmp_path: Path) -> None:
    """A restored table gives each audience the versions it had: a seat resumes with
    ``since`` after a secret decision it did not hear."""

    async def run() -> tuple[dict[Any, int], dict[Any, int]]:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table = await play_first_moves(lobby)
            before = {audience: seen.version for audience, seen in table.audiences.seen.items()}
        finally:
            await close_lobby(lobby)
        again = await open_lobby(tmp_path / "tables.db")
        try:
            restored: Table = next(iter(again.tables.values()))
            return before, {audience: seen.version for audience, seen in restored.audiences.seen.items()}
        finally:
            await close_lobby(again)

    before, after = asyncio.run(run())
    assert before == after


EARLIER_SQLITE_SCHEMA = [
    # diabolo_tables before its fence and creator (ADDED_COLUMNS), moves with row ids
    "CREATE TABLE diabolo_tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
    " seats TEXT NOT NULL, settings TEXT NOT NULL, start TEXT NOT NULL, created TEXT NOT NULL, record TEXT)",
    "CREATE TABLE diabolo_moves (table_id TEXT NOT NULL REFERENCES diabolo_tables(id), number INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, move TEXT NOT NULL, time DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, number))",
]


def test_sqlite_files_of_either_layout_keep_and_resume_the_same_game(tmp_path: Path) -> None:
    """A new SQLite file keeps its moves by their key (store.SQLITE_SCHEMA: WITHOUT ROWID);
    a file made by an earlier version (moves with row ids, the tables without the columns
    added since) opens with its layout, and both keep a game's 40 moves and resume it alike."""
    earlier = tmp_path / "earlier.db"
    with sqlite3.connect(earlier) as connection:
        for statement in EARLIER_SQLITE_SCHEMA:
            connection.execute(statement)
    connection.close()

    async def play_and_resume(path: Path) -> tuple[str, str]:
        lobby = await open_lobby(path)
        try:
            played = (await play_first_moves(lobby)).state.to_json()
        finally:
            await close_lobby(lobby)
        again = await open_lobby(path)
        try:
            return played, next(iter(again.tables.values())).state.to_json()
        finally:
            await close_lobby(again)

    games = {}
    for path in (earlier, tmp_path / "new.db"):
        played, resumed = asyncio.run(play_and_resume(path))
        assert resumed == played, path.name
        games[path.name] = played
        with sqlite3.connect(path) as connection:
            layout = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'diabolo_moves'").fetchone()[0]
            moves = connection.execute("SELECT count(*) FROM diabolo_moves").fetchone()[0]
        connection.close()
        assert layout.endswith("WITHOUT ROWID") == (path.name == "new.db"), layout
        assert moves == 40
    assert games["earlier.db"] == games["new.db"]


MESSAGE_BOUNDS: dict[str, tuple[dict[str, Any], int]] = {
    "schacht": ({"players": 5}, 24 * 1024),
    "duvelen": ({"players": 8}, 48 * 1024),
    "knizia": ({"players": 6, "lexicon": "de", "rounds": 1}, 32 * 1024),
}
"""Per game, its largest table and the bound on any message a connection gets there
(docs/server.rst): a welcome with the view or a resume is the largest; updates stay
under 4 KiB."""


@pytest.mark.parametrize("game", sorted(MESSAGE_BOUNDS))
def test_every_message_stays_within_its_games_bound(tmp_path: Path, game: str) -> None:
    """The largest table of each game, played to the end (Knizia: every card revealed
    and nobody calling, the fullest table, on a practice table with hints), names of 40
    characters: every update and hint, and a welcome with the view and one resuming
    from version 0 after every move, stay within the game's bound."""
    options, bound = MESSAGE_BOUNDS[game]

    async def play() -> tuple[int, int]:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            players = options["players"]
            table = await lobby.create(
                {
                    "game": game,
                    "options": options,
                    "seats": [{}] * players,
                    "settings": {"practice": game == "knizia"},
                    "seed": 1,
                }
            )
            for seat in range(players):
                await table.take_seat(seat, "x" * 40)
            heard = {audience: Recorder() for audience in [None, *range(players)]}
            for audience, recorder in heard.items():
                table.audiences.attach(audience, recorder)
            rng, welcomes = random.Random(1), 0
            while not table.finished:
                seat = rng.choice(table.state.pending_seats)
                legal = listed_moves(table.state, seat)
                await table.submit(seat, "reveal" if "reveal" in legal else rng.choice(legal), None)
                for audience in heard:
                    for since in (None, 0):
                        welcomes = max(welcomes, len(json.dumps(table.welcome(audience, since), separators=(",", ":"))))
            await asyncio.sleep(0.3)  # the last hints
            sent = [len(json.dumps(m, separators=(",", ":"))) for r in heard.values() for m in r.messages]
            return welcomes, max(sent)
        finally:
            await close_lobby(lobby)

    welcomes, updates = asyncio.run(play())
    assert welcomes <= bound and updates <= 4 * 1024, (welcomes, updates)


def test_turn_timers_and_bots_run_on_a_clock_they_are_given() -> None:
    """The drivers need no sockets and no real time: on a clock of the test's own (which
    moves on to the next sleeper's deadline whenever no engine work is under way), a
    person's hour-long turn timer plays for them exactly an hour after their turn began,
    and each bot seat with a 2 s pace moves 2 s after its turn began; the whole game takes
    seconds of real time."""
    import heapq
    import itertools

    from diabolo.server.drivers import Drivers

    now = [0.0]
    sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
    order = itertools.count()

    async def sleep(seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(sleepers, (now[0] + seconds, next(order), woken))
        await woken

    class Driven:
        id, game = "t1", diabolo.load("schacht", players=3)

        def __init__(self) -> None:
            self.state = self.game.new_state(seed=4)
            self.due = dict.fromkeys(self.state.pending_seats, 0.0)  # when each pending seat's turn began
            self.waited: list[tuple[int, float, bool]] = []  # seat, seconds after its turn began, played by the timer
            self.drivers: Drivers

        @property
        def version(self) -> int:
            return self.state.version

        @property
        def playing(self) -> bool:
            return not self.state.is_terminal

        def moves_by(self, seat: int) -> int:
            return sum(1 for s, _, _ in self.waited if s == seat)

        def due_since(self, seat: int) -> float | None:
            return self.due.get(seat)

        async def act(self, seat: int, move: Any, version: int) -> bool:
            self.state.apply(move if move is not None else self.state.legal_moves(seat)[0], player=seat)
            self.waited.append((seat, now[0] - self.due.pop(seat), move is None))
            pending = [] if self.state.is_terminal else self.state.pending_seats
            self.due = {s: self.due.get(s, now[0]) for s in pending}
            self.drivers.moved()
            return True

    async def run() -> Driven:
        pool, table = EnginePool(workers=1), Driven()
        bots = {0: diabolo.bot("schacht", "heuristic"), 2: diabolo.bot("schacht", "heuristic")}
        table.drivers = drivers = Drivers(table, pool, bots, seed=4, pace=2.0, clock=lambda: now[0], sleep=sleep)
        drivers.start(turn_seconds=3600)
        try:
            while table.playing:
                await asyncio.sleep(0.002)  # the tasks that can run, run; the pool's work ends
                if sleepers and not pool.busy and not pool.queued:
                    when, _, woken = heapq.heappop(sleepers)
                    if not woken.cancelled():
                        now[0] = max(now[0], when)
                        woken.set_result(None)
        finally:
            drivers.stop()
            pool.close()
        return table

    started = time.monotonic()
    table = asyncio.run(run())
    assert time.monotonic() - started < 30
    assert {seat for seat, _, by_timer in table.waited if by_timer} == {1}
    for seat, waited, by_timer in table.waited:
        assert waited == pytest.approx(3600.0 if seat == 1 else 2.0), (seat, waited, by_timer)
