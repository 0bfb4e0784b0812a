"""Diabolo (Reiner Knizia, 1999): the real-time word game; words and claims.

The rules are on the "Diabolo (Knizia)" docs page (clause numbers K3.3). This module
has the word functions of K9: :func:`find_words` (every valid word a table can form:
the game's legal-move generation) and :func:`check_word` (one call checked, with the
reason when it fails). Tables are lists of cards in notation: ``"A"``, ``"EI"`` (a
double letter), ``"?"`` (a joker) and ``"??"`` (a double joker).

>>> from diabolo import Lexicon
>>> from diabolo.knizia import find_words
>>> lexicon = Lexicon.from_words(["Post", "Stop", "Pose", "Tor"])
>>> [m.word for m in find_words(["P", "T", "??"], lexicon)]
['POST']
"""

from __future__ import annotations

from collections.abc import Sequence

from diabolo import _core
from diabolo._core import KniziaMatch as Match
from diabolo.errors import InvalidWordError
from diabolo.lexicon import Lexicon

Match.__module__ = __name__
Match.__name__ = Match.__qualname__ = "Match"

__all__ = ["Match", "check_word", "find_words"]


def find_words(table: Sequence[str], lexicon: Lexicon, min_cards: int = 3) -> list[Match]:
    """Every word of ``lexicon`` the table can form with at least ``min_cards`` cards
    (K3.3), each with its best assignment (K10.4), sorted by word. Runs in C++.

    >>> from diabolo import Lexicon
    >>> from diabolo.knizia import find_words
    >>> lexicon = Lexicon.from_words(["Lager", "Regal", "Angel", "Hang"])
    >>> [(m.word, m.cards) for m in find_words(["L", "A", "G", "E", "R", "?"], lexicon)]
    [('ANGEL', (1, 5, 2, 3, 0)), ('LAGER', (0, 1, 2, 3, 4)), ('REGAL', (4, 3, 2, 1, 0))]
    """
    return _core.knizia_find_words(table, lexicon._core, min_cards)


def check_word(word: str, table: Sequence[str], lexicon: Lexicon, min_cards: int = 3) -> Match:
    """The best match of ``word`` (normalised per K2) on ``table``, or
    :class:`~diabolo.InvalidWordError` whose ``reason`` says why it is not a valid claim.

    >>> from diabolo import Lexicon
    >>> from diabolo.knizia import check_word
    >>> lexicon = Lexicon.from_words(["Stop", "Post"])
    >>> check_word("Post", ["T", "??", "P"], lexicon).cards
    (2, 1, 0)
    >>> check_word("Tops", ["T", "O", "P", "S"], lexicon)
    Traceback (most recent call last):
    ...
    diabolo.errors.InvalidWordError: 'Tops' is not a valid claim: not a word
    """
    reason, match = _core.knizia_check_word(word, table, lexicon._core, min_cards)
    if match is None:
        raise InvalidWordError(f"{word!r} is not a valid claim: {reason}", reason)
    return match
