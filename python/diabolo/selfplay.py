"""Training data from bots playing each other: every decision of every seat, as the
arrays a learner reads.

:func:`self_play` plays ``games`` games with the seats rotated as :func:`diabolo.match`
rotates them (seat ``s`` of game ``i`` is bot ``(s + i) % players``) and records, for each
move in the order it was applied, the mover's observation tensor and action mask before
the move, the action id, the seat, the game's index and the mover's final score. Game
``i`` depends only on ``(seed, i)``: Schacht's bots decide with the seed
``derive_seed(deal, k)`` for the game's ``k``-th decision, the real-time games run in
:func:`diabolo.realtime.simulate` from the deal's seed. So any split of the games into
blocks (:mod:`diabolo.distributed` sends blocks to a Ray cluster) gives the same data.

>>> import diabolo
>>> game = diabolo.load("schacht", players=3)
>>> bots = [diabolo.bot("schacht", "heuristic")] * 3
>>> data = diabolo.self_play(game, bots, games=4, seed=1)
>>> data.observations.shape[1], data.masks.shape[1]
(968, 77)
>>> bool(data.masks[range(len(data.actions)), data.actions].all())  # every action was legal
True
>>> data.scores.shape
(4, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from diabolo import _core, realtime
from diabolo.errors import OptionError
from diabolo.matches import _integer, check_bots, check_game
from diabolo.registry import BOT_CLASSES, Game

__all__ = ["SelfPlayData", "play_block", "self_play"]


@dataclass(frozen=True)
class SelfPlayData:
    """The decisions of :func:`self_play`, one row each, in the order they were applied:
    ``observations`` (float32, the mover's tensor before the move), ``masks`` (bool, its
    legal actions then), ``actions`` (int32 ids), ``seats`` (int8), ``games`` (int32, the
    game's index), ``returns`` (float32, the mover's final score in that game), and
    ``scores`` (int32, games x seats, the final scores of the games ``first`` ..
    ``first + len(scores) - 1``)."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int32]
    seats: npt.NDArray[np.int8]
    games: npt.NDArray[np.int32]
    returns: npt.NDArray[np.float32]
    scores: npt.NDArray[np.int32]
    first: int = 0

    @staticmethod
    def concatenate(parts: Sequence[SelfPlayData]) -> SelfPlayData:
        """Consecutive blocks of games as one, in the order given.

        >>> import diabolo
        >>> game, bots = diabolo.load("schacht", players=3), [diabolo.bot("schacht", "random")] * 3
        >>> whole = diabolo.self_play(game, bots, games=4, seed=2)
        >>> from diabolo.selfplay import SelfPlayData, play_block
        >>> halves = SelfPlayData.concatenate([play_block(game, bots, 2, 0, 2), play_block(game, bots, 2, 2, 2)])
        >>> bool((halves.observations == whole.observations).all() and (halves.games == whole.games).all())
        True
        """
        if not parts:
            raise OptionError("concatenate needs at least one block of games")
        for before, after in zip(parts, parts[1:]):
            if after.first != before.first + len(before.scores):
                raise OptionError(f"blocks must follow each other: games from {before.first}, then from {after.first}")
        joined = {key: np.concatenate([getattr(part, key) for part in parts]) for key in _ARRAYS}
        return SelfPlayData(**joined, first=parts[0].first)


_ARRAYS = ("observations", "masks", "actions", "seats", "games", "returns", "scores")


def _action(game: Game, move: Any) -> int:
    action = game.action(move)
    if action is None:
        raise OptionError(f"the move {move} has no action id in this game")
    return int(action)


def _finished(game: Game, bots: Sequence[Any], deal: int) -> Any:
    """Game of seed ``deal`` played to the end by ``bots`` (one per seat)."""
    state: Any = game.new_state(seed=deal)
    if game.real_time:
        return realtime.simulate(state, bots, seed=deal).state
    decision = 0
    while not state.is_terminal:
        seat = state.pending_seats[0]  # simultaneous decisions (Schacht's doubler, S5.3) in seat order
        bot: Any = bots[seat]
        if isinstance(bot, BOT_CLASSES):  # a C++ bot draws from a seed of its own per decision
            move = bot.choose(state, seat, seed=_core.derive_seed(deal, decision))
        else:
            move = bot.choose(state, seat)
        state.apply(move, player=seat)
        decision += 1
    return state


def play_block(game: Game, bots: Sequence[Any], seed: int, first: int, count: int) -> SelfPlayData:
    """The games ``first`` .. ``first + count - 1`` of :func:`self_play` with ``seed``:
    a block of the data, for spreading the games over processes.

    >>> import diabolo
    >>> from diabolo.selfplay import play_block
    >>> game = diabolo.load("duvelen", players=2)
    >>> block = play_block(game, [diabolo.bot("duvelen", "greedy")] * 2, seed=1, first=10, count=2)
    >>> block.first, sorted(set(block.games.tolist()))
    (10, [10, 11])
    """
    players = game.players
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    rows: list[tuple[int, int, int, float]] = []
    scores = np.zeros((count, players), dtype=np.int32)
    for index in range(first, first + count):
        deal = _core.derive_seed(seed, index)
        seated = [bots[(seat + index) % players] for seat in range(players)]
        final = _finished(game, seated, deal)
        scores[index - first] = final.scores
        state: Any = game.new_state(seed=deal)
        for seat, move in final.history:
            observations.append(state.observation_tensor(seat))
            masks.append(np.asarray(state.legal_action_mask(seat), dtype=np.bool_))
            rows.append((_action(game, move), seat, index, float(final.scores[seat])))
            state.apply(move, player=seat)
    table = np.array(rows, dtype=np.float64).reshape(-1, 4)
    return SelfPlayData(
        np.array(observations, dtype=np.float32).reshape(-1, *game.observation_tensor_shape),
        np.array(masks, dtype=np.bool_).reshape(-1, game.num_actions),
        table[:, 0].astype(np.int32),
        table[:, 1].astype(np.int8),
        table[:, 2].astype(np.int32),
        table[:, 3].astype(np.float32),
        scores,
        first,
    )


def self_play(game: Any, bots: Sequence[Any], *, games: SupportsIndex, seed: SupportsIndex = 0) -> SelfPlayData:
    """Plays ``games`` games of ``game`` between ``bots`` (one per seat; the same bot in
    every seat for self-play), seats rotated from game to game, and returns every
    decision as training data (see :mod:`diabolo.selfplay`). The same ``seed`` gives the
    same data, here or spread over a cluster by :func:`diabolo.distributed.self_play`."""
    check_game(game, "self_play")
    check_bots(game, bots, "self_play")
    return play_block(game, bots, _integer(seed, "seed", 0), 0, _integer(games, "games", 1))
