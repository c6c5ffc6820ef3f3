"""The frames of the base game's decision stack (see :mod:`base_game.state`).

The top frame says whose decision it is and what it is about.  Every frame is
a small value, never changed once made (a state's copy shares its frames);
:meth:`key` is its part of the state's key (the same tuple the stack held
before the frames were typed, so state hashes and saved games stay valid).
Frames are plain classes with declared attributes, so that a compiled engine
(mypyc) makes them native: ``kind`` is an attribute of every frame, and two
frames are equal when their classes and :meth:`_values` are.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Literal, final

from base_game.actions import Way

#: the turn's stages: before the main action, after it, the final action, after the final action
TurnStage = Literal["main", "after", "final", "after_final"]
#: what a debt is paid in: interest in francs, feeding in food
DebtKind = Literal["francs", "food"]


class _Frame:
    """What every frame has: whose decision (``player``), what it is about (``kind``), equality by value."""

    __slots__ = ("kind", "player")
    kind: str
    player: int

    def _values(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Frame) and other._values() == self._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._values()!r}"

    def __reduce__(self) -> tuple[type[_Frame], tuple[Any, ...]]:
        """Copied and pickled through the constructor (a compiled class is made no other way): every frame's
        values are its constructor's arguments, in order."""
        return (type(self), self._values())


@final
class Turn(_Frame):
    """The turn's player: the main action (``main``/``final``), or additional
    actions and ``end`` after it (``after``/``after_final``)."""

    __slots__ = ()

    def __init__(self, kind: TurnStage, player: int) -> None:
        self.kind = kind
        self.player = player

    def _values(self) -> tuple[Any, ...]:
        return (self.kind, self.player)

    def key(self) -> tuple[Hashable, ...]:
        return (self.kind, self.player)


@final
class Pay(_Frame):
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

    __slots__ = ("alt_francs", "amount", "owed", "to", "ways")
    to: int
    ways: tuple[Way, ...]
    owed: str
    amount: int
    alt_francs: int

    def __init__(
        self, player: int, to: int, ways: tuple[Way, ...], owed: str = "", amount: int = 0, alt_francs: int = 0
    ) -> None:
        self.kind = "pay"
        self.player = player
        self.to = to
        self.ways = ways
        self.owed = owed
        self.amount = amount
        self.alt_francs = alt_francs

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.to, self.ways, self.owed, self.amount, self.alt_francs)

    def key(self) -> tuple[Hashable, ...]:
        return ("pay", self.player, self.to, self.ways)


@final
class Debt(_Frame):
    """Interest (``francs``) or feeding (``food``) that ``player`` owes."""

    __slots__ = ("amount", "owed")
    owed: DebtKind
    amount: int

    def __init__(self, player: int, owed: DebtKind, amount: int) -> None:
        self.kind = "debt"
        self.player = player
        self.owed = owed
        self.amount = amount

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.owed, self.amount)

    def key(self) -> tuple[Hashable, ...]:
        return ("debt", self.player, self.owed, self.amount)


@final
class Sub(_Frame):
    """A building's own choice: ``effect`` (a name in ``effects.EFFECTS``) of
    building ``building`` for ``player``; ``data`` is the effect's progress
    (an immutable tuple each effect documents)."""

    __slots__ = ("building", "data", "effect")
    effect: str
    building: int
    data: tuple[Any, ...]  # each effect's own progress values (ints, tuples, bools); see effects.py

    def __init__(self, player: int, effect: str, building: int, data: tuple[Any, ...] = ()) -> None:
        self.kind = "sub"
        self.player = player
        self.effect = effect
        self.building = building
        self.data = data

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.effect, self.building, self.data)

    def key(self) -> tuple[Hashable, ...]:
        return ("sub", self.player, self.effect, self.building, self.data)


@final
class Use(_Frame):
    """Carry out building ``building``'s action for ``player`` (after the entry fee is paid)."""

    __slots__ = ("building",)
    building: int

    def __init__(self, player: int, building: int) -> None:
        self.kind = "do"
        self.player = player
        self.building = building

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.building)

    def key(self) -> tuple[Hashable, ...]:
        return ("do", self.player, "use", (self.player, self.building))


@final
class FinishRound(_Frame):
    """The rest of the end of a round, once everybody is fed (the town builds, a new ship)."""

    __slots__ = ()

    def __init__(self, player: int = -1) -> None:
        self.kind = "do"
        self.player = player

    def _values(self) -> tuple[Any, ...]:
        return (self.player,)

    def key(self) -> tuple[Hashable, ...]:
        return ("do", -1, "finish_round", ())


@final
class ShipGoods(_Frame):
    """The Shipping Line ships ``player``'s most valuable goods, up to ``capacity`` (after the energy is paid)."""

    __slots__ = ("capacity",)
    capacity: int

    def __init__(self, player: int, capacity: int) -> None:
        self.kind = "do"
        self.player = player
        self.capacity = capacity

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.capacity)

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
