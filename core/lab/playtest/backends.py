"""Where playtest games are played: in this process, in ``J`` processes, or on a Dask
cluster; every backend yields the same records (:func:`core.lab.playtest.game.play_game`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import Any

from core.lab.playtest.config import PlaytestError
from core.lab.playtest.game import GameJob, play_game
from core.lab.pool import in_processes

#: what a backend does with each job: :func:`play_game`, or a function that wraps it (a module-level one)
Play = Callable[[Any], dict[str, Any]]


def run_local(
    jobs: Iterable[GameJob], processes: int = 1, play: Play = play_game, size: int | None = None
) -> Iterator[dict[str, Any]]:
    """Records in the order games finish (:func:`core.lab.pool.in_processes`); ``size``: how many jobs, if known
    (no more workers than jobs).  On ``close()`` (or Ctrl-C) the workers are stopped."""
    if size is None and isinstance(jobs, Sized):
        size = len(jobs)
    return in_processes(play, jobs, processes if size is None else min(processes, size))


def run_dask(
    jobs: Iterable[GameJob], address: str | None = None, processes: int = 1, play: Play = play_game
) -> Iterator[dict[str, Any]]:
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
    try:
        yield from _as_they_finish(client, as_completed(), jobs, play)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _as_they_finish(client: Any, in_flight: Any, jobs: Iterable[GameJob], play: Play) -> Iterator[dict[str, Any]]:
    """Records from ``client``'s cluster as they finish (``in_flight``: an empty ``distributed.as_completed``),
    with only a few games per worker thread in flight.

    A job is submitted as a result comes back and each result is released once taken, so neither this
    process nor the cluster holds more than the games being played: a run of any size streams through.
    """
    pending = iter(jobs)
    window = 2 * max(1, sum(client.nthreads().values())) + 2
    futures: set[Any] = set()

    def submit(job: GameJob) -> None:
        future = client.submit(play, job, pure=False)
        futures.add(future)
        in_flight.add(future)

    try:
        for job in itertools.islice(pending, window):
            submit(job)
        for future in in_flight:
            record = future.result()
            futures.discard(future)
            future.release()
            following = next(pending, None)
            if following is not None:
                submit(following)
            yield record
    finally:
        client.cancel(list(futures))


def run_jobs(
    jobs: Iterable[GameJob],
    backend: str = "local",
    processes: int = 1,
    address: str | None = None,
    play: Play = play_game,
    size: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Records of ``jobs`` as they finish, on ``backend`` (``size``: how many jobs, if known)."""
    if backend == "local":
        if address:
            raise PlaytestError("--address is only used with --backend dask")
        return run_local(jobs, processes, play, size)
    if backend == "dask":
        return run_dask(jobs, address, processes, play)
    raise PlaytestError(f"unknown backend '{backend}' (allowed: local, dask)")
