"""The lab's one worker pool: a function over many items, here or in worker processes.

Playtests, reviews and tuning all play or search through :func:`in_processes`, so Ctrl-C means
the same everywhere: the workers ignore it (the terminal sends it to the whole process group), it
reaches the main process alone as :class:`KeyboardInterrupt` where the caller is consuming results,
and leaving the iteration (an interruption, an error or ``close()``) terminates the workers.  The
caller keeps whatever it received before.

Items are taken as the workers need them and results handed on as they arrive, so a stream of a
million items never stands in memory at once.  Workers are spawned (not forked): each imports what
it needs, as a Dask worker would.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def ignore_interrupts() -> None:
    """A worker's start: Ctrl-C is for the main process, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def in_processes(fn: Callable[[T], R], items: Iterable[T], processes: int, ordered: bool = False) -> Iterator[R]:
    """``fn`` over ``items``: here when ``processes`` <= 1, else in that many worker processes.

    Results come as they finish (``ordered``: in the items' order).  ``fn`` must be a module-level
    function (workers import it by name).
    """
    if processes <= 1:
        for item in items:
            yield fn(item)
        return
    pool = multiprocessing.get_context("spawn").Pool(processes=processes, initializer=ignore_interrupts)
    try:
        mapped = pool.imap if ordered else pool.imap_unordered
        yield from mapped(fn, items, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
