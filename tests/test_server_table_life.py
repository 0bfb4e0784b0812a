"""A table's life beyond one game, on the lobby without sockets (an SQLite store in a
temporary folder): leaving a table (a free seat before the game, a bot that plays on
during it, a table closed when no person is left), a rematch with the same seats
(reserved for their players, a new seed, one rematch however many ask), bots' names and
levels, and Knizia bots that do not call a word another call just took (K3.5, K10.3).
The same over HTTP, with the bounds a visitor meets, is in tests/test_server.py."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import diabolo  # noqa: E402
from diabolo.server import Lobby, ServerConfig  # noqa: E402
from diabolo.server.protocol import Rejection  # noqa: E402
from diabolo.server.tables import HANDOFF_SECONDS, Table, bot_level, make_bot  # noqa: E402
from tests.test_server_tables import Recorder, close_lobby, open_lobby  # noqa: E402

REAL_TIME = time.time
TWO_PEOPLE = {
    "game": "schacht",
    "options": {"players": 3, "rounds": 1},
    "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": "heuristic"}],
    "settings": {"bot_pace": 0},
    "seed": 3,
}


async def play_people(table: Table, tokens: dict[int, str], rng: random.Random) -> None:
    """The people of ``table`` play random legal moves (its bots play on their own) until the game ends."""
    while not table.finished:
        moving = [seat for seat in table.state.pending_seats if seat in tokens]
        if not moving:
            await asyncio.sleep(0.001)
            continue
        seat = rng.choice(moving)
        await table.submit(seat, rng.choice(listed(table, seat)), None)


def listed(table: Table, seat: int) -> list[str]:
    return [str(move) for move in table.state.legal_moves(seat)]


async def seated(lobby: Lobby, request: dict[str, Any]) -> tuple[Table, dict[int, str]]:
    """A table of ``request`` with every person's seat taken: the table and the seats' tokens."""
    table = await lobby.create(request, "client")
    tokens = {}
    for seat, spec in enumerate(table.seats):
        if spec.bot is None:
            taken, token, _ = await table.take_seat(seat, spec.name)
            tokens[taken] = token
    return table, tokens


def test_bots_get_names_and_a_level_people_can_read(tmp_path: Path) -> None:
    """A bot seat the request does not name is named (BOT_NAMES), and every seat says how
    well its bot plays: random easy, heuristic medium, ISMCTS strong."""

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            request = {"game": "schacht", "options": {"players": 4}, "seed": 1}
            seats = [{"name": "Ann"}, {"bot": "random"}, {"bot": "heuristic"}, {"bot": "ismcts", "name": "Deep"}]
            table = await lobby.create({**request, "seats": seats})
            public = table.summary()["seats"]
            assert [(s["name"], s["bot"], s["level"]) for s in public] == [
                ("Ann", None, None),
                ("Bram", "random", "easy"),
                ("Cleo", "heuristic", "medium"),
                ("Deep", "ismcts", "strong"),
            ]
            assert [s["reserved"] for s in public] == [False] * 4
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


@pytest.mark.parametrize("game", ["knizia", "duvelen"])
def test_real_time_bots_play_at_their_levels_pace_for_people(game: str) -> None:
    """A server's easy and medium real-time bots get their level's pace (PACES of the game's
    module: benchmarks/people_pace.py measures what it leaves a person), its strong bots a
    quick human's; a pace never waits longer than the server allows (shortened alike), and a
    reaction the request gives is the bot's."""
    for kind in diabolo.bot_kinds(game):
        level = bot_level(game, kind, {})
        delays = make_bot(game, kind, {}).reaction["delays"]
        pace = diabolo.registry.paces(game).get(level or "", {})
        assert level == "strong" or pace, (kind, level)
        expected = {**diabolo.bot(game, kind).reaction["delays"], **pace}
        assert delays == expected, (kind, level)
        capped = make_bot(game, kind, {}, {"delay": 5.0}).reaction["delays"]
        for action, (mean, spread) in pace.items():
            shortened = capped[action]
            if mean + 6 * spread <= 5.0:
                assert shortened == (mean, spread), action
            else:
                assert shortened[0] + 6 * shortened[1] == pytest.approx(5.0), action
                assert shortened[0] * spread == pytest.approx(shortened[1] * mean), action
    given = make_bot(game, "random", {"reaction": {"delays": {}, "minimum": 0.2}})
    assert given.reaction["delays"] == diabolo.bot(game, "random").reaction["delays"]


def test_leaving_frees_a_waiting_seat_and_closes_a_table_nobody_holds(tmp_path: Path) -> None:
    """Before the game a person who leaves frees the seat (anyone may take it); a wrong
    token is refused and changes nothing; when the last person leaves, the table is
    closed: its pages are told, and it is gone from the lobby and the store."""

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            request = {**TWO_PEOPLE, "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}]}
            table = await lobby.create(request, "client")
            _, ann, _ = await table.take_seat(0, "Ann")
            with pytest.raises(Rejection) as wrong:
                await lobby.leave_seat(table.id, 0, "not the token")
            assert wrong.value.reason == "bad_token" and table.seats[0].taken
            summary = await lobby.leave_seat(table.id, 0, ann)
            assert summary is None  # Ann was the only person: the table is closed
            assert table.id not in lobby.tables and await lobby.store.running_table(table.id) is None

            again = await lobby.create(request, "client")
            _, ann, _ = await again.take_seat(0, "Ann")
            _, bo, _ = await again.take_seat(1, "Bo")  # every seat taken: the game starts
            watcher = Recorder()
            again.audiences.attach(None, watcher)
            summary = await lobby.leave_seat(again.id, 1, bo)
            assert summary is not None and summary["seats"][1]["bot"] == "heuristic"  # a bot plays on
            assert summary["seats"][1]["name"] == "Bo (bot)"
            assert watcher.messages[-1] == {"type": "table", "table": summary}
            await lobby.leave_seat(again.id, 0, ann)
            assert again.id not in lobby.tables and watcher.ended
            assert watcher.messages[-1]["code"] == "closed"
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_a_bot_plays_on_for_a_person_who_left_and_the_store_keeps_it(tmp_path: Path) -> None:
    """A person who leaves a game under way: the stand-in bot plays their seat to the end
    (with the other person's moves), and a restart in the middle brings the bot back."""

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table, tokens = await seated(lobby, TWO_PEOPLE)
            await table.submit(1, listed(table, 1)[0], None)  # seat 1 begins (S2.2)
            await lobby.leave_seat(table.id, 1, tokens.pop(1))
        finally:
            await close_lobby(lobby)
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table = lobby.tables[table.id]
            assert table.seats[1].bot == "heuristic" and table.seats[1].token_hash is None
            await asyncio.wait_for(play_people(table, tokens, random.Random(1)), 60)
            record = table.record
            assert record.players == ["Ann", "Bo (bot)", "Cleo"]
            assert sum(step.seat == 1 for step in record.moves) > 3
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_a_rematch_keeps_the_seats_for_their_players_with_a_new_seed(tmp_path: Path) -> None:
    """After the game, the first player who asks makes the rematch: the same game, options,
    settings and bots, a new seed; the old table's pages hear of it (its summary names the
    rematch). Each person's seat waits for its player: a stranger cannot take it, its
    player takes it with the old token (asking again finds the same rematch), or declines
    it, and then anyone may take it. Before the game's end, or with a wrong token, a
    rematch is refused and nothing is made."""

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table, tokens = await seated(lobby, TWO_PEOPLE)
            with pytest.raises(Rejection) as early:
                await lobby.rematch(table.id, 0, tokens[0])
            assert early.value.code == "game_not_over" and table.rematch is None
            watcher = Recorder()
            table.audiences.attach(None, watcher)
            await asyncio.wait_for(play_people(table, tokens, random.Random(2)), 60)
            with pytest.raises(Rejection) as wrong:
                await lobby.rematch(table.id, 0, tokens[1])
            assert wrong.value.reason == "bad_token" and len(lobby.tables) == 1

            seat, ann, summary = await lobby.rematch(table.id, 0, tokens[0])
            rematch = lobby.tables[summary["id"]]
            assert seat == 0 and table.rematch == rematch.id and rematch.id != table.id
            assert watcher.messages[-1]["table"]["rematch"] == rematch.id
            assert (rematch.game_name, rematch.options, rematch.settings) == (
                table.game_name,
                table.options,
                table.settings,
            )
            assert [s.bot for s in rematch.seats] == [None, None, "heuristic"]
            seeds = [json.loads(t.record.dump())["start"]["seed"] for t in (table, rematch)]
            assert seeds[0] != seeds[1]  # a new deal
            assert summary["seats"][1] == {"name": "Bo", "bot": None, "level": None, "taken": False, "reserved": True}
            for seat_asked in (1, None):
                with pytest.raises(Rejection) as stranger:
                    await rematch.take_seat(seat_asked, "Mallory")
                assert stranger.value.reason in ("seat_taken", "table_full")
            assert rematch.waiting and rematch.version == 0  # it waits for Bo

            again = await lobby.rematch(table.id, 1, tokens[1], "Bo again")
            assert again[0] == 1 and again[2]["id"] == rematch.id and not rematch.waiting
            assert len([t for t in lobby.tables.values() if not t.finished]) == 1  # one rematch

            # a rematch of the rematch: Bo declines his seat, which a stranger may then take
            await asyncio.wait_for(play_people(rematch, {0: ann, 1: again[1]}, random.Random(3)), 60)
            _, _, third = await lobby.rematch(rematch.id, 0, ann)
            await lobby.leave_seat(third["id"], 1, again[1])
            assert lobby.tables[third["id"]].summary()["seats"][1]["reserved"] is False
            assert (await lobby.tables[third["id"]].take_seat(None, "Mallory"))[0] == 1
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_a_declined_rematch_seat_is_filled_with_the_games_bot_by_a_player(tmp_path: Path) -> None:
    """When Bo declines his rematch seat, Ann need not wait for a stranger: she fills the
    free seat with the game's stand-in bot (its catalogue entry) and the game starts. A
    seat still reserved, a seat that is not free, and a wrong token are refused, and change
    nothing."""

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table, tokens = await seated(lobby, TWO_PEOPLE)
            await asyncio.wait_for(play_people(table, tokens, random.Random(2)), 60)
            _, ann, summary = await lobby.rematch(table.id, 0, tokens[0])
            rematch = lobby.tables[summary["id"]]
            for seat, by, token, reason in (
                (1, 0, ann, "seat_taken"),
                (2, 0, ann, "seat_taken"),
                (1, 0, "x", "bad_token"),
            ):
                with pytest.raises(Rejection) as refused:
                    await lobby.seat_bot(rematch.id, seat, by, token)
                assert refused.value.reason == reason
            assert rematch.waiting and rematch.seats[1].bot is None
            await lobby.leave_seat(rematch.id, 1, tokens[1])  # Bo declines
            after = await lobby.seat_bot(rematch.id, 1, 0, ann)
            assert after["seats"][1]["bot"] == diabolo.registry.catalogue_entry("schacht").stand_in
            assert after["seats"][1]["taken"] and not after["waiting"] and not rematch.waiting
            assert rematch.drivers.started and 1 in rematch.drivers.bots
            await asyncio.wait_for(play_people(rematch, {0: ann}, random.Random(3)), 60)
            assert rematch.finished
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


def test_a_rematch_reservation_survives_a_restart(tmp_path: Path) -> None:
    async def run() -> tuple[str, str]:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table, tokens = await seated(lobby, TWO_PEOPLE)
            await asyncio.wait_for(play_people(table, tokens, random.Random(4)), 60)
            _, _, summary = await lobby.rematch(table.id, 0, tokens[0])
            return summary["id"], tokens[1]
        finally:
            await close_lobby(lobby)

    async def after(rematch_id: str, bo: str) -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            rematch = lobby.tables[rematch_id]
            with pytest.raises(Rejection):
                await rematch.take_seat(1, "Mallory")
            assert (await rematch.take_seat(None, "Bo", bo))[0] == 1
        finally:
            await close_lobby(lobby)

    asyncio.run(after(*asyncio.run(run())))


def test_a_seat_continues_on_another_device_with_a_one_time_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seated person's handoff code moves the seat: the device that uses it gets a new
    token with the seat's name, the old token stops, the old device's connection is told
    (seat_moved) and closed; the code works once, only for its seat, not after
    HANDOFF_SECONDS, and survives a restart of the process (it is stored with the seat)."""

    async def run() -> None:
        lobby = await open_lobby(tmp_path / "tables.db")
        try:
            table, tokens = await seated(lobby, TWO_PEOPLE)
            old = Recorder()
            await table.join({"seat": 0, "token": tokens[0]}, old)
            code, game = await lobby.handoff(table.id, 0, tokens[0])
            assert game == "schacht"
            for seat, token in ((0, "wrong"), (1, tokens[0])):
                with pytest.raises(Rejection, match="no seat") as refused:
                    await lobby.handoff(table.id, seat, token)
                assert refused.value.reason == "bad_token"
        finally:
            await close_lobby(lobby)
        lobby = await open_lobby(tmp_path / "tables.db")  # a restart in between
        try:
            table = lobby.tables[table.id]
            old = Recorder()
            await table.join({"seat": 0, "token": tokens[0]}, old)
            wrongs: list[tuple[int | None, str]] = [(1, code), (0, code + "x"), (None, code)]
            for other, wrong in wrongs:
                with pytest.raises(Rejection) as refused:
                    await table.take_seat(other, "Mallory", handoff=wrong)
                assert refused.value.reason == "bad_handoff"
            seat, token, summary = await table.take_seat(0, "Mallory", handoff=code)
            assert seat == 0 and token != tokens[0] and summary["seats"][0]["name"] == "Ann"
            assert old.ended and old.messages[-1]["reason"] == "seat_moved"
            with pytest.raises(Rejection) as refused:
                await table.join({"seat": 0, "token": tokens[0]}, Recorder())
            assert refused.value.reason == "bad_token"
            await table.join({"seat": 0, "token": token}, Recorder())
            with pytest.raises(Rejection) as refused:  # once only
                await table.take_seat(0, "Ann", handoff=code)
            assert refused.value.reason == "bad_handoff"
            late = (await lobby.handoff(table.id, 0, token))[0]
            monkeypatch.setattr(time, "time", lambda: REAL_TIME() + HANDOFF_SECONDS + 1)
            with pytest.raises(Rejection) as refused:
                await table.take_seat(0, "Ann", handoff=late)
            assert refused.value.reason == "bad_handoff"
        finally:
            await close_lobby(lobby)

    asyncio.run(run())


QUICK_WORDS = {
    "reaction": {
        "delays": {"reveal": [0.004, 0.001], "claim": [0.01, 0.003], "take": [0.003, 0.001], "pass": [0.01, 0.002]},
        "minimum": 0.001,
    },
    "per_letter": 0.002,
}


def test_knizia_bots_do_not_call_a_word_another_call_just_took(tmp_path: Path) -> None:
    """Three word bots that know every word race for the same words. A bot whose word's
    cards another call took while it was calling does not call it (it would draw the
    penalty, K3.5/K10.3) and decides again: no call of the game is invalid."""

    async def run() -> diabolo.Record:
        lobby = await open_lobby(tmp_path / "tables.db", ServerConfig(bot_workers=2))
        try:
            seats = [{"bot": "word", "options": QUICK_WORDS} for _ in range(3)]
            request = {"game": "knizia", "options": {"players": 3, "lexicon": "de", "rounds": 1}, "seats": seats}
            table = await lobby.create({**request, "seed": 5})
            while not table.finished:
                await asyncio.sleep(0.02)
            return table.record
        finally:
            await close_lobby(lobby)

    record = asyncio.run(asyncio.wait_for(run(), 120)).redacted(None)
    called = [event for step in record.moves for event in step.events or () if event["type"] == "called"]
    assert len(called) >= 5
    assert [(event["word"], event["reason"]) for event in called if not event["valid"]] == []
