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
def _validator(side: str) -> Any:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{side}_message"})


def problem(side: str, message: Any) -> str | None:
    """Why ``message`` is not a message of ``side`` ("server" or "client"), or None."""
    error = jsonschema.exceptions.best_match(_validator(side).iter_errors(message))
    if error is None:
        return None
    return f"{side} message {json.dumps(message)[:300]}: {error.message} at {list(error.path)}"


def check(side: str, message: Any) -> None:
    """AssertionError when ``message`` is not a message of ``side``."""
    found = problem(side, message)
    assert found is None, found
