"""Diabolo (Michael Schacht, 2006): colour rows of heaven and hell.

The rules, notation and options are on the "Diabolo (Schacht)" docs page; clause
numbers (S3.2) refer to it. The classes are implemented in C++:

- :class:`SchachtGame`: the rules with their options (``diabolo.load("schacht")``),
- :class:`SchachtState`: a position and its history,
- :class:`SchachtMove`: a move; ``str()`` is its notation,
- :class:`RandomBot`, :class:`HeuristicBot` and :class:`IsmctsBot` (information-set
  Monte Carlo tree search, with :class:`SearchResult`): bots that run in C++.

>>> from diabolo.schacht import SchachtGame
>>> state = SchachtGame(players=3).new_state(seed=2)
>>> state.observation(1)["hand_sizes"]
[6, 7, 6]
"""

from __future__ import annotations

from diabolo._core import SchachtBot as Bot
from diabolo._core import SchachtGame, SchachtMove, SchachtState
from diabolo._core import SchachtHeuristicBot as HeuristicBot
from diabolo._core import SchachtIsmctsBot as IsmctsBot
from diabolo._core import SchachtRandomBot as RandomBot
from diabolo._core import SchachtSearchResult as SearchResult

for _cls in (SchachtGame, SchachtMove, SchachtState, Bot, HeuristicBot, IsmctsBot, RandomBot, SearchResult):
    _cls.__module__ = __name__
for _named, _name in (
    (Bot, "Bot"),
    (HeuristicBot, "HeuristicBot"),
    (IsmctsBot, "IsmctsBot"),
    (RandomBot, "RandomBot"),
    (SearchResult, "SearchResult"),
):
    _named.__name__ = _named.__qualname__ = _name

BOTS = {"heuristic": HeuristicBot, "ismcts": IsmctsBot, "random": RandomBot}
"""The bot class of each kind the catalogue lists (``diabolo.bot`` makes them)."""

__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "SchachtGame",
    "SchachtMove",
    "SchachtState",
    "SearchResult",
]
