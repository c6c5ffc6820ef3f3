"""The balancing targets and how far a set of games is from them.

The measures come from :func:`core.lab.playtest.summarize` (the same figures the
playtest tables show): the first seat's share of the decisive games, each
building's share of games in which it was built or bought, and the share of
the games where someone owned it at the end that its owner won.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.lab import stats
from core.lab.playtest import Config, summarize


@dataclass(frozen=True)
class Targets:
    """What balanced data achieves (shares between 0 and 1)."""

    first_low: float = 0.45
    first_high: float = 0.55
    min_built: float = 0.05
    max_owner_win: float = 0.70

    def describe(self) -> str:
        return (
            f"first seat {100 * self.first_low:g}–{100 * self.first_high:g}% of decisive games; every building "
            f"built in at least {100 * self.min_built:g}% of games; no building whose owner wins more than "
            f"{100 * self.max_owner_win:g}% of the games it was owned in"
        )


@dataclass(frozen=True)
class Measures:
    """One candidate's games measured against the targets; ``penalty`` 0 meets them all."""

    games: int
    first_wins: int
    decisive: int
    #: building -> (games built or bought in, games owned at the end, games its owner won)
    buildings: dict[str, tuple[int, int, int]]
    penalty: float
    #: what is off target, worst first: (kind, building or "", how far off)
    misses: tuple[tuple[str, str, float], ...]

    @property
    def first_share(self) -> float:
        return self.first_wins / self.decisive if self.decisive else 0.5

    def first_ci(self) -> tuple[float, float]:
        return stats.wilson_interval(self.first_wins, self.decisive)

    def built_rate(self, name: str) -> tuple[float, float, float]:
        """Share of games ``name`` was built in, with its 95% Wilson interval."""
        k = self.buildings.get(name, (0, 0, 0))[0]
        lo, hi = stats.wilson_interval(k, self.games)
        return (k / self.games if self.games else 0.0, lo, hi)

    def owner_rate(self, name: str) -> tuple[float, float, float] | None:
        """Share of the games ``name`` was owned in that its owner won (``None``: never owned)."""
        _b, owned, won = self.buildings.get(name, (0, 0, 0))
        if not owned:
            return None
        lo, hi = stats.wilson_interval(won, owned)
        return (won / owned, lo, hi)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "first_seat_share": self.first_share,
            "first_seat_ci95": list(self.first_ci()),
            "decisive": self.decisive,
            "penalty": self.penalty,
            "misses": [list(m) for m in self.misses],
        }


def owner_estimate(won: int, owned: int) -> float:
    """The owner's win rate as the targets judge it: ``(won + 1) / (owned + 2)`` (Laplace's rule), so that
    a building owned in two games, both won, is not judged a sure win on them alone."""
    return (won + 1) / (owned + 2)


def measure(config: Config, records: Iterable[dict[str, Any]], names: Sequence[str], targets: Targets) -> Measures:
    """How far ``records`` (games of ``config``, read one at a time) are from ``targets``, for the buildings ``names``.

    The penalty adds the first seat's distance from its band, every
    building's shortfall below the built share and every owner win rate
    (:func:`owner_estimate`) above the limit (all as shares); rounded to 1e-9 so that equal games give equal
    penalties on any machine.
    """
    s = summarize(config, records)
    n = s["games"]
    first_wins = s["seats"][0]["count"] if s["players"] > 1 else 0
    decisive = s["first_seat"]["decisive"]
    share = first_wins / decisive if decisive else 0.5
    misses: list[tuple[str, str, float]] = []
    if share < targets.first_low:
        misses.append(("first seat low", "", targets.first_low - share))
    elif share > targets.first_high:
        misses.append(("first seat high", "", share - targets.first_high))
    buildings: dict[str, tuple[int, int, int]] = {}
    for name in names:
        e = s["buildings"].get(name, {})
        built, owned, won = e.get("built_games", 0), e.get("owned_games", 0), e.get("winner_owned", 0)
        buildings[name] = (built, owned, won)
        rate = built / n if n else 0.0
        if rate < targets.min_built:
            misses.append(("rarely built", name, targets.min_built - rate))
        if owned and owner_estimate(won, owned) > targets.max_owner_win:
            misses.append(("owner wins", name, owner_estimate(won, owned) - targets.max_owner_win))
    misses.sort(key=lambda m: (-m[2], m[0], m[1]))
    penalty = round(sum(m[2] for m in misses), 9)
    return Measures(n, first_wins, decisive, buildings, penalty, tuple(misses))
