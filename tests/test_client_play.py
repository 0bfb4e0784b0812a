"""The browser client beyond the moves themselves (python/diabolo/server/client/): a whole
game of Schacht and a round each of Knizia and Duvelen played with the keyboard alone
(Tab, Enter, Space, Esc and the game's keys; no mouse); the score table by round against
the record, on a page that watched from the start and on one opened after the first
round; the best moments at the game's end; refused moves explained in plain words that
name the rule; every button and link named for screen readers, with the live regions in
place; Duvelen's Pass disabled while a pass stands.

In headless Chromium driven by Playwright against a real server on loopback, as
tests/test_server_browser.py (whose Person and helpers these tests share); every page
must end with no console error and no page error.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

import diabolo  # noqa: E402
from tests.browser_helpers import Person, check_the_end, people, server, sit  # noqa: E402
from tests.server_helpers import Running, receive  # noqa: E402
from tests.test_server_browser import QUICK_DUVELEN, QUICK_KNIZIA  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page
    from websockets.sync.client import ClientConnection

# The page's websockets, kept where a test can reach them: a move sent on the page's own
# socket comes back refused to the page, as one of its own would.
KEEP_SOCKETS = """
window.__sockets = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
  }
};
"""

__all__ = ["people", "server"]  # the fixtures this module uses

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "P": "purple", "B": "blue"}


@pytest.fixture
def people_with_sockets(people: Callable[..., Person]) -> Callable[[], Person]:
    """Makes people whose pages keep their websockets where a test can reach them (KEEP_SOCKETS)."""
    return lambda: people(script=KEEP_SOCKETS)


# ---- what the tests share ---------------------------------------------------------------


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Presses Tab until the focus is on an element that matches `selector`."""
    for _ in range(limit):
        if page.evaluate("(s) => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def check_accessible(page: Page) -> None:
    """Every button and link of the page has a name in its accessibility tree; the status
    line and the log are polite live regions; the seats area has a name."""
    page.wait_for_selector("#status")
    tree = page.locator("body").aria_snapshot()
    nameless = [line.strip() for line in tree.splitlines() if re.match(r"\s*- (button|link)\b(?! \"[^\"])", line)]
    assert nameless == [], tree
    assert re.search(r'- region "Seats and scores"', tree), tree
    live = page.evaluate(
        "() => ['#status', '#log', '#notices'].map((s) => document.querySelector(s)?.getAttribute('aria-live'))"
    )
    assert live == ["polite", "polite", "polite"], live
    assert page.locator("[role=button]:not([tabindex='0'])").count() == 0  # a pressable target is a tab stop


def send_from_the_page(page: Page, move: str) -> None:
    """Sends `move` on the page's own websocket, with its version, as the page sends its moves."""
    page.evaluate(
        """(move) => {
            const socket = window.__sockets[window.__sockets.length - 1];
            const id = 1e6 + diabolo.rejected.length; // an id of none of the page's own moves
            socket.send(JSON.stringify({type: "move", move, version: diabolo.version, id}));
        }""",
        move,
    )


def notice_of(page: Page, clause: str) -> str:
    """The text of the notice that names `clause`, once the page shows it."""
    notice = page.locator(".notice", has_text=f"({clause})").first
    notice.wait_for()
    return notice.inner_text()


def public_events(server: Running, table_id: str) -> list[dict[str, Any]]:
    record = server.http.get(f"/api/tables/{table_id}/record?audience=public").json()
    return [event for move in record["moves"] for event in move["events"]]


def round_points(record: diabolo.Record) -> list[list[int]]:
    """Each round's points, from the record's totals after each round."""
    totals = [round_["scores"] for round_ in record.rounds]
    before = [[0] * len(totals[0]), *totals[:-1]]
    return [
        [now - then for now, then in zip(after, earlier, strict=True)]
        for after, earlier in zip(totals, before, strict=True)
    ]


def shown_rounds(page: Page, table: str) -> list[list[int]]:
    """The rows of a score table on the page: each round's points, in order."""
    rows = page.eval_on_selector_all(
        f"{table} tr[data-round]", "(rows) => rows.map((row) => [Number(row.dataset.round), row.dataset.points])"
    )
    assert [number for number, _ in rows] == list(range(len(rows))), rows
    return [[int(points) for points in text.split()] for _, text in rows]


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def best_moments(game: str, events: list[dict[str, Any]], players: list[str]) -> dict[str, str]:
    """What the game's end must show as its best moments (data-moment -> text), from the
    public events: the same rules as scores.mjs, written again."""
    ended = [event for event in events if event["type"] == "round_ended"]
    if game == "schacht":
        scored: list[tuple[int, int, dict[str, Any]]] = []
        round_ = 0
        for event in events:
            round_ = event["round"] if event["type"] == "round_started" else round_
            if event["type"] == "colour_scored" and max(event["points"]) > 0:
                scored.append((max(event["points"]), round_, event))
        top, round_, best = max(scored, key=lambda item: item[0])  # the first of the largest
        seats = [players[seat] for seat, points in enumerate(best["points"]) if points == top]
        bets = f"doubler bet by {join([players[s] for s in best['bets']])}" if best["bets"] else "no doubler bet"
        colour = COLOUR_NAMES[best["colour"]]
        each = " each" if len(seats) > 1 else ""
        scored_text = f"{join(seats)} scored {signed(top)}{each} on {colour} in round {round_ + 1} ({bets})"
        return {"colour": f"Largest colour: {scored_text}."}
    if game == "knizia":
        words: list[tuple[dict[str, Any], int]] = []
        round_ = 0
        for event in events:
            round_ = event["round"] if event["type"] == "round_started" else round_
            if event["type"] == "called" and event["valid"]:
                words.append((event, round_))
        word, in_round = max(words, key=lambda item: len(item[0]["word"]))
        most = max(max(event["piles"]) for event in ended)
        first = next(event for event in ended if max(event["piles"]) == most)
        takers = [players[seat] for seat, cards in enumerate(first["piles"]) if cards == most]
        return {
            "word": f"Longest word: {word['word']}, called by {players[word['seat']]} in round {in_round + 1}"
            f" ({len(word['word'])} letters).",
            "cards": f"Most cards in a round: {join(takers)} took {most} in round {first['round'] + 1}.",
        }
    held = [
        sum(heren["holder"] == seat for event in ended for heren in event["herenhopen"]) for seat in range(len(players))
    ]
    best_round = max(max(event["points"]) for event in ended)
    first = next(event for event in ended if max(event["points"]) == best_round)
    holders = [players[seat] for seat, count in enumerate(held) if count == max(held)]
    heren = (
        f"Most Herenhopen: {join(holders)}, {max(held)}{' each' if len(holders) > 1 else ''}."
        if max(held)
        else "Most Herenhopen: no pile was completed."
    )
    leaders = [players[seat] for seat, points in enumerate(first["points"]) if points == best_round]
    return {
        "herenhopen": heren,
        "round": f"Best round: {join(leaders)} {signed(best_round)} in round {first['round'] + 1}.",
    }


def shown_moments(page: Page) -> dict[str, str]:
    moments: dict[str, str] = page.eval_on_selector_all(
        "#final #moments li", "(items) => Object.fromEntries(items.map((li) => [li.dataset.moment, li.textContent]))"
    )
    return moments


def connect_seat(server: Running, table_id: str, seat: int, token: str) -> AbstractContextManager[ClientConnection]:
    return server.connect(table_id, seat=seat, token=token)


def move_over(connection: ClientConnection, move: str, request: int) -> dict[str, Any]:
    """Sends a seat's move (on the current version) and waits for the answer to it."""
    connection.send(json.dumps({"type": "move", "move": move, "id": request}))
    while True:
        message = receive(connection)
        if message["type"] in ("accepted", "rejected") and message.get("id") == request:
            return message


# ---- Schacht: a whole game with the keyboard ---------------------------------------------


def schacht_by_keyboard(page: Page, move: str) -> None:
    """A Schacht move with the keyboard: Tab to the card, Enter, Tab to the side of its
    row (or to Discard), Enter; Tab to Bet or Hold, Enter."""
    if move in ("bet", "hold"):
        tab_to(page, f'[data-move="{move}"]')
        page.keyboard.press("Enter")
        return
    card = move[1:] if move.startswith("x") else move[:2]
    tab_to(page, f'#hand [data-card="{card}"][aria-pressed="false"]')
    page.keyboard.press("Enter")
    tab_to(page, f'[data-move="{move}"]')
    page.keyboard.press("Enter")


def test_a_whole_game_of_schacht_with_the_keyboard_alone(
    server: Running, people_with_sockets: Callable[[], Person]
) -> None:
    table = server.create(
        game="schacht",
        options={"players": 3, "rounds": 2},
        seats=[{"name": "Ann"}, {"bot": "heuristic"}, {"bot": "random"}],
        settings={"bot_pace": 0.05},
        seed=21,
    )
    ann = people_with_sockets()
    sit(server, ann, table["id"], 0, "Ann")
    ann.open_table(server, table["id"])
    page = ann.page
    check_accessible(page)
    assert page.locator("#seats .seat-name").first.inner_text().startswith("Ann (you)")
    assert re.search(r"· bot, \w+", page.locator('#seats [data-seat="1"] .seat-name').inner_text())
    rng, made, refused, deadline = random.Random(3), 0, False, time.monotonic() + 90
    while not (state := ann.state())["over"]:
        assert time.monotonic() < deadline, "the game did not end in time"
        if not state["legal"]:
            if not refused and state["view"]["current_player"] == 1:
                # Not our turn: a card sent anyway (one we do not hold, so that it is never
                # legal, even if the turn comes to us before it arrives) is refused.
                card = next(c + v for c in "RYGPB" for v in "12345" if c + v not in state["view"]["hand"])
                send_from_the_page(page, card + "<")
                notice = page.locator(".notice.error").first.inner_text()
                turn, hand = (
                    r"It is not your turn: \w+ plays now \(S2\.2\)\.",
                    rf"{card} is not in your hand \(S2\.3\)\.",
                )
                assert re.fullmatch(f"{turn}|{hand}", notice), notice
                refused = True
            ann.wait_for_change(state["version"], timeout=500)
            continue
        move = rng.choice(state["legal"])
        # the status line says what this seat may do, from its legal moves
        if move in ("bet", "hold"):
            says = "bet your doubler on it, or hold it for a later colour (S5.3)"
        elif move.startswith("x"):
            says = "No card of yours can be placed: discard one, and the rest of your hand is shown to everyone (S3.3)."
        else:  # short: where each card may go is on demand
            says = "Your turn: play a card on its colour's devil or angel side."
        page.locator("#status", has_text=says).wait_for()
        if move[-1] in "<>":
            assert "row takes" in (page.locator("#places p").text_content() or ""), "where each card may go"
        schacht_by_keyboard(page, move)
        ann.wait_for_answers()
        ann.wait_for_change(state["version"], timeout=5_000)  # the refused probe counts as an answer
        made += 1
    record = check_the_end(ann, server, table["id"], 0)
    mine = [step.move for step in record.moves if step.seat == 0]
    assert made == len(mine) >= 10 and {"bet", "hold"} & set(mine), mine
    assert refused and page.evaluate("() => diabolo.rejected.length") == 1
    assert shown_rounds(page, "#final") == round_points(record) == shown_rounds(page, "#scores")
    assert page.get_attribute("#final .totals", "data-totals") == " ".join(map(str, record.result["scores"]))  # type: ignore[index]
    page.locator("#final #moments li").first.wait_for()
    assert page.locator("#final a", has_text="Replay this game").count() == 1
    # the table page puts its rematch in the slot beside the result, and the slot keeps it
    # through the renders that follow (a move after the game's end is refused: a notice, a render)
    page.locator("#final #final-actions #rematch").wait_for()
    rendered = page.evaluate("() => diabolo.rendered")
    send_from_the_page(page, "bet")
    page.locator(".notice.error", has_text="The game is over: no more moves.").wait_for()
    page.wait_for_function("(n) => diabolo.rendered > n", arg=rendered)
    assert page.locator("#final #final-actions button", has_text="Rematch").count() == 1
    log = page.inner_text("#log")
    assert re.search(r"Ann \(you\) places [RYGPB][1-5] on the (devil|angel) side\.", log) and "You " not in log
    check_accessible(page)


# ---- Knizia: a round with the keyboard ----------------------------------------------------


def reveal_by_space(person: Person) -> None:
    """The dealer's Space, with the focus on no control (the word box left with Esc)."""
    version = person.state()["version"]
    person.page.keyboard.press(" ")
    person.wait_for_change(version, timeout=5_000)


def a_word_no_second_call_can_take(words: list[str], table: list[str], lexicon: diabolo.Lexicon) -> str | None:
    """A word of the table that a second call cannot form from what the first one leaves."""
    for word in sorted(words, key=len, reverse=True):
        taken = set(diabolo.knizia.check_word(word, table, lexicon).cards)
        left = [card for position, card in enumerate(table) if position not in taken]
        try:
            diabolo.knizia.check_word(word, left, lexicon)
        except diabolo.InvalidWordError as error:
            if error.reason == "letters missing":
                return word
    return None


def test_a_round_of_knizia_with_the_keyboard_alone(server: Running, people_with_sockets: Callable[[], Person]) -> None:
    table = server.create(
        game="knizia",
        options={"players": 2, "lexicon": "de", "rounds": 1},
        seats=[{"name": "Ann"}, {"name": "Bo"}],
        settings={"practice": True},  # the page gets words of the table: Ann knows what to type
        seed=41,
    )
    ann = people_with_sockets()
    sit(server, ann, table["id"], 0, "Ann")
    _, bo_token = server.sit(table["id"], "Bo", 1)
    ann.open_table(server, table["id"])
    page = ann.page
    check_accessible(page)
    page.locator("#status", has_text="You deal: reveal the next card (Space)").wait_for()
    lexicon = diabolo.Lexicon.load("de")
    word = None
    while word is None:
        reveal_by_space(ann)
        page.wait_for_function("() => diabolo.hints !== null")
        state = ann.state()
        word = a_word_no_second_call_can_take(state["hints"]["words"], state["view"]["table"], lexicon)
    page.keyboard.type(word.lower())  # typing anywhere goes to the word box
    page.keyboard.press("Enter")
    ann.wait_for_answers()
    page.wait_for_function("(w) => diabolo.view.last_call && diabolo.view.last_call.word === w", arg=word)
    assert ann.state()["view"]["last_call"] == {"seat": 0, "word": word, "valid": True, "reason": None}
    with connect_seat(server, table["id"], 1, bo_token) as bo:
        assert move_over(bo, word, 1)["type"] == "accepted"  # an invalid call, a penalty for Ann
        late = f"Bo called {word} too late: Ann (you) had just taken the letters (K3.8)."
        page.locator("#log li", has_text=late).wait_for()
        page.wait_for_function("() => diabolo.legal.some((m) => m.startsWith('take@'))")
        penalty = "Take a card from the line as the penalty for Bo's invalid call (K3.5)"
        page.locator("#status", has_text=penalty).wait_for()
        # a call during the penalty is refused, in plain words
        page.keyboard.type("haus")
        page.keyboard.press("Enter")
        waits = "The game waits for you to take a penalty card: take one from the line first (K10.2)."
        assert notice_of(page, "K10.2") == waits
        page.keyboard.press("Escape")  # out of the word box: the focus goes to the cards to take
        tab_to(page, '[data-move^="take@"]')
        name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        assert re.fullmatch(r"take the card \S+ at position \d+", name), name
        piles = ann.state()["view"]["piles"][0]
        page.keyboard.press("Enter")
        page.wait_for_function("(n) => diabolo.view.piles[0] === n + 1", arg=piles)
        # the rest of the deck with Space, then both pass: Ann with Tab and Enter
        deadline = time.monotonic() + 60
        while not (state := ann.state())["over"]:
            assert time.monotonic() < deadline, "the round did not end in time"
            if "reveal" in state["legal"]:
                reveal_by_space(ann)
            elif not state["view"]["passed"][0]:
                page.locator("#status", has_text="Call a word with the letters on the table, or pass").wait_for()
                tab_to(page, '[data-move="pass"]')
                page.keyboard.press("Enter")
                ann.wait_for_change(state["version"])
                move_over(bo, "pass", 2)
            else:
                ann.wait_for_change(state["version"], timeout=500)
    record = check_the_end(ann, server, table["id"], 0)
    assert [step.move for step in record.moves if step.seat == 0].count("reveal") >= 10
    assert shown_moments(page)["word"].startswith("Longest word: ")
    check_accessible(page)


# ---- Duvelen: a round with the keyboard; Pass while a pass stands -----------------------


KEYS = {"S": "s", "W": "w", "R1": "1", "R2": "2", "R3": "3", "R4": "4"}


def test_a_round_of_duvelen_with_the_keyboard_alone(server: Running, people_with_sockets: Callable[[], Person]) -> None:
    # Bo sits and does nothing: Ann plays alone until her Stok is empty (with this deal
    # in 192 moves, every card of the Stok first), calls Stop and passes.
    table = server.create(
        game="duvelen",
        options={"players": 2, "max_actions": 1000},
        seats=[{"name": "Ann"}, {"name": "Bo"}],
        seed=3,
    )
    ann = people_with_sockets()
    sit(server, ann, table["id"], 0, "Ann")
    _, bo_token = server.sit(table["id"], "Bo", 1)
    ann.open_table(server, table["id"])
    page = ann.page
    check_accessible(page)
    # before Stop there is no passing: the page's own socket says so, in plain words
    send_from_the_page(page, "pass")
    assert notice_of(page, "D4.4") == "There is no passing before Stop: turn, recycle or wait (D4.4)."
    by_tab = 0
    for _ in range(400):
        state = ann.state()
        legal = state["legal"]
        if "stop" in legal:
            break
        plays = [move for move in legal if ":" in move]
        stok = [move for move in plays if move.startswith("S")]
        if plays:
            move = (stok or plays)[0]
            source, pile = move.split(":")[0], move.split(">")[1]
            if by_tab < 3:  # Tab to the card, Enter; the focus goes to the piles; Tab, Enter
                page.locator("#status", has_text="You can play the ").wait_for()
                tab_to(page, f'[data-source="{source}"]')
                page.keyboard.press("Enter")
                tab_to(page, f'#piles [data-pile="{pile}"]')
                page.keyboard.press("Enter")
                by_tab += 1
            else:
                page.keyboard.press(KEYS[source])
        else:
            page.keyboard.press("t")
        ann.wait_for_answers()
        ann.wait_for_change(state["version"], timeout=2_000)
    else:
        raise AssertionError("Ann's Stok did not empty")
    assert by_tab == 3 and page.evaluate("() => diabolo.rejected.length") == 1  # only the pass before Stop
    page.keyboard.press("x")
    page.wait_for_function("() => diabolo.view.stop_called_by === 0 && diabolo.legal.includes('pass')")
    page.keyboard.press("p")
    page.wait_for_selector("#status:has-text('Your pass stands')")
    assert page.evaluate("() => diabolo.legal.includes('pass') && diabolo.view.seats[0].passed")
    assert page.is_disabled('[data-move="pass"]')  # passing again would say nothing new (D4.4)
    sent = ann.state()["sent"]
    page.keyboard.press("p")
    page.wait_for_timeout(100)
    assert ann.state()["sent"] == sent
    with connect_seat(server, table["id"], 1, bo_token) as bo:
        move_over(bo, "pass", 1)  # every pass stands: the round, and the game, ends
    record = check_the_end(ann, server, table["id"], 0)
    assert record.moves[-1].move == "pass"
    assert set(shown_moments(page)) == {"herenhopen", "round"}
    check_accessible(page)


# ---- the score table and the best moments, from the start and from the middle -----------


TWO_ROUNDS: dict[str, dict[str, Any]] = {
    "schacht": {
        "options": {"players": 3, "rounds": 2},
        "seats": [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}],
        "settings": {"bot_pace": 0.05},
    },
    "knizia": {
        "options": {"players": 2, "lexicon": "de", "rounds": 2},
        "seats": [{"bot": "word", "options": QUICK_KNIZIA}, {"bot": "word", "options": QUICK_KNIZIA}],
    },
    "duvelen": {
        "options": {"players": 2, "rounds": 2, "max_actions": 250},
        "seats": [{"bot": "greedy", "options": QUICK_DUVELEN}, {"bot": "greedy", "options": QUICK_DUVELEN}],
    },
}


@pytest.mark.parametrize("game", sorted(TWO_ROUNDS))
def test_the_scores_by_round_and_the_best_moments_on_pages_opened_early_and_late(
    game: str, server: Running, people_with_sockets: Callable[[], Person]
) -> None:
    table = server.create(game=game, seed=5, **TWO_ROUNDS[game])
    url = f"{server.url}/client/table.html?table={table['id']}&watch=1"
    early, late = people_with_sockets(), people_with_sockets()
    early.page.goto(url)
    deadline = time.monotonic() + 60
    while server.http.get(f"/api/tables/{table['id']}/record?audience=public").json()["rounds"][0]["scores"] is None:
        assert time.monotonic() < deadline, "the first round did not end in time"
        time.sleep(0.05)
    late.page.goto(url)  # in the second round: the first is only in the record
    late.page.wait_for_function("() => window.diabolo && diabolo.view")
    assert late.page.evaluate("() => diabolo.view.round") == 1
    # the first round's row comes from the record at once, not at the game's end
    shown = late.page.wait_for_function(
        """() => document.querySelector('#scores tr[data-round="0"]') && {
            final: Boolean(document.querySelector('#final')),
            rows: document.querySelectorAll('#scores tr[data-round]').length,
        }"""
    )
    assert shown.json_value() == {"final": False, "rows": 1}
    for person in (early, late):
        person.page.wait_for_selector("#final", timeout=60_000)
        person.page.wait_for_selector('#final tr[data-round="1"]')
    record = diabolo.Record.load(server.http.get(f"/api/tables/{table['id']}/record").text)
    expected = round_points(record)
    assert len(expected) == 2
    players = list(record.players)
    moments = best_moments(game, public_events(server, table["id"]), players)
    for person in (early, late):
        page = person.page
        assert shown_rounds(page, "#final") == shown_rounds(page, "#scores") == expected
        assert page.get_attribute("#final .totals", "data-totals") == " ".join(map(str, record.state.scores))  # type: ignore[union-attr]
        page.wait_for_function("(n) => document.querySelectorAll('#final #moments li').length === n", arg=len(moments))
        page.wait_for_function(  # the late page read the moments it missed from the record
            """(want) => [...document.querySelectorAll('#final #moments li')]
                .every((li) => want[li.dataset.moment] === li.textContent)""",
            arg=moments,
        )
        assert shown_moments(page) == moments
        check_accessible(page)
    # the replay feeds its screen every event: its score table is whole at the last move
    replay = early.page
    replay.goto(f"{server.url}/client/replay.html?table={table['id']}")
    replay.wait_for_function("() => diabolo.ready")
    replay.keyboard.press("End")
    replay.wait_for_selector("#final")
    assert shown_rounds(replay, "#final") == expected


# ---- refusals in plain words --------------------------------------------------------------


def test_each_refusal_names_its_rule_in_plain_words(server: Running, people_with_sockets: Callable[[], Person]) -> None:
    """explainRefusal (screen.mjs, with each game's explain from its client) for moves the
    page may have sent, and a code it does not know."""
    page = people_with_sockets().page
    page.goto(server.url + "/client/replay.html")  # any page of the client
    said = page.evaluate(
        """async () => {
            const { explainRefusal } = await import("/client/screen.mjs");
            const { gameClient } = await import("/client/games.mjs");
            const explains = {};
            for (const game of ["schacht", "duvelen", "knizia"]) explains[game] = (await gameClient(game)).explain;
            const name = (seat) => ["Ann (you)", "Bo", "Cy"][seat];
            const schacht = { current_player: 1, scoring_colour: null, rows: {} };
            const duvelen = {
                piles: [{ id: 3, suit: "h", top: 4, owners: [0, 0, 1, 0] }],
                seats: [{ stok_count: 5 }],
                stop_called_by: null,
            };
            const knizia = { dealer: 2, penalty: [1] };
            const refused = (code, clause, move, view) => {
                const entry = { reason: "illegal", code, clause, message: `${clause}: the server's words`, move };
                const game = { S: "schacht", D: "duvelen", K: "knizia" }[clause[0]];
                return explainRefusal(entry, view, 0, name, explains[game]);
            };
            const late = { reason: "stale", code: "stale_move", clause: "D3.10", message: "", move: "S:5h>3" };
            return [
                refused("side_full", "S3.2", "R3<", schacht),
                refused("row_closed", "S3.1", "G2>", schacht),
                refused("not_your_turn", "S2.2", "R3<", schacht),
                refused("pile_wants_another", "D3.3", "R2:7h>3", duvelen),
                refused("stok_not_empty", "D4.1", "stop", duvelen),
                refused("not_the_dealer", "K3.1", "reveal", knizia),
                refused("penalty_pending", "K10.2", "HAUS", knizia),
                explainRefusal(late, duvelen, 0, name, explains.duvelen),
                refused("a_code_of_a_later_engine", "S9.9", "R3<", schacht),
            ];
        }"""
    )
    assert [refusal["text"] for refusal in said] == [
        "You cannot place R3 on the devil side: that side of the red row already holds three cards,"
        " the most a side takes (S3.2).",
        "You cannot place G2: the green row is closed, it holds five cards and takes no more (S3.1).",
        "It is not your turn: Bo plays now (S2.2).",
        "Pile 3 takes the 5♥ next: the 7♥ does not fit (D3.3).",
        "You can call Stop only once your Stok is empty: 5 cards are left in it (D4.1).",
        "Only the dealer, Cy, reveals cards (K3.1).",
        "The game waits for Bo to take a penalty card: HAUS has to wait (K10.2).",
        "Too late: S:5h>3 was allowed when you made it, but another move came first (D3.10).",
        "Not allowed: S9.9: the server's words",  # a code this client does not know: the server's words
    ]
    # a move that came too late is no mistake: its notice looks different
    assert [refusal["kind"] for refusal in said] == ["error"] * 6 + ["stale", "stale", "error"]
