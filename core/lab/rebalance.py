"""The rebalance: from the perturbation runs' fits to a chosen data file, and the runs that confirm it.

A *search* is a pair of perturbed runs of the plan, one at each level of play it judges by
(:data:`SEARCH_LEVELS`): ``inland-perturb-easy-a`` and ``inland-perturb-normal-a`` are search ``a``
(a perturbed run's search is the last part of its name, its level the agent both seats play).
From each level's fit (:func:`core.lab.perturb.fit_run`) the search predicts, for every small change
of the numbers (1 to :data:`MOST` numbers, each moved one or two of the runs' steps either way within
its bounds), the first seat's share of decisive games at both levels: linear, the fitted score at
today's data plus each moved number's effect times its steps, turned into a share of decisive games
with the run's tie rate.  The prediction's standard error comes from the intercept's and the moved
effects' errors, taken as independent (in the runs every number moves independently of the others).

Only numbers whose effect is clear at some level (:math:`|z| \\ge` ``min_z``, :data:`MIN_Z` by default)
are moved: with dozens of numbers the others' effects are mostly noise, and a candidate built on
noise does not hold on fresh seeds.  A candidate *qualifies* when both predictions land in their
target bands (:data:`TARGETS`) with a standard error of at most half the band's width (a fit less
precise than that cannot tell the band from outside it).  Candidates are ranked (:meth:`Candidate.rank`): those that qualify
first, by fewest changed numbers, then by the *pessimistic worst distance* (the larger, over the
levels, of the prediction's distance from 50% plus its standard error); then the others, closest to
the bands first (the larger distance of a prediction outside its band).

A search's best candidate that qualifies is written as a data file (:func:`write_candidate`: every
changed number keeps its ``reconstructed`` tag, with a note naming the search and its runs), and
confirmed by ordinary runs on seeds no run of the plan uses (:func:`confirmation_runs`).
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
import os
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from pathlib import Path
from typing import Any

from core.lab.longrun import LongrunError, Plan, RaceSpec, RunPlan, race_verdict, run_options
from core.lab.perturb import Effect, Fit, fit_run, movable, write_data
from core.lab.playtest.config import load_ruleset
from core.protocol import TunableField
from core.seeds import LONGRUN_CONFIRM, LONGRUN_RACE, derive_seed

#: the first seat's share of decisive games each level must reach on the confirmation seeds
TARGETS: dict[str, tuple[float, float]] = {
    "ai:normal": (0.43, 0.57),
    "ai:easy": (0.45, 0.55),
    "ai:hard": (0.30, 0.70),
}
#: the levels a search fits, each by a perturbed run of its own
SEARCH_LEVELS = ("ai:easy", "ai:normal")
#: the levels a candidate is confirmed at, each by a run like the seat curve's at that level
CONFIRM_LEVELS = ("ai:normal", "ai:easy", "ai:hard")
#: the moves tried for each number, in the perturbed runs' steps
MOVES = (-2, -1, 1, 2)
#: the most numbers a candidate changes
MOST = 3
#: a number is moved only if its effect's |z| reaches this at some level
MIN_Z = 2.0
#: the fewest games a level's run needs before its fit is used (a fit of dozens of numbers on fewer is noise)
MIN_GAMES = 100
#: where the candidates' data files are written, relative to the repository
CANDIDATES = "benchmarks/longrun/candidates"
#: the plan group of the confirmation runs
CONFIRMATION = "confirmation"
#: the search that pools every search's games at each level (proposed when the plan has two searches or more)
POOLED = "pooled"
#: how many candidates a search races, each changing a different set of numbers
RACE_CANDIDATES = 3
#: the levels a candidate is raced at, the cheapest first: a candidate out at one is not played at the next
RACE_LEVELS = ("ai:easy", "ai:normal")
#: the games between two looks of a race at each level (the fewer looks, the narrower each look's interval)
RACE_EVERY = {"ai:easy": 40, "ai:normal": 20}
#: the plan group of the race runs
RACE = "race"
#: the plan groups whose runs play known data (today's or a candidate's) as it is, no perturbation
KNOWN_GROUPS = ("seat curve", RACE, CONFIRMATION)
#: the search name of a candidate a designer gives (``propose --race --given``) rather than a search proposes
GIVEN = "given"
#: the building targets, judged at :data:`FLOOR_LEVEL`: every building built in at least this share of the games ...
BUILT_AT_LEAST = 0.05
#: ... and no building whose owner won more than this share of the games it was built in
OWNER_WINS_AT_MOST = 0.70
#: the level whose games the building targets judge (the one players meet)
FLOOR_LEVEL = "ai:normal"


# ---------------------------------------------------------------------------
# Buildings built too rarely: the floor every candidate lifts
# ---------------------------------------------------------------------------


def built_names(game: Mapping[str, Any]) -> set[str]:
    """The buildings built in a stored game (by either seat, at any time)."""
    return {b[1] for b in game["buildings"] if b[0] == "build"}


def building_counts(games: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
    """Per building: the games it was built in, and its owner's wins among them (final owner)."""
    built: dict[str, int] = defaultdict(int)
    owner_won: dict[str, int] = defaultdict(int)
    for g in games:
        for name in built_names(g):
            built[name] += 1
            owner = g["owners"].get(name)
            if owner is not None and g["winners"] == [owner]:
                owner_won[name] += 1
    return {name: (built[name], owner_won[name]) for name in built}


@dataclass(frozen=True)
class Floor:
    """A building built in fewer than :data:`BUILT_AT_LEAST` of today's :data:`FLOOR_LEVEL` games, and the move
    every candidate makes for it: its largest cost that may move, one step down (None: none may)."""

    building: str
    built: int
    games: int
    move: Move | None
    #: how often it was built in the search's perturbed games at each value of the moved number:
    #: (value, games it was built in, games), the lowest value first
    evidence: tuple[tuple[int, int, int], ...] = ()

    def describe(self) -> str:
        share = f"{100 * self.built / self.games:.1f}%" if self.games else "–"
        how = f"every candidate moves {self.move}" if self.move else "none of its costs may move down a step"
        seen = "; ".join(
            f"at {v}, {b} of {n} ({100 * b / n:.1f}%)"
            for v, b, n in self.evidence
            if self.move and v != self.move.value
        )
        where = f" (built in the search's perturbed {FLOOR_LEVEL} games {seen})" if seen else ""
        return f"{self.building} is built in {self.built} of {self.games} {FLOOR_LEVEL} games today ({share}): {how}{where}"


def floors(
    games: Sequence[Mapping[str, Any]],
    buildings: Sequence[str],
    fields: Sequence[TunableField],
    step: int,
    perturbed: Sequence[Mapping[str, Any]] = (),
) -> list[Floor]:
    """The :class:`Floor` of each of ``buildings`` built in too few of ``games`` (today's data at
    :data:`FLOOR_LEVEL`): its move among ``fields`` (the numbers that may move) in steps of ``step``, and how often
    it was built in the ``perturbed`` games (the search's at that level) at each value of the moved number."""
    if not games:
        return []
    counts = building_counts(games)
    out = []
    for name in sorted(set(buildings)):
        built = counts.get(name, (0, 0))[0]
        if built >= BUILT_AT_LEAST * len(games):
            continue
        costs = sorted((f for f in fields if f.entity == name and ".cost." in f.key), key=lambda f: (-f.value, f.key))
        moves = [m for f in costs for m in number_moves(f, step, (-1,))]
        move = moves[0] if moves else None
        out.append(Floor(name, built, len(games), move, built_at(name, move, perturbed) if move else ()))
    return out


def built_at(building: str, move: Move, games: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, int, int], ...]:
    """How often ``building`` was built in perturbed ``games`` at each value of the number ``move`` changes:
    (value, games it was built in, games), the lowest value first."""
    seen: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        value = int(g.get("perturbation", {}).get(move.key, move.value))
        seen[value][1] += 1
        seen[value][0] += building in built_names(g)
    return tuple((v, built, n) for v, (built, n) in sorted(seen.items()))


# ---------------------------------------------------------------------------
# Predictions and candidates
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LevelFit:
    """One level's perturbed run in a search, and its fit."""

    level: str
    run: RunPlan
    fit: Fit
    step: int
    #: every run whose games the fit pools (the pooled search); () for a search's own run alone
    pooled: tuple[RunPlan, ...] = ()
    #: how many games on known data the fit adds to the perturbed runs' (:func:`known_games`)
    known: int = 0
    effects: dict[str, Effect] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "effects", {e.key: e for e in self.fit.effects})

    def held(self) -> str:
        """Which run's games the fit used, and how many of those asked."""
        runs = self.pooled or (self.run,)
        perturbed = self.fit.games - self.known
        said = f"{' + '.join(r.name for r in runs)}: {perturbed} of {sum(r.games for r in runs)} games"
        return said + (f" + {self.known} games on known data" if self.known else "")


@dataclass(frozen=True)
class Move:
    """One number moved ``steps`` of the runs' steps, from ``value`` to ``new``."""

    key: str
    value: int
    steps: int
    new: int

    def __str__(self) -> str:
        return f"{self.key} {self.value}->{self.new}"


@dataclass(frozen=True)
class Prediction:
    """The first seat's predicted share of decisive games at ``level``, with its standard error."""

    level: str
    share: float
    stderr: float

    @property
    def band(self) -> tuple[float, float]:
        return TARGETS[self.level]

    @property
    def outside(self) -> float:
        """How far the prediction lies outside its band (0 inside)."""
        lo, hi = self.band
        return max(0.0, lo - self.share, self.share - hi)

    @property
    def precise(self) -> bool:
        """Whether the fit can tell the band from outside it: a standard error of at most half the band's width."""
        lo, hi = self.band
        return self.stderr <= (hi - lo) / 2

    @property
    def pessimistic(self) -> float:
        """The distance from 50% plus one standard error."""
        return abs(self.share - 0.5) + self.stderr


@dataclass(frozen=True)
class Candidate:
    """A change of a few numbers and what it is predicted to do at each level."""

    moves: tuple[Move, ...]
    predictions: tuple[Prediction, ...]

    @property
    def qualifies(self) -> bool:
        return all(p.outside == 0.0 and p.precise for p in self.predictions)

    @property
    def changes(self) -> dict[str, int]:
        return {m.key: m.new for m in self.moves}

    def rank(self) -> tuple[Any, ...]:
        """Qualifying first (fewest numbers, then the pessimistic worst distance); then the closest to the bands."""
        worst = max(p.pessimistic for p in self.predictions)
        names = tuple(str(m) for m in self.moves)
        if self.qualifies:
            return (0, len(self.moves), worst, 0.0, names)
        return (1, max(p.outside for p in self.predictions), len(self.moves), worst, names)

    @property
    def raceable(self) -> bool:
        """Whether a race could find it even: every prediction precise enough to tell lies in its band, and at
        least one is that precise (the race's games then decide the levels the fits cannot)."""
        precise = [p for p in self.predictions if p.precise]
        return bool(precise) and all(p.outside == 0.0 for p in precise)

    def race_rank(self) -> tuple[Any, ...]:
        """Fewest numbers first, then the closest to the bands, then the pessimistic worst distance."""
        worst = max(p.pessimistic for p in self.predictions)
        return (len(self.moves), max(p.outside for p in self.predictions), worst, tuple(str(m) for m in self.moves))

    def describe(self) -> str:
        return ", ".join(str(m) for m in self.moves) or "today's data"

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.changes, sort_keys=True).encode()).hexdigest()[:6]


def predict(level: LevelFit, moves: Sequence[Move]) -> Prediction:
    """``level``'s predicted share of decisive games after ``moves``."""
    fitted = level.fit
    score = fitted.intercept + sum(m.steps * level.effects[m.key].effect for m in moves)
    var = fitted.intercept_se**2 + sum((m.steps * level.effects[m.key].stderr) ** 2 for m in moves)
    decisive = max(1e-9, 1.0 - fitted.ties)
    return Prediction(level.level, 0.5 + (score - 0.5) / decisive, math.sqrt(var) / decisive)


def clear_numbers(levels: Sequence[LevelFit], min_z: float = MIN_Z) -> list[str]:
    """The numbers whose effect's |z| reaches ``min_z`` at some level, the clearest first."""
    best: dict[str, float] = defaultdict(float)
    for level in levels:
        for e in level.fit.effects:
            best[e.key] = max(best[e.key], abs(e.z))
    return sorted((k for k, z in best.items() if z >= min_z), key=lambda k: (-best[k], k))


def expected_by_chance(numbers: int, levels: int, min_z: float = MIN_Z) -> float:
    """How many of ``numbers`` numbers without any effect reach |z| >= ``min_z`` at some of ``levels`` levels."""
    alone = math.erfc(min_z / math.sqrt(2))  # two-sided, a normal z
    return numbers * (1 - (1 - alone) ** levels)


def number_moves(f: TunableField, step: int, moves: Sequence[int] = MOVES) -> list[Move]:
    """The moves of ``f`` (in steps of ``step``) that stay within its bounds."""
    return [Move(f.key, f.value, m, f.value + m * step) for m in moves if f.low <= f.value + m * step <= f.high]


def candidates(
    levels: Sequence[LevelFit],
    fields: Sequence[TunableField],
    *,
    min_z: float = MIN_Z,
    most: int = MOST,
    keep: int = 5,
    moves: Sequence[int] = MOVES,
    required: Sequence[Move] = (),
) -> list[Candidate]:
    """The ``keep`` best candidates (:meth:`Candidate.rank`) of :func:`every_candidate`."""
    every = every_candidate(levels, fields, min_z=min_z, most=most, moves=moves, required=required)
    return heapq.nsmallest(keep, every, key=Candidate.rank)


def every_candidate(
    levels: Sequence[LevelFit],
    fields: Sequence[TunableField],
    *,
    min_z: float = MIN_Z,
    most: int = MOST,
    moves: Sequence[int] = MOVES,
    required: Sequence[Move] = (),
) -> Iterator[Candidate]:
    """Every change of 1 to ``most`` clear numbers, each moved by ``moves`` within its bounds, with its predictions;
    each with the ``required`` moves too (the floors': then the required moves alone are a candidate as well)."""
    by_key = {f.key: f for f in fields}
    step = levels[0].step
    fixed = {m.key for m in required}
    options = {k: number_moves(by_key[k], step, moves) for k in clear_numbers(levels, min_z) if k not in fixed}
    for size in range(0 if required else 1, most + 1):
        for keys in combinations(options, size):
            for combo in product(*(options[k] for k in keys)):
                chosen = (*combo, *required)
                yield Candidate(chosen, tuple(predict(level, chosen) for level in levels))


def race_candidates(
    levels: Sequence[LevelFit],
    fields: Sequence[TunableField],
    *,
    min_z: float = MIN_Z,
    most: int = MOST,
    count: int = RACE_CANDIDATES,
    required: Sequence[Move] = (),
    raced: Collection[frozenset[tuple[str, int]]] = (),
) -> list[Candidate]:
    """The ``count`` candidates to race (:meth:`Candidate.race_rank` among the :attr:`~Candidate.raceable`),
    each changing a different set of numbers (two moves of one number are one candidate, the better), none
    of them a change already ``raced`` (each as its set of (number, new value))."""
    every = every_candidate(levels, fields, min_z=min_z, most=most, required=required)
    fresh = (c for c in every if c.raceable and frozenset(c.changes.items()) not in raced)
    ranked = sorted(fresh, key=Candidate.race_rank)
    chosen: list[Candidate] = []
    seen: set[frozenset[str]] = set()
    for candidate in ranked:
        keys = frozenset(candidate.changes)
        if keys not in seen:
            seen.add(keys)
            chosen.append(candidate)
        if len(chosen) == count:
            break
    return chosen


# ---------------------------------------------------------------------------
# Searches in a plan
# ---------------------------------------------------------------------------


def run_level(run: RunPlan) -> str:
    """The level a perturbed run plays: the agent of every seat (its label for a run of mixed agents)."""
    return run.agents[0] if len(set(run.agents)) == 1 else run.label


def searches(plan: Plan) -> dict[str, dict[str, RunPlan]]:
    """The plan's searches: name (the last part of a perturbed run's name) -> level -> its run."""
    out: dict[str, dict[str, RunPlan]] = defaultdict(dict)
    for run in plan.runs:
        if run.perturb is not None:
            out[run.name.rsplit("-", 1)[-1]][run_level(run)] = run
    return dict(out)


@dataclass(frozen=True)
class Proposal:
    """One search's fits and its best candidates (``waiting`` says why there are none yet)."""

    search: str
    runs: tuple[RunPlan, ...]
    levels: tuple[LevelFit, ...] = ()
    clear: tuple[str, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    fields: tuple[TunableField, ...] = ()
    waiting: str = ""
    #: the candidates to race (:func:`race_candidates`)
    race: tuple[Candidate, ...] = ()
    #: the |z| a number needed to be moved, and the most numbers a candidate changed
    min_z: float = MIN_Z
    most: int = MOST
    #: the buildings built too rarely today, whose moves every candidate makes
    floors: tuple[Floor, ...] = ()

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None


def run_fields(run: RunPlan, root: Path) -> list[TunableField]:
    """The numbers a perturbed run moves."""
    assert run.perturb is not None
    return movable(load_ruleset(run.rules), run_options(run, root).get("buildings"), run.perturb)


def building_names(run: RunPlan, root: Path) -> list[str]:
    """Every building of ``run``'s data file (whatever its numbers' provenance)."""
    tuning = load_ruleset(run.rules).tuning
    return sorted({f.entity for f in tuning.fields(run_options(run, root).get("buildings"))}) if tuning else []


def propose(
    plan: Plan,
    held: Mapping[str, Sequence[Mapping[str, Any]]],
    root: Path,
    *,
    min_z: float = MIN_Z,
    most: int = MOST,
    keep: int = 5,
) -> list[Proposal]:
    """Each search's proposal from the games ``held`` (run name -> games), and with two searches or more the
    pooled search's (:data:`POOLED`: every search's games at each level in one fit)."""
    found = searches(plan)
    today = today_games(plan, held, found)
    raced = raced_changes(plan, root)
    out = [
        search_proposal(
            name,
            {lv: [run] for lv, run in runs.items()},
            held,
            root,
            min_z=min_z,
            most=most,
            keep=keep,
            today=today,
            raced=raced,
        )
        for name, runs in sorted(found.items())
    ]
    if len(found) >= 2:
        pooled: dict[str, list[RunPlan]] = defaultdict(list)
        for _, runs in sorted(found.items()):
            for lv, run in runs.items():
                pooled[lv].append(run)
        known = {lv: known_games(plan, held, root, runs[0]) for lv, runs in pooled.items()}
        pooling = search_proposal(
            POOLED, pooled, held, root, min_z=min_z, most=most, keep=keep, today=today, known=known, raced=raced
        )
        out.append(pooling)
    return out


def raced_changes(plan: Plan, root: Path) -> set[frozenset[tuple[str, int]]]:
    """The changes the plan's races play (each as its set of (number, new value)): a new round races others."""
    return {frozenset(run_changes(run, root).items()) for run in plan.runs if run.group == RACE}


def curve_runs(plan: Plan, rules: str) -> dict[str, RunPlan]:
    """The seat curve's runs of ``rules`` (on today's data), by level."""
    return {r.label: r for r in plan.runs if r.group == "seat curve" and r.rules == rules}


def today_games(
    plan: Plan, held: Mapping[str, Sequence[Mapping[str, Any]]], found: Mapping[str, Mapping[str, RunPlan]]
) -> Sequence[Mapping[str, Any]]:
    """The games of today's data at :data:`FLOOR_LEVEL` (the seat curve's run) for the searches' rules."""
    rules = {run.rules for runs in found.values() for run in runs.values()}
    runs = [curve_runs(plan, r).get(FLOOR_LEVEL) for r in sorted(rules)]
    return [g for run in runs if run is not None for g in held.get(run.name, ())]


def known_games(
    plan: Plan, held: Mapping[str, Sequence[Mapping[str, Any]]], root: Path, like: RunPlan
) -> list[dict[str, Any]]:
    """The games played on known data by the agents, noise and rules of the perturbed run ``like``: the seat
    curve's (today's data), the races' and the confirmations' (a candidate's changes), each as a row of the fit
    whose perturbation is its data file's changes: every game on known numbers informs the effects (a raced
    number's effect is then pinned by the games played at its new value) and the intercept (today's share)."""
    out: list[dict[str, Any]] = []
    for run in plan.runs:
        alike = (run.rules, run.agents, run.noise) == (like.rules, like.agents, like.noise)
        if run.perturb is not None or not alike or run.group not in KNOWN_GROUPS:
            continue
        changes = run_changes(run, root)
        out += [dict(g) | {"perturbation": changes} for g in held.get(run.name, ())]
    return out


def search_proposal(
    name: str,
    by_level: Mapping[str, Sequence[RunPlan]],
    held: Mapping[str, Sequence[Mapping[str, Any]]],
    root: Path,
    *,
    min_z: float = MIN_Z,
    most: int = MOST,
    keep: int = 5,
    today: Sequence[Mapping[str, Any]] = (),
    known: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    raced: Collection[frozenset[tuple[str, int]]] = (),
) -> Proposal:
    """One search's proposal: its fit at each level of :data:`SEARCH_LEVELS` from the games of that level's
    runs (one run for a search of its own, several pooled, in units of the smallest of their steps) and the
    ``known`` games of that level (:func:`known_games`), its best candidates and those it races."""
    ordered = tuple(run for lv in SEARCH_LEVELS for run in by_level.get(lv, ()))
    lacking = [lv for lv in SEARCH_LEVELS if not by_level.get(lv)]
    if lacking:
        return Proposal(name, ordered, waiting=f"no perturbed run at {', '.join(lacking)}")
    games = {lv: [g for run in by_level[lv] for g in held.get(run.name, ())] for lv in SEARCH_LEVELS}
    short = [lv for lv in SEARCH_LEVELS if len(games[lv]) < MIN_GAMES]
    if short:
        said = "; ".join(_holds(by_level[lv], len(games[lv])) for lv in short)
        return Proposal(name, ordered, waiting=f"{said} (a fit needs at least {MIN_GAMES})")
    fields = run_fields(ordered[0], root)
    if any([f.key for f in run_fields(r, root)] != [f.key for f in fields] for r in ordered):
        raise LongrunError(f"the runs of search '{name}' do not move the same numbers")
    step = min(run.perturb.step for run in ordered if run.perturb is not None)
    known = known or {}
    at_floor = games.get(FLOOR_LEVEL, [])
    lifted = tuple(floors(today, building_names(ordered[0], root), fields, step, at_floor))
    required = tuple(f.move for f in lifted if f.move is not None)
    levels = tuple(
        LevelFit(
            lv,
            by_level[lv][0],
            fit_run([*games[lv], *known.get(lv, ())], fields, step),
            step,
            tuple(by_level[lv]) if len(by_level[lv]) > 1 else (),
            len(known.get(lv, ())),
        )
        for lv in SEARCH_LEVELS
    )
    return Proposal(
        name,
        ordered,
        levels,
        tuple(clear_numbers(levels, min_z)),
        tuple(candidates(levels, fields, min_z=min_z, most=most, keep=keep, required=required)),
        tuple(fields),
        min_z=min_z,
        most=most,
        race=tuple(race_candidates(levels, fields, min_z=min_z, most=most, required=required, raced=raced)),
        floors=lifted,
    )


def _holds(runs: Sequence[RunPlan], games: int) -> str:
    verb = "holds" if len(runs) == 1 else "hold"
    return f"{' + '.join(r.name for r in runs)} {verb} {games} of {sum(r.games for r in runs)} games"


def cross_check(candidate: Candidate, other: Proposal) -> Candidate | None:
    """``candidate`` predicted by another search's fits (None if that search has none, or lacks a number)."""
    if not other.levels or any(m.key not in other.levels[0].effects for m in candidate.moves):
        return None
    return Candidate(candidate.moves, tuple(predict(level, candidate.moves) for level in other.levels))


# ---------------------------------------------------------------------------
# The candidate's data file and its confirmation runs
# ---------------------------------------------------------------------------


def candidate_stem(proposal: Proposal, candidate: Candidate) -> str:
    """The candidate's file name without ``.json``: rules, search and a digest of its changes."""
    return f"{proposal.runs[0].rules}-{proposal.search}-{candidate.digest()}"


def write_candidate(proposal: Proposal, candidate: Candidate, folder: Path, root: Path) -> Path:
    """Write ``candidate`` as a data file into ``folder`` (once: its name follows its changes) and return it
    (the runs' data file paths are relative to ``root``)."""
    run = proposal.runs[0]
    note = (
        f"changed by the rebalance of the long measurements: search {proposal.search} "
        f"(runs {', '.join(r.name for r in proposal.runs)}), candidate {candidate_stem(proposal, candidate)}"
    )
    base = run_options(run, root).get("buildings")
    path = folder / f"{candidate_stem(proposal, candidate)}.json"
    return write_data(load_ruleset(run.rules), base, candidate.changes, path, note)


def given_candidate(changes: Mapping[str, int], fields: Sequence[TunableField]) -> Candidate:
    """A candidate of the ``changes`` a designer gives (key -> new value), checked against the numbers that may
    move (``fields``): an unknown number, a value outside its bounds or no change at all is refused, saying why."""
    by_key = {f.key: f for f in fields}
    unknown = [k for k in changes if k not in by_key]
    if unknown:
        near = sorted({f.key for f in fields if f.entity in {k.split(".")[0] for k in unknown}})
        hint = f" (its numbers that may move: {', '.join(near)})" if near else ""
        raise LongrunError(
            f"no number that may move is called {', '.join(unknown)}{hint}: a number is named 'Building.field' "
            "as the perturbation tables name it, e.g. 'Pier.cost.food'"
        )
    moves = []
    for key, new in changes.items():
        f = by_key[key]
        if not f.low <= new <= f.high:
            raise LongrunError(f"{key} may be {f.low} to {f.high}, not {new}")
        if new != f.value:
            moves.append(Move(key, f.value, 0, new))
    if not moves:
        raise LongrunError("the given changes change nothing: each number is already at that value")
    return Candidate(tuple(moves), ())


def unlifted(candidate: Candidate, floor: Sequence[Floor]) -> list[Floor]:
    """The floors (buildings built too rarely today) ``candidate`` lowers none of the costs of."""
    lowered = {m.key.split(".", 1)[0] for m in candidate.moves if ".cost." in m.key and m.new < m.value}
    return [f for f in floor if f.building not in lowered]


def write_given(run: RunPlan, candidate: Candidate, folder: Path, root: Path) -> tuple[Path, Entrant]:
    """Write a given candidate (:func:`given_candidate`) on ``run``'s data as a data file into ``folder``, and
    return it with the entrant its race runs name."""
    stem = f"{run.rules}-{GIVEN}-{candidate.digest()}"
    note = (
        f"changed by the rebalance of the long measurements: a candidate given by hand ({candidate.describe()}), {stem}"
    )
    base = run_options(run, root).get("buildings")
    path = write_data(load_ruleset(run.rules), base, candidate.changes, folder / f"{stem}.json", note)
    return path, Entrant(run.rules, GIVEN, candidate.digest(), candidate.describe())


def plan_path(path: Path, root: Path) -> str:
    """``path`` as a plan names a data file: relative to the repository when inside it."""
    resolved, top = path.resolve(), root.resolve()
    return os.path.relpath(resolved, top) if resolved.is_relative_to(top) else str(resolved)


def fresh_seed(plan: Plan, name: str, label: str = LONGRUN_CONFIRM) -> int:
    """A seed derived from the run's name and ``label`` (:func:`core.seeds.derive_seed`) that no run of ``plan`` uses."""
    used = {r.seed for r in plan.runs}
    attempt = 0
    while (derived := derive_seed(0, label, name, attempt)) in used:
        attempt += 1
    return derived


@dataclass(frozen=True)
class Entrant:
    """A candidate as the runs that play it name it: its rules, its search, the digest of its changes and
    the changes in words."""

    rules: str
    search: str
    digest: str
    described: str

    @classmethod
    def of(cls, proposal: Proposal, candidate: Candidate) -> Entrant:
        return cls(proposal.runs[0].rules, proposal.search, candidate.digest(), candidate.describe())


def confirmation_runs(plan: Plan, proposal: Proposal, candidate: Candidate, data: str) -> list[RunPlan]:
    """The runs that confirm ``candidate`` (data file ``data``, as the plan names it): each level of
    :data:`CONFIRM_LEVELS` as the seat curve plays it (agents, noise, games), on seeds no run uses."""
    return confirming(plan, Entrant.of(proposal, candidate), data)


def confirming(plan: Plan, entrant: Entrant, data: str) -> list[RunPlan]:
    """:func:`confirmation_runs` of a candidate known by the runs that played it (a race's winner)."""
    return _runs_like_the_curve(plan, entrant, data, CONFIRM_LEVELS, CONFIRMATION)


def race_runs(plan: Plan, proposal: Proposal, candidate: Candidate, data: str) -> list[RunPlan]:
    """The runs that race ``candidate`` (data file ``data``): each level of :data:`RACE_LEVELS` as the seat curve
    plays it, on seeds of their own, stopped as soon as the first seat's share is clearly outside the level's
    target band (:class:`core.lab.longrun.RaceSpec`, a look every :data:`RACE_EVERY` games); a level is not played
    once the candidate is out at a level before it."""
    return racing(plan, Entrant.of(proposal, candidate), data)


def racing(plan: Plan, entrant: Entrant, data: str) -> list[RunPlan]:
    """:func:`race_runs` of a candidate known by its entrant (a given one, which no search proposed)."""
    return _runs_like_the_curve(plan, entrant, data, RACE_LEVELS, RACE)


def _runs_like_the_curve(plan: Plan, entrant: Entrant, data: str, levels: Sequence[str], group: str) -> list[RunPlan]:
    rules = entrant.rules
    curve = curve_runs(plan, rules)
    absent = [lv for lv in levels if lv not in curve]
    if absent:
        raise LongrunError(f"the plan has no seat-curve run of {rules} at {', '.join(absent)} to play it like")
    racing = group == RACE
    stem = f"{rules}-{'race' if racing else 'confirm'}-{entrant.search}-{entrant.digest}"
    label = LONGRUN_RACE if racing else LONGRUN_CONFIRM
    said = "raced against the level's target band" if racing else "on seeds no search used"
    runs: list[RunPlan] = []
    held = {r.name: r for r in plan.runs}
    for level in levels:
        like = curve[level]
        name = f"{stem}-{level.split(':')[-1]}"
        if name in held:  # offered before and added: the run the plan holds, its seed and all
            runs.append(held[name])
            continue
        whose = "given by hand" if entrant.search == GIVEN else f"of search {entrant.search}"
        question = f"{like.question}, on the candidate {data} {whose} ({entrant.described}), {said}"
        update: dict[str, Any] = {
            "name": name,
            "group": group,
            "question": question,
            "seed": fresh_seed(plan, name, label),
        }
        if racing:
            before = tuple(r.name for r in runs)
            update["race"] = RaceSpec(band=TARGETS[level], every=RACE_EVERY[level], unless_out=before)
        runs.append(
            RunPlan.model_validate(like.model_dump() | update | {"options": like.options | {"buildings": data}})
        )
    return runs


@dataclass(frozen=True)
class Survivor:
    """A raced candidate that played every level of its race to the end in its bands: the data file, who it
    is, how many numbers it changes, and its first seat's share of decisive games at each level."""

    data: str
    entrant: Entrant
    changes: int
    shares: dict[str, float]

    def rank(self) -> tuple[Any, ...]:
        """Fewest numbers first, then the closest to 50% at ai:normal (the level players meet)."""
        return (self.changes, abs(self.shares.get("ai:normal", 0.5) - 0.5), self.data)


def race_survivors(plan: Plan, held: Mapping[str, Sequence[Mapping[str, Any]]], root: Path) -> list[Survivor]:
    """The raced candidates that survived every level (:meth:`Survivor.rank` first): a run of their race at each
    level of :data:`RACE_LEVELS`, each played to the end, never out, its first seat's share in the level's band."""
    by_data: dict[str, list[RunPlan]] = defaultdict(list)
    for run in plan.runs:
        if run.group == RACE and run.race is not None:
            by_data[str(run.options.get("buildings") or "")].append(run)
    out = []
    for data, runs in by_data.items():
        if not set(RACE_LEVELS) <= {r.label for r in runs}:
            continue  # not raced at every level: it survived none of the levels it was not played at
        shares = {}
        for run in runs:
            verdict = race_verdict(run, [dict(g) for g in held.get(run.name, ())])
            if verdict is None or not (verdict.done and verdict.inside):
                break
            shares[run.label] = verdict.first / verdict.decisive
        else:
            changed = data_changes(runs[0].rules, data, root, runs[0].reference)
            out.append(Survivor(data, entrant_of(runs[0], ", ".join(changed)), len(changed), shares))
    return sorted(out, key=Survivor.rank)


def entrant_of(run: RunPlan, described: str) -> Entrant:
    """The candidate a race or confirmation run plays, from its name (``RULES-race-SEARCH-DIGEST-LEVEL``)."""
    for word in ("race", "confirm"):
        prefix = f"{run.rules}-{word}-"
        if run.name.startswith(prefix):
            search, digest = run.name.removeprefix(prefix).rsplit("-", 1)[0].rsplit("-", 1)
            return Entrant(run.rules, search, digest, described)
    raise LongrunError(f"run '{run.name}' is not named as a race or confirmation run of {run.rules}")


def changed_numbers(rules: str, data: str | None, root: Path, reference: str | None = None) -> dict[str, int]:
    """The numbers the data file ``data`` changes from ``reference`` (both relative to ``root``; None: the game's
    default): key -> its value there."""
    return {key: there for key, _, there in _changes(rules, data, root, reference)}


def data_changes(rules: str, data: str | None, root: Path, reference: str | None = None) -> list[str]:
    """:func:`changed_numbers` in words (``Pier.cost.food 6->10``)."""
    return [f"{key} {was}->{there}" for key, was, there in _changes(rules, data, root, reference)]


def run_changes(run: RunPlan, root: Path) -> dict[str, int]:
    """:func:`changed_numbers` of the data ``run`` plays, from its reference."""
    return changed_numbers(run.rules, run.options.get("buildings"), root, run.reference)


def data_name(rules: str, reference: str | None, root: Path) -> str:
    """The data a run naming none plays, as the reports say it: ``today's data (buildings-2026-11)`` while it is
    the game's default, ``the buildings-2026-11 data`` once another file is; ``today's data`` with none."""
    if not reference:
        return "today's data"
    stem = Path(reference).stem
    return f"today's data ({stem})" if is_default(rules, reference, root) else f"the {stem} data"


def is_default(rules: str, data: str, root: Path) -> bool:
    """Whether the data file ``data`` (relative to ``root``) holds the numbers a new game of ``rules`` plays
    today (the same data digest as the default's: an adopted candidate, or the shipped file itself)."""
    game = load_ruleset(rules)
    digest = game.data_digest(game.options_model.model_validate({"buildings": str((root / data).resolve())}))
    return bool(digest == game.data_digest(game.options_model.model_validate({})))


def _changes(rules: str, data: str | None, root: Path, reference: str | None) -> list[tuple[str, int, int]]:
    """(key, the value in ``reference``, the value in ``data``) for each number ``data`` changes."""
    game = load_ruleset(rules)
    if not data or game.tuning is None:
        return []
    was = {f.key: f.value for f in game.tuning.fields(str((root / reference).resolve()) if reference else None)}
    there = game.tuning.fields(str((root / data).resolve()))
    return [(f.key, was[f.key], f.value) for f in there if f.key in was and was[f.key] != f.value]
