"""The Dask backend (the ``dask`` extra): results come back as games finish, are stored and summarised as a
local run's, and an interrupted Dask run resumes as a local one does.  Skipped without ``distributed``.

One worker with one thread (the machine's cores are shared with other work); 300 random games in the
regular suite, the 2,000 of the issue under ``-m slow``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.lab import playtest as pt
from tests.core.test_playtest_stream import canonical

distributed = pytest.importorskip("distributed")

SEED = 3


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def untimed(summary: dict[str, Any]) -> str:
    """A summary without its timings (the only figures that differ from one machine or run to the next)."""
    return canonical({k: v for k, v in summary.items() if k not in ("seconds", "seconds_values")})


@pytest.mark.parametrize("games", [300, pytest.param(2000, marks=pytest.mark.slow)])
def test_a_dask_run_interrupted_and_resumed_gives_the_local_summary(tmp_path: Path, scheduler: str, games: int) -> None:
    config = pt.make_config("inland", ["random", "random"])
    local = pt.Store(tmp_path / "local.sqlite3")
    here = pt.execute(local, config, SEED, games)
    remote = pt.Store(tmp_path / "dask.sqlite3")
    seen: list[int] = []

    def ctrl_c_at_a_third(record: dict[str, Any]) -> None:
        seen.append(record["index"])
        if len(seen) == games // 3:
            raise KeyboardInterrupt

    first = pt.execute(remote, config, SEED, games, backend="dask", address=scheduler, on_game=ctrl_c_at_a_third)
    assert first.interrupted and first.stored == games // 3
    resumed = pt.execute(remote, config, SEED, games, resume=True, backend="dask", address=scheduler)
    assert resumed.run_id == first.run_id and resumed.played == games - games // 3 and resumed.complete
    assert [pt.result_fingerprint(r) for r in remote.iter_games(resumed.run_id)] == [
        pt.result_fingerprint(r) for r in local.iter_games(here.run_id)
    ]
    assert untimed(pt.summarize_run(remote, resumed.run_id, config)) == untimed(
        pt.summarize_run(local, here.run_id, config)
    )
