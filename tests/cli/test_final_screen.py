"""The end of a game says who won, with what and by how much: the final table shows every
player's wealth, their placings (1st, 2nd, ...; tied players share a place) and the margin
('You won by 12', 'ai:normal won by 83', 'A tie'), readable at 80 columns."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from rich.console import Console

from cli.render_base import BaseRenderer
from cli.render_inland import InlandRenderer
from cli.renderer import place_text, placings, result_text
from core.table import AGENT, PERSON

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402


class Ended:
    """A finished game with the given wealth (only what the final table reads)."""

    def __init__(self, wealth: list[int]) -> None:
        self.num_players = len(wealth)
        self._wealth = wealth

    def is_terminal(self) -> bool:
        return True

    def wealth(self) -> list[int]:
        return list(self._wealth)

    def wealth_breakdown(self, p: int) -> dict[str, int]:
        return {"buildings": self._wealth[p] - 3, "francs": 3}


def person(name: str = "You") -> SimpleNamespace:
    return SimpleNamespace(name=name, label=name, kind=PERSON)


def agent(spec: str) -> SimpleNamespace:
    return SimpleNamespace(name=spec, label=spec, kind=AGENT)


def screen(renderable) -> list[str]:
    console = Console(width=80, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(renderable)
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    return lines


def test_you_won_by_twelve_with_the_placings():
    lines = screen(InlandRenderer().final(Ended([40, 28]), [person(), agent("ai:normal")]))
    text = "\n".join(lines)
    place = next(line for line in lines if "place" in line)
    assert place.index("1st") < place.index("2nd")
    assert "Winner: You with 40. You won by 12." in text


def test_the_computer_won_by_83():
    text = "\n".join(screen(InlandRenderer().final(Ended([14, 97]), [person(), agent("ai:normal")])))
    assert "Winner: ai:normal with 97. ai:normal won by 83." in text


def test_a_tie_shares_first_place():
    lines = screen(InlandRenderer().final(Ended([30, 30]), [person(), agent("ai:easy")]))
    place = next(line for line in lines if "place" in line)
    assert place.count("1st") == 2 and "2nd" not in place
    assert "A tie at 30." in "\n".join(lines)


def test_base_game_of_four_ties_share_a_place_and_the_next_is_skipped():
    players = [person(), agent("ai:easy"), agent("greedy"), agent("random")]
    lines = screen(BaseRenderer().final(Ended([50, 61, 61, 20]), players))
    place = next(line for line in lines if "place" in line)
    assert re.findall(r"\d+(?:st|nd|rd|th)", place) == ["3rd", "1st", "1st", "4th"]
    text = " ".join(" ".join(lines).split())
    assert "Tie: P2 ai:easy and P3 greedy with 61: a tie for 1st, 11 ahead of the rest." in text
    assert "You came 3rd, 11 behind." in text


def test_placings_and_their_names():
    assert placings([40, 40, 30]) == [1, 1, 3]
    assert [place_text(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]
    assert result_text([10, 5, 7], ["P1", "P2", "P3"]) == "Winner: P1 with 10. P1 won by 3."
    assert result_text([12], ["You"]) == "Final wealth: You with 12."


def test_a_watched_game_ends_with_placings_and_the_margin_at_80x24(tmp_path):
    """A whole game in a terminal of 80x24: the last screen shows the total, the places and
    who won by how much."""
    child = spawn_screen(tmp_path, "inland", "--watch", "--agents", "greedy,random", "--seed", "1", "--pace", "0")
    status, text = finish(child)
    assert status == 0, text[-2000:]
    flat = child.logfile_read.flat
    assert "place" in flat and "1st" in flat and "2nd" in flat
    assert " won by " in flat or "A tie at" in flat
