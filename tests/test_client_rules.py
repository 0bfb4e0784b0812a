"""The rules pages of the browser client (python/diabolo/server/client/rules.html), in
headless Chromium driven by Playwright against a real server on loopback
(tests/server_helpers.py).

For each game, ``rules.html?game=<game>`` loads at desktop (1280x900) and phone width
(375x740) with no page error and no console error (a picture that does not load is one);
its h1 and the page's title name the game as the engine's catalogue does; it shows the
sections every rules page has, as h2 headings in order, and no other game's rules; it
cites at least eight distinct clauses of the game, each one a clause of the game's
numbered rules; every picture it shows has loaded and has an alt text; and at phone width
nothing is wider than the screen. ``rules.html`` without a game, or with an unknown one,
lists the three games with links that open their rules. The rules live in each game's
client folder (games/<game>/rules.html) and the list is read from /api/games.

The tests need Debian's chromium and the playwright package (its own browser download is
not used); without them they skip, or fail under CI=true, naming what to install.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import diabolo  # noqa: E402
from tests.browser_helpers import DESKTOP, PHONE, Person, people, server, too_wide  # noqa: E402
from tests.server_helpers import Running  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["people", "server"]  # the fixtures this module uses
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


def open_page(person: Person, server: Running, address: str) -> None:
    """Opens a page of the client and waits until it and the pictures it shows have loaded:
    they load lazily, so each is scrolled into view as a reader would, then the page goes
    back to its top."""
    person.page.goto(f"{server.url}/client/{address}", wait_until="load")
    # rules.mjs fetches the catalogue and the rules after the page's load
    person.page.wait_for_selector("#rules article, #games:not([hidden])", state="attached")
    person.page.evaluate(
        """async () => {
            for (const img of [...document.querySelectorAll("main img")].filter((img) => img.checkVisibility())) {
                img.scrollIntoView();
                await new Promise((done) => {
                    if (img.complete) return done();
                    img.addEventListener("load", done);
                    img.addEventListener("error", done);
                });
            }
            window.scrollTo(0, 0);
        }"""
    )


def shown(page: Page) -> dict[str, Any]:
    """What the page shows (visible elements only): its title, headings, text, pictures and links."""
    found: dict[str, Any] = page.evaluate(
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
                    src: img.getAttribute("src"), alt: img.getAttribute("alt"), lazy: img.loading === "lazy",
                    loaded: img.complete && img.naturalWidth > 0,
                })),
                links: [...document.querySelectorAll("main a")].filter(visible).map((a) => a.getAttribute("href")),
            };
        }"""
    )
    return found


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_rules_page_explains_its_game_with_clauses_and_pictures(
    server: Running, people: Callable[..., Person], game: str, viewport: ViewportSize
) -> None:
    title = next(entry.title for entry in diabolo.catalogue() if entry.name == game)
    person = people(viewport)
    open_page(person, server, f"rules.html?game={game}")
    seen = shown(person.page)

    assert len(seen["h1"]) == 1 and title in seen["h1"][0], seen["h1"]
    assert title in seen["title"], seen["title"]
    assert seen["h2"] == SECTIONS, seen["h2"]
    others = [entry.title for entry in diabolo.catalogue() if entry.name in GAMES and entry.name != game]
    assert not any(f"How to play {other}" in seen["text"] for other in others)

    cited = clauses(game, seen["text"])
    known = clauses(game, numbered_rules(game))
    assert len(known) >= 20, f"the numbered rules of {game} were not found"
    assert cited <= known, f"clauses that {game}'s rules do not have: {sorted(cited - known)}"
    assert len(cited) >= LEAST_CLAUSES, sorted(cited)
    for other in GAMES.keys() - {game}:  # no clause of another game
        assert not clauses(other, seen["text"]), (other, sorted(clauses(other, seen["text"])))

    assert seen["pictures"], "the page shows no picture of the game"
    for picture in seen["pictures"]:
        assert picture["loaded"], f"{picture['src']} did not load"
        assert picture["lazy"], f"{picture['src']} loads with the page: pictures load as they come into view"
        assert picture["alt"] and len(picture["alt"].split()) >= 5, (
            f"{picture['src']} has no alt text that says what it shows"
        )
    assert any(
        link == "/"
        for link in person.page.eval_on_selector_all("header a", "(a) => a.map((e) => e.getAttribute('href'))")
    )

    if viewport == PHONE:
        wide = too_wide(person.page)
        assert wide["width"] == PHONE["width"], wide
        assert wide["scroll"] <= wide["width"] and wide["wide"] == [], wide


@pytest.mark.parametrize("address", ["rules.html", "rules.html?game=chess"], ids=["no game", "unknown game"])
def test_without_a_known_game_the_rules_page_lists_the_three_games(
    server: Running, people: Callable[..., Person], address: str
) -> None:
    person = people(PHONE)
    open_page(person, server, address)
    seen = shown(person.page)
    links = [f"rules.html?game={game}" for game in GAMES]
    assert all(link in seen["links"] for link in links), seen["links"]
    assert "Scoring" not in seen["h2"], "a game's rules are shown without a game asked for"
    wide = too_wide(person.page)
    assert wide["scroll"] <= wide["width"] and wide["wide"] == [], wide
    # a link of the list opens that game's rules
    person.page.click('a[href="rules.html?game=knizia"]')
    person.page.wait_for_url("**/client/rules.html?game=knizia")
    person.page.wait_for_selector("#rules article")
    assert shown(person.page)["h2"] == SECTIONS
    assert "Diabolo (Knizia)" in shown(person.page)["h1"][0]
