"""diabolo: a fast, typed rules engine for three devilish card games.

One interface for every game: :func:`load` a game with its options, make a state,
ask it for legal moves, apply moves, read observations.

>>> import diabolo
>>> diabolo.games()
('duvelen', 'knizia', 'schacht')
>>> game = diabolo.load("schacht", players=3)
>>> state = game.new_state(seed=7)
>>> while not state.is_terminal:
...     player = state.pending_seats[0]  # the seat to move, or the first of several (S5.3)
...     state.apply(state.legal_moves(player)[0], player=player)
>>> len(state.scores)
3
"""

from __future__ import annotations

from pathlib import Path

from diabolo import _core, duvelen, knizia, realtime, schacht
from diabolo.errors import (
    DiaboloError,
    IllegalMoveError,
    InvalidWordError,
    LexiconNotFoundError,
    LimitError,
    NotationError,
    OptionError,
    PlayerError,
    StaleMoveError,
    StateFormatError,
)
from diabolo.lexicon import Lexicon
from diabolo.matches import match, tournament
from diabolo.records import Record
from diabolo.registry import Game, GameInfo, Move, State, bot, bot_kinds, catalogue, games, load
from diabolo.selfplay import self_play

derive_seed = _core.derive_seed
"""``derive_seed(seed, index)``: the seed of item ``index`` of a batch seeded with ``seed``, as
the C++ batches derive it (game i of ``play_random``, seat p's bot in ``realtime.simulate``).

>>> diabolo.derive_seed(1, 0) == diabolo.derive_seed(1, 0) != diabolo.derive_seed(1, 1)
True
"""

SIMULTANEOUS: int = _core.SIMULTANEOUS
"""``current_player`` while several seats decide at once (doubler decisions, S5.3)."""
TERMINAL: int = _core.TERMINAL
"""``current_player`` once the game is over."""

__version__: str = _core.__version__
"""The library's version (``DIABOLO_VERSION`` of the C API's header, compiled in)."""


def get_include() -> str:
    """The folder of the C API's header (``diabolo/diabolo.h``) and of the Cython
    declarations' C side, for building C, C++ and Cython extensions against the engine:
    ``include_dirs=[diabolo.get_include()]`` (docs: "Embedding diabolo").

    >>> import os, diabolo
    >>> os.path.isfile(os.path.join(diabolo.get_include(), "diabolo", "diabolo.h"))
    True
    """
    return str(Path(__file__).parent / "include")


def get_library_dir() -> str:
    """The folder of the C API's shared library (``libdiabolo.so``; ``.dylib`` on macOS):
    ``library_dirs=[d], runtime_library_dirs=[d], libraries=["diabolo"]`` with
    ``d = diabolo.get_library_dir()``. Windows wheels do not carry it yet.

    >>> import glob, os, diabolo
    >>> len(glob.glob(os.path.join(diabolo.get_library_dir(), "libdiabolo.*"))) == 1
    True
    """
    return str(Path(__file__).parent / "lib")


__all__ = [
    "DiaboloError",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidWordError",
    "Lexicon",
    "LexiconNotFoundError",
    "LimitError",
    "Move",
    "NotationError",
    "OptionError",
    "PlayerError",
    "Record",
    "SIMULTANEOUS",
    "StaleMoveError",
    "State",
    "StateFormatError",
    "TERMINAL",
    "bot",
    "bot_kinds",
    "catalogue",
    "derive_seed",
    "duvelen",
    "games",
    "get_include",
    "get_library_dir",
    "knizia",
    "load",
    "match",
    "realtime",
    "schacht",
    "self_play",
    "tournament",
]
