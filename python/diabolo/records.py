"""Game records: a versioned, documented format for whole games (like PGN or PHH).

A :class:`Record` holds the metadata of a game (the game and its options, the players'
names, when it started and ended), its first state, every move with its seat and an
optional time stamp, the rounds with their results, and the result. It is written as
JSON text (``dump``) and read back (``Record.load``); ``states()`` replays it move by
move. ``redacted(audience)`` gives what one seat, or spectators (``None``), may know:
the audience's first view and, per move, the move if the audience may see it and the
events it saw, with no seed, deal or hidden card. A server keeps the full record and
shows spectators the redacted one while the game runs (docs: Building a frontend,
"Records").

>>> import diabolo
>>> game = diabolo.load("schacht", players=3)
>>> record = diabolo.Record(game.new_state(seed=7), players=["Ann", "Bo", "Cy"])
>>> for step in range(4):
...     record.apply(record.state.legal_moves()[0], time=1.5 * step)
>>> text = record.dump()
>>> again = diabolo.Record.load(text)
>>> again.moves == record.moves and list(again.states())[-1] == record.state
True
>>> public = record.redacted(None)
>>> public.audience is None and '"start"' not in public.dump()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from diabolo.errors import DiaboloError, OptionError, StateFormatError
from diabolo.registry import Game, State, load

__all__ = ["FORMAT", "Record", "RecordedMove"]

FORMAT = "diabolo.record/1"
"""The format of a record's JSON; a record of another format is refused."""


@dataclass(frozen=True)
class RecordedMove:
    """One move of a record: its seat and notation (None where the audience of a redacted
    record may not see it), the seconds since the game started (None if not timed) and,
    in a redacted record, the events the audience saw."""

    seat: int | None
    move: str | None
    time: float | None = None
    events: tuple[dict[str, Any], ...] | None = None


@dataclass
class Record:
    """A game as it is played: ``apply`` plays a move on ``state`` and records it.

    ``players`` are the names of the seats (default ``"seat 0"``, ...); ``started`` and
    ``ended`` are free text (ISO 8601 is usual). A redacted record (``audience`` a seat,
    or None for spectators) holds no state: it cannot be played on or replayed into
    states, only read.
    """

    state: State | None
    players: Sequence[str] = ()
    started: str | None = None
    ended: str | None = None
    moves: list[RecordedMove] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    audience: int | None | str = "full"
    view: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    _start: str = ""
    _game: str = ""

    def __post_init__(self) -> None:
        if self.state is not None:
            self._start = self.state.to_json()
            self.options = json.loads(self._start)["options"]
            self.state = self.state.clone()
            self._game = _game_name(self.state)
            seats = self.state.game.players
            self.players = list(self.players) or [f"seat {seat}" for seat in range(seats)]
            if len(self.players) != seats:
                raise OptionError(f"a record of {seats} seats needs {seats} players' names, got {len(self.players)}")
            if not self.rounds:
                self.rounds = [{"round": self.state.round, "first_move": 0, "last_move": None, "scores": None}]

    @property
    def result(self) -> dict[str, Any] | None:
        """``{"scores": [...], "winners": [...]}`` once the game is over, else None."""
        if self.state is None or not self.state.is_terminal:
            return None
        return {"scores": list(self.state.scores), "winners": list(self.state.winners)}

    def apply(self, move: Any, player: int | None = None, time: float | None = None) -> None:
        """Plays ``move`` on ``state`` (as ``State.apply``) and records it, with ``time``
        in seconds since the game started. Raises what ``apply`` raises, recording nothing."""
        state = self._playable()
        round_before = state.round
        state.apply(move, player=player)
        seat, applied = state.last_move  # type: ignore[misc]
        self.moves.append(RecordedMove(seat, str(applied), time))
        if state.round != round_before or state.is_terminal:
            self.rounds[-1].update(last_move=len(self.moves) - 1, scores=list(state.scores))
            if not state.is_terminal:
                self.rounds.append(
                    {"round": state.round, "first_move": len(self.moves), "last_move": None, "scores": None}
                )

    def states(self) -> Iterator[State]:
        """The states of the game, the first one included, replayed move by move."""
        state = self._first_state()
        yield state.clone()
        for step in self.moves:
            assert step.move is not None  # a full record's moves are all known
            state.apply(step.move, player=step.seat)
            yield state.clone()

    def redacted(self, audience: int | None) -> Record:
        """What seat ``audience`` (or spectators, for None) may know of this game so far:
        its first view, and per move the events it saw and the move itself unless the
        game's ``visibility`` marks that kind of move secret and it is another seat's.
        Moves of others that showed the audience nothing are left out (S7.1: that a seat
        made a secret decision is itself secret)."""
        state = self._first_state()
        view = state.public_observation() if audience is None else state.observation(audience)
        secret = {kind for kind, who in state.game.visibility["moves"].items() if who == "secret"}
        moves: list[RecordedMove] = []
        for step in self.moves:
            assert step.move is not None  # a full record's moves are all known
            state.apply(step.move, player=step.seat)
            events = state.public_events() if audience is None else state.events_for(audience)
            hidden = step.seat != audience and state.game.move(step.move).kind in secret
            if hidden and not events:
                continue
            moves.append(
                RecordedMove(None if hidden else step.seat, None if hidden else step.move, step.time, tuple(events))
            )
        redacted = Record(None, self.players, self.started, self.ended, moves, [dict(r) for r in self.rounds])
        redacted.audience, redacted.view, redacted._game = audience, view, self._game
        redacted.options = self.options
        return redacted

    def dump(self) -> str:
        """The record as JSON text (``Record.load`` reads it back)."""
        data: dict[str, Any] = {"format": FORMAT, "game": self._game, "options": self.options}
        data.update(audience=self.audience, players=list(self.players), started=self.started, ended=self.ended)
        if self.audience == "full":
            data["start"] = json.loads(self._start)
            data["result"] = self.result
        else:
            data["view"] = self.view
        data["rounds"] = self.rounds
        data["moves"] = [_move_data(step) for step in self.moves]
        return json.dumps(data)

    @classmethod
    def load(cls, text: str, game: Game | None = None) -> Record:
        """The record of ``dump``'s text. A full record is replayed, so every move is
        checked; its game is made from the options it holds (a Knizia record names its
        lexicon's language: pass ``game`` for another word list or deck). StateFormatError
        names what is wrong."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as error:
            raise StateFormatError(f"a record is JSON text: {error}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StateFormatError(f"not a record of format {FORMAT!r}")
        try:
            moves = [RecordedMove(m["seat"], m["move"], m.get("time"), _events(m)) for m in data["moves"]]
            meta = (data["players"], data["started"], data["ended"])
            if data["audience"] != "full":
                record = cls(None, *meta, moves, data["rounds"])
                record.audience, record.view, record._game = data["audience"], data["view"], data["game"]
                record.options = data["options"]
                return record
            if not isinstance(data["start"], dict):
                raise TypeError(f"'start' must be a state's JSON object, got {data['start']!r:.40}")
            start = (game or _game_of(data["game"], data["start"]["options"])).state_from_json(
                json.dumps(data["start"])
            )
            record = cls(start, *meta)
        except DiaboloError:
            raise
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise StateFormatError(f"record: missing or malformed {error}") from None
        for number, step in enumerate(moves):
            try:
                record.apply(step.move, player=step.seat, time=step.time)
            except (ValueError, TypeError) as error:
                raise StateFormatError(f"record: move {number} ({step.seat}:{step.move!r:.40}): {error}") from None
        return record

    def _playable(self) -> State:
        if self.state is None:
            raise OptionError("a redacted record holds no state: it can be read, not played on")
        return self.state

    def _first_state(self) -> State:
        return self._playable().game.state_from_json(self._start)


def _game_name(state: State) -> str:
    return type(state).__name__.removesuffix("State").lower()


def _game_of(name: str, options: dict[str, Any]) -> Game:
    """The game of a record's options as its state's JSON wrote them (a game of words: the
    packaged list of the language they name, if it is that list)."""
    try:
        return load(name, **options)
    except OptionError as error:
        raise StateFormatError(
            f"record: its options make no game here ({error}); pass its game to Record.load"
        ) from None


def _move_data(step: RecordedMove) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": step.seat, "move": step.move, "time": step.time}
    if step.events is not None:
        data["events"] = list(step.events)
    return data


def _events(move: dict[str, Any]) -> tuple[dict[str, Any], ...] | None:
    return tuple(move["events"]) if "events" in move else None
