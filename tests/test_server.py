"""The reference server, over real sockets: a uvicorn server on loopback
(tests/server_helpers.py) with its tables in an SQLite file, driven by plain websocket
and HTTP clients. Each connection must hear only what its seat (or a spectator) may know:
every message of a game is checked against the engine's own events_for / public_events
of the replayed record."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from websockets.exceptions import ConnectionClosedError  # noqa: E402

import diabolo  # noqa: E402
from diabolo.server import ServerConfig  # noqa: E402
from diabolo.server.audiences import listed_moves, seat_view  # noqa: E402
from diabolo.server.tables import token_hash  # noqa: E402
from tests.server_helpers import Running, receive, running_server  # noqa: E402
from tests.tool_helpers import under_ci  # noqa: E402


@pytest.fixture
def server(tmp_path: Path) -> Any:
    """A server whose clients may send 10,000 messages a second: a test plays faster
    than a person (test_a_flood_is_refused checks the default limit)."""
    with running_server(f"sqlite:///{tmp_path / 'tables.db'}", rate=10_000) as running:
        yield running


def play_to_end(connection: Any, seat: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The welcome, and every update of the game (those missed before the welcome
    included, as updates without legal moves), until the game ends; a seat plays its first
    legal move whenever it has one, again when a move lost a race to a bot's."""
    welcome = receive(connection)
    assert welcome["type"] == "welcome"
    updates = [{"type": "update", **missed} for missed in welcome.get("missed", [])]
    legal, version, sent = welcome.get("legal", []), welcome["version"], None
    while not any(event["type"] == "game_ended" for update in updates[-1:] for event in update["events"]):
        if seat is not None and legal and sent != version:
            connection.send(json.dumps({"type": "move", "move": legal[0], "version": version}))
            sent = version
        message = receive(connection)
        if message["type"] == "update":
            updates.append(message)
            version, legal = message["version"], message.get("legal", [])
        elif message["type"] == "rejected":
            assert message["reason"] == "stale", message
            sent = None
    return welcome, updates


def check_secrecy(server: Running, table_id: str, audience: int | None, updates: list[dict[str, Any]]) -> None:
    """The events a connection heard are, version by version, exactly what the engine
    shows that audience of the full record's states, and a seat's legal moves its own
    (in Knizia without the claims). A move that showed the audience nothing (another
    seat's secret decision) sent it nothing, not even a new version (S7.1)."""
    record = diabolo.Record.load(server.http.get(f"/api/tables/{table_id}/record").text)
    assert record.started is not None and record.ended is not None and record.started <= record.ended
    shown = []  # the states after each move the audience was told of
    states = list(record.states())
    for step, state in zip(record.moves, states[1:]):
        events = state.public_events() if audience is None else state.events_for(audience)
        if events or step.seat == audience:
            shown.append((state, events))
    assert [m["version"] for m in updates] == list(range(1, len(shown) + 1))
    for message in updates:
        state, expected = shown[message["version"] - 1]
        assert message["events"] == expected
        if audience is not None and "legal" in message:
            assert message["legal"] == listed_moves(state, audience)


def test_a_bot_table_plays_to_the_end_for_a_spectator(server: Running) -> None:
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"bot": "heuristic"}] * 3, settings={"bot_pace": 0}, seed=3
    )
    with server.connect(table["id"], since=0) as spectator:
        welcome, updates = play_to_end(spectator, None)
    assert welcome["seat"] is None
    check_secrecy(server, table["id"], None, updates)


def test_a_person_plays_against_bots_and_hears_only_their_seat(server: Running) -> None:
    table = server.create(
        game="schacht",
        options={"players": 3},
        seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "heuristic"}],
        settings={"bot_pace": 0},
        seed=11,
    )
    seat, token = server.sit(table["id"], "Ann")
    assert seat == 0
    with server.connect(table["id"], seat=seat, token=token, since=0) as connection:
        welcome, updates = play_to_end(connection, seat)
    assert welcome["seat"] == 0
    check_secrecy(server, table["id"], 0, updates)


QUICK = {"delays": {"play": [0.01, 0.003], "turn": [0.01, 0.003], "recycle": [0.02, 0.003]}, "minimum": 0.002}


def test_a_real_time_bot_table_plays_to_the_end(server: Running) -> None:
    bots = [{"bot": "greedy", "options": {"reaction": QUICK}}, {"bot": "random", "options": {"reaction": QUICK}}]
    table = server.create(game="duvelen", options={"players": 2}, seats=bots, seed=5)
    with server.connect(table["id"], since=0) as spectator:
        _, updates = play_to_end(spectator, None)
    check_secrecy(server, table["id"], None, updates)
    record = diabolo.Record.load(server.http.get(f"/api/tables/{table['id']}/record").text)
    times = [step.time for step in record.moves if step.time is not None]
    assert len(times) == len(record.moves)
    assert times == sorted(times) and times[-1] > 0.5  # the bots' reaction times, in real time


def test_hostile_input_is_refused_and_changes_nothing(server: Running) -> None:
    table = server.create(game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {}, {}], seed=2)
    seat, token = server.sit(table["id"], "Ann", 0)
    with server.connect(table["id"], seat=1, token=token) as wrong:
        refusal = receive(wrong)
        assert refusal == {
            "type": "error",
            "reason": "bad_token",
            "code": "bad_token",
            "clause": "",
            "message": "no seat of this table has that seat number and token",
            "params": {},
        }
    with server.connect(table["id"], seat=seat, token=token) as connection:
        welcome = receive(connection)
        connection.send("{not json")
        assert receive(connection)["reason"] == "bad_message"
        connection.send(json.dumps({"type": "move", "move": "Q9<", "id": 1}))
        bad = receive(connection)
        assert bad["type"] == "rejected" and bad["reason"] == "bad_move" and bad["id"] == 1
        connection.send(json.dumps({"type": "teleport"}))
        assert receive(connection)["reason"] == "bad_message"
        connection.send(b"\x00binary")
        assert receive(connection)["reason"] == "bad_message"
    with server.connect(table["id"]) as spectator:
        assert receive(spectator)["version"] == welcome["version"] == 0
        spectator.send(json.dumps({"type": "move", "move": "R1<"}))
        assert receive(spectator)["reason"] == "not_your_seat"
    response = server.http.post("/api/tables", json={"game": "chess"})
    assert response.status_code == 400 and "chess" in response.json()["error"]["message"]


def test_rematch_and_leave_over_http_refuse_what_they_cannot_take(tmp_path: Path) -> None:
    """POST /api/tables/{id}/rematch and /leave: a body that is not a JSON object, a wrong
    token, a game not over, an unknown table are refused with a reason and change nothing;
    a rematch counts against the client's tables (tables_per_client). Leaving a game
    under way hands the seat to a bot, which the rematch keeps; the last person's leave
    closes the table (404 after)."""
    config = ServerConfig(tables_per_client=2)
    with running_server(f"sqlite:///{tmp_path / 'tables.db'}", config=config, rate=10_000) as server:
        seats = [{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}]
        table = server.create(game="schacht", options={"players": 3, "rounds": 1}, seats=seats, seed=4)
        tid = table["id"]
        (_, ann), (_, bo) = server.sit(tid, "Ann", 0), server.sit(tid, "Bo", 1)
        refusals = [
            ("rematch", {"seat": 0, "token": ann}, 400, "game_not_over"),
            ("rematch", {"seat": 0, "token": bo}, 400, "bad_token"),
            ("rematch", ["seat"], 400, "bad_option"),
            ("rematch", {"seat": 0, "token": ann, "name": "x" * 41}, 400, "bad_option"),
            ("leave", {"seat": "0", "token": ann}, 400, "bad_token"),
            ("leave", {"seat": 1, "token": ann}, 400, "bad_token"),
        ]
        for path, body, status, code in refusals:
            response = server.http.post(f"/api/tables/{tid}/{path}", json=body)
            assert (response.status_code, response.json()["error"]["code"]) == (status, code), (path, body)
        missing = server.http.post("/api/tables/nothere/leave", json={"seat": 0, "token": ann})
        assert missing.status_code == 404
        assert server.http.get("/api/tables").json()["tables"][0]["seats"][1]["taken"] is True

        assert server.http.post(f"/api/tables/{tid}/leave", json={"seat": 1, "token": bo}).status_code == 200
        with server.connect(tid, seat=0, token=ann) as connection:
            play_to_end(connection, 0)  # a bot plays on for Bo
        first = server.http.post(f"/api/tables/{tid}/rematch", json={"seat": 0, "token": ann})
        assert first.status_code == 201 and first.json()["seat"] == 0
        rematch = first.json()["table"]
        assert [seat["bot"] for seat in rematch["seats"]] == [None, "heuristic", "random"]
        server.create(game="schacht", options={"players": 3}, seats=seats, seed=5)  # the client's second table
        third = server.http.post("/api/tables", json={"game": "schacht", "options": {"players": 3}, "seats": seats})
        assert third.status_code == 429  # the rematch counted
        gone = server.http.post(f"/api/tables/{rematch['id']}/leave", json={"seat": 0, "token": first.json()["token"]})
        assert gone.json() == {"table": None}
        assert server.http.get(f"/api/tables/{rematch['id']}/record").status_code == 404


def test_a_seat_moves_to_another_device_over_http_and_websockets(server: Running) -> None:
    """POST /api/tables/{id}/handoff gives a seated person a one-time link (and its QR code
    as an SVG data URI); POST .../seats with its code takes the seat on the new device: the
    old device's socket gets ``seat_moved`` and closes, its token opens nothing, and the link
    works once. What a visitor may send is refused with a reason and changes nothing, and a
    seat makes at most one link every HANDOFF_EVERY_SECONDS (429 ``too_fast``)."""
    table = server.create(game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {}, {}], seed=2)
    tid = table["id"]
    _, ann = server.sit(tid, "Ann", 0)
    refusals = [
        ("handoff", {"seat": 0, "token": "wrong"}, 400, "bad_token"),
        ("handoff", {"seat": 1, "token": ann}, 400, "bad_token"),
        ("handoff", ["seat"], 400, "bad_option"),
        ("seats", {"seat": 0, "handoff": "wrong"}, 403, "bad_handoff"),
        ("seats", {"seat": 0, "handoff": 7}, 400, "bad_option"),
        ("seats", {"seat": 0, "handoff": "x" * 65}, 400, "bad_option"),
    ]
    for path, body, status, code in refusals:
        response = server.http.post(f"/api/tables/{tid}/{path}", json=body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), (path, body)
    with server.connect(tid, seat=0, token=ann) as old:
        receive(old)
        offer = server.http.post(f"/api/tables/{tid}/handoff", json={"seat": 0, "token": ann})
        assert offer.status_code == 201, offer.text
        # A second link at once is refused (each is a store write and a QR code drawn) and
        # changes nothing: the first link still works below.
        again = server.http.post(f"/api/tables/{tid}/handoff", json={"seat": 0, "token": ann})
        assert (again.status_code, again.json()["error"]["reason"]) == (429, "too_fast"), again.text
        link, seconds, qr = offer.json()["link"], offer.json()["seconds"], offer.json()["qr"]
        query = parse_qs(urlsplit(link).query)
        assert query["table"] == [tid] and query["game"] == ["schacht"] and query["seat"] == ["0"]
        assert seconds == 600 and qr.startswith("data:image/svg+xml")
        code = query["handoff"][0]
        taken = server.http.post(f"/api/tables/{tid}/seats", json={"seat": 0, "handoff": code})
        assert taken.status_code == 200 and taken.json()["seat"] == 0
        told = receive(old)
        while told["type"] == "table":  # the seat's changes, told to the whole table
            told = receive(old)
        assert told["type"] == "error" and told["reason"] == "seat_moved", told
        with pytest.raises(ConnectionClosedError):
            receive(old)
    again = server.http.post(f"/api/tables/{tid}/seats", json={"seat": 0, "handoff": code})
    assert again.status_code == 403 and again.json()["error"]["reason"] == "bad_handoff"
    stale = server.http.post(f"/api/tables/{tid}/handoff", json={"seat": 0, "token": ann})
    assert stale.json()["error"]["reason"] == "bad_token"
    with server.connect(tid, seat=0, token=taken.json()["token"]) as new:
        assert receive(new)["seat"] == 0


def play_then_resume(store: str) -> None:
    """Three people play five moves; a second server on the same store resumes the game
    where it was (a reconnect hears what it missed) and it plays on."""
    with running_server(store, rate=10_000) as server:
        table = server.create(game="schacht", options={"players": 3}, seats=[{}] * 3, seed=8)
        tokens = [server.sit(table["id"], f"p{s}", s)[1] for s in range(3)]
        mirror = diabolo.load("schacht", players=3).new_state(seed=8)
        with contextlib.ExitStack() as stack:
            seats = [stack.enter_context(server.connect(table["id"], seat=s, token=tokens[s])) for s in range(3)]
            for connection in seats:
                receive(connection)
            for _ in range(5):
                mover = mirror.pending_seats[0]
                move = str(mirror.legal_moves(mover)[0])
                seats[mover].send(json.dumps({"type": "move", "move": move}))
                mirror.apply(move, player=mover)
                for s, connection in enumerate(seats):
                    next_update(connection, s == mover)
    with running_server(store, rate=10_000) as server:
        listed = server.http.get("/api/tables").json()["tables"]
        assert [(t["id"], t["version"]) for t in listed] == [(table["id"], 5)]
        mover = mirror.pending_seats[0]
        with server.connect(table["id"], seat=mover, token=tokens[mover], since=2) as again:
            welcome = receive(again)
            assert welcome["version"] == 5 and [m["version"] for m in welcome["missed"]] == [3, 4, 5]
            assert welcome["legal"] == [str(m) for m in mirror.legal_moves(mover)]
            assert welcome["missed"][-1]["events"] == mirror.events_for(mover)
            again.send(json.dumps({"type": "move", "move": welcome["legal"][0], "version": 5}))
            assert next_update(again, True)["version"] == 6
        record = diabolo.Record.load(server.http.get(f"/api/tables/{table['id']}/record").text)
        assert len(record.moves) == 6


def test_a_restarted_server_resumes_its_tables(tmp_path: Path) -> None:
    play_then_resume(f"sqlite:///{tmp_path / 'tables.db'}")


def next_update(connection: Any, mover: bool, hear: Callable[[Any], dict[str, Any]] = receive) -> dict[str, Any]:
    """The next update a connection hears; the mover also hears its move accepted."""
    message = hear(connection)
    assert message["type"] == "update", message
    if mover:
        accepted = hear(connection)
        assert accepted["type"] == "accepted" and accepted["version"] == message["version"], accepted
    return message


def person_move(state: Any, seat: int, rng: random.Random) -> str:
    """What a simulated person plays: a word the word bot finds in Knizia's game (a claim
    is typed, not listed), else a random legal move."""
    if state.game.name == "knizia":
        move = diabolo.knizia.WordBot().choose(state, seat, rng.getrandbits(63))
        if move is not None:
            return str(move)
    return str(rng.choice(state.legal_moves(seat)))


SECRECY_GAMES = 10 if under_ci() else 2
"""Random games per game and option set of the secrecy test."""


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("schacht", {"players": 3}),
        ("schacht", {"players": 4}),
        ("schacht", {"players": 5}),
        ("duvelen", {"players": 2, "max_actions": 400}),
        ("duvelen", {"players": 3, "max_actions": 400}),
        ("knizia", {"players": 2, "lexicon": "de", "rounds": 2}),
        ("knizia", {"players": 3, "lexicon": "de", "rounds": 1}),
    ],
)
def test_every_message_to_each_seat_holds_only_what_that_seat_may_know(
    server: Running, game: str, options: dict[str, Any]
) -> None:
    """SECRECY_GAMES random people's games: every message to every seat and to a
    spectator is the engine's answer for that audience, and no message holds a seat's
    token or what the store keeps of it."""
    for seed in range(SECRECY_GAMES):
        play_and_check_every_message(server, game, options, seed)


def play_and_check_every_message(server: Running, game: str, options: dict[str, Any], seed: int) -> None:
    players = options["players"]
    table = server.create(game=game, options=options, seats=[{}] * players, seed=seed)
    tokens = [server.sit(table["id"], f"person {s}", s)[1] for s in range(players)]
    mirror = diabolo.load(game, **options).new_state(seed=seed)
    rng = random.Random(seed)
    secrets = tokens + [token_hash(token) for token in tokens]  # what the store keeps

    def heard(connection: Any) -> dict[str, Any]:
        message = receive(connection)
        assert not any(secret in json.dumps(message) for secret in secrets), message
        return message

    with contextlib.ExitStack() as stack:
        seats = [stack.enter_context(server.connect(table["id"], seat=s, token=tokens[s])) for s in range(players)]
        spectator = stack.enter_context(server.connect(table["id"]))
        for s, connection in enumerate(seats):
            welcome = heard(connection)
            assert welcome["view"] == seat_view(mirror, s) and welcome["legal"] == listed_moves(mirror, s)
        assert heard(spectator)["view"] == mirror.public_observation()
        versions: dict[int | None, int] = {None: 0, **{s: 0 for s in range(players)}}  # each audience's own
        while not mirror.is_terminal:
            seat = rng.choice(mirror.pending_seats)
            move = person_move(mirror, seat, rng)
            seats[seat].send(json.dumps({"type": "move", "move": move, "version": versions[seat]}))
            mirror.apply(move, player=seat)
            for s, connection in enumerate(seats):
                if not mirror.events_for(s) and s != seat:
                    continue  # another seat's secret decision: this seat hears nothing (checked below)
                versions[s] += 1
                update = next_update(connection, s == seat, heard)
                assert update["version"] == versions[s]
                assert update["events"] == mirror.events_for(s)
                assert update["legal"] == listed_moves(mirror, s)
            if mirror.public_events():
                versions[None] += 1
                update = next_update(spectator, False, heard)
                assert update["version"] == versions[None] and update["events"] == mirror.public_events()
        # an update that should not have been sent would have come before a later one, or by now
        time.sleep(0.2)
        assert all(receive_nothing(connection, wait=0) for connection in [*seats, spectator])


def test_a_flood_is_refused_and_other_tables_play_on(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'tables.db'}") as server:
        quiet = server.create(game="schacht", options={"players": 3}, seats=[{}] * 3, seed=1)
        loud = server.create(game="schacht", options={"players": 3}, seats=[{}] * 3, seed=2)
        seat, token = server.sit(quiet["id"], "calm", 1)
        with server.connect(loud["id"]) as flood, server.connect(quiet["id"], seat=seat, token=token) as calm:
            receive(flood)
            legal = receive(calm)["legal"]
            for _ in range(200):
                flood.send(json.dumps({"type": "ping"}))
            answers = [receive(flood)["type"] for _ in range(200)]
            assert answers.count("pong") == 40 and answers.count("rejected") == 160  # a burst of twice 20
            response = server.http.post(f"/api/tables/{quiet['id']}/seats", json={"name": "x" * 41})
            assert response.status_code == 400 and "40" in response.json()["error"]["message"]
            assert receive_nothing(calm)  # nothing of the flood reaches another table
            calm.send(json.dumps({"type": "move", "move": legal[0], "version": 0}))
            assert next_update(calm, True)["version"] == 1  # and it plays on
        with server.connect(loud["id"]) as big:
            receive(big)
            big.send("x" * 20_000)  # over the 16 KiB frame limit: the server closes the socket
            with pytest.raises(ConnectionClosedError) as closed:
                receive(big, timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


def receive_nothing(connection: Any, wait: float = 0.2) -> bool:
    """Whether nothing but presence news (pages that come and go: no move's) comes on
    ``connection`` within ``wait`` seconds (0: nothing has come)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            message = json.loads(connection.recv(timeout=max(0.0, deadline - time.monotonic())))
        except TimeoutError:
            return True
        if message["type"] != "presence":
            return False


def test_a_person_who_does_not_move_in_time_has_a_move_played(server: Running) -> None:
    table = server.create(
        game="schacht",
        options={"players": 3},
        seats=[{"bot": "heuristic"}, {"name": "slow"}, {"bot": "heuristic"}],
        settings={"turn_seconds": 1, "bot_pace": 0},
        seed=4,
    )
    seat, token = server.sit(table["id"], "slow", 1)
    with server.connect(table["id"], seat=seat, token=token) as connection:
        welcome = receive(connection)
        assert welcome["legal"]  # seat 1 begins (S2.2) and waits
        update = receive(connection, timeout=10)
    assert update["type"] == "update" and update["version"] == 1 and update["time"] >= 1.0
    record = diabolo.Record.load(server.http.get(f"/api/tables/{table['id']}/record").text)
    assert record.moves[0].seat == 1  # the server played for the slow seat


def test_every_audience_counts_down_to_one_deadline_and_hears_of_a_timeout(server: Running) -> None:
    """One clock (docs/server.rst, "Turn timers"): the welcome of the seat and of a
    spectator, joined at different moments, carry the same deadline for the seat to move
    (the server's clock, beside its reading ``clock``), one turn after the game began; no
    deadline while the table waits for its people; the update of the move the server
    played when time ran out names the seat (``timeout``) to every audience, with the next
    deadlines (none: bots are to move)."""
    table = server.create(
        game="schacht",
        options={"players": 3},
        seats=[{"bot": "heuristic"}, {"name": "slow"}, {"bot": "heuristic"}],
        settings={"turn_seconds": 2, "bot_pace": 0},
        seed=4,
    )
    with server.connect(table["id"]) as early:
        assert receive(early)["deadlines"] == [None, None, None]  # nobody sat down: no turn runs
    seat, token = server.sit(table["id"], "slow", 1)
    with server.connect(table["id"], seat=seat, token=token) as player:
        mine = receive(player)
        time.sleep(0.5)
        with server.connect(table["id"]) as spectator:
            theirs = receive(spectator)
            assert mine["deadlines"] == theirs["deadlines"]  # the same deadline, whenever it was asked
            deadline = mine["deadlines"][1]
            assert mine["clock"] + 1.0 < deadline <= mine["clock"] + 2.0 and theirs["clock"] > mine["clock"]
            assert mine["deadlines"][0] is None and mine["deadlines"][2] is None
            played, seen = receive(player, timeout=10), receive(spectator, timeout=10)
    for update in (played, seen):
        assert update["type"] == "update" and update["version"] == 1 and update["timeout"] == 1
        assert update["clock"] >= deadline - 0.05 and update["deadlines"] == [None, None, None]


def test_a_move_that_lost_a_race_is_answered_as_such(server: Running) -> None:
    options = {"players": 2, "max_actions": 400}
    mirror = diabolo.load("duvelen", **options).new_state(seed=9)
    rng = random.Random(9)
    race = None
    while race is None:  # a position where seat 1's move loses to seat 0's (D3.10)
        for first in mirror.legal_moves(0):
            for second in mirror.legal_moves(1):
                trial = mirror.clone()
                trial.apply(first, player=0)
                try:
                    trial.apply(second, player=1, version=mirror.version)
                except diabolo.StaleMoveError:
                    race = (str(first), str(second))
                    break
            if race:
                break
        if race is None:
            seat = rng.choice(mirror.pending_seats)
            mirror.apply(rng.choice(mirror.legal_moves(seat)), player=seat)
    table = server.create(game="duvelen", options=options, seats=[{}, {}], seed=9)
    tokens = [server.sit(table["id"], f"p{s}", s)[1] for s in range(2)]
    with (
        server.connect(table["id"], seat=0, token=tokens[0]) as a,
        server.connect(table["id"], seat=1, token=tokens[1]) as b,
    ):
        receive(a), receive(b)
        replay = diabolo.load("duvelen", **options).new_state(seed=9)
        for mover, move in mirror.history:
            (a if mover == 0 else b).send(json.dumps({"type": "move", "move": str(move)}))
            replay.apply(move, player=mover)
            next_update(a, mover == 0), next_update(b, mover == 1)
        version = replay.version
        a.send(json.dumps({"type": "move", "move": race[0], "version": version}))
        next_update(a, True), next_update(b, False)
        b.send(json.dumps({"type": "move", "move": race[1], "version": version, "id": "late"}))
        refusal = receive(b)
    assert refusal["type"] == "rejected" and refusal["reason"] == "stale" and refusal["id"] == "late"
    assert refusal["clause"].startswith("D")
    # the engine's params to word it by, with the seat's own version (S7.1: never the table's)
    assert refusal["params"]["rule"] and refusal["params"]["version"] == str(version + 1)
    assert "seen" not in refusal["params"] and f"your version {version + 1}" in refusal["message"]


def test_the_postgres_store_keeps_and_resumes_a_game(postgres_url: str) -> None:
    """The restart test with the tables in a real PostgreSQL server (a fresh database of
    the run's cluster)."""
    play_then_resume(postgres_url)


def test_writes_that_arrive_together_share_a_commit_and_fail_alone(tmp_path: Path) -> None:
    """SqliteStore's group commit: 101 moves written at once are all stored, except the
    one that repeats a move number with another move, whose call alone fails (as
    ``Fenced``: the number is another's; none of the others are lost or doubled by the
    savepoint that undoes the batch)."""
    import asyncio
    import sqlite3

    from diabolo.server.store import Fenced, TableRow, open_store

    path = tmp_path / "tables.db"

    async def write() -> list[BaseException | None]:
        store = await open_store(f"sqlite:///{path}")
        await store.create_table(TableRow("t1", "schacht", {}, [], {}, "{}", "now"))
        numbers = [*range(50), 3, *range(50, 100)]
        results = await asyncio.gather(
            *(store.add_move("t1", 1, n, 0, f"m{i}", 0.0) for i, n in enumerate(numbers)), return_exceptions=True
        )
        await store.close()
        return results

    results = asyncio.run(write())
    assert [i for i, result in enumerate(results) if result is not None] == [50]
    assert isinstance(results[50], Fenced)
    with contextlib.closing(sqlite3.connect(path)) as db:
        stored = db.execute("SELECT number, move FROM diabolo_moves ORDER BY number").fetchall()
    assert stored == [(n, f"m{n if n < 50 else n + 1}") for n in range(100)]
