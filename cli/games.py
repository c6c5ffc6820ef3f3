"""The command line's table of games: for each game (its spec in :mod:`core.games`),
how its board is drawn and how ``lehavre rules NAME`` prints its reference.

This is the one place in ``cli`` that names the games' renderers; every
command reads it, so nothing depends on which command module was imported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

import inland_port
from cli import render_base, render_inland
from cli.renderer import Renderer
from core.protocol import GameError


def _inland_reference(console: Console, building: str | None, buildings: str | None) -> None:
    options = {"buildings": buildings or None}
    catalog = inland_port.catalog(options)
    console.print(render_inland.reference(catalog, building))
    console.print(Text(f"Building data: {inland_port.data_name(options)}.", style="muted"))
    console.print(Text(f"Its digest (a save records it): {catalog.digest}.", style="muted"))


def _base_reference(console: Console, building: str | None, buildings: str | None) -> None:
    if buildings:
        raise GameError(
            "the base game's buildings come with the game (base_game/data); --buildings is for 'inland' only"
        )
    console.print(render_base.reference(building))


@dataclass(frozen=True)
class GameUI:
    """How the command line shows one game."""

    renderer: Callable[..., Renderer]
    #: ``reference(console, building or None, buildings file or None)`` prints the building reference
    reference: Callable[[Console, str | None, str | None], None]


GAME_UI: dict[str, GameUI] = {
    "inland": GameUI(renderer=render_inland.InlandRenderer, reference=_inland_reference),
    "base": GameUI(renderer=render_base.BaseRenderer, reference=_base_reference),
}


def renderer_for(name: str, width: int | None = None) -> Renderer | None:
    """A renderer for the game ``name``, or ``None`` for a game the command line does not draw."""
    ui = GAME_UI.get(name)
    return ui.renderer(width=width) if ui is not None else None
