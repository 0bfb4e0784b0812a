"""Regenerates the pictures of the rules pages (python/diabolo/server/client/rules.html)
from the real browser client: python/diabolo/server/client/img/*.png.

Run from the repository root, after a change to the client's looks::

    /work/venv/bin/python tools/rules_pictures.py

It starts a real server on loopback that serves this working tree's client (not the
installed one), makes a table per game with a person's seat and bots, opens the table page
in Debian's Chromium through Playwright (tests/tool_helpers.py), plays the person's moves
as a person does (clicks, keys, typing) and photographs elements of the page at telling
moments. It needs what the browser tests need, the server extra, playwright and Debian's
chromium (tests/tool_helpers.py names how to install them), and Pillow (all but chromium
come with the test extra).

The pictures come out the same from run to run as long as the client looks the same (and
the machine has the same fonts): the tables are seeded, the person's moves are chosen by
fixed rules from what the page offers, the turn-based Schacht bots move at once, and the
real-time bots of Knizia and Duvelen are given slow reactions (PATIENT), so that none of
them acts before the script has taken its pictures; their seats are still there, as at a
real table. Should a busy machine let such a bot move first, the game's pictures are taken
again at a new table (ATTEMPTS). At the end every picture that rules.html shows must have
been made by this run and stay under LARGEST bytes: the rules pages are read on phones too.
"""

from __future__ import annotations

import io
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tests' helpers: a server on loopback, Debian's Chromium

from PIL import Image  # noqa: E402

import diabolo  # noqa: E402
from tests.browser_helpers import Person  # noqa: E402
from tests.server_helpers import Running, running_server  # noqa: E402
from tests.tool_helpers import chromium  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, ViewportSize

CLIENT = ROOT / "python" / "diabolo" / "server" / "client"
PICTURES = CLIENT / "img"
LARGEST = 60_000
"""Bytes a picture may have at most."""
VIEWPORT: ViewportSize = {"width": 640, "height": 1000}
"""The width of the pictures: as wide as the rules page's text, narrower than a desktop table."""
PATIENT = {"reaction": {"delays": {}, "minimum": 9.5}}
"""A real-time bot that waits 9.5 s before any action (the server allows 10 at most): long
after the script's pictures of the moment on any machine that is not very busy."""
ATTEMPTS = 3
"""Tables a real-time game's pictures are tried at, should a busy machine let a bot move first."""


def main() -> None:
    """Takes every picture, then checks the pictures that rules.html shows: each one made
    by this run and small enough, and no other picture left in the folder."""
    PICTURES.mkdir(exist_ok=True)
    started = time.time()
    with tempfile.TemporaryDirectory() as folder:
        with running_server(f"sqlite:///{folder}/tables.db", client=CLIENT) as server, chromium() as browser:
            for take in (schacht, knizia, duvelen):
                for attempt in range(1, ATTEMPTS + 1):
                    try:
                        take(server, browser)
                        break
                    except TooSlow as slow:
                        print(f"{slow} (attempt {attempt} of {ATTEMPTS})")
                else:
                    raise SystemExit(f"{take.__name__}: a bot moved too early {ATTEMPTS} times: is the machine busy?")
    shown = sorted(set(re.findall(r'src="img/([^"]+)"', (CLIENT / "rules.html").read_text())))
    problems = [] if shown else ["rules.html shows no picture of img/"]
    for name in shown:
        path = PICTURES / name
        if not path.exists() or path.stat().st_mtime < started:
            problems.append(f"rules.html shows img/{name}, which this script does not make")
            continue
        size = path.stat().st_size
        print(f"{path.relative_to(ROOT)}: {size:,} bytes")
        if size > LARGEST:
            problems.append(f"img/{name} is larger than {LARGEST:,} bytes: crop it, or narrow VIEWPORT")
    unused = sorted({path.name for path in PICTURES.iterdir()} - set(shown))
    if unused:
        problems.append(f"pictures in img/ that rules.html does not show: {', '.join(unused)}")
    if problems:
        raise SystemExit("\n".join(problems))


# ---- the page ------------------------------------------------------------------------


class Seat(Person):
    """A person's seat at a table, in a browser page of its own (the tests' Person: closing
    it fails on any page or console error), with the waits and pictures of this script."""

    def __init__(self, server: Running, browser: Browser, table: dict[str, Any], name: str = "Ann") -> None:
        super().__init__(browser, VIEWPORT)
        seat, token = server.sit(table["id"], name, 0)
        self.hold_seat(table["id"], seat, token, name)  # so that the table page plays seat 0
        self.open_table(server, table["id"])

    def until(self, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Waits, version after version, until the page's state meets ``condition``."""
        while not condition(state := self.state()):
            self.page.wait_for_function("(v) => diabolo.version !== v", arg=state["version"], polling=20)
        return state

    def after(self, version: int) -> dict[str, Any]:
        """The state once the table has moved on from ``version`` and the page drew it."""
        return self.until(lambda state: state["version"] > version)

    def picture(self, name: str, *selectors: str) -> None:
        """A screenshot of the box that holds the page's elements ``selectors``, drawn, with
        the pointer away from them."""
        self.page.mouse.move(0, 0)
        self.page.wait_for_timeout(150)  # the render after the last message
        box: FloatRect = self.page.evaluate(BOX, list(selectors))
        shot = self.page.screenshot(full_page=True, clip=box, animations="disabled", caret="hide")
        # 256 colours look the same on a page of flat colours and text, at a third of the bytes
        Image.open(io.BytesIO(shot)).convert("RGB").quantize(256).save(PICTURES / name, optimize=True)


# ---- the games -----------------------------------------------------------------------


def schacht(server: Running, browser: Browser) -> None:
    """The rows and the hand with a card picked (its row's sides light up), the doubler
    question of a positive colour, and the round's scoring."""
    table = server.create(
        game="schacht",
        options={"players": 3, "rounds": 2},
        seats=[{"name": "Ann"}, {"bot": "heuristic", "name": "Bea (bot)"}, {"bot": "heuristic", "name": "Cas (bot)"}],
        settings={"bot_pace": 0.05},
        seed=2006,
    )
    ann = Seat(server, browser, table)
    placed, picked = 0, False
    while True:
        state = ann.until(lambda state: bool(state["legal"]))
        legal = state["legal"]
        if state["view"]["phase"] == "doubler":
            ann.picture("schacht-doubler.png", "#status", "#doubler")
            ann.page.click('[data-move="bet"]')
            ann.after(state["version"])
            break
        either_side = [move[:2] for move in legal if move.endswith("<") and move[:2] + ">" in legal]
        if placed >= 5 and either_side and not picked:  # the rows have grown: show a card picked
            ann.page.click(f'#hand [data-card="{either_side[0]}"]')
            ann.picture("schacht-turn.png", "#board")
            ann.page.click(f'[data-move="{either_side[0]}<"]')
            picked = True
        else:
            move = legal[placed * 7 % len(legal)]  # varied, and the same each run: the page lists moves in order
            ann.page.click(f'#hand [data-card="{move[1:] if move.startswith("x") else move[:2]}"]')
            ann.page.click(f'[data-move="{move}"]')
        placed += 1
        ann.after(state["version"])
    # the other positive colours: the doubler is spent, nothing to decide; the round's
    # scoring stays on the page until it is closed
    ann.page.wait_for_selector("#round-summary")
    ann.picture("schacht-scoring.png", "#round-summary")
    ann.close()


def knizia(server: Running, browser: Browser) -> None:
    """The letter line after a call: the word and the cards it took."""
    table = server.create(
        game="knizia",
        options={"players": 2, "lexicon": "de", "rounds": 1},
        seats=[{"name": "Ann"}, {"bot": "word", "name": "Bea (bot)", "options": PATIENT}],
        seed=1999,
    )
    ann = Seat(server, browser, table)
    lexicon = diabolo.Lexicon.load("de")
    state = ann.until(lambda state: "reveal" in state["legal"])  # seat 0 deals the first round
    while len(state["view"]["table"]) < 9:
        ann.page.keyboard.press(" ")  # the dealer's key
        state = ann.after(state["version"])
    found = diabolo.knizia.find_words(state["view"]["table"], lexicon, 3)
    word = min((match.word for match in found), key=lambda word: (-len(word), word))  # the longest
    ann.page.keyboard.type(word.lower())  # typing anywhere goes to the word box
    ann.page.keyboard.press("Enter")
    ann.until(lambda state: bool(state["view"]["last_call"]))
    ann.picture("knizia-call.png", "#board")
    ann.close()
    check_alone(server, table)


def duvelen(server: Running, browser: Browser) -> None:
    """Your cards and the piles in the centre, a card picked and the pile it fits lit up.
    This seed deals seat 0 a Stok 3 that fits a pile after five moves."""
    table = server.create(
        game="duvelen",
        options={"players": 2},
        seats=[{"name": "Ann"}, {"bot": "greedy", "name": "Bea (bot)", "options": PATIENT}],
        seed=434,
    )
    ann = Seat(server, browser, table)
    state = ann.state()
    for _ in range(30):
        plays = [move for move in state["legal"] if ":" in move]
        onto_pile = [move for move in plays if not move.endswith(">new")]
        piles = state["view"]["piles"]
        if len(piles) >= 3 and max(pile["top"] for pile in piles) >= 2 and onto_pile:
            break
        if plays:
            ann.page.keyboard.press(KEYS[plays[0].split(":")[0]])  # the first play the page lists
        else:
            ann.page.keyboard.press("t")  # turn three cards, or recycle
        state = ann.after(state["version"])
    else:
        raise SystemExit("duvelen: no card fits a pile after 30 moves: choose another seed")
    ann.page.click(f'[data-source="{onto_pile[0].split(":")[0]}"]')
    ann.picture("duvelen-table.png", "#status", "#board .mine")
    ann.close()
    check_alone(server, table)


class TooSlow(Exception):
    """A patient bot moved before the pictures were taken: the machine was slow."""


def check_alone(server: Running, table: dict[str, Any]) -> None:
    """Raises TooSlow if another seat than the person's has moved at ``table``."""
    record = diabolo.Record.load(server.http.get(f"/api/tables/{table['id']}/record").text)
    if any(step.seat != 0 for step in record.moves):
        raise TooSlow(f"a bot moved at the {table['game']} table before its pictures were taken")


BOX = """(selectors) => {
    const boxes = selectors.map((selector) => {
        const element = document.querySelector(selector);
        if (!element) throw new Error(`no ${selector} on the page`);
        return element.getBoundingClientRect();
    });
    const left = Math.min(...boxes.map((b) => b.left)) - 4, top = Math.min(...boxes.map((b) => b.top)) - 4;
    const right = Math.max(...boxes.map((b) => b.right)) + 4, bottom = Math.max(...boxes.map((b) => b.bottom)) + 4;
    return {x: left + scrollX, y: top + scrollY, width: right - left, height: bottom - top};
}"""
"""The box, in the page's coordinates, that holds the elements of some selectors, with a margin."""

KEYS = {"S": "s", "W": "w", "R1": "1", "R2": "2", "R3": "3", "R4": "4"}
"""Duvelen's keys for a card play (duvelen.mjs KEYS): the source's card on its first pile."""


if __name__ == "__main__":
    main()
