"""Tables: one game each, with its seats (people or server-side bots), its connections,
its live bots and turn timers, kept in a store as it goes.

A move reaches a table through :meth:`Table.submit`, which takes moves one at a time in
the order they arrive (an :class:`asyncio.Lock` is first come, first served): the move is
tried on a copy of the state (a move that lost a race is a
:class:`~diabolo.StaleMoveError`, one the rules forbid an
:class:`~diabolo.IllegalMoveError`, and neither changes anything), written to the store,
and only then applied, time-stamped and sent: each seat gets the events it may see
(``events_for``), spectators the public ones. The engine decides what each audience may
know; nothing here looks inside a view or an event.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import diabolo
from diabolo.errors import DiaboloError, IllegalMoveError, NotationError, OptionError, PlayerError, StaleMoveError
from diabolo.realtime import Reaction
from diabolo.records import Record
from diabolo.registry import Game, State
from diabolo.server.store import Store, TableRow

LOG = logging.getLogger("diabolo.server")

__all__ = ["Connection", "Rejection", "Seat", "Settings", "Table", "make_bot"]

Audience = int | None
"""A seat, or None for spectators."""

RESUMABLE = 1000
"""How many versions back a reconnect may resume from; from further back it gets the view."""


def make_bot(game: str, kind: str, options: dict[str, Any]) -> Any:
    """A table's bot: :func:`diabolo.bot` with JSON options, where a real-time bot's
    ``reaction`` is ``{"delays": {"play": [mean, spread]}, "minimum": seconds}``
    (:class:`diabolo.realtime.Reaction`) and ``seconds`` is refused (a time budget would
    make the bot's moves depend on the machine).

    >>> make_bot("schacht", "heuristic", {}).name
    'heuristic'
    """
    if "seconds" in options:
        raise OptionError("a server's bot takes no 'seconds': its moves must not depend on the machine")
    options = dict(options)
    if "reaction" in options:
        options["reaction"] = _reaction(options["reaction"])
    return diabolo.bot(game, kind, **options)


def _reaction(data: Any) -> Reaction:
    if not isinstance(data, dict) or set(data) - {"delays", "minimum"}:
        raise OptionError(f'a reaction is {{"delays": {{kind: [mean, spread]}}, "minimum": seconds}}, got {data!r}')
    delays = data.get("delays", {})
    if not isinstance(delays, dict) or not all(isinstance(d, list) and len(d) == 2 for d in delays.values()):
        raise OptionError(f"a reaction's delays are {{kind: [mean, spread]}}, got {delays!r}")
    return Reaction({kind: (d[0], d[1]) for kind, d in delays.items()}, minimum=data.get("minimum", 0.15))


class Connection(Protocol):
    """One client: the server sends it JSON messages, as objects or as JSON text."""

    async def send(self, message: dict[str, Any] | str) -> None: ...


@dataclass(frozen=True)
class Settings:
    """How a table runs. ``turn_seconds``: in a turn-based game, a person who has not
    moved after that many seconds has a random move played for them (None: no timer).
    ``bot_pace``: seconds a turn-based game's bot waits before its move, so that people
    can follow (real-time bots act after their own reaction times)."""

    turn_seconds: float | None = None
    bot_pace: float = 0.8

    @staticmethod
    def from_json(data: dict[str, Any]) -> Settings:
        unknown = set(data) - {"turn_seconds", "bot_pace"}
        if unknown:
            raise OptionError(f"unknown table setting {sorted(unknown)[0]!r}; the settings are bot_pace, turn_seconds")
        turn = data.get("turn_seconds")
        if turn is not None and (not isinstance(turn, (int, float)) or isinstance(turn, bool) or not 1 <= turn <= 3600):
            raise OptionError(f"turn_seconds must be a number of seconds 1..3600 or null, got {turn!r}")
        pace = data.get("bot_pace", 0.8)
        if not isinstance(pace, (int, float)) or isinstance(pace, bool) or not 0 <= pace <= 60:
            raise OptionError(f"bot_pace must be a number of seconds 0..60, got {pace!r}")
        return Settings(None if turn is None else float(turn), float(pace))

    def to_json(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "bot_pace": self.bot_pace}


@dataclass
class Seat:
    """A seat: a person's (``bot`` None; ``token_hash`` once someone took it) or a bot's."""

    name: str
    bot: str | None = None
    bot_options: dict[str, Any] = field(default_factory=dict)
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.bot is not None or self.token_hash is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "bot_options": self.bot_options, "token_hash": self.token_hash}

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "taken": self.taken}


@dataclass(frozen=True)
class Rejection(Exception):
    """A message the table refused, with the reason a client can act on: ``stale`` (the
    move lost a race), ``illegal``, ``bad_move`` (not a move of the game), ``not_your_seat``,
    ``game_over``. ``code`` and ``clause`` are the engine's."""

    reason: str
    message: str
    code: str = ""
    clause: str = ""

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "code": self.code, "clause": self.clause, "message": self.message}


def compact_json(value: Any) -> str:
    """Compact JSON text, as every message is sent (by the tables and the connections)."""
    return json.dumps(value, separators=(",", ":"))


def token_hash(token: str) -> str:
    """What a store keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Table:
    """A game being played: use :meth:`create` or :meth:`restore`, then :meth:`start`."""

    def __init__(
        self, row: TableRow, game: Game, record: Record, seats: list[Seat], settings: Settings, store: Store
    ) -> None:
        self.id = row.id
        self.game_name = row.game
        self.options = row.options
        self.created = row.created
        self.game = game
        self.record = record
        self.seats = seats
        self.settings = settings
        self._store = store
        self._lock = asyncio.Lock()
        self._bots = {s: make_bot(row.game, seat.bot, seat.bot_options) for s, seat in enumerate(seats) if seat.bot}
        self._seed = int(json.loads(row.start).get("seed", 0)) if row.start else 0
        # The events of the last RESUMABLE versions, per audience, as JSON text (a tenth
        # of the memory of their objects), for updates and reconnects.
        self._events: collections.deque[dict[Audience, str]] = collections.deque(maxlen=RESUMABLE)
        self._connections: dict[Audience, set[Connection]] = {}
        self._pending: dict[int, asyncio.Future[None]] = {}  # per seat: a bot's turn or a turn timer
        self._clock_start = time.monotonic()
        self._closed = False

    # ---- making and restoring ------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        store: Store,
        game: Game,
        game_name: str,
        options: dict[str, Any],
        seats: list[Seat],
        settings: Settings,
        seed: int,
    ) -> Table:
        """A new table, stored before it is returned."""
        if len(seats) != game.players:
            raise OptionError(f"{game_name} with these options has {game.players} seats, got {len(seats)}")
        state = game.new_state(seed=seed)
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        row = TableRow(
            secrets.token_hex(6),
            game_name,
            options,
            [seat.to_json() for seat in seats],
            settings.to_json(),
            state.to_json(),
            created,
        )
        record = Record(state, players=[seat.name for seat in seats], started=created)
        table = cls(row, game, record, seats, settings, store)
        await store.create_table(row)
        return table

    @classmethod
    def restore(cls, store: Store, game: Game, row: TableRow) -> Table:
        """A stored table, its accepted moves replayed with their times."""
        seats = [Seat(s["name"], s["bot"], s["bot_options"], s["token_hash"]) for s in row.seats]
        record = Record(game.state_from_json(row.start), players=[seat.name for seat in seats], started=row.created)
        table = cls(row, game, record, seats, Settings.from_json(row.settings), store)
        for step in row.moves:
            record.apply(step.move, player=step.seat, time=step.time)
            table._keep_events()
        table._clock_start = time.monotonic() - (row.moves[-1].time if row.moves else 0.0)
        return table

    # ---- what clients see ----------------------------------------------------------------

    @property
    def state(self) -> State:
        assert self.record.state is not None
        return self.record.state

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def finished(self) -> bool:
        return self.state.is_terminal

    def summary(self) -> dict[str, Any]:
        """What the lobby lists."""
        return {
            "id": self.id,
            "game": self.game_name,
            "options": self.options,
            "seats": [seat.public() for seat in self.seats],
            "settings": self.settings.to_json(),
            "created": self.created,
            "version": self.version,
            "finished": self.finished,
            "spectators": len(self._connections.get(None, ())),
        }

    def welcome(self, audience: Audience, since: int | None) -> dict[str, Any]:
        """The first message of a connection: the audience's view, or, resuming from
        version ``since`` (at most RESUMABLE versions back), the events it missed."""
        message: dict[str, Any] = {
            "type": "welcome",
            "table": self.summary(),
            "seat": audience,
            "version": self.version,
            "time": self.now(),
        }
        if since is not None and self.version - len(self._events) <= since <= self.version:
            first = self.version - len(self._events)
            message["missed"] = [
                {"version": v + 1, "events": json.loads(self._events[v - first][audience])}
                for v in range(since, self.version)
            ]
        else:
            state = self.state
            message["view"] = state.public_observation() if audience is None else state.observation(audience)
        if audience is not None:
            message["legal"] = self._legal(audience)
        return message

    def _legal(self, seat: int) -> list[str]:
        return [str(move) for move in self.state.legal_moves(seat)] if not self.finished else []

    def now(self) -> float:
        """Seconds since the game started, by the server's clock."""
        return round(time.monotonic() - self._clock_start, 3)

    def authenticate(self, seat: Any, token: Any) -> int:
        """The seat a token opens; Rejection otherwise (the same answer for a wrong seat
        and a wrong token)."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.seats):
            stored = self.seats[seat].token_hash
            if stored is not None and isinstance(token, str) and secrets.compare_digest(stored, token_hash(token)):
                return seat
        raise Rejection("bad_token", "no seat of this table has that seat number and token")

    async def take_seat(self, seat: int | None, name: str) -> tuple[int, str]:
        """A free person's seat (the first one when ``seat`` is None) for ``name``, and the
        token that opens it from now on; Rejection when there is none."""
        free = [s for s, spec in enumerate(self.seats) if not spec.taken]
        if seat is None:
            if not free:
                raise Rejection("table_full", "every seat of this table is taken")
            seat = free[0]
        if seat not in free:
            raise Rejection("seat_taken", f"seat {seat} is not a free seat of this table; free: {free}")
        token = secrets.token_urlsafe(24)
        self.seats[seat].name = name
        self.seats[seat].token_hash = token_hash(token)
        await self._store.update_seats(self.id, [spec.to_json() for spec in self.seats])
        self.record.players = [spec.name for spec in self.seats]
        await self._broadcast_table()
        self.start()
        return seat, token

    # ---- connections ---------------------------------------------------------------------

    def attach(self, audience: Audience, connection: Connection) -> None:
        self._connections.setdefault(audience, set()).add(connection)

    def detach(self, audience: Audience, connection: Connection) -> None:
        self._connections.get(audience, set()).discard(connection)

    async def _send(self, audience: Audience, message: dict[str, Any] | str) -> None:
        for connection in list(self._connections.get(audience, ())):
            try:
                await connection.send(message)
            except Exception:  # a connection that went away: its reader detaches it
                self.detach(audience, connection)

    async def _broadcast_table(self) -> None:
        message = {"type": "table", "table": self.summary()}
        for audience in list(self._connections):
            await self._send(audience, message)

    # ---- moves ---------------------------------------------------------------------------

    async def submit(self, seat: int, move: Any, version: int | None) -> int:
        """Plays ``move`` (notation, action id or move data) for ``seat``, made on
        ``version`` of the table (None: the current one): the new version, or Rejection."""
        async with self._lock:
            return await self._play(seat, move, version)

    async def _play(self, seat: int, move: Any, version: int | None) -> int:
        if self.finished:
            raise Rejection("game_over", "the game is over")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 0):
            raise Rejection("bad_message", f"a move's version is a number of moves applied, got {version!r}")
        trial = self.state.clone()
        try:
            trial.apply(move, player=seat, version=version)
        except StaleMoveError as error:
            raise Rejection("stale", str(error), error.code, error.clause) from None
        except IllegalMoveError as error:
            raise Rejection("illegal", str(error), error.code, error.clause) from None
        except (NotationError, PlayerError, OptionError, TypeError, ValueError) as error:
            code = getattr(error, "code", "bad_move")
            raise Rejection("bad_move", str(error), code, getattr(error, "clause", "")) from None
        applied = trial.last_move
        assert applied is not None
        at = self.now()
        await self._store.add_move(self.id, self.version, seat, str(applied[1]), at)
        self.record.apply(applied[1], player=seat, time=at)
        self._keep_events()
        self._cancel_timer(seat)
        await self._announce(at)
        if self.finished:
            self.record.ended = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            await self._store.finish(self.id, self.record.dump())
        self._schedule()
        return self.version

    def _keep_events(self) -> None:
        state = self.state
        seen: dict[Audience, str] = {None: compact_json(state.public_events())}
        for seat in range(len(self.seats)):
            seen[seat] = compact_json(state.events_for(seat))
        self._events.append(seen)

    async def _announce(self, at: float) -> None:
        """Each audience's update, written as text around its kept events' text."""
        seen = self._events[-1]
        head = f'{{"type":"update","version":{self.version},"time":{compact_json(at)},"events":'
        for audience in list(self._connections):
            legal = "" if audience is None else f',"legal":{compact_json(self._legal(audience))}'
            await self._send(audience, f"{head}{seen[audience]}{legal}}}")

    # ---- bots and timers -----------------------------------------------------------------

    def start(self) -> None:
        """Lets the bots and timers run (once every person's seat is taken)."""
        if all(seat.taken for seat in self.seats):
            self._schedule()

    def close(self) -> None:
        """Stops the table's bots and timers (the server is going down)."""
        self._closed = True
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()

    def _schedule(self) -> None:
        """Starts what happens next for each seat with nothing under way: a bot thinks
        (each bot its own task), a person on a turn timer gets one."""
        if self._closed or self.finished or not all(seat.taken for seat in self.seats):
            return
        pending = set(self.state.pending_seats)
        for seat in range(len(self.seats)):
            if seat in self._pending:
                continue
            if seat in self._bots:
                self._pending[seat] = asyncio.ensure_future(self._bot_turn(seat))
            elif self.settings.turn_seconds is not None and self._turn_based and seat in pending:
                self._pending[seat] = asyncio.ensure_future(self._turn_timer(seat, self.settings.turn_seconds))

    @property
    def _turn_based(self) -> bool:
        return not self.game.real_time

    async def _bot_turn(self, seat: int) -> None:
        """A bot decides on a copy of the table, in a worker thread (the C++ bots let go of
        the GIL, so a long search holds up no other table), then acts after its delay: its
        reaction time in real time, the table's bot_pace when turns are taken. A move
        that lost a race meanwhile is refused, and the bot decides again."""
        version, started = self.version, time.monotonic()
        try:
            proposal = await asyncio.to_thread(self._propose, seat, self.state.clone(), version)
        except DiaboloError:  # a bot that cannot decide here waits for the table to change
            LOG.exception("table %s: the bot of seat %d could not decide", self.id, seat)
            proposal = None
        if proposal is None:  # nothing to do: it decides again when the table changes
            self._pending.pop(seat, None)
            return
        move, delay = proposal
        await asyncio.sleep(max(0.0, delay - (time.monotonic() - started)))
        self._pending.pop(seat, None)
        await self._act(seat, move, version)

    async def _turn_timer(self, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._pending.pop(seat, None)
        await self._act(seat, None, self.version)

    def _propose(self, seat: int, state: State, version: int) -> tuple[Any, float] | None:
        bot = self._bots[seat]
        seed = diabolo.derive_seed(self._seed, version * 64 + seat)
        if self._turn_based:
            if seat not in state.pending_seats:
                return None
            return bot.choose(state, seat, seed), self.settings.bot_pace
        proposal = bot.propose(state, seat, seed)
        return None if proposal is None else (proposal[0], float(proposal[1]))

    async def _act(self, seat: int, move: Any, version: int) -> None:
        """A bot's move arrives, or a person's turn timer ran out (``move`` None: a
        random legal move is played for them)."""
        async with self._lock:
            if self._closed or self.finished:
                return
            if move is None:  # the turn timer: the seat has been pending since it was set
                if seat not in self.state.pending_seats:
                    self._schedule()
                    return
                legal = self.state.legal_moves(seat)
                move, version = (
                    legal[diabolo.derive_seed(self._seed, self.version * 64 + seat) % len(legal)],
                    self.version,
                )
            try:
                await self._play(seat, move, version)
            except (Rejection, DiaboloError):
                self._schedule()  # lost a race: the bot decides again

    def _cancel_timer(self, seat: int) -> None:
        """A person moved: their turn timer stops (a bot's pending move stays in flight:
        it may still arrive, and lose a race)."""
        if seat not in self._bots and seat in self._pending:
            self._pending.pop(seat).cancel()
