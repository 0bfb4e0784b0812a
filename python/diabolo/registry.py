"""The game registry and the interface every game implements.

>>> import diabolo
>>> diabolo.load("schacht", players=5).rows_to_end
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, overload

from diabolo import duvelen, knizia, schacht
from diabolo.duvelen import DuvelenGame, DuvelenMove, DuvelenState
from diabolo.errors import OptionError
from diabolo.knizia import KniziaGame, KniziaMove, KniziaState
from diabolo.schacht import SchachtGame, SchachtMove, SchachtState

Move = SchachtMove | DuvelenMove | KniziaMove
"""A move of any game: frozen, hashable, ``str()`` is its notation."""

State = SchachtState | DuvelenState | KniziaState
"""A state of any game."""

Game = SchachtGame | DuvelenGame | KniziaGame
"""A game (rules with options) of any kind."""

_GAMES: dict[str, type[SchachtGame] | type[DuvelenGame] | type[KniziaGame]] = {
    "duvelen": DuvelenGame,
    "knizia": KniziaGame,
    "schacht": SchachtGame,
}


def games() -> tuple[str, ...]:
    """The ids of the games, sorted.

    >>> diabolo.games()
    ('duvelen', 'knizia', 'schacht')
    """
    return tuple(sorted(_GAMES))


@overload
def load(name: Literal["schacht"], **options: Any) -> SchachtGame: ...
@overload
def load(name: Literal["duvelen"], **options: Any) -> DuvelenGame: ...
@overload
def load(name: Literal["knizia"], **options: Any) -> KniziaGame: ...
@overload
def load(name: str, **options: Any) -> Game: ...


def load(name: str, **options: Any) -> Game:
    """The game ``name`` with its rule options (keyword arguments, validated).

    Raises :class:`~diabolo.OptionError` for an unknown game, an unknown option or a bad value.

    >>> diabolo.load("schacht", players=3, rounds=1).rounds
    1
    >>> diabolo.load("chess")
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: unknown game 'chess'; the games are: duvelen, knizia, schacht
    """
    if not isinstance(name, str) or name not in _GAMES:
        raise OptionError(f"unknown game {name!r}; the games are: {', '.join(games())}")
    return _GAMES[name](**options)


def is_real_time(name: str) -> bool:
    """Whether the game ``name`` is played in real time, without turns: every seat may move
    whenever it has a legal move, and moves apply in the order they arrive (Duvelen and
    Knizia; Schacht is played in turns). The core says so: ``Game.real_time``, in C
    ``diabolo_game_real_time``, in JavaScript ``game.realTime``.

    >>> diabolo.registry.is_real_time("duvelen"), diabolo.registry.is_real_time("schacht")
    (True, False)
    """
    if name not in _GAMES:
        raise OptionError(f"unknown game {name!r}; the games are: {', '.join(games())}")
    return _GAMES[name].real_time


_BOTS: dict[str, dict[str, Callable[..., Any]]] = {
    "duvelen": {"greedy": duvelen.GreedyBot, "lookahead": duvelen.LookaheadBot, "random": duvelen.RandomBot},
    "knizia": {
        "lookahead": lambda **options: knizia.WordBot(lookahead=True, **options),
        "random": knizia.RandomBot,
        "word": knizia.WordBot,
    },
    "schacht": {"heuristic": schacht.HeuristicBot, "ismcts": schacht.IsmctsBot, "random": schacht.RandomBot},
}


def bot_kinds(name: str) -> tuple[str, ...]:
    """The kinds of C++ bots of the game ``name``, sorted: what :func:`bot` makes (and
    what the C API's ``diabolo_game_bots`` lists).

    >>> diabolo.bot_kinds("duvelen")
    ('greedy', 'lookahead', 'random')
    """
    if name not in _BOTS:
        raise OptionError(f"unknown game {name!r}; the games are: {', '.join(games())}")
    return tuple(sorted(_BOTS[name]))


def bot(name: str, kind: str, **options: Any) -> Any:
    """A C++ bot of the game ``name`` by kind, with its options as keyword arguments
    (Knizia's ``lookahead`` is ``WordBot(lookahead=True)``). OptionError names the kinds,
    or the option that is wrong.

    >>> diabolo.bot("schacht", "ismcts", iterations=200).iterations
    200
    >>> diabolo.bot("schacht", "greedy")
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: no bot 'greedy' for schacht; the bots are heuristic, ismcts, random
    """
    kinds = bot_kinds(name)
    if kind not in kinds:
        raise OptionError(f"no bot {kind!r} for {name}; the bots are {', '.join(kinds)}")
    try:
        return _BOTS[name][kind](**options)
    except TypeError as error:
        raise OptionError(f"bad options for the {kind} bot of {name}: {error}") from None
