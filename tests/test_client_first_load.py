"""The browser client's first load stays small and needs no build step: in Debian's
Chromium through Playwright against a real server, the lobby and a table page each load
only the client's own files, as they are in the package (plain ES modules, HTML, CSS:
nothing bundled, nothing from another site), and their bytes stay within FIRST_LOAD_BYTES
(docs/server.rst states the figures this test prints)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette", reason='the server tests need pip install "diabolo[server]"')

from diabolo.server.app import CLIENT  # noqa: E402
from tests.browser_helpers import Person, people, server, sit  # noqa: E402
from tests.server_helpers import Running  # noqa: E402

__all__ = ["people", "server"]  # the fixtures this module uses

FIRST_LOAD_BYTES = 200_000
"""The most a page's first load may bring (uncompressed), the server's answers excluded."""


def loaded(person: Person, url: str, ready: str) -> dict[str, int]:
    """The client files a page loads (path: bytes), once ``ready`` holds."""
    files: dict[str, int] = {}

    def keep(response: object) -> None:
        from playwright.sync_api import Response

        assert isinstance(response, Response)
        path = urlsplit(response.url).path
        if response.request.resource_type in ("document", "script", "stylesheet", "image", "font"):
            files[path] = len(response.body())

    person.page.on("response", keep)
    person.page.goto(url)
    person.page.wait_for_function(ready)
    person.page.wait_for_load_state("networkidle")
    person.page.remove_listener("response", keep)
    return files


def served_as_packaged(files: dict[str, int]) -> None:
    """Every file is the package's own, byte for byte as big: no bundle, no other site."""
    for path, size in files.items():
        name = "index.html" if path == "/" else path.removeprefix("/client/")
        assert path == "/" or path.startswith("/client/"), path
        assert (Path(CLIENT) / name).stat().st_size == size, path


def test_the_first_load_is_small_and_needs_no_build(server: Running, people: Callable[..., Person]) -> None:
    person = people()
    lobby = loaded(person, server.url + "/", "() => document.body.dataset.ready")
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], seed=1
    )
    sit(server, person, table["id"], 0, "Ann")
    page = loaded(person, f"{server.url}/client/table.html?table={table['id']}", "() => window.diabolo && diabolo.view")
    for files in (lobby, page):
        served_as_packaged(files)
    sizes = {"lobby": sum(lobby.values()), "table": sum(page.values())}
    print(f"first load: lobby {sizes['lobby']:,} bytes in {len(lobby)} files, table {sizes['table']:,} in {len(page)}")
    assert max(sizes.values()) <= FIRST_LOAD_BYTES, sizes
    assert "/client/lobby.mjs" in lobby and "/client/games/schacht/board.mjs" in page
    # only the client of the table's game comes over the network
    assert not any(path.startswith("/client/games/") for path in lobby)
    assert {path.split("/")[3] for path in page if path.startswith("/client/games/")} == {"schacht"}


SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 50_000, "uploadThroughput": 50_000}
"""Chromium DevTools' "Slow 3G" preset: 2 s round trips, 400 kbit/s each way."""

USABLE_WITHIN = 10.0
"""The most seconds a table page may take on slow 3G until its board shows the game."""


def table_url(server: Running, table_id: str, game: str) -> str:
    """A table page's address as the client makes it (common.mjs tableUrl): with its game."""
    return f"{server.url}/client/table.html?table={table_id}&game={game}"


def test_a_table_page_is_usable_within_ten_seconds_on_slow_3g(server: Running, people: Callable[..., Person]) -> None:
    """With DevTools' slow-3G preset, a person opening their table sees its board within
    USABLE_WITHIN seconds: the module chain is preloaded, and only the table's game's code loads."""
    person = people()
    table = server.create(
        game="schacht", options={"players": 3}, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], seed=1
    )
    sit(server, person, table["id"], 0, "Ann")
    # the browser warm (the rules page's fetches done), the table page's files not cached
    person.page.goto(server.url + "/client/rules.html", wait_until="networkidle")
    cdp = person.page.context.new_cdp_session(person.page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    started = time.monotonic()
    arrived: list[str] = []  # when each file came, for the failure's message
    person.page.on("response", lambda r: arrived.append(f"{time.monotonic() - started:.1f} {urlsplit(r.url).path}"))
    person.page.goto(table_url(server, table["id"], "schacht"), timeout=60_000)
    person.page.wait_for_function(
        "() => window.diabolo && diabolo.view && document.querySelector('#hand')", timeout=60_000
    )
    usable = time.monotonic() - started
    print(f"slow 3G: the table page usable after {usable:.1f} s, {len(arrived)} files")
    assert usable <= USABLE_WITHIN, (usable, arrived)
    assert not any("/games/" in path and "/schacht/" not in path for path in arrived), arrived
