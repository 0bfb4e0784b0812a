"""The JavaScript examples play the game Python plays: the browser page
(js/examples/browser.html with browser.mjs), opened in headless Chromium through Playwright
from the repository root served over HTTP on loopback, and the Node example
(js/examples/node.mjs). Each lets three heuristic bots play Schacht's Diabolo for three
players from a deal seed: before each move the lowest pending seat asks its bot, with the
move's number as the bot's seed. Their moves and final scores must be those of the same game
played through the Python API (diabolo.schacht.HeuristicBot).

The page needs the WebAssembly build (tools/build-wasm.sh, as tests/test_wasm.py), Debian's
chromium and the playwright package (a test extra; its own browser download is not used).
Without them the tests skip, or fail under CI=true, naming what to install.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import diabolo
from tests.wasm_helpers import ROOT, build_wasm, require_tools, skip_or_fail

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Response

PAGE = "js/examples/browser.html"
INSTALL_BROWSER = (
    "apt-get install chromium and pip install playwright==1.65.2 "
    "(or: bash tools/install-test-tools.sh and pip install '.[test]'; no `playwright install`)"
)
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


def require_browser() -> None:
    """Skips the test, or fails it under CI, without Debian's chromium or playwright."""
    missing = []
    if shutil.which("chromium") is None:
        missing.append("chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright (Python)")
    if missing:
        skip_or_fail("the browser example's test needs " + " and ".join(missing) + ": " + INSTALL_BROWSER)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with the types a module page needs, whatever the system's MIME table
    says, and logs nothing."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def wasm_build() -> Path:
    """build/wasm of the current sources, where the page loads the engine from."""
    return build_wasm()


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright; as root with --no-sandbox, since
    Chromium refuses to run as root with its sandbox."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--no-sandbox"] if os.geteuid() == 0 else [],
            headless=True,
            timeout=60_000,
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_browser_page_plays_the_game_python_plays(request: pytest.FixtureRequest, seed: int) -> None:
    require_tools()
    require_browser()
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    assert request.getfixturevalue("wasm_build") == ROOT / "build" / "wasm"  # where browser.mjs looks
    base: str = request.getfixturevalue("server")
    browser: Browser = request.getfixturevalue("browser")
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}"))
    page.on("requestfailed", lambda failed: problems.append(f"request failed: {failed.url}"))
    fetched: dict[str, tuple[int, str]] = {}

    def note(response: Response) -> None:
        fetched[response.url.removeprefix(base)] = (response.status, response.headers.get("content-type", ""))

    page.on("response", note)
    try:
        page.goto(base + PAGE + ("" if seed == 1 else f"?seed={seed}"), wait_until="load")
        result = None
        try:
            result = page.wait_for_selector("#result[data-scores], #result[data-error]", timeout=30_000)
        except PlaywrightTimeoutError:
            pass  # the page did not run: say what went wrong
        if result is None:
            pytest.fail(f"the page showed no result in 30 s: {problems}, fetched {fetched}")
        assert result.get_attribute("data-error") is None, result.get_attribute("data-error")
        moves, scores = python_game(seed)
        shown = " ".join(map(str, scores))
        assert result.inner_text() == f"scores: {shown}"
        assert result.get_attribute("data-scores") == shown
        assert result.get_attribute("data-moves") == str(len(moves))
        assert page.inner_text("#seed") == str(seed)
        assert page.locator("#moves li").all_inner_texts() == [f"seat {seat} plays {move}" for seat, move in moves]
    finally:
        page.close()
    # The engine came from the build, as the types a browser wants; nothing went wrong.
    assert fetched.get("build/wasm/diabolo.mjs") == (200, "text/javascript"), fetched
    assert fetched.get("build/wasm/diabolo.wasm") == (200, "application/wasm"), fetched
    assert problems == []


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
