"""The base game's AI levels: a plain table the game's spec declares
(``base_game/__init__.py``, ``ai_levels``).

The ``ai`` agent itself is :class:`core.search.SearchAgent`, with the base
game's evaluation (:mod:`base_game.evaluate`) and actions worth searching from
the spec; it determinises the state for its own seat
(``state.determinize(me, rng)``), so face-down supply tiles and the
special-building pile are sampled, never read.
"""

from __future__ import annotations

from core.protocol import Level

#: Budgets for the base game.  Measured on the 2-core VM: the base game
#: searches ~20,000-30,000 nodes/s, so ai:normal takes well under 0.5 s per
#: searched decision.  The node budget ends a search, so a seeded game is
#: reproduced exactly; the time cap, several times the usual time even on a
#: loaded machine, is only a safety.
BASE_LEVELS: dict[str, Level] = {
    "easy": Level("easy", max_depth=3, max_nodes=1_000, time_cap=4.0),
    "normal": Level("normal", max_depth=64, max_nodes=6_000, time_cap=10.0),
    "hard": Level("hard", max_depth=64, max_nodes=40_000, time_cap=60.0),
}

__all__ = ["BASE_LEVELS"]
