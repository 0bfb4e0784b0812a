"""A table's audiences: each seat, and the spectators. Each has its connections (here, and
counted on other processes), its own count of versions, and what it was shown, kept to
resume a reconnecting client; this module sends each audience what the engine lets it
see, and nothing here looks inside a view or an event.

**Versions per audience.** Each audience counts only the moves that showed it something:
a move whose events for an audience are empty (another seat's secret decision, S7.1)
sends that audience nothing at all, so neither the fact nor the moment of a secret
decision reaches anyone until the rules reveal it. A seat names its own version when it
moves; :meth:`Seen.true_version` maps it to the table's version it stood for.

It needs no socket and no clock: a connection is anything with ``send`` and ``end``.

>>> import asyncio, diabolo
>>> class Printed:
...     async def send(self, message):
...         print(message if isinstance(message, str) else message["type"])
...     def end(self):
...         print("ended")
>>> async def demo():
...     audiences = Audiences(seats=3)
...     audiences.attach(None, Printed())  # a spectator
...     state = diabolo.load("schacht", players=3).new_state(seed=1)
...     seat = state.pending_seats[0]
...     state.apply(state.legal_moves(seat)[0], player=seat)
...     shown = audiences.keep(state, seat, at=1.5)
...     await audiences.announce(state, shown, at=1.5)
...     await audiences.broadcast({"type": "error", "reason": "draining"}, end=True)
>>> asyncio.run(demo())  # doctest: +ELLIPSIS
{"type":"update","version":1,"time":1.5,"events":[{"type":"placed",...}]}
error
ended
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import diabolo
from diabolo.registry import State
from diabolo.server.protocol import compact_json

__all__ = [
    "MAX_SERVER_MESSAGE",
    "RESUMABLE",
    "Audience",
    "Audiences",
    "Connection",
    "Seen",
    "listed_moves",
    "seat_view",
]

Audience = int | None
"""A seat, or None for spectators."""

RESUMABLE = 1000
"""How many of its versions back an audience may resume from; from further back it gets the view."""

MAX_SERVER_MESSAGE = 64 * 1024
"""The largest message the server sends, in bytes: a resume that would be longer sends the view instead."""


class Connection(Protocol):
    """One client: the server sends it JSON messages, as objects or as JSON text, and may
    end it (after what was sent)."""

    async def send(self, message: dict[str, Any] | str) -> None: ...

    def end(self) -> None: ...


def listed_moves(state: State, seat: int) -> list[str]:
    """The legal moves a table sends a seat, in notation. In Knizia the claims are left out
    (``legal_moves(seat, claims=False)``): the claimable words are the answer key of the
    race, and a call is checked when it arrives (K10.3)."""
    if state.is_terminal:
        return []
    if isinstance(state, diabolo.knizia.KniziaState):
        return [str(move) for move in state.legal_moves(seat, claims=False)]
    return [str(move) for move in state.legal_moves(seat)]


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """A seat's view as a table sends it (in Knizia without the claims, as listed_moves)."""
    if isinstance(state, diabolo.knizia.KniziaState):
        return state.observation(seat, claims=False)
    return state.observation(seat)


@dataclass
class Seen:
    """What one audience has been shown: its version (the updates it got), and for the last
    RESUMABLE of them the true version each stood for, its time and its events as JSON text."""

    version: int = 0
    kept: collections.deque[tuple[int, float, str]] = field(default_factory=lambda: collections.deque(maxlen=RESUMABLE))

    def add(self, true_version: int, at: float, events: str) -> None:
        self.version += 1
        self.kept.append((true_version, at, events))

    def true_version(self, version: int) -> int:
        """The table's version when this audience's ``version`` was current (the oldest
        kept one for a version older than that; 0 for 0)."""
        first = self.version - len(self.kept) + 1  # the audience version of kept[0]
        if version <= 0 or not self.kept:
            return 0
        return self.kept[max(0, min(version, self.version) - first)][0]

    def since(self, version: int) -> list[tuple[int, str]] | None:
        """(audience version, events text) of every update after ``version``, or None
        when they are no longer all kept."""
        first = self.version - len(self.kept) + 1
        if not first - 1 <= version <= self.version:
            return None
        return [(first + i, self.kept[i][2]) for i in range(version - first + 1, len(self.kept))]


class Audiences:
    """The audiences of a table of ``seats`` seats. ``relay``, when set, takes every
    message to an audience as JSON text, for the clients of other processes (they are
    counted with :meth:`watched_elsewhere`); ``on_presence`` is called when a connection
    comes, goes, or its page is hidden or shown again (:meth:`presence` may have changed)."""

    def __init__(self, seats: int, on_presence: Callable[[], None] | None = None) -> None:
        self.seats = seats
        self.seen: dict[Audience, Seen] = {None: Seen(), **{seat: Seen() for seat in range(seats)}}
        self.relay: Callable[[Audience, str], None] | None = None
        self._on_presence = on_presence
        self._connections: dict[Audience, set[Connection]] = {}
        self._elsewhere: collections.Counter[Audience] = collections.Counter()
        self._away: set[Connection] = set()  # connections here whose page is hidden
        self._away_elsewhere: collections.Counter[Audience] = collections.Counter()

    @property
    def spectators(self) -> int:
        """Spectators here and on other processes."""
        return len(self._connections.get(None, ())) + self._elsewhere[None]

    @property
    def connections(self) -> int:
        """Connections of this process."""
        return sum(len(group) for group in self._connections.values())

    def attach(self, audience: Audience, connection: Connection) -> None:
        self._connections.setdefault(audience, set()).add(connection)
        self._presence_changed()

    def detach(self, audience: Audience, connection: Connection) -> None:
        connections = self._connections.get(audience, set())
        if connection in connections:
            connections.discard(connection)
            self._away.discard(connection)
            self._presence_changed()

    def watched_elsewhere(self, audience: Audience, change: int, away: bool = False) -> None:
        """A client of another process joined (+1) or left (-1) ``audience`` (``away``: its
        page was hidden when it left): its messages are relayed while it has any."""
        self._elsewhere[audience] = max(0, self._elsewhere[audience] + change)
        if change < 0 and away:
            self._away_elsewhere[audience] = max(0, self._away_elsewhere[audience] - 1)
        self._presence_changed()

    def set_away(self, audience: Audience, connection: Connection | None, away: bool) -> None:
        """The page of ``connection`` (None: a client of another process, counted) is
        hidden (``away``) or shown again."""
        if connection is None:
            self._away_elsewhere[audience] = max(0, self._away_elsewhere[audience] + (1 if away else -1))
        elif connection in self._connections.get(audience, ()):
            if away:
                self._away.add(connection)
            else:
                self._away.discard(connection)
        self._presence_changed()

    def presence(self) -> list[str]:
        """Each seat's presence (talk.Presence): ``gone`` with no connection, ``away`` when
        every page of it is hidden, ``online`` otherwise."""
        shown = []
        for seat in range(self.seats):
            here = self._connections.get(seat, set())
            count = len(here) + self._elsewhere[seat]
            away = len(here & self._away) + self._away_elsewhere[seat]
            shown.append("gone" if count == 0 else "away" if away >= count else "online")
        return shown

    def _presence_changed(self) -> None:
        if self._on_presence is not None:
            self._on_presence()

    async def send(self, audience: Audience, message: dict[str, Any] | str, everywhere: bool = False) -> None:
        """``message`` to the audience's connections, and relayed to other processes'
        (always, ``everywhere``: a table taken over does not know who listens)."""
        if self.relay is not None and (everywhere or self._elsewhere[audience]):
            text = message if isinstance(message, str) else compact_json(message)
            self.relay(audience, text)
            message = text
        for connection in list(self._connections.get(audience, ())):
            try:
                await connection.send(message)
            except Exception:  # a connection that went away: its reader detaches it
                self.detach(audience, connection)

    def end(self, audience: Audience) -> None:
        """Closes the audience's connections of this process once what is queued is
        written (those of other processes close at the error message relayed to them)."""
        for connection in self._connections.pop(audience, set()):
            self._away.discard(connection)
            connection.end()
        self._presence_changed()

    async def broadcast(self, message: dict[str, Any], *, end: bool = False) -> None:
        """``message`` to every connection of the table; with ``end``, the last one each gets."""
        audiences = [None, *range(self.seats)] if self.relay is not None else list(self._connections)
        for audience in audiences:
            await self.send(audience, message, everywhere=True)
            if end:
                for connection in self._connections.pop(audience, set()):
                    connection.end()

    def keep(self, state: State, mover: int, at: float) -> list[Audience]:
        """Keeps the last move's events (of ``state``, made by ``mover`` at ``at``) for each
        audience it showed something to (and its mover): the audiences whose version moves
        on, which are returned."""
        shown: list[Audience] = []
        texts = state.events_json()
        public = texts[None]
        if public != "[]":
            self.seen[None].add(state.version, at, public)
            shown.append(None)
        for seat in range(self.seats):
            events = texts[seat]
            if events != "[]" or seat == mover:
                self.seen[seat].add(state.version, at, events)
                shown.append(seat)
        return shown

    async def announce(
        self, state: State, shown: list[Audience], at: float, fields: dict[str, Any] | None = None
    ) -> None:
        """Each audience the move showed something to gets its update, written as text
        around its kept events' text (a seat's with its legal moves) and the table's
        ``fields`` (the same for every audience); the others get nothing."""
        time_text = compact_json(at)
        shared = "".join(f',"{key}":{compact_json(value)}' for key, value in (fields or {}).items())
        for audience in shown:
            if audience not in self._connections and self.relay is None:
                continue
            seen = self.seen[audience]
            legal = "" if audience is None else f',"legal":{compact_json(listed_moves(state, audience))}'
            head = f'{{"type":"update","version":{seen.version},"time":{time_text}'
            text = f'{head},"events":{seen.kept[-1][2]}{legal}{shared}}}'
            await self.send(audience, text)

    def catch_up(self, state: State, audience: Audience, since: int | None) -> dict[str, Any]:
        """What a welcome brings an audience: resuming from its version ``since``, the
        events it missed (``missed``, when they are kept and fit in MAX_SERVER_MESSAGE),
        else its ``view``; a seat's legal moves."""
        message: dict[str, Any] = {"version": self.seen[audience].version}
        missed = self.seen[audience].since(since) if since is not None else None
        if missed is not None and sum(len(events) for _, events in missed) < MAX_SERVER_MESSAGE // 2:
            message["missed"] = [{"version": v, "events": json.loads(events)} for v, events in missed]
        else:
            message["view"] = state.public_observation() if audience is None else seat_view(state, audience)
        if audience is not None:
            message["legal"] = listed_moves(state, audience)
        return message
