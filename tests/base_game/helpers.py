"""Helpers for the base game tests: build a position, then act by canonical texts."""

from __future__ import annotations

from base_game import RULESET
from base_game import cards as K
from base_game.state import NOWHERE, TOWN
from core.protocol import parse_action


def new(players: int = 2, short: bool = False, seed: int = 0, **opts):
    return RULESET.new_game(seed, {"players": players, "short": short, **opts})


def play(s, *texts: str) -> None:
    """Apply each text through the generic parser (so it must be legal)."""
    for t in texts:
        s.apply_action(parse_action(s, t))


def end_turn(s) -> None:
    """Pass the rest of the turn (the 'after' decision) if it is offered."""
    while not s.is_terminal() and s.stack[-1].kind in ("after", "after_final"):
        s.apply_action("end")


def goods(s, p: int, **amounts: int) -> None:
    for g, n in amounts.items():
        if g == "francs":
            s.francs[p] = n
        else:
            s.goods[p][K.GI[g]] = n


def clear(s, p: int) -> None:
    s.goods[p] = [0] * K.NG
    s.francs[p] = 0


def own(s, p: int, *names: str) -> None:
    """Give buildings to player ``p`` (or to the town with p=-1), off the piles."""
    for name in names:
        b = K.bid(name)
        if s.owner[b] == NOWHERE:
            s.remove_from_piles(b)
            if b in s.special_pile:
                s.special_pile.remove(b)
        s.owner[b] = p


def have(s, p: int, good: str) -> int:
    return s.goods[p][K.GI[good]]


def legal(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


__all__ = ["TOWN", "K", "clear", "end_turn", "goods", "have", "legal", "new", "own", "play"]
