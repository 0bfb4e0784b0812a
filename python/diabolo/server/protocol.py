"""The wire protocol: what a client may send, every message the server sends, and every
reason a request is refused (docs/server.rst describes each).

Client text is read by :func:`read_json`, which answers anything that is not a JSON
object within the limits (too long, not JSON, nested too deeply) with :class:`BadMessage`;
nothing a client sends can raise anything else.

>>> read_json('{"type": "ping", "id": 1}', limit=4096)
{'type': 'ping', 'id': 1}
>>> read_json("[" * 3000, limit=4096)
Traceback (most recent call last):
...
diabolo.server.protocol.BadMessage: a message is JSON nested at most 16 deep
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import orjson

__all__ = [
    "MAX_DEPTH",
    "REASONS",
    "RETRY",
    "BadMessage",
    "Reason",
    "Rejection",
    "compact_json",
    "read_json",
]

MAX_DEPTH: Final = 16
"""The deepest nesting of objects and lists a client's JSON may have."""

Reason = Literal[
    "stale",
    "illegal",
    "bad_move",
    "not_your_seat",
    "game_over",
    "too_fast",
    "bad_message",
    "bad_request",
    "bad_token",
    "bad_handoff",
    "seat_moved",
    "no_table",
    "table_full",
    "seat_taken",
    "too_many_tables",
    "too_many_connections",
    "bad_origin",
    "bad_content_type",
    "too_slow",
    "idle",
    "moved",
    "draining",
    "unavailable",
]
REASONS: Final[dict[str, str]] = {
    "stale": "the move was legal on the version it names, but another move came first",
    "illegal": "the rules forbid the move (``clause`` names the rule)",
    "bad_move": "not a move of the game",
    "not_your_seat": "a spectator cannot move",
    "game_over": "the game is over",
    "too_fast": "more messages than the rate allows",
    "bad_message": "not a message of the protocol (not JSON, too long, nested too deeply, unknown type)",
    "bad_request": "a lobby request the server cannot take (``code`` says why)",
    "bad_token": "no seat of the table has that seat number and token",
    "bad_handoff": "the link to continue on another device is wrong, was used, or expired",
    "seat_moved": "the seat continues on another device: this connection no longer holds it",
    "no_table": "no such table",
    "table_full": "every seat of the table is taken",
    "seat_taken": "that seat is taken",
    "too_many_tables": "the server, or this client, holds as many tables as it may",
    "too_many_connections": "this client holds as many connections as it may",
    "bad_origin": "a page of another site (its Origin is not allowed)",
    "bad_content_type": "the lobby takes JSON bodies only (Content-Type: application/json)",
    "too_slow": "the hello (or a request) did not arrive in time",
    "idle": "the connection sent nothing for too long",
    "moved": "the table is played by another process now, or is being taken over: reconnect, to any process",
    "draining": "the server is going down: reconnect, to another process if there is one",
    "unavailable": "the server's store or Redis does not answer for now: try again (with backoff)",
}
"""Every reason a request or a connection is refused or closed, and what it means."""

RETRY: Final = frozenset({"moved", "draining", "unavailable"})
"""The reasons that are transient: a client tries again, with backoff, and never gives up
on them (a websocket closed for one of them has close code 1013, "try again later").
Only ``no_table`` (the table finished long ago, expired or never was), ``bad_token`` and
``seat_moved`` are final for a connection."""

HTTP_STATUS: Final[dict[str, int]] = {
    "no_table": 404,
    "bad_handoff": 403,
    "table_full": 409,
    "seat_taken": 409,
    "bad_origin": 403,
    "bad_content_type": 415,
    "too_many_tables": 429,
    "too_many_connections": 429,
    "too_fast": 429,
    "too_slow": 408,
    "draining": 503,
    "moved": 503,
    "unavailable": 503,
}
"""The HTTP status of a refusal by its reason (400 for any other)."""


class BadMessage(ValueError):
    """Client text that is not a message: answered ``bad_message`` (or a 400), never raised further."""


@dataclass(eq=False)  # not frozen: raising sets __traceback__, which a frozen dataclass refuses in contextlib's exits
class Rejection(Exception):
    """A request the server refused, with the reason a client can act on (:data:`REASONS`)
    and a ``code`` (the engine's, or the reason itself); ``clause`` names a rule, and
    ``params`` the values a client words the refusal with (the engine's error params: a
    client needs no parse of ``message``, which is English for people)."""

    reason: Reason
    message: str
    code: str = ""
    clause: str = ""
    params: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "code": self.code or self.reason,
            "clause": self.clause,
            "message": self.message,
            "params": dict(self.params),
        }

    @property
    def status(self) -> int:
        """The HTTP status that answers it."""
        return HTTP_STATUS.get(self.reason, 400)


def compact_json(value: Any) -> str:
    """Compact JSON text, as every message is sent: written by orjson (text other than
    ASCII as UTF-8, not escaped; keys that are not strs, such as seats, as their text).

    >>> compact_json({"type": "pong", "id": 1})
    '{"type":"pong","id":1}'
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def read_json(text: str | bytes, *, limit: int) -> Any:
    """The JSON value of a client's ``text`` of at most ``limit`` bytes, nested at most
    MAX_DEPTH deep; BadMessage otherwise."""
    if len(text) > limit:
        raise BadMessage(f"a message is at most {limit} bytes")
    try:
        value = json.loads(text)
    except RecursionError:
        raise BadMessage(f"a message is JSON nested at most {MAX_DEPTH} deep") from None
    except ValueError as error:
        raise BadMessage(f"not JSON: {error}") from None
    # A text with few brackets cannot nest deeply: the walk is only for the others.
    brackets = text.count("[") + text.count("{") if isinstance(text, str) else text.count(b"[") + text.count(b"{")
    if brackets > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise BadMessage(f"a message is JSON nested at most {MAX_DEPTH} deep")
    return value


def _depth(value: Any) -> int:
    """How deeply objects and lists nest in ``value`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_DEPTH:
            stack.extend((child, depth + 1) for child in children)
    return deepest


def error_message(rejection: Rejection) -> dict[str, Any]:
    """The ``error`` message that closes a websocket."""
    return {"type": "error", **rejection.to_json()}


def rejected(request_id: Any, rejection: Rejection) -> dict[str, Any]:
    """The answer to a client's message the server refused."""
    return {"type": "rejected", "id": request_id, **rejection.to_json()}


def accepted(request_id: Any, version: int) -> dict[str, Any]:
    """The answer to a move the table took: the mover's version after it."""
    return {"type": "accepted", "id": request_id, "version": version}


def pong(request_id: Any, time: float) -> dict[str, Any]:
    return {"type": "pong", "id": request_id, "time": time}
