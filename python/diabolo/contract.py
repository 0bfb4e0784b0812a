"""The contract every game's Python classes follow (``src/bind_game.hpp`` binds it once from
``cpp/include/diabolo/core/contract.hpp``), as protocols: :class:`Move`, :class:`State`,
:class:`Game` and :class:`Bot`. The classes of each game (``diabolo.schacht.SchachtState``, ...) extend
them with their own members (``_core.pyi``), and ``diabolo.Game``, ``diabolo.State`` and
``diabolo.Move`` are these protocols for any game, for code that takes every game of the
catalogue.

Their members are typed in ``contract.pyi``; at run time they are the names to annotate
with, and each game's classes are checked against them by the tests."""

from __future__ import annotations

from typing import Protocol, TypeVar

GameT_co = TypeVar("GameT_co", covariant=True)
StateT_co = TypeVar("StateT_co", covariant=True)
MoveT = TypeVar("MoveT")
BotT_contra = TypeVar("BotT_contra", contravariant=True)
EnvT_co = TypeVar("EnvT_co", covariant=True)
StateT_contra = TypeVar("StateT_contra", contravariant=True)


class Move(Protocol):
    """What every game's move has: frozen, hashable, ``str()`` is its notation.

    >>> import diabolo
    >>> move: diabolo.contract.Move = diabolo.load("schacht").new_state(seed=1).legal_moves()[0]
    >>> move.to_dict()["kind"] == move.kind
    True
    """


class State(Protocol[GameT_co, MoveT, StateT_co]):
    """What every game's state has, whatever the game (``diabolo.State`` is this with any
    game, move and state types): a function typed with it takes the state of any game of
    the catalogue.

    >>> import diabolo
    >>> def moves_left(state: diabolo.State) -> int:
    ...     return sum(len(state.legal_actions(seat)) for seat in state.pending_seats)
    >>> moves_left(diabolo.load("duvelen", players=2).new_state(seed=1)) > 0
    True
    """


class Game(Protocol[MoveT, StateT_co, BotT_contra, EnvT_co]):
    """What every game has, whatever the game (``diabolo.Game`` is this with any move,
    state, bot and vector-env types).

    >>> import diabolo
    >>> def seats(game: diabolo.Game) -> str:
    ...     return f"{game.title}: {game.players} seats"
    >>> seats(diabolo.load("knizia", players=3))
    'Diabolo (Knizia): 3 seats'
    """


class Bot(Protocol[StateT_contra]):
    """What every bot has, whatever the game: ``choose(state, player)``, the move it makes
    for ``player`` now (a move, an action id, notation or move data), or None while it
    waits (in a real-time game, for the table to change). A bot written in Python needs
    only this to play matches (:func:`diabolo.match`), simulations
    (:func:`diabolo.realtime.simulate`) and tournaments; it sees each position as a state
    without the game's history. A real-time bot may also have ``reaction`` (a
    :class:`diabolo.realtime.Reaction`) and, in Knizia's game, ``per_letter`` (seconds).

    The built-in bots (:func:`diabolo.bot`) take a ``seed`` too, and every one of them,
    in every game, answers ``propose(state, player, seed)`` with ``(move, delay)`` (the
    seconds after which it acts: its reaction time in real time, 0 in turns) or None while
    its seat has nothing to do: the one way a server or a live loop asks any bot.

    >>> import diabolo
    >>> class FirstMove:
    ...     name = "first"
    ...     def choose(self, state, player):
    ...         moves = state.legal_moves(player)
    ...         return moves[0] if moves else None
    >>> bot: diabolo.contract.Bot[diabolo.State] = FirstMove()
    >>> game = diabolo.load("schacht", players=3)
    >>> diabolo.match(game, [bot, diabolo.bot("schacht", "random"), diabolo.bot("schacht", "random")],
    ...               games=2, seed=1).names
    ['first', 'random', 'random#2']
    >>> state = game.new_state(seed=1)
    >>> seat = state.pending_seats[0]
    >>> diabolo.bot("schacht", "heuristic").propose(state, seat, seed=3)[1]
    0.0
    """
