"""The server's browser client (python/diabolo/server/client/), in headless Chromium driven
by Playwright against a real server on loopback (tests/server_helpers.py): people click,
drag, press keys and type in the pages as a person would, against the server's bots,
until the page shows the game's end. The page's final scores must be the record's, and
the view its client model kept from events alone (models.mjs) must be the engine's view
for that seat, or spectators', at the end. Also: the lobby (a table made through the
form, a seat taken, a table watched), two people in two browsers, a dropped connection
that resumes, the replay page, models.mjs against the engine after every move of random
games, and phone width (375 px): nothing wider than the screen. Each game is played whole
at both widths (Schacht's second person plays on a phone).

Most pages run with prefers-reduced-motion (the client then animates nothing), so that a
click need not wait for a card's animation to end; the lobby's test runs with motion.

The screenshots in the docs come from tests/test_client_looks.py.

The tests need Debian's chromium and the playwright package (its own browser download is
not used); without them they skip, or fail under CI=true, naming what to install.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from tests.browser_helpers import (  # noqa: E402
    PHONE,
    WIDTHS,
    Person,
    check_fits,
    check_the_end,
    people,
    server,
    sit,
)
from tests.client_models import (
    MODELS,  # noqa: E402
    random_game,  # noqa: E402
)
from tests.server_helpers import Running  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["people", "server"]  # the fixtures this module uses

QUICK_DUVELEN = {
    "reaction": {
        "delays": {"play": [0.04, 0.005], "turn": [0.04, 0.005], "recycle": [0.05, 0.005]},
        "minimum": 0.005,
    }
}
QUICK_KNIZIA = {
    "reaction": {
        "delays": {"reveal": [0.02, 0.005], "claim": [0.2, 0.05], "take": [0.05, 0.01], "pass": [0.1, 0.02]},
        "minimum": 0.005,
    },
    "per_letter": 0.02,
    "coverage": 0.3,
}


# ---- the client models ------------------------------------------------------------------


def test_the_page_models_keep_every_view_of_random_games(server: Running, people: Callable[..., Person]) -> None:
    """models.mjs, in the browser: from the first view and the events alone, every
    audience's model equals the engine's view after every move (as tests/client_models.py)."""
    games = [
        random_game("schacht", {"players": 4, "rounds": 2}, 5),
        random_game("duvelen", {"players": 3, "max_actions": 150}, 6),
        random_game("knizia", {"players": 3, "lexicon": "de", "rounds": 1}, 7),
    ]
    page = people().page
    page.goto(server.url + "/client/replay.html")  # any page of the client: no table given
    mismatches = page.evaluate(
        """async (text) => {
            const games = JSON.parse(text);
            const { gameClient } = await import("/client/games.mjs");
            const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
            const sorted = (value) => Array.isArray(value) ? value.map(sorted)
                : value && typeof value === "object"
                ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])])) : value;
            const wrong = [];
            for (const game of games) {
                const { Model } = await gameClient(game.game);
                const models = game.first.map((view) => new Model(view));
                game.steps.forEach((step, move) => models.forEach((model, a) => {
                    model.apply(step.events[a]);
                    if (!same(model.view, step.views[a])) wrong.push(`${game.game} move ${move} audience ${a}`);
                }));
            }
            return {wrong: wrong.slice(0, 5), moves: games.map((game) => game.steps.length)};
        }""",
        json.dumps(games),  # as text: much quicker to hand over than as objects
    )
    assert mismatches["wrong"] == [] and min(mismatches["moves"]) > 20, mismatches


# ---- Schacht ----------------------------------------------------------------------------


def schacht_move(page: Page, move: str) -> None:
    """A Schacht move as a person makes it: a card of the hand, then a side of its row (or
    Discard); the doubler buttons."""
    if move in ("bet", "hold"):
        page.click(f'[data-move="{move}"]')
        return
    card = move[1:] if move.startswith("x") else move[:2]
    if not page.locator(f'#hand .card.selected[data-card="{card}"]').count():
        page.locator(f'#hand [data-card="{card}"]').first.click()
    page.click(f'[data-move="{move}"]')


def play_schacht(people: list[tuple[Person, int]], rng: random.Random, on_move: Callable[[int], None]) -> int:
    """Each person plays a random legal move whenever their page offers one, until every
    page shows the game's end; on_move(n) after the n-th move. The moves made."""
    moves = 0
    deadline = time.monotonic() + 60
    while True:
        states = [(person, person.state()) for person, _ in people]
        if all(state["over"] for _, state in states):
            return moves
        assert time.monotonic() < deadline, "the game did not end in time"
        acting = [(person, state) for person, state in states if state["legal"] and not state["over"]]
        if not acting:  # a bot's turn, or a page that has not heard of the last move yet
            states[0][0].page.wait_for_timeout(20)
            continue
        person, state = rng.choice(acting)
        schacht_move(person.page, rng.choice(state["legal"]))
        person.wait_for_answers()
        moves += 1
        on_move(moves)


def test_a_person_plays_schacht_against_bots_and_resumes_after_a_drop(
    server: Running, people: Callable[..., Person]
) -> None:
    table = server.create(
        game="schacht",
        options={"players": 3, "rounds": 2},
        seats=[{"name": "Ann"}, {"bot": "heuristic"}, {"bot": "random"}],
        settings={"bot_pace": 0.05},
        seed=21,
    )
    ann = people()
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])

    def on_move(n: int) -> None:
        if n == 3:  # the bots move while the page is away: it resumes with the events it missed
            ann.page.evaluate("() => diabolo.dropConnection()")
            ann.page.wait_for_function("() => diabolo.resumes >= 1 && diabolo.welcomes >= 2")

    made = play_schacht([(ann, 0)], random.Random(1), on_move)
    record = check_the_end(ann, server, table["id"], 0)
    mine = [step.move for step in record.moves if step.seat == 0]
    assert made == len(mine) >= 10
    assert {"bet", "hold"} & set(mine), mine  # the doubler decision, asked on the page
    assert ann.page.evaluate("() => diabolo.resumes") >= 1
    # the round summary and the scoring reveal were shown
    assert ann.page.locator("#final details .scored").count() >= 1
    check_fits(ann.page)


def test_two_people_in_two_browsers_play_schacht_with_a_bot(server: Running, people: Callable[..., Person]) -> None:
    # Rows close until four are closed (S4.1's option): with this deal both people must
    # discard in the first round (S3.3), through the page's Discard button.
    table = server.create(
        game="schacht",
        options={"players": 3, "rounds": 1, "rows_to_end": 4},
        seats=[{"name": "Ann"}, {"name": "Bo"}, {"bot": "heuristic"}],
        settings={"bot_pace": 0.05},
        seed=2,
    )
    ann, bo = people(), people(PHONE)  # Bo plays on a phone
    sit(server, ann, table["id"], 0, "Ann")
    sit(server, bo, table["id"], 1, "Bo")
    ann.open_table(server, table["id"])
    bo.open_table(server, table["id"])
    check_fits(bo.page)
    play_schacht([(ann, 0), (bo, 1)], random.Random(2), lambda n: None)
    record = check_the_end(ann, server, table["id"], 0)
    check_the_end(bo, server, table["id"], 1)
    assert {step.seat for step in record.moves} == {0, 1, 2}
    discards = [(step.seat, step.move) for step in record.moves if str(step.move).startswith("x")]
    assert {seat for seat, _ in discards} >= {0, 1}, discards
    check_fits(bo.page)


# ---- Duvelen ----------------------------------------------------------------------------

KEYS = {"S": "s", "W": "w", "R1": "1", "R2": "2", "R3": "3", "R4": "4"}


def duvelen_move(page: Page, legal: list[str], view: dict[str, Any], seat: int, style: int, double: bool) -> bool:
    """A Duvelen move as a person makes it, in turn by click (card, then pile), drag and
    key (``double``: the key pressed twice, faster than the network: the second press
    plays the card that was there, and loses the race); else turn, recycle, Stop or pass
    (once). Whether it did something."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    plays = [move for move in legal if ":" in move]
    try:
        if plays:
            move = plays[style % len(plays)]
            source, pile = move.split(":")[0], move.split(">")[1]
            card, target = page.locator(f'[data-source="{source}"]'), page.locator(f'[data-pile="{pile}"]')
            if style % 3 == 0:
                if not page.locator(f'[data-source="{source}"].selected').count():
                    card.click(timeout=2_000)
                target.click(timeout=2_000)
            elif style % 3 == 1:
                card.drag_to(target, timeout=2_000)
            elif double:
                sent = page.evaluate(
                    """(key) => {
                        const before = diabolo.sent;
                        for (const n of [1, 2]) document.dispatchEvent(new KeyboardEvent('keydown', {key}));
                        return diabolo.sent - before;
                    }""",
                    KEYS[source],
                )
                if sent != 2:  # another seat's move took the card's play before the keys: look again
                    return False
            else:
                page.keyboard.press(KEYS[source])
        elif "turn" in legal or "recycle" in legal:
            if style % 2:
                page.keyboard.press("t")
            else:
                page.click("[data-draaistok]", timeout=2_000)
        elif "stop" in legal:
            page.keyboard.press("x")
        elif "pass" in legal and not view["seats"][seat]["passed"]:
            page.click('[data-move="pass"]', timeout=2_000)
        else:
            return False
    except PlaywrightTimeoutError:  # the table changed under the pointer: look again
        page.keyboard.press("Escape")
        return False
    return True


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_person_plays_duvelen_against_quick_bots(server: Running, people: Callable[..., Person], width: str) -> None:
    table = server.create(
        game="duvelen",
        options={"players": 2, "max_actions": 300},
        seats=[{"name": "Ann"}, {"bot": "greedy", "options": QUICK_DUVELEN}],
        seed=31,
    )
    ann = people(WIDTHS[width])
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    deadline, moves, doubled = time.monotonic() + 60, 0, False
    played = [0, 0, 0]  # card plays sent by click, drag and key, taken in turn
    while not (state := ann.state())["over"]:
        assert time.monotonic() < deadline, "the game did not end in time"
        plays = any(":" in move for move in state["legal"])
        style = sum(played) if plays else moves
        double = plays and style % 3 == 2 and not doubled
        if duvelen_move(ann.page, state["legal"], state["view"], 0, style, double):
            ann.wait_for_answers()
            moves += 1
            if plays:
                played[style % 3] += ann.state()["sent"] > state["sent"]
            if double:  # the second press lost the race to the first, and the page says so
                doubled = True
                ann.page.wait_for_selector(".notice.stale")
        else:
            ann.wait_for_change(state["version"], timeout=500)
    record = check_the_end(ann, server, table["id"], 0)
    mine = [step.move for step in record.moves if step.seat == 0]
    assert all(played) and sum(":" in str(move) for move in mine) >= 3, (played, mine)
    # other seats' moves were shown as they came; the moves that lost a race were counted
    assert ann.page.locator("#log li").count() > 10
    lost = ann.page.evaluate("() => diabolo.rejected.filter((r) => r.reason === 'stale').length")
    assert doubled and lost >= 1 and ann.page.get_attribute("#races", "data-lost") == str(lost)
    assert ann.page.locator("#keys dt").count() >= 6  # the keys are documented on the page
    check_fits(ann.page)


# ---- Knizia -----------------------------------------------------------------------------


def knizia_move(
    page: Page, legal: list[str], hints: dict[str, Any] | None, view: dict[str, Any], seat: int, rng: random.Random
) -> bool:
    """A Knizia move as a person makes it: a word typed (or picked from the hints the page
    of a practice table offers) and Enter; Reveal as the dealer; a card taken as a
    penalty; Pass once the deck is used up. Whether it did something."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    assert not any(move not in ("reveal", "pass") and not move.startswith("take@") for move in legal), legal
    takes = [move for move in legal if move.startswith("take@")]
    words = hints["words"] if hints else []
    try:
        if takes:
            page.click(f'[data-move="{rng.choice(takes)}"]', timeout=2_000)
        elif words:
            word = max(words, key=len)
            if rng.random() < 0.3:  # one of the words the page offers
                if not page.locator("#hints[open]").count():
                    page.click("#hints summary")
                page.click(f'[data-word="{word}"]', timeout=2_000)
            else:
                page.locator("#word").fill("", timeout=2_000)
                page.locator("#word").press_sequentially(word.lower(), timeout=2_000)
            page.locator("#word").press("Enter", timeout=2_000)
        elif "reveal" in legal:
            if rng.random() < 0.2:
                page.click('[data-move="reveal"]', timeout=2_000)
            else:  # the key, with the focus out of the word box
                page.evaluate("() => document.activeElement && document.activeElement.blur()")
                page.keyboard.press(" ")
        elif view["deck_count"] == 0 and not view["passed"][seat] and "pass" in legal:
            page.click('[data-move="pass"]', timeout=2_000)
        else:
            return False
    except PlaywrightTimeoutError:  # the table changed meanwhile (the game may have ended): look again
        if page.locator("#word").is_enabled(timeout=2_000):  # disabled once the game is over
            page.locator("#word").fill("", timeout=2_000)
        return False
    return True


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_person_plays_knizia_against_a_word_bot(server: Running, people: Callable[..., Person], width: str) -> None:
    table = server.create(
        game="knizia",
        options={"players": 2, "lexicon": "de", "rounds": 2},
        seats=[{"name": "Ann"}, {"bot": "word", "options": QUICK_KNIZIA}],
        settings={"practice": True},
        seed=41,
    )
    ann = people(WIDTHS[width])
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    rng, deadline, made = random.Random(4), time.monotonic() + 60, 0
    while not (state := ann.state())["over"]:
        assert time.monotonic() < deadline, "the game did not end in time"
        if knizia_move(ann.page, state["legal"], state["hints"], state["view"], 0, rng):
            made += 1
            ann.wait_for_answers()
            ann.wait_for_change(state["version"], timeout=1_000)
        else:
            ann.wait_for_change(state["version"], timeout=500)
    record = check_the_end(ann, server, table["id"], 0)
    mine = [step.move for step in record.moves if step.seat == 0]
    claims = [move for move in mine if move not in ("reveal", "pass") and not str(move).startswith("take@")]
    assert mine.count("reveal") >= 30 and len(claims) >= 3, mine  # seat 0 dealt round 0
    assert any(step.seat == 1 and step.move == "reveal" for step in record.moves)  # the bot dealt round 1
    check_fits(ann.page)


# ---- the lobby, spectators and replays --------------------------------------------------


def watch_from_lobby(page: Page, server: Running, table: str) -> None:
    """Opens the lobby, clicks Watch on `table` and waits for the spectator's first view."""
    page.goto(server.url + "/")
    page.click(f'[data-table="{table}"] [data-action="watch"]')
    page.wait_for_function("() => window.diabolo && diabolo.welcomes > 0 && diabolo.view")
    assert page.evaluate("() => diabolo.seat") is None


def test_the_lobby_makes_tables_seats_people_and_spectators_watch_and_replay(
    server: Running, people: Callable[..., Person]
) -> None:
    ann, watcher = people(motion=True), people(motion=True)
    lobby = ann.page
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("body[data-ready]")
    # a table with a person and two bots, through the form: Ann sits down
    lobby.fill("#name", "Ann Lobby")
    lobby.select_option("#game", "schacht")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    lobby.select_option('[data-seat-kind="0"]', "person")
    lobby.select_option('[data-seat-kind="1"]', "bot:heuristic")
    lobby.select_option('[data-seat-kind="2"]', "bot:random")
    lobby.fill("#rounds", "1")
    lobby.fill("#turn-seconds", "30")
    lobby.fill("#bot-pace", "0.05")
    lobby.click("#create")
    lobby.wait_for_url("**/client/table.html?table=*")
    lobby.wait_for_function("() => window.diabolo && diabolo.welcomes > 0 && diabolo.view")
    assert lobby.evaluate("() => diabolo.seat") == 0
    seated = lobby.evaluate("() => new URLSearchParams(location.search).get('table')")
    listed = {t["id"]: t for t in server.http.get("/api/tables").json()["tables"]}
    assert listed[seated]["seats"][0] == {
        "name": "Ann Lobby",
        "bot": None,
        "level": None,
        "taken": True,
        "reserved": False,
    }
    assert listed[seated]["settings"] == {"turn_seconds": 30, "bot_pace": 0.05, "practice": False}
    assert listed[seated]["options"] == {"players": 3, "rounds": 1}
    lobby.wait_for_function("() => diabolo.legal.length > 0")  # seat 1 began (S2.2); now Ann
    assert lobby.locator("#hand .card.playable").count() >= 1
    lobby.wait_for_selector("#status:has-text('s left')")  # her turn timer runs

    # three bots, through the form, without sitting: someone else watches it to the end
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("body[data-ready]")
    lobby.wait_for_selector(f'[data-table="{seated}"] [data-action="open"]')  # the lobby knows Ann's seat
    lobby.select_option("#game", "schacht")  # first: the form shows the fields of the game chosen
    lobby.fill("#rounds", "1")
    lobby.fill("#bot-pace", "0.05")
    lobby.uncheck("#sit")
    lobby.fill("#players", "3")
    lobby.select_option('[data-seat-kind="1"]', "bot:random")
    lobby.select_option('[data-seat-kind="2"]', "bot:heuristic")
    lobby.select_option('[data-seat-kind="0"]', "bot:heuristic")
    ids = {t["id"] for t in server.http.get("/api/tables").json()["tables"]}
    lobby.click("#create")
    lobby.wait_for_function(
        "(known) => [...document.querySelectorAll('[data-table]')].some((e) => !known.includes(e.dataset.table))",
        arg=sorted(ids),
    )
    bots = next(t["id"] for t in server.http.get("/api/tables").json()["tables"] if t["id"] not in ids)
    watch_from_lobby(watcher.page, server, bots)
    assert "hand" not in watcher.page.evaluate("() => diabolo.view")
    record = check_the_end(watcher, server, bots, None)
    check_fits(watcher.page)

    # Ann's table is watched too, while she plays
    watch_from_lobby(watcher.page, server, seated)

    # the replay of the finished game, opened from the lobby, steps through the moves
    watcher.page.goto(server.url + "/")
    watcher.page.click(f'[data-table="{bots}"] [data-action="replay"]')
    replay = watcher.page
    replay.wait_for_function("() => window.diabolo && diabolo.ready")
    public = record.redacted(None)
    assert replay.evaluate("() => diabolo.steps") == len(public.moves)
    model = MODELS["schacht"](public.view or {})
    assert replay.evaluate("() => diabolo.view") == model.view
    for _ in range(3):
        replay.click("#forward")
    replay.click("#back")
    replay.wait_for_selector('#position[data-step="2"]')
    for step in public.moves[:2]:
        model.apply(list(step.events or ()))
    assert replay.evaluate("() => diabolo.view") == model.view
    assert replay.locator("#moves li.current").get_attribute("data-step") == "2"
    replay.click("#last")
    replay.wait_for_selector("#final")
    assert replay.get_attribute("#final", "data-scores") == " ".join(map(str, record.state.scores))  # type: ignore[union-attr]
    truth = record.state.public_observation()  # type: ignore[union-attr]
    assert replay.evaluate("() => diabolo.view") == truth
    check_fits(replay)
    check_fits(lobby)
    # the server gives the public record of a finished game on request, for replays
    assert server.http.get(f"/api/tables/{bots}/record?audience=public").text == public.dump()
    # a table that is not running: the page says so, and offers its replay
    watcher.page.goto(f"{server.url}/client/table.html?table=none")
    watcher.page.wait_for_selector("#error a[href*='replay.html?table=none']")
