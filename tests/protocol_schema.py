"""The websocket protocol's JSON Schema (python/diabolo/server/client/protocol.schema.json,
served at /client/protocol.schema.json): every message the server tests and the browser
tests see is checked against it, the server's (server_message) and the client's
(client_message), so neither side can drift from it."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema

import diabolo

SCHEMA_PATH = Path(diabolo.__file__).resolve().parent / "server" / "client" / "protocol.schema.json"


@functools.cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def _inlined(node: Any) -> Any:
    """``node`` with each ``$ref`` (``#/$defs/...``) replaced by what it names."""
    if isinstance(node, list):
        return [_inlined(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target: Any = _schema()
        for key in node["$ref"].removeprefix("#/").split("/"):
            target = target[key]
        return _inlined(target)
    return {key: _inlined(value) for key, value in node.items()}


@functools.cache
def _validator(side: str, kind: str | None) -> Any:
    """The validator of one kind of message of ``side`` (None: of any, the schema's oneOf),
    its references inlined (resolving them at each message costs more than the check)."""
    part = _schema()["$defs"][f"{side}_message"] if kind is None else _schema()["$defs"][side][kind]
    return jsonschema.Draft202012Validator(_inlined(part))


def problem(side: str, message: Any) -> str | None:
    """Why ``message`` is not a message of ``side`` ("server" or "client"), or None. A
    message of a type the schema has is checked against that type's schema alone (what
    the whole oneOf would find, at a tenth of the cost: the tests check every message)."""
    kind = message.get("type") if isinstance(message, dict) else None
    validator = _validator(side, kind if kind in _schema()["$defs"][side] else None)
    if validator.is_valid(message):
        return None
    error = jsonschema.exceptions.best_match(validator.iter_errors(message))
    if error is None:  # pragma: no cover - is_valid and iter_errors agree
        return None
    return f"{side} message {json.dumps(message)[:300]}: {error.message} at {list(error.path)}"


def check(side: str, message: Any) -> None:
    """AssertionError when ``message`` is not a message of ``side``."""
    found = problem(side, message)
    assert found is None, found
