"""A playtest run: plan the games still missing, play them on a backend, store each
as it finishes (Ctrl-C keeps what finished), and load a stored run.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from core.lab.playtest.backends import run_jobs
from core.lab.playtest.config import Config, PlaytestError
from core.lab.playtest.game import GameJob
from core.lab.playtest.store import Store


@dataclass
class RunResult:
    run_id: int
    config: Config
    seed: int
    games: int
    #: games of the run stored (among its first ``games``): read them with ``Store.iter_games``
    stored: int
    played: int
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return self.stored >= self.games


def plan_run(store: Store, config: Config, seed: int, games: int, resume: bool) -> tuple[int, list[GameJob]]:
    """The run to play into and the games still missing from it."""
    run_id, _missing, jobs = plan_jobs(store, config, seed, games, resume)
    return run_id, list(jobs)


def plan_jobs(store: Store, config: Config, seed: int, games: int, resume: bool) -> tuple[int, int, Iterator[GameJob]]:
    """The run to play into, how many of its games are missing, and their jobs, made as they are taken."""
    if games < 1:
        raise PlaytestError(f"--games must be at least 1 (got {games})")
    run_id = store.find_run(config, seed) if resume else None
    if run_id is None:
        run_id = store.create_run(config, seed, games)
    else:
        store.set_games(run_id, games)
    done = bytearray(games)  # one byte a game: a million games' plan in a megabyte
    for i in store.done(run_id):
        if i < games:
            done[i] = 1
    jobs = (
        GameJob(config.rules, config.options, config.agents, seed, i, config.noise) for i in range(games) if not done[i]
    )
    return run_id, games - sum(done), jobs


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
    run_id, missing, jobs = plan_jobs(store, config, seed, games, resume)
    if on_start is not None:
        on_start(run_id, games - missing, missing)
    played = 0
    interrupted = False
    results = run_jobs(jobs, backend, processes, address, size=missing) if missing else iter(())
    try:
        for record in results:
            with signals_held():
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
    return RunResult(run_id, config, seed, games, store.count(run_id, limit=games), played, interrupted)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
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
    """A stored run as a result (its games stay in the store)."""
    info = store.run(run_id)
    return RunResult(run_id, info.config, info.seed, info.games, store.count(run_id, limit=info.games), 0)
