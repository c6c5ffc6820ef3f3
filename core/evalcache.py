"""A game's evaluation as a weighted sum of named terms, cached by position: written once for every game.

The search judges the same position many times (transpositions, each deepening of the search), so a
game's evaluator keeps each value by the position's key and the seat.  A game whose evaluation is
``sum(weights[t] * features[t])`` over named terms declares one :class:`WeightedSum`: how to compute
the value and the named terms with some weights, and the position's key; from it comes the game's
:class:`~core.protocol.Evaluator` (:meth:`WeightedSum.evaluator`): the evaluation with the shipped
weights, cached, and its :class:`~core.protocol.EvalTuning` (the unweighted features, and the evaluation
with any other weights, cached likewise: what the evaluation tuner plays).

A cache forgets everything once it holds more than its limit (:func:`remember`): cheaper on the
search's path than keeping the most recent, and a search's working set fits below the limit.  A cache only
saves time, so emptying it never changes play: the engine's caches of positions are :func:`registered`,
and :func:`forget` empties them all (the lab does between games, so a process that plays game after game
holds one game's entries, not every game's up to the limits).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final, Generic, Protocol, TypeVar

from core.protocol import EvalTuning, Evaluator

#: a game's state type
S = TypeVar("S")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Clearable(Protocol):
    """A cache: anything :func:`forget` can empty."""

    def clear(self) -> None: ...


C = TypeVar("C", bound=Clearable)

#: the caches :func:`forget` empties (each registered once, where it is made)
_REGISTERED: list[Clearable] = []


def registered(cache: C) -> C:
    """``cache``, registered to be emptied by :func:`forget`."""
    _REGISTERED.append(cache)
    return cache


def forget() -> None:
    """Empty every :func:`registered` cache: play is the same, and the memory is free for the next game."""
    for cache in _REGISTERED:
        cache.clear()


def remember(cache: dict[K, V], key: K, value: V, limit: int) -> V:
    """``value``, kept in ``cache`` under ``key`` (the cache emptied first once it holds more than ``limit``)."""
    if len(cache) > limit:
        cache.clear()
    cache[key] = value
    return value


class WeightedSum(Generic[S]):
    """A game's evaluation ``sum(weights[t] * features[t])`` over ``terms``, its weights and their cache.

    ``value(state, player, weights)`` is the evaluation with ``weights`` (uncached) and
    ``named(state, player, weights)`` its named terms (they sum to it); ``key(state)`` is all they
    read of the position (the cache's key, with the seat).  ``weights`` are the shipped weights, read
    from the data file ``path``; ``limit`` is each cache's size.  (A plain class: the compiled engine,
    :mod:`core.compiled`, takes no generic dataclass.)
    """

    def __init__(
        self,
        terms: tuple[str, ...],
        weights: Mapping[str, float],
        path: str,
        value: Callable[[S, int, Mapping[str, float]], float],
        named: Callable[[S, int, Mapping[str, float]], dict[str, float]],
        key: Callable[[S], Hashable],
        limit: int,
    ) -> None:
        self.terms: Final = terms
        self.weights: Final = weights
        self.path: Final = path
        self.value: Final = value
        self.named: Final = named
        self.key: Final = key
        self.limit: Final = limit

    def cached(
        self, weights: Mapping[str, float], cache: dict[tuple[Hashable, int], float] | None = None
    ) -> Callable[[S, int], float]:
        """The evaluation with ``weights`` (one per term), cached by position and seat in ``cache`` (by default
        a cache of its own)."""
        ws = weights if weights is self.weights else {t: float(weights[t]) for t in self.terms}
        kept: dict[tuple[Hashable, int], float] = {} if cache is None else cache
        value, key, limit = self.value, self.key, self.limit

        def evaluate(state: S, player: int) -> float:
            k = (key(state), player)
            hit = kept.get(k)
            if hit is not None:
                return hit
            v = value(state, player, ws)
            if len(kept) > limit:
                kept.clear()
            kept[k] = v
            return v

        return evaluate

    def weighted_terms(self, state: S, player: int) -> dict[str, float]:
        """The named terms with the shipped weights."""
        return self.named(state, player, self.weights)

    def features(self, state: S, player: int) -> dict[str, float]:
        """The terms with every weight 1 (their sum weighted by :attr:`weights` is the evaluation)."""
        return self.named(state, player, dict.fromkeys(self.terms, 1.0))

    def tuning(self) -> EvalTuning:
        """What the evaluation tuner needs: the features, the evaluation with other weights, the weights."""
        return EvalTuning(features=self.features, weighted=self.cached, weights=self.weights, path=self.path)

    def evaluator(self, search_actions: Callable[[S], list[Any]]) -> Evaluator:
        """The game's evaluator: this evaluation with the shipped weights (cached, the cache
        :func:`registered`), its named terms, the actions worth searching and the tuning."""
        return Evaluator(
            evaluate=self.cached(self.weights, registered({})),
            terms=self.weighted_terms,
            search_actions=search_actions,
            tuning=self.tuning(),
        )
