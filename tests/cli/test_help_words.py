"""A command's usage and arguments in --help read as a person writes them: the argument's name, in
brackets when it may be left out, '...' when it takes several; no braces and no Python types; and an
error about an argument names it as the usage line does."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(
    "command, usage",
    [
        ("skill", "lehavre skill [OPTIONS] RULES..."),
        ("balance", "lehavre balance [OPTIONS] [RULES]"),
        ("join", "lehavre join [OPTIONS] ADDRESS CODE"),
        ("review", "lehavre review [OPTIONS] [NAME|PATH]"),
    ],
)
def test_usage_and_arguments_without_braces_or_types(command, usage):
    shown = runner.invoke(app, [command, "--help"]).output
    assert usage in shown
    assert "{" not in shown.splitlines()[0]
    assert not re.search(r"<(str|int|list\[str\]|float|Path)>", shown), shown


def test_review_without_a_game_names_the_argument_as_its_usage_does():
    done = runner.invoke(app, ["review"])
    assert done.exit_code == 2
    assert "Invalid value for 'NAME|PATH'" in done.output and "'GAME'" not in done.output
