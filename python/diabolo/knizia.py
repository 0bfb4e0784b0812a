"""Diabolo (Reiner Knizia, 1999): the real-time word game.

The rules, notation and options are on the "Diabolo (Knizia)" docs page (clause
numbers K3.3). This module has

- the word functions of K9: :func:`find_words` (every valid word a table can form:
  the game's legal-move generation) and :func:`check_word` (one call checked, with the
  reason when it fails);
- :class:`Deck`, the cards of a game (K10.7), and the game's classes, implemented in
  C++: :class:`KniziaGame` (``diabolo.load("knizia")``), :class:`KniziaState` and
  :class:`KniziaMove`;
- :class:`WordBot`, :class:`SearchBot` and :class:`RandomBot`, bots for
  :mod:`diabolo.realtime`.

Tables are lists of cards in notation: ``"A"``, ``"EI"`` (a double letter), ``"?"``
(a joker) and ``"??"`` (a double joker).

>>> from diabolo import Lexicon
>>> from diabolo.knizia import find_words
>>> lexicon = Lexicon.from_words(["Post", "Stop", "Pose", "Tor"])
>>> [m.word for m in find_words(["P", "T", "??"], lexicon)]
['POST']
"""

from __future__ import annotations

import functools
import operator
import os
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import NamedTuple, overload

from diabolo import _core
from diabolo._core import Deck, KniziaGame, KniziaMove, KniziaState
from diabolo._core import KniziaBot as Bot
from diabolo._core import KniziaRandomBot as RandomBot
from diabolo._core import KniziaSearchBot as SearchBot
from diabolo._core import KniziaWordBot as WordBot
from diabolo.errors import InvalidWordError, OptionError
from diabolo.lexicon import Lexicon, add_constructor, is_language_code

for _cls in (Deck, KniziaGame, KniziaMove, KniziaState, Bot, RandomBot, SearchBot, WordBot):
    _cls.__module__ = __name__
for _named, _name in ((Bot, "Bot"), (RandomBot, "RandomBot"), (SearchBot, "SearchBot"), (WordBot, "WordBot")):
    _named.__name__ = _named.__qualname__ = _name

BOTS = {
    "lookahead": functools.partial(WordBot, lookahead=True),
    "random": RandomBot,
    "search": SearchBot,
    "word": WordBot,
}
"""The bot maker of each kind the catalogue lists (``diabolo.bot`` makes them): ``lookahead``
is a WordBot that weighs what its call leaves; ``search`` plays each call's race out."""

PACES = {
    "easy": {"claim": (4.0, 0.8), "take": (3.0, 0.6)},
    "medium": {"claim": (3.0, 0.8), "take": (2.5, 0.6)},
}
"""The reaction delays, ``{kind: (mean, spread)}`` in seconds, a game server gives its
``easy`` and ``medium`` bots (:func:`diabolo.ladder.level`) beyond a quick human's
(:class:`diabolo.realtime.Reaction`): they call words (plus their ``per_letter`` time) and
take penalty cards at about a person's pace, so that a person who needs 3 s to see a word
makes a fair share of the calls (``benchmarks/people_pace.py``; docs/server.rst). The
dealer's reveals and a pass keep a quick human's pace; ``strong`` bots keep it all."""

__all__ = [
    "BOTS",
    "PACES",
    "Bot",
    "Deck",
    "KniziaGame",
    "KniziaMove",
    "KniziaState",
    "FoundWord",
    "FoundWords",
    "RandomBot",
    "SearchBot",
    "WordBot",
    "check_word",
    "find_words",
]


class FoundWord(NamedTuple):
    """A word the table can form, with its best card assignment (K3.4, K10.4).

    >>> from diabolo import Lexicon
    >>> match = check_word("stop", ["ST", "O", "?"], Lexicon.from_words(["Stop"]))
    >>> match
    FoundWord(word='STOP', cards=(0, 1, 2), jokers=1)
    >>> match.card_count
    3
    """

    word: str
    """The word, normalised (A-Z)."""
    cards: tuple[int, ...]
    """Table positions used (0-based), in word order."""
    jokers: int
    """Joker cards used (``?`` and ``??`` count one each)."""

    @property
    def card_count(self) -> int:
        """Number of cards used."""
        return len(self.cards)


def _load_deck(cls: type[Deck], language: str) -> Deck:
    """The deck packaged for ``language`` (``de``, ``en``, ``nl``).

    >>> Deck.load("en").language
    'en'
    """
    if not is_language_code(language) or not (resources.files("diabolo") / "decks" / f"{language}.json").is_file():
        shown = language if not isinstance(language, str) or len(language) <= 40 else language[:40] + "..."
        raise OptionError(f"no packaged deck for language {shown!r}; the decks are de, en, nl, or use Deck.from_file")
    packaged = resources.files("diabolo") / "decks" / f"{language}.json"
    return cls.from_json(packaged.read_text(encoding="utf-8"))


def _deck_from_file(cls: type[Deck], path: str | os.PathLike[str]) -> Deck:
    """The deck in a JSON deck file (K10.7), UTF-8."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise OptionError(f"a deck file is UTF-8 text; {path} is not: {error}") from None
    return cls.from_json(text)


add_constructor(Deck, "load", _load_deck)
add_constructor(Deck, "from_file", _deck_from_file)


class FoundWords(Sequence[FoundWord]):
    """The words a table can form, as :func:`find_words` returns them: a read-only
    sequence of :class:`FoundWord`, sorted by word.

    The search stores its results in C++; each :class:`FoundWord` is made when it is read,
    so a call that looks at a few of a table's thousand words pays for those few.
    Iterating builds them all at once. A FoundWords pickles (and copies) as the list of its
    matches.

    >>> from diabolo import Lexicon
    >>> matches = find_words(["L", "A", "G", "E", "R", "?"], Lexicon.from_words(["Lager", "Regal", "Angel"]))
    >>> len(matches), matches[0].word, matches[-1].cards
    (3, 'ANGEL', (4, 3, 2, 1, 0))
    >>> [m.word for m in matches]
    ['ANGEL', 'LAGER', 'REGAL']
    >>> matches[1:]
    [FoundWord(word='LAGER', cards=(0, 1, 2, 3, 4), jokers=0), FoundWord(word='REGAL', cards=(4, 3, 2, 1, 0), jokers=0)]
    """

    __slots__ = ("_core",)

    def __init__(self, core: _core.KniziaFoundWords) -> None:
        self._core = core

    def __len__(self) -> int:
        return len(self._core)

    @overload
    def __getitem__(self, index: int) -> FoundWord: ...
    @overload
    def __getitem__(self, index: slice) -> list[FoundWord]: ...
    def __getitem__(self, index: int | slice) -> FoundWord | list[FoundWord]:
        """The match at ``index``, or a list of the matches in a slice."""
        if isinstance(index, slice):
            return [self._core.at(i) for i in range(*index.indices(len(self._core)))]
        return self._core.at(operator.index(index))

    def __iter__(self) -> Iterator[FoundWord]:
        return iter(self._core.to_list())

    def __reduce__(self) -> tuple[type[list[FoundWord]], tuple[list[FoundWord]]]:
        return (list, (list(self),))

    def __repr__(self) -> str:
        shown = ", ".join(repr(m) for m in self[:3])
        more = f", ... ({len(self)} matches)" if len(self) > 3 else ""
        return f"FoundWords([{shown}{more}])"


def _checked(lexicon: Lexicon) -> Lexicon:
    """``lexicon``; OptionError if it is not a Lexicon."""
    if not isinstance(lexicon, Lexicon):
        raise OptionError(f"lexicon must be a diabolo.Lexicon, got {type(lexicon).__name__}")
    return lexicon


def find_words(table: Sequence[str], lexicon: Lexicon, min_cards: int = 3) -> FoundWords:
    """Every word of ``lexicon`` the table can form with at least ``min_cards`` cards
    (K3.3), each with its best assignment (K10.4), sorted by word: a :class:`FoundWords`
    sequence. Runs in C++; :class:`~diabolo.LimitError` on a table of a custom deck that
    would take too long (see the reliability page).

    >>> from diabolo import Lexicon
    >>> from diabolo.knizia import find_words
    >>> lexicon = Lexicon.from_words(["Lager", "Regal", "Angel", "Hang"])
    >>> [(m.word, m.cards) for m in find_words(["L", "A", "G", "E", "R", "?"], lexicon)]
    [('ANGEL', (1, 5, 2, 3, 0)), ('LAGER', (0, 1, 2, 3, 4)), ('REGAL', (4, 3, 2, 1, 0))]
    """
    return FoundWords(_core.knizia_find_words(table, _checked(lexicon), min_cards, FoundWord))


def check_word(word: str, table: Sequence[str], lexicon: Lexicon, min_cards: int = 3) -> FoundWord:
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
    reason, match = _core.knizia_check_word(word, table, _checked(lexicon), min_cards, FoundWord)
    if match is None:
        raise InvalidWordError(f"{word!r} is not a valid claim: {reason}", reason)
    return match
