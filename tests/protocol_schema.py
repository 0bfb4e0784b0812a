"""The websocket protocol's JSON Schema (python/diabolo/server/client/protocol.schema.json,
served at /client/protocol.schema.json): every message the server tests and the browser
tests see is checked against it, the server's (server_message) and the client's
(client_message), so neither side can drift from it. Each message is checked by the code
fastjsonschema compiles from its type's schema (the schema's keywords are all draft-07's,
which it implements: type, const, enum, minimum, required, properties,
additionalProperties, items, oneOf), at a twentieth of jsonschema's cost; jsonschema
explains a message that fails."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import fastjsonschema
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


@functools.cache
def _compiled(side: str, kind: str | None) -> Any:
    """fastjsonschema's check of the same part of the schema as _validator(side, kind)."""
    part = _schema()["$defs"][f"{side}_message"] if kind is None else _schema()["$defs"][side][kind]
    return fastjsonschema.compile({**_inlined(part), "$schema": "http://json-schema.org/draft-07/schema#"})


def problem(side: str, message: Any) -> str | None:
    """Why ``message`` is not a message of ``side`` ("server" or "client"), or None. A
    message of a type the schema has is checked against that type's schema alone (what
    the whole oneOf would find, at a tenth of the cost: the tests check every message)."""
    kind = message.get("type") if isinstance(message, dict) else None
    kind = kind if kind in _schema()["$defs"][side] else None
    try:
        _compiled(side, kind)(message)
        return None
    except fastjsonschema.JsonSchemaException as failed:
        error = jsonschema.exceptions.best_match(_validator(side, kind).iter_errors(message))
        reason = str(failed) if error is None else f"{error.message} at {list(error.path)}"
        return f"{side} message {json.dumps(message)[:300]}: {reason}"


def check(side: str, message: Any) -> None:
    """AssertionError when ``message`` is not a message of ``side``."""
    found = problem(side, message)
    assert found is None, found
