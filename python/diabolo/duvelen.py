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

PACES = {
    "easy": {"play": (3.0, 0.8), "turn": (2.0, 0.5), "recycle": (4.0, 0.8), "stop": (1.8, 0.5), "pass": (3.5, 0.8)},
    "medium": {"play": (2.2, 0.6), "turn": (1.5, 0.4), "recycle": (3.0, 0.6), "stop": (1.2, 0.4), "pass": (2.5, 0.6)},
}
"""The reaction delays, ``{kind: (mean, spread)}`` in seconds, a game server gives its
``easy`` and ``medium`` bots (:func:`diabolo.ladder.level`) instead of a quick human's
(:class:`diabolo.realtime.Reaction`): they play at about a person's pace, so that a person
who needs 3 s to see a play makes a fair share of the plays (``benchmarks/people_pace.py``;
docs/server.rst). ``strong`` bots keep a quick human's pace."""

__all__ = [
    "BOTS",
    "PACES",
    "Bot",
    "DuvelenGame",
    "DuvelenMove",
    "DuvelenState",
    "GreedyBot",
    "LookaheadBot",
    "RandomBot",
    "SearchBot",
]
