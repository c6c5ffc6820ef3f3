"""A base game of two (the shortened version: "Short game" in the rulebook) between a person in a
browser, who clicks, and a terminal client (``lehavre join --agent``, a separate process) at one
host: both see the same game, and the browser shows the base game's board (supply, offers, town,
ships, round, goods and loans)."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.net.test_cli_games import LIMIT, Host, join
from tests.web.conftest import WAIT_MS, click_a_choice, ply, screenshot, wait_my_turn_or_end
from tests.web.test_browser_seats import link_of


def start(browser, tmp_path):
    hosting = Host(tmp_path, "base", "--short", "--seats", "web,remote", "--port", "0", "--seed", "4")
    terminal = join(tmp_path, hosting.address, hosting.code(2), "random")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(link_of(hosting.out.read_text(), "Seat 1"))
    page.wait_for_selector("#game:not([hidden])", timeout=WAIT_MS)
    return hosting, terminal, page


def test_a_browser_seat_and_a_terminal_client_share_a_base_game(browser, tmp_path, screenshots):
    hosting, (proc, out), page = start(browser, tmp_path)
    rng = random.Random(5)
    while ply(page) < 25:
        assert wait_my_turn_or_end(page)
        click_a_choice(page, rng)
    text = page.inner_text("#board")
    for part in ("Round", "Offer spaces", "Supply", "Ships", "Building proposals", "Town", "francs"):
        assert part in text, part
    assert page.locator(".side").count() == 2
    screenshot(page, screenshots, "base-1280x800.png")
    # the terminal client saw each of the browser's actions: one line for each, naming the browser's seat
    # ("R1.3 P1 Player 1: takes 1 cattle from the offer"); it may still be printing them, so it gets time
    mine = [e for e in page.evaluate("window.LeHavrePage.view.log") if e["seat"] == 0]
    assert mine
    said = out.read_text()
    deadline = time.monotonic() + 30
    while len(re.findall(r"R\d+\.\d+ P1 Player 1: ", said)) < len(mine) and time.monotonic() < deadline:
        time.sleep(0.2)
        said = out.read_text()
    assert len(re.findall(r"R\d+\.\d+ P1 Player 1: ", said)) == len(mine), said[-2000:]
    for running in (hosting.proc, proc):  # (the client would try to reconnect for a while)
        running.terminate()
        running.wait(30)


@pytest.mark.slow
def test_a_whole_base_game_between_a_browser_and_a_terminal(browser, tmp_path):
    hosting, (proc, out), page = start(browser, tmp_path)
    rng = random.Random(6)
    while wait_my_turn_or_end(page):
        click_a_choice(page, rng)
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    assert "Final placings" in page.inner_text("#result")
    assert proc.wait(LIMIT) == 0, out.read_text()[-2000:]
    said = out.read_text()
    assert re.search(r"over|wins|placings", said, re.IGNORECASE), said[-2000:]
    assert hosting.proc.wait(LIMIT) == 0
