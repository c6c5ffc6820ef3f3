"""Ways to pay food or energy without change, fast for large stocks.

The answer is exactly :func:`core.payment.payment_options`' (every minimal
way, least wasteful first, then more from the earlier sources first, at most
``limit``); ``tests/base_game/test_payments.py`` checks that on random
inputs.  Small cases go to :mod:`core.payment` itself; large stocks (late in
a game, or inside a search) use the enumeration below, which walks totals
from the cost upward and, per total, the sources in order taking as many
tokens as possible first, pruned by which sums the later sources can still
reach exactly.  A way that overpays by ``w`` is minimal exactly when every
source it uses has a unit larger than ``w``.

Every minimal way is a legal payment ("Players can pay all or part of their
food requirement in Francs", seeds/000, Feeding phase; "Food can always be
replaced 1:1 with Francs", Entry Fee).  A decision lists all of them
(``limit=ALL``), but only the first :data:`PAY_LIMIT` (the least wasteful)
are worth searching: a way further down pays more of the same kinds, or
keeps food or energy while spending francs.  :func:`is_way` tells whether
a way is one of them without listing them all.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Final, TypeVar

from core.payment import payment_options

K = TypeVar("K", bound=Hashable)

#: above this many combinations the fast enumeration is used
SMALL: Final = 400
#: the ways worth searching, and the first shown to a player: the least wasteful
PAY_LIMIT: Final = 4
#: as a ``limit``: every minimal way
ALL: Final = sys.maxsize


def ways_to_pay(sources: Sequence[tuple[K, int, int]], cost: int, limit: int) -> list[dict[K, int]]:
    """``sources``: (key, unit, count) in preference order; returns up to ``limit`` ways."""
    if cost <= 0:
        return [{}]
    src = [(k, u, min(n, -(-cost // u))) for k, u, n in sources if n > 0]
    if sum(u * n for _, u, n in src) < cost:
        return []
    combos = 1
    for _, _, n in src:
        combos *= n + 1
    if combos <= SMALL:
        return payment_options({k: [u * i for i in range(1, n + 1)] for k, u, n in src}, cost, limit=limit)
    return enumerate_ways(src, cost, limit)


def enumerate_ways(src: Sequence[tuple[K, int, int]], cost: int, limit: int) -> list[dict[K, int]]:
    """The fast enumeration (sources with positive counts, in preference order)."""
    out: list[dict[K, int]] = []
    max_unit = max(u for _, u, _ in src)
    for waste in range(max_unit):
        total = cost + waste
        allowed = [(k, u, n if u > waste else 0) for k, u, n in src]
        # reach[i]: bitmask of sums the sources i.. can make exactly (up to total)
        mask = (1 << (total + 1)) - 1
        reach = [0] * (len(allowed) + 1)
        reach[-1] = 1
        for i in range(len(allowed) - 1, -1, -1):
            _, u, n = allowed[i]
            r = 0
            nxt = reach[i + 1]
            for a in range(n + 1):
                r |= nxt << (a * u)
            reach[i] = r & mask
        if not (reach[0] >> total) & 1:
            continue
        way: dict[K, int] = {}

        def dfs(i: int, remaining: int) -> bool:
            if remaining == 0:
                out.append(dict(way))
                return len(out) >= limit
            if i == len(allowed):
                return False
            k, u, n = allowed[i]
            for a in range(min(n, remaining // u), -1, -1):
                rest = remaining - a * u
                if (reach[i + 1] >> rest) & 1:
                    if a:
                        way[k] = a * u
                    if dfs(i + 1, rest):
                        return True
                    way.pop(k, None)
            return False

        if dfs(0, total):
            break
    return out


def is_way(sources: Sequence[tuple[K, int, int]], cost: int, way: Sequence[tuple[K, int]]) -> bool:
    """Whether ``way`` (``(key, amount)`` pairs) is one of ``ways_to_pay(sources, cost, ALL)``.

    It is when its keys come in the sources' order, each amount is a
    positive multiple of its unit within the stock, the total covers the
    cost, and every source used has a unit larger than the overpayment
    (taking one token less would no longer cover the cost).
    """
    index = {k: i for i, (k, _, _) in enumerate(sources)}
    last = -1
    total = 0
    units = []
    for k, amount in way:
        i = index.get(k, -1)
        if i <= last:
            return False
        last = i
        _, u, n = sources[i]
        if amount <= 0 or amount % u or amount > u * n:
            return False
        total += amount
        units.append(u)
    if total < cost:
        return False
    return all(u > total - cost for u in units)
