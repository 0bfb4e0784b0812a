"""Bots: anything with ``choose(state, player) -> move`` plays a game.

>>> import diabolo
>>> from diabolo.bots import RandomBot
>>> state = diabolo.load("schacht", players=3).new_state(seed=4)
>>> bot = RandomBot(seed=1)
>>> move = bot.choose(state, state.current_player)
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

import random
from typing import Protocol

from diabolo.schacht import SchachtMove, SchachtState


class Bot(Protocol):
    """The bot protocol: pick a legal move for ``player`` in ``state`` (never change ``state``)."""

    def choose(self, state: SchachtState, player: int) -> SchachtMove: ...


class RandomBot:
    """Plays a uniformly random legal move; seeded, so its games repeat.

    >>> RandomBot(seed=3).name
    'random'
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: SchachtState, player: int) -> SchachtMove:
        """A random legal move of ``player``.

        >>> state = diabolo.load("schacht").new_state(seed=1)
        >>> RandomBot(seed=0).choose(state, 1).kind
        'place'
        """
        return self._rng.choice(state.legal_moves(player))


def play_game(state: SchachtState, bots: list[Bot]) -> list[tuple[int, SchachtMove]]:
    """Plays ``state`` to the end with one bot per seat; returns the moves played.

    During simultaneous decisions (``current_player == SIMULTANEOUS``) every seat that
    has legal moves is asked in seat order.

    >>> state = diabolo.load("schacht", players=3).new_state(seed=2)
    >>> moves = play_game(state, [RandomBot(seed=s) for s in range(3)])
    >>> state.is_terminal, len(moves) == len(state.history)
    (True, True)
    """
    played = []
    while not state.is_terminal:
        seats = (
            [state.current_player]
            if state.current_player >= 0
            else [seat for seat in range(len(bots)) if state.legal_actions(seat)]
        )
        for seat in seats:
            move = bots[seat].choose(state, seat)
            state.apply(move, player=seat)
            played.append((seat, move))
    return played
