"""Helpers of the browser tests: Debian's chromium driven by Playwright for Python (never a downloaded
browser), a host serving the page and a game on the loopback, and a person at the page who clicks.

The tests skip, saying why, where Playwright or a chromium is missing (``.ci/run`` installs chromium)."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.net_cmd import page_files, page_link, serve_in_thread
from core.net.server import GameServer, HostedGame
from tests.net.conftest import LOOPBACK, data_dir, make_table  # noqa: F401 (fixtures for these tests too)

try:
    from playwright.sync_api import Browser, Page, sync_playwright
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

#: how long the page may take to show what the server sent (ms): generous, never asserted on
WAIT_MS = 30_000


def chromium_path() -> str | None:
    """Debian's chromium (or the one LEHAVRE_CHROMIUM names), else None."""
    named = os.environ.get("LEHAVRE_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if sync_playwright is None:
        pytest.skip("Playwright for Python is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("no chromium found: install Debian's 'chromium' (apt-get install chromium; .ci/run does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def host(table: HostedGame) -> Iterator[tuple[GameServer, str]]:
    """A host serving the page and ``table`` on the loopback: the server and its address."""
    server = GameServer(page=page_files())
    server.add(table)
    table.save()
    thread, port = serve_in_thread(server, LOOPBACK, 0)
    try:
        yield server, f"{LOOPBACK}:{port}"
    finally:
        server.stop_all("the test is over")
        thread.join(10)


def open_seat(browser: Browser, address: str, code: str, *, width: int = 1280, height: int = 800) -> Page:
    """A new tab (its own storage) at the seat's link, once the page shows the game."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(page_link(address, code))
    page.wait_for_selector("#game:not([hidden])", timeout=WAIT_MS)
    return page


def ply(page: Page) -> int:
    """The number of actions in the view the page shows now."""
    return int(page.evaluate("window.LeHavrePage.view ? window.LeHavrePage.view.ply : -1"))


def wait_my_turn_or_end(page: Page) -> bool:
    """Wait until the page offers choices (True) or shows the game's end (False)."""
    page.wait_for_function(
        "() => document.querySelector('#choices button.choice') !== null || window.LeHavrePage.closed !== null"
        " || (window.LeHavrePage.view && window.LeHavrePage.view.result)",
        timeout=WAIT_MS,
    )
    return page.query_selector("#choices button.choice") is not None and not page.evaluate(
        "Boolean(window.LeHavrePage.view.result) || window.LeHavrePage.closed !== null"
    )


def click_a_choice(page: Page, rng: random.Random) -> None:
    """Click one of the choices (a group's way too, when the choice has several); waits until the
    view after it arrives."""
    before = ply(page)
    for attempt in range(5):
        # the page draws the choices again when any news arrives (a seat's status, say): a button found just
        # before is then gone, and the choice is made again on the new ones, as a person would click again
        try:
            _click_one(page, rng)
            break
        except PlaywrightError as exc:
            if "not attached" not in str(exc) or attempt == 4:
                raise
    page.wait_for_function(
        f"() => (window.LeHavrePage.view && window.LeHavrePage.view.ply !== {before})"
        " || window.LeHavrePage.closed !== null",
        timeout=WAIT_MS,
    )


def _click_one(page: Page, rng: random.Random) -> None:
    buttons = page.query_selector_all("#choices > button.choice, #choices > .ways > button.choice")
    button = rng.choice(buttons)
    if button.get_attribute("data-action") is None:  # a group: open it, then pick a way
        button.click()
        ways = page.query_selector_all("#choices .ways button.way")
        rng.choice(ways).click()
    else:
        button.click()


def play_by_clicking(page: Page, rng: random.Random, *, until_ply: int | None = None) -> None:
    """Click choices whenever it is this seat's turn, until the game ends (or has ``until_ply`` actions)."""
    while until_ply is None or ply(page) < until_ply:
        if not wait_my_turn_or_end(page):
            return
        click_a_choice(page, rng)


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the browser tests' screenshots go to. The README's (docs/screenshots) are refreshed only when
    LEHAVRE_SCREENSHOTS names that folder (``LEHAVRE_SCREENSHOTS=docs/screenshots pytest tests/web``);
    otherwise they go to a temporary folder, so that a test run leaves the checkout as it found it."""
    named = os.environ.get("LEHAVRE_SCREENSHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(page: Page, folder: Path, name: str) -> Path:
    path = folder / name
    page.evaluate("window.scrollTo(0, 0)")  # (a click may have scrolled the page)
    page.screenshot(path=str(path), full_page=False)
    return path
