"""The server's configuration: every limit a visitor can reach, with its default, in one
place. It comes from a TOML file, then the environment (``DIABOLO_SERVER_<NAME>``), then
the command line, each overriding the one before; docs/server.rst lists every setting
(``tests/test_server_ops.py`` checks that the list and this module agree).

>>> config = ServerConfig.load(environ={"DIABOLO_SERVER_MAX_TABLES": "50"})
>>> config.max_tables, config.bot_iterations
(50, 10000)
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, get_type_hints

import diabolo
from diabolo.errors import OptionError

__all__ = ["ENVIRONMENT_PREFIX", "ServerConfig"]

ENVIRONMENT_PREFIX = "DIABOLO_SERVER_"
OPTIONAL_NUMBERS = ("port", "metrics_port")
"""Numbers that may be 0 or are checked on their own (every other number is more than 0)."""


def _cores() -> int:
    return max(2, os.cpu_count() or 2)


@dataclass(frozen=True)
class ServerConfig:
    """How a server runs and what it allows. Every field is a setting of the same name in
    the configuration file and, upper-cased after ``DIABOLO_SERVER_``, in the environment.
    """

    # where it listens and keeps its tables
    host: str = "127.0.0.1"
    """Address to listen on."""
    port: int = 8000
    """Port to listen on (1-65535)."""
    store: str = "sqlite:///diabolo-tables.db"
    """The store of record: ``sqlite:///file.db`` (one process) or ``postgresql://...``."""
    redis: str = ""
    """``redis://host:port/db`` to form one server with other processes (PostgreSQL store only); empty: alone."""
    origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) whose pages may use the API and websockets besides the server's own."""
    trusted_proxies: str = ""
    """Addresses of proxies whose ``X-Forwarded-For`` names the client (uvicorn's forwarded_allow_ips); empty: none."""

    # tables
    games: tuple[str, ...] = ()
    """The games people may make tables of, by id; empty: every listed game of the catalogue
    (``diabolo.games()``). A game the catalogue does not list (the test game ``highcard``)
    is offered only when named here."""
    max_tables: int = 2000
    """Running tables the server holds at most."""
    tables_per_client: int = 20
    """Running tables one client (address) may have created at most."""
    creations_per_minute: float = 30.0
    """Tables one client may create per minute, on average (bursts of a third as many)."""
    unclaimed_table_seconds: float = 120.0
    """A table where no person holds or may come back to a seat (nobody sat down yet, or
    everyone left before it started) expires this long after its creation or last seat change."""
    waiting_table_seconds: float = 600.0
    """A table that still waits for a person to sit down expires this long after its creation or last seat taken."""
    idle_table_seconds: float = 1800.0
    """A running table where nothing moved for this long expires (it is deleted from memory and the store)."""
    keep_finished: int = 200
    """Finished tables kept in memory for the lobby's list (their records stay in the store)."""

    # bots
    bot_iterations: int = 10000
    """Most ISMCTS iterations a server-side bot may search per move (about 0.5 s of one core)."""
    bot_threads: int = 1
    """Most threads a server-side bot may use."""
    bot_delay_seconds: float = 10.0
    """Longest wait a bot may be given before acting: bot_pace, a reaction's mean and spread, per_letter."""
    bot_workers: int = dataclasses.field(default_factory=_cores)
    """Threads that run engine work (bots, word finding, records), shared fairly between tables."""
    hints: int = 20
    """Words a Knizia practice table's seat is shown at most (a normal table shows none: they are the answer key)."""

    # connections
    connections: int = 1000
    """Open connections the server accepts at most (more are answered 503)."""
    connections_per_client: int = 32
    """Open connections (HTTP or websocket) one client address may hold at most."""
    header_seconds: float = 10.0
    """Time a connection has to send a request's headers; a half-open request is closed after it."""
    body_seconds: float = 10.0
    """Time a request has to send its body."""
    hello_seconds: float = 10.0
    """Time a websocket has to say hello."""
    idle_seconds: float = 120.0
    """A websocket that sends nothing for this long is closed (the browser client pings every
    30 s); one that leaves the server's messages unread for this long is cut."""
    rate: float = 20.0
    """Messages a websocket may send per second, on average (bursts of twice as many)."""
    chat_length: int = 200
    """Characters a chat message may have at most."""
    chat_rate: float = 0.5
    """Chat messages a websocket may send per second, on average (bursts of ten times as many)."""
    chat_kept: int = 50
    """Chat messages a table keeps in each room (the players', the spectators') for pages that come in."""
    chat_filter: str = ""
    """A callable, ``package.module:function``, given each chat message (text, seat or None for a spectator,
    table id) on the event loop, that returns the text to send or None to refuse it; empty: none."""
    max_body: int = 16 * 1024
    """The largest request body, in bytes."""
    max_message: int = 4 * 1024
    """The largest websocket message a client may send, in bytes."""
    max_frame: int = 16 * 1024
    """The largest websocket frame the server reads; a larger one closes the connection (1009)."""
    games_cached: int = 16
    """Games (a game with its options, a Knizia word list loaded) kept for new tables."""
    records_cached: int = 256
    """Finished games' records kept ready to serve."""
    drain_seconds: float = 10.0
    """On SIGTERM: time for writes under way to finish after clients are told to reconnect
    elsewhere, and again for connections to close; a process not gone after twice this and
    5 s prints where it stood and exits 1."""
    metrics_token: str = ""
    """A token that opens ``/metrics`` on the public port (``Authorization: Bearer <token>``);
    empty: it is not served there."""
    metrics_port: int = 0
    """A port of its own (on ``metrics_host``) for ``/metrics``, ``/healthz`` and ``/readyz``; 0: none."""
    metrics_host: str = "127.0.0.1"
    """The address of the monitoring port."""
    lease_seconds: float = 5.0
    """With Redis: a process holds its tables for this long unless it renews the lease (every third of it)."""

    @classmethod
    def load(
        cls, path: str | Path | None = None, *, environ: Mapping[str, str] | None = None, **overrides: Any
    ) -> ServerConfig:
        """The file's settings (TOML, keys as the fields), then the environment's, then
        ``overrides`` (None values ignored). OptionError names a setting that is unknown
        or wrong."""
        values: dict[str, Any] = {}
        if path is not None:
            values.update(_read_file(Path(path)))
        environ = os.environ if environ is None else environ
        for key, text in environ.items():
            if key.startswith(ENVIRONMENT_PREFIX):
                values[key[len(ENVIRONMENT_PREFIX) :].lower()] = text
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls.from_values(values)

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> ServerConfig:
        """A configuration of settings given as JSON values or as text (from the environment)."""
        hints = get_type_hints(cls)
        known = {f.name for f in fields(cls)}
        converted: dict[str, Any] = {}
        for key, value in values.items():
            if key not in known:
                raise OptionError(f"unknown server setting {key!r}; the settings are {', '.join(sorted(known))}")
            converted[key] = _convert(key, hints[key], value)
        config = cls(**converted)
        config.check()
        return config

    def check(self) -> None:
        """OptionError for a value out of its range."""
        if not 0 < self.port < 65536:
            raise OptionError(f"port must be 1..65535, got {self.port}")
        if not 0 <= self.metrics_port < 65536:
            raise OptionError(f"metrics_port must be 0..65535, got {self.metrics_port}")
        for f in fields(self):
            value = getattr(self, f.name)
            if (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and f.name not in OPTIONAL_NUMBERS
                and value <= 0
            ):
                raise OptionError(f"{f.name} must be more than 0, got {value}")
        known = {entry.name for entry in diabolo.catalogue()}
        for name in self.games:
            if name not in known:
                raise OptionError(f"games: no game {name!r} in the catalogue; its games are {', '.join(sorted(known))}")
        if self.redis and not self.store.startswith(("postgresql:", "postgres:")):
            raise OptionError("several processes share a PostgreSQL store: with redis, store must be postgresql://...")

    @property
    def offered(self) -> tuple[str, ...]:
        """The ids of the games people may make tables of (``games``, or every listed game)."""
        return self.games or diabolo.games()

    @property
    def bot_caps(self) -> dict[str, float]:
        """The most each bot option may be (the options a client chooses)."""
        return {"iterations": self.bot_iterations, "threads": self.bot_threads}

    @classmethod
    def documentation(cls) -> list[tuple[str, str, str]]:
        """Every setting as (name, default, what it does), in order: the table of docs/server.rst."""
        docs = _field_docs()
        rows = []
        for f in fields(cls):
            default = f.default
            if default is dataclasses.MISSING:
                shown = "the cores, at least 2"
            elif isinstance(default, (str, tuple)):
                shown = f"``{default!r}``" if default else "(none)"
            else:
                shown = str(default) if isinstance(default, int) else f"{default:g}"
            rows.append((f.name, shown, docs[f.name]))
        return rows


def _read_file(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with path.open("rb") as file:
            data: dict[str, Any] = tomllib.load(file)
    except OSError as error:
        raise OptionError(f"cannot read the configuration file {str(path)!r}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise OptionError(f"the configuration file {str(path)!r} is not TOML: {error}") from None
    return data


def _convert(key: str, kind: Any, value: Any) -> Any:
    """``value`` (JSON, or text from the environment) as the setting's type."""
    text = isinstance(value, str)
    if kind is str:
        return value if text else _wrong(key, "text", value)
    if kind == tuple[str, ...]:
        items = [item.strip() for item in value.split(",") if item.strip()] if text else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(item, str) for item in items):
            _wrong(key, "a list of text", value)
        return tuple(items)
    number = (int,) if kind is int else (int, float)
    if isinstance(value, bool) or not (text or isinstance(value, number)):
        _wrong(key, "a whole number" if kind is int else "a number", value)
    try:
        return kind(value)
    except ValueError:
        return _wrong(key, "a whole number" if kind is int else "a number", value)


def _wrong(key: str, what: str, value: Any) -> Any:
    raise OptionError(f"server setting {key} must be {what}, got {value!r}")


def _field_docs() -> dict[str, str]:
    """Each field's docstring (the string under it in the class body)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(ServerConfig))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                docs[node.target.id] = " ".join(str(after.value.value).split())
    return docs
