"""Where playtest games are played: in this process, in ``J`` processes, or on a Dask
cluster; every backend yields the same records (:func:`core.lab.playtest.game.play_game`).
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from core.lab.playtest.config import PlaytestError
from core.lab.playtest.game import GameJob, play_game


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: what a backend does with each job: :func:`play_game`, or a function that wraps it (a module-level one)
Play = Callable[[Any], dict[str, Any]]


def run_local(jobs: Sequence[GameJob], processes: int = 1, play: Play = play_game) -> Iterator[dict[str, Any]]:
    """Records in the order games finish; on ``close()`` (or Ctrl-C) the workers are stopped."""
    if processes <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield play(job)
        return
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(processes=min(processes, len(jobs)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(play, jobs, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_dask(
    jobs: Sequence[GameJob], address: str | None = None, processes: int = 1, play: Play = play_game
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
    futures = client.map(play, list(jobs), pure=False)
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()


def run_jobs(
    jobs: Sequence[GameJob],
    backend: str = "local",
    processes: int = 1,
    address: str | None = None,
    play: Play = play_game,
) -> Iterator[dict[str, Any]]:
    if backend == "local":
        if address:
            raise PlaytestError("--address is only used with --backend dask")
        return run_local(jobs, processes, play)
    if backend == "dask":
        return run_dask(jobs, address, processes, play)
    raise PlaytestError(f"unknown backend '{backend}' (allowed: local, dask)")
