"""Helpers to build Inland Port positions for rule tests."""

from __future__ import annotations

from core.protocol import parse_action
from inland_port import RULESET
from inland_port.state import InlandState

SECTOR_INDEX = {"0": 0, "2": 1, "3": 2, "4": 3, "4+1": 4}


def position(goods=(4, 1, 2, 3), francs=3, buildings=(), opp_goods=(4, 1, 2, 3), opp_francs=3, round_letter="L", turn=0) -> InlandState:
    """A state where seat ``turn`` is to act.  ``buildings``: (name, owner seat, sector label)."""
    s = RULESET.new_game(0)
    s.round = "ABCDEFGHIJKL".index(round_letter)
    s.actions_left = 9
    s.turn = turn
    s.goods = [tuple(goods), tuple(opp_goods)] if turn == 0 else [tuple(opp_goods), tuple(goods)]
    s.francs = [francs, opp_francs] if turn == 0 else [opp_francs, francs]
    for name, owner, sector in buildings:
        i = s.catalog.index[name]
        s.owner[i] = owner
        s.sector[i] = SECTOR_INDEX[sector]
    s._legal = None
    return s


def play(s: InlandState, text: str) -> InlandState:
    """Apply typed text (it must be legal) and return the state."""
    s.apply_action(parse_action(s, text))
    return s


def uses(s: InlandState, name: str) -> list[str]:
    return [str(a) for a in s.legal_actions() if a.verb == "use" and a.building == name]
