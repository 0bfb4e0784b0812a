"""The game registry and the interface every game implements.

>>> import diabolo
>>> diabolo.load("schacht", players=5).rows_to_end
3
"""

from __future__ import annotations

from typing import Any, Literal, overload

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
