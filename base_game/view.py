"""What one seat may see of the set-up, as options of a game that replays the history the way that
seat saw it (for network play: a client rebuilds its position from these, never from the seed).

Hidden in the base game (Setup and Explanation of Components): the order of the face-down supply
tiles, and which special buildings lie face down in which order; a player who looked at the top two
with the Marketplace knows them (until another player swaps them).  Everything revealed so far keeps
its true place; the rest is filled in a canonical order (sorted), which tells nothing.
"""

from __future__ import annotations

from base_game import cards as K
from base_game.frames import Sub
from base_game.setup import GameOptions
from base_game.state import BaseState


def known_specials(state: BaseState, seat: int | None) -> set[int]:
    """The face-down special buildings ``seat`` knows (looked at with the Marketplace)."""
    if seat is None or not 0 <= seat < state.num_players:
        return set()
    known = set(state.peek_known[seat])
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Sub) and top.player == seat and top.effect == "peek":
        known |= set(state.special_pile[:2])  # looking at the top two right now
    return known


def seat_setup(setup: BaseState, now: BaseState, seat: int | None) -> GameOptions:
    """The options of a game that replays ``now``'s history as ``seat`` saw it (see the module)."""
    tiles = list(setup.supply_tiles[: now.tiles_revealed]) + sorted(setup.supply_tiles[now.tiles_revealed :])
    options = setup.options.model_copy(
        update={
            "supply_tiles": tiles,
            "proposal_piles": [[K.NAME[b] for b in pile] for pile in setup.proposal_piles],
            "special_pile": None,
        }
    )
    if setup.short or not setup.special_pile:
        return options
    face_down = set(now.special_pile)
    seen = (set(setup.special_pile) - face_down) | known_specials(now, seat)
    fillers = iter(sorted(b for b in setup.special_pool if b not in seen))
    pile = [b if b in seen else next(fillers) for b in setup.special_pile]
    return options.model_copy(update={"special_pile": [K.NAME[b] for b in pile]})
