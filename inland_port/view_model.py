"""The Inland Port as one seat may see it (the rulebook, "Game setup" and "Main phase"): nothing is
hidden in this game, so every seat and a spectator see the same facts -- each player's game board
(the six sectors and the buildings in them, the lock buildings beside it), each warehouse grid with
its four counters, the purses, the buildings on offer and those waiting to enter, the round, and
who is to move.  The terminal's screens read the facts they share with it from here.
"""

from __future__ import annotations

from typing import Literal

from core.view_model import ViewModel
from inland_port.buildings import GOODS, LETTERS
from inland_port.state import ACTIONS_PER_ROUND, SECTOR_LABELS, SECTOR_VALUES, InlandState
from inland_port.warehouse import COLUMN_VALUE, ROW_VALUE

#: each seat's game board (seat 0 takes the A-F board, "Game setup")
GAME_BOARDS = ("A-F board", "G-L board")
#: the sector a building is sold from at once (it never holds one)
SOLD_AT_ONCE = "sold at once"


class InlandSector(ViewModel):
    """One sector of a game board: its label (0, 2, 3, 4, 4+1, !), what a use there is worth (None:
    the "!" sector, whose buildings are sold at once) and the buildings in it."""

    label: str
    value: int | None
    buildings: list[str]


class InlandCounter(ViewModel):
    """One counter of a warehouse: its good, its cell (``row+column`` as an action names it), and the
    amount it means (the row's value plus the column's)."""

    good: str
    cell: str
    row: int
    column: int
    amount: int


class InlandWarehouse(ViewModel):
    """A warehouse grid: its size, what a row and a column are worth, and the four counters."""

    rows: int
    columns: int
    row_value: int
    column_value: int
    counters: list[InlandCounter]


class InlandSide(ViewModel):
    """One player's side: the game board's sectors, the lock buildings beside it, the warehouse, the purse."""

    seat: int
    game_board: str
    francs: int
    wealth: int
    sectors: list[InlandSector]
    beside_board: list[str]
    warehouse: InlandWarehouse


class InlandOffered(ViewModel):
    """A building on offer: its cost (as the rulebook's card prints it), value, whether it is a lock
    building, and whether the player to move can build it now."""

    name: str
    cost: str
    value: int
    locked: bool
    buildable: bool


class InlandComing(ViewModel):
    """The buildings that enter the game at the start of a later round (by its letter)."""

    round: str
    buildings: list[str]


class InlandBoard(ViewModel):
    """The whole position (see the module)."""

    game: Literal["inland"] = "inland"
    over: bool
    #: the round's letter (A-L) and number (1-12)
    round_letter: str
    round_number: int
    rounds: int
    #: the actions left in the round (the main action just taken counted), of the round's total
    actions_left: int
    actions_in_round: int
    starting_player: int
    #: the seat to move (None: the game is over)
    to_move: int | None
    #: the seat to move has taken its main action (it may sell buildings or end its turn)
    acted: bool
    sides: list[InlandSide]
    offer: list[InlandOffered]
    coming: list[InlandComing]


def actions_left(state: InlandState) -> int:
    """The actions left in the round, the main action just taken counted (its turn ends with 'end')."""
    return state.actions_left - 1 if state.acted else state.actions_left


def sectors(state: InlandState, p: int) -> list[InlandSector]:
    """Player ``p``'s six sectors with the buildings in them ("!" holds none: sold at once)."""
    wheel = state.wheel(p)
    names = state.catalog.buildings
    return [
        InlandSector(
            label=label,
            value=SECTOR_VALUES[s] if s < len(wheel) else None,
            buildings=[names[i].name for i in wheel[s]] if s < len(wheel) else [],
        )
        for s, label in enumerate(SECTOR_LABELS)
    ]


def warehouse(state: InlandState, p: int) -> InlandWarehouse:
    wh = state.catalog.warehouse
    counters = []
    for g, c in zip(GOODS, state.cells[p], strict=True):
        row, column = wh.row_col(c)
        counters.append(InlandCounter(good=g, cell=wh.text(c), row=row, column=column, amount=wh.amount[c]))
    return InlandWarehouse(
        rows=wh.rows, columns=wh.columns, row_value=ROW_VALUE, column_value=COLUMN_VALUE, counters=counters
    )


def side(state: InlandState, p: int, wealth: list[int]) -> InlandSide:
    return InlandSide(
        seat=p,
        game_board=GAME_BOARDS[p],
        francs=state.francs[p],
        wealth=wealth[p],
        sectors=sectors(state, p),
        beside_board=[state.catalog.buildings[i].name for i in state.beside_board(p)],
        warehouse=warehouse(state, p),
    )


def buildable(state: InlandState) -> set[str]:
    """The buildings the player to move can build now (none when the game is over)."""
    if state.is_terminal():
        return set()
    return {a.building for a in state.legal_actions() if a.verb == "build"}


def offer(state: InlandState) -> list[InlandOffered]:
    """The buildings on offer, in the catalog's order."""
    can = buildable(state)
    out = []
    for i in state.on_offer():
        b = state.catalog.buildings[i]
        out.append(
            InlandOffered(name=b.name, cost=str(b.cost), value=b.value, locked=b.locked, buildable=b.name in can)
        )
    return out


def coming(state: InlandState) -> list[InlandComing]:
    """The buildings of the rounds to come, by round (rounds that bring none left out)."""
    cat = state.catalog
    return [
        InlandComing(round=LETTERS[r], buildings=[cat.buildings[i].name for i in cat.by_round[r]])
        for r in range(state.round + 1, len(LETTERS))
        if cat.by_round[r]
    ]


def inland_view(state: InlandState, seat: int | None = None) -> InlandBoard:
    """The position as ``seat`` (None: a spectator) sees it: in this game, everything (see the module)."""
    over = state.is_terminal()
    wealth = state.wealth()
    r = min(state.round, len(LETTERS) - 1)
    return InlandBoard(
        over=over,
        round_letter=state.round_letter,
        round_number=r + 1,
        rounds=len(LETTERS),
        actions_left=0 if over else actions_left(state),
        actions_in_round=ACTIONS_PER_ROUND[r],
        starting_player=state.starting_player,
        to_move=None if over else state.current_player(),
        acted=state.acted,
        sides=[side(state, p, wealth) for p in range(state.num_players)],
        offer=offer(state),
        coming=coming(state),
    )
