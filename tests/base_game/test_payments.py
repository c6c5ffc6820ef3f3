"""Ways to pay food/energy: identical to core.payment's answer (least waste, no change).

Rules: seeds/000 Rule clarifications, "Change money, but no change for food or energy".
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from base_game.payments import enumerate_ways, ways_to_pay
from core.payment import payment_options

UNITS = [("fish", 1), ("smoked", 2), ("bread", 2), ("meat", 3), ("franc", 1)]
ENERGY = [("wood", 1), ("charcoal", 3), ("coal", 3), ("coke", 10)]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(counts=st.lists(st.integers(0, 9), min_size=5, max_size=5), cost=st.integers(1, 25), energy=st.booleans())
def test_same_as_core_payment(counts, cost, energy):
    units = ENERGY if energy else UNITS
    src = [(k, u, n) for (k, u), n in zip(units, counts, strict=False)]
    want = payment_options({k: [u * i for i in range(1, n + 1)] for k, u, n in src if n}, cost, limit=4)
    assert ways_to_pay(src, cost, 4) == want
    positive = [(k, u, min(n, -(-cost // u))) for k, u, n in src if n]
    if sum(u * n for _, u, n in positive) >= cost:
        assert enumerate_ways(positive, cost, 4) == want


def test_large_stock_is_fast_and_exact():
    src = [("fish", 1, 30), ("smoked", 2, 20), ("bread", 2, 20), ("meat", 3, 15), ("franc", 1, 60)]
    ways = ways_to_pay(src, 25, 4)
    assert ways[0] == {"fish": 25} and all(sum(w.values()) == 25 for w in ways)
    assert ways_to_pay([("coke", 10, 1), ("wood", 1, 0)], 3, 4) == [{"coke": 10}]
