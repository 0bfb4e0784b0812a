"""The vector environment: many games stepped together in C++ (``game.vector_env``, which
calls :func:`vector_env` here), one learning seat in each, the other seats played by
diabolo's C++ bots. A step releases the GIL, runs on a pool of threads that stays up
between steps, and writes observation tensors, action masks, rewards and end flags into
numpy arrays, with no Python object per game. The rules of a step (turns, real time,
rewards, illegal actions, the ends, autoreset) are in docs/ai.rst, "The vector env".

>>> import numpy as np, diabolo
>>> env = diabolo.load("schacht", players=3).vector_env(4, opponents="heuristic", seed=1)
>>> observations, masks = env.reset()
>>> observations.shape, masks.shape
((4, 968), (4, 77))
>>> actions = masks.argmax(axis=1).astype(np.int32)  # the lowest legal action of each game
>>> observations, masks, rewards, terminated, truncated = env.step(actions)
>>> rewards.dtype, terminated.dtype
(dtype('float32'), dtype('bool'))

``env.send(actions)`` starts the same step on the env's threads and returns at once;
``env.recv()`` waits for it and returns what ``step`` returns, so the caller can choose
another env's actions meanwhile (docs/ai.rst, "Stepping while the caller works"):

>>> env.send(masks.argmax(axis=1))
>>> observations, masks, rewards, terminated, truncated = env.recv()
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

from diabolo import _core
from diabolo.errors import OptionError
from diabolo.registry import Game, bot

__all__ = ["vector_env"]

GAMES_PER_THREAD = 32
"""With ``threads=None``, a thread for each 32 games, up to the cores: below that a second
thread's wake-up costs more than its share of the step (``benchmarks/vector_env.py``;
docs/ai.rst, "The vector env")."""


def default_threads(games: int) -> int:
    """The threads ``vector_env(games, threads=None)`` steps on: one per
    ``GAMES_PER_THREAD`` games, at least one, at most the cores this process may run on.

    >>> from diabolo.envs.vector import default_threads
    >>> default_threads(8)
    1
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, games // GAMES_PER_THREAD))


def _threads(games: Any) -> int:
    """default_threads of a number of games; one for anything else, which the engine then
    refuses with its own message."""
    return default_threads(games) if isinstance(games, int) and not isinstance(games, bool) else 1


def vector_env(
    game: Game,
    games: int,
    *,
    opponents: str | Any | Sequence[str | Any | None] = "random",
    seed: int = 0,
    threads: int | None = None,
    seat: int | None = 0,
    reward: str = "score",
    illegal: str = "raise",
    penalty: float = -1.0,
    idle_limit: int = 8,
    max_steps: int | None = None,
    observations: str = "float32",
    autoreset: str = "next_step",
    claims: int | None = None,
    action_features: bool = False,
) -> Any:
    """``games`` games of ``game`` stepped together in C++, the learner in ``seat`` (None:
    seat e % players in each game's episode e). ``opponents`` plays the other seats: a bot
    kind (``diabolo.bot_kinds``) or a C++ bot for all of them, or one per seat (the
    learner's fixed seat may be None). ``reward`` is "score" (what each step changed in
    the learner's score) or "final" (the final score at the end); ``illegal`` is "raise"
    (the whole step raises before any game changes) or "penalise" (that game's step
    changes nothing and its reward is ``penalty``); a real-time game in which nothing
    happened for ``idle_limit`` steps, or any game after ``max_steps`` steps, is
    truncated. ``threads`` steps the games on that many threads; None (the default) on
    one per 32 games, up to the cores (:func:`default_threads`). Game i of the same
    ``seed`` is the same for any ``games`` > i and any ``threads``.
    ``observations="uint8"`` writes each observation entry as a byte, 0 at its lowest
    value and 255 at its highest (``game.observation_tensor_bounds``): a quarter of the
    memory traffic, exact for the 0/1 entries, within 1/510 of each entry's range for the
    others. ``autoreset="next_step"`` (Gymnasium's ``NEXT_STEP``, as
    EnvPool does) starts a game's next episode at the step after it ended, which ignores
    that game's action; ``"same_step"`` (Gymnasium's ``SAME_STEP``, as Stable-Baselines3's
    ``VecEnv`` expects) starts it in the step that ends it: that step's row of
    ``observations`` and ``masks`` is the next deal's, with the ended episode's reward and
    end flags, and ``env.final_observations`` holds the episode's last observation.
    ``claims=k`` (Knizia only) gives the learner the compact action space: the ids below
    the first claim's as they are (reveal, pass, take@i), then ``k`` entries for the legal
    claims ranked, the longest words first (``KniziaState.compact_view``), instead of an
    action per word of the lexicon; an entry stands for the claim it showed when the step
    began. ``action_features=True`` (Schacht: ``diabolo.schacht.move_features``) fills
    ``env.action_features`` (games x actions x features, float32) with the learner's
    features of each action at every reset and step, for policies that score moves.

    >>> import diabolo
    >>> env = diabolo.load("duvelen", players=2).vector_env(3, opponents=[None, "greedy"])
    >>> env.wait, env.games
    (203, 3)
    """
    if reward not in ("score", "final"):
        raise OptionError(f'reward must be "score" or "final", got {reward!r}')
    if illegal not in ("raise", "penalise"):
        raise OptionError(f'illegal must be "raise" or "penalise", got {illegal!r}')
    if claims is not None and (not isinstance(claims, int) or isinstance(claims, bool) or claims < 1):
        raise OptionError(f"claims must be a number of claims >= 1 or None, got {claims!r}")
    if autoreset not in ("next_step", "same_step"):
        raise OptionError(f'autoreset must be "next_step" or "same_step", got {autoreset!r}')
    if not isinstance(action_features, bool):
        raise OptionError(f"action_features must be True or False, got {action_features!r}")
    if observations not in ("float32", "uint8"):
        raise OptionError(f'observations must be "float32" or "uint8", got {observations!r}')
    if not isinstance(penalty, (int, float)) or isinstance(penalty, bool) or not math.isfinite(penalty):
        raise OptionError(f"penalty must be a finite number, got {penalty!r}")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players):
        raise OptionError(f"seat must be a seat 0..{game.players - 1} or None (each in turn), got {seat!r}")
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        opponents = [None if s == seat else opponents for s in range(game.players)]
    if len(opponents) != game.players:
        raise OptionError(f"opponents holds one player per seat ({game.players}), got {len(opponents)}")
    players = [bot(game.name, entry) if isinstance(entry, str) else entry for entry in opponents]
    return _core.vector_env(
        game,
        players,
        games,
        seed,
        _threads(games) if threads is None else threads,
        -1 if seat is None else seat,
        reward == "final",
        illegal == "penalise",
        float(penalty),
        idle_limit,
        max_steps,
        observations == "uint8",
        autoreset == "same_step",
        0 if claims is None else claims,
        action_features,
    )
