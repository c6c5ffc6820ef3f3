"""``lehavre inland --tutorial`` (issue 13, point 8), played to its end in a pseudo-terminal: the
person always takes the first choice (so a building of theirs ages into '!' and is sold); every
note of the tutorial appears once, at its moment, and the game ends as a normal game does."""

from __future__ import annotations

import pytest

pexpect = pytest.importorskip("pexpect")

from cli.tutorial import NOTES  # noqa: E402
from tests.cli.pty_helpers import finish, spawn  # noqa: E402


def test_the_tutorial_is_played_to_its_end(tmp_path):
    child = spawn(tmp_path, "inland", "--tutorial", rows=40, cols=100)
    child.timeout = 120
    child.expect("A guided first game")
    decisions = 0
    while True:
        k = child.expect([r"or help\)> ", r"\(or back\)> ", "Final wealth"])
        if k == 2:
            break
        child.sendline("1")
        decisions += 1
        assert decisions < 400
    status, out = finish(child)
    assert status == 0
    assert "Traceback" not in out
    text = " ".join(out.split())
    for title, _ in NOTES.values():
        assert text.count(f"Tutorial: {title}") == 1, title
    assert "the rest is a normal game" in text
    assert "Winner:" in text or "A tie at" in text


def test_skip_turns_the_notes_off_and_the_game_goes_on(tmp_path):
    child = spawn(tmp_path, "inland", "--tutorial")
    child.expect("Tutorial: Welcome")
    child.expect(r"or help\)> ")
    child.sendline("skip")
    child.expect("Tutorial notes off")
    child.expect(r"or help\)> ")
    child.sendline("build Wood Company")
    child.expect(r"or help\)> ")
    child.sendline("quit")
    status, out = finish(child)
    assert status == 0 and "Tutorial: Paying" not in out and "Traceback" not in out


def test_the_tutorial_refuses_options_that_would_change_it_and_log_shows_what_happened(data_dir):
    from typer.testing import CliRunner

    from cli.app import app

    runner = CliRunner()
    for extra in (["--seed", "5"], ["--opponent", "greedy"], ["--resume"], ["--watch"]):
        r = runner.invoke(app, ["inland", "--tutorial", *extra])
        assert r.exit_code == 2 and "--tutorial" in r.output and "Traceback" not in r.output, (extra, r.output)
    r = runner.invoke(
        app, ["inland", "--opponent", "greedy", "--seat", "second", "--seed", "3"], input="log\nlog x\nquit\n"
    )
    assert r.exit_code == 0
    assert r.output.count("greedy: builds Hardware Store") == 2  # after the move, and again by 'log'
    assert "'log x': give a number of lines" in r.output
