"""A game of the catalogue plays in the browser with its client folder and no other edit
(docs/server.rst, "A game in the browser"): the test-only game High card, which the
catalogue does not list, is offered by a server that names it in its ``games`` setting,
made through the lobby's form with a bot whose kind the catalogue gives, played to its end
by clicks on the table page, and its page keeps the engine's view from events alone. A
person who leaves it under way gets the catalogue's stand-in bot. In Debian's Chromium
through Playwright against a real server."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import diabolo  # noqa: E402
from diabolo.registry import catalogue_entry  # noqa: E402
from diabolo.server.config import ServerConfig  # noqa: E402
from tests.browser_helpers import Person, check_the_end, people  # noqa: E402
from tests.server_helpers import Running, running_server  # noqa: E402

__all__ = ["people"]  # the fixtures this module uses besides its own server

OFFERED = ("schacht", "highcard")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A server that offers Schacht and the unlisted High card."""
    path = tmp_path_factory.mktemp("server") / "tables.db"
    with running_server(f"sqlite:///{path}", config=ServerConfig(games=OFFERED), rate=10_000) as running:
        yield running


def test_the_server_offers_the_games_it_names_and_no_other(server: Running) -> None:
    games = server.http.get("/api/games").json()["games"]
    assert [game["name"] for game in games] == sorted(OFFERED, key=[e.name for e in diabolo.catalogue()].index)
    highcard = next(game for game in games if game["name"] == "highcard")
    assert highcard["title"] == catalogue_entry("highcard").title
    assert highcard["bot_levels"] == {"highest": None, "random": None}  # not on the ladder: no level
    assert highcard["settings"] == ["turn_seconds", "bot_pace"]  # turns, no words
    refused = server.http.post("/api/tables", json={"game": "duvelen", "options": {"players": 2}, "seats": [{}, {}]})
    assert refused.status_code == 400 and "the games are: schacht, highcard" in refused.text


def make_in_the_lobby(page: object, server: Running) -> str:
    """A two-seat High card table made through the lobby's form, Ann in seat 0 and the
    catalogue's bot "highest" in seat 1; the table's id."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready]")
    page.fill("#name", "Ann")
    page.select_option("#game", "highcard")
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    page.select_option('[data-seat-kind="0"]', "person")
    page.select_option('[data-seat-kind="1"]', "bot:highest")
    page.fill("#rounds", "2")
    page.fill("#bot-pace", "0.05")
    page.click("#create")
    page.wait_for_url("**/client/table.html?table=*")
    page.wait_for_function("() => window.diabolo && diabolo.welcomes > 0 && diabolo.view")
    table_id: str = page.evaluate("() => new URLSearchParams(location.search).get('table')")
    return table_id


def test_high_card_is_made_in_the_lobby_and_played_to_its_end_by_clicks(
    server: Running, people: Callable[..., Person]
) -> None:
    ann = people()
    page = ann.page
    table_id = make_in_the_lobby(page, server)
    assert page.evaluate("() => diabolo.seat") == 0
    assert page.locator("#seats .seat").count() == 2
    plays = 0
    while not page.locator("#final").count():
        page.wait_for_function("() => diabolo.legal.length > 0 || diabolo.over")
        if page.evaluate("() => diabolo.over"):
            break
        card = page.locator("#board .hand .card.playable").first
        played = card.get_attribute("data-card")
        card.click()
        plays += 1
        # the log says so, from the events the server sent back (H3)
        page.wait_for_function(
            """([card, n]) => {
                const mine = [...document.querySelectorAll('#log li')].map((li) => li.textContent)
                    .filter((text) => text.includes('(you) plays'));
                return mine.length === n && mine.some((text) => text.includes(`plays ${card}.`));
            }""",
            arg=[played, plays],
        )
    assert plays == 6  # 3 cards a round (H2), 2 rounds
    record = check_the_end(ann, server, table_id, 0)
    assert len(record.moves) == 12
    assert page.locator("#log li").filter(has_text="wins the trick").count() >= 1


def test_a_person_who_leaves_high_card_under_way_gets_the_catalogues_stand_in(server: Running) -> None:
    """The bot that plays on for her is the catalogue's stand_in of the game, with no level
    (not on the ladder), while another person stays."""
    table = server.create(game="highcard", options={"players": 3}, seats=[{}, {}, {"bot": "random"}])
    _, token = server.sit(table["id"], "Ann", 0)
    server.sit(table["id"], "Bo", 1)  # every seat taken: the game is under way
    left = server.http.post(f"/api/tables/{table['id']}/leave", json={"seat": 0, "token": token})
    assert left.status_code == 200, left.text
    seat = left.json()["table"]["seats"][0]
    assert seat["bot"] == catalogue_entry("highcard").stand_in == "highest"
    assert seat["name"] == "Ann (bot)" and seat["level"] is None
