"""Playtest memory and speed by the size of the run: does memory stay flat as the games grow?

For each number of games N, one whole command in a fresh database:

    lehavre playtest inland --agents random,greedy --jobs J --games N --db TEMP/runs.sqlite3

and prints, from the operating system's accounting of that command once it has ended (``os.wait4``):
its peak memory (the resident set of the largest single process among the command and the workers it
waited for, as ``/usr/bin/time`` reports it), the command's own process's peak ("own": its ``VmHWM``,
read every tenth of a second; with ``--jobs 2`` the workers play the games and hold the engine's bounded
caches, and the command holds the store and the summary), its CPU seconds (user + system, workers included), games
per CPU second, wall seconds, and the store's size per game.  The last line compares the peak of the
largest run with that of the 10,000-game run (the issue's aim: within 1.5x, and under 500 MB).

    .venv/bin/python benchmarks/playtest_memory.py [--games 1000,10000] [--jobs 2] [--agents random,greedy]

100,000 games take about 100,000 / (games per CPU second) CPU seconds (about an hour and a half of one
core for random,greedy on the machine this was written on): ask for them with ``--games 100000``; the
script says beforehand how long it expects, from the smaller runs it measured.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Point:
    games: int
    peak_mb: float
    own_mb: float
    cpu: float
    wall: float
    store_bytes: int

    @property
    def per_cpu_second(self) -> float:
        return self.games / self.cpu if self.cpu else float("nan")


def command(games: int, jobs: int, agents: str, db: Path) -> list[str]:
    lehavre = [sys.executable, "-m", "cli"]
    return [
        *lehavre,
        "playtest",
        "inland",
        "--agents",
        agents,
        "--jobs",
        str(jobs),
        "--games",
        str(games),
        "--db",
        str(db),
    ]


def measure(games: int, jobs: int, agents: str) -> Point:
    """Run one playtest of ``games`` games in a fresh database; its peak memory, CPU and wall seconds, store size."""
    with tempfile.TemporaryDirectory(prefix="playtest-memory-") as tmp:
        db = Path(tmp) / "runs.sqlite3"
        start = time.monotonic()
        args = command(games, jobs, agents, db)
        proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        own = 0.0  # the command's own process (the store, the summary), sampled: the workers hold the games
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            own = max(own, _high_water_mb(proc.pid))
            time.sleep(0.1)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"the playtest of {games} games failed (exit {proc.returncode}): {' '.join(args)}")
        # ru_maxrss is in kilobytes on Linux: the largest single process the command waited for
        cpu = usage.ru_utime + usage.ru_stime
        return Point(games, usage.ru_maxrss / 1024, own, cpu, wall, db.stat().st_size)


def _high_water_mb(pid: int) -> float:
    """A running process's peak resident memory so far (``VmHWM``), in MB; 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--games", default="1000,10000", help="numbers of games, smallest first (e.g. 1000,10000,100000)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of each playtest (default 2)")
    parser.add_argument("--agents", default="random,greedy", help="the playtest's agents (default random,greedy)")
    args = parser.parse_args()
    sizes = sorted(int(n.replace("_", "")) for n in args.games.split(","))
    print(f"lehavre playtest inland --agents {args.agents} --jobs {args.jobs} --games N  (one fresh database each)")
    print(
        f"{'games':>9} {'peak MB':>9} {'own MB':>8} {'CPU s':>9} {'wall s':>9} {'games/CPU s':>12} {'store KB/game':>14}",
        flush=True,
    )
    points: list[Point] = []
    for n in sizes:
        if points and n >= 50_000:
            expected = n / points[-1].per_cpu_second
            print(f"  ({n:,} games: about {expected / 60:.0f} CPU minutes expected from the last run)", flush=True)
        p = measure(n, args.jobs, args.agents)
        points.append(p)
        print(
            f"{p.games:>9,} {p.peak_mb:>9.0f} {p.own_mb:>8.0f} {p.cpu:>9.1f} {p.wall:>9.1f} {p.per_cpu_second:>12.1f}"
            f" {p.store_bytes / p.games / 1024:>14.2f}",
            flush=True,
        )
    base = next((p for p in points if p.games == 10_000), None)
    largest = points[-1]
    if base is not None and largest.games > base.games:
        ratio = largest.peak_mb / base.peak_mb
        print(f"peak at {largest.games:,} games / peak at 10,000: {ratio:.2f}x (aim: at most 1.5x, and under 500 MB)")
    elif largest.games < 100_000:
        print("the 100,000-game point was not run: add it with --games 1000,10000,100000 (it takes a long while)")


if __name__ == "__main__":
    main()
