"""Seats are counted one way wherever a person reads them (seat 1 starts, as a game's own screen says):
the playtest and compare tables at 80x24, their HTML reports; only the JSON counts from 0."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def printed_lines(text: str) -> list[str]:
    """The lines as printed (escapes removed): a table that scrolled off the 24 rows is still read whole."""
    return [line.rstrip() for line in ESCAPES.sub("", text).replace("\r", "").split("\n")]


def seat_words(lines: list[str]) -> set[str]:
    return set(re.findall(r"\bseat \d+\b", " ".join(" ".join(lines).split()), flags=re.IGNORECASE))


def test_playtest_counts_seats_from_1_in_its_table_report_and_0_only_in_json(tmp_path):
    report, out = tmp_path / "r.html", tmp_path / "r.json"
    child = spawn_screen(
        tmp_path, "playtest", "inland", "--agents", "random,random", "--games", "2", "--seed", "1",
        "--report", str(report), "--json", str(out),
    )  # fmt: skip
    status, text = finish(child)
    lines = printed_lines(text)
    assert status == 0, text[-2000:]
    said = seat_words(lines)
    assert {"seat 1", "seat 2"} <= said and "seat 0" not in said, said
    flat = " ".join(" ".join(lines).split())
    assert "Wins (95% Wilson intervals; seat 1 starts)" in flat and "seat 1 wins" in flat and "seat 2 wins" in flat
    # the star's meaning is never parted from its words by the caption's wrapping
    assert any(line.strip().endswith("* significant at 5%") for line in lines), lines
    html = report.read_text()
    assert "seat 0" not in html.lower() and "seat 1 starts" in html and "Seat 1 is the starting player" in html
    assert [s["seat"] for s in json.loads(out.read_text())["summary"]["seats"]] == [0, 1]


def test_compare_counts_seats_from_1_in_its_tables_and_tests(tmp_path):
    child = spawn_screen(
        tmp_path, "compare", "--a", "inland:agents=random,random", "--b", "inland:agents=random,greedy",
        "--games", "2", "--seed", "1",
    )  # fmt: skip
    status, text = finish(child)
    lines = printed_lines(text)
    assert status == 0, text[-2000:]
    said = seat_words(lines)
    assert {"seat 1", "seat 2"} <= said and "seat 0" not in said, said
