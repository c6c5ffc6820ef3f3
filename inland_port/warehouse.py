"""The warehouse grid (the rulebook, "The meaning of the symbols" and "There
are three ways to pay costs").

A counter stands on a *cell*: a row and a column.  Its amount is the row's
value plus the column's ("This player has 7 Wood (6+1)"): moving left pays 1,
down pays 3 and diagonally down-left pays 4, so the columns are worth +0, +1,
+2, ... and the rows 0, 3, 6, ...  Several cells can mean the same amount
(row 0 column +3 and row 3 column +0 both hold 3), so the state keeps the
cell, not only the amount: where a counter stands decides how far it can
still move.

How many columns and rows the printed board has, and where the counters
start, is data (``grid`` in the building file, :class:`inland_port.buildings.Grid`).

Rulings (each made here, once):

* A counter stops at the edge (the rulebook, "Important: a goods counter
  stops at the last space of a row or column"): a step that would leave the
  grid -- for a diagonal step, in either direction -- is not made, and the
  rest of that move is lost.
* Paying N of a good moves the counter only left, down or down-left, so it
  ends on a cell in its own row or below and its own column or to the left,
  holding at least N less; there is no change ("There is no change").  The
  ways offered are the destination cells with the least overpayment; two
  destinations holding the same amount are two ways.

Cells are numbered ``row * columns + column``; a cell's text is its row
value and its column value, ``6+1``.
"""

from __future__ import annotations

import re
from typing import Final

#: what one step in each direction pays or gains, by the rulebook
ROW_VALUE: Final = 3  # down pays 3
COLUMN_VALUE: Final = 1  # left pays 1

#: (row delta, column delta) of one step in each direction
DELTA: Final[dict[str, tuple[int, int]]] = {
    "right": (0, 1),
    "left": (0, -1),
    "up": (1, 0),
    "down": (-1, 0),
    "up-right": (1, 1),
    "up-left": (1, -1),
    "down-left": (-1, -1),
    "down-right": (-1, 1),
}

_CELL_RE: Final = re.compile(r"^\s*(\d+)\s*\+\s*(\d+)\s*$")


class Warehouse:
    """The tables of one grid geometry: amounts, steps and payments by cell.

    Built once per building file and shared by every state of a game; all
    queries are table look-ups, so moving and paying cost nothing to search.
    """

    __slots__ = ("_pay", "_payable", "_step", "amount", "cells", "columns", "key", "rows", "top")

    def __init__(self, columns: int, rows: int) -> None:
        if columns < 1 or rows < 1:
            raise ValueError("a warehouse needs at least one row and one column")
        self.columns = columns
        self.rows = rows
        #: the geometry, for caches keyed by value (two grids of one size answer alike)
        self.key = (columns, rows)
        self.cells = columns * rows
        self.amount: tuple[int, ...] = tuple(
            ROW_VALUE * (c // columns) + COLUMN_VALUE * (c % columns) for c in range(self.cells)
        )
        self.top = max(self.amount)
        steps: dict[str, tuple[int, ...]] = {}
        for d, (dr, dc) in DELTA.items():
            row = []
            for c in range(self.cells):
                r, k = divmod(c, columns)
                nr, nk = r + dr, k + dc
                row.append(nr * columns + nk if 0 <= nr < rows and 0 <= nk < columns else c)
            steps[d] = tuple(row)
        self._step = steps
        self._pay: dict[tuple[int, int], tuple[int, ...]] = {}
        self._payable: dict[int, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        return f"Warehouse({self.columns} columns, {self.rows} rows)"

    def __reduce__(self) -> tuple[type[Warehouse], tuple[int, int]]:
        # copied and pickled by its geometry (a compiled class is made only through its constructor)
        return Warehouse, (self.columns, self.rows)

    # -- cells ----------------------------------------------------------------
    def cell(self, row: int, column: int) -> int:
        """The cell in ``row`` (0 = bottom) and ``column`` (0 = the +0 column)."""
        if not (0 <= row < self.rows and 0 <= column < self.columns):
            raise ValueError(f"row {row}, column {column} is off the {self.rows}x{self.columns} grid")
        return row * self.columns + column

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.columns)

    def text(self, cell: int) -> str:
        """``6+1``: the row's value and the column's value."""
        r, c = divmod(cell, self.columns)
        return f"{ROW_VALUE * r}+{COLUMN_VALUE * c}"

    def parse(self, text: str) -> int:
        """The cell written ``R+C`` (row value + column value)."""
        m = _CELL_RE.match(text)
        if not m:
            raise ValueError(f"'{text}' is not a cell: write the row's value and the column's, like 6+1")
        rv, cv = int(m.group(1)), int(m.group(2))
        if rv % ROW_VALUE or rv // ROW_VALUE >= self.rows or cv >= self.columns:
            rows = ", ".join(str(ROW_VALUE * r) for r in range(self.rows))
            raise ValueError(f"'{text}' is not on the grid (rows {rows}; columns +0 to +{self.columns - 1})")
        return self.cell(rv // ROW_VALUE, cv)

    # -- moving ------------------------------------------------------------------
    def step(self, cell: int, direction: str) -> int:
        """One step; the counter stays where it is if the step leaves the grid."""
        return self._step[direction][cell]

    def can_step(self, cell: int, direction: str) -> bool:
        return self._step[direction][cell] != cell

    def move(self, cell: int, direction: str, times: int) -> int:
        """``times`` steps; the first step that cannot be made ends the move."""
        table = self._step[direction]
        for _ in range(times):
            nxt = table[cell]
            if nxt == cell:
                break
            cell = nxt
        return cell

    # -- paying ---------------------------------------------------------------------
    def payable(self, cell: int) -> tuple[int, ...]:
        """Every amount this counter can pay exactly, ascending (0 excluded)."""
        hit = self._payable.get(cell)
        if hit is None:
            r, c = divmod(cell, self.columns)
            here = self.amount[cell]
            hit = tuple(
                sorted({here - self.amount[rr * self.columns + cc] for rr in range(r + 1) for cc in range(c + 1)} - {0})
            )
            self._payable[cell] = hit
        return hit

    def destinations(self, cell: int, paid: int) -> tuple[int, ...]:
        """The cells this counter can move to by paying exactly ``paid`` (in cell order)."""
        key = (cell, paid)
        hit = self._pay.get(key)
        if hit is None:
            r, c = divmod(cell, self.columns)
            want = self.amount[cell] - paid
            hit = tuple(
                rr * self.columns + cc
                for rr in range(r + 1)
                for cc in range(c + 1)
                if self.amount[rr * self.columns + cc] == want and (rr, cc) != (r, c)
            )
            self._pay[key] = hit
        return hit

    def least_payment(self, cell: int, cost: int) -> int | None:
        """What a counter pays, least wastefully, for ``cost`` (None: it cannot)."""
        if cost <= 0:
            return 0
        for paid in self.payable(cell):
            if paid >= cost:
                return paid
        return None
