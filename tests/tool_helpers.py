"""What the tests that need tools outside Python share: the policy for a missing tool (skip,
naming what to install, or fail under CI=true) and Debian's Chromium driven by Playwright
(tests/test_browser_example.py and tests/test_server_browser.py)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

INSTALL_BROWSER = (
    "apt-get install chromium and pip install playwright==1.65.2 "
    "(or: bash tools/install-test-tools.sh and pip install '.[test]'; no `playwright install`)"
)


def under_ci() -> bool:
    """Whether the tests run under CI (CI=1, true or yes), where a missing tool fails them."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def skip_or_fail(message: str) -> None:
    """Skips the test with `message`, or fails it with the same text under CI."""
    if under_ci():
        pytest.fail(message)
    pytest.skip(message)


def require_browser(tests: str) -> None:
    """Skips the test, or fails it under CI, without Debian's chromium or playwright;
    `tests` names the tests in the message ("the browser client's tests need ...")."""
    missing = []
    if shutil.which("chromium") is None:
        missing.append("chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright (Python)")
    if missing:
        skip_or_fail(f"{tests} need " + " and ".join(missing) + ": " + INSTALL_BROWSER)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (its own browser download is not
    used); as root with --no-sandbox, since Chromium refuses to run as root with its
    sandbox."""
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
