"""Talk at a table: a chat in two rooms, the players' (every seat) and the spectators',
each bounded in length and rate and kept for a page that comes in, with a server-side
filter hook; and each seat's presence (online, away, gone).

>>> rules = ChatRules(length=20)
>>> rules.clean("  good\\tgame  ")
'good game'
>>> rules.clean("x" * 21)
Traceback (most recent call last):
...
diabolo.server.protocol.Rejection: a chat message has at most 20 characters
"""

from __future__ import annotations

import collections
import importlib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from diabolo.errors import OptionError
from diabolo.server.protocol import Rejection

__all__ = ["ChatFilter", "ChatRules", "Presence", "Rooms", "is_away", "load_filter"]

ChatFilter = Callable[[str, "int | None", str], "str | None"]
"""A server's chat filter: ``(text, seat or None for a spectator, table id)`` -> the text to
send (changed or not), or None to refuse it."""

Presence = Literal["online", "away", "gone"]
"""A seat's presence: a page of it is open and shown (online), every page of it is hidden
or in the background (away), or no page of it is connected (gone)."""


def load_filter(path: str) -> ChatFilter | None:
    """The callable a ``chat_filter`` setting names (``package.module:function``), None for
    an empty one; OptionError when it names nothing callable."""
    if not path:
        return None
    module, _, name = path.partition(":")
    try:
        found = getattr(importlib.import_module(module), name) if name else None
    except (ImportError, AttributeError) as error:
        raise OptionError(f"chat_filter {path!r} names nothing that can be imported: {error}") from None
    if not callable(found):
        raise OptionError(f"chat_filter is module:function, a callable; got {path!r}")
    filtered: ChatFilter = found
    return filtered


@dataclass(frozen=True)
class ChatRules:
    """What a table's chat allows: ``length`` characters a message, ``kept`` lines a room
    keeps for pages that come in, and the server's ``filter`` (see ChatFilter)."""

    length: int = 200
    kept: int = 50
    filter: ChatFilter | None = None

    def clean(self, text: Any) -> str:
        """The message as it is sent: control characters dropped, runs of white space made
        one space, trimmed; Rejection ``bad_message`` for no text, or too long a one."""
        if not isinstance(text, str):
            raise Rejection("bad_message", f"a chat message is text, got {type(text).__name__}")
        kept = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or not _control(ch))
        line = " ".join(kept.split())
        if not line:
            raise Rejection("bad_message", "a chat message needs some text")
        if len(line) > self.length:
            raise Rejection("bad_message", f"a chat message has at most {self.length} characters")
        return line

    def passed(self, line: str, seat: int | None, table_id: str) -> str:
        """``line`` after the server's filter; Rejection ``bad_message`` (code
        ``chat_refused``) when the filter refuses it."""
        if self.filter is None:
            return line
        answer = self.filter(line, seat, table_id)
        if answer is None:
            raise Rejection("bad_message", "this server does not send that message", "chat_refused")
        return self.clean(answer)


def is_away(state: Any) -> bool:
    """A page's ``presence`` message: ``"away"`` (hidden, in the background) is True,
    ``"here"`` False; Rejection ``bad_message`` otherwise."""
    if state not in ("here", "away"):
        raise Rejection("bad_message", f'a presence is "here" or "away", got {state!r:.40}')
    return bool(state == "away")


def _control(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn")


class Rooms:
    """A table's two chat rooms: the last ``kept`` messages of each."""

    def __init__(self, kept: int) -> None:
        self._lines: dict[bool, collections.deque[dict[str, Any]]] = {
            players: collections.deque(maxlen=kept) for players in (True, False)
        }

    def keep(self, message: dict[str, Any]) -> None:
        self._lines[message["seat"] is not None].append(message)

    def lines(self, seat: int | None) -> list[dict[str, Any]]:
        """The room's kept messages that ``seat`` (None: a spectator) reads."""
        return list(self._lines[seat is not None])
