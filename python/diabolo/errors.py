"""The errors diabolo raises on bad input.

Every error is a :class:`DiaboloError`, which is a :class:`ValueError`, so code that
already catches ``ValueError`` keeps working. Nothing a caller passes can crash the
process or change a state: a call that raises leaves everything as it was.

>>> import diabolo
>>> state = diabolo.load("schacht", players=3).new_state(seed=1)
>>> try:
...     state.apply("bet")
... except diabolo.IllegalMoveError as error:
...     print(error.clause)
S5.3
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "DiaboloError",
    "IllegalMoveError",
    "InvalidWordError",
    "LexiconNotFoundError",
    "LimitError",
    "NotationError",
    "OptionError",
    "PlayerError",
    "StaleMoveError",
    "StateFormatError",
]


class DiaboloError(ValueError):
    """Base class of every error diabolo raises on bad input.

    Beside its English text every error has a ``code``, stable across versions, for a
    program or a translation (each class has its own; an illegal move has one per rule it
    breaks: docs, Building a frontend, "Errors"), and ``params``, the values its text
    names, as strings.

    >>> issubclass(diabolo.NotationError, diabolo.DiaboloError)
    True
    >>> state = diabolo.load("schacht", players=3).new_state(seed=1)
    >>> try:
    ...     state.apply("G5<", player=2)
    ... except diabolo.IllegalMoveError as error:
    ...     print(error.code, error.params)
    not_your_turn {'to_move': '1', 'seat': '2'}
    """

    code: str = "error"

    def __init__(self, message: str = "", *, code: str | None = None, params: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, str] = dict(params or {})


class IllegalMoveError(DiaboloError):
    """A well-formed move that the rules forbid now; the state is unchanged.

    ``clause`` names the rule broken, as numbered in the game's rules page.

    >>> state = diabolo.load("schacht", players=3).new_state(seed=1)
    >>> state.apply("bet")
    Traceback (most recent call last):
    ...
    diabolo.errors.IllegalMoveError: S5.3: the doubler is only decided while a positive colour is scored
    """

    code = "illegal_move"

    def __init__(
        self, message: str = "", clause: str = "", *, code: str | None = None, params: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.clause = clause


class StaleMoveError(IllegalMoveError):
    """A move made on an older version of the table that lost a race: it was legal at the
    ``version`` it names, another move came first, and now it is not. The state is
    unchanged; the mover may look again and decide anew. A move that was never legal is an
    :class:`IllegalMoveError` instead.

    >>> game = diabolo.load("duvelen", players=2)
    >>> state = game.new_state(seed=1)
    >>> seen = state.version
    >>> state.apply("turn", player=0, version=seen)
    >>> state.apply("turn", player=1, version=seen)  # still legal: the race did not matter
    >>> state.version
    2

    Its ``code`` is ``"stale_move"``; its ``params`` hold ``seen`` (the version the move
    was made on), ``version`` (the state's now), ``rule`` (the code of the rule the move
    breaks now) and that rule's params.
    """

    code = "stale_move"


class NotationError(DiaboloError):
    """Text (or an action id, or move data) that is not a move or card of the game.

    ``clause`` names the clause of the game's notation (``S8``, ``D7``, ``K7``).

    >>> diabolo.schacht.SchachtMove.parse("G9<")
    Traceback (most recent call last):
    ...
    diabolo.errors.NotationError: unknown value '9' in card 'G9': values are 1-5 (S1.3)
    >>> try:
    ...     diabolo.load("duvelen").move("R9>1")
    ... except diabolo.NotationError as error:
    ...     print(error.code, error.clause)
    bad_notation D7
    """

    code = "bad_notation"

    def __init__(
        self, message: str = "", clause: str = "", *, code: str | None = None, params: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.clause = clause


class OptionError(DiaboloError):
    """A game option (or another argument) with a wrong name, type or value.

    >>> diabolo.load("schacht", players=7)
    Traceback (most recent call last):
    ...
    diabolo.errors.OptionError: players must be 3..5 (S1.1; strict_players=False allows 2..8), got 7
    """

    code = "bad_option"


class StateFormatError(DiaboloError):
    """A serialised state or a given deal that is malformed or breaks a rule invariant.

    >>> diabolo.load("schacht").state_from_json("{}")
    Traceback (most recent call last):
    ...
    diabolo.errors.StateFormatError: state JSON: missing key 'format'
    """

    code = "bad_state"


class PlayerError(DiaboloError):
    """A seat number that does not exist, or no seat where one is needed.

    >>> diabolo.load("schacht", players=3).new_state(seed=1).observation(3)
    Traceback (most recent call last):
    ...
    diabolo.errors.PlayerError: player must be a seat 0..2, got 3
    """

    code = "bad_player"


class LimitError(DiaboloError):
    """Work the rules allow but that would pass one of the engine's documented limits
    (see the reliability page), such as a word search on a table of a custom deck with
    dozens of jokers and double letter cards, which could take minutes. Nothing has changed.

    >>> from diabolo.knizia import find_words
    >>> lexicon = diabolo.Lexicon.from_words(["EN" * 30 + "E"])
    >>> find_words(["EN"] * 60 + ["?"] * 30, lexicon)
    Traceback (most recent call last):
    ...
    diabolo.errors.LimitError: ...
    """

    code = "limit"


class InvalidWordError(DiaboloError):
    """A called word that is not a valid claim on the table (K3.3, K6.2).

    ``reason`` is one of ``"not a word"``, ``"too few cards"``, ``"letters missing"`` and
    ``"double letter split or reversed"``, checked in that order (K10.8).

    >>> from diabolo.knizia import check_word
    >>> try:
    ...     check_word("REST", ["R", "E", "TS"], diabolo.Lexicon.from_words(["Rest"]))
    ... except diabolo.InvalidWordError as error:
    ...     print(error.reason)
    double letter split or reversed
    """

    code = "invalid_word"

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message, params={"reason": reason})
        self.reason = reason


class LexiconNotFoundError(DiaboloError):
    """No word list is installed for the language asked for; the message says how to get one.

    >>> try:
    ...     diabolo.Lexicon.load("tlh")
    ... except diabolo.LexiconNotFoundError as error:
    ...     print("pip install ./lexicons/de" in str(error))
    True
    """

    code = "lexicon_not_found"
