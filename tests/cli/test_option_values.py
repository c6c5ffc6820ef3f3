"""Every kind of option is declared once (cli/options.py) and checked there: a bad value is a usage
error (exit 2) on one line saying what was wrong and what is allowed, the same in every command."""

from __future__ import annotations

import typing
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from cli.app import app
from cli.game_cmd import GameCommand
from inland_port.shipped import shipped_names

runner = CliRunner()

NOT_WHOLE = "'{}' is not a whole number"
AT_LEAST_1 = "0 is out of range: give a number of at least 1"
NOISE = "the noise must be a number >= 0 (evaluation points, about francs), not -1"
LEVEL = "'brutal' is not one of 'easy', 'normal', 'hard'."
NO_DATA = (
    "nothere.json: no such file, and no building data of that name is shipped with the game "
    f"(give a data file, or one of: {', '.join(shipped_names())})"
)

CASES = [
    # --seed: a whole number, in every command that takes one
    (["inland", "--seed", "x"], "--seed", NOT_WHOLE.format("x")),
    (["base", "--seed", "1.5"], "--seed", NOT_WHOLE.format("1.5")),
    (["host", "inland", "--seed", "z"], "--seed", NOT_WHOLE.format("z")),
    (["playtest", "inland", "--seed", "x"], "--seed", NOT_WHOLE.format("x")),
    (["compare", "--seed", "x"], "--seed", NOT_WHOLE.format("x")),
    (["skill", "inland", "--seed", "x"], "--seed", NOT_WHOLE.format("x")),
    (["balance", "inland", "--seed", "x"], "--seed", NOT_WHOLE.format("x")),
    # --games: at least one
    (["playtest", "inland", "--games", "0"], "--games' / '-n", AT_LEAST_1),
    (["compare", "--games", "0"], "--games' / '-n", AT_LEAST_1),
    (["balance", "inland", "--games", "0"], "--games' / '-n", AT_LEAST_1),
    # --jobs: at least one worker
    (["playtest", "inland", "--jobs", "0"], "--jobs' / '-j", AT_LEAST_1),
    (["skill", "inland", "--jobs", "0"], "--jobs' / '-j", AT_LEAST_1),
    (["balance", "inland", "--jobs", "0"], "--jobs' / '-j", AT_LEAST_1),
    (["review", "x", "--jobs", "0"], "--jobs' / '-j", AT_LEAST_1),
    # --noise: a Noise, checked by its type
    (["inland", "--watch", "--noise", "-1"], "--noise", NOISE),
    (["base", "--watch", "--noise", "-1"], "--noise", NOISE),
    (["playtest", "inland", "--noise", "-1"], "--noise", NOISE),
    (["skill", "inland", "--noise", "-1"], "--noise", NOISE),
    (["balance", "inland", "--noise", "-1"], "--noise", NOISE),
    (["balance", "inland", "--noise", "lots"], "--noise", "'lots' is not a number"),
    # --think-time: a ThinkTime, checked by its type
    (["inland", "--think-time", "0"], "--think-time", "the thinking time must be a positive number of seconds, not 0"),
    (["base", "--think-time", "-2"], "--think-time", "the thinking time must be a positive number of seconds, not -2"),
    (["inland", "--think-time", "soon"], "--think-time", "'soon' is not a number"),
    # --level: one of the levels
    (["inland", "--level", "brutal"], "--level", LEVEL),
    (["base", "--level", "brutal"], "--level", LEVEL),
    (["review", "x", "--level", "brutal"], "--level", LEVEL),
    (["skill", "inland", "--level", "brutal"], "--level", LEVEL),
]


@pytest.mark.parametrize("args, option, message", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_bad_value_says_what_was_wrong_and_what_is_allowed(
    tmp_path, monkeypatch: pytest.MonkeyPatch, args: list[str], option: str, message: str
) -> None:
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    r = runner.invoke(app, args, input="")
    assert r.exit_code == 2, r.output
    assert f"Error: Invalid value for '{option}': {message}" in r.output.splitlines(), r.output


@pytest.mark.parametrize(
    "args", [["inland", "--buildings", "nothere.json"], ["rules", "inland", "--buildings", "nothere.json"]]
)
def test_building_data_that_is_neither_a_file_nor_shipped_is_named_with_what_is_shipped(
    tmp_path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, args, input="")
    assert r.exit_code == 2, r.output
    assert " ".join(r.output.split()) == f"Error: {NO_DATA}"


def test_the_shared_flow_is_given_data_and_calls_no_game_command_back() -> None:
    hints = typing.get_type_hints(GameCommand)
    callables = [name for name, hint in hints.items() if typing.get_origin(hint) is Callable or hint is Callable]
    assert callables == ["renderer"]  # a class: the game's renderer, which says its opening lines


def test_a_shipped_data_name_plays(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    name = shipped_names()[0]
    r = runner.invoke(app, ["inland", "--agents", "random,random", "--seed", "3", "--json", "--buildings", name])
    assert r.exit_code == 0, r.output
    assert '"winners"' in r.output


def test_a_playtest_takes_a_shipped_data_name(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    args = ["playtest", "inland", "--games", "1", "--agents", "random,greedy", "--buildings", shipped_names()[0]]
    r = runner.invoke(app, [*args, "--db", str(tmp_path / "p.sqlite3")])
    assert r.exit_code == 0, r.output
    assert "1 games stored" in r.output
