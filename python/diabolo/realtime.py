"""Event-driven simulation of the real-time games: Duvelen and Diabolo (Knizia).

There are no turns in these games. :func:`simulate` gives every seat a bot with a
reaction-time model: each bot looks at the table, picks a move, and the move arrives
after a reaction time drawn for its kind of action. Moves apply in arrival order; one
that lost a race (the pile moved on) is rejected by the rules, logged, and its bot
decides again (in Knizia's game a call that came too late is itself a move: it
draws the penalty, unless the game's ``stale_calls`` option rejects it, K10.3). A bot
with nothing to do waits until the table changes. A seed fixes
the whole run: the bots' choices, the reaction times and the order of simultaneous
arrivals. The loop runs in C++ without the GIL when every bot is a C++ bot; bots
written in Python (anything with ``choose(state, player) -> move or None``) take a
slower path.

>>> import diabolo
>>> from diabolo import realtime
>>> from diabolo.duvelen import GreedyBot
>>> start = diabolo.load("duvelen", players=3).new_state(seed=5)
>>> run = realtime.simulate(start, [GreedyBot(), GreedyBot(), GreedyBot()], seed=1)
>>> run.state.is_terminal
True
>>> realtime.replay(start, run.log) == run.state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

import numpy as np
import numpy.typing as npt

from diabolo import _core
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState
from diabolo.knizia import KniziaGame, KniziaMove, KniziaState
from diabolo.registry import GAME_CLASSES, STATE_CLASSES

__all__ = ["Reaction", "Simulation", "TimedMove", "replay", "simulate", "simulate_many"]

DAY = 24 * 3600.0


@dataclass(frozen=True)
class Reaction:
    """A bot's reaction times: per kind of action, ``(mean, spread)`` in seconds.

    A reaction time is the mean plus the spread times an Irwin-Hall variable (the sum
    of 12 uniform numbers minus 6: bell-shaped, mean 0, standard deviation 1, never
    beyond 6), never below ``minimum``; means up to 3600 s, spreads up to 300 s. Kinds
    not named keep the defaults of a quick human. Duvelen: ``play`` 0.9 s, ``turn``
    0.6 s, ``recycle`` 1.2 s, ``stop`` 0.5 s, ``pass`` 1.0 s. Knizia: ``reveal`` 1.0 s
    (the dealer's pace), ``claim`` 1.2 s plus the bot's ``per_letter`` time for each
    letter of the word, ``take`` 1.0 s, ``pass`` 3.0 s.

    >>> slow = Reaction({"play": (1.5, 0.4)}, minimum=0.3)
    >>> slow.delays["play"]
    (1.5, 0.4)
    """

    delays: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    minimum: float = 0.15


StateT = TypeVar("StateT", DuvelenState, KniziaState)
MoveT = TypeVar("MoveT", DuvelenMove, KniziaMove)


@dataclass(frozen=True)
class TimedMove(Generic[MoveT]):
    """One arrival in a simulated game: when, whose, which move, and whether the rules
    took it (False: it lost a race or was not legal when it arrived)."""

    time: float
    player: int
    move: MoveT
    accepted: bool


@dataclass(frozen=True)
class Simulation(Generic[StateT, MoveT]):
    """The outcome of :func:`simulate`: the final state (its history holds the accepted
    moves), every arrival in time order, and counts."""

    state: StateT
    log: list[TimedMove[MoveT]]
    accepted: int
    rejected: int
    time: float


@overload
def simulate(
    state: DuvelenState, bots: Sequence[Any], *, seed: int = 0, max_time: float = DAY, max_events: int = 10_000_000
) -> Simulation[DuvelenState, DuvelenMove]: ...
@overload
def simulate(
    state: KniziaState, bots: Sequence[Any], *, seed: int = 0, max_time: float = DAY, max_events: int = 10_000_000
) -> Simulation[KniziaState, KniziaMove]: ...


def simulate(
    state: Any,
    bots: Sequence[Any],
    *,
    seed: int = 0,
    max_time: float = DAY,
    max_events: int = 10_000_000,
) -> Any:
    """Plays ``state`` on to the end in simulated time, one bot per seat.

    Stops early when ``max_time`` simulated seconds or ``max_events`` arrivals are
    reached, or when every bot waits. ``state`` itself is not changed.

    >>> from diabolo.knizia import WordBot
    >>> game = diabolo.load("knizia", players=2, lexicon=diabolo.Lexicon.from_words(["Tor", "Rot", "Ort"]))
    >>> run = simulate(game.new_state(seed=1), [WordBot(), WordBot(coverage=0.5)], seed=2)
    >>> run.state.is_terminal, len(run.state.scores)
    (True, 2)
    """
    if not isinstance(state, STATE_CLASSES) or not state.game.real_time:
        raise TypeError(f"simulate runs the real-time games, got {type(state).__name__}")
    final, log, accepted, rejected, time = _core.simulate(state, list(bots), seed, max_time, max_events)
    return Simulation(final, [TimedMove(*step) for step in log], accepted, rejected, time)


@overload
def replay(state: DuvelenState, log: Sequence[TimedMove[DuvelenMove]]) -> DuvelenState: ...
@overload
def replay(state: KniziaState, log: Sequence[TimedMove[KniziaMove]]) -> KniziaState: ...


def replay(state: Any, log: Sequence[Any]) -> Any:
    """A copy of ``state`` with the accepted moves of ``log`` applied in order: the
    final state of the simulation that wrote the log."""
    result = state.clone()
    for step in log:
        if step.accepted:
            result.apply(step.move, player=step.player)
    return result


def simulate_many(
    game: DuvelenGame | KniziaGame,
    bots: Sequence[Any],
    *,
    games: int,
    seed: int = 0,
    threads: int = 1,
    max_time: float = DAY,
    max_events: int = 10_000_000,
) -> dict[str, npt.NDArray[Any]]:
    """Simulates ``games`` whole games of C++ bots on ``threads`` threads without the GIL.

    Game i is dealt and run from (seed, i) alone, so the results do not depend on
    ``threads``. Returns numpy arrays: ``scores`` (games x players, game totals),
    ``actions`` and ``rejected`` (moves taken and moves that lost a race, per game) and
    ``time`` (simulated seconds per game).

    >>> from diabolo.duvelen import GreedyBot
    >>> result = simulate_many(diabolo.load("duvelen", players=2), [GreedyBot(), GreedyBot()], games=4, seed=3)
    >>> result["scores"].shape
    (4, 2)
    """
    if not isinstance(game, GAME_CLASSES) or not game.real_time:
        raise TypeError(f"simulate_many runs the real-time games, got {type(game).__name__}")
    result = _core.simulate_many(game, list(bots), games, seed, threads, max_time, max_events)
    return {key: np.asarray(value) for key, value in result.items()}
