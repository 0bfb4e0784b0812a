"""Tables: one game each, with its seats (people or server-side bots), kept in a store as
it goes. A :class:`Table` is the game's authority (it applies moves, counts versions,
keeps the record and the seats); its jobs around that are objects of their own, each
tested without sockets: its audiences (:class:`~diabolo.server.audiences.Audiences`:
who watches, what each was shown), its writes (:class:`~diabolo.server.ledger.Ledger`),
its bots and turn timers (:class:`~diabolo.server.drivers.Drivers`, on a clock they are
given), and, with other processes, the relays of :mod:`diabolo.server.cluster`.

A move reaches a table through :meth:`Table.submit`, which takes moves one at a time in
the order they arrive (an :class:`asyncio.Lock` is first come, first served): the move is
tried on a copy of the state (a move that lost a race is a
:class:`~diabolo.StaleMoveError`, one the rules forbid an
:class:`~diabolo.IllegalMoveError`, and neither changes anything), written to the store,
and only then applied, time-stamped and sent: each seat gets the events it may see
(``events_for``), spectators the public ones. The engine decides what each audience may
know; nothing here looks inside a view or an event.

Each audience (a seat, or the spectators) is told only what the engine lets it see, and
counts its own versions (:mod:`diabolo.server.audiences`); a seat names its own version
when it moves, and the table maps it to the true version it stood for for the engine's
race check (:class:`~diabolo.StaleMoveError`). Every write to the store goes through the
table's :class:`~diabolo.server.ledger.Ledger` (fenced, outages waited out).

**Liveness.** Every bot seat, and every person's seat on a turn timer, has a task of its
own for the whole game (:mod:`diabolo.server.drivers`): no table can stall because a
decision took long.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import hashlib
import json
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import diabolo
from diabolo import ladder
from diabolo.errors import (
    DiaboloError,
    IllegalMoveError,
    InvalidWordError,
    NotationError,
    OptionError,
    PlayerError,
    StaleMoveError,
)
from diabolo.realtime import Reaction
from diabolo.records import Record
from diabolo.registry import Game, State, catalogue_entry, paces
from diabolo.server.audiences import Audience, Audiences, Connection
from diabolo.server.drivers import Drivers
from diabolo.server.ledger import Ledger
from diabolo.server.metrics import Metrics
from diabolo.server.pool import EnginePool
from diabolo.server.protocol import Reason, Rejection, error_message
from diabolo.server.store import Fenced, Store, TableRow
from diabolo.server.talk import ChatRules, Rooms, is_away

LOG = logging.getLogger("diabolo.server")

__all__ = [
    "BOT_NAMES",
    "Seat",
    "Settings",
    "Table",
    "bot_level",
    "bot_name",
    "table_settings",
    "make_bot",
]

_DELAY_OPTIONS = ("per_letter",)
"""Bot options that are a time, in seconds, capped like the reaction delays."""

HANDOFF_SECONDS = 600.0
"""How long a seat's link to continue on another device works (once; Table.handoff)."""
HANDOFF_EVERY_SECONDS = 2.0
"""A seat makes at most one such link in this time (429 ``too_fast`` otherwise): each writes
the seat to the store and draws a QR code (about 14 ms of a worker)."""

BOT_NAMES = ("Ada", "Bram", "Cleo", "Dirk", "Elke", "Finn", "Greta", "Hugo")
"""The names a table's bots get when the request names none: seat n's is BOT_NAMES[n]."""


def bot_name(seat: int) -> str:
    """The name of the bot in ``seat`` when nobody named it.

    >>> bot_name(2)
    'Cleo'
    """
    return BOT_NAMES[seat % len(BOT_NAMES)]


def bot_level(game: str, kind: str, options: dict[str, Any]) -> str | None:
    """How well a bot plays, in the word people see beside its name (``easy``,
    ``medium`` or ``strong``): its level on the published ladder of the game's bots
    (:func:`diabolo.ladder.level`, docs/strength.rst); None for a bot the ladder has not
    measured (a game or a kind without a rung), which people see without a level.

    >>> bot_level("schacht", "random", {}), bot_level("schacht", "ismcts", {"iterations": 500})
    ('easy', 'strong')
    >>> bot_level("highcard", "highest", {}) is None
    True
    """
    try:
        return ladder.level(game, kind, options)
    except KeyError:  # ladder.level's answer for a game or a kind not on the ladder
        return None


def make_bot(game: str, kind: str, options: dict[str, Any], caps: dict[str, float] | None = None) -> Any:
    """A table's bot: :func:`diabolo.bot` with JSON options, where a real-time bot's
    ``reaction`` is ``{"delays": {"play": [mean, spread]}, "minimum": seconds}``
    (:class:`diabolo.realtime.Reaction`) and ``seconds`` is refused (a time budget would
    make the bot's moves depend on the machine). ``caps`` bounds the options a client
    may choose: ``iterations``, ``threads``, and ``delay`` for every time a bot waits. A
    real-time bot given no ``reaction`` plays at its level's pace for people
    (:func:`diabolo.registry.paces`; within ``delay``: a delay that would pass it is
    shortened, its mean and spread alike).

    >>> make_bot("schacht", "heuristic", {}).name
    'heuristic'
    >>> make_bot("schacht", "ismcts", {"iterations": 10**8}, {"iterations": 10000})
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: this server's bots search at most 10000 iterations, got 100000000
    """
    if "seconds" in options:
        raise OptionError("a server's bot takes no 'seconds': its moves must not depend on the machine")
    caps = caps or {}
    options = dict(options)
    for name, most in caps.items():
        value = options.get(name)
        if name in ("iterations", "threads") and isinstance(value, (int, float)) and value > most:
            what = "search at most" if name == "iterations" else "use at most"
            raise OptionError(f"this server's bots {what} {most:g} {name}, got {value}")
    delay = caps.get("delay")
    for name in _DELAY_OPTIONS:
        value = options.get(name)
        if delay is not None and isinstance(value, (int, float)) and value > delay:
            raise OptionError(f"this server's bots wait at most {delay:g} s, got {name} {value}")
    if "reaction" in options:
        options["reaction"] = _reaction(options["reaction"], delay)
    else:
        pace = paces(game).get(bot_level(game, kind, options) or "")
        if pace:
            options["reaction"] = Reaction({action: _within(d, delay) for action, d in pace.items()})
    return diabolo.bot(game, kind, **options)


def _within(delay: tuple[float, float], most: float | None) -> tuple[float, float]:
    """A pace's (mean, spread), shortened alike so that mean + 6 x spread (its longest
    wait) is at most ``most``."""
    mean, spread = delay
    longest = mean + 6 * spread
    if most is None or longest <= most:
        return delay
    return mean * most / longest, spread * most / longest


def _reaction(data: Any, most: float | None) -> Reaction:
    if not isinstance(data, dict) or set(data) - {"delays", "minimum"}:
        raise OptionError(f'a reaction is {{"delays": {{kind: [mean, spread]}}, "minimum": seconds}}, got {data!r}')
    delays = data.get("delays", {})
    if not isinstance(delays, dict) or not all(
        isinstance(d, list) and len(d) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in d)
        for d in delays.values()
    ):
        raise OptionError(f"a reaction's delays are {{kind: [mean, spread]}} in seconds, got {delays!r}")
    minimum = data.get("minimum", 0.15)
    if most is not None:
        for kind, (mean, spread) in delays.items():
            if mean + 6 * spread > most:
                raise OptionError(
                    f"this server's bots wait at most {most:g} s: the {kind!r} delay {mean} + 6 x {spread} is longer"
                )
        if isinstance(minimum, (int, float)) and minimum > most:
            raise OptionError(f"this server's bots wait at most {most:g} s, got minimum {minimum}")
    return Reaction({kind: (d[0], d[1]) for kind, d in delays.items()}, minimum=minimum)


def table_settings(game: str) -> tuple[str, ...]:
    """The table settings (:class:`Settings`) that apply to tables of ``game``, read from
    its catalogue entry: a turn-based game's turn timer and bot pace, a game of words'
    practice hints (the lobby shows only these fields).

    >>> table_settings("schacht"), table_settings("duvelen"), table_settings("knizia")
    (('turn_seconds', 'bot_pace'), (), ('practice',))
    """
    entry = catalogue_entry(game)
    return (() if entry.real_time else ("turn_seconds", "bot_pace")) + (("practice",) if entry.lexicon else ())


@dataclass(frozen=True)
class Settings:
    """How a table runs. ``turn_seconds``: in a turn-based game, a person who has not
    moved after that many seconds has a random move played for them (None: no timer).
    ``bot_pace``: seconds a turn-based game's bot waits before its move, so that people
    can follow (real-time bots act after their own reaction times). ``practice``: a
    Knizia table that shows each seat some of the words it could call."""

    turn_seconds: float | None = None
    bot_pace: float = 0.8
    practice: bool = False

    @staticmethod
    def from_json(data: dict[str, Any], game: str = "", max_pace: float = 60.0) -> Settings:
        unknown = set(data) - {"turn_seconds", "bot_pace", "practice"}
        if unknown:
            raise OptionError(
                f"unknown table setting {sorted(unknown)[0]!r}; the settings are bot_pace, practice, turn_seconds"
            )
        turn = data.get("turn_seconds")
        if turn is not None and (not isinstance(turn, (int, float)) or isinstance(turn, bool) or not 1 <= turn <= 3600):
            raise OptionError(f"turn_seconds must be a number of seconds 1..3600 or null, got {turn!r}")
        pace = data.get("bot_pace", 0.8)
        if not isinstance(pace, (int, float)) or isinstance(pace, bool) or not 0 <= pace <= max_pace:
            raise OptionError(f"bot_pace must be a number of seconds 0..{max_pace:g}, got {pace!r}")
        practice = data.get("practice", False)
        if not isinstance(practice, bool):
            raise OptionError(f"practice must be true or false, got {practice!r}")
        if practice and game and "practice" not in table_settings(game):
            raise OptionError("practice tables show some of the words a seat could call: games of words only")
        return Settings(None if turn is None else float(turn), float(pace), practice)

    def to_json(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "bot_pace": self.bot_pace, "practice": self.practice}


@dataclass
class Seat:
    """A seat: a person's (``bot`` None; ``token_hash`` once someone took it) or a bot's.
    A rematch's person seat is ``reserved_for`` the hash of the token that held it in the
    game before, until that person takes it or declines. ``handoff`` is the hash of the
    one-time code that moves a person's seat to another device, with the wall-clock time
    it works until (Table.handoff)."""

    name: str
    bot: str | None = None
    bot_options: dict[str, Any] = field(default_factory=dict)
    token_hash: str | None = None
    reserved_for: str | None = None
    handoff: tuple[str, float] | None = None

    @property
    def taken(self) -> bool:
        return self.bot is not None or self.token_hash is not None

    def held_by(self, token: Any) -> bool:
        """Whether ``token`` opens this seat."""
        return _matches(self.token_hash, token)

    def reserved_by(self, token: Any) -> bool:
        """Whether this free seat is reserved for the holder of ``token`` (a rematch)."""
        return not self.taken and _matches(self.reserved_for, token)

    def handed_by(self, code: Any, now: float) -> bool:
        """Whether ``code`` is this held seat's link to another device, and works at ``now``."""
        return self.handoff is not None and now <= self.handoff[1] and _matches(self.handoff[0], code)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": self.bot,
            "bot_options": self.bot_options,
            "token_hash": self.token_hash,
            "reserved_for": self.reserved_for,
            "handoff": None if self.handoff is None else list(self.handoff),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        handoff = data.get("handoff")
        return Seat(
            data["name"],
            data["bot"],
            data["bot_options"],
            data["token_hash"],
            data.get("reserved_for"),
            None if handoff is None else (handoff[0], float(handoff[1])),
        )

    def public(self, game: str) -> dict[str, Any]:
        """What everyone may know of the seat of a table of `game`: its name, its bot and
        how well it plays, whether someone sits there, and whether it waits for a player
        of the last game."""
        return {
            "name": self.name,
            "bot": self.bot,
            "level": None if self.bot is None else bot_level(game, self.bot, self.bot_options),
            "taken": self.taken,
            "reserved": not self.taken and self.reserved_for is not None,
        }


def _matches(stored: str | None, token: Any) -> bool:
    return stored is not None and isinstance(token, str) and secrets.compare_digest(stored, token_hash(token))


def token_hash(token: str) -> str:
    """What a store keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _seat_number(seat: Any, seats: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats


_STALE_VERSIONS = re.compile(r"it was legal at version \d+, the state is at version \d+")


class Table:
    """A game being played: use :meth:`create` or :meth:`restore`, then :meth:`start`."""

    def __init__(
        self,
        row: TableRow,
        game: Game,
        record: Record,
        seats: list[Seat],
        settings: Settings,
        store: Store,
        pool: EnginePool,
        *,
        bot_caps: dict[str, float] | None = None,
        hints: int = 20,
        chat: ChatRules | None = None,
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        self.id = row.id
        self.game_name = row.game
        self.options = row.options
        self.created = row.created
        self.creator = row.creator
        """The address of the client that created the table (for its limit of tables)."""
        self.ledger = Ledger(store, row.id, row.fence)
        """The table's writes to the store."""
        self.game = game
        self.record = record
        self.seats = seats
        self.settings = settings
        self._pool = pool
        self._hints = hints
        self._chat = chat or ChatRules()
        self.rooms = Rooms(self._chat.kept)
        """The table's chat rooms (talk.Rooms): what a page that comes in reads."""
        self._clock = clock
        self._metrics = metrics
        self._lock = asyncio.Lock()
        self._handed: dict[int, float] = {}  # when each seat last made a handoff link (monotonic)
        self._seed = int(json.loads(row.start).get("seed", 0)) if row.start else 0
        bots = {s: make_bot(row.game, seat.bot, seat.bot_options, bot_caps) for s, seat in enumerate(seats) if seat.bot}
        pace = 0.0 if game.real_time else settings.bot_pace  # real-time bots keep their own reaction times
        self.drivers = Drivers(self, pool, bots, self._seed, pace, clock=clock)
        """The table's bots and turn timers."""
        self.audiences = Audiences(len(seats), on_presence=self._presence_moved)
        """Who watches the table, and what each seat and the spectators were shown."""
        self._presence_shown: tuple[list[str | None], int] = ([], 0)  # the presence the table was last told
        self._moves_by = [0] * len(seats)
        self._due: dict[int, float] = {}  # seat -> when it became due to act (the clock's reading)
        self._clock_start = clock()
        self.last_activity = clock()
        """When a move was last made or a seat taken, by the table's clock (for expiry)."""
        self._records: dict[bool, tuple[int, str]] = {}
        self._background: set[asyncio.Future[None]] = set()
        self._closed = False
        self._closed_reason: Reason = "moved"
        self.on_change: Callable[[Table], None] | None = None
        """Called when the summary may have changed (a move, a seat taken, a spectator)."""
        self.on_lost: Callable[[Table], None] | None = None
        """Called when the store refused a move's write: another process plays the table now."""
        self.rematch: str | None = None
        """The id of the table of this game's rematch, once a player asked for one."""

    # ---- making and restoring ------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        store: Store,
        pool: EnginePool,
        game: Game,
        game_name: str,
        options: dict[str, Any],
        seats: list[Seat],
        settings: Settings,
        seed: int,
        creator: str = "",
        table_id: str | None = None,
        **limits: Any,
    ) -> Table:
        """A new table (``table_id``, or a new id), stored before it is returned."""
        if len(seats) != game.players:
            raise OptionError(f"{game_name} with these options has {game.players} seats, got {len(seats)}")
        state = game.new_state(seed=seed)
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        row = TableRow(
            table_id or secrets.token_hex(6),
            game_name,
            options,
            [seat.to_json() for seat in seats],
            settings.to_json(),
            state.to_json(),
            created,
            creator=creator,
        )
        record = Record(state, players=[seat.name for seat in seats], started=created)
        table = cls(row, game, record, seats, settings, store, pool, **limits)
        await store.create_table(row)
        return table

    @classmethod
    def restore(cls, store: Store, pool: EnginePool, game: Game, row: TableRow, **limits: Any) -> Table:
        """A stored table, its accepted moves replayed with their times (engine work: the
        lobby runs it in the pool)."""
        seats = [Seat.from_json(s) for s in row.seats]
        record = Record(game.state_from_json(row.start), players=[seat.name for seat in seats], started=row.created)
        settings = Settings.from_json(row.settings)
        table = cls(row, game, record, seats, settings, store, pool, **limits)
        for step in row.moves:
            record.apply(step.move, player=step.seat, time=step.time)
            table.audiences.keep(table.state, step.seat, step.time)
        table._clock_start = table._clock() - (row.moves[-1].time if row.moves else 0.0)
        return table

    # ---- what clients see ----------------------------------------------------------------

    @property
    def state(self) -> State:
        assert self.record.state is not None
        return self.record.state

    @property
    def version(self) -> int:
        """The true version: every move applied (an audience's own count is smaller when
        some moves showed it nothing)."""
        return self.state.version

    @property
    def public_version(self) -> int:
        """The spectators' version: the moves that showed them something."""
        return self.audiences.seen[None].version

    @property
    def finished(self) -> bool:
        return self.state.is_terminal

    @property
    def waiting(self) -> bool:
        """Whether a person's seat is still free (bots and timers wait for it)."""
        return not all(seat.taken for seat in self.seats)

    def summary(self) -> dict[str, Any]:
        """What the lobby lists (nothing in it moves on a secret decision)."""
        return {
            "id": self.id,
            "game": self.game_name,
            "title": self.game.title,
            "real_time": self.game.real_time,
            "options": self.options,
            "seats": [seat.public(self.game_name) for seat in self.seats],
            "settings": self.settings.to_json(),
            "created": self.created,
            "version": self.public_version,
            "finished": self.finished,
            "waiting": self.waiting,
            "spectators": self.audiences.spectators,
            "rematch": self.rematch,
        }

    def welcome(self, audience: Audience, since: int | None) -> dict[str, Any]:
        """The first message of a connection: the audience's view, or, resuming from its
        version ``since``, the events it missed (when they are kept and fit in
        MAX_SERVER_MESSAGE; the view otherwise)."""
        catch_up = self.audiences.catch_up(self.state, audience, since)
        message: dict[str, Any] = {
            "type": "welcome",
            "table": self.summary(),
            "seat": audience,
            "version": catch_up.pop("version"),
            "time": self.now(),
            "played": self.version,  # the moves so far: the public record's, which a page's log is rebuilt from
            **self._presence_fields(),
            "chat": self.rooms.lines(audience),
            **self._clock_fields(),
        }
        message.update(catch_up)
        return message

    def now(self) -> float:
        """Seconds since the game started, by the server's clock."""
        return round(self._clock() - self._clock_start, 3)

    def authenticate(self, seat: Any, token: Any) -> int:
        """The seat a token opens; Rejection otherwise (the same answer for a wrong seat
        and a wrong token)."""
        if _seat_number(seat, len(self.seats)) and self.seats[seat].held_by(token):
            return int(seat)
        raise Rejection("bad_token", "no seat of this table has that seat number and token")

    async def take_seat(
        self, seat: int | None, name: str, token: Any = None, handoff: Any = None
    ) -> tuple[int, str, dict[str, Any]]:
        """A free person's seat (the first one when ``seat`` is None) for ``name``, and the
        token that opens it from now on; Rejection when there is none. A seat reserved
        for a rematch is free only to the ``token`` that held it in the game before (with
        that token and no ``seat``, the seat reserved for it). With ``handoff``, the held
        ``seat`` whose link to another device that code is (see :meth:`handoff`): it keeps
        its name, and the token that held it stops. The seat is stored before it is given
        (one request at a time: a seat is never given twice)."""
        async with self._lock:
            self._check_open()
            if handoff is not None:
                return await self._take_handed(seat, handoff)
            return await self._take_seat(seat, name, token)

    async def handoff(self, seat: Any, token: Any) -> tuple[str, str]:
        """A one-time code that moves the person's ``seat`` (opened by ``token``) to another
        device, and the table's game (which the link names): :meth:`take_seat` with the
        code gives the seat a new token, and the connections of the old one are told
        (``seat_moved``) and closed. It works once, for HANDOFF_SECONDS; a new code
        replaces the seat's last one. Rejection ``bad_token`` for a token that opens no seat,
        ``too_fast`` for a second link within HANDOFF_EVERY_SECONDS."""
        async with self._lock:
            self._check_open()
            seat = self.authenticate(seat, token)
            now = time.monotonic()
            if now - self._handed.get(seat, -HANDOFF_EVERY_SECONDS) < HANDOFF_EVERY_SECONDS:
                raise Rejection("too_fast", f"a seat makes at most one link every {HANDOFF_EVERY_SECONDS:g} s")
            self._handed[seat] = now
            code = secrets.token_urlsafe(18)
            until = time.time() + HANDOFF_SECONDS
            await self._change_seat(seat, dataclasses.replace(self.seats[seat], handoff=(token_hash(code), until)))
            return code, self.game_name

    async def _take_handed(self, seat: Any, code: Any) -> tuple[int, str, dict[str, Any]]:
        if not (_seat_number(seat, len(self.seats)) and self.seats[seat].handed_by(code, time.time())):
            raise Rejection(
                "bad_handoff",
                "that link to continue on another device is wrong, used or expired: make a new one where the seat is",
            )
        new_token = secrets.token_urlsafe(24)
        await self._change_seat(
            seat, dataclasses.replace(self.seats[seat], token_hash=token_hash(new_token), handoff=None)
        )
        moved = Rejection("seat_moved", f"seat {seat} continues on another device: this page now only watches")
        await self.audiences.send(seat, error_message(moved), everywhere=True)
        self.audiences.end(seat)
        return seat, new_token, self.summary()

    def _free_seats(self) -> list[int]:
        """The person's seats that nobody holds and no player of the last game is owed."""
        return [s for s, spec in enumerate(self.seats) if not spec.taken and spec.reserved_for is None]

    def _not_free(self, seat: Any) -> Rejection:
        """The refusal of a seat that is not free (taken, a bot's, reserved, or no seat)."""
        reserved = seat in range(len(self.seats)) and not self.seats[seat].taken
        why = "reserved for a player of the last game" if reserved else "not a free seat of this table"
        return Rejection("seat_taken", f"seat {seat} is {why}; free: {self._free_seats()}")

    async def _take_seat(self, seat: int | None, name: str, token: Any) -> tuple[int, str, dict[str, Any]]:
        free = self._free_seats()
        mine = [s for s, spec in enumerate(self.seats) if spec.reserved_by(token)]
        if seat is None:
            if not mine + free:
                raise Rejection("table_full", "every seat of this table is taken")
            seat = (mine + free)[0]
        if seat not in mine + free:
            raise self._not_free(seat)
        new_token = secrets.token_urlsafe(24)
        await self._change_seat(
            seat, dataclasses.replace(self.seats[seat], name=name, token_hash=token_hash(new_token), reserved_for=None)
        )
        self.start()
        return seat, new_token, self.summary()

    async def seat_bot(self, seat: Any, by: Any, token: Any) -> dict[str, Any]:
        """The person in seat ``by`` (``token``) fills the free ``seat`` of a table that
        waits for its people with the game's stand-in bot (its catalogue entry), named as a
        bot seat not named is: after a declined rematch, the others need not wait for a
        stranger. The game starts once no seat is free. The table's summary after it;
        Rejection ``bad_token`` for a token that opens no seat, ``seat_taken`` for a seat
        that is not free (taken, or reserved for a player of the last game)."""
        async with self._lock:
            self._check_open()
            self.authenticate(by, token)
            if not (_seat_number(seat, len(self.seats)) and seat in self._free_seats()):
                raise self._not_free(seat)
            kind = catalogue_entry(self.game_name).stand_in
            await self._change_seat(seat, Seat(bot_name(seat), kind, {}, None, None))
            self.drivers.bots[seat] = make_bot(self.game_name, kind, {})  # its task starts with the others'
            self.start()
            return self.summary()

    async def _change_seat(self, seat: int, spec: Seat) -> None:
        """Stores the seats with ``spec`` in ``seat``, then (only once it is stored) makes
        it the seat's, names the record's players, and tells the table and the lobby."""
        seats = [spec if s == seat else other for s, other in enumerate(self.seats)]
        try:
            await self.ledger.update_seats([other.to_json() for other in seats])
        except Fenced:
            raise self._lose() from None
        self.seats[seat] = spec
        self.record.players = [spec.name for spec in self.seats]
        self.last_activity = self._clock()
        await self._broadcast_table()
        self._changed()

    async def leave_seat(self, seat: Any, token: Any) -> dict[str, Any]:
        """The holder of ``token`` leaves ``seat``: a table still waiting for players frees
        the seat; in a game under way a bot (the game's ``stand_in`` in the catalogue)
        plays on in it, named after the person; after the game nothing changes. For a seat
        reserved for a rematch, the player declines it and the seat is free to anyone. The
        table's summary after it; Rejection ``bad_token`` when the token opens neither."""
        async with self._lock:
            self._check_open()
            if _seat_number(seat, len(self.seats)) and self.seats[seat].reserved_by(token):
                await self._change_seat(seat, dataclasses.replace(self.seats[seat], reserved_for=None))  # declined
                return self.summary()
            seat = self.authenticate(seat, token)
            spec = self.seats[seat]
            if self.finished:
                return self.summary()
            if self.waiting:
                await self._change_seat(seat, dataclasses.replace(spec, token_hash=None))
                return self.summary()
            bot = catalogue_entry(self.game_name).stand_in
            await self._change_seat(seat, Seat(f"{spec.name} (bot)"[:40], bot, {}, None, spec.reserved_for))
            self.drivers.add_bot(seat, make_bot(self.game_name, bot, {}))
            return self.summary()

    @property
    def busy(self) -> bool:
        """Whether a move or a seat is being written now."""
        return self._lock.locked()

    @property
    def abandoned(self) -> bool:
        """A game under way or waiting that no person holds or may come back to: every
        person's seat is free and none is reserved (the lobby then closes it)."""
        people = [spec for spec in self.seats if spec.bot is None]
        return not self.finished and not any(spec.token_hash or spec.reserved_for for spec in people)

    async def rematch_offer(self, seat: Any, token: Any) -> dict[str, Any]:
        """What a rematch of this finished game is made of, for the holder of ``seat``'s
        ``token``: the rematch's id if there is one already, else the game, options,
        settings and seats, each person's seat reserved for whoever held it."""
        seat = self.authenticate(seat, token)
        if not self.finished:
            raise Rejection("bad_request", "a rematch is offered once the game is over", "game_not_over")
        seats = [
            Seat(spec.name, spec.bot, spec.bot_options, None, None if spec.bot else spec.token_hash).to_json()
            for spec in self.seats
        ]
        return {
            "rematch": self.rematch,
            "game": self.game_name,
            "options": self.options,
            "settings": self.settings.to_json(),
            "seats": seats,
        }

    async def set_rematch(self, table_id: str, seat: Any, token: Any) -> str:
        """Links this game to its rematch (the first link stays), for the holder of
        ``seat``'s ``token``: the rematch's id. Every page of the table hears of it (the
        table message), to ask its player."""
        self.authenticate(seat, token)
        if self.rematch is None:
            self.rematch = table_id
            await self._broadcast_table()
            self._changed()
        return self.rematch

    async def record_text(self, public: bool) -> str:
        """The game's record as JSON: the public one (redacted for spectators), or, once
        the game is over and ``public`` is False, the full one. Built in the pool, kept
        until the next move."""
        public = public or not self.finished
        cached = self._records.get(public)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        version, record = self.version, self._snapshot()
        text = await self._pool.run(self.id, lambda: (record.redacted(None) if public else record).dump())
        if version == self.version:
            self._records[public] = (version, text)
        return text

    def _snapshot(self) -> Record:
        """A copy of the record that moves made meanwhile leave alone (for a worker thread)."""
        snapshot = copy.copy(self.record)
        snapshot.state = self.state.clone()
        snapshot.moves = list(self.record.moves)
        snapshot.rounds = [dict(r) for r in self.record.rounds]
        return snapshot

    # ---- connections ---------------------------------------------------------------------

    async def join(self, hello: dict[str, Any], connection: Connection | None) -> tuple[Audience, dict[str, Any]]:
        """A connection's hello (``seat`` and ``token``, or neither for a spectator;
        ``since``): its audience and welcome, and from now on its messages (None: a client
        of another process, which counts it with watched_elsewhere). Rejection for a wrong
        seat or token; ``moved`` (or why it closed) for a table no longer played here."""
        self._check_open()
        audience = None if hello.get("seat") is None else self.authenticate(hello.get("seat"), hello.get("token"))
        since = hello.get("since")
        since = since if isinstance(since, int) and not isinstance(since, bool) else None
        if connection is not None:
            self.audiences.attach(audience, connection)
        return audience, self.welcome(audience, since)

    async def leave(self, audience: Audience, connection: Connection) -> None:
        self.audiences.detach(audience, connection)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    # ---- presence and chat ---------------------------------------------------------------

    def _presence_fields(self) -> dict[str, Any]:
        """Each seat's presence (talk.Presence; None for a bot's) and the spectators."""
        shown = self.audiences.presence()
        seats = [None if spec.bot else shown[s] for s, spec in enumerate(self.seats)]
        return {"presence": seats, "spectators": self.audiences.spectators}

    def _presence_moved(self) -> None:
        """A connection came, went, or was hidden or shown: the table is told when a seat's
        presence or the count of spectators changed (and the lobby, of the spectators)."""
        fields = self._presence_fields()
        now = (fields["presence"], fields["spectators"])
        if now == self._presence_shown:
            return
        if now[1] != self._presence_shown[1]:
            self._changed()
        self._presence_shown = now
        try:
            task = asyncio.get_running_loop().create_task(self.audiences.broadcast({"type": "presence", **fields}))
        except RuntimeError:  # no event loop: a table being built
            return
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def presence(self, audience: Audience, connection: Connection | None, state: Any) -> None:
        """A page of ``audience`` says it is hidden (``"away"``) or shown (``"here"``)."""
        self.audiences.set_away(audience, connection, is_away(state))

    async def chat(self, audience: Audience, text: Any) -> None:
        """``text`` said by a seat to the players (every seat hears it) or by a spectator to
        the spectators; cleaned, bounded and passed through the server's filter
        (talk.ChatRules), kept for pages that come in. Rejection ``bad_message`` otherwise."""
        self._check_open()
        line = self._chat.passed(self._chat.clean(text), audience, self.id)
        name = "a spectator" if audience is None else self.seats[audience].name
        message = {"type": "chat", "seat": audience, "name": name, "text": line, "time": self.now()}
        self.rooms.keep(message)
        for target in [None] if audience is None else range(len(self.seats)):
            await self.audiences.send(target, message)

    async def _broadcast_table(self) -> None:
        await self.audiences.broadcast({"type": "table", "table": self.summary()})

    # ---- moves ---------------------------------------------------------------------------

    async def submit(self, seat: int, move: Any, version: int | None) -> int:
        """Plays ``move`` (notation, action id or move data) for ``seat``, made on the
        seat's ``version`` (None: the current one): the seat's new version, or Rejection."""
        if version is not None and (not isinstance(version, int) or isinstance(version, bool) or version < 0):
            raise Rejection("bad_message", f"a move's version is a number of updates seen, got {version!r}")
        arrived = time.perf_counter()
        async with self._lock:
            seen = self.audiences.seen[seat]
            if version is not None and version > seen.version:
                raise Rejection("bad_message", f"version {version} is ahead of this seat's {seen.version}")
            true_version = None if version is None else seen.true_version(version)
            await self._play(seat, move, true_version)
        if self._metrics is not None:
            self._metrics.move_took(time.perf_counter() - arrived)
        return seen.version

    async def _play(self, seat: int, move: Any, version: int | None, timed_out: bool = False) -> None:
        """Applies ``seat``'s move (checked, written, then sent to every audience it shows
        something to); ``timed_out``: the server played it when the seat's time ran out."""
        self.last_activity = self._clock()  # someone tries to play: not idle, even while the store is away
        self._check_open()
        if self.finished:
            raise Rejection("game_over", "the game is over")
        trial = self.state.clone()
        try:
            trial.apply(move, player=seat, version=version)
        except StaleMoveError as error:
            message, params = self._seat_versions(seat, str(error), error.params)
            raise Rejection("stale", message, error.code, error.clause, params) from None
        except IllegalMoveError as error:
            raise Rejection("illegal", str(error), error.code, error.clause, error.params) from None
        except (NotationError, PlayerError, OptionError, TypeError, ValueError) as error:
            code = getattr(error, "code", "bad_move")
            params = getattr(error, "params", {})
            raise Rejection("bad_move", str(error), code, getattr(error, "clause", ""), params) from None
        applied = trial.last_move
        assert applied is not None
        at = self.now()
        try:
            await self.ledger.add_move(self.version, seat, str(applied[1]), at)
        except Fenced:
            LOG.warning("table %s: another process holds it now (move %d refused)", self.id, self.version + 1)
            raise self._lose() from None
        self.record.apply(applied[1], player=seat, time=at)
        if self._metrics is not None:
            self._metrics.moved(self.game_name)
        self._moves_by[seat] += 1
        self._note_due(seat)
        self.last_activity = self._clock()
        shown = self.audiences.keep(self.state, seat, at)
        self.drivers.moved()
        await self._announce(shown, at, seat if timed_out else None)
        if None in shown:
            self._changed()
        if self.finished:
            self.record.ended = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            await self.store_finish()

    async def store_finish(self) -> None:
        """Stores the finished game's record. When the store does not take it, the game
        stays running in the store, and whoever takes the table next stores it."""
        try:
            await self.ledger.finish(self.record.dump())
        except Fenced:
            self._lose()
        except Rejection:
            LOG.warning("table %s: its finished record waits for the store", self.id)

    def _lose(self) -> Rejection:
        """Another process holds the table now (the store fenced a write off): the lobby
        lets it go; the refusal for the request that found out."""
        if self.on_lost is not None:
            self.on_lost(self)
        return Rejection("moved", "this table is played by another process now: reconnect")

    def _check_open(self) -> None:
        """Rejection (``moved``, or why it closed) once the table is no longer played here."""
        if self._closed:
            raise Rejection(self._closed_reason, "this table is no longer played here: reconnect")

    def _seat_versions(self, seat: int, message: str, params: dict[str, str]) -> tuple[str, dict[str, str]]:
        """A stale move's message and params with the seat's own version (the table's true
        versions count the others' secret decisions, S7.1): the engine's message names
        them in a sentence of its own, which is replaced."""
        seen = self.audiences.seen[seat]
        own = f"it was legal on your version, the table is at your version {seen.version}"
        kept = {key: value for key, value in params.items() if key not in ("seen", "version")}
        return _STALE_VERSIONS.sub(own, message), {**kept, "version": str(seen.version)}

    async def _announce(self, shown: list[Audience], at: float, timed_out: int | None = None) -> None:
        """The move's updates to the audiences it showed something to (with the turn
        timers' deadlines, and ``timeout``: the seat whose move the server played when its
        time ran out), then a practice table's hints."""
        fields = self._clock_fields()
        if timed_out is not None:
            fields["timeout"] = timed_out
        await self.audiences.announce(self.state, shown, at, fields)
        if self.settings.practice and not self.finished:
            task = asyncio.ensure_future(self._send_hints(self.version))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _send_hints(self, version: int) -> None:
        """A practice table's hints: some of the words the table holds (found in the pool)."""
        state = self.state
        assert isinstance(state, diabolo.knizia.KniziaState)
        table, lexicon, min_cards, most = state.table, state.game.lexicon, state.game.min_cards, self._hints

        def find() -> tuple[list[str], int]:
            found = diabolo.knizia.find_words(table, lexicon, min_cards)
            return [match.word for match in found[:most]], len(found)

        words, count = await self._pool.run(self.id, find)
        if version == self.version:
            for seat in range(len(self.seats)):
                hints = {"type": "hints", "version": self.audiences.seen[seat].version, "words": words, "count": count}
                await self.audiences.send(seat, hints)

    async def settle(self) -> None:
        """Returns once the move under way, if any, is written and sent."""
        async with self._lock:
            pass

    # ---- bots and timers -----------------------------------------------------------------

    def start(self) -> None:
        """Lets the bots and timers run, once every person's seat is taken: each bot seat
        and each timed person's seat gets its task for the rest of the game."""
        if self.drivers.started or self._closed or self.finished or self.waiting:
            return
        self._note_due(None)
        self.drivers.start(self.settings.turn_seconds)

    def close(self, reason: Reason = "moved") -> None:
        """Stops the table's bots and timers (the table expired, moved, or the server is
        going down); moves that still arrive are refused with ``reason``."""
        self._closed, self._closed_reason = True, reason
        self.ledger.stop()
        self.drivers.stop()
        for task in self._background:
            task.cancel()
        self._pool.forget(self.id)

    @property
    def playing(self) -> bool:
        """Whether the game goes on here: not finished, and the table not closed."""
        return not (self._closed or self.finished)

    def moves_by(self, seat: int) -> int:
        """How many moves ``seat`` made here (a turn timer restarts after each)."""
        return self._moves_by[seat]

    def _note_due(self, mover: int | None) -> None:
        """When each seat still to act became due: kept while it waits, now for a seat
        that has just moved (``mover``) or became due, and for all when the timers start
        (``mover`` None)."""
        now, due = self._clock(), self._due
        self._due = {
            seat: due[seat] if mover is not None and seat != mover and seat in due else now
            for seat in (self.state.pending_seats if self.playing else [])
        }

    def due_since(self, seat: int) -> float | None:
        """When ``seat`` became due to act (the table's clock), or None while it is not."""
        return self._due.get(seat)

    def deadlines(self) -> list[float | None]:
        """Per seat, when its turn timer runs out, by the server's wall clock (seconds since
        the epoch, as ``clock`` in the messages): a person's seat that is due at a
        turn-based table with a turn timer whose game is under way; None otherwise. The
        same for every audience and every process: a page counts down to it."""
        seconds = self.settings.turn_seconds
        deadlines: list[float | None] = [None] * len(self.seats)
        if seconds is None or self.game.real_time or not self.drivers.started or not self.playing:
            return deadlines
        wall = time.time() - self._clock()
        for seat, since in self._due.items():
            if seat not in self.drivers.bots:  # a bot plays on for a person who left
                deadlines[seat] = round(wall + since + seconds, 3)
        return deadlines

    def _clock_fields(self) -> dict[str, Any]:
        """What every welcome and update carries for the turn timers: the deadlines and
        the server's wall clock now (a page corrects for its own clock's skew with it)."""
        return {"clock": round(time.time(), 3), "deadlines": self.deadlines()}

    def _still_sound(self, move: Any) -> bool:
        """Whether a bot's move, decided before the table's last moves, still makes sense:
        a Knizia call whose cards another call just took is not sent (a person who sees
        the word go does not call it, and would draw the penalty, K3.5/K10.3); any other
        move goes, and the rules judge it (a lost race in Duvelen changes nothing)."""
        state = self.state
        if not (isinstance(move, diabolo.knizia.KniziaMove) and move.kind == "claim"):
            return True
        assert isinstance(state, diabolo.knizia.KniziaState) and move.word is not None
        try:
            diabolo.knizia.check_word(move.word, state.table, state.game.lexicon, state.game.min_cards)
        except InvalidWordError:
            return False
        return True

    async def act(self, seat: int, move: Any, version: int) -> bool:
        """A bot's move arrives, decided on ``version``, or a person's turn timer ran out
        (``move`` None: a random legal move is played for them). False when it was refused."""
        async with self._lock:
            if not self.playing:
                return False
            if move is not None and self.version != version and not self._still_sound(move):
                return False  # the table moved while the bot waited, and took what its move needed
            timed_out = move is None
            if timed_out:
                legal = self.state.legal_moves(seat)
                if not legal:
                    return False
                move = legal[diabolo.derive_seed(self._seed, self.version * 64 + seat) % len(legal)]
                version = self.version
            try:
                await self._play(seat, move, version, timed_out)
            except (Rejection, DiaboloError):
                return False
            return True
