"""The ``ai`` agent for the base game: core.search's determinised alpha-beta
with the base game's evaluation (:mod:`base_game.evaluate`).

:class:`BaseAwareSearchAgent` is a :class:`core.search.SearchAgent` that, on a
base-game state (``state.ruleset == "base"``):

* answers forced and trivial decisions without searching: when the search
  would consider a single action (``state.search_actions()``, e.g. a debt that
  can be paid one way once sales are left out) it plays it at once;
* searches with the budgets of :data:`BASE_LEVELS` (or ``think_time``);
* otherwise behaves exactly like ``SearchAgent`` (it determinises the state
  for its own seat with ``state.determinize(me, rng)`` before searching, so
  face-down supply tiles and the special-building pile are sampled, never
  read).

On any other game (the Inland Port) it is ``SearchAgent`` unchanged.
Importing this module registers it as the ``ai`` agent kind, so
``make_agent("ai:LEVEL")`` gives it for every game.
"""

from __future__ import annotations

import time
from typing import Any

from core.search import LEVELS, Level, ProgressCallback, Searcher, SearchAgent, evaluation_terms

#: Budgets for the base game.  Measured on the 2-core VM: the base game
#: searches ~20,000-30,000 nodes/s, so ai:normal takes well under 0.5 s per
#: searched decision and never more than its 1 s cap.
BASE_LEVELS: dict[str, Level] = {
    "easy": Level("easy", max_depth=3, max_nodes=1_000, time_cap=0.25),
    "normal": Level("normal", max_depth=64, max_nodes=6_000, time_cap=0.8),
    "hard": Level("hard", max_depth=64, max_nodes=40_000, time_cap=8.0),
}


class BaseAwareSearchAgent(SearchAgent):
    """``SearchAgent`` with the base game's budgets and trivial-move shortcut."""

    def _is_base(self, state: Any) -> bool:
        return getattr(state, "ruleset", None) == "base"

    def searcher(self, seed: int, progress: ProgressCallback | None = None) -> Searcher:
        if not getattr(self, "_base_now", False):
            return super().searcher(seed, progress)
        return super().searcher(seed, progress, level=BASE_LEVELS[self.level.name])

    def choose(self, state: Any, progress: ProgressCallback | None = None) -> Any:
        if not self._is_base(state):
            self._base_now = False
            return super().choose(state, progress)
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action to choose from")
        t0 = time.perf_counter()
        acts = self.actions(state) if self.actions is not None else state.search_actions()
        if len(legal) > 1 and len(acts) == 1 and str(acts[0]) in {str(a) for a in legal}:
            me = state.current_player()
            action = next(a for a in legal if str(a) == str(acts[0]))
            value = float(self.evaluator(state, me) if self.evaluator else state.evaluate(me))
            self.last_info = {"action": str(action), "pv": [str(action)], "score": value,
                              "depth": 0, "nodes": 0, "nps": 0.0, "time": time.perf_counter() - t0,
                              "tt_probes": 0, "tt_hits": 0, "tt_hit_rate": 0.0,
                              "alternatives": [(str(action), value)],
                              "terms": evaluation_terms(state, me), "level": self.level.name,
                              "forced": True}
            return action
        self._base_now = True
        try:
            return super().choose(state, progress)
        finally:
            self._base_now = False


def _factory(level: str | None, seed: int) -> BaseAwareSearchAgent:
    return BaseAwareSearchAgent(level=level, seed=seed)


def _register() -> None:
    from core.agents import register_agent

    register_agent("ai", _factory)


_register()

__all__ = ["BASE_LEVELS", "BaseAwareSearchAgent", "LEVELS"]
