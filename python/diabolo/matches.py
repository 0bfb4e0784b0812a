"""Matches between bots: many seeded games with the seats rotated, and a summary with
confidence intervals.

:func:`match` plays ``games`` games of one game between one bot per seat. Seat ``s`` of
game ``i`` is played by bot ``(s + i) % players``, so every bot plays every seat equally
often (in a multiple of ``players`` games). Game ``i`` depends only on ``(seed, i)``:
the results are the same for any number of ``threads``. Every game's match is played by
the core's ``play_match`` (turn by turn, or for a real-time game simulated as
:func:`diabolo.realtime.simulate_many` runs game ``i``). Bots written in C++
play without the GIL; a bot written in Python (anything with ``choose(state, player)``)
holds it and plays on one thread.

>>> import diabolo
>>> from diabolo.schacht import HeuristicBot, RandomBot
>>> game = diabolo.load("schacht", players=3)
>>> result = diabolo.match(game, [HeuristicBot(), RandomBot(), RandomBot()], games=60, seed=1)
>>> result.scores.shape
(60, 3)
>>> best = result.summary()[0]
>>> best.name, best.win_rate > 0.5
('heuristic', True)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from diabolo import _core
from diabolo.errors import OptionError
from diabolo.registry import GAME_CLASSES, Game

__all__ = [
    "BotSummary",
    "MatchResult",
    "Tournament",
    "check_bots",
    "check_game",
    "match",
    "match_scores",
    "names",
    "round_robin",
    "standings",
    "tournament",
]

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""


@dataclass(frozen=True)
class BotSummary:
    """One bot's results over a match: mean game total and share of games won (a tie
    for the top total shares the win), each with a 95% confidence interval (normal
    approximation over the games, which are independent).

    >>> from diabolo.matches import BotSummary
    >>> BotSummary("x", 100, 3.0, (2.0, 4.0), 0.5, (0.4, 0.6)).win_interval
    (0.4, 0.6)
    """

    name: str
    games: int
    mean_score: float
    score_interval: tuple[float, float]
    win_rate: float
    win_interval: tuple[float, float]


def _interval(values: npt.NDArray[np.float64]) -> tuple[float, float, float]:
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class MatchResult:
    """The outcome of :func:`match`: ``scores[i, b]`` is bot b's total in game i and
    ``wins[i, b]`` its share of that game's win (1, 1/k for a k-way tie, or 0)."""

    names: list[str]
    scores: npt.NDArray[np.int32]
    wins: npt.NDArray[np.float64]

    def summary(self) -> list[BotSummary]:
        """Every bot's summary, best win rate first (ties: the listed order)."""
        rows = []
        for b, name in enumerate(self.names):
            mean, low, high = _interval(self.scores[:, b].astype(np.float64))
            rate, rate_low, rate_high = _interval(self.wins[:, b])
            rows.append(
                BotSummary(name, len(self.scores), mean, (low, high), rate, (max(0.0, rate_low), min(1.0, rate_high)))
            )
        order = sorted(range(len(rows)), key=lambda b: -rows[b].win_rate)
        return [rows[b] for b in order]

    def table(self) -> str:
        """The summary as a text table.

        >>> import diabolo
        >>> from diabolo.schacht import RandomBot
        >>> result = diabolo.match(diabolo.load("schacht", players=3), [RandomBot()] * 3, games=30, seed=2)
        >>> print(result.table().splitlines()[0])
        rank  bot              games  mean score (95% CI)          win rate (95% CI)
        """
        width = max(16, *(len(name) + 1 for name in self.names))
        lines = [f"{'rank':<6}{'bot':<{width}} games  {'mean score (95% CI)':<29}win rate (95% CI)"]
        for b, row in enumerate(self.summary()):
            low, high = row.score_interval
            w_low, w_high = row.win_interval
            lines.append(
                f"{b + 1:>3}.  {row.name:<{width}}{row.games:>6}  {row.mean_score:>7.2f} ({low:>7.2f} .. {high:>7.2f})"
                f"    {row.win_rate:>5.3f} ({w_low:.3f} .. {w_high:.3f})"
            )
        return "\n".join(lines)


def _shared_wins(scores: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    top = scores.max(axis=1, keepdims=True)
    winners: npt.NDArray[np.float64] = (scores == top).astype(np.float64)
    shares: npt.NDArray[np.float64] = winners / winners.sum(axis=1, keepdims=True)
    return shares


def _name(bot: Any, index: int, names: Sequence[str]) -> str:
    base = str(getattr(bot, "name", type(bot).__name__))
    return base if base not in names else f"{base}#{index}"


Progress = Callable[[int, int], None]
"""Called with (games played, games in all) as a match goes on."""


def _integer(value: object, what: str, low: int) -> int:
    """`value` as an int >= low: an int or anything with __index__ (numpy integers), not a bool."""
    try:
        number = None if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # not an integer (numpy.bool_ refuses __index__ too)
        number = None
    if number is None or number < low:
        raise OptionError(f"{what} must be an integer of at least {low}, got {value!r}")
    return number


def match(
    game: Any,
    bots: Sequence[Any],
    *,
    games: SupportsIndex,
    seed: SupportsIndex = 0,
    threads: SupportsIndex = 1,
    progress: Progress | None = None,
) -> MatchResult:
    """Plays ``games`` games of ``game`` between ``bots`` (one per seat), seats rotated
    from game to game; returns the scores per game and bot with a summary.

    C++ bots of the game play in C++ on ``threads`` threads without the GIL; with a bot
    written in Python (anything with ``choose(state, player)``, :class:`diabolo.contract.Bot`)
    the match runs on the calling thread, the bot seeing each position as a state without
    its history.
    The same ``seed`` gives the same results for any number of threads, with or without
    ``progress`` (called with games played and games in all).
    """
    check_game(game, "match")
    check_bots(game, bots, "a match")
    games, seed, threads = _integer(games, "games", 1), _integer(seed, "seed", 0), _integer(threads, "threads", 1)
    scores = match_scores(game, bots, games, seed, threads, 0, progress)
    return MatchResult(names(bots), scores, _shared_wins(scores))


def check_game(game: object, what: str) -> None:
    """OptionError unless ``game`` is a game of :func:`diabolo.load`; ``what`` names the
    caller.

    >>> from diabolo.matches import check_game
    >>> check_game("schacht", "match")
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: match plays a game of diabolo.load, like diabolo.load('schacht'), got 'schacht'
    """
    if not isinstance(game, GAME_CLASSES):
        raise OptionError(f"{what} plays a game of diabolo.load, like diabolo.load('schacht'), got {game!r}")


def check_bots(game: Game, bots: object, what: str) -> None:
    """OptionError unless ``bots`` is a list of one bot (anything with ``choose``) per
    seat of ``game``; ``what`` names the caller.

    >>> import diabolo
    >>> from diabolo.matches import check_bots
    >>> check_bots(diabolo.load("schacht", players=3), [diabolo.bot("schacht", "random")] * 2, "a match")
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: a match needs one bot per seat: 3 seats, got 2 bots
    """
    if not isinstance(bots, Sequence) or isinstance(bots, str):
        raise OptionError(f"bots must be a list of bots, one per seat, got {bots!r}")
    if len(bots) != game.players:
        raise OptionError(f"{what} needs one bot per seat: {game.players} seats, got {len(bots)} bots")
    for index, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise OptionError(f"bot {index} has no choose method: {bot!r}")


def names(bots: Sequence[Any]) -> list[str]:
    """The bots' names in a match: each bot's ``name``, numbered from its second use.

    >>> import diabolo
    >>> from diabolo.matches import names
    >>> names([diabolo.bot("schacht", "heuristic")] + [diabolo.bot("schacht", "random")] * 2)
    ['heuristic', 'random', 'random#2']
    """
    given: list[str] = []
    for index, bot in enumerate(bots):
        given.append(_name(bot, index, given))
    return given


def match_scores(
    game: Game,
    bots: Sequence[Any],
    games: int,
    seed: int,
    threads: int,
    first: int,
    progress: Progress | None = None,
) -> npt.NDArray[np.int32]:
    """The scores (games x bots) of games ``first`` .. ``first + games - 1`` of
    :func:`match`: any split of a match into blocks joins into the whole. Played in C++
    (core/match.hpp), a bot written in Python called through its ``choose``; in parts when
    ``progress`` is reported (game g is always seeded by (seed, g), so the parts give the
    same games).

    >>> import diabolo, numpy as np
    >>> from diabolo.matches import match_scores
    >>> game, bots = diabolo.load("schacht", players=3), [diabolo.bot("schacht", "random")] * 3
    >>> halves = np.concatenate([match_scores(game, bots, 5, 1, 1, 0), match_scores(game, bots, 5, 1, 1, 5)])
    >>> bool((halves == diabolo.match(game, bots, games=10, seed=1).scores).all())
    True
    """
    parts = 20 if progress is not None else 1
    blocks = []
    done = 0
    for part in range(parts):
        count = games * (part + 1) // parts - done
        if count > 0:
            blocks.append(_core.play_match(game, list(bots), count, seed, threads, first + done)["scores"])
            done += count
            if progress is not None:
                progress(done, games)
    return np.concatenate(blocks).astype(np.int32)


@dataclass(frozen=True)
class Tournament:
    """The outcome of :func:`tournament`: every pairing's match, the points each bot
    scored against each other bot, Elo ratings fitted to all of them, and each rating's
    95% interval (``elo_interval``: the 2.5th and 97.5th percentiles of the ratings
    fitted to BOOTSTRAPS resamples of the games, each pairing's games drawn with
    replacement; seeded by the pairings, so the same tournament gives the same intervals)."""

    names: list[str]
    matches: dict[tuple[str, str], MatchResult]
    points: dict[tuple[str, str], float]  # (a, b): a's points against b (a win 1, a draw 0.5)
    elo: dict[str, float]
    elo_interval: dict[str, tuple[float, float]]

    def table(self) -> str:
        """The ratings, best first, with their 95% intervals and each bot's share of
        points in its games.

        >>> import diabolo
        >>> from diabolo.schacht import HeuristicBot, RandomBot
        >>> bots = {"heuristic": HeuristicBot(), "random": RandomBot()}
        >>> ranking = diabolo.tournament(diabolo.load("schacht", players=4), bots, games=40, seed=1)
        >>> print(ranking.table().splitlines()[0])
        rank bot         Elo  95% interval   points
        """
        lines = [f"{'rank bot':<14}{'Elo':>6}  95% interval   points"]
        for rank, name in enumerate(sorted(self.names, key=lambda n: -self.elo[n]), 1):
            won = sum(v for (a, _), v in self.points.items() if a == name)
            played = sum(v + self.points[(b, a)] for (a, b), v in self.points.items() if a == name)
            low, high = self.elo_interval[name]
            lines.append(
                f"{rank:>2}.  {name:<12}{self.elo[name]:>6.0f}  {low:>5.0f}..{high:<5.0f}    "
                f"{won / played if played else 0.0:.3f}"
            )
        return "\n".join(lines)


BOOTSTRAPS = 200
"""Resamples of a tournament's games behind each rating's interval."""


def _elo(names: Sequence[str], points: Mapping[tuple[str, str], float]) -> dict[str, float]:
    """Bradley-Terry strengths fitted by maximum likelihood (minorisation-maximisation,
    a draw counted as half a win each way), on the Elo scale with a mean of 1500."""
    count = len(names)
    won = np.array([[points.get((a, b), 0.0) for b in names] for a in names])
    return dict(zip(names, _elo_fit(won[np.newaxis], count)[0].tolist()))


def _elo_fit(won: npt.NDArray[np.float64], count: int) -> npt.NDArray[np.float64]:
    """The Elo ratings of each of a stack of tournaments, ``won[k, a, b]`` being a's points
    against b in tournament k (a half win of prior each way, as _elo)."""
    off = 1.0 - np.eye(count)
    wins = won.sum(axis=2) + 0.5
    games = (won + won.transpose(0, 2, 1) + 1.0) * off
    strength = np.ones(won.shape[:2])
    for _ in range(2000):
        pair = strength[:, :, np.newaxis] + strength[:, np.newaxis, :]
        updated = wins / (games / pair).sum(axis=2)
        updated /= np.exp(np.log(updated).mean(axis=1, keepdims=True))
        done = np.abs(updated - strength).max() < 1e-13
        strength = updated
        if done:
            break
    ratings: npt.NDArray[np.float64] = 1500.0 + 400.0 * np.log10(strength)
    return ratings


def tournament(
    game: Any, bots: Mapping[str, Any], *, games: SupportsIndex, seed: SupportsIndex = 0, threads: SupportsIndex = 1
) -> Tournament:
    """A round robin: every pair of ``bots`` (a dict of name to bot) plays a match of
    ``games`` games, seats taken in turn (a, b, a, b, ...) and rotated. In each game the
    bot whose best seat has the higher total scores a point (half each for a tie); Elo
    ratings are fitted to all the points. Pairing k is seeded from (seed, k), so the
    results do not depend on ``threads``.
    """
    games, seed = _integer(games, "games", 1), _integer(seed, "seed", 0)
    pairings = round_robin(bots, game.players, seed)
    results = [
        match(game, seated, games=games, seed=pairing_seed, threads=threads) for _, _, seated, pairing_seed in pairings
    ]
    return standings(list(bots), pairings, results, games)


def round_robin(bots: Mapping[str, Any], players: int, seed: int) -> list[tuple[str, str, list[Any], int]]:
    """The pairings of :func:`tournament`: (a, b, the seats' bots, the match's seed) for
    every pair, in order; pairing k's match is seeded from (seed, k).

    >>> from diabolo.matches import round_robin
    >>> [(a, b, seated) for a, b, seated, _ in round_robin({"x": 1, "y": 2, "z": 3}, 3, seed=0)]
    [('x', 'y', [1, 2, 1]), ('x', 'z', [1, 3, 1]), ('y', 'z', [2, 3, 2])]
    """
    names = list(bots)
    if len(names) < 2:
        raise OptionError("a tournament needs at least two bots")
    pairings: list[tuple[str, str, list[Any], int]] = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            seated = [bots[a] if s % 2 == 0 else bots[b] for s in range(players)]
            pairings.append((a, b, seated, _core.derive_seed(seed, len(pairings))))
    return pairings


def standings(
    names: list[str], pairings: Sequence[tuple[str, str, Any, int]], results: Sequence[MatchResult], games: int
) -> Tournament:
    """The tournament's points and ratings from its pairings' matches: in each game the
    bot whose best seat has the higher total scores a point (half each for a tie).

    >>> import diabolo
    >>> from diabolo.matches import round_robin, standings
    >>> game = diabolo.load("schacht", players=4)
    >>> bots = {"heuristic": diabolo.bot("schacht", "heuristic"), "random": diabolo.bot("schacht", "random")}
    >>> pairings = round_robin(bots, game.players, seed=1)
    >>> results = [diabolo.match(game, seated, games=20, seed=s) for _, _, seated, s in pairings]
    >>> standings(list(bots), pairings, results, 20).points == diabolo.tournament(game, bots, games=20, seed=1).points
    True
    """
    matches: dict[tuple[str, str], MatchResult] = {}
    points: dict[tuple[str, str], float] = {}
    per_game: list[npt.NDArray[np.float64]] = []  # a's point in each game of pairing k
    for (a, b, _, _), result in zip(pairings, results):
        best_a = result.scores[:, 0::2].max(axis=1)
        best_b = result.scores[:, 1::2].max(axis=1)
        per_game.append((best_a > best_b) + 0.5 * (best_a == best_b))
        points[(a, b)] = float(per_game[-1].sum())
        points[(b, a)] = float(games - points[(a, b)])
        matches[(a, b)] = result
    elo = _elo(names, points)
    return Tournament(names, matches, points, elo, _elo_intervals(names, pairings, per_game))


def _elo_intervals(
    names: list[str], pairings: Sequence[tuple[str, str, Any, int]], per_game: Sequence[npt.NDArray[np.float64]]
) -> dict[str, tuple[float, float]]:
    """Each rating's 95% interval by the bootstrap: BOOTSTRAPS tournaments whose pairings'
    games are drawn with replacement from those played (seeded by the pairings' seeds)."""
    rng = np.random.default_rng([seed for *_, seed in pairings])
    index = {name: i for i, name in enumerate(names)}
    won = np.zeros((BOOTSTRAPS, len(names), len(names)))
    for (a, b, _, _), points in zip(pairings, per_game):
        drawn = points[rng.integers(0, len(points), size=(BOOTSTRAPS, len(points)))].sum(axis=1)
        won[:, index[a], index[b]] = drawn
        won[:, index[b], index[a]] = len(points) - drawn
    ratings = _elo_fit(won, len(names))
    low, high = np.percentile(ratings, [2.5, 97.5], axis=0)
    return {name: (float(low[i]), float(high[i])) for i, name in enumerate(names)}
