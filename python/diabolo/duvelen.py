"""Duvelen: a Dutch family speed game, played by everyone at once.

The rules, notation and options are on the "Duvelen" docs page; clause numbers (D3.2)
refer to it. The classes are implemented in C++:

- :class:`DuvelenGame`: the rules with their options (``diabolo.load("duvelen")``),
- :class:`DuvelenState`: a position and its history,
- :class:`DuvelenMove`: a move; ``str()`` is its notation,
- :class:`GreedyBot`, :class:`LookaheadBot`, :class:`SearchBot` and :class:`RandomBot`: bots for
  :mod:`diabolo.realtime`.

>>> from diabolo.duvelen import DuvelenGame
>>> state = DuvelenGame(players=2).new_state(seed=2)
>>> state.observation(0)["seats"][1]["stok_count"]
13
"""

from __future__ import annotations

from diabolo._core import DuvelenBot as Bot
from diabolo._core import DuvelenGame, DuvelenMove, DuvelenState
from diabolo._core import DuvelenGreedyBot as GreedyBot
from diabolo._core import DuvelenLookaheadBot as LookaheadBot
from diabolo._core import DuvelenRandomBot as RandomBot
from diabolo._core import DuvelenSearchBot as SearchBot

for _cls in (DuvelenGame, DuvelenMove, DuvelenState, Bot, GreedyBot, LookaheadBot, RandomBot, SearchBot):
    _cls.__module__ = __name__
for _bot, _name in (
    (Bot, "Bot"),
    (GreedyBot, "GreedyBot"),
    (LookaheadBot, "LookaheadBot"),
    (RandomBot, "RandomBot"),
    (SearchBot, "SearchBot"),
):
    _bot.__name__ = _bot.__qualname__ = _name

BOTS = {"greedy": GreedyBot, "lookahead": LookaheadBot, "random": RandomBot, "search": SearchBot}
"""The bot class of each kind the catalogue lists (``diabolo.bot`` makes them)."""

__all__ = [
    "BOTS",
    "Bot",
    "DuvelenGame",
    "DuvelenMove",
    "DuvelenState",
    "GreedyBot",
    "LookaheadBot",
    "RandomBot",
    "SearchBot",
]
