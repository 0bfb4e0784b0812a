"""What the browser tests share: Debian's Chromium (headless, through Playwright; its own
browser download is not used), a real server on loopback for a module's tests, people
(browser contexts, each with its own localStorage) whose pages must log no page error, no
console error and no websocket frame outside the protocol's schema, the two screen sizes,
and the check that nothing is wider than a phone's screen. A module uses the fixtures by
importing them (``server``, ``people``); ``browser``, the run's one Chromium, is
conftest.py's.
Without Chromium and playwright the tests skip, or fail under CI=true, naming what to
install."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

import diabolo
from tests.protocol_schema import problem
from tests.server_helpers import Running, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, ViewportSize, WebSocket

__all__ = ["DESKTOP", "PHONE", "WIDTHS", "Person", "check_fits", "check_the_end", "people", "server", "sit", "too_wide"]

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 740}
"""The narrowest phone screen the client is made for (a 390 px phone has room to spare)."""
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """One server for the module's tests, its tables in an SQLite file; clients may send
    10,000 messages a second (a test clicks faster than a person)."""
    path = tmp_path_factory.mktemp("server") / "tables.db"
    with running_server(f"sqlite:///{path}", rate=10_000) as running:
        yield running


class Person:
    """A browser context (its own localStorage) with one page, and what went wrong in it."""

    def __init__(
        self,
        browser: Browser,
        viewport: ViewportSize = DESKTOP,
        motion: bool = False,
        script: str = "",
        touch: bool = False,
    ) -> None:
        # Without motion (the page honours prefers-reduced-motion) a click need not wait
        # for a card's animation to end. With touch, a phone's: a finger, no mouse.
        self.context: BrowserContext = browser.new_context(
            viewport=viewport,
            reduced_motion="no-preference" if motion else "reduce",
            has_touch=touch,
            is_mobile=touch,
        )
        if script:  # runs in every page before the page's own scripts
            self.context.add_init_script(script)
        self.context.set_default_timeout(15_000)
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", self._console)
        self.page.on("websocket", self._watch)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")

    def _watch(self, socket: WebSocket) -> None:
        """Every frame the page sends and gets is a message of the protocol's schema
        (tests/protocol_schema.py): the browser client keeps to it as the server does."""
        socket.on("framesent", lambda payload: self._frame("client", payload))
        socket.on("framereceived", lambda payload: self._frame("server", payload))

    def _frame(self, side: str, payload: str | bytes) -> None:
        try:
            found = problem(side, json.loads(payload))
        except ValueError:
            found = f"a {side} frame that is not JSON: {payload!r:.100}"
        if found is not None:
            self.problems.append(found)

    def hold_seat(self, table_id: str, seat: int, token: str, name: str) -> None:
        """Keeps a seat's token in this browser's localStorage, as the lobby does."""
        value = f'{{"seat": {seat}, "token": "{token}", "name": "{name}"}}'
        self.context.add_init_script(f"localStorage.setItem('diabolo.seat.{table_id}', '{value}')")

    def open_table(self, server: Running, table_id: str) -> None:
        self.page.goto(f"{server.url}/client/table.html?table={table_id}")
        self.page.wait_for_function("() => window.diabolo && window.diabolo.welcomes > 0 && window.diabolo.view")

    def state(self) -> dict[str, Any]:
        """What the page knows: version, legal moves, whether it shows the game's end, its view."""
        state: dict[str, Any] = self.page.evaluate(
            "() => ({version: diabolo.version, legal: diabolo.legal, over: diabolo.over, view: diabolo.view,"
            " sent: diabolo.sent, hints: diabolo.hints})"
        )
        return state

    def wait_for_change(self, version: int, timeout: float = 10_000) -> None:
        """Until the table moves on from ``version`` or the game ends (or the timeout)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        try:
            self.page.wait_for_function(
                "(v) => diabolo.version !== v || diabolo.over", arg=version, timeout=timeout, polling=20
            )
        except PlaywrightTimeoutError:
            pass

    def wait_for_answers(self) -> None:
        """Until every move the page sent has been accepted or rejected."""
        self.page.wait_for_function(
            "() => diabolo.accepted + diabolo.rejected.length + diabolo.unanswered >= diabolo.sent || diabolo.over",
            polling=10,
        )

    def close(self) -> None:
        problems = list(self.problems)
        self.context.close()
        assert problems == [], problems


@pytest.fixture
def people(browser: Browser) -> Iterator[Callable[..., Person]]:
    """Makes people (browser contexts at a screen size, with motion or not, with a script
    run before each page's own, on a touch screen or not); each is closed at the end, and
    must have had no page error and no console error."""
    made: list[Person] = []

    def make(viewport: ViewportSize = DESKTOP, motion: bool = False, script: str = "", touch: bool = False) -> Person:
        made.append(Person(browser, viewport, motion, script, touch))
        return made[-1]

    yield make
    for person in made:
        person.close()


def sit(server: Running, person: Person, table_id: str, seat: int, name: str) -> None:
    taken, token = server.sit(table_id, name, seat)
    assert taken == seat
    person.hold_seat(table_id, seat, token, name)


def too_wide(page: Page) -> dict[str, Any]:
    """The page's width and scroll width, and the elements that reach past the screen's edges."""
    found: dict[str, Any] = page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            const wide = [];
            for (const element of document.querySelectorAll("body *")) {
                const box = element.getBoundingClientRect();
                if (box.width && (box.right > width + 0.5 || box.left < -0.5)) {
                    const where = `${Math.round(box.left)}..${Math.round(box.right)}`;
                    wide.push(`${element.tagName}.${element.className} ${where}`);
                }
            }
            return {width, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 8)};
        }"""
    )
    return found


def check_fits(page: Page) -> None:
    """At phone width nothing is wider than the screen, and the page does not scroll sideways."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    found = too_wide(page)
    assert found["width"] == PHONE["width"], found
    assert found["scroll"] <= PHONE["width"] and found["wide"] == [], found


def check_the_end(person: Person, server: Running, table_id: str, seat: int | None) -> diabolo.Record:
    """The page shows the game's end with the record's scores, and its model's view is the
    engine's view of the last state for that seat (or spectators)."""
    final = person.page.wait_for_selector("#final", timeout=30_000)
    assert final is not None
    record = diabolo.Record.load(server.http.get(f"/api/tables/{table_id}/record").text)
    assert record.result is not None and record.state is not None
    assert final.get_attribute("data-scores") == " ".join(map(str, record.result["scores"]))
    assert final.get_attribute("data-winners") == " ".join(map(str, record.result["winners"]))
    shown = [int(text) for text in person.page.locator("#seats .score").all_inner_texts()]
    assert shown == record.result["scores"]
    truth = record.state.public_observation() if seat is None else record.state.observation(seat)
    truth.pop("legal", None)
    truth.pop("legal_moves", None)
    assert person.page.evaluate("() => diabolo.view") == truth
    return record
