"""The frames of the base game's decision stack (see :mod:`base_game.state`).

The top frame says whose decision it is and what it is about.  Every frame is
a small frozen value; :meth:`key` is its part of the state's key (the same
tuple the stack held before the frames were typed, so state hashes and saved
games stay valid).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from base_game.actions import Way

#: the turn's stages: before the main action, after it, the final action, after the final action
TurnStage = Literal["main", "after", "final", "after_final"]
#: what a debt is paid in: interest in francs, feeding in food
DebtKind = Literal["francs", "food"]


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn's player: the main action (``main``/``final``), or additional
    actions and ``end`` after it (``after``/``after_final``)."""

    kind: TurnStage
    player: int

    def key(self) -> tuple[Hashable, ...]:
        return (self.kind, self.player)


@dataclass(frozen=True, slots=True)
class Pay:
    """How ``player`` pays food or energy, to seat ``to`` (or the treasury /
    the supply, see ``state.TREASURY``/``DESTROYED``).

    ``ways`` are the ways worth searching (at least two, the least wasteful
    first: ``payments.PAY_LIMIT``); every other legal way follows from what
    is owed: ``amount`` of ``owed`` (``food``, paid with food and francs, or
    ``energy``), or ``alt_francs`` francs instead of the food (an entry fee
    such as "2 food or 1 Franc").  The key holds only ``ways``, as before
    the other ways were legal: the other ways are never searched, and a
    position's ``ways`` and goods tell its searched children.
    """

    player: int
    to: int
    ways: tuple[Way, ...]
    owed: str = ""
    amount: int = 0
    alt_francs: int = 0
    kind: ClassVar[str] = "pay"

    def key(self) -> tuple[Hashable, ...]:
        return ("pay", self.player, self.to, self.ways)


@dataclass(frozen=True, slots=True)
class Debt:
    """Interest (``francs``) or feeding (``food``) that ``player`` owes."""

    player: int
    owed: DebtKind
    amount: int
    kind: ClassVar[str] = "debt"

    def key(self) -> tuple[Hashable, ...]:
        return ("debt", self.player, self.owed, self.amount)


@dataclass(frozen=True, slots=True)
class Sub:
    """A building's own choice: ``effect`` (a name in ``effects.EFFECTS``) of
    building ``building`` for ``player``; ``data`` is the effect's progress
    (an immutable tuple each effect documents)."""

    player: int
    effect: str
    building: int
    data: tuple[Any, ...] = ()  # each effect's own progress values (ints, tuples, bools); see effects.py
    kind: ClassVar[str] = "sub"

    def key(self) -> tuple[Hashable, ...]:
        return ("sub", self.player, self.effect, self.building, self.data)


@dataclass(frozen=True, slots=True)
class Use:
    """Carry out building ``building``'s action for ``player`` (after the entry fee is paid)."""

    player: int
    building: int
    kind: ClassVar[str] = "do"

    def key(self) -> tuple[Hashable, ...]:
        return ("do", self.player, "use", (self.player, self.building))


@dataclass(frozen=True, slots=True)
class FinishRound:
    """The rest of the end of a round, once everybody is fed (the town builds, a new ship)."""

    player: int = -1
    kind: ClassVar[str] = "do"

    def key(self) -> tuple[Hashable, ...]:
        return ("do", -1, "finish_round", ())


@dataclass(frozen=True, slots=True)
class ShipGoods:
    """The Shipping Line ships ``player``'s most valuable goods, up to ``capacity`` (after the energy is paid)."""

    player: int
    capacity: int
    kind: ClassVar[str] = "do"

    def key(self) -> tuple[Hashable, ...]:
        return ("do", self.player, "ship_goods", (self.player, self.capacity))


Frame = Turn | Pay | Debt | Sub | Use | FinishRound | ShipGoods
#: frames that run by themselves when they reach the top of the stack
Continuation = Use | FinishRound | ShipGoods

__all__ = [
    "Continuation",
    "Debt",
    "DebtKind",
    "FinishRound",
    "Frame",
    "Pay",
    "ShipGoods",
    "Sub",
    "Turn",
    "TurnStage",
    "Use",
]
