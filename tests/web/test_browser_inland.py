"""A person in a browser plays the Inland Port against ``ai:easy`` by clicking the page's choices
(the host serves the page and the game on one port; the page joins with the code in the link)."""

from __future__ import annotations

import random

import pytest

from tests.web.conftest import (
    WAIT_MS,
    host,
    make_table,
    open_seat,
    play_by_clicking,
    ply,
    screenshot,
    wait_my_turn_or_end,
)


def test_a_round_of_the_inland_port_by_clicking(browser, data_dir, screenshots):
    """Round A (the Inland Port rulebook, "Main phase": the round's actions alternate between the
    players) played by clicking, the AI answering; the boards, warehouses and log follow."""
    table = make_table("inland", "remote,ai:easy", 7)
    with host(table) as (_server, address):
        page = open_seat(browser, address, table.seats[0].code or "")
        assert "You play" in page.inner_text("#status")
        page.wait_for_selector(".side .sectors", timeout=WAIT_MS)
        assert page.locator(".side").count() == 2
        assert page.locator(".track li.pointer").first.inner_text().startswith("A")
        assert page.locator(".grid .good").count() == 8  # two warehouses, four counters each
        first_choice = page.evaluate("window.LeHavrePage.view.choices[0].actions[0].text")
        page.fill("#commandinput", "buidl the moon")  # the command box: the server's refusal is shown
        page.press("#commandinput", "Enter")
        page.wait_for_selector("#banner.error:not([hidden])", timeout=WAIT_MS)
        assert "Allowed now" in page.inner_text("#banner")
        assert ply(page) == 0
        page.fill("#commandinput", "1.1")  # numbers pick a choice and its way, as at the terminal
        page.press("#commandinput", "Enter")
        page.wait_for_function("() => window.LeHavrePage.view.ply > 0", timeout=WAIT_MS)
        assert table.state.history[0] == first_choice
        play_by_clicking(page, random.Random(1), until_ply=12)
        assert ply(page) >= 12
        assert table.state.history[: ply(page)] == [e["text"] for e in page.evaluate("window.LeHavrePage.view.log")]
        assert page.locator("#log li").count() == ply(page)
        wait_my_turn_or_end(page)
        before = ply(page)
        page.click("#undo")  # the person's last decision is taken back (and the AI's after it)
        page.wait_for_function(f"() => window.LeHavrePage.view.ply < {before}", timeout=WAIT_MS)
        assert len(table.state.history) < before
        wait_my_turn_or_end(page)
        page.set_viewport_size({"width": 1280, "height": 800})
        screenshot(page, screenshots, "inland-1280x800.png")
        page.set_viewport_size({"width": 390, "height": 844})
        screenshot(page, screenshots, "inland-390x844.png")


@pytest.mark.slow
def test_a_whole_inland_port_game_by_clicking(browser, data_dir):
    """A whole game to its end: the page shows the final placings and the margin, as the table scored them."""
    table = make_table("inland", "remote,ai:easy", 11)
    with host(table) as (_server, address):
        page = open_seat(browser, address, table.seats[0].code or "")
        play_by_clicking(page, random.Random(2))
        page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
        assert table.state.is_terminal()
        text = page.inner_text("#result")
        assert "Final placings" in text
        wealth = table.state.wealth()
        for w in wealth:
            assert str(w) in text
        assert "The game is over" in page.inner_text("#turn")
