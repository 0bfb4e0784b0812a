"""The game registry and the interface every game implements.

>>> import diabolo
>>> diabolo.load("schacht", players=5).rows_to_end
3
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, overload

from diabolo import _core, contract
from diabolo.duvelen import DuvelenGame
from diabolo.errors import OptionError
from diabolo.knizia import KniziaGame
from diabolo.lexicon import DEFAULT_LANGUAGE, Lexicon
from diabolo.schacht import SchachtGame

Move = contract.Move
"""A move of any game: frozen, hashable, ``str()`` is its notation (:class:`diabolo.contract.Move`)."""

State = contract.State["Game", Any, "State"]
"""A state of any game (:class:`diabolo.contract.State`)."""

Game = contract.Game[Any, State, Any, Any]
"""A game (rules with options) of any kind (:class:`diabolo.contract.Game`)."""


@dataclass(frozen=True)
class GameInfo:
    """A game's entry in the catalogue, as the game declares it once beside its rules in
    C++ (``Rules::kInfo``): every list of games reads it (the C API, JavaScript, the envs,
    OpenSpiel, the server and its browser client).

    >>> info = next(entry for entry in diabolo.catalogue() if entry.name == "schacht")
    >>> info.title, info.min_players, info.max_players, info.real_time, info.bots
    ('Diabolo (Schacht)', 3, 5, False, ('heuristic', 'ismcts', 'learned', 'random'))
    >>> info.min_players_any, info.max_players_any
    (2, 8)
    """

    name: str
    """The id, as :func:`load` takes it."""
    title: str
    """The game's name for people."""
    min_players: int
    """The fewest seats its default options allow."""
    max_players: int
    """The most seats its default options allow."""
    min_players_any: int
    """The fewest seats some options allow (Schacht: 2, without ``strict_players``, S1.1)."""
    max_players_any: int
    """The most seats some options allow (Schacht: 8, without ``strict_players``, S1.1)."""
    real_time: bool
    """Whether it is played without turns (every seat moves when it can)."""
    listed: bool
    """False for a game that exists for the tests only (:func:`games` leaves it out)."""
    bots: tuple[str, ...]
    """The kinds of its bots, sorted (what :func:`bot` makes)."""
    lexicon: str | None
    """The option naming its word list, its resource (None: it takes none)."""
    stand_in: str
    """The bot kind that plays on for a person who leaves a game under way (a server's seat)."""


_CATALOGUE = tuple(
    GameInfo(**{**entry, "bots": tuple(entry["bots"])})
    for entry in sorted(_core.catalogue(), key=lambda entry: entry["name"])
)
_ENTRIES = {entry.name: entry for entry in _CATALOGUE}


def _class_name(name: str) -> str:
    """The prefix of a game's classes: ``SchachtGame``, ``HighcardState``."""
    return name[:1].upper() + name[1:]


_GAMES: dict[str, Any] = {entry.name: getattr(_core, _class_name(entry.name) + "Game") for entry in _CATALOGUE}
GAME_CLASSES: tuple[type[Any], ...] = tuple(_GAMES.values())
"""The game class of every game of the catalogue (``isinstance(x, GAME_CLASSES)``: a game of :func:`load`)."""
STATE_CLASSES: tuple[type[Any], ...] = tuple(getattr(_core, _class_name(entry.name) + "State") for entry in _CATALOGUE)
"""The state class of every game of the catalogue."""
BOT_CLASSES: tuple[type[Any], ...] = tuple(getattr(_core, _class_name(entry.name) + "Bot") for entry in _CATALOGUE)
"""The base class of every game's C++ bots."""


def catalogue() -> tuple[GameInfo, ...]:
    """Every game's entry, sorted by id, the ones for tests only included (``listed`` False).

    >>> [(entry.name, entry.listed) for entry in diabolo.catalogue()]
    [('duvelen', True), ('highcard', False), ('knizia', True), ('schacht', True)]
    """
    return _CATALOGUE


def catalogue_entry(name: str) -> GameInfo:
    """The catalogue's entry of the game ``name``; OptionError for an unknown game.

    >>> diabolo.registry.catalogue_entry("duvelen").real_time
    True
    """
    if not isinstance(name, str) or name not in _ENTRIES:
        raise OptionError(f"unknown game {name!r}; the games are: {', '.join(games())}")
    return _ENTRIES[name]


def games() -> tuple[str, ...]:
    """The ids of the games, sorted.

    >>> diabolo.games()
    ('duvelen', 'knizia', 'schacht')
    """
    return tuple(entry.name for entry in _CATALOGUE if entry.listed)


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
    game: Game = _GAMES[catalogue_entry(name).name](**options)
    return game


def default_options(name: str) -> dict[str, Any]:
    """The game's options with their defaults as JSON values (what a lobby form or an
    OpenSpiel parameter list starts from); a game's word list (:attr:`GameInfo.lexicon`)
    is the language of the packaged list it gets by default.

    >>> diabolo.registry.default_options("knizia")["lexicon"], diabolo.registry.default_options("schacht")["players"]
    ('de', 4)
    """
    entry = catalogue_entry(name)
    if entry.lexicon is None:
        options = load(name).options
    else:  # any list makes the game: only the other options' defaults are read
        options = {**load(name, **{entry.lexicon: Lexicon.from_words(["ab"])}).options, entry.lexicon: DEFAULT_LANGUAGE}
    json_values = (bool, int, float, str)
    return {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in options.items()
        if isinstance(value, json_values)
        or (isinstance(value, tuple) and all(isinstance(v, json_values) for v in value))
    }


def is_real_time(name: str) -> bool:
    """Whether the game ``name`` is played in real time, without turns: every seat may move
    whenever it has a legal move, and moves apply in the order they arrive (Duvelen and
    Knizia; Schacht is played in turns). The core says so: ``Game.real_time``, in C
    ``diabolo_game_real_time``, in JavaScript ``game.realTime``.

    >>> diabolo.registry.is_real_time("duvelen"), diabolo.registry.is_real_time("schacht")
    (True, False)
    """
    return catalogue_entry(name).real_time


def bot_kinds(name: str) -> tuple[str, ...]:
    """The kinds of C++ bots of the game ``name``, sorted: what :func:`bot` makes (and
    what the C API's ``diabolo_game_bots`` lists).

    >>> diabolo.bot_kinds("duvelen")
    ('greedy', 'lookahead', 'random', 'search')
    """
    return catalogue_entry(name).bots


def bot(name: str, kind: str, **options: Any) -> Any:
    """A C++ bot of the game ``name`` by kind, with its options as keyword arguments: the
    bot class of that kind in the game's module (``diabolo.schacht.BOTS``; Knizia's
    ``lookahead`` is ``WordBot(lookahead=True)``), or for a game without one, the factory
    the C API uses. OptionError names the kinds, or the option that is wrong.

    >>> diabolo.bot("schacht", "ismcts", iterations=200).iterations
    200
    >>> diabolo.bot("schacht", "greedy")
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: no bot 'greedy' for schacht; the bots are heuristic, ismcts, learned, random
    """
    kinds = bot_kinds(name)
    if kind not in kinds:
        raise OptionError(f"no bot {kind!r} for {name}; the bots are {', '.join(kinds)}")
    makers: dict[str, Callable[..., Any]] | None = getattr(_game_module(name), "BOTS", None)
    if makers is None:
        try:
            text = json.dumps(options)
        except (TypeError, ValueError) as error:
            raise OptionError(f"the options of the {kind} bot of {name} must be JSON values: {error}") from None
        return _core.make_bot(load(name), kind, text)
    try:
        return makers[kind](**options)
    except TypeError as error:
        raise OptionError(f"bad options for the {kind} bot of {name}: {error}") from None


def paces(name: str) -> Mapping[str, Mapping[str, tuple[float, float]]]:
    """The reaction delays a game server gives the game's bots by level (``PACES`` of the
    game's module: ``{level: {kind: (mean, spread)}}``), empty for a game without them
    (turn-based games, whose tables have a bot pace instead).

    >>> diabolo.registry.paces("knizia")["medium"]["claim"], diabolo.registry.paces("schacht")
    ((3.0, 0.8), {})
    """
    module = _game_module(catalogue_entry(name).name)
    found: Mapping[str, Mapping[str, tuple[float, float]]] = getattr(module, "PACES", {})
    return found


@functools.cache
def _game_module(name: str) -> ModuleType | None:
    """The game's Python module ``diabolo.<name>`` (typed bot classes and more), if it has
    one; looked up once per game, not per bot made."""
    if importlib.util.find_spec(f"diabolo.{name}") is None:
        return None
    return importlib.import_module(f"diabolo.{name}")
