"""The page's seat over time, in a real browser: the one command that plays the AI from a browser
(``lehavre host inland --seats web,ai:easy``), a reload in the middle that returns to the seat with
nothing lost, a spectator's page that follows the game, and clear words on the page for a wrong code,
a seat taken from another tab, and a game the host stopped; an undo one page asks and the other answers."""

from __future__ import annotations

import random
import re

from tests.net.test_cli_games import Host
from tests.web.conftest import (
    WAIT_MS,
    click_a_choice,
    host,
    make_table,
    open_seat,
    ply,
    wait_my_turn_or_end,
)


def link_of(text: str, seat_line: str) -> str:
    """The browser link printed under ``seat_line`` (e.g. 'Seat 1', 'Spectators')."""
    found = re.search(re.escape(seat_line) + r".*\n\s+or in a browser: (http://\S+)", text)
    assert found is not None, text
    return found.group(1)


def test_the_ai_from_a_browser_reload_and_a_spectator(browser, tmp_path):
    """One command hosts the game; its link opens the seat; a reload comes back to it; a spectator follows."""
    hosting = Host(tmp_path, "inland", "--seats", "web,ai:easy", "--port", "0")
    text = hosting.out.read_text()
    seat_link, watch_link = link_of(text, "Seat 1"), link_of(text, "Spectators")
    assert "#" in seat_link and hosting.code(1) in seat_link
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(seat_link)
    page.wait_for_selector("#game:not([hidden])", timeout=WAIT_MS)
    assert "#" not in page.url  # the code left the address bar: the tab keeps it
    rng = random.Random(3)
    while ply(page) < 6:
        assert wait_my_turn_or_end(page)
        click_a_choice(page, rng)
    watcher = browser.new_page(viewport={"width": 390, "height": 844})
    watcher.goto(watch_link)
    watcher.wait_for_selector("#game:not([hidden])", timeout=WAIT_MS)
    assert "Spectator" in watcher.inner_text("#status")
    assert watcher.locator("#command").is_hidden()

    wait_my_turn_or_end(page)
    before = {"ply": ply(page), "log": page.inner_text("#log"), "choices": page.inner_text("#choices")}
    page.reload()
    page.wait_for_function(f"() => window.LeHavrePage.view && window.LeHavrePage.view.ply === {before['ply']}")
    wait_my_turn_or_end(page)
    assert "You play Player 1" in page.inner_text("#status")
    assert page.inner_text("#log") == before["log"]
    assert page.inner_text("#choices") == before["choices"]

    click_a_choice(page, rng)
    now = ply(page)
    watcher.wait_for_function(f"() => window.LeHavrePage.view && window.LeHavrePage.view.ply >= {now}")
    assert watcher.locator("#log li").count() >= now
    assert watcher.locator("#choices button").count() == 0
    hosting.proc.terminate()
    hosting.proc.wait(30)


def test_a_wrong_code_says_so_on_the_page(browser, data_dir):
    table = make_table("inland", "remote,ai:easy", 5)
    with host(table) as (_server, address):
        page = browser.new_page()
        page.goto(f"http://{address}/#nope-nope-nope")
        page.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert "not a seat of this game" in page.inner_text("#banner")
        assert page.locator("#codeform").is_visible()
        # the code typed in the form joins
        page.fill("#codeinput", table.seats[0].code or "")
        page.click("#codeform button[type=submit]")
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT_MS)
        assert "You play" in page.inner_text("#status")
        # a lost connection: the page joins again by itself, with the code this tab keeps
        page.evaluate("window.LeHavrePage.ws.close()")
        page.wait_for_function("() => window.LeHavrePage.retries > 0")  # (reconnecting)
        page.wait_for_function("() => window.LeHavrePage.ws !== null && window.LeHavrePage.retries === 0")
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('You play')")
        assert table.status(0) == "connected"


def test_a_seat_taken_from_another_tab_and_a_game_stopped(browser, data_dir):
    table = make_table("inland", "remote,ai:easy", 6)
    with host(table) as (server, address):
        code = table.seats[0].code or ""
        first = open_seat(browser, address, code)
        second = open_seat(browser, address, code)
        first.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert "joined from another window" in first.inner_text("#banner")
        assert "You play" in second.inner_text("#status")
        server.stop_all("The host stopped the game: it is saved.")
        second.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert "The host stopped the game" in second.inner_text("#banner")
        assert "The game has ended" in second.inner_text("#status")


def test_an_undo_asked_from_one_page_is_answered_on_the_other(browser, data_dir):
    """Two people, each in a browser: the second asks to take back the first's last decision; the
    first reads the question on the page and agrees with a click; both pages show the game taken back."""
    table = make_table("inland", "remote,remote", 9)
    with host(table) as (_server, address):
        first = open_seat(browser, address, table.seats[0].code or "")
        second = open_seat(browser, address, table.seats[1].code or "", width=390, height=844)
        rng = random.Random(4)
        while table.state.current_player() == 0 or not table.state.history:
            assert wait_my_turn_or_end(first)
            click_a_choice(first, rng)
        played = len(table.state.history)
        second.wait_for_function(f"() => window.LeHavrePage.view && window.LeHavrePage.view.ply === {played}")
        second.click("#undo")
        first.wait_for_selector("#question:not([hidden]) button.answer", timeout=WAIT_MS)
        assert "asks to take back" in first.inner_text("#question")
        second.wait_for_selector("#banner:not([hidden])", timeout=WAIT_MS)
        assert "agree" in second.inner_text("#banner")
        first.click("#question button.answer:text('yes')")
        for page in (first, second):
            page.wait_for_function(f"() => window.LeHavrePage.view.ply < {played}", timeout=WAIT_MS)
        assert len(table.state.history) < played
        assert first.locator("#question").is_hidden()
