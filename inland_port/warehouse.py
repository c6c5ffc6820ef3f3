"""The warehouse grid (seeds/004, "The meaning of the symbols"; REFERENCE.md).

Three columns worth +0, +1, +2 and rows worth 0, 3, 6, ...: a counter's amount
is row value + column value, so the cell *is* the amount: ``amount = 3*row +
col``.  A counter stops at the edge: a step that would leave the grid (for a
diagonal step: in either direction) is not made, and the rest of that move is
lost (REFERENCE.md [dec]).

Paying N of a good moves the counter only left, down or down-left, to a cell
at least N lower: there is no change (seeds/004, "There are three ways to pay
costs" and "There is no change").  The cells a counter can pay *to* are those
in its own row or below and its own column or to the left.
"""

from __future__ import annotations

from functools import lru_cache

COLS = 3

#: (row delta, column delta) of one step in each direction
DELTA: dict[str, tuple[int, int]] = {
    "right": (0, 1),
    "left": (0, -1),
    "up": (1, 0),
    "down": (-1, 0),
    "up-right": (1, 1),
    "up-left": (1, -1),
    "down-left": (-1, -1),
    "down-right": (-1, 1),
}


def row_col(amount: int) -> tuple[int, int]:
    return divmod(amount, COLS)


@lru_cache(maxsize=None)
def step(amount: int, direction: str, rows: int) -> int:
    """One step; the counter stays where it is if the step leaves the grid."""
    r, c = divmod(amount, COLS)
    dr, dc = DELTA[direction]
    nr, nc = r + dr, c + dc
    if 0 <= nr < rows and 0 <= nc < COLS:
        return nr * COLS + nc
    return amount


def move(amount: int, direction: str, times: int, rows: int) -> int:
    """``times`` steps; the first step that cannot be made ends the move."""
    for _ in range(times):
        nxt = step(amount, direction, rows)
        if nxt == amount:
            break
        amount = nxt
    return amount


def can_step(amount: int, direction: str, rows: int) -> bool:
    return step(amount, direction, rows) != amount


@lru_cache(maxsize=None)
def payable_amounts(amount: int) -> tuple[int, ...]:
    """Every amount this counter can pay, ascending: to cells below-left of it."""
    r, c = divmod(amount, COLS)
    return tuple(sorted({amount - (rr * COLS + cc) for rr in range(r + 1) for cc in range(c + 1)} - {0}))


def pay(amount: int, paid: int) -> int:
    """The counter's amount after paying exactly ``paid`` (one of payable_amounts)."""
    if paid and paid not in payable_amounts(amount):
        raise ValueError(f"a counter at {amount} cannot pay exactly {paid}")
    return amount - paid


def max_amount(rows: int) -> int:
    return rows * COLS - 1
