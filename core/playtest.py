"""Playtesting: many games between agents, stored as they finish, then summarised.

Generic over :mod:`core.protocol`: a configuration names a game (an
installed game's name from :mod:`core.games`, ``inland`` or ``base``, or
``module:ATTR`` naming any :class:`~core.protocol.GameSpec`), the options for
its ``new_game`` (its options model, filled from plain values) and the agents (:func:`core.agents.make_agent`
specs).  Game ``i`` of a run with seed ``S``

* is set up with the seed :func:`game_seed` ``(S, i)``,
* seats the agent list rotated by ``i`` (seat ``s`` gets agent ``(s + i) mod K``),
* gives the agent in seat ``s`` the seed :func:`agent_seed` ``(game seed, s)``,

so its result depends on nothing but (configuration, ``S``, ``i``): the same
for one process, ``J`` processes or a Dask cluster.

Results are stored one game at a time in SQLite (:class:`Store`), so an
interrupted run keeps every finished game and ``resume`` plays only the rest.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import multiprocessing
import re
import signal
import sqlite3
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from core import stats
from core.agents import make_agent
from core.games import UnknownGameError, game_spec
from core.protocol import GameError, GameSpec, GameState
from core.records import validation_message

#: a game that has not ended after this many actions is a bug in the rules or an agent
MAX_ACTIONS = 200_000


class PlaytestError(GameError):
    """A playtest request that cannot be carried out; the message says why and what is allowed."""


# ---------------------------------------------------------------------------
# Rule sets and their options
# ---------------------------------------------------------------------------

_IMPORTED: dict[str, GameSpec] = {}


def load_ruleset(rules: str) -> GameSpec:
    """The spec of the game ``rules``: an installed game's name (:mod:`core.games`),
    or ``package.module:ATTR`` naming a :class:`GameSpec` that is not installed
    (worker processes import it by that name)."""
    if ":" not in rules:
        try:
            return game_spec(rules)
        except UnknownGameError as exc:
            raise PlaytestError(str(exc)) from None
    if rules in _IMPORTED:
        return _IMPORTED[rules]
    module_name, _, attr = rules.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PlaytestError(f"the rule set '{rules}' is not available: cannot import {module_name} ({exc})") from None
    spec = getattr(module, attr, None)
    if not isinstance(spec, GameSpec):
        raise PlaytestError(f"the rule set '{rules}' is not available: {module_name} has no GameSpec named {attr}")
    _IMPORTED[rules] = spec
    return spec


#: generic option names and the field names rule modules may use for them
_ALIASES = {
    "players": ("players", "num_players", "player_count", "n_players"),
    "short": ("short", "short_game"),
    "buildings": ("buildings", "buildings_file", "building_file", "buildings_path"),
}


def _field_for(fields: dict[str, Any], key: str) -> str | None:
    for name in _ALIASES.get(key, (key,)):
        if name in fields:
            return name
    return None


def build_options(rules: str, values: dict[str, Any]) -> BaseModel | None:
    """Validate plain option values (``players``, ``short``, ``buildings``, variant flags) for ``rules``.

    Keys are matched to the options model's fields (``players`` also as
    ``num_players`` and so on; ``short`` also as ``version=short``); a key the
    model does not have goes into its ``variants`` mapping if it has one,
    otherwise it is refused with the list of allowed names.
    """
    model = load_ruleset(rules).options_model
    values = {k: v for k, v in values.items() if v is not None}
    fields = model.model_fields
    data: dict[str, Any] = {}
    unknown: list[str] = []
    for key, value in values.items():
        if key == "variants":
            for vk, vv in dict(value).items():
                _put_variant(fields, data, vk, vv, unknown)
            continue
        name = _field_for(fields, key)
        if name is not None:
            data[name] = value
        elif key == "short" and "version" in fields:
            data["version"] = "short" if value else "full"
        elif key in _ALIASES:
            if key == "short" and not value:
                continue
            if key == "players":
                continue  # a fixed player count: checked against the game itself
            unknown.append(key)
        else:
            _put_variant(fields, data, key, value, unknown)
    if unknown:
        allowed = ", ".join(sorted(n for n in fields if n != "variants")) or "none"
        raise PlaytestError(
            f"the rule set '{rules}' has no option {', '.join(repr(u) for u in unknown)} (allowed: {allowed})"
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise PlaytestError(f"bad options for '{rules}': {validation_message(exc)}") from None


def _put_variant(fields: dict[str, Any], data: dict[str, Any], key: str, value: Any, unknown: list[str]) -> None:
    if key in fields:
        data[key] = value
    elif "variants" in fields:
        data.setdefault("variants", {})[key] = value
    else:
        unknown.append(key)


def options_to_json(options: BaseModel | None) -> dict[str, Any]:
    return {} if options is None else options.model_dump(mode="json")


def new_game(rules: str, options_json: dict[str, Any], seed: int) -> GameState:
    """Set up one game from a stored configuration."""
    ruleset = load_ruleset(rules)
    return ruleset.new_game(seed, ruleset.options_model.model_validate(options_json))


# ---------------------------------------------------------------------------
# Configurations
# ---------------------------------------------------------------------------


@dataclass
class Config:
    """What is played: rule set, validated options (as JSON values) and agents."""

    rules: str
    agents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def players(self) -> int:
        return len(self.agents)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "agents": list(self.agents), "options": self.options, "label": self.label}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Config:
        return cls(
            rules=d["rules"], agents=tuple(d["agents"]), options=dict(d.get("options") or {}), label=d.get("label", "")
        )

    def key(self) -> str:
        """Identity of the configuration (label excluded): equal configurations resume each other."""
        text = json.dumps({"rules": self.rules, "agents": list(self.agents), "options": self.options}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def describe(self) -> str:
        if self.label:
            return self.label
        defaults = _default_options(self.rules)
        opts = ", ".join(
            f"{k}={_short_value(v)}"
            for k, v in sorted(self.options.items())
            if v not in (None, {}, []) and (k in _ALIASES["players"] or defaults.get(k, object()) != v)
        )
        return f"{self.rules} [{','.join(self.agents)}]" + (f" ({opts})" if opts else "")


def _default_options(rules: str) -> dict[str, Any]:
    try:
        return load_ruleset(rules).options_model().model_dump(mode="json")
    except (GameError, ValidationError):
        return {}


def _short_value(v: Any) -> str:
    if isinstance(v, str) and ("/" in v or "\\" in v):
        return Path(v).name
    return str(v)


def _check_player_count(rules: str, players: int) -> None:
    """``players`` must be a number of players the game is made for; the message says which are."""
    spec = load_ruleset(rules)
    if spec.min_players <= players <= spec.max_players:
        return
    made_for = (
        f"{spec.min_players} players"
        if spec.min_players == spec.max_players
        else f"{spec.min_players} to {spec.max_players} players"
    )
    raise PlaytestError(f"{spec.title} is for {made_for}, not {players}")


def make_config(
    rules: str,
    agents: Sequence[str],
    players: int | None = None,
    short: bool | None = None,
    buildings: str | Path | None = None,
    variants: dict[str, Any] | None = None,
    label: str = "",
) -> Config:
    """Check everything a person typed and return a :class:`Config` ready to play.

    Agent specs must be known, their number must equal the number of players,
    the options must validate and a first game must set up with that many seats.
    """
    agents = tuple(a.strip() for a in agents if a.strip())
    if not agents:
        raise PlaytestError("no agents given (e.g. --agents random,greedy)")
    for spec in agents:
        make_agent(spec, 0, load_ruleset(rules))
    if players is not None:
        _check_player_count(rules, players)
    if players is not None and players != len(agents):
        raise PlaytestError(
            f"--players {players} needs {players} agents, one per seat; got {len(agents)} ({','.join(agents)})"
        )
    if buildings is not None:
        path = Path(buildings).expanduser()
        if not path.is_file():
            raise PlaytestError(f"building file '{buildings}' does not exist or is not a file")
        buildings = str(path.resolve())
    values: dict[str, Any] = {"players": len(agents), "buildings": buildings, "variants": variants or {}}
    if short:
        values["short"] = True
    options = build_options(rules, values)
    config = Config(rules=rules, agents=agents, options=options_to_json(options), label=label)
    try:
        state = new_game(rules, config.options, 0)
    except GameError as exc:
        raise PlaytestError(f"cannot set up '{rules}' with these options: {exc}") from None
    if state.num_players != len(agents):
        raise PlaytestError(
            f"the rule set '{rules}' is played by {state.num_players} players here, but {len(agents)} agents were given "
            f"({','.join(agents)}); give one agent per seat"
        )
    return config


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------


def _derive(*parts: Any) -> int:
    text = ":".join(str(p) for p in parts)
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``run_seed`` (60 bits)."""
    return _derive("lehavre-playtest-game", run_seed, index)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game with seed ``seed``."""
    return _derive("lehavre-playtest-agent", seed, seat)


def seat_order(agents: Sequence[str], index: int) -> list[int]:
    """Which agent (index into ``agents``) sits in each seat in game ``index``."""
    k = len(agents)
    return [(s + index) % k for s in range(k)]


@dataclass(frozen=True)
class GameJob:
    rules: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    run_seed: int
    index: int

    @property
    def seed(self) -> int:
        return game_seed(self.run_seed, self.index)


def _unique_leader(wealth: Sequence[int]) -> int | None:
    best = max(wealth)
    leaders = [p for p, w in enumerate(wealth) if w == best]
    return leaders[0] if len(leaders) == 1 else None


def play_game(job: GameJob) -> dict[str, Any]:
    """Play one game to its end; the record holds everything statistics and replays need.

    ``lead_changes`` counts how often the sole leader in wealth changed,
    measured whenever the turn passes to another seat and at the end (a tied
    lead keeps the last sole leader).
    """
    seed = job.seed
    order = seat_order(job.agents, job.index)
    seats = [job.agents[i] for i in order]
    state = new_game(job.rules, job.options, seed)
    game = load_ruleset(job.rules)
    agents = [make_agent(spec, agent_seed(seed, s), game) for s, spec in enumerate(seats)]
    events: list[list[Any]] = []
    leader: int | None = None
    lead_changes = 0
    steps = 0
    start = time.perf_counter()
    while not state.is_terminal():
        player = state.current_player()
        action = agents[player].choose(state)
        hit = state.action_building(action)
        if hit is not None:
            events.append([hit[0], hit[1], player])
        state.apply_action(action)
        steps += 1
        if steps > MAX_ACTIONS:
            raise RuntimeError(f"game {job.index} (seed {seed}) did not end after {MAX_ACTIONS} actions")
        if state.is_terminal() or state.current_player() != player:
            now = _unique_leader(state.wealth())
            if now is not None:
                if leader is not None and now != leader:
                    lead_changes += 1
                leader = now
    seconds = time.perf_counter() - start
    return {
        "index": job.index,
        "seed": seed,
        "seats": seats,
        "seat_agents": order,
        "wealth": list(state.wealth()),
        "winners": list(state.winners()),
        "actions": list(state.history),
        "main_actions": int(state.main_action_count),
        "steps": steps,
        "seconds": seconds,
        "lead_changes": lead_changes,
        "buildings": events,
        "owners": dict(state.building_owners()),
    }


def result_fingerprint(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its timing: what must be identical for any number of processes."""
    return {k: v for k, v in record.items() if k != "seconds"}


# ---------------------------------------------------------------------------
# Backends: one process, J processes, Dask
# ---------------------------------------------------------------------------


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(jobs: Sequence[GameJob], processes: int = 1) -> Iterator[dict[str, Any]]:
    """Records in the order games finish; on ``close()`` (or Ctrl-C) the workers are stopped."""
    if processes <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield play_game(job)
        return
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(processes=min(processes, len(jobs)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(play_game, jobs, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_dask(jobs: Sequence[GameJob], address: str | None = None, processes: int = 1) -> Iterator[dict[str, Any]]:
    """Records from a Dask cluster at ``address`` (or a local one with ``processes`` workers).

    Every worker needs this project importable (``pip install 'lehavre[dask]'``
    on each machine); the results equal the local backends' game for game.
    """
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise PlaytestError("the Dask backend needs the optional extra: pip install 'lehavre[dask]'") from None
    cluster = None
    try:
        if address:
            client = Client(address, timeout="20s")
        else:
            cluster = LocalCluster(
                n_workers=max(1, processes),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            client = Client(cluster)
    except OSError as exc:
        raise PlaytestError(f"cannot reach the Dask scheduler at '{address}': {exc}") from None
    futures = client.map(play_game, list(jobs), pure=False)
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()


def run_jobs(
    jobs: Sequence[GameJob], backend: str = "local", processes: int = 1, address: str | None = None
) -> Iterator[dict[str, Any]]:
    if backend == "local":
        if address:
            raise PlaytestError("--address is only used with --backend dask")
        return run_local(jobs, processes)
    if backend == "dask":
        return run_dask(jobs, address, processes)
    raise PlaytestError(f"unknown backend '{backend}' (allowed: local, dask)")


# ---------------------------------------------------------------------------
# Storage
# ---------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    rules TEXT NOT NULL,
    config_key TEXT NOT NULL,
    config_json TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats_json TEXT NOT NULL,
    actions_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
CREATE INDEX IF NOT EXISTS runs_by_config ON runs(config_key, seed);
"""


@dataclass
class RunInfo:
    id: int
    created: str
    config: Config
    seed: int
    games: int
    stored: int


class Store:
    """Runs and their finished games in one SQLite file; each game is committed as it arrives."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30)
            self.db.executescript(_SCHEMA)
            self.db.commit()
        except (sqlite3.DatabaseError, OSError) as exc:
            raise PlaytestError(f"cannot use '{self.path}' as the results database: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def create_run(self, config: Config, seed: int, games: int) -> int:
        cur = self.db.execute(
            "INSERT INTO runs (created, label, rules, config_key, config_json, seed, games) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                datetime.now(UTC).isoformat(timespec="seconds"),
                config.label,
                config.rules,
                config.key(),
                json.dumps(config.to_dict(), sort_keys=True),
                seed,
                games,
            ),
        )
        self.db.commit()
        return int(cur.lastrowid)

    def set_games(self, run_id: int, games: int) -> None:
        self.db.execute("UPDATE runs SET games = MAX(games, ?) WHERE id = ?", (games, run_id))
        self.db.commit()

    def find_run(self, config: Config, seed: int) -> int | None:
        """The latest run with this configuration and seed."""
        row = self.db.execute(
            "SELECT id FROM runs WHERE config_key = ? AND seed = ? ORDER BY id DESC LIMIT 1", (config.key(), seed)
        ).fetchone()
        return None if row is None else int(row[0])

    def run(self, run_id: int) -> RunInfo:
        row = self.db.execute(
            "SELECT id, created, config_json, seed, games FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        if row is None:
            raise PlaytestError(f"no run {run_id} in '{self.path}' (see: lehavre compare --list-runs)")
        stored = self.db.execute("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()[0]
        return RunInfo(int(row[0]), row[1], Config.from_dict(json.loads(row[2])), int(row[3]), int(row[4]), int(stored))

    def runs(self) -> list[RunInfo]:
        ids = [int(r[0]) for r in self.db.execute("SELECT id FROM runs ORDER BY id")]
        return [self.run(i) for i in ids]

    def done(self, run_id: int) -> set[int]:
        return {int(r[0]) for r in self.db.execute("SELECT idx FROM games WHERE run_id = ?", (run_id,))}

    def add_game(self, run_id: int, record: dict[str, Any]) -> None:
        result = {k: v for k, v in record.items() if k not in ("actions", "seats")}
        self.db.execute(
            "INSERT OR IGNORE INTO games (run_id, idx, seed, seats_json, actions_json, result_json, finished) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                record["index"],
                record["seed"],
                json.dumps(record["seats"]),
                json.dumps(record["actions"]),
                json.dumps(result, sort_keys=True),
                datetime.now(UTC).isoformat(timespec="seconds"),
            ),
        )
        self.db.commit()

    def games(self, run_id: int, limit: int | None = None) -> list[dict[str, Any]]:
        """Stored records of a run, by game index (the first ``limit`` indices if given)."""
        rows = self.db.execute(
            "SELECT idx, seats_json, actions_json, result_json FROM games WHERE run_id = ? ORDER BY idx", (run_id,)
        ).fetchall()
        out = []
        for idx, seats, actions, result in rows:
            if limit is not None and idx >= limit:
                continue
            record = json.loads(result)
            record["seats"] = json.loads(seats)
            record["actions"] = json.loads(actions)
            out.append(record)
        return out


# ---------------------------------------------------------------------------
# A run: the plan, resuming, progress
# ---------------------------------------------------------------------------


@dataclass
class RunResult:
    run_id: int
    config: Config
    seed: int
    games: int
    records: list[dict[str, Any]]
    played: int
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return len(self.records) >= self.games


def plan_run(store: Store, config: Config, seed: int, games: int, resume: bool) -> tuple[int, list[GameJob]]:
    """The run to play into and the games still missing from it."""
    if games < 1:
        raise PlaytestError(f"--games must be at least 1 (got {games})")
    run_id = store.find_run(config, seed) if resume else None
    if run_id is None:
        run_id = store.create_run(config, seed, games)
    else:
        store.set_games(run_id, games)
    done = store.done(run_id)
    jobs = [GameJob(config.rules, config.options, config.agents, seed, i) for i in range(games) if i not in done]
    return run_id, jobs


def execute(
    store: Store,
    config: Config,
    seed: int,
    games: int,
    resume: bool = False,
    backend: str = "local",
    processes: int = 1,
    address: str | None = None,
    on_start: Callable[[int, int, int], None] | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> RunResult:
    """Play (the rest of) a run, storing each game as it finishes.

    ``on_start(run_id, already_stored, to_play)`` and ``on_game(record)`` let
    the CLI drive a progress bar.  Ctrl-C stops the workers; every game that
    finished before it is stored and the result says ``interrupted``.
    """
    run_id, jobs = plan_run(store, config, seed, games, resume)
    if on_start is not None:
        on_start(run_id, games - len(jobs), len(jobs))
    played = 0
    interrupted = False
    results = run_jobs(jobs, backend, processes, address) if jobs else iter(())
    try:
        for record in results:
            with _signals_held():
                store.add_game(run_id, record)
            played += 1
            if on_game is not None:
                on_game(record)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            try:
                close()
            except KeyboardInterrupt:
                interrupted = True
    return RunResult(run_id, config, seed, games, store.games(run_id, limit=games), played, interrupted)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C while a game is written, so it never splits an insert from its commit.

    The Python-level SIGINT handler is replaced for the duration (a mask would not do:
    the kernel may hand the signal to a multiprocessing helper thread, and Python then
    raises KeyboardInterrupt in the main thread anyway); a Ctrl-C that came meanwhile is
    raised again, through the original handler, once the game is committed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if pending:
            signal.raise_signal(signal.SIGINT)


def load_run(store: Store, run_id: int) -> RunResult:
    info = store.run(run_id)
    records = store.games(run_id, limit=info.games)
    return RunResult(run_id, info.config, info.seed, info.games, records, 0)


# ---------------------------------------------------------------------------
# Summaries and comparisons
# ---------------------------------------------------------------------------


def _agent_labels(agents: Sequence[str]) -> list[str]:
    if len(set(agents)) == len(agents):
        return list(agents)
    return [f"{a}#{i + 1}" for i, a in enumerate(agents)]


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = stats.wilson_interval(k, n)
    return {"count": k, "n": n, "rate": k / n if n else 0.0, "ci": [lo, hi]}


def summarize(config: Config, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Everything the tables and the report show about one configuration."""
    n = len(records)
    k = config.players
    seat_wins = [0] * k
    agent_wins = [0] * k
    ties = 0
    wealth_all: list[float] = []
    wealth_game_mean: list[float] = []
    winner_wealth: list[float] = []
    margins: list[float] = []
    buildings: dict[str, dict[str, int]] = {}

    def entry(name: str) -> dict[str, int]:
        return buildings.setdefault(
            name,
            {"built_games": 0, "builds": 0, "buys": 0, "uses": 0, "used_games": 0, "owned_games": 0, "winner_owned": 0},
        )

    for r in records:
        w = r["wealth"]
        winners = r["winners"]
        wealth_all.extend(w)
        wealth_game_mean.append(statistics.fmean(w))
        ordered = sorted(w, reverse=True)
        winner_wealth.append(ordered[0])
        margins.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0)
        if len(winners) == 1:
            seat_wins[winners[0]] += 1
            agent_wins[r["seat_agents"][winners[0]]] += 1
        else:
            ties += 1
        built: set[str] = set()
        used: set[str] = set()
        for verb, name, _seat in r["buildings"]:
            e = entry(name)
            if verb == "use":
                e["uses"] += 1
                used.add(name)
            else:
                e["builds" if verb == "build" else "buys"] += 1
                built.add(name)
        for name in built:
            entry(name)["built_games"] += 1
        for name in used:
            entry(name)["used_games"] += 1
        for name, owner in r["owners"].items():
            e = entry(name)
            e["owned_games"] += 1
            if owner in winners and len(winners) < k:
                e["winner_owned"] += 1

    decisive = n - ties
    labels = _agent_labels(config.agents)
    first = (
        stats.binomial_test(seat_wins[0], decisive, 1.0 / k)
        if k > 1
        else stats.TestResult("exact binomial test", 0.0, 1.0)
    )
    return {
        "label": config.describe(),
        "config": config.to_dict(),
        "games": n,
        "players": k,
        "seats": [{"seat": s, **_rate(seat_wins[s], n)} for s in range(k)],
        "ties": _rate(ties, n),
        "first_seat": {
            "share_of_decisive": seat_wins[0] / decisive if decisive else 0.0,
            "decisive": decisive,
            "expected": 1.0 / k,
            **first.to_dict(),
        },
        "agents": [{"agent": labels[i], "spec": config.agents[i], **_rate(agent_wins[i], n)} for i in range(k)],
        "wealth": stats.describe(wealth_all),
        "wealth_values": wealth_all,
        "wealth_game_mean": wealth_game_mean,
        "winner_wealth": stats.describe(winner_wealth),
        "margin": stats.describe(margins),
        "margin_values": margins,
        "actions": stats.describe([r["main_actions"] for r in records]),
        "actions_values": [r["main_actions"] for r in records],
        "seconds": stats.describe([r["seconds"] for r in records]),
        "seconds_values": [r["seconds"] for r in records],
        "lead_changes": stats.describe([r["lead_changes"] for r in records]),
        "lead_changes_values": [r["lead_changes"] for r in records],
        "buildings": dict(sorted(buildings.items())),
    }


def _numeric_tests(what: str, a: Sequence[float], b: Sequence[float]) -> list[dict[str, Any]]:
    ma = statistics.fmean(a) if a else float("nan")
    mb = statistics.fmean(b) if b else float("nan")
    mda = statistics.median(a) if a else float("nan")
    mdb = statistics.median(b) if b else float("nan")
    return [
        {"what": what, "measure": "mean", "a": ma, "b": mb, "diff": mb - ma, **stats.welch_t_test(b, a).to_dict()},
        {
            "what": what,
            "measure": "median",
            "a": mda,
            "b": mdb,
            "diff": mdb - mda,
            **stats.mann_whitney_u(b, a).to_dict(),
        },
    ]


def _rate_test(what: str, ka: int, na: int, kb: int, nb: int) -> dict[str, Any]:
    ra = ka / na if na else 0.0
    rb = kb / nb if nb else 0.0
    return {
        "what": what,
        "measure": "rate",
        "a": ra,
        "b": rb,
        "diff": rb - ra,
        **stats.two_proportion_z_test(kb, nb, ka, na).to_dict(),
    }


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Tests of every difference between two summaries (B minus A), each with its test and p-value.

    Rates: two-proportion z-test.  Numbers: Welch t-test on the mean and
    Mann-Whitney U on the distribution (reported with the medians).  Wealth is
    tested on each game's mean final wealth (one value per game, so the
    samples are independent).  Statistics are signed as B minus A.
    """
    tests: list[dict[str, Any]] = []
    na, nb = a["games"], b["games"]
    for s in range(min(a["players"], b["players"])):
        tests.append(_rate_test(f"seat {s} wins", a["seats"][s]["count"], na, b["seats"][s]["count"], nb))
    tests.append(_rate_test("ties", a["ties"]["count"], na, b["ties"]["count"], nb))
    # agents by name, when each configuration has distinct agents (copies of one agent differ only by seat)
    agents_b = {x["agent"]: x for x in b["agents"]}
    distinct = all(len({x["spec"] for x in s["agents"]}) == len(s["agents"]) for s in (a, b))
    for x in a["agents"] if distinct else []:
        if x["agent"] in agents_b:
            tests.append(_rate_test(f"{x['agent']} wins", x["count"], na, agents_b[x["agent"]]["count"], nb))
    tests += _numeric_tests("wealth (game mean)", a["wealth_game_mean"], b["wealth_game_mean"])
    tests += _numeric_tests("winning margin", a["margin_values"], b["margin_values"])
    tests += _numeric_tests("length (actions)", a["actions_values"], b["actions_values"])
    tests += _numeric_tests("lead changes", a["lead_changes_values"], b["lead_changes_values"])
    tests.append(
        {
            "what": "length (seconds)",
            "measure": "mean",
            "a": a["seconds"]["mean"],
            "b": b["seconds"]["mean"],
            "diff": (b["seconds"]["mean"] or 0) - (a["seconds"]["mean"] or 0),
            **stats.welch_t_test(b["seconds_values"], a["seconds_values"]).to_dict(),
        }
    )
    for name in sorted(set(a["buildings"]) | set(b["buildings"])):
        ea, eb = a["buildings"].get(name), b["buildings"].get(name)
        if ea is None or eb is None:
            continue  # a building in only one rule set: nothing to compare
        tests.append(_rate_test(f"{name}: built", ea["built_games"], na, eb["built_games"], nb))
    return tests


def records_table(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-game results for ``--json`` (by game index)."""
    return sorted((dict(r) for r in records), key=lambda r: r["index"])


# ---------------------------------------------------------------------------
# Configuration specs: RULES[:KEY=VALUE;KEY=VALUE...]
# ---------------------------------------------------------------------------

SPEC_HELP = (
    "A configuration SPEC is RULES[:KEY=VALUE;KEY=VALUE...] with RULES 'inland' or 'base' and keys "
    "agents=A,B[,...] (one per seat), players=K, short (or short=yes), buildings=FILE, label=TEXT; "
    "any other KEY=VALUE is a variant flag of the rule set. Quote it in the shell because of ';'. "
    "Example: 'inland:agents=greedy,greedy;buildings=my.json' or 'base:players=2;short;agents=ai,ai'."
)

_SPEC_RE = re.compile(r"^\s*(?P<rules>inland|base|[A-Za-z_][\w.]*:[A-Za-z_]\w*)\s*(?::(?P<rest>.*))?$", re.S)
_TRUE = {"", "1", "yes", "y", "true", "on"}
_FALSE = {"0", "no", "n", "false", "off"}


def parse_spec(text: str, default_agents: Sequence[str] | None = None) -> Config:
    """Turn a configuration SPEC (see :data:`SPEC_HELP`) into a checked :class:`Config`."""
    m = _SPEC_RE.match(text or "")
    if m is None:
        raise PlaytestError(
            f"cannot read the configuration '{text}': it must start with 'inland' or 'base'. {SPEC_HELP}"
        )
    rules, rest = m.group("rules"), (m.group("rest") or "").strip()
    agents: list[str] | None = list(default_agents) if default_agents else None
    players: int | None = None
    short: bool | None = None
    buildings: str | None = None
    label = ""
    variants: dict[str, str] = {}
    for part in (p.strip() for p in rest.split(";")):
        if not part:
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key == "agents":
            agents = [a.strip() for a in value.split(",") if a.strip()]
        elif key == "players":
            if not value.isdigit():
                raise PlaytestError(f"in '{text}': players must be a whole number, got '{value}'")
            players = int(value)
        elif key == "short":
            if value.lower() not in _TRUE | _FALSE:
                raise PlaytestError(f"in '{text}': short takes yes or no, got '{value}'")
            short = value.lower() in _TRUE
        elif key == "buildings":
            buildings = value
        elif key == "label":
            label = value
        elif eq and key:
            variants[key] = value
        else:
            raise PlaytestError(f"in '{text}': '{part}' is not KEY=VALUE. {SPEC_HELP}")
    if not agents:
        raise PlaytestError(f"in '{text}': no agents (add e.g. agents=greedy,greedy)")
    if players is None and agents and len(agents) == 1:
        agents = agents * 2
    return make_config(rules, agents, players=players, short=short, buildings=buildings, variants=variants, label=label)
