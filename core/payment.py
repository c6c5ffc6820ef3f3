"""Payment without change.

Food and energy never give change (REFERENCE.md, Rulings; seeds/000 "no
change is given"), and the Inland Port's warehouse pays by moving counters
(seeds/004, "There is no change").  Both reduce to one question: given
several *sources*, each of which can contribute only certain amounts, which
combinations cover a cost?  This module answers it once for both games.

A source is described by the sorted amounts it can contribute (a pile of
fish tokens worth 1 food each: 1, 2, ..., n; smoked fish: 2, 4, ...; an
Inland Port counter at 7: 1, 3, 4, 6, 7 ...).  A *way to pay* maps each
source used to the amount it contributes.  Only *minimal* ways are listed:
taking any source one step lower would no longer cover the cost.  They come
least wasteful first (smallest overpayment), then in the order the sources
were given, so the first way is always the one a careful player picks.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def token_amounts(count: int, unit: int) -> list[int]:
    """What a pile of ``count`` tokens worth ``unit`` each can contribute."""
    return [unit * k for k in range(1, count + 1)]


def payment_options(sources: Mapping[K, Sequence[int]], cost: int, limit: int | None = None) -> list[dict[K, int]]:
    """Every minimal way to cover ``cost``, least wasteful first.

    ``sources`` maps a source to the positive amounts it can contribute (any
    order, duplicates ignored; contributing nothing is always possible).
    Returns ``[{}]`` for a cost of 0 or less and ``[]`` when the cost cannot
    be covered.  ``limit`` caps how many ways are returned (after sorting).
    """
    if cost <= 0:
        return [{}]
    keys = list(sources)
    steps = {k: sorted({a for a in sources[k] if a > 0}) for k in keys}
    if sum(s[-1] for s in steps.values() if s) < cost:
        return []

    def rec(i: int, remaining: int) -> Iterator[dict[K, int]]:
        if remaining <= 0:
            yield {}
            return
        if i == len(keys):
            return
        k = keys[i]
        # nothing from this source
        yield from rec(i + 1, remaining)
        for amount in steps[k]:
            if amount >= remaining:
                yield {k: amount}
                break
            for rest in rec(i + 1, remaining - amount):
                yield {k: amount, **rest}

    def minimal(way: dict[K, int]) -> bool:
        total = sum(way.values())
        for k, amount in way.items():
            lower = [a for a in steps[k] if a < amount]
            if total - amount + (lower[-1] if lower else 0) >= cost:
                return False
        return True

    ways = [w for w in rec(0, cost) if minimal(w)]
    # least waste first, then more from the earlier sources (``keys`` is the sources' order)
    ways.sort(key=lambda w: (sum(w.values()) - cost, [-(w.get(k, 0)) for k in keys]))
    return ways[:limit] if limit is not None else ways


def cheapest_payment(sources: Mapping[K, Sequence[int]], cost: int) -> dict[K, int] | None:
    """The least wasteful way to pay, or ``None`` if the cost cannot be covered."""
    ways = payment_options(sources, cost, limit=1)
    return ways[0] if ways else None


def overpayment(way: Mapping[K, int], cost: int) -> int:
    return max(0, sum(way.values()) - cost)
