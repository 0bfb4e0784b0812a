"""The JavaScript examples play the game Python plays: the browser pages (js/examples/*.html),
opened in headless Chromium through Playwright from the repository root served over HTTP on
loopback, and the Node example (js/examples/node.mjs). browser.html and node.mjs let three
heuristic bots play Schacht's Diabolo for three players from a deal seed: before each move
the lowest pending seat asks its bot, with the move's number as the bot's seed. Their moves
and final scores must be those of the same game played through the Python API
(diabolo.schacht.HeuristicBot). words.html fetches a word list in its binary form (written
here from Lexicon.to_bytes() into build/wasm/) and lets two word bots play Knizia's Diabolo
by the rule of the golden transcripts (tests/transcripts.py); its moves and scores must be
those of the same game through Python (diabolo.knizia.WordBot).

The page needs the WebAssembly build (tools/build-wasm.sh, as tests/test_wasm.py), Debian's
chromium and the playwright package (a test extra; its own browser download is not used).
Without them the tests skip, or fail under CI=true, naming what to install.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import diabolo
from diabolo import Lexicon
from tests import background
from tests.tool_helpers import require_browser
from tests.transcripts import KNIZIA_DECK, KNIZIA_WORDS, load_game
from tests.wasm_helpers import ROOT, require_tools

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response

PAGE = "js/examples/browser.html"
WORDS_PAGE = "js/examples/words.html"
WORDS_LEXICON = "build/wasm/words.lexicon"  # where words.mjs looks by default
SEEDS = [1, 7]  # 1: the page's and node.mjs's default deal


def python_game(seed: int) -> tuple[list[tuple[int, str]], list[int]]:
    """The examples' game through Python: the moves (seat, notation) and the final scores."""
    game = diabolo.load("schacht", players=3)
    state = game.new_state(seed=seed)
    bot = diabolo.schacht.HeuristicBot()
    moves: list[tuple[int, str]] = []
    while not state.is_terminal:
        seat = min(state.pending_seats)
        move = bot.choose(state, seat, seed=len(moves))
        state.apply(move, player=seat)
        moves.append((seat, str(move)))
    return moves, [int(score) for score in state.scores]


@dataclass(frozen=True)
class WordGame:
    """A game of words.html: the deal's seed, the word list (written as `lexicon`, a path
    from the repository root) and the deck."""

    seed: int
    words: list[str]
    deck: dict[str, Any]
    lexicon: str

    @property
    def query(self) -> str:
        """The page's query: none for the page's defaults, else the seed, the word list's URL
        from the server's root and the deck as JSON text."""
        if (self.seed, self.words, self.deck, self.lexicon) == (1, KNIZIA_WORDS, KNIZIA_DECK, WORDS_LEXICON):
            return ""
        values = {"seed": self.seed, "lexicon": "/" + self.lexicon, "deck": json.dumps(self.deck)}
        return "?" + urllib.parse.urlencode(values)


WORD_GAMES = {
    "defaults": WordGame(1, KNIZIA_WORDS, KNIZIA_DECK, WORDS_LEXICON),
    "parameters": WordGame(
        7,
        KNIZIA_WORDS[:16],
        {"language": "", "cards": {"A": 2, "E": 5, "N": 3, "O": 2, "R": 3, "S": 3, "T": 4, "?": 2}},
        "build/wasm/words-16.lexicon",
    ),
}


def python_word_game(case: WordGame) -> tuple[list[tuple[int, str, str | None]], list[int]]:
    """words.html's game through Python: the moves (seat, notation, the bot's delay in
    microseconds or None when every bot waited) and the final scores. The pending seats are
    asked in ascending order (seat s of move n with the seed n * 16 + s) and the first move
    given is played; when every bot waits, the lowest pending seat plays its lowest legal
    action (tests/transcripts.py)."""
    game = load_game("knizia", {"players": 2, "rounds": 2, "lexicon": case.words, "deck": case.deck})
    state = game.new_state(seed=case.seed)
    bots = [diabolo.knizia.WordBot() for _ in range(game.players)]
    moves: list[tuple[int, str, str | None]] = []
    while not state.is_terminal:
        pending = state.pending_seats
        chosen: tuple[int, Any, str | None] | None = None
        for seat in pending:
            proposal = bots[seat].propose(state, seat, len(moves) * 16 + seat)
            if proposal is not None:
                chosen = (seat, proposal[0], str(round(proposal[1] * 1e6)))  # as bot_answer
                break
        if chosen is None:
            chosen = (pending[0], game.move(state.legal_actions(pending[0])[0]), None)
        seat, move, delay = chosen
        state.apply(move, player=seat)
        moves.append((seat, str(move), delay))
    return moves, [int(score) for score in state.scores]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with the types a module page needs, whatever the system's MIME table
    says, and logs nothing."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".lexicon": "application/octet-stream",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


pytestmark = pytest.mark.background("wasm")  # tests/wasm_helpers.py builds it while other tests run


@pytest.fixture
def wasm_build() -> Path:
    """build/wasm of the current sources, where the page loads the engine from."""
    built: Path = background.result("wasm")
    return built


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The repository root over HTTP on 127.0.0.1 from a background thread: its base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(ROOT)))
    thread = threading.Thread(target=httpd.serve_forever, name="example-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@dataclass
class PageRun:
    """What a page showed: its #result element's text and data-scores, data-moves and
    data-error, the texts of elements asked for by id, the items of the list #moves (their
    texts and data-delay-us), each response (path from the base URL: status and content
    type) and what went wrong in the page."""

    text: str = ""
    scores: str | None = None
    moves: str | None = None
    error: str | None = None
    shown: dict[str, str] = field(default_factory=dict)
    listed: list[str] = field(default_factory=list)
    delays: list[str | None] = field(default_factory=list)
    fetched: dict[str, tuple[int, str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def run_page(request: pytest.FixtureRequest, path: str, ids: tuple[str, ...] = ()) -> PageRun:
    """Opens `path` (from the repository root, with its query) in Chromium and waits up to
    30 s for its #result to show scores or an error; fails the test if it shows neither."""
    require_tools()
    require_browser("the browser example's tests")
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    assert request.getfixturevalue("wasm_build") == ROOT / "build" / "wasm"  # where the pages look
    base: str = request.getfixturevalue("server")
    browser: Browser = request.getfixturevalue("browser")
    run = PageRun()
    page: Page = browser.new_page()
    page.on("pageerror", lambda error: run.problems.append(f"page error: {error}"))
    page.on("console", lambda message: run.problems.append(f"console {message.type}: {message.text}"))
    page.on("requestfailed", lambda failed: run.problems.append(f"request failed: {failed.url}"))

    def note(response: Response) -> None:
        run.fetched[response.url.removeprefix(base)] = (response.status, response.headers.get("content-type", ""))

    page.on("response", note)
    try:
        page.goto(base + path, wait_until="load")
        result = None
        try:
            result = page.wait_for_selector("#result[data-scores], #result[data-error]", timeout=30_000)
        except PlaywrightTimeoutError:
            pass  # the page did not run: say what went wrong
        if result is None:
            pytest.fail(f"the page showed no result in 30 s: {run.problems}, fetched {run.fetched}")
        run.text = result.inner_text()
        run.scores = result.get_attribute("data-scores")
        run.moves = result.get_attribute("data-moves")
        run.error = result.get_attribute("data-error")
        run.shown = {name: page.inner_text(f"#{name}") for name in ids}
        run.listed = page.locator("#moves li").all_inner_texts()
        run.delays = page.locator("#moves li").evaluate_all("items => items.map((i) => i.dataset.delayUs ?? null)")
    finally:
        page.close()
    return run


@pytest.mark.usefixtures("browser")
@pytest.mark.parametrize("seed", SEEDS)
def test_the_browser_page_plays_the_game_python_plays(request: pytest.FixtureRequest, seed: int) -> None:
    run = run_page(request, PAGE + ("" if seed == 1 else f"?seed={seed}"), ids=("seed",))
    assert run.error is None, run.error
    moves, scores = python_game(seed)
    shown = " ".join(map(str, scores))
    assert run.text == f"scores: {shown}"
    assert run.scores == shown
    assert run.moves == str(len(moves))
    assert run.shown == {"seed": str(seed)}
    assert run.listed == [f"seat {seat} plays {move}" for seat, move in moves]
    # The engine came from the build, as the types a browser wants; nothing went wrong.
    assert run.fetched.get("build/wasm/diabolo.mjs") == (200, "text/javascript"), run.fetched
    assert run.fetched.get("build/wasm/diabolo.wasm") == (200, "application/wasm"), run.fetched
    assert run.problems == []


@pytest.mark.usefixtures("browser")
@pytest.mark.parametrize("name", list(WORD_GAMES))
def test_the_word_page_plays_knizia_with_the_word_list_it_fetches(request: pytest.FixtureRequest, name: str) -> None:
    require_tools()
    require_browser("the browser example's tests")
    case = WORD_GAMES[name]
    lexicon = Lexicon.from_words(case.words)
    request.getfixturevalue("wasm_build")  # build/wasm, where the word list goes, exists
    (ROOT / case.lexicon).write_bytes(lexicon.to_bytes())
    run = run_page(request, WORDS_PAGE + case.query, ids=("seed", "words", "lexicon", "deck"))
    assert run.error is None, run.error
    moves, scores = python_word_game(case)
    shown = " ".join(map(str, scores))
    assert run.text == f"scores: {shown}"
    assert run.scores == shown
    assert run.moves == str(len(moves))
    base: str = request.getfixturevalue("server")
    assert run.shown == {
        "seed": str(case.seed),
        "words": str(len(lexicon)),
        "lexicon": base + case.lexicon,
        "deck": json.dumps(case.deck, separators=(",", ":")),
    }
    assert run.listed == [f"seat {seat} plays {move}" for seat, move, _ in moves]
    assert run.delays == [delay for _, _, delay in moves]  # the bots' seeds were the same
    # The page fetched the word list's bytes as such, and the engine from the build.
    assert run.fetched.get(case.lexicon) == (200, "application/octet-stream"), run.fetched
    assert run.fetched.get("build/wasm/diabolo.mjs") == (200, "text/javascript"), run.fetched
    assert run.fetched.get("build/wasm/diabolo.wasm") == (200, "application/wasm"), run.fetched
    assert run.problems == []


@pytest.mark.parametrize("seed", SEEDS)
def test_the_node_example_prints_the_game_python_plays(request: pytest.FixtureRequest, seed: int) -> None:
    require_tools()
    build: Path = request.getfixturevalue("wasm_build")
    result = subprocess.run(
        ["node", "js/examples/node.mjs", *([] if seed == 1 else [str(seed)])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DIABOLO_WASM_DIR": str(build)},
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    moves, scores = python_game(seed)
    expected = [f"move {number}: seat {seat} plays {move}" for number, (seat, move) in enumerate(moves)]
    assert result.stdout.splitlines() == [*expected, "scores: " + " ".join(map(str, scores))]
