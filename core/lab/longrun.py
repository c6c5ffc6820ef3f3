"""Long measurements that survive interruption: a plan of runs, a committed store, one game a line.

A *plan* (a JSON file) lists runs: the rule set and its options, the agents with their node
budgets, the noise, the run's seed and how many games it asks.  The *store* is a folder of plain
text files, one per run, one finished game per line (JSON), committed with the code, so a
measurement bigger than one sitting is played in pieces:

* :func:`play_plan` plays only the games the store does not hold yet, in the plan's order,
  appending each game as it ends (one ``write`` of a whole line, flushed and synced), and stops
  cleanly at a deadline, on SIGTERM or on Ctrl-C: the game in flight is abandoned, every finished
  game is kept.  A line torn by a killed machine is dropped when the store is read and cut off
  before the next append.
* Every stored game carries the *fingerprint* of the engine that played it
  (:func:`engine_fingerprint`: a digest of searches on fixed positions of the run's game and
  options, and of the data in use).  A tree whose fingerprint differs cannot append to that run
  (:class:`FingerprintMismatch`), so games of different engines never mix.
* Game ``i`` of a run is set up with :func:`setup_seed` ``(run, i // 2)`` and seats the agent
  list rotated by ``i``: every set-up is played from both seats, by the same two agents (each
  agent's own seed is derived from the set-up and the agent, not the seat), so a mirror match
  is two different games of one set-up.  The agents search on node budgets with no time cap,
  so the machine's load changes the time a game takes, never the game.

Tables and reports are made from the store alone (:func:`read_run`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from types import FrameType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from core.agents import AgentSpecError, make_agent
from core.evalcache import forget
from core.lab.perturb import PerturbSpec, draw, movable, write_data
from core.lab.playtest.config import build_options, load_ruleset, new_game, options_to_json
from core.lab.playtest.game import Decisions, LeadChanges
from core.lab.stats import wilson_interval
from core.protocol import GameSpec, GameState
from core.search import Searcher
from core.seeds import LONGRUN_AGENT, LONGRUN_PERTURB, LONGRUN_SETUP, derive_seed
from core.table import AGENT, Seat, Table

#: the modules of the optional extra ``openspiel`` (``pip install -e '.[openspiel]'``) the MCTS adapter needs
OPENSPIEL_MODULES = ("pyspiel", "open_spiel", "numpy")
#: OpenSpiel's MCTS with a simulation budget (``mcts:eval@sims=N``), or None without the extra
fixed_mcts: Callable[[str, int], Any] | None
try:
    from core.lab.openspiel_adapter import fixed_mcts
except ImportError as missing:  # only the extra's own modules may be missing; any other import error is a bug
    if missing.name not in OPENSPIEL_MODULES:
        raise
    fixed_mcts = None

#: the node budget and the plies of the fingerprint's searches (a few seconds of CPU per rule set)
FINGERPRINT_NODES = 600
#: each fixed position: (the set-up's seed, plies played into it, the search's seed), all constants
FINGERPRINT_POSITIONS = tuple(
    (setup, plies, search)
    for setup, row in ((11, (11, 20, 34, 52)), (29, (29, 38, 52, 70)))
    for plies, search in zip((0, 9, 23, 41), row, strict=True)
)


class LongrunError(Exception):
    """A plan, a store or a request that cannot be used; the message says what and what is allowed."""


class FingerprintMismatch(LongrunError):
    """The store holds games of this run played by another engine."""


#: the chance a race puts a run out whose share in fact lies in its band (over all of the run's looks)
RACE_ALPHA = 0.05


class RaceSpec(BaseModel):
    """A run raced against a band: it stops as soon as its first seat's share of decisive games is clearly
    outside ``band`` (:func:`race_verdict`), looked at after every ``every`` games (both seats of each
    set-up), and is not played at all once a run named in ``unless_out`` is out or ended outside its band."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    band: tuple[float, float]
    every: int = Field(ge=2)
    unless_out: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _sound(self) -> RaceSpec:
        lo, hi = self.band
        if not 0.0 <= lo < hi <= 1.0:
            raise ValueError(f"a race's band is two shares from 0 to 1, the lower first; given {lo}, {hi}")
        if self.every % 2:
            raise ValueError(f"a race looks after both seats of a set-up: 'every' must be even, not {self.every}")
        return self

    def z(self, games: int) -> float:
        """The interval's z at each look: :data:`RACE_ALPHA` shared among the looks of a run of ``games`` games
        (Bonferroni), so that repeated looks do not put out a run whose share is in the band."""
        looks = max(1, games // self.every)
        return NormalDist().inv_cdf(1 - RACE_ALPHA / (2 * looks))


class ExtendSpec(BaseModel):
    """A match played on from its ``games`` to ``to`` games when the first ``games`` leave it undecided: the
    first agent's share of decisive games then has a 95% interval that still includes 50%."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    to: int = Field(ge=2)


class RunPlan(BaseModel):
    """One run of the plan."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    #: which table of the reports it belongs to: a seat curve, a match, a skill step, a games comparison
    group: str
    #: one sentence on what the run measures (the reports print it)
    question: str
    rules: str
    agents: tuple[str, ...]
    noise: float | None = None
    #: plain option values, as a playtest configuration takes them (players, short, buildings, variants)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    games: int = Field(ge=1)
    #: the level's label in a seat curve ("ai:normal"), the step's budgets in a ladder, etc.
    label: str = ""
    #: every set-up on its own small perturbation of the data (:mod:`core.lab.perturb`); None: the data as it is
    perturb: PerturbSpec | None = None
    #: stop early once the first seat's share is clearly outside a band (:class:`RaceSpec`); None: play every game
    race: RaceSpec | None = None
    #: play on to more games if the first ``games`` leave the match undecided (:class:`ExtendSpec`)
    extend: ExtendSpec | None = None
    #: why the run was stopped before its last game (a sentence); ``play`` then never plays it on, and the
    #: reports judge it on the games it holds, saying so. None: the run is played to its end
    stopped: str | None = Field(default=None, min_length=1)
    #: the data file (relative to the root) the run plays when its options name none, against which the changes
    #: of the data it plays are told: its plan's ``data`` for its rules, set when the plan is read (not part of
    #: the run's key: it is what "no data named" meant when the run was written); None: the game's default
    reference: str | None = None

    @field_validator("agents")
    @classmethod
    def _two_or_more(cls, agents: tuple[str, ...]) -> tuple[str, ...]:
        if len(agents) < 2:
            raise ValueError("a run needs one agent per seat (at least two)")
        return agents

    @model_validator(mode="after")
    def _extends_further(self) -> RunPlan:
        if self.extend is not None and self.extend.to <= self.games:
            raise ValueError(
                f"run '{self.name}' extends to {self.extend.to} games, which is not more than its {self.games}"
            )
        if self.extend is not None and self.race is not None:
            raise ValueError(f"run '{self.name}' is raced and extended: a run may stop early or play on, not both")
        return self

    def asked(self, games: Sequence[dict[str, Any]]) -> int:
        """How many games the run asks, given the ``games`` it holds: ``games``, or :attr:`extend`'s number
        once the first ``games`` are played and leave the first agent's share undecided."""
        if self.extend is None or len(games) < self.games:
            return self.games
        first = [g for g in games if int(g["index"]) < self.games]
        wins, _, losses = match_counts(first, 0)
        low, high = wilson_interval(wins, wins + losses)
        return self.extend.to if wins + losses == 0 or low <= 0.5 <= high else self.games

    def key(self) -> str:
        """A digest of what the run plays: a stored game of another definition is not this run's."""
        fields = self.model_dump(include={"rules", "agents", "noise", "options", "seed"})
        if self.perturb is not None:
            fields["perturb"] = self.perturb.model_dump()
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


class Plan(BaseModel):
    """Every run of a long measurement, in the order they are played."""

    model_config = ConfigDict(extra="forbid")

    #: rules -> the data file (relative to the root) a run of those rules plays when it names none: the data the
    #: plan was written on, so that a new default data file (an adopted rebalance) changes none of its runs
    data: dict[str, str] = Field(default_factory=dict)
    #: last in the file, so that runs are added after its last line (:func:`add_runs`)
    runs: list[RunPlan]

    @model_validator(mode="after")
    def _runs_on_its_data(self) -> Plan:
        self.runs = [
            run.model_copy(update={"reference": self.data[run.rules]})
            if run.reference is None and run.rules in self.data
            else run
            for run in self.runs
        ]
        return self

    @field_validator("runs")
    @classmethod
    def _unique(cls, runs: list[RunPlan]) -> list[RunPlan]:
        names = [r.name for r in runs]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"run names must be unique; given twice: {', '.join(twice)}")
        for run in runs:
            unknown = [n for n in (run.race.unless_out if run.race else ()) if n not in names]
            if unknown:
                raise ValueError(f"run '{run.name}' races unless {', '.join(unknown)} is out, and no run has that name")
        return runs

    def select(self, names: Sequence[str]) -> list[RunPlan]:
        if not names:
            return list(self.runs)
        known = {r.name: r for r in self.runs}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise LongrunError(f"no run named {', '.join(unknown)} in the plan (runs: {', '.join(known)})")
        return [known[n] for n in names]


def load_plan(path: Path) -> Plan:
    try:
        return Plan.model_validate_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LongrunError(f"cannot read the plan {path}: {exc.strerror}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise LongrunError(f"the plan {path} is not valid: {where}: {first['msg']}") from None


def plan_entry(run: RunPlan) -> str:
    """``run`` as one line of the plan file (its reference left to the plan's ``data``)."""
    return json.dumps(run.model_dump(mode="json", exclude_defaults=True, exclude={"reference"}), ensure_ascii=False)


def add_runs(path: Path, runs: Sequence[RunPlan]) -> list[RunPlan]:
    """Append ``runs`` to the plan file ``path``, one line each after its last run, leaving every line it has
    as it is; a run the plan holds already (the same name and settings) is left out, and a different run under
    a name the plan holds is refused. The file is replaced only by a plan that reads back. The runs added."""
    plan = load_plan(path)
    known = {r.name: r for r in plan.runs}
    new: list[RunPlan] = []
    for run in runs:
        if run.name in known:
            if known[run.name] != run:
                raise LongrunError(f"the plan {path} has another run named '{run.name}': rename one of them")
            continue
        new.append(run)
        known[run.name] = run
    if not new:
        return []
    text = path.read_text(encoding="utf-8")
    end = re.search(r"\s*\]\s*\}\s*$", text)
    if end is None:
        raise LongrunError(f"the plan {path} does not end with its list of runs (']' then '}}'): add the runs by hand")
    lines = ",\n".join("    " + plan_entry(run) for run in new)
    updated = text[: end.start()] + (",\n" if plan.runs else "\n") + lines + "\n  ]\n}\n"
    try:
        Plan.model_validate_json(updated)
    except ValidationError as exc:
        raise LongrunError(f"the runs would not make a valid plan: {exc.errors()[0]['msg']}") from None
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(updated, encoding="utf-8")
    os.replace(tmp, path)
    return new


# ---------------------------------------------------------------------------
# Seeds, agents and one game
# ---------------------------------------------------------------------------


def setup_seed(run: RunPlan, pair: int) -> int:
    """The set-up seed of games ``2 pair`` and ``2 pair + 1`` of ``run``."""
    return derive_seed(run.seed, LONGRUN_SETUP, pair)


def agent_seed(setup: int, agent: int) -> int:
    """The seed of agent ``agent`` (its index in the run's list) in the games of set-up ``setup``."""
    return derive_seed(setup, LONGRUN_AGENT, agent)


def seat_order(agents: int, index: int) -> list[int]:
    """Which agent sits in each seat in game ``index``: the list rotated by ``index``."""
    return [(s + index) % agents for s in range(agents)]


def run_agent(spec: str, seed: int, game: GameSpec, noise: float | None) -> Any:
    """The agent of ``spec`` in a long measurement: the product's agents (:func:`core.agents.make_agent`),
    or OpenSpiel's MCTS with a simulation budget (``mcts:eval@sims=N``, the ``openspiel`` extra)."""
    if not spec.strip().lower().startswith("mcts"):
        return make_agent(spec, seed, game, noise=noise, time_cap=False)
    if noise:
        raise LongrunError(f"agent '{spec}': MCTS takes no noise; give the run's noise only to ai agents")
    if fixed_mcts is None:
        raise LongrunError(
            f"agent '{spec}' is OpenSpiel's MCTS, and OpenSpiel is not installed here: "
            "install the extra with pip install -e '.[openspiel]', or use the ai, greedy or random agents"
        )
    try:
        return fixed_mcts(spec, seed)
    except ValueError as exc:
        raise LongrunError(str(exc)) from None


def run_options(run: RunPlan, root: Path) -> dict[str, Any]:
    """The run's options as the game takes them (a data file path is relative to ``root``; a run naming none
    plays its reference)."""
    values = dict(run.options)
    values.setdefault("players", len(run.agents))
    if not values.get("buildings") and run.reference:
        values["buildings"] = run.reference
    if values.get("buildings"):
        values["buildings"] = str((root / values["buildings"]).resolve())
    return options_to_json(build_options(run.rules, values))


class Stop(Exception):
    """Raised between two decisions when the runner must stop: the game in flight is abandoned."""


def perturbed(run: RunPlan, index: int, options: dict[str, Any], folder: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """The options of game ``index`` of a perturbed run (its set-up's data file, written into ``folder``)
    and the perturbation (key -> value); the options as they are for a run without one."""
    if run.perturb is None:
        return options, {}
    game = load_ruleset(run.rules)
    base = options.get("buildings")
    pair = index // 2
    changes = draw(movable(game, base, run.perturb), run.perturb, derive_seed(run.seed, LONGRUN_PERTURB, pair))
    path = write_data(game, base, changes, folder / f"{run.name}-{pair}.json")
    return options | {"buildings": str(path)}, changes


def play_one(
    run: RunPlan, index: int, options: dict[str, Any], should_stop: Callable[[], bool], folder: Path | None = None
) -> dict[str, Any]:
    """Play game ``index`` of ``run`` to its end and return its record (raises :class:`Stop`); a perturbed
    run writes its data files into ``folder``.  The engine's caches are emptied first, as a playtest's game
    does (:func:`core.evalcache.forget`; play is the same): one process plays game after game for hours,
    each set-up of a perturbed run on data of its own."""
    forget()
    options, changes = perturbed(run, index, options, folder or Path(tempfile.gettempdir()))
    game = load_ruleset(run.rules)
    setup = setup_seed(run, index // 2)
    order = seat_order(len(run.agents), index)
    seats = [
        Seat(
            run.agents[a],
            AGENT,
            run.agents[a],
            run_agent(run.agents[a], agent_seed(setup, a), game, run.noise),
        )
        for a in order
    ]
    state = new_game(run.rules, options, setup)
    table = Table(game, None, setup, state, seats, keep_positions=False)
    log = Decisions(game)
    lead = LeadChanges()

    def decide(t: Table, player: int) -> Any:
        if should_stop():
            raise Stop
        return log(t, player)

    wall, cpu = time.perf_counter(), time.process_time()
    final = table.play(decide, lead.after)
    return (
        {
            "index": index,
            "setup_seed": setup,
            "seats": [run.agents[a] for a in order],
            "seat_agents": order,
            "wealth": list(final.wealth()),
            "winners": list(final.winners()),
            "main_actions": int(final.main_action_count),
            "decisions": len(log.trace),
            "lead_changes": lead.changes,
            "wall": round(time.perf_counter() - wall, 2),
            "cpu": round(time.process_time() - cpu, 2),
            "load": round(os.getloadavg()[0], 2),
            "buildings": log.buildings,
            "owners": dict(final.building_owners()),
            "actions": [str(a) for a in final.history],
            "trace": log.trace,
        }
        | log.tallies(final)
        | ({"perturbation": changes} if run.perturb is not None else {})
    )


# ---------------------------------------------------------------------------
# The engine's fingerprint
# ---------------------------------------------------------------------------


def _walk(state: GameState, plies: int, salt: int) -> GameState:
    """``state`` after ``plies`` fixed, seed-free choices (a stride through the legal actions)."""
    s = state.clone()
    for ply in range(plies):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[(ply * 7 + salt) % len(legal)])
    return s


def engine_fingerprint(rules: str, options: dict[str, Any]) -> str:
    """A digest of what the engine does on fixed positions of ``rules`` with ``options``.

    Two set-ups, each searched at four depths into the game (:data:`FINGERPRINT_POSITIONS`: fixed
    choices, constant seeds, no agent), with a fixed node budget and no time limit: the chosen action, its score, the
    depth and the nodes, each seat's evaluation, and the digest of the data in use.  Any change to
    the rules, the data, the evaluation or the search changes it; a change in how seeds are derived
    does not (the games it would play are other games of the same engine)."""
    game = load_ruleset(rules)
    parts: list[Any] = [rules, game.data_digest(game.options_model.model_validate(options))]
    starts = {setup: new_game(rules, options, setup) for setup, _, _ in FINGERPRINT_POSITIONS}
    for setup, plies, search in FINGERPRINT_POSITIONS:
        s = _walk(starts[setup], plies, setup)
        if s.is_terminal():
            parts.append("end")
            continue
        found = Searcher(max_nodes=FINGERPRINT_NODES, seed=search, evaluator=game.evaluator).search(s.copy_for_search())
        evals = [round(float(game.evaluator.evaluate(s, p)), 6) for p in range(s.num_players)]
        parts.append([str(found.action), round(found.score, 6), found.depth, found.nodes, evals])
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------
# The store
# ---------------------------------------------------------------------------


def run_path(store: Path, run: RunPlan) -> Path:
    return store / f"{run.name}.jsonl"


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The stored games of one file, in order; a torn last line (a killed machine) is skipped."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.endswith("\n"):
                return  # torn: the write of this line never finished
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise LongrunError(f"{path}, line {number}: not a stored game ({exc.msg})") from None


def read_run(store: Path, run: RunPlan) -> list[dict[str, Any]]:
    """The games of ``run`` the store holds that were played on this run's definition."""
    key = run.key()
    return [g for g in read_lines(run_path(store, run)) if g.get("run_key") == key]


# ---------------------------------------------------------------------------
# Races
# ---------------------------------------------------------------------------


def match_counts(games: Sequence[dict[str, Any]], agent: int) -> tuple[int, int, int]:
    """``agent``'s (index in the run's list) wins, ties and losses."""
    wins = ties = 0
    for g in games:
        if len(g["winners"]) != 1:
            ties += 1
        elif g["seat_agents"][g["winners"][0]] == agent:
            wins += 1
    return wins, ties, len(games) - wins - ties


def decisive_share(games: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """The first seat's sole wins, and the decisive games."""
    return sum(1 for g in games if g["winners"] == [0]), sum(1 for g in games if len(g["winners"]) == 1)


@dataclass(frozen=True)
class RaceVerdict:
    """Where a raced run stands: the first seat's share of decisive games in its first ``games`` games, its
    interval at the race's z, and whether that interval lies wholly outside the band (``out``)."""

    games: int
    first: int
    decisive: int
    low: float
    high: float
    out: bool
    #: every game of the run was played (never out), and whether its share then lies in the band
    done: bool = False
    inside: bool = False

    @property
    def failed(self) -> bool:
        """Out of the race, or played to the end with its share outside the band."""
        return self.out or (self.done and not self.inside)

    def describe(self) -> str:
        share = f"{100 * self.first / self.decisive:.1f}%" if self.decisive else "–"
        return (
            f"{share} [{100 * self.low:.1f}%, {100 * self.high:.1f}%] of {self.decisive} decisive games in {self.games}"
        )


def race_verdict(run: RunPlan, games: Sequence[dict[str, Any]]) -> RaceVerdict | None:
    """``run``'s race after ``games`` (None for a run that is not raced): out at the first look (after each
    ``every`` games, in the order the games are played) whose interval lies wholly outside the band."""
    if run.race is None:
        return None
    ordered = sorted(games, key=lambda g: int(g["index"]))
    z = run.race.z(run.games)
    lo, hi = run.race.band
    looks = [*range(run.race.every, len(ordered) + 1, run.race.every)]
    for n in [*looks, len(ordered)]:
        first, decisive = decisive_share(ordered[:n])
        low, high = wilson_interval(first, decisive, z)
        out = decisive > 0 and (high < lo or low > hi) and n in looks
        if out or n == len(ordered):
            done = not out and n >= run.games
            inside = decisive > 0 and lo <= first / decisive <= hi
            return RaceVerdict(n, first, decisive, low, high, out, done, inside)
    raise AssertionError("unreachable: the last look is the whole run")


def skip_reason(plan: Plan, store: Path, run: RunPlan) -> str:
    """Why ``run`` is not played on (the plan says it was stopped, it is out of its race, or a run it depends
    on is); "" to play it."""
    if run.stopped is not None:
        return f"stopped in the plan: {run.stopped}"
    if run.race is None:
        return ""
    mine = race_verdict(run, read_run(store, run))
    if mine is not None and mine.out:
        return f"out of the race: the first seat's share, {mine.describe()}, lies outside {_band(run.race)}"
    known = {r.name: r for r in plan.runs}
    for name in run.race.unless_out:
        theirs = race_verdict(known[name], read_run(store, known[name]))
        if theirs is not None and theirs.failed:
            why = "is out of its race" if theirs.out else "ended its race outside its band"
            return f"not played: {name} {why} (the first seat's share, {theirs.describe()})"
    return ""


def _band(race: RaceSpec) -> str:
    return f"{100 * race.band[0]:.0f}-{100 * race.band[1]:.0f}%"


class RunStore:
    """One run's file: which games it holds, and appending one more."""

    def __init__(self, store: Path, run: RunPlan, fingerprint: str) -> None:
        self.path = run_path(store, run)
        self.run = run
        self.fingerprint = fingerprint
        games = list(read_lines(self.path))
        key = run.key()
        other = [g for g in games if g.get("run_key") != key]
        if other:
            raise LongrunError(
                f"{self.path} holds {len(other)} game(s) of another definition of run '{run.name}': "
                "a changed run needs a new name in the plan"
            )
        prints = sorted({g["fingerprint"] for g in games} - {fingerprint})
        if prints:
            raise FingerprintMismatch(
                f"run '{run.name}' was played by an engine with fingerprint {', '.join(prints)}; this tree's is "
                f"{fingerprint}, so its games would not be comparable: play it from a tree of that engine, "
                "or give the run a new name"
            )
        self.games = games
        self.done = {int(g["index"]) for g in games}
        self.times = [float(g.get("wall", 0.0)) for g in games]

    def missing(self) -> list[int]:
        return [i for i in range(self.run.asked(self.games)) if i not in self.done]

    def append(self, record: dict[str, Any]) -> None:
        line = json.dumps({"run": self.run.name, "run_key": self.run.key(), "fingerprint": self.fingerprint} | record)
        self._cut_torn_tail()
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.games.append(record)
        self.done.add(int(record["index"]))
        self.times.append(float(record.get("wall", 0.0)))

    def _cut_torn_tail(self) -> None:
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            self.path.write_bytes(data[: data.rfind(b"\n") + 1])


# ---------------------------------------------------------------------------
# Playing the plan
# ---------------------------------------------------------------------------


class StopSignal:
    """SIGTERM, Ctrl-C or the deadline: the runner stops between two decisions (a second Ctrl-C at once)."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.reason = ""

    @classmethod
    def after(cls, minutes: float | None) -> StopSignal:
        """Stop after ``minutes`` (None: only on a signal)."""
        return cls(None if minutes is None else time.monotonic() + minutes * 60)

    def __call__(self) -> bool:
        if not self.reason and self.deadline is not None and time.monotonic() >= self.deadline:
            self.reason = "the time given ran out"
        return bool(self.reason)

    def _signal(self, signum: int, frame: FrameType | None) -> None:
        if self.reason and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.reason = "stopped by " + signal.Signals(signum).name

    def install(self) -> None:
        signal.signal(signal.SIGTERM, self._signal)
        signal.signal(signal.SIGINT, self._signal)


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min {int(seconds % 60):02d} s"


def play_plan(
    plan: Plan,
    store: Path,
    root: Path,
    runs: Sequence[str] = (),
    minutes: float | None = None,
    say: Callable[[str], None] = print,
    stop: StopSignal | None = None,
) -> int:
    """Play every game the store lacks, run by run in the plan's order; the number of games played."""
    stop = stop or StopSignal.after(minutes)
    played = 0
    prints: dict[str, str] = {}
    for run in plan.select(runs):
        options = run_options(run, root)
        key = json.dumps([run.rules, options], sort_keys=True)
        if key not in prints:
            prints[key] = engine_fingerprint(run.rules, options)
        try:
            held = RunStore(store, run, prints[key])
        except FingerprintMismatch as exc:
            say(f"skipped: {exc}")
            continue
        skip = skip_reason(plan, store, run)
        if skip:
            say(f"{run.name}: {skip}")
            continue
        played += _play_run(run, held, options, stop, say)
        if stop():
            say(f"stopped ({stop.reason}); {played} game(s) played and stored; the game in flight, if any, was not")
            break
    return played


def _play_run(
    run: RunPlan, held: RunStore, options: dict[str, Any], stop: StopSignal, say: Callable[[str], None]
) -> int:
    missing = held.missing()
    if not missing:
        return 0
    try:
        for spec in run.agents:
            run_agent(spec, 0, load_ruleset(run.rules), run.noise)
    except (LongrunError, AgentSpecError) as exc:
        say(f"skipped {run.name}: {exc}")
        return 0
    say(f"{run.name}: {len(held.done)} of {run.games} games stored, {len(missing)} to play ({run.question})")
    played = 0
    with tempfile.TemporaryDirectory(prefix="lehavre-longrun-") as folder:
        while missing:  # asked again after each game: an undecided match is played on (RunPlan.extend)
            try:
                record = play_one(run, missing[0], options, stop, Path(folder))
            except Stop:
                return played
            held.append(record)
            played += 1
            _progress(run, held, record, say)
            verdict = race_verdict(run, held.games)
            if verdict is not None and verdict.out:
                assert run.race is not None
                say(
                    f"{run.name}: out of the race: the first seat's share, {verdict.describe()}, lies outside {_band(run.race)}"
                )
                return played
            before, missing = len(missing), held.missing()
            if len(missing) >= before:
                say(f"{run.name}: undecided after {run.games} games, played on to {run.asked(held.games)}")
    return played


def _progress(run: RunPlan, held: RunStore, record: dict[str, Any], say: Callable[[str], None]) -> None:
    mean = sum(held.times) / len(held.times)
    asked = run.asked(held.games)
    left = mean * (asked - len(held.done))
    winners = "tie" if len(record["winners"]) != 1 else f"seat {record['winners'][0] + 1} won"
    say(
        f"{run.name}: game {record['index'] + 1} ({len(held.done)}/{asked}) {winners} "
        f"{'-'.join(str(w) for w in record['wealth'])} in {record['wall']:.0f} s; "
        f"about {_duration(left)} left in this run"
    )
