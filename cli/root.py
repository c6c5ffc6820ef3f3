"""The ``lehavre`` Typer app itself, before any command is added: the command modules add theirs to
:data:`app` (the whole, :mod:`cli.app`, imports them; they import only this part)."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.options import PlainWordsGroup
from core import compiled
from core.version import __version__

app = typer.Typer(
    name="lehavre",
    help=(
        "Le Havre and Le Havre: The Inland Port in the terminal: play, watch, playtest and compare rule sets.\n\n"
        "Quick start: 'lehavre inland' plays the Inland Port against the AI (type 'help' at the prompt); "
        "'lehavre inland --watch --agents ai,greedy' watches two agents; 'lehavre inland --resume' continues "
        "your last game; 'lehavre saves' lists your saved games; 'lehavre rules' explains the rulings, 'lehavre rules inland' "
        "prints the buildings. 'lehavre COMMAND --help' for details."
    ),
    cls=PlainWordsGroup,
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
