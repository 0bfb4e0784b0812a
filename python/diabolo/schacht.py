"""Diabolo (Michael Schacht, 2006): colour rows of heaven and hell.

The rules, notation and options are on the "Diabolo (Schacht)" docs page; clause
numbers (S3.2) refer to it. The classes are implemented in C++:

- :class:`SchachtGame`: the rules with their options (``diabolo.load("schacht")``),
- :class:`SchachtState`: a position and its history,
- :class:`SchachtMove`: a move; ``str()`` is its notation.

>>> from diabolo.schacht import SchachtGame
>>> state = SchachtGame(players=3).new_state(seed=2)
>>> state.observation(1)["hand_sizes"]
[6, 7, 6]
"""

from __future__ import annotations

from diabolo._core import SchachtGame, SchachtMove, SchachtState

for _cls in (SchachtGame, SchachtMove, SchachtState):
    _cls.__module__ = __name__

__all__ = ["SchachtGame", "SchachtMove", "SchachtState"]
