"""Matches, tournaments and self-play data spread over a Ray cluster
(``pip install "diabolo[ray]"``), with the same results as the local runners for the same
seed: :func:`match` equals :func:`diabolo.match`, :func:`tournament` equals
:func:`diabolo.tournament`, :func:`self_play` equals :func:`diabolo.self_play`.

The games are cut into blocks of consecutive games, one Ray task each (one CPU, one
thread); game ``i`` depends only on ``(seed, i)``, so the blocks join into exactly the
local result, whatever the block size and however many machines run them. The functions
use the Ray connection of the process: call ``ray.init(address=...)`` first to use a
cluster (without it, Ray starts a local one).

Bots travel to the workers, and the C++ bots cannot be pickled, so a bot is given as one of:

- a bot kind of the game (``"heuristic"``, see :func:`diabolo.bot_kinds`);
- a function of no arguments that makes the bot on the worker, for options
  (``functools.partial(diabolo.bot, "schacht", "ismcts", iterations=400)``);
- a bot written in Python that pickles (anything with ``choose``).

>>> import ray, diabolo, diabolo.distributed
>>> _ = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
>>> game = diabolo.load("schacht", players=3)
>>> remote = diabolo.distributed.match(game, ["heuristic", "random", "random"], games=30, seed=1)
>>> local = diabolo.match(game, [diabolo.bot("schacht", kind) for kind in ("heuristic", "random", "random")],
...                       games=30, seed=1)
>>> bool((remote.scores == local.scores).all())
True
>>> ray.shutdown()
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, SupportsIndex

import numpy as np
import ray

import diabolo
from diabolo.errors import OptionError
from diabolo.matches import (
    MatchResult,
    Tournament,
    _integer,
    _shared_wins,
    check_game,
    match_scores,
    names,
    round_robin,
    standings,
)
from diabolo.registry import BOT_CLASSES, Game
from diabolo.selfplay import SelfPlayData, play_block

__all__ = ["match", "self_play", "tournament"]

BotSpec = str | Callable[[], Any] | Any
"""A bot kind, a function that makes a bot, or a bot written in Python that pickles."""


def _check(game: Any, bots: Sequence[BotSpec], what: str, seated: bool = True) -> None:
    """OptionError unless ``game`` is a game of diabolo.load and each of ``bots`` a bot
    that can travel, one per seat when ``seated``."""
    check_game(game, what)
    if seated and len(bots) != game.players:
        raise OptionError(f"{what} needs one bot per seat: {game.players} seats, got {len(bots)} bots")
    for index, bot in enumerate(bots):
        if isinstance(bot, BOT_CLASSES):
            kind = getattr(bot, "name", type(bot).__name__)
            raise OptionError(
                f"bot {index} is a C++ bot ({kind}), which cannot be sent to other processes: "
                f"give its kind ({kind!r}) or a function that makes it"
            )
        if not isinstance(bot, str) and not callable(bot) and not callable(getattr(bot, "choose", None)):
            raise OptionError(f"bot {index} is not a bot kind, a function that makes a bot, or a bot: {bot!r}")


def _build(game: Game, spec: BotSpec) -> Any:
    """The bot that ``spec`` names, made in this process."""
    if isinstance(spec, str):
        return diabolo.bot(game.name, spec)
    if callable(getattr(spec, "choose", None)):
        return spec
    return spec()


def _bots(game: Game, specs: Sequence[BotSpec]) -> list[Any]:
    """The bots of ``specs``, one object per distinct spec (a seat list may repeat one)."""
    made: dict[int, Any] = {}
    return [made.setdefault(id(spec), _build(game, spec)) for spec in specs]


def _blocks(games: int, block: int | None) -> list[tuple[int, int]]:
    """(first, count) of each block: ``block`` games each, or about four blocks a CPU of
    the cluster."""
    if block is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        block = max(1, math.ceil(games / (4 * cpus)))
    block = _integer(block, "block", 1)
    return [(first, min(block, games - first)) for first in range(0, games, block)]


@ray.remote(num_cpus=1)
def _match_block(game: Game, specs: Sequence[BotSpec], seed: int, first: int, count: int) -> Any:
    return match_scores(game, _bots(game, specs), count, seed, 1, first)


@ray.remote(num_cpus=1)
def _self_play_block(game: Game, specs: Sequence[BotSpec], seed: int, first: int, count: int) -> SelfPlayData:
    return play_block(game, _bots(game, specs), seed, first, count)


def _submit(game_ref: Any, specs: Sequence[BotSpec], games: int, seed: int, block: int | None) -> list[Any]:
    return [_match_block.remote(game_ref, list(specs), seed, first, count) for first, count in _blocks(games, block)]


def _result(bot_names: list[str], blocks: list[Any]) -> MatchResult:
    scores = np.concatenate(ray.get(blocks)).astype(np.int32)
    return MatchResult(bot_names, scores, _shared_wins(scores))


def match(
    game: Any,
    bots: Sequence[BotSpec],
    *,
    games: SupportsIndex,
    seed: SupportsIndex = 0,
    block: int | None = None,
) -> MatchResult:
    """:func:`diabolo.match` on the Ray cluster: the same games and result for the same
    seed. ``bots`` are given as bot kinds, functions that make bots, or Python bots (see
    :mod:`diabolo.distributed`); ``block`` is the number of games a task plays (default:
    about four tasks a CPU)."""
    _check(game, bots, "a distributed match")
    count, start = _integer(games, "games", 1), _integer(seed, "seed", 0)
    made = names(_bots(game, bots))  # makes each bot here first: a bad kind or option fails before any task
    return _result(made, _submit(ray.put(game), bots, count, start, block))


def tournament(
    game: Any,
    bots: Mapping[str, BotSpec],
    *,
    games: SupportsIndex,
    seed: SupportsIndex = 0,
    block: int | None = None,
) -> Tournament:
    """:func:`diabolo.tournament` on the Ray cluster, every pairing's games at once: the
    same matches, points and ratings for the same seed."""
    _check(game, list(bots.values()), "a distributed tournament", seated=False)
    count, start = _integer(games, "games", 1), _integer(seed, "seed", 0)
    game_ref = ray.put(game)
    pairings = round_robin(bots, game.players, start)
    submitted = [
        (names(_bots(game, seated)), _submit(game_ref, seated, count, pairing_seed, block))
        for _, _, seated, pairing_seed in pairings
    ]
    results = [_result(made, blocks) for made, blocks in submitted]
    return standings(list(bots), pairings, results, count)


def self_play(
    game: Any,
    bots: Sequence[BotSpec],
    *,
    games: SupportsIndex,
    seed: SupportsIndex = 0,
    block: int | None = None,
) -> SelfPlayData:
    """:func:`diabolo.self_play` on the Ray cluster: the same decisions in the same order
    for the same seed, gathered from the blocks."""
    _check(game, bots, "distributed self_play")
    count, start = _integer(games, "games", 1), _integer(seed, "seed", 0)
    _bots(game, bots)  # makes each bot here first: a bad kind or option fails before any task
    game_ref = ray.put(game)
    blocks = [_self_play_block.remote(game_ref, list(bots), start, first, n) for first, n in _blocks(count, block)]
    return SelfPlayData.concatenate(ray.get(blocks))
