"""``lehavre rules``: the rulings lehavre makes where the rulebooks leave a gap (both games), or one
game's building reference."""

from __future__ import annotations

from enum import Enum
from importlib.resources import files
from pathlib import Path
from typing import Annotated

import typer
from rich.markdown import Markdown

from cli.console import error, make_console
from cli.games import GAME_UI
from cli.options import buildings_option
from cli.root import app
from core.protocol import GameError


class RulesetName(str, Enum):
    inland = "inland"
    base = "base"


def rulings_text() -> str:
    """The rulings and the provenance of the data (``cli/rules.md``, shipped with the package)."""
    return files("cli").joinpath("rules.md").read_text(encoding="utf-8")


@app.command("rules", short_help="The rulings, or a game's building reference.")
def rules(
    ruleset: Annotated[
        RulesetName | None,
        typer.Argument(case_sensitive=False, help="Which game: inland or base; without it, the rulings of both games."),
    ] = None,
    building: Annotated[
        str | None, typer.Argument(help="One building (a unique beginning of its name is enough); all if omitted.")
    ] = None,
    buildings: Annotated[Path | None, buildings_option("Show this building data.")] = None,
) -> None:
    """The rulings lehavre makes where the rulebooks leave a gap, and where its data comes from ('lehavre rules');
    or a game's building reference: cost, value, letter, function, provenance ('lehavre rules inland [BUILDING]',
    'lehavre rules base [BUILDING]')."""
    console = make_console()
    if ruleset is None:
        if building is not None or buildings is not None:
            raise typer.BadParameter(
                "name the game first: 'lehavre rules inland|base [BUILDING]'", param_hint="'RULESET'"
            )
        console.print(Markdown(rulings_text()))
        return
    printer = GAME_UI[ruleset.value].reference
    try:
        printer(console, building, str(buildings) if buildings else None)
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
