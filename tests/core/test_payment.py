"""Payment without change (core/payment.py).

seeds/000_3a1c2d85c0e157da.txt: food and energy give no change; REFERENCE.md: francs give change, food and energy
never do.  seeds/004 "There is no change": paying 2 wood from 7 moves the counter down (3).
"""

from hypothesis import given
from hypothesis import strategies as st

from core.payment import cheapest_payment, payment_options, token_amounts
from inland_port.warehouse import Warehouse


def test_inland_example_two_wood_from_seven():
    # seeds/004: 7 wood = 6 in the second column; 2 wood can only be paid by moving down (3).
    wh = Warehouse(6, 6)
    seven = wh.parse("6+1")
    assert wh.payable(seven) == (1, 3, 4, 6, 7)
    assert payment_options({"wood": wh.payable(seven)}, 2) == [{"wood": 3}]


def test_least_wasteful_first_and_only_minimal_ways():
    ways = payment_options(
        {"fish": token_amounts(3, 1), "smoked": token_amounts(2, 2), "franc": token_amounts(5, 1)}, 4
    )
    assert all(sum(w.values()) == 4 for w in ways)  # exact ways exist, so no overpaying way is minimal
    assert {"smoked": 4} in ways and {"fish": 3, "franc": 1} in ways
    assert {"fish": 3, "smoked": 2} not in ways  # could drop a fish and still cover
    ways = payment_options({"bread": token_amounts(2, 2), "meat": token_amounts(1, 3)}, 3)
    assert ways[0] == {"meat": 3} and {"bread": 4} in ways and {"bread": 2, "meat": 3} not in ways


def test_uncoverable_and_free():
    assert payment_options({"fish": [1, 2]}, 5) == []
    assert cheapest_payment({"fish": [1]}, 0) == {}


@given(st.lists(st.integers(0, 6), min_size=1, max_size=4), st.integers(1, 12))
def test_every_way_covers_and_is_minimal(counts, cost):
    sources = {f"s{i}": token_amounts(n, i + 1) for i, n in enumerate(counts)}
    ways = payment_options(sources, cost)
    total_available = sum(n * (i + 1) for i, n in enumerate(counts))
    assert bool(ways) == (total_available >= cost)
    wastes = [sum(w.values()) - cost for w in ways]
    assert wastes == sorted(wastes)
    for w in ways:
        assert sum(w.values()) >= cost
        for k, _a in w.items():
            unit = int(k[1:]) + 1
            assert sum(w.values()) - unit < cost  # one token less no longer covers
