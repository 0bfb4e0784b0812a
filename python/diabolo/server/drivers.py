"""What plays a table besides its people: a task per bot seat, and per person's seat on a
turn timer, for the whole game. A bot decides on a copy of the table in the server's
:class:`~diabolo.server.pool.EnginePool`, waits out its delay and moves; with nothing to
do, or refused with nothing changed, it waits for the table's next move, whatever
happened while it was deciding: no table can stall because a decision took long. A turn
timer plays a random legal move for a person who has been due for ``turn_seconds``.

The drivers act through their table (:class:`Driven`: its state, its version, and
``act``, which applies a move as the table's authority); the clock and the sleep are
given, so that a test runs them on a clock of its own, without waiting.

>>> import asyncio, diabolo
>>> from diabolo.server.pool import EnginePool
>>> class Table:  # a table of one bot seat, as the drivers see it
...     id, game = "t1", diabolo.load("schacht", players=3)
...     def __init__(self):
...         self.state = self.game.new_state(seed=1)
...         self.playing = True
...     @property
...     def version(self):
...         return self.state.version
...     def moves_by(self, seat):
...         return 0
...     async def act(self, seat, move, version):
...         self.state.apply(move, player=seat)
...         self.playing = False  # one move is enough here
...         self.drivers.moved()
...         return True
>>> async def demo():
...     pool, table = EnginePool(workers=1), Table()
...     seat = table.state.pending_seats[0]
...     drivers = Drivers(table, pool, {seat: diabolo.bot("schacht", "heuristic")}, seed=7, pace=0.0)
...     table.drivers = drivers
...     drivers.start(turn_seconds=None)
...     await asyncio.sleep(0.5)
...     drivers.stop()
...     pool.close()
...     return table.version
>>> asyncio.run(demo())
1
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import diabolo
from diabolo.registry import Game, State
from diabolo.server.pool import EnginePool

__all__ = ["Driven", "Drivers"]

LOG = logging.getLogger("diabolo.server")


class Driven(Protocol):
    """What the drivers need of their table (:class:`~diabolo.server.tables.Table`)."""

    id: str

    @property
    def game(self) -> Game: ...

    @property
    def state(self) -> State: ...

    @property
    def version(self) -> int: ...

    @property
    def playing(self) -> bool: ...

    def moves_by(self, seat: int) -> int: ...

    def due_since(self, seat: int) -> float | None: ...

    async def act(self, seat: int, move: Any, version: int) -> bool: ...


class Drivers:
    """The bots (``bots``, by seat) and turn timers of ``table``. ``seed`` seeds every
    decision (a bot's decision on version ``v`` by seat ``s`` uses
    ``derive_seed(seed, v * 64 + s)``, so a table replays its bots' moves); ``pace`` is
    the seconds every bot waits beyond its own delay (``propose``: a reaction time in real
    time, none when turns are taken): a turn-based table's bot pace, 0 in real time."""

    def __init__(
        self,
        table: Driven,
        pool: EnginePool,
        bots: dict[int, Any],
        seed: int,
        pace: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.bots = bots
        self._table = table
        self._pool = pool
        self._seed = seed
        self._pace = pace
        self._clock = clock
        self._sleep = sleep
        self._tasks: list[asyncio.Task[None]] = []
        self._moved = asyncio.Event()
        self._stopped = False

    @property
    def started(self) -> bool:
        return bool(self._tasks)

    def start(self, turn_seconds: float | None) -> None:
        """A task per bot seat and, with ``turn_seconds`` in a turn-based game, per person's seat."""
        for seat in range(self._table.game.players):
            if seat in self.bots:
                self._run(self._drive_bot(seat))
            elif turn_seconds is not None and not self._table.game.real_time:
                self._run(self._drive_timer(seat, turn_seconds))

    def add_bot(self, seat: int, bot: Any) -> None:
        """A bot plays on in ``seat`` (a person left a game under way)."""
        self.bots[seat] = bot
        self._run(self._drive_bot(seat))

    def moved(self) -> None:
        """The table moved: every driver that waits for it looks again."""
        self._moved.set()
        self._moved = asyncio.Event()

    def stop(self) -> None:
        self._stopped = True
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
        self._moved.set()

    def _run(self, work: Awaitable[None]) -> None:
        self._tasks.append(asyncio.ensure_future(work))

    async def _next_move(self, version: int, timeout: float | None = None) -> bool:
        """Waits until the table is past ``version`` (True), or ``timeout`` seconds (False)."""
        while self._table.version == version and not self._stopped:
            if timeout is None:
                await self._moved.wait()
                continue
            moved = asyncio.ensure_future(self._moved.wait())
            slept = asyncio.ensure_future(self._sleep(timeout))
            try:
                done, _ = await asyncio.wait({moved, slept}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                moved.cancel()
                slept.cancel()
            if moved not in done:
                return False
        return True

    async def _drive_bot(self, seat: int) -> None:
        """A bot's seat for the whole game: it decides on a copy of the table in the pool,
        waits out its delay (its reaction time in real time, plus the pace) and moves. With
        nothing to do, or refused with nothing changed, it waits for the next move; a move
        that lost a race is decided again."""
        table = self._table
        while table.playing:
            version, started = table.version, self._clock()
            try:
                proposal = await self._pool.run(table.id, self._propose, seat, table.state.clone(), version)
                if proposal is not None:
                    move, delay = proposal
                    await self._sleep(max(0.0, delay - (self._clock() - started)))
                    if await table.act(seat, move, version):
                        continue
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not end the seat: log it, and try again after the next move
                LOG.exception("table %s: the bot of seat %d failed", table.id, seat)
            await self._next_move(version)

    async def _drive_timer(self, seat: int, seconds: float) -> None:
        """A person's turn timer: once the seat has been due for ``seconds`` without moving,
        a random legal move is played for it (``act`` with no move)."""
        table = self._table
        while table.playing and seat not in self.bots:  # a bot plays on for a person who left
            version = table.version
            if seat not in table.state.pending_seats:
                await self._next_move(version)
                continue
            # The table's deadline, the one every page counts down to (Table.deadlines).
            due = table.due_since(seat)
            deadline, moves = (self._clock() if due is None else due) + seconds, table.moves_by(seat)
            while (
                table.playing
                and seat not in self.bots
                and table.moves_by(seat) == moves
                and seat in table.state.pending_seats
            ):
                remaining = deadline - self._clock()
                if remaining <= 0:
                    await table.act(seat, None, table.version)
                    break
                await self._next_move(table.version, remaining)

    def _propose(self, seat: int, state: State, version: int) -> tuple[Any, float] | None:
        """A bot's move on ``state`` and the seconds it waits first, its own delay and the
        pace (in a worker thread)."""
        proposal = self.bots[seat].propose(state, seat, diabolo.derive_seed(self._seed, version * 64 + seat))
        return None if proposal is None else (proposal[0], float(proposal[1]) + self._pace)
