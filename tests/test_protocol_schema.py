"""The protocol's JSON Schema (tests/protocol_schema.py checks every message of the server
and browser tests against it) is the server's: its refusal reasons are protocol.REASONS, it
is served beside the client, and it refuses what the protocol does not have."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from diabolo.server.protocol import REASONS, Rejection  # noqa: E402
from tests.protocol_schema import SCHEMA_PATH, problem  # noqa: E402


def test_the_schemas_reasons_are_the_servers() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    for kind in ("rejected", "error"):
        assert schema["$defs"]["server"][kind]["properties"]["reason"]["enum"] == list(REASONS)


@pytest.mark.parametrize(
    ("side", "message"),
    [
        ("client", {"type": "hello", "seat": 1, "token": "t", "since": 4}),
        ("client", {"type": "move", "move": "R4>", "version": 12, "id": 7}),
        ("client", {"type": "chat", "text": "gg", "id": "c1"}),
        ("client", {"type": "presence", "state": "away"}),
        ("server", {"type": "pong", "id": 1, "time": 41.3}),
        ("server", {"type": "presence", "presence": ["online", None, "gone"], "spectators": 0}),
        ("server", {"type": "accepted", "id": 7, "version": 13}),
    ],
)
def test_messages_of_the_protocol_pass(side: str, message: dict[str, object]) -> None:
    assert problem(side, message) is None


@pytest.mark.parametrize(
    ("side", "message"),
    [
        ("client", {"type": "move"}),  # no move
        ("client", {"type": "presence", "state": "asleep"}),
        ("client", {"type": "chat", "text": 7}),
        ("client", {"type": "hello", "seat": 1, "token": "t", "extra": 1}),
        ("client", {"type": "shout"}),
        (
            "server",
            {"type": "rejected", "id": 1, "reason": "nope", "code": "", "clause": "", "message": "", "params": {}},
        ),
        ("server", {"type": "error", "reason": "moved", "code": "moved", "clause": "", "message": "m"}),  # no params
        ("server", {"type": "update", "version": 0, "time": 1.0, "events": [], "clock": 1.0, "deadlines": []}),
    ],
)
def test_messages_outside_the_protocol_are_found(side: str, message: dict[str, object]) -> None:
    assert problem(side, message) is not None


@pytest.mark.parametrize(
    ("side", "message"),
    [
        ("client", {"type": "hello", "seat": True, "token": "t", "since": 4}),  # a boolean is no seat number
        ("client", {"type": "move", "move": "R4>", "version": -1}),
        ("client", {"type": "move", "move": "R4>", "version": 1.5}),
        ("server", {"type": "presence", "presence": ["online", "asleep"], "spectators": 0}),
        ("server", {"type": "pong", "id": 1, "time": "now"}),
        ("client", ["not", "an", "object"]),
    ],
)
def test_the_fast_check_and_jsonschema_refuse_alike(side: str, message: object) -> None:
    """The compiled check (fastjsonschema, draft-07 keywords) finds what jsonschema finds."""
    import fastjsonschema

    from tests.protocol_schema import _compiled, _validator

    kind = message.get("type") if isinstance(message, dict) else None
    assert not _validator(side, kind).is_valid(message)
    assert problem(side, message) is not None
    with pytest.raises(fastjsonschema.JsonSchemaException):
        _compiled(side, kind)(message)


def test_a_rejection_passes_through_context_managers_as_itself() -> None:
    """A refusal raised inside a generator's context manager (Starlette's and contextlib's
    exits set the exception's ``__traceback__``) reaches the caller as that refusal. As a
    frozen dataclass it became a FrozenInstanceError there."""

    @contextlib.contextmanager
    def around() -> Iterator[None]:
        yield

    with pytest.raises(Rejection, match="at most 30 tables a minute") as refused:
        with around():
            raise Rejection("too_many_tables", "this server makes at most 30 tables a minute per client")
    assert refused.value.to_json()["reason"] == "too_many_tables" and refused.value.status == 429
