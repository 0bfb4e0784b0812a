"""Talk and presence at a table, over websockets against a real server (an SQLite store
in a temporary folder): each seat's presence (online, away, gone) and the spectators are
told to everyone as they change; the players' and the spectators' chat rooms are apart;
a chat message is cleaned and bounded in length and rate, passes the operator's filter,
and is kept for pages that come in (docs/server.rst, "presence" and "chat")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from websockets.sync.client import ClientConnection  # noqa: E402

from diabolo.server import ServerConfig  # noqa: E402
from tests.server_helpers import Running, receive, running_server  # noqa: E402


def no_spam(text: str, seat: int | None, table: str) -> str | None:
    """The operator's filter of these tests: refuses spam, writes a devil politely."""
    if "spam" in text:
        return None
    return text.replace("devil", "d***l")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    path: Path = tmp_path_factory.mktemp("talk") / "tables.db"
    config = ServerConfig(chat_filter="tests.test_server_talk:no_spam", chat_kept=3, chat_length=40)
    with running_server(f"sqlite:///{path}", config=config, rate=10_000) as running:
        yield running


def table_of_two(server: Running) -> tuple[str, str, str]:
    """A Schacht table of Ann, Bo and a free seat, which waits for its game to start (no
    moves come): its id and the two tokens."""
    table = server.create(game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {"name": "Bo"}, {}], seed=3)
    return table["id"], server.sit(table["id"], "Ann", 0)[1], server.sit(table["id"], "Bo", 1)[1]


def next_of(connection: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (others, such as the table's summary, are passed over)."""
    while True:
        message = receive(connection, timeout=10, skip=())
        if message["type"] == kind:
            return message


def told(connection: ClientConnection, presence: list[Any], spectators: int = 0) -> None:
    """Until the connection is told ``presence`` and ``spectators`` (a page may be told its
    own coming too, after its welcome)."""
    while True:
        message = next_of(connection, "presence")
        if (message["presence"], message["spectators"]) == (presence, spectators):
            return


def nothing_but_pong(connection: ClientConnection) -> None:
    """Nothing came to the connection before the answer to a ping (a chat of the other room, say)."""
    connection.send(json.dumps({"type": "ping", "id": "p"}))
    message = receive(connection, timeout=10, skip=("presence",))
    assert message["type"] == "pong", message


def test_every_page_is_told_who_is_online_away_or_gone_and_who_watches(server: Running) -> None:
    tid, ann, bo = table_of_two(server)
    with server.connect(tid, seat=0, token=ann) as first:
        welcome = next_of(first, "welcome")
        assert welcome["presence"] == ["online", "gone", "gone"] and welcome["spectators"] == 0
        with server.connect(tid, seat=1, token=bo) as second:
            assert next_of(second, "welcome")["presence"] == ["online", "online", "gone"]
            told(first, ["online", "online", "gone"])
            second.send(json.dumps({"type": "presence", "state": "away"}))
            told(first, ["online", "away", "gone"])
            second.send(json.dumps({"type": "presence", "state": "here"}))
            told(first, ["online", "online", "gone"])
            second.send(json.dumps({"type": "presence", "state": "asleep"}))
            refused = next_of(second, "rejected")
            assert refused["reason"] == "bad_message" and "here" in refused["message"]
            with server.connect(tid) as watcher:
                assert next_of(watcher, "welcome")["spectators"] == 1
                told(first, ["online", "online", "gone"], spectators=1)
            told(first, ["online", "online", "gone"], spectators=0)
        told(first, ["online", "gone", "gone"])


def test_players_and_spectators_talk_in_rooms_of_their_own(server: Running) -> None:
    tid, ann, bo = table_of_two(server)
    with server.connect(tid, seat=0, token=ann) as a, server.connect(tid, seat=1, token=bo) as b:
        with server.connect(tid) as watcher:
            for connection in (a, b, watcher):
                next_of(connection, "welcome")
            a.send(json.dumps({"type": "chat", "text": "  well\tplayed,\n devil \u200b", "id": 1}))
            for connection in (a, b):
                line = next_of(connection, "chat")
                assert (line["seat"], line["name"], line["text"]) == (0, "Ann", "well played, d***l")
            watcher.send(json.dumps({"type": "chat", "text": "go Bo"}))
            line = next_of(watcher, "chat")
            assert (line["seat"], line["name"], line["text"]) == (None, "a spectator", "go Bo")
            for connection in (a, b):
                nothing_but_pong(connection)  # the spectators' talk stays theirs
            nothing_but_pong(watcher)  # and the players' theirs
            for text, fragment in [("", "some text"), ("x" * 41, "at most 40"), (7, "is text"), ("spam!", "does not")]:
                b.send(json.dumps({"type": "chat", "text": text, "id": 9}))
                refused = next_of(b, "rejected")
                assert refused["reason"] == "bad_message" and fragment in refused["message"], refused
            assert refused["code"] == "chat_refused"
            nothing_but_pong(a)  # a refused message reaches nobody
        for number in range(3):  # Ann: Bo has spent his burst (a refused message counts)
            a.send(json.dumps({"type": "chat", "text": f"line {number}"}))
            assert next_of(a, "chat")["text"] == f"line {number}"
        with server.connect(tid, seat=0, token=ann) as again:
            kept = next_of(again, "welcome")["chat"]
            assert [line["text"] for line in kept] == ["line 0", "line 1", "line 2"]  # chat_kept 3


def test_a_connection_may_chat_a_burst_and_then_at_its_rate(server: Running) -> None:
    tid, ann, _ = table_of_two(server)
    with server.connect(tid, seat=0, token=ann) as a:
        next_of(a, "welcome")
        burst = 10 * ServerConfig().chat_rate
        answers: list[dict[str, Any]] = []
        for number in range(int(burst) + 1):
            a.send(json.dumps({"type": "chat", "text": f"hi {number}", "id": number}))
        while len(answers) < int(burst) + 1:
            message = receive(a, timeout=10, skip=())
            if message["type"] in ("chat", "rejected"):
                answers.append(message)
        assert [m["type"] for m in answers] == ["chat"] * int(burst) + ["rejected"]
        assert answers[-1]["reason"] == "too_fast"
