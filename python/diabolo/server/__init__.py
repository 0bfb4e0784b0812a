"""The reference game server: a lobby, tables of any game with people and server-side
bots, play over websockets with each connection told only what its seat (or a spectator)
may know, real-time moves in arrival order, every accepted move stored as it goes, and a
browser client. Install with ``pip install "diabolo[server]"``, run with
``diabolo serve`` (docs/server.rst)."""

from __future__ import annotations

from diabolo.server.app import create_app, listening_socket, uvicorn_config
from diabolo.server.config import ServerConfig
from diabolo.server.lobby import Lobby
from diabolo.server.pool import EnginePool
from diabolo.server.protocol import REASONS, Rejection
from diabolo.server.store import PostgresStore, SqliteStore, open_store
from diabolo.server.tables import Seat, Settings, Table

__all__ = [
    "REASONS",
    "EnginePool",
    "Lobby",
    "PostgresStore",
    "Rejection",
    "Seat",
    "ServerConfig",
    "Settings",
    "SqliteStore",
    "Table",
    "create_app",
    "listening_socket",
    "open_store",
    "uvicorn_config",
]
