"""The balancing search: small moves on a data file's numbers until playtests meet the targets.

Every candidate (the base data with some fields changed) plays the same games:
game ``i`` of the run seed, with its seat rotation (:mod:`core.lab.playtest.game`),
so candidates differ only by their data (common random numbers).  Each round
tries up to ``candidates`` neighbours of the current data (one field one step
up or down; moves on the fields of the buildings that miss a target first) by
successive halving: all play a few games, the better half plays twice as many,
and so on until the survivors play the full ``games``.  The best replaces the
current data if it is closer to the targets (fewer changed fields break ties).
The search stops when the targets are met, no neighbour is better, or the next
round would pass the ``budget`` of games.

Every game is stored as it finishes (:class:`core.lab.playtest.Store`, one run per
candidate file), and every decision is a function of the stored games, so a
search interrupted (Ctrl-C, or ``stop_after`` games) and started again with
``resume`` replays its decisions, plays only the missing games and ends with
the same result as one uninterrupted search.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.datafile import RECONSTRUCTED
from core.lab.balance.measures import Measures, Targets, measure
from core.lab.playtest import Config, GameJob, PlaytestError, Store, make_config, plan_run, play_game, run_jobs
from core.lab.playtest.runner import signals_held
from core.protocol import GameSpec, TunableField
from core.seeds import BALANCE_CHECK, BALANCE_ORDER, derive_seed


class BalanceError(PlaytestError):
    """A balancing request that cannot be carried out; the message says why and what is allowed."""


@dataclass(frozen=True, order=True)
class Candidate:
    """The base data with ``changes`` (field key, new value), sorted by key."""

    changes: tuple[tuple[str, int], ...] = ()

    @property
    def changed(self) -> int:
        return len(self.changes)

    @property
    def text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.changes) or "(unchanged)"

    def moved(self, f: TunableField, delta: int) -> Candidate | None:
        """This candidate with ``f`` one step (``delta``) further, or ``None`` if that leaves its range."""
        values = dict(self.changes)
        new = values.get(f.key, f.value) + delta
        if not f.low <= new <= f.high:
            return None
        values[f.key] = new
        if new == f.value:
            del values[f.key]
        return Candidate(tuple(sorted(values.items())))


def rank(m: Measures, c: Candidate) -> tuple[float, int, tuple[tuple[str, int], ...]]:
    """Closer to the targets first; then fewer changed fields; then a fixed order."""
    return (m.penalty, c.changed, c.changes)


@dataclass(frozen=True)
class CandidateJob(GameJob):
    """A playtest game of one candidate (``candidate``: the id of its data file)."""

    candidate: str = ""


def play_candidate(job: CandidateJob) -> dict[str, Any]:
    """Play one game and say whose it is (run in worker processes)."""
    record = play_game(job)
    record["candidate"] = job.candidate
    return record


@dataclass(frozen=True)
class Settings:
    """What a search does; ``backend``, ``jobs`` and ``address`` say only where games are played."""

    rules: str
    agents: tuple[str, ...]
    base: str | None
    fields: tuple[str, ...]
    targets: Targets = field(default_factory=Targets)
    seed: int = 0
    games: int = 24
    candidates: int = 12
    budget: int = 1000
    work_dir: Path = Path(".")
    backend: str = "local"
    jobs: int = 1
    address: str | None = None
    #: given to every ``ai`` agent (``None``: none beyond the agents' own ``~X``)
    noise: float | None = None

    def run_name(self) -> str:
        """The search's name: a digest of everything that decides its result."""
        base = Path(self.base).read_bytes() if self.base else b"built-in"
        ident = json.dumps(
            [self.rules, self.agents, hashlib.sha256(base).hexdigest(), self.fields, self.targets.__dict__]
            + [self.seed, self.games, self.candidates, self.budget]
            + ([] if self.noise is None else [self.noise]),
            sort_keys=True,
        )
        return "balance-" + hashlib.sha256(ident.encode()).hexdigest()[:10]


@dataclass
class Step:
    """One round: the data it ended on and how many neighbours it tried."""

    round: int
    candidate: Candidate
    measures: Measures
    tried: int
    move: str


@dataclass
class Result:
    settings: Settings
    fields: list[TunableField]
    base: Measures
    best: Candidate
    best_measures: Measures
    steps: list[Step]
    used: int
    stop: str
    interrupted: bool = False
    checks: list[tuple[str, int, Measures, Measures]] = field(default_factory=list)


class SearchStopped(Exception):
    """Raised inside the search when it must stop now (Ctrl-C or the game limit)."""


def select_fields(all_fields: Sequence[TunableField], patterns: Sequence[str]) -> list[TunableField]:
    """The fields named by ``patterns``: ``reconstructed`` (the default), ``all``, or shell patterns
    of field names (``Dock.*``, ``*.value``), case-insensitive; each pattern must match something."""
    chosen: dict[str, TunableField] = {}
    for pattern in patterns or ["reconstructed"]:
        p = pattern.strip()
        if p.lower() in ("reconstructed", "all"):
            hits = [f for f in all_fields if p.lower() == "all" or f.source == RECONSTRUCTED]
        else:
            hits = [f for f in all_fields if fnmatch.fnmatchcase(f.key.lower(), p.lower())]
        if not hits:
            examples = ", ".join(f.key for f in all_fields[:3])
            raise BalanceError(
                f"--fields '{p}' names no numeric field of the data (give 'reconstructed', 'all' or patterns of "
                f"field names such as {examples}, 'Dock.*' or '*.value')"
            )
        for f in hits:
            chosen.setdefault(f.key, f)
    return [f for f in all_fields if f.key in chosen]


#: at most this many rungs of successive halving: the first plays a quarter of the games
MAX_RUNGS = 3


def rung_sizes(games: int, candidates: int, players: int) -> list[int]:
    """Games per candidate at each rung of successive halving: halving down from ``games``, at most
    :data:`MAX_RUNGS` rungs, never below two rotations of the seats, and no more rungs than halving
    ``candidates`` to one needs."""
    rungs = min(MAX_RUNGS, 1 + math.ceil(math.log2(max(1, candidates))))
    sizes = [games]
    while len(sizes) < rungs and sizes[0] // 2 >= 2 * players:
        sizes.insert(0, (sizes[0] // 2) // players * players)
    return sizes


def halving_cost(games: int, candidates: int, players: int) -> int:
    """Games one round of successive halving over ``candidates`` plays (stored games are reused)."""
    alive, done, cost = candidates, 0, 0
    for size in rung_sizes(games, candidates, players):
        cost += alive * (size - done)
        done, alive = size, math.ceil(alive / 2)
    return cost


def check_seed(seed: int) -> int:
    """The run seed of the checks: fresh games, none of which the search played."""
    return derive_seed(seed, BALANCE_CHECK)


class Search:
    """One balancing search over a store; :meth:`run` plays it (or replays it from the store)."""

    def __init__(
        self,
        spec: GameSpec,
        settings: Settings,
        store: Store,
        resume: bool = False,
        on_phase: Callable[[str], None] | None = None,
        on_games: Callable[[int], None] | None = None,
        stop_after: int | None = None,
    ) -> None:
        if spec.tuning is None:
            raise BalanceError(f"{spec.title} declares no tunable data; it cannot be balanced")
        self.spec, self.tuning, self.s, self.store = spec, spec.tuning, settings, store
        self.resume = resume
        self.on_phase = on_phase or (lambda text: None)
        self.on_games = on_games or (lambda n: None)
        self.stop_after = stop_after
        self.all_fields = self.tuning.fields(settings.base)
        self.fields = [f for f in self.all_fields if f.key in settings.fields]
        self.names = sorted({f.entity for f in self.all_fields})
        self.played = 0
        self.used = 0
        self._evaluated: dict[tuple[Candidate, tuple[str, ...], int], int] = {}
        self._created: set[str] = set()

    # -- playing candidates ------------------------------------------------------
    def data_file(self, c: Candidate) -> Path:
        """The candidate's data file (written once; its name is a digest of the base data and the changes)."""
        base = Path(self.s.base).read_bytes() if self.s.base else b"built-in"
        digest = hashlib.sha256(base + json.dumps(c.changes).encode()).hexdigest()[:16]
        path = (self.s.work_dir / "candidates" / f"{digest}.json").resolve()
        if not path.is_file():
            self.tuning.write(self.s.base, dict(c.changes), str(path), "")
        return path

    def config(self, c: Candidate, agents: Sequence[str]) -> Config:
        # the search's agents play with its noise; a check's own agents (--check AGENTS=GAMES) as written
        noise = self.s.noise if tuple(agents) == self.s.agents else None
        return make_config(self.s.rules, agents, buildings=self.data_file(c), noise=noise)

    def evaluate(
        self, cands: Sequence[Candidate], games: int, agents: Sequence[str] | None = None, seed: int | None = None
    ) -> dict[Candidate, Measures]:
        """Play (the rest of) the first ``games`` games of every candidate, all together, and measure them."""
        agents = tuple(agents or self.s.agents)
        seed = self.s.seed if seed is None else seed
        configs = {c: self.config(c, agents) for c in cands}
        runs: dict[str, int] = {}
        jobs: list[CandidateJob] = []
        stored = 0
        for c, cfg in configs.items():
            key = cfg.key() + f":{seed}"
            run_id, missing = plan_run(self.store, cfg, seed, games, self.resume or key in self._created)
            self._created.add(key)
            runs[key] = run_id
            jobs += [CandidateJob(j.rules, j.options, j.agents, j.run_seed, j.index, j.noise, key) for j in missing]
            new = max(0, games - self._evaluated.get((c, agents, seed), 0))
            self._evaluated[(c, agents, seed)] = max(games, self._evaluated.get((c, agents, seed), 0))
            stored += max(0, new - len(missing))
            if agents == self.s.agents and seed == self.s.seed:
                self.used += new
        self.on_games(stored)
        self._play(jobs, runs)
        return {
            c: measure(
                cfg, self.store.iter_games(runs[cfg.key() + f":{seed}"], limit=games), self.names, self.s.targets
            )
            for c, cfg in configs.items()
        }

    def _play(self, jobs: Sequence[CandidateJob], runs: Mapping[str, int]) -> None:
        if not jobs:
            return
        if self.stop_after is not None and self.played >= self.stop_after:
            raise SearchStopped
        results = run_jobs(jobs, self.s.backend, self.s.jobs, self.s.address, play=play_candidate)
        try:
            for record in results:
                with signals_held():
                    self.store.add_game(runs[record.pop("candidate")], record)
                self.played += 1
                self.on_games(1)
                if self.stop_after is not None and self.played >= self.stop_after:
                    raise SearchStopped
        except KeyboardInterrupt:
            raise SearchStopped from None
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()

    # -- the search --------------------------------------------------------------
    def neighbours(self, current: Candidate, m: Measures, rnd: int) -> list[Candidate]:
        """Up to ``candidates`` data one step from ``current``: moves on the fields of the buildings
        that miss a target first (worst first), then the others in an order drawn from the seed."""
        missing = [name for _kind, name, _off in m.misses if name]
        first = [f for name in dict.fromkeys(missing) for f in self.fields if f.entity == name]
        rest = [f for f in self.fields if f not in first]
        random.Random(derive_seed(self.s.seed, BALANCE_ORDER, rnd, current.text)).shuffle(rest)
        out: list[Candidate] = []
        for f in first + rest:
            for delta in (1, -1):
                c = current.moved(f, delta)
                if c is not None and c not in out:
                    out.append(c)
        return out[: self.s.candidates]

    def halving(self, cands: list[Candidate]) -> tuple[Candidate, Measures]:
        """Successive halving: the better half of each rung plays on; the best at the full games."""
        alive = list(cands)
        sizes = rung_sizes(self.s.games, len(cands), self.s_players)
        best: dict[Candidate, Measures] = {}
        for i, size in enumerate(sizes):
            self.on_phase(f"rung {i + 1}/{len(sizes)}: {len(alive)} candidates × {size} games")
            best = self.evaluate(alive, size)
            alive.sort(key=lambda c: rank(best[c], c))
            if i < len(sizes) - 1:
                alive = alive[: math.ceil(len(alive) / 2)]
        return alive[0], best[alive[0]]

    @property
    def s_players(self) -> int:
        return len(self.s.agents)

    def run(self) -> Result:
        """Search (or replay a stored search and go on); stops early with ``interrupted`` on Ctrl-C."""
        base = Candidate()
        steps: list[Step] = []
        base_m = current_m = None
        current = base
        stop = "the targets are met"
        try:
            self.on_phase(f"the data as given: {self.s.games} games")
            base_m = current_m = self.evaluate([base], self.s.games)[base]
            rnd = 0
            while current_m.penalty > 0:
                rnd += 1
                moves = self.neighbours(current, current_m, rnd)
                while moves and self.used + halving_cost(self.s.games, len(moves), self.s_players) > self.s.budget:
                    moves = moves[:-1]
                if len(moves) < min(2, self.s.candidates):
                    stop = "the budget of games is spent" if self.fields else "no field to change"
                    break
                self.on_phase(f"round {rnd}: {len(moves)} candidates")
                best, best_m = self.halving(moves)
                if rank(best_m, best) >= rank(current_m, current):
                    stop = "no neighbour is closer to the targets"
                    break
                move = ", ".join(f"{k}={v}" for k, v in sorted(set(best.changes) - set(current.changes)))
                current, current_m = best, best_m
                steps.append(Step(rnd, current, current_m, len(moves), move or "a change undone"))
        except SearchStopped:
            if base_m is None or current_m is None:
                base_m = current_m = measure(self.config(base, self.s.agents), [], self.names, self.s.targets)
            return Result(self.s, self.fields, base_m, current, current_m, steps, self.used, "interrupted", True)
        return Result(self.s, self.fields, base_m, current, current_m, steps, self.used, stop)

    def check(self, result: Result, agents: Sequence[str], games: int) -> tuple[Measures, Measures]:
        """The data as given and the best data on ``games`` fresh games between ``agents``."""
        self.on_phase(f"check: {','.join(agents)} × {games} fresh games")
        ms = self.evaluate([Candidate(), result.best], games, agents, check_seed(self.s.seed))
        return ms[Candidate()], ms[result.best]


def run_note(settings: Settings, command: str, when: str) -> str:
    """The note every changed datum carries: which run changed it, when, with what command and games."""
    return (
        f"changed by the balancing run {settings.run_name()} on {when} ({command}): agents "
        f"{','.join(settings.agents)}, seed {settings.seed}, up to {settings.games} games per candidate"
    )


def write_best(spec: GameSpec, result: Result, out: str | Path, note: str) -> Path:
    """Write the best data: the base file with the best changes, each changed datum noted."""
    if spec.tuning is None:
        raise BalanceError(f"{spec.title} declares no tunable data; it cannot be balanced")
    path = Path(out).expanduser()
    spec.tuning.write(result.settings.base, dict(result.best.changes), str(path), note)
    return path
