"""Helpers to build Inland Port positions for rule tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.protocol import parse_action
from inland_port import RULESET
from inland_port.state import InlandState

SECTOR_INDEX = {"0": 0, "2": 1, "3": 2, "4": 3, "4+1": 4}


def cells(s: InlandState, goods) -> tuple[int, int, int, int]:
    """Counters (fish, grain, wood, clay) given as cell texts ``"R+C"`` (row value +
    column value, e.g. ``"6+1"``), or as ints: an amount ``a`` stands in row ``a // 3``,
    column ``a % 3`` (one of the columns +0, +1, +2)."""
    wh = s.catalog.warehouse
    out = []
    for g in goods:
        out.append(wh.parse(g) if isinstance(g, str) else wh.cell(g // 3, g % 3))
    return tuple(out)  # type: ignore[return-value]


def texts(s: InlandState, seat: int = 0) -> tuple[str, ...]:
    """Seat ``seat``'s counters as cell texts (fish, grain, wood, clay)."""
    return tuple(s.catalog.warehouse.text(c) for c in s.cells[seat])


def position(goods=None, francs=3, buildings=(), opp_goods=None, opp_francs=3, round_letter="L", turn=0) -> InlandState:
    """A state where seat ``turn`` is to act.  ``buildings``: (name, owner seat, sector label).

    ``goods``/``opp_goods``: see :func:`cells`; ``None`` is the start cells."""
    s = RULESET.new_game(0)
    s.round = "ABCDEFGHIJKL".index(round_letter)
    s.actions_left = 9
    s.turn = turn
    start = s.catalog.start_cells
    mine = start if goods is None else cells(s, goods)
    theirs = start if opp_goods is None else cells(s, opp_goods)
    s.cells = [mine, theirs] if turn == 0 else [theirs, mine]
    s.francs = [francs, opp_francs] if turn == 0 else [opp_francs, francs]
    for name, owner, sector in buildings:
        i = s.catalog.index[name]
        s.owner[i] = owner
        s.sector[i] = SECTOR_INDEX[sector]
    s._legal = None
    return s


def play(s: InlandState, text: str) -> InlandState:
    """Apply typed text (it must be legal) and return the state (a main action
    may leave the turn open for sales: see :func:`finish_turn`)."""
    s.apply_action(parse_action(s, text))
    return s


def finish_turn(s: InlandState) -> InlandState:
    """End the turn if the mover has acted (``end``)."""
    if s.acted:
        s.apply_action(parse_action(s, "end"))
    return s


def uses(s: InlandState, name: str) -> list[str]:
    return [str(a) for a in s.legal_actions() if a.verb == "use" and a.building == name]


def random_game_tests(check: Callable[[int, float], None], sell_weights: Sequence[float]) -> tuple[Any, Any]:
    """Two property tests of ``check(seed, sell_weight)`` on whole random games: the regular one (150
    games) and the long one (2,000 games, under ``-m slow``)."""
    runs: dict[str, Any] = {"deadline": None, "derandomize": True, "suppress_health_check": [HealthCheck.too_slow]}
    games = given(seed=st.integers(min_value=0, max_value=2**32 - 1), sell_weight=st.sampled_from(list(sell_weights)))

    def regular(seed: int, sell_weight: float) -> None:
        check(seed, sell_weight)

    def long(seed: int, sell_weight: float) -> None:
        check(seed, sell_weight)

    return settings(max_examples=150, **runs)(games(regular)), pytest.mark.slow(
        settings(max_examples=2000, **runs)(games(long))
    )
