"""The strength ladder of the built-in bots: every bot kind of every game rated by Elo
from seat-rotated round robins (:func:`diabolo.tournament`), with 95% intervals, and the
level (``easy``, ``medium``, ``strong``) each rating gives. ``python benchmarks/ladder.py``
plays the tournaments and writes the ratings into ``ladder.json`` beside this module; the
server labels its bots with :func:`level`, and ``docs/strength.rst`` shows :func:`table`.

A bot's level is its rating's gap to the best bot of its game: ``strong`` within
STRONG_GAP Elo (it scores at least 43% of the points against the best), ``medium``
within MEDIUM_GAP (at least 15%), ``easy`` beyond.

>>> from diabolo import ladder
>>> ladder.level("schacht", "random", {}), ladder.level("schacht", "ismcts", {})
('easy', 'strong')
>>> [rung.name for rung in ladder.rungs("duvelen")][0]
'search'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["LEVELS", "MEDIUM_GAP", "STRONG_GAP", "Rung", "level", "level_of", "rungs", "table"]

LEVELS = ("easy", "medium", "strong")
"""The levels, weakest first."""
STRONG_GAP = 50.0
"""A bot rated within this many Elo of its game's best bot is ``strong``."""
MEDIUM_GAP = 300.0
"""A bot rated within this many Elo of its game's best bot (and not strong) is ``medium``."""


@dataclass(frozen=True)
class Rung:
    """One bot of a game's ladder: its name on the ladder, the kind and options that make
    it (``diabolo.bot(game, kind, **options)``), its Elo rating with a 95% interval, and
    its level."""

    name: str
    kind: str
    options: dict[str, Any]
    elo: float
    interval: tuple[float, float]
    level: str


def level_of(elo: float, best: float) -> str:
    """The level of a rating `elo` on a ladder whose best rating is `best`.

    >>> from diabolo import ladder
    >>> ladder.level_of(1820, 1850), ladder.level_of(1700, 1850), ladder.level_of(1500, 1850)
    ('strong', 'medium', 'easy')
    """
    gap = best - elo
    return "strong" if gap <= STRONG_GAP else "medium" if gap <= MEDIUM_GAP else "easy"


@functools.cache
def _package_ladder() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("diabolo").joinpath("ladder.json").read_text("utf-8"))
    return data


def rungs(game: str, data: Mapping[str, Any] | None = None) -> list[Rung]:
    """The ladder of `game`, best first, from `data` (a ladder.json's content; by default
    the package's). KeyError for a game without one.

    >>> from diabolo import ladder
    >>> best = ladder.rungs("schacht")[0]
    >>> best.level, best.elo >= max(rung.elo for rung in ladder.rungs("schacht"))
    ('strong', True)
    """
    return list(_rungs_of(data["games"][game]["rungs"]) if data is not None else _package_rungs(game))


@functools.cache
def _package_rungs(game: str) -> tuple[Rung, ...]:
    """The package's ladder of `game`, built once: the server asks for it for every bot
    seat of every table it lists."""
    return _rungs_of(_package_ladder()["games"][game]["rungs"])


def _rungs_of(entries: list[dict[str, Any]]) -> tuple[Rung, ...]:
    best = max(entry["elo"] for entry in entries)
    ladder = [
        Rung(e["name"], e["kind"], e["options"], e["elo"], (e["low"], e["high"]), level_of(e["elo"], best))
        for e in entries
    ]
    return tuple(sorted(ladder, key=lambda rung: -rung.elo))


def level(game: str, kind: str, options: dict[str, Any]) -> str:
    """The level of the bot of `game` made by `kind` and `options`: that of the ladder's
    bot of this kind whose options all agree with `options`, the one that sets the most
    of them (the kind's bot with default options agrees with any). KeyError for a game or
    a kind that is not on the ladder.

    >>> from diabolo import ladder
    >>> ladder.level("schacht", "ismcts", {"iterations": 100}) in ladder.LEVELS
    True
    """
    matching = [
        rung
        for rung in rungs(game)
        if rung.kind == kind and all(options.get(key) == value for key, value in rung.options.items())
    ]
    if not matching:
        raise KeyError(f"no {kind} bot of {game} on the ladder")
    return max(matching, key=lambda rung: len(rung.options)).level


def table(game: str, data: Mapping[str, Any] | None = None) -> str:
    """The ladder of `game` as an RST list table (docs/strength.rst includes these), from
    `data` (a ladder.json's content; by default the package's).

    >>> from diabolo import ladder
    >>> print(ladder.table("schacht").splitlines()[0])
    .. list-table:: Diabolo (Schacht), 4 players, 400 games a pairing
    """
    entry = (_package_ladder() if data is None else data)["games"][game]
    lines = [
        f".. list-table:: {entry['title']}, {entry['players']} players, {entry['games_per_pairing']:,} games a pairing",
        "   :header-rows: 1",
        "",
        "   * - bot",
        "     - made by",
        "     - Elo",
        "     - 95% interval",
        "     - level",
    ]
    for rung in rungs(game, data):
        made = f"``{rung.kind}``" + (f" ``{json.dumps(rung.options, sort_keys=True)}``" if rung.options else "")
        lines += [
            f"   * - {rung.name}",
            f"     - {made}",
            f"     - {rung.elo:.0f}",
            f"     - {rung.interval[0]:.0f} .. {rung.interval[1]:.0f}",
            f"     - {rung.level}",
        ]
    return "\n".join(lines) + "\n"
