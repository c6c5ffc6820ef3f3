"""The ``lehavre`` Typer app itself, before any command is added: the command modules add theirs to
:data:`app` (they import only this part), and :data:`COMMANDS` says which module adds each.

A command's module is imported when that command is looked up (to run it, or to list it in
``lehavre --help``), not when ``lehavre`` starts: a game needs neither the network's modules nor the
lab's, and every start would pay for them.  The table names the modules as text and imports them with
:func:`importlib.import_module` (click's documented lazy commands); this is not a hidden circle, because
no command module imports this table's importer back (they import :data:`app` from here, which is
complete before any of them is imported), and ``tests/cli/test_commands_table.py`` checks that the table
and what each module adds agree."""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.main import get_command_from_info

from cli.group import CommandTable, PlainWordsGroup
from core import compiled
from core.version import __version__

#: every command, in the order 'lehavre --help' lists them (the rules right after the games they
#: explain), and the module that adds it to :data:`app`
COMMANDS = {
    "playtest": "cli.playtest_cmd",
    "compare": "cli.playtest_cmd",
    "balance": "cli.balance_cmd",
    "base": "cli.base_cmd",
    "inland": "cli.inland_cmd",
    "rules": "cli.rules_cmd",
    "host": "cli.net_cmd",
    "join": "cli.net_cmd",
    "watch": "cli.net_cmd",
    "replay": "cli.replay_cmd",
    "review": "cli.review_cmd",
    "saves": "cli.saves_cmd",
    "skill": "cli.skill_cmd",
}


def _command(name: str) -> Any:
    """The click command of ``name``, its module imported first (which adds it to :data:`app`)."""
    importlib.import_module(COMMANDS[name])
    info = next(i for i in app.registered_commands if i.name == name)
    return get_command_from_info(
        info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
    )


class CommandsGroup(PlainWordsGroup):
    """The ``lehavre`` group: its commands are :data:`COMMANDS`, each made when it is looked up."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.commands = CommandTable(list(COMMANDS), self.commands, _command)


app = typer.Typer(
    name="lehavre",
    help=(
        "Le Havre and Le Havre: The Inland Port in the terminal: play, watch, playtest and compare rule sets.\n\n"
        "Quick start: 'lehavre inland' plays the Inland Port against the AI (type 'help' at the prompt); "
        "'lehavre inland --watch --agents ai,greedy' watches two agents; 'lehavre inland --resume' continues "
        "your last game; 'lehavre saves' lists your saved games; 'lehavre rules' explains the rulings, 'lehavre rules inland' "
        "prints the buildings. 'lehavre COMMAND --help' for details."
    ),
    cls=CommandsGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # click's plain help: paragraphs re-wrapped at 80 columns, options in one column beside their text
    rich_markup_mode=None,
    context_settings={"max_content_width": 80},
)


def _version(value: bool) -> None:
    if value:
        # which engine runs: "compiled" (mypyc) or "pure Python" (core/compiled.py)
        typer.echo(f"lehavre {__version__} ({compiled.describe()})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Le Havre and Le Havre: The Inland Port in the terminal."""
