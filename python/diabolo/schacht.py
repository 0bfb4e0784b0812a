"""Diabolo (Michael Schacht, 2006): colour rows of heaven and hell.

The rules, notation and options are on the "Diabolo (Schacht)" docs page; clause
numbers (S3.2) refer to it. The classes are implemented in C++:

- :class:`SchachtGame`: the rules with their options (``diabolo.load("schacht")``),
- :class:`SchachtState`: a position and its history,
- :class:`SchachtMove`: a move; ``str()`` is its notation,
- :class:`RandomBot`, :class:`HeuristicBot`, :class:`LearnedBot` (weights trained by
  self-play over :func:`move_features`) and :class:`IsmctsBot` (information-set Monte
  Carlo tree search, with :class:`SearchResult`): bots that run in C++.

>>> from diabolo.schacht import SchachtGame
>>> state = SchachtGame(players=3).new_state(seed=2)
>>> state.observation(1)["hand_sizes"]
[6, 7, 6]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from diabolo._core import SchachtBot as Bot
from diabolo._core import SchachtGame, SchachtMove, SchachtState, schacht_move_features
from diabolo._core import SchachtHeuristicBot as HeuristicBot
from diabolo._core import SchachtIsmctsBot as IsmctsBot
from diabolo._core import SchachtLearnedBot as LearnedBot
from diabolo._core import SchachtRandomBot as RandomBot
from diabolo._core import SchachtSearchResult as SearchResult

for _cls in (SchachtGame, SchachtMove, SchachtState, Bot, HeuristicBot, IsmctsBot, LearnedBot, RandomBot, SearchResult):
    _cls.__module__ = __name__
for _named, _name in (
    (Bot, "Bot"),
    (HeuristicBot, "HeuristicBot"),
    (IsmctsBot, "IsmctsBot"),
    (LearnedBot, "LearnedBot"),
    (RandomBot, "RandomBot"),
    (SearchResult, "SearchResult"),
):
    _named.__name__ = _named.__qualname__ = _name

BOTS = {"heuristic": HeuristicBot, "ismcts": IsmctsBot, "learned": LearnedBot, "random": RandomBot}
"""The bot class of each kind the catalogue lists (``diabolo.bot`` makes them)."""

FEATURES = (
    "own gain",
    "own gain, sharp",
    "leader's gain",
    "leader's gain, sharp",
    "doubler's gain",
    "discard",
    "discard value",
    "angel side",
    "closes row",
    "closed row's sign",
    "lead, by side",
    "card value",
    "bet",
    "bet: lead chance",
    "bet: expected gain",
    "bet: best later gain",
    "bet: heuristic bets",
)
"""The name of each entry of :func:`move_features`, in order."""


def move_features(state: SchachtState, player: int | None = None) -> npt.NDArray[np.float32]:
    """The features of each action of ``player`` (default: the seat whose decision is due)
    that :class:`LearnedBot` weighs: a float32 array of 77 actions x 17 features
    (:data:`FEATURES`), zeros for actions not legal now. They read only what the seat
    knows (S7): what a move changes in the heuristic's estimate of its colour (the seat's
    own expected gain and the leading other seat's, with the heuristic's constants and
    with sharper ones), the kind of move, and for a doubler decision (S5.3) what the bet
    is likely worth. ``game.vector_env(..., action_features=True)`` writes the same
    rows for every game at each step.

    >>> import diabolo
    >>> import numpy as np
    >>> from diabolo.schacht import LearnedBot, move_features
    >>> state = diabolo.load("schacht").new_state(seed=1)
    >>> features = move_features(state)
    >>> features.shape
    (77, 17)
    >>> values = features.astype(np.float64) @ LearnedBot().weights
    >>> legal = [move.action for move in state.legal_moves()]
    >>> legal[int(np.argmax(values[legal]))] == LearnedBot().choose(state).action
    True
    """
    return schacht_move_features(state, player)


__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "FEATURES",
    "IsmctsBot",
    "LearnedBot",
    "RandomBot",
    "SchachtGame",
    "SchachtMove",
    "SchachtState",
    "SearchResult",
    "move_features",
]
