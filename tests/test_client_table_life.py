"""A table's life in the browser client, as people live it, in Debian's Chromium through
Playwright against a real server (the fixtures and helpers of
tests/test_server_browser.py): the lobby and the table link the game's rules page
(tests/test_client_rules.py checks the pages), the lobby asks for a name before anyone
sits, an invitation's address seats a friend on a phone, both play a whole game of
Schacht, a rematch is asked by one and joined by the other with the same seats, and a
person who leaves a game under way hands the seat to a bot; the last to leave closes the
table. No page may log a console error."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from tests.browser_helpers import DESKTOP, PHONE, Person, check_fits, check_the_end, people, server, sit  # noqa: E402
from tests.server_helpers import Running  # noqa: E402
from tests.test_server_browser import play_schacht  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

__all__ = ["people", "server"]  # the fixtures this module uses


def open_lobby(person: Person, server: Running) -> None:
    person.page.goto(server.url + "/")
    person.page.wait_for_selector("body[data-ready]")


def table_of(person: Person) -> str:
    table: str = person.page.evaluate("() => new URLSearchParams(location.search).get('table')")
    return table


def wait_for_table_page(person: Person, not_table: str = "") -> str:
    """Until the page is a table page other than ``not_table`` with its first view: its table."""
    person.page.wait_for_function(
        "(old) => window.diabolo && diabolo.welcomes > 0 && diabolo.view"
        " && new URLSearchParams(location.search).get('table') !== old",
        arg=not_table,
    )
    return table_of(person)


def test_invite_play_rematch_and_leave(server: Running, people: Callable[..., Person]) -> None:
    ann, bo = people(), people(PHONE)
    open_lobby(ann, server)
    lobby = ann.page
    # nobody sits without a name: the lobby asks, and makes no table
    lobby.fill("#name", "")
    lobby.select_option("#game", "knizia")
    assert lobby.locator("#stale-calls").is_visible()  # K10.3's choice, for Knizia tables only
    assert lobby.locator("#practice").is_visible() and not lobby.locator("#turn-seconds").is_visible()
    lobby.select_option("#game", "duvelen")  # real time: no turn timer, no bot pace
    assert not lobby.locator("#turn-seconds").is_visible() and not lobby.locator("#bot-pace").is_visible()
    lobby.select_option("#game", "schacht")
    assert not lobby.locator("#stale-calls").is_visible() and not lobby.locator("#practice").is_visible()
    assert lobby.locator("#turn-seconds").is_visible() and lobby.locator("#bot-pace").is_visible()
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    lobby.select_option('[data-seat-kind="0"]', "person")
    lobby.select_option('[data-seat-kind="1"]', "person")
    lobby.select_option('[data-seat-kind="2"]', "bot:heuristic")
    lobby.fill("#rounds", "1")
    lobby.fill("#bot-pace", "0.05")
    before = len(server.http.get("/api/tables").json()["tables"])
    lobby.click("#create")
    lobby.wait_for_selector("#name-error:has-text('name')")
    assert len(server.http.get("/api/tables").json()["tables"]) == before
    assert lobby.locator('[data-seat-kind="2"] option:checked').inner_text() == "bot: heuristic, medium"
    assert lobby.get_attribute('#rules-links [data-rules="knizia"]', "href") == "/client/rules.html?game=knizia"
    lobby.fill("#name", "Ann")
    lobby.click("#create")
    first = wait_for_table_page(ann)
    assert ann.page.evaluate("() => diabolo.seat") == 0
    assert ann.page.get_attribute('#links [data-rules="schacht"]', "href") == "/client/rules.html?game=schacht"

    # the lobby lists who sits where and what the table waits for
    open_lobby(bo, server)
    card = bo.page.locator(f'[data-table="{first}"]')
    card.locator("text=waiting for 1 player").wait_for()
    assert "Ann, free, Cleo (bot, medium)" in card.inner_text()
    assert card.locator('[data-action="invite"]').count() == 1

    # Bo opens Ann's invitation on his phone, gives his name and sits: the game starts
    link = ann.page.input_value("#invite-link")
    assert link.endswith(f"table={first}&game=schacht&invite=1&seat=1")  # the game: its code loads at once
    bo.page.goto(link)
    bo.page.wait_for_selector("#join")
    bo.page.fill("#join-name", "Bo")
    bo.page.click("#join-seat")
    bo.page.wait_for_url(f"{server.url}/client/table.html?table={first}&game=schacht")  # the page opens again, seated
    bo.page.wait_for_function("() => window.diabolo && diabolo.seat === 1 && diabolo.view")
    ann.page.wait_for_selector("#invite-link", state="detached")  # no free seat left to invite to
    play_schacht([(ann, 0), (bo, 1)], random.Random(5), lambda n: None)
    check_the_end(ann, server, first, 0)
    check_the_end(bo, server, first, 1)

    # Ann asks for a rematch; Bo's page offers it, and he joins: the same seats, a new deal
    ann.page.click("#rematch")
    second = wait_for_table_page(ann, first)
    bo.page.wait_for_selector(".rematch.offered")
    check_fits(bo.page)
    bo.page.click("#rematch")
    assert wait_for_table_page(bo, first) == second
    summary = server.http.get("/api/tables").json()["tables"]
    seats = next(table for table in summary if table["id"] == second)["seats"]
    assert [(seat["name"], seat["taken"]) for seat in seats] == [("Ann", True), ("Bo", True), ("Cleo", True)]
    assert ann.page.evaluate("() => diabolo.seat") == 0 and bo.page.evaluate("() => diabolo.seat") == 1

    # Bo leaves the game under way: a bot plays on in his seat, and Ann's page says so
    bo.page.click("#leave")
    bo.page.click("#leave-confirm")
    bo.page.wait_for_url(server.url + "/")
    ann.page.wait_for_selector('#seats [data-seat="1"]:has-text("Bo (bot)")')
    # the last person leaves: the table is closed, and the lobby no longer lists it
    ann.page.click("#leave")
    ann.page.click("#leave-confirm")
    ann.page.wait_for_url(server.url + "/")
    assert second not in {table["id"] for table in server.http.get("/api/tables").json()["tables"]}


def test_every_page_counts_down_to_one_deadline_and_says_when_time_ran_out(
    server: Running, people: Callable[..., Person]
) -> None:
    """One clock: the seat's page, a spectator's page opened later and the seat's page
    after a reload show the same turn deadline (the server's) and the same seconds left;
    when it runs out, every page says a move was played for the seat."""
    slow, watcher = people(), people(PHONE)
    table = server.create(
        game="schacht",
        options={"players": 3},
        seats=[{"bot": "heuristic"}, {"name": "Slow"}, {"bot": "heuristic"}],
        settings={"turn_seconds": 6, "bot_pace": 0},
        seed=4,
    )
    sit(server, slow, table["id"], 1, "Slow")
    url = f"{server.url}/client/table.html?table={table['id']}"
    slow.page.goto(url)
    slow.page.wait_for_function("() => window.diabolo && diabolo.deadline")
    deadline = slow.page.evaluate("() => diabolo.deadline")
    watcher.page.goto(url + "&watch")
    watcher.page.wait_for_function("() => window.diabolo && diabolo.deadline")
    assert watcher.page.evaluate("() => diabolo.deadline") == deadline
    slow.page.reload()
    slow.page.wait_for_function("() => window.diabolo && diabolo.deadline")
    assert slow.page.evaluate("() => diabolo.deadline") == deadline
    left = [
        int(re.findall(r"\((\d+) s left\)", page.locator("#status").inner_text())[0])
        for page in (slow.page, watcher.page)
    ]
    assert abs(left[0] - left[1]) <= 1 and 0 < left[0] <= 6, left
    for page in (slow.page, watcher.page):
        page.wait_for_selector("#log li:has-text('Time ran out: a move was played for Slow')", timeout=15_000)


def test_the_connection_stays_in_view_and_an_offline_board_takes_no_move(
    server: Running, people: Callable[..., Person]
) -> None:
    """On a phone, scrolled to the log, a lost connection is said on screen (the state
    leaves the header and stays in view); with the network gone the board is dimmed and
    inert (no click or key reaches it) until the page is live again, and the page waits
    for the network instead of trying to connect in a loop: "offline" throughout, and no
    connection refused in the console."""
    ann = people(PHONE)
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], seed=1
    )
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    page = ann.page
    page.wait_for_selector('#connection[data-state="live"]')
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("() => window.scrollY") > 0  # the page is longer than the phone's screen

    def header_in_view() -> bool:
        box = page.locator("#connection").bounding_box()
        return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]

    assert not page.evaluate("() => document.getElementById('board').inert")
    page.evaluate(
        """() => {
            const connection = document.getElementById('connection');
            window.connectionStates = [];
            new MutationObserver(() => window.connectionStates.push(connection.dataset.state))
                .observe(connection, {attributes: true, attributeFilter: ['data-state']});
        }"""
    )
    ann.context.set_offline(True)  # no new connection gets through, and the open one drops
    page.evaluate("() => diabolo.dropConnection()")
    page.wait_for_selector('#connection[data-state="offline"]', timeout=15_000)
    page.wait_for_timeout(1_000)  # no network: the page waits for it instead of trying in a loop
    assert set(page.evaluate("() => window.connectionStates")) == {"offline"}
    assert header_in_view()
    assert page.evaluate("() => document.getElementById('board').inert")
    assert page.evaluate("() => getComputedStyle(document.getElementById('board')).opacity") == "0.45"
    ann.context.set_offline(False)
    page.wait_for_selector('#connection[data-state="live"]', timeout=15_000)
    assert not page.evaluate("() => document.getElementById('board').inert")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_turn_runs_while_the_table_waits_for_its_people(
    server: Running, people: Callable[..., Person], viewport: ViewportSize
) -> None:
    """A table still waiting for a person shows no turn and no timer: the status says who
    it waits for, and once the last seat is taken the first turn begins."""
    ann = people(viewport)
    table = server.create(
        game="schacht",
        options={"players": 3},
        seats=[{"name": "Ann"}, {}, {"bot": "random"}],
        settings={"turn_seconds": 30},
        seed=4,
    )
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    page = ann.page
    page.wait_for_selector("#status:has-text('Waiting for 1 more person to sit down')")
    assert not page.title().startswith("● Your turn")
    assert "b3261e" not in (page.get_attribute("link[rel=icon]", "href") or "")
    assert page.locator("#seats .seat.turn").count() == 0
    assert "s left" not in page.locator("#status").inner_text()
    assert page.evaluate("() => diabolo.deadline") is None
    server.sit(table["id"], "Bo", 1)
    page.wait_for_function("() => !document.getElementById('status').textContent.includes('Waiting for')")
    page.wait_for_selector("#seats .seat.turn")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_seated_person_fills_a_free_seat_with_a_bot_and_the_game_starts(
    server: Running, people: Callable[..., Person], viewport: ViewportSize
) -> None:
    """A table that waits for someone in a free seat (a declined rematch's, say) offers a
    seated person to fill it with the game's bot; then the first turn begins."""
    ann = people(viewport)
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {}, {"bot": "random"}], seed=4
    )
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    page = ann.page
    page.click("#fill-seat")
    page.wait_for_selector("#seats .seat.turn")
    seats = server.http.get("/api/tables").json()["tables"]
    listed = next(t for t in seats if t["id"] == table["id"])
    assert listed["seats"][1]["bot"] == "heuristic" and not listed["waiting"]
    assert page.locator("#fill-seat").count() == 0


def test_the_log_is_rebuilt_from_the_public_record_after_a_reload(
    server: Running, people: Callable[..., Person]
) -> None:
    """A page opened after moves were made (a reload, a second device) shows what happened
    before it came, from the public record, in the order the first page showed it: every
    placement (a seat's own draws are not in the public record)."""
    ann = people()
    table = server.create(
        game="schacht",
        options={"players": 3},
        seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}],
        settings={"bot_pace": 0},
        seed=2,
    )
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    page = ann.page
    for _ in range(2):  # two of Ann's moves, with the bots' between them
        page.wait_for_function("() => diabolo.legal.length > 0")
        version = page.evaluate("() => diabolo.version")
        page.evaluate("() => diabolo.send(diabolo.legal[0])")  # as the page's controls send it
        page.wait_for_function("(v) => diabolo.version > v + 1 || diabolo.over", arg=version)
    page.wait_for_function("() => diabolo.legal.length > 0 || diabolo.over")
    page.wait_for_timeout(300)  # the last update's line is written
    assert page.title().startswith("● Your turn · ")  # a tab in the background tells it
    assert "b3261e" in (page.get_attribute("link[rel=icon]", "href") or "")  # and its icon
    placed = [line for line in page.locator("#log li").all_inner_texts() if " places " in line]
    assert len(placed) >= 4
    page.reload()
    page.wait_for_function(
        "(n) => [...document.querySelectorAll('#log li')]"
        ".filter((li) => li.textContent.includes(' places ')).length >= n",
        arg=len(placed),
    )
    after = [line for line in page.locator("#log li").all_inner_texts() if " places " in line]
    assert after == placed, (placed, after)


def test_a_seat_continues_on_a_phone_by_its_one_time_link(server: Running, people: Callable[..., Person]) -> None:
    """ "Continue on another device" shows a one-time link and its QR code; the phone that
    opens the link plays the seat as Ann, and Ann's first page is told and only watches."""
    ann = people()
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], seed=6
    )
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    ann.page.click("#other-device")
    ann.page.wait_for_selector("#handoff-link")
    link = ann.page.input_value("#handoff-link")
    assert ann.page.evaluate("() => document.querySelector('#handoff-qr').naturalWidth") > 100
    assert "handoff=" in link and f"table={table['id']}" in link

    phone = people(PHONE, touch=True)
    phone.page.goto(link)
    phone.page.wait_for_function("() => window.diabolo && diabolo.welcomes > 0 && diabolo.seat === 0")
    assert "handoff" not in phone.page.url  # the link is spent: a reload opens the seat by its token
    phone.page.wait_for_function("() => diabolo.legal.length > 0")
    version = phone.page.evaluate("() => diabolo.version")
    phone.page.evaluate("() => diabolo.send(diabolo.legal[0])")
    phone.page.wait_for_function("(v) => diabolo.accepted === 1 && diabolo.version > v", arg=version)

    ann.page.wait_for_selector("#watch-here")
    assert ann.page.get_attribute("#connection", "data-state") == "closed"
    assert ann.page.evaluate(f"() => localStorage.getItem('diabolo.seat.{table['id']}')") is None
    ann.page.click("#watch-here")
    ann.page.wait_for_function("() => window.diabolo && diabolo.welcomes > 0 && diabolo.seat === null")
    spent = server.http.post(f"/api/tables/{table['id']}/seats", json={"seat": 0, "handoff": link.split("handoff=")[1]})
    assert spent.status_code == 403


def test_people_see_who_is_here_and_talk_with_phrases_a_field_and_mute(
    server: Running, people: Callable[..., Person]
) -> None:
    """Each seat shows whether its person is online, away (their page hidden) or gone, and
    the table how many watch; a phrase tapped on a phone and a typed line reach the other
    player and not the spectators, who talk among themselves; a muted seat's lines are hidden
    on the muting page only, until it unmutes."""
    ann, bo, eve = people(), people(PHONE, touch=True), people()
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}], seed=8
    )
    sit(server, ann, table["id"], 0, "Ann")
    sit(server, bo, table["id"], 1, "Bo")
    ann.open_table(server, table["id"])
    presence = "(seat) => document.querySelector(`#seats .seat[data-seat='${seat}'] .presence`)?.dataset.presence"
    ann.page.wait_for_function(f"() => ({presence})(1) === 'gone'")
    bo.open_table(server, table["id"])
    ann.page.wait_for_function(f"() => ({presence})(1) === 'online'")
    bo.page.evaluate(
        "() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    ann.page.wait_for_function(f"() => ({presence})(1) === 'away'")
    bo.page.evaluate(
        "() => { Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    ann.page.wait_for_function(f"() => ({presence})(1) === 'online'")

    eve.page.goto(f"{server.url}/client/table.html?table={table['id']}&watch=1")
    eve.page.wait_for_function("() => window.diabolo && diabolo.welcomes > 0")
    ann.page.wait_for_selector("#watching:has-text('1 watching')")
    assert eve.page.inner_text("#talk-title") == "Spectators' chat"

    bo.page.click("#phrases button:has-text('Good luck')")
    ann.page.wait_for_selector("#chat li:has-text('Bo: Good luck')")
    ann.page.fill("#say-text", "thanks, you too")
    ann.page.click("#say")
    bo.page.wait_for_selector("#chat li:has-text('Ann: thanks, you too')")
    eve.page.fill("#say-text", "go Ann")
    eve.page.click("#say")
    eve.page.wait_for_selector("#chat li:has-text('a spectator: go Ann')")

    ann.page.click("#chat li[data-seat='1'] [data-mute]")
    assert ann.page.locator("#chat li[data-seat='1']").count() == 0
    bo.page.fill("#say-text", "can you hear me")
    bo.page.click("#say")
    bo.page.wait_for_selector("#chat li:has-text('Bo: can you hear me')")
    ann.page.reload()  # the mute stays on this page's browser
    ann.page.wait_for_function("() => window.diabolo && diabolo.welcomes > 0")
    ann.page.wait_for_selector("[data-unmute='1']")
    assert ann.page.locator("#chat li[data-seat='1']").count() == 0
    ann.page.click("[data-unmute='1']")
    ann.page.wait_for_selector("#chat li:has-text('Bo: can you hear me')")
    assert "go Ann" not in ann.page.inner_text("#chat") and "Good luck" not in eve.page.inner_text("#chat")
    check_fits(bo.page)

    bo.page.close()
    ann.page.wait_for_function(f"() => ({presence})(1) === 'gone'")
