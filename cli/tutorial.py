"""``lehavre inland --tutorial``: a guided first game of the Inland Port.

A fixed seed, you in the first seat against ``ai:easy``, and short notes at the moments
they matter: the first screen, the first payment without change, the wheel turning at the
end of a round, a building reaching ``4+1`` and a forced sale.  Each note is shown once;
``skip`` at the prompt switches them off, and the game goes on as a normal game either way.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from cli.prompt import Coach
from inland_port.state import SECTOR_LABELS, InlandState

#: the tutorial's game: this seed, you in the first seat, against this opponent
TUTORIAL_SEED = 3
TUTORIAL_OPPONENT = "ai:easy"

NOTES = {
    "start": (
        "Welcome to the Inland Port",
        "You and the computer play 12 rounds (A-L); whoever is wealthiest at the end (francs plus the value "
        "of your buildings) wins. Each turn: one action (build or use a building), then sell if you like, then "
        "end. Below, F G W C are your fish, grain, wood and clay: each holds its row's value plus its "
        "column's. 'board' shows everything, 'help' every command, 'skip' ends these notes.",
    ),
    "payment": (
        "Paying: there is no change",
        "To pay, a counter moves left (1 less), down (3 less) or down-left (4 less) to a cell holding at "
        "least the cost less. If no cell holds exactly that, you overpay and the rest is lost: the list "
        "shows 'overpays N' when that happens. Keep your counters where the costs you expect can be paid "
        "exactly.",
    ),
    "wheel": (
        "The wheel turned",
        "At the end of every round each building on a wheel moves one sector on: 0, 2, 3, 4, 4+1, then !. "
        "A building's sector is how strong it is when used (a Wood Company in sector 3 moves wood three "
        "spaces right). Your opponent may use your buildings too, paying you 1 franc.",
    ),
    "four_plus_one": (
        "A building in 4+1",
        "A building in sector 4+1 is at its strongest now, but at the end of this round it reaches '!' and "
        "must be sold for half its value. Use it this round, or sell it yourself (right after using it, "
        "so your opponent cannot use it).",
    ),
    "forced_sale": (
        "A forced sale",
        "A building that reached '!' at the end of the round was sold for half its value (the owner gets "
        "the francs). Sell such buildings yourself before then when you can use the francs earlier.",
    ),
}


def note(key: str) -> RenderableType:
    title, body = NOTES[key]
    return Panel(Text(body), title=Text(f"Tutorial: {title}", style="bold"), title_align="left", border_style="explain")


class InlandTutorial(Coach):
    """The notes of the guided game, each shown once, for the person in ``seat``."""

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.shown: set[str] = set()
        self.active = True

    def _once(self, key: str) -> list[RenderableType]:
        if key in self.shown:
            return []
        self.shown.add(key)
        out = [note(key)]
        if len(self.shown) == len(NOTES):
            self.active = False
            out.append(Text("That was the tutorial's last note: the rest is a normal game.", style="explain"))
        return out

    def before_prompt(self, state: InlandState, seat: int) -> list[RenderableType]:
        return self._once("start")

    def after(self, before: InlandState, after: InlandState, actor: int, action: Any) -> list[RenderableType]:
        out: list[RenderableType] = []
        if actor == self.seat and getattr(action, "verb", "") == "build":
            out += self._once("payment")
        if any(text.startswith("must sell") for seat, text in after.events if seat >= 0):
            out += self._once("forced_sale")
        if after.round > before.round and not after.is_terminal():
            out += self._once("wheel")
            top = SECTOR_LABELS.index("4+1")
            if any(after.sector[i] == top for i in after.owned(self.seat) if not after.catalog.buildings[i].locked):
                out += self._once("four_plus_one")
        return out

    def skip(self) -> str:
        self.active = False
        return "Tutorial notes off: the game goes on as a normal game."
