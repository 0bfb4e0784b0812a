"""The rules pages of the browser client (python/diabolo/server/client/rules.html), in
headless Chromium driven by Playwright against a real server on loopback
(tests/server_helpers.py).

For each game, ``rules.html?game=<game>`` loads at desktop (1280x900) and phone width
(390x844) with no page error and no console error (a picture that does not load is one);
its h1 and the page's title name the game as the engine's catalogue does; it shows the
sections every rules page has, as h2 headings in order, and no other game's rules; it
cites at least eight distinct clauses of the game, each one a clause of the game's
numbered rules; every picture it shows has loaded and has an alt text; and at phone width
nothing is wider than the screen. ``rules.html`` without a game, or with an unknown one,
lists the three games with links that open their rules.

The tests need Debian's chromium and the playwright package (its own browser download is
not used); without them they skip, or fail under CI=true, naming what to install.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import diabolo  # noqa: E402
from tests.server_helpers import Running, running_server  # noqa: E402
from tests.tool_helpers import chromium, require_browser  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page, ViewportSize

ROOT = Path(__file__).resolve().parent.parent
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
GAMES = {"schacht": "S", "knizia": "K", "duvelen": "D"}
"""The games with rules pages, and the letter their clauses are numbered with (S3.2)."""
SECTIONS = [
    "What the game is",
    "The cards",
    "How a round goes",
    "How to play on this site",
    "Scoring",
    "How the game ends",
    "Tips for a first game",
]
"""The h2 headings of every game's rules page, in order."""
LEAST_CLAUSES = 8
"""Distinct clauses a rules page cites at least."""


def numbered_rules(game: str) -> str:
    """The text of the game's numbered rules: the rules specification where this machine
    keeps it, else the game's documentation page, which restates every clause."""
    specification = Path("/work/shared/rules") / f"{game}.md"
    return (specification if specification.exists() else ROOT / "docs" / "games" / f"{game}.rst").read_text()


def clauses(game: str, text: str) -> set[str]:
    """The clause ids of ``game`` (``S3.2``) that ``text`` names."""
    return set(re.findall(rf"\b{GAMES[game]}\d+\.\d+\b", text))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for the module's tests."""
    require_browser("the rules pages' tests")
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A server for the module's tests; it serves the client that the package carries."""
    with running_server(f"sqlite:///{tmp_path_factory.mktemp('server') / 'tables.db'}") as running:
        yield running


class Reader:
    """A browser context with one page, at one screen size, and what went wrong in it."""

    def __init__(self, browser: Browser, viewport: ViewportSize) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(15_000)
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")

    def open(self, server: Running, address: str) -> None:
        """Opens a page of the client and waits until it and its pictures have loaded."""
        self.page.goto(f"{server.url}/client/{address}", wait_until="load")

    def shown(self) -> dict[str, Any]:
        """What the page shows (visible elements only): its title, headings, text, pictures and links."""
        found: dict[str, Any] = self.page.evaluate(
            """() => {
                const visible = (element) => element.checkVisibility();
                const texts = (selector) => [...document.querySelectorAll(selector)].filter(visible)
                    .map((element) => element.textContent.replace(/\\s+/g, " ").trim());
                return {
                    title: document.title,
                    h1: texts("h1"),
                    h2: texts("main h2"),
                    text: document.querySelector("main").innerText,
                    pictures: [...document.querySelectorAll("main img")].filter(visible).map((img) => ({
                        src: img.getAttribute("src"), alt: img.getAttribute("alt"),
                        loaded: img.complete && img.naturalWidth > 0,
                    })),
                    links: [...document.querySelectorAll("main a")].filter(visible).map((a) => a.getAttribute("href")),
                };
            }"""
        )
        return found

    def too_wide(self) -> dict[str, Any]:
        """The page's width and scroll width, and the visible elements that reach past the screen's edges."""
        found: dict[str, Any] = self.page.evaluate(
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

    def close(self) -> None:
        problems = list(self.problems)
        self.context.close()
        assert problems == [], problems


@pytest.fixture
def reader(browser: Browser) -> Iterator[Callable[[ViewportSize], Reader]]:
    """Makes readers (browser contexts at a screen size); each must have had no page error
    and no console error when it is closed at the end."""
    made: list[Reader] = []

    def make(viewport: ViewportSize) -> Reader:
        made.append(Reader(browser, viewport))
        return made[-1]

    yield make
    for each in made:
        each.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_rules_page_explains_its_game_with_clauses_and_pictures(
    server: Running, reader: Callable[[ViewportSize], Reader], game: str, viewport: ViewportSize
) -> None:
    title = next(entry.title for entry in diabolo.catalogue() if entry.name == game)
    person = reader(viewport)
    person.open(server, f"rules.html?game={game}")
    shown = person.shown()

    assert len(shown["h1"]) == 1 and title in shown["h1"][0], shown["h1"]
    assert title in shown["title"], shown["title"]
    assert shown["h2"] == SECTIONS, shown["h2"]
    others = [entry.title for entry in diabolo.catalogue() if entry.name in GAMES and entry.name != game]
    assert not any(f"How to play {other}" in shown["text"] for other in others)

    cited = clauses(game, shown["text"])
    known = clauses(game, numbered_rules(game))
    assert len(known) >= 20, f"the numbered rules of {game} were not found"
    assert cited <= known, f"clauses that {game}'s rules do not have: {sorted(cited - known)}"
    assert len(cited) >= LEAST_CLAUSES, sorted(cited)
    for other in GAMES.keys() - {game}:  # no clause of another game
        assert not clauses(other, shown["text"]), (other, sorted(clauses(other, shown["text"])))

    assert shown["pictures"], "the page shows no picture of the game"
    for picture in shown["pictures"]:
        assert picture["loaded"], f"{picture['src']} did not load"
        assert picture["alt"] and len(picture["alt"].split()) >= 5, (
            f"{picture['src']} has no alt text that says what it shows"
        )
    assert any(
        link == "/"
        for link in person.page.eval_on_selector_all("header a", "(a) => a.map((e) => e.getAttribute('href'))")
    )

    if viewport == PHONE:
        wide = person.too_wide()
        assert wide["width"] == PHONE["width"], wide
        assert wide["scroll"] <= wide["width"] and wide["wide"] == [], wide


@pytest.mark.parametrize("address", ["rules.html", "rules.html?game=chess"], ids=["no game", "unknown game"])
def test_without_a_known_game_the_rules_page_lists_the_three_games(
    server: Running, reader: Callable[[ViewportSize], Reader], address: str
) -> None:
    person = reader(PHONE)
    person.open(server, address)
    shown = person.shown()
    links = [f"rules.html?game={game}" for game in GAMES]
    assert all(link in shown["links"] for link in links), shown["links"]
    assert "Scoring" not in shown["h2"], "a game's rules are shown without a game asked for"
    wide = person.too_wide()
    assert wide["scroll"] <= wide["width"] and wide["wide"] == [], wide
    # a link of the list opens that game's rules
    person.page.click('a[href="rules.html?game=knizia"]')
    person.page.wait_for_url("**/client/rules.html?game=knizia")
    assert person.shown()["h2"] == SECTIONS
    assert "Diabolo (Knizia)" in person.shown()["h1"][0]
