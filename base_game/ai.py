"""The ``ai`` agent's levels for the base game.

The agent is :class:`core.search.SearchAgent` (determinised alpha-beta): the
base game's spec (:data:`base_game.RULESET`) gives it these budgets and the
evaluation of :mod:`base_game.evaluate`.  It determinises the state for its
own seat with ``state.determinize(me, rng)`` before searching, so face-down
supply tiles and the special-building pile are sampled, never read, and it
answers a decision with a single action worth searching (e.g. a debt that can
be paid one way once sales are left out) without searching.
"""

from __future__ import annotations

from core.protocol import Level

#: Budgets for the base game.  Measured on the 2-core VM: the base game
#: searches ~20,000-30,000 nodes/s, so ai:normal takes well under 0.5 s per
#: searched decision and never more than its 1 s cap.
BASE_LEVELS: dict[str, Level] = {
    "easy": Level("easy", max_depth=3, max_nodes=1_000, time_cap=0.25),
    "normal": Level("normal", max_depth=64, max_nodes=6_000, time_cap=0.8),
    "hard": Level("hard", max_depth=64, max_nodes=40_000, time_cap=8.0),
}

__all__ = ["BASE_LEVELS"]
