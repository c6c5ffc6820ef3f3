"""The ``lehavre`` command: a Typer app; each command lives in its own module.

Command modules register themselves on :data:`app` when imported; the block
at the end imports them (one line each, so they can be added independently).
"""

from __future__ import annotations

from typing import Annotated

import typer

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
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # click's plain help: paragraphs re-wrapped at 80 columns, options in one column beside their text
    rich_markup_mode=None,
    context_settings={"max_content_width": 80},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"lehavre {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Le Havre and Le Havre: The Inland Port in the terminal."""


def main() -> None:
    app()


# -- command modules (each adds its commands to ``app``) --------------------
import cli.balance_cmd  # noqa: E402  (lehavre balance)
import cli.base_cmd  # noqa: E402  (lehavre base; lehavre rules base)
import cli.inland_cmd  # noqa: E402  (lehavre inland, lehavre rules)
import cli.net_cmd  # noqa: E402  (lehavre host, lehavre join, lehavre watch)
import cli.playtest_cmd  # noqa: E402  (lehavre playtest, lehavre compare)
import cli.replay_cmd  # noqa: E402  (lehavre replay)
import cli.review_cmd  # noqa: E402  (lehavre review)
import cli.saves_cmd  # noqa: E402  (lehavre saves)
import cli.skill_cmd  # noqa: E402,F401  (lehavre skill)

#: the one line 'lehavre --help' shows for commands whose first sentence is longer than that list's column
SHORT_HELP = {
    "inland": "Play the Inland Port, or watch two agents play it.",
    "base": "Play Le Havre (1-5 players), or watch agents play it.",
    "rules": "The rulings, or a game's building reference.",
    "host": "Host a game over the network.",
    "join": "Join a game hosted with 'lehavre host'.",
    "watch": "Watch a game hosted with 'lehavre host'.",
}
for _info in app.registered_commands:
    if _info.short_help is None and _info.name in SHORT_HELP:
        _info.short_help = SHORT_HELP[_info.name]
