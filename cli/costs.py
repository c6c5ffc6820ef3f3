"""How long a long command will take, said before it starts: the cost of one game (or one reviewed
decision) measured on this machine and kept in a small table in the data folder (``costs.json``),
each run adding what it measured.  Until this machine has measured a configuration, the cost measured
on the development machine (:data:`REFERENCE`) stands in, and the estimate says so.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from cli.console import Copy, told
from core.records import data_dir

#: a command expected to take longer than this (seconds) says how long before it starts
LONG = 60.0

#: seconds a game between two copies of one agent took on the development machine (2 cores, the other
#: one busy), by rule set and agent: ``lehavre RULES --agents A,A --seed 1 --json --no-save`` (base: the
#: two-player full game; random and greedy: less the program's start, about 0.9 s); per reviewed decision
#: (``review RULES LEVEL``): ``lehavre review NAME`` of a game between two ai:easy agents, seed 3 (inland:
#: 167 s for 156 decisions; base: stopped unfinished after 309 s, so a floor).  Stands in until this
#: machine has measured its own.
REFERENCE: dict[str, float] = {
    "inland random": 0.15,
    "inland greedy": 0.5,
    "inland ai:easy": 7.0,
    "inland ai:normal": 42.0,
    "base random": 0.45,
    "base greedy": 0.65,
    "base ai:easy": 4.5,
    "base ai:normal": 286.0,
    "review inland hard": 1.07,
    "review base hard": 1.0,
}
#: an agent spec as the table knows it ("ai" is the normal level)
ALIASES = {"ai": "ai:normal"}


@dataclass(frozen=True, slots=True)
class Estimate:
    """``count`` units (games, decisions) at ``each`` seconds, ``jobs`` at a time; ``source`` says where ``each`` is from."""

    count: int
    each: float
    jobs: int
    source: str

    @property
    def seconds(self) -> float:
        return self.count * self.each / max(1, self.jobs)


def costs_path() -> Path:
    return data_dir() / "costs.json"


def measured() -> dict[str, list[float]]:
    """The table kept on this machine: key -> [seconds, units] (empty when there is none or it cannot be read)."""
    try:
        raw = json.loads(costs_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    return {
        k: [float(v[0]), float(v[1])]
        for k, v in raw.items()
        if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int | float) for x in v) and v[1] > 0
    }


def remember(key: str, seconds: float, units: int) -> None:
    """Add a run's measured ``seconds`` for ``units`` games (or decisions) to this machine's table
    (a table that cannot be written is no reason to stop: the estimate just stays as it was)."""
    if units <= 0 or not math.isfinite(seconds) or seconds < 0:
        return
    table = measured()
    total, count = table.get(key, [0.0, 0.0])
    table[key] = [total + seconds, count + units]
    path = costs_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError:
        pass


def games_key(rules: str, agents: Sequence[str]) -> str:
    """The table's key for games of ``rules`` between ``agents`` (in any seat order, each agent once:
    games of one agent against itself are that agent's cost)."""
    return f"{rules} {','.join(sorted({ALIASES.get(a, a) for a in agents}))}"


def review_key(rules: str, level: str) -> str:
    return f"review {rules} {ALIASES.get(level, level)}"


def _each(key: str, parts: Sequence[str], what: str) -> tuple[float, str] | None:
    """Seconds per unit for ``key``: this machine's own measurement, else the mean of ``parts``'
    (each agent against itself), this machine's where it has them, else the development machine's."""
    table = measured()
    if key in table:
        seconds, units = table[key]
        return seconds / units, f"the mean of {units:g} {what} measured on this machine"
    costs: list[float] = []
    mine = True
    for part in parts:
        if part in table:
            costs.append(table[part][0] / table[part][1])
        elif part in REFERENCE:
            costs.append(REFERENCE[part])
            mine = False
        else:
            return None
    if not costs:
        return None
    where = (
        "this machine's" if mine else "the development machine's (this one may differ; it measures its own as it plays)"
    )
    return sum(costs) / len(costs), f"from {where} cost of each agent's games"


def estimate_games(rules: str, agents: Sequence[str], games: int, jobs: int) -> Estimate | None:
    """How long ``games`` games of ``rules`` between ``agents`` will take (None: nothing measured to go by)."""
    rules = rules.split(":")[0]
    found = _each(games_key(rules, agents), [games_key(rules, [a]) for a in dict.fromkeys(agents)], "games")
    return None if found is None else Estimate(games, found[0], jobs, found[1])


def estimate_review(rules: str, level: str, decisions: int, jobs: int) -> Estimate | None:
    """How long reviewing ``decisions`` decisions against ``level`` will take (None: nothing measured)."""
    key = review_key(rules, level)
    found = _each(key, [key], "decisions")
    return None if found is None else Estimate(decisions, found[0], jobs, found[1])


def duration(seconds: float) -> str:
    """``about 40 s``, ``about 12 min``, ``about 3.5 h``."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"


def say_estimate(console: Console, est: Estimate | None, unit: str, fewer: str) -> None:
    """Before a long command starts (over :data:`LONG`): how long it expects, from which measured cost,
    and how to ask for less (``fewer``)."""
    if est is None:
        console.print(
            Text(
                f"No cost of these {unit}s is measured on this machine yet: the bar below shows the time left "
                f"once the first {unit} is done (and the next run says how long before it starts).",
                style="muted",
            )
        )
        return
    if est.seconds < LONG:
        return
    jobs = f", {est.jobs} at a time" if est.jobs > 1 else ""
    console.print(
        told(
            f"This will take {duration(est.seconds)}: {est.count} {unit}s at {duration(est.each)} each{jobs} "
            f"({est.source}). {fewer} This machine's measured costs are kept in",
            Copy(str(costs_path())),
            style="muted",
        ),
        crop=False,
    )
