"""A command that will take more than a minute says how long it expects before it starts, from the
cost per game (or per reviewed decision) measured on this machine and kept in the data folder, and
shows a progress bar with the time left (80x24).  The measured costs are planted here, so the test
asserts what is said, never how long anything took."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import LEHAVRE, ROOT, finish, spawn_screen

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def flat(text: str) -> str:
    return " ".join(ESCAPES.sub("", text).split())


def plant(tmp_path, costs: dict[str, list[float]]) -> None:
    (tmp_path / "costs.json").write_text(json.dumps(costs))


def test_a_long_playtest_says_how_long_before_it_starts_and_shows_the_time_left(tmp_path):
    plant(tmp_path, {"inland greedy,random": [600.0, 10.0]})  # 60 s a game, measured "on this machine"
    child = spawn_screen(tmp_path, "playtest", "inland", "--agents", "random,greedy", "--games", "3", "--seed", "2")
    status, text = finish(child)
    said = flat(text)
    assert status == 0, said[-1500:]
    estimate = "This will take about 3 min: 3 games at about 60 s each (the mean of 10 games measured on this machine)"
    assert estimate in said, said[:1500]
    assert str(tmp_path / "costs.json") in [line.strip() for line in ESCAPES.sub("", text).splitlines()]
    assert said.index(estimate) < said.index("run #1")  # before the games start
    assert re.search(r"3/3 games .* elapsed \S+ left", said), said[:1500]  # the bar with the time left
    kept = json.loads((tmp_path / "costs.json").read_text())["inland greedy,random"]
    assert kept[1] == 13.0 and kept[0] > 600.0  # this run's games are added to the measured cost


def test_a_short_playtest_says_nothing_of_time(tmp_path):
    plant(tmp_path, {"inland greedy,random": [1.0, 10.0]})
    child = spawn_screen(tmp_path, "playtest", "inland", "--agents", "random,greedy", "--games", "3", "--seed", "2")
    status, text = finish(child)
    assert status == 0 and "This will take" not in flat(text)


def test_plain_compare_without_a_measurement_says_how_long_from_the_reference_cost(tmp_path):
    """The default comparison plays few, cheap games; its estimate comes from the development
    machine's costs until this machine has its own, and it says so (the run is stopped at once)."""
    child = spawn_screen(tmp_path, "compare", "--games", "200")
    child.expect("This will take")
    child.expect("the big study")
    child.sendintr()
    _, text = finish(child)
    said = flat(text)
    assert "development machine's" in said and "--agents ai --games 100" in said, said[:1500]


def test_compare_by_default_answers_in_minutes(tmp_path):
    out = subprocess.run(
        [LEHAVRE, "compare", "--help"], capture_output=True, text=True, cwd=ROOT, env={"COLUMNS": "200"}, check=True
    ).stdout
    said = " ".join(out.split())
    assert "ai:easy in both seats, 20 games a configuration: minutes" in said, said
    assert "The big study, hours: --agents ai --games 100" in said


def test_review_says_how_long_before_it_starts_and_shows_the_time_left(tmp_path):
    env = {"LEHAVRE_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [LEHAVRE, "inland", "--watch", "--agents", "random,random", "--seed", "3"],
        capture_output=True, cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    (name,) = [p.stem for p in (tmp_path / "saves").glob("*.json")]
    plant(tmp_path, {"review inland easy": [500.0, 10.0]})  # 50 s a decision "on this machine"
    child = spawn_screen(tmp_path, "review", name, "--level", "easy")
    status, text = finish(child)
    said = flat(text)
    assert status == 0, said[-1500:]
    assert re.search(r"This will take about \d+ (?:min|h): \d+ decisions at about 50 s each \(the mean of 10", said), (
        said[:800]
    )
    assert re.search(r"Reviewing .* \d+/\d+ decisions \S+ left", said), said[:1500]
