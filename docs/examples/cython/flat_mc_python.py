"""Flat Monte Carlo over the Python API: the algorithm of flat_mc_cython.pyx, move for
move, with the same random numbers, so that both give the same values (and the
benchmark compares their speed, benchmarks/cython_search.py)."""

from __future__ import annotations

from typing import Any

MASK = (1 << 64) - 1


def flat_monte_carlo(state: Any, player: int, playouts: int, seed: int) -> list[tuple[int, float]]:
    """``[(action, mean reward), ...]`` for each legal action of ``player``: ``playouts``
    determinised random games each, rewarded by the seat's final score minus the best
    other seat's.

    >>> import diabolo
    >>> state = diabolo.load("schacht", players=3).new_state(seed=4)
    >>> values = flat_monte_carlo(state, state.current_player, 2, seed=1)
    >>> [action for action, _ in values] == state.legal_actions(state.current_player)
    True
    """
    x = seed
    values = []
    for action in state.legal_actions(player):
        total = 0
        for _ in range(playouts):
            x = (x * 6364136223846793005 + 1442695040888963407) & MASK
            guess = state.resample(player, x)
            guess.apply(action, player=player)
            while not guess.is_terminal:
                seat = guess.pending_seats[0]
                legal = guess.legal_actions(seat)
                x = (x * 6364136223846793005 + 1442695040888963407) & MASK
                guess.apply(legal[(x >> 33) % len(legal)], player=seat)
            scores = guess.scores
            total += scores[player] - max(s for seat, s in enumerate(scores) if seat != player)
        values.append((action, total / playouts))
    return values
