"""How the browser client looks, in headless Chromium against a real server on loopback:
a person plays each game against quick bots, and at a few moments (play under way, a
round's summary shown, the game's end) the table page is looked at 1280x900 (desktop)
and 375x740 (phone): no horizontal scroll, nothing wider than the screen, and no two
visible elements that carry text or take clicks (labels, buttons, cards, headings)
overlapping unless one holds the other, no text running out of its element. The round
summary must not push the board down. The Schacht page shows no emoji (icons are inline
SVG, drawn the same with any font). No page or console error.

Also: cards fly from where they were to where they go (a FLIP animation with the Web
Animations API) unless the person prefers reduced motion, and the optional sounds are
off until the header's toggle turns them on, which it remembers.

With DIABOLO_SCREENSHOTS=1 each game's table is saved to
docs/_static/client-<game>-desktop.png and client-<game>-phone.png (else into the test's
temporary folder).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from tests.browser_helpers import DESKTOP, PHONE, WIDTHS, Person, people, server, sit  # noqa: E402
from tests.server_helpers import Running  # noqa: E402
from tests.test_server_browser import QUICK_DUVELEN, QUICK_KNIZIA, duvelen_move, knizia_move, schacht_move  # noqa: E402
from tests.wasm_helpers import ROOT  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

__all__ = ["people", "server"]  # the fixtures this module uses

# What the page shows, as a person sees it: the visible elements that carry text of their
# own (the boxes of that text) or take clicks (their boxes), each cut to what its
# scrolling ancestors let show; pairs that overlap by more than 2 px both ways, unless one
# holds the other; anything wider than the screen; text that runs out of its element
# sideways (a card too narrow for its "10"); emoji in the page's text.
LOOK = """() => {
    const INTERACTIVE = "a[href], button, input, select, textarea, summary, [data-move], [data-source],"
        + " [data-pile], [tabindex], .card, svg[role=img]";
    const page = document.documentElement;
    const width = page.clientWidth;
    const everywhere = {left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity};
    const meet = (a, b) => ({left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
        right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom)});
    const clips = new Map();
    const clipOf = (element) => {
        if (!element || element === document.body) return everywhere;
        if (!clips.has(element)) {
            const style = getComputedStyle(element);
            const own = style.overflowX !== "visible" || style.overflowY !== "visible"
                ? element.getBoundingClientRect() : everywhere;
            clips.set(element, meet(clipOf(element.parentElement), own));
        }
        return clips.get(element);
    };
    const name = (element) => {
        let text = element.tagName.toLowerCase() + (element.id ? "#" + element.id : "");
        const classes = (element.getAttribute("class") || "").trim();
        if (classes) text += "." + classes.split(/\\s+/).join(".");
        for (const attribute of element.attributes) {
            if (attribute.name.startsWith("data-")) text += `[${attribute.name}=${attribute.value}]`;
        }
        const words = (element.textContent || element.getAttribute("aria-label") || "").trim().slice(0, 30);
        return words ? `${text} "${words}"` : text;
    };
    const items = [];
    const wide = [];
    const spills = [];
    for (const element of document.body.querySelectorAll("*")) {
        if (!element.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
        const box = element.getBoundingClientRect();
        if (box.width && (box.right > width + 0.5 || box.left < -0.5)) wide.push(name(element));
        // An element's own text is cut by its own overflow (text only for screen readers is
        // cut to nothing), the element by its ancestors'.
        const seen = (rects, clip) => rects.map((rect) => meet(rect, clip))
            .filter((r) => r.right - r.left > 0.5 && r.bottom - r.top > 0.5);
        const texts = [];
        for (const node of element.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE || !node.nodeValue.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            texts.push(...seen([...range.getClientRects()], clipOf(element)));
        }
        if (texts.some((text) => text.left < box.left - 1 || text.right > box.right + 1)) spills.push(name(element));
        const rects = element.matches(INTERACTIVE) ? seen([box], clipOf(element.parentElement)) : texts;
        if (rects.length) items.push({element, rects});
    }
    const overlaps = [];
    items.forEach((a, i) => items.slice(i + 1).forEach((b) => {
        if (a.element.contains(b.element) || b.element.contains(a.element)) return;
        const hit = a.rects.some((ra) => b.rects.some((rb) => {
            const both = meet(ra, rb);
            return both.right - both.left > 2 && both.bottom - both.top > 2;
        }));
        if (hit) overlaps.push(`${name(a.element)} overlaps ${name(b.element)}`);
    }));
    const emoji = document.body.innerText.match(/[\\p{Extended_Pictographic}\\p{Emoji_Presentation}]/gu) || [];
    return {width, scroll: page.scrollWidth, wide: wide.slice(0, 8), spills: spills.slice(0, 8),
        overlaps: overlaps.slice(0, 12), emoji};
}"""


def look(page: Page, moment: str, game: str) -> None:
    """At each width: no horizontal scroll, nothing wider than the screen, no text wider
    than its element, no overlap; no emoji on the Schacht page (it had them)."""
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(100)
        found = page.evaluate(LOOK)
        where = f"{moment} at {width} width"
        assert found["width"] == viewport["width"], (where, found)
        assert found["scroll"] <= viewport["width"] and found["wide"] == [], (where, found)
        assert found["spills"] == [], (where, "text wider than its element", found["spills"])
        assert found["overlaps"] == [], (where, found["overlaps"])
        assert game != "schacht" or found["emoji"] == [], (where, found["emoji"])
    page.set_viewport_size(DESKTOP)


def screenshots(page: Page, game: str, folder: Path) -> None:
    """The table at each width, at the top of the page: into docs/_static with
    DIABOLO_SCREENSHOTS=1, else into `folder`."""
    if os.environ.get("DIABOLO_SCREENSHOTS") == "1":
        folder = ROOT / "docs" / "_static"
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        page.screenshot(path=str(folder / f"client-{game}-{width}.png"))
    page.set_viewport_size(DESKTOP)


def board_top(page: Page) -> float:
    """Where the board begins, from the top of the page."""
    top: float = page.evaluate("() => document.getElementById('board').getBoundingClientRect().top + window.scrollY")
    return top


def look_at_the_round_summary(page: Page, game: str) -> None:
    """The round summary shown: no overlap; at phone width it does not push the board
    down (the board is where it was once the summary is closed), and it closes."""
    look(page, "the round summary", game)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    shown = board_top(page)
    page.click("#round-summary [data-close]")
    page.wait_for_selector("#round-summary", state="detached")
    page.wait_for_timeout(100)
    assert abs(board_top(page) - shown) <= 2, (shown, board_top(page))
    page.set_viewport_size(DESKTOP)


def make_move(person: Person, game: str, rng: random.Random, moves: int) -> bool:
    """A random legal move of the person's through the page, as tests/test_server_browser.py
    makes them; whether it made one."""
    state = person.state()
    legal = state["legal"]
    if not legal or state["over"]:
        return False
    if game == "schacht":
        schacht_move(person.page, rng.choice(legal))
        return True
    if game == "duvelen":
        return duvelen_move(person.page, legal, state["view"], 0, moves, False)
    return knizia_move(person.page, legal, state["hints"], state["view"], 0, rng)


def select_a_card(page: Page, game: str, legal: list[str]) -> bool:
    """Selects a playable card of the person's, as a click does (a selected card is
    raised, and must not cover its label); whether a card is selected."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    if page.locator(".card.selected").count():
        return True
    if not any(move[-1] in "<>" if game == "schacht" else ":" in move for move in legal):
        return False
    playable = page.locator("#hand .card.playable" if game == "schacht" else "[data-source].playable").last
    try:
        # 2 s each: on a loaded machine a click waits a while for the card to be stable
        playable.click(timeout=2_000)  # once the page shows the moves it knows of
        page.locator(".card.selected").first.wait_for(timeout=2_000)  # drawn at the next frame
    except PlaywrightTimeoutError:  # the table changed meanwhile: nothing to select
        return False
    return True


TABLES: dict[str, dict[str, Any]] = {
    "schacht": {
        "options": {"players": 4, "rounds": 2},
        "seats": [{"name": "Ann"}, {"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}],
        "settings": {"bot_pace": 0.05},
    },
    "duvelen": {
        "options": {"players": 3, "rounds": 2, "max_actions": 150},
        "seats": [
            {"name": "Ann"},
            {"bot": "greedy", "options": QUICK_DUVELEN},
            {"bot": "greedy", "options": QUICK_DUVELEN},
        ],
        "settings": {"bot_pace": 0.05},
    },
    "knizia": {
        "options": {"players": 3, "lexicon": "de", "rounds": 2},
        "seats": [{"name": "Ann"}, {"bot": "word", "options": QUICK_KNIZIA}, {"bot": "word", "options": QUICK_KNIZIA}],
        "settings": {"bot_pace": 0.05, "practice": True},
    },
}


@pytest.mark.parametrize("game", ["schacht", "duvelen", "knizia"])
def test_each_game_fits_desktop_and_phone_without_overlap(
    game: str, server: Running, people: Callable[..., Person], tmp_path: Path
) -> None:
    table = server.create(game=game, seed=51, **TABLES[game])
    ann = people()
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    page = ann.page
    rng, moves = random.Random(5), 0
    seen: set[str] = set()  # the moments looked at
    deadline = time.monotonic() + 120
    while not (state := ann.state())["over"]:
        assert time.monotonic() < deadline, f"the game did not end in time; looked at {seen}"
        ready = len(state["view"]["table"]) >= 6 if game == "knizia" else moves >= (4 if game == "schacht" else 3)
        if ready and "play" not in seen and (game == "knizia" or select_a_card(page, game, state["legal"])):
            look(page, "play", game)
            screenshots(page, game, tmp_path)
            page.keyboard.press("Escape")
            seen.add("play")
        if "summary" not in seen and page.locator("#round-summary").count():
            look_at_the_round_summary(page, game)
            seen.add("summary")
        if make_move(ann, game, rng, moves):
            moves += 1
            ann.wait_for_answers()
        else:
            ann.wait_for_change(state["version"], timeout=300)
    page.wait_for_selector("#final")
    look(page, "the game's end", game)
    assert page.locator("#final").is_visible()
    assert seen == {"play", "summary"}, seen


# ---- motion and sound -------------------------------------------------------------------

# Every animation the page runs from now on, as "<id or CSS animation name> <row><side>"
# (the Schacht row and side of its element, if any), seen once per frame.
WATCH_ANIMATIONS = """() => {
    window.animationsSeen = new Set();
    const watch = () => {
        for (const animation of document.getAnimations()) {
            const target = animation.effect && animation.effect.target;
            const row = target && target.closest("[data-row]");
            const side = target && target.closest("[data-side]");
            const where = row && side ? row.dataset.row + side.dataset.side : "";
            window.animationsSeen.add(`${animation.id || animation.animationName} ${where}`);
        }
        requestAnimationFrame(watch);
    };
    watch();
}"""


def schacht_table(server: Running, person: Person) -> str:
    """A Schacht table of the person (seat 0) and two bots, open on the person's page."""
    table = server.create(
        game="schacht",
        options={"players": 3, "rounds": 1},
        seats=[{"name": "Ann"}, {"bot": "heuristic"}, {"bot": "random"}],
        settings={"bot_pace": 0.05},
        seed=61,
    )
    sit(server, person, table["id"], 0, "Ann")
    person.open_table(server, table["id"])
    table_id: str = table["id"]
    return table_id


def placement(person: Person) -> str:
    """Waits for the person's turn; a move of theirs that places a card."""
    person.page.wait_for_function("() => diabolo.legal.some((move) => /^[RYGPB][1-5][<>]$/.test(move))")
    move: str = next(move for move in person.state()["legal"] if move[-1] in "<>")
    return move


@pytest.mark.parametrize("motion", [True, False])
def test_a_card_placed_flies_to_its_row_unless_the_person_prefers_less_motion(
    motion: bool, server: Running, people: Callable[..., Person]
) -> None:
    ann = people(motion=motion)
    schacht_table(server, ann)
    move = placement(ann)
    row, side = move[0], "left" if move[-1] == "<" else "right"
    cards = f'.rows [data-row="{row}"] [data-side="{side}"] .card'
    before = ann.page.locator(cards).count()
    ann.page.evaluate(WATCH_ANIMATIONS)
    schacht_move(ann.page, move)
    if motion:  # the card flies from the hand to its row (motion.mjs), as the move's events come
        ann.page.wait_for_function("(where) => animationsSeen.has(`flight ${where}`)", arg=row + side, polling=20)
    else:  # the card is in its row, and nothing ever moved
        ann.page.wait_for_function(
            "([cards, before]) => document.querySelectorAll(cards).length > before", arg=[cards, before]
        )
        ann.page.wait_for_timeout(400)
        assert ann.page.evaluate("() => [...animationsSeen]") == []


# Counts the AudioContexts the page makes: none may be made before sound is turned on.
COUNT_AUDIO = """window.audioContextsMade = 0;
window.AudioContext = class extends window.AudioContext {
    constructor(...options) { super(...options); window.audioContextsMade += 1; }
};"""


def test_sounds_are_off_until_the_header_button_turns_them_on_and_remembers_it(
    server: Running, people: Callable[..., Person]
) -> None:
    ann = people()
    ann.context.add_init_script(COUNT_AUDIO)
    schacht_table(server, ann)
    page = ann.page
    sound = page.locator("#sound")
    asked = "() => ({...window.diaboloSounds, made: audioContextsMade, stored: localStorage.getItem('diabolo.sound')})"
    schacht_move(page, placement(ann))
    ann.wait_for_answers()
    placement(ann)  # the person's turn came again, in silence: no sound asked for, no audio made
    assert sound.get_attribute("aria-pressed") == "false"
    assert page.evaluate(asked) == {"turn": 0, "score": 0, "lost": 0, "made": 0, "stored": None}

    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    assert page.evaluate(asked)["made"] == 1 and page.evaluate(asked)["stored"] == "on"
    schacht_move(page, placement(ann))
    ann.wait_for_answers()
    page.wait_for_function("() => window.diaboloSounds.turn >= 1")  # the turn came back, with its sound

    page.reload()  # remembered; the audio waits for a gesture of the person's
    page.wait_for_function("() => window.diabolo && window.diabolo.welcomes > 0")
    assert sound.get_attribute("aria-pressed") == "true" and page.evaluate(asked)["made"] == 0
    sound.click()
    assert sound.get_attribute("aria-pressed") == "false" and page.evaluate(asked)["stored"] == "off"


# ---- a phone on your turn ---------------------------------------------------------------

PHONE_SCREEN: ViewportSize = {"width": 375, "height": 667}
"""A small phone's screen (iPhone SE): what a person sees without scrolling."""

# What must be on screen on a person's turn, by game: the cards they play from (Schacht's
# hand, Duvelen's piles and cards), or the table's cards and the word field (Knizia).
ON_TURN = {"schacht": ["#status", "#hand"], "duvelen": ["#status", ".mine"], "knizia": ["#status", "#line", "#word"]}

# The boxes of the selectors, relative to the screen, with the page at its top.
BOXES = """(selectors) => {
    window.scrollTo(0, 0);
    return selectors.map((selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return {selector, top: box.top, bottom: box.bottom, height: innerHeight};
    });
}"""


@pytest.mark.parametrize("game", ["schacht", "duvelen", "knizia"])
def test_on_a_phone_the_turn_is_on_screen_without_scrolling(
    game: str, server: Running, people: Callable[..., Person]
) -> None:
    """At 375x667 on a touch screen, once it is the person's turn, the status and what they
    play from are on the screen with the page at its top: no scroll on every turn; and the
    page offers no keys (no "(T)", "(Space)", "Tab to") to a finger."""
    table = server.create(game=game, seed=52, **TABLES[game])
    ann = people(PHONE_SCREEN, touch=True)
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    ann.page.wait_for_function("() => diabolo.legal.length > 0 && !diabolo.over")
    while game == "knizia" and len(ann.state()["view"]["table"]) < 6:  # cards out, words to call
        if "reveal" in (state := ann.state())["legal"]:  # Ann deals
            ann.page.click('[data-move="reveal"]')
        ann.wait_for_change(state["version"])
    boxes = ann.page.evaluate(BOXES, ON_TURN[game])
    assert all(0 <= box["top"] and box["bottom"] <= box["height"] for box in boxes), boxes
    board = ann.page.inner_text("#board")
    assert not re.search(r"\((T|R|E|X|P|Space)\)|Tab to", board), board
