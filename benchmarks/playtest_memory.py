"""Playtest memory and speed by the size of the run: does memory stay flat as the games grow?

For each number of games N, one whole command in a fresh database:

    lehavre playtest inland --agents random,greedy --jobs J --games N --db TEMP/runs.sqlite3

and prints its peak memory: "tree", the largest sum of the resident sets of the command and every process
under it (its workers), sampled every tenth of a second from ``/proc``; "largest", the peak of the largest
single process among them (``ru_maxrss`` of ``os.wait4``, as ``/usr/bin/time`` reports it); "own", the
command's own process (its ``VmHWM``: the store and the summary; with ``--jobs 2`` the workers play the
games and hold the engine's caches).  Then its CPU seconds (user + system, workers included), games per CPU
second, wall seconds, and the store's size per game.  The last line compares the tree's peak at the
largest run with that at 10,000 games (the aim: within 1.5x, and under 500 MB).

    .venv/bin/python benchmarks/playtest_memory.py [--games 1000,10000] [--jobs 2] [--agents random,greedy]

With ``--before DIR`` (another tree's sources, run by this Python: e.g. ``git archive COMMIT | tar -x -C DIR``)
each number of games is played by both trees in turn, ``--rounds`` times (before, after, before, after...),
and each round prints the after tree's games per CPU second over the before tree's, then their median: the
speed compared on the same machine at the same load.  ``LEHAVRE_PURE=1`` in the environment runs this tree
on its pure-Python engine (the before tree of a build without the compiled engine is pure Python anyway).

100,000 games take about 100,000 / (games per CPU second) CPU seconds: ask for them with
``--games 1000,10000,100000``; the script says beforehand how long it expects, from the smaller runs it
measured.  With ``--jobs 2`` it needs both cores to itself for that long.
"""

from __future__ import annotations

import argparse
import os
import statistics
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
    tree_mb: float
    peak_mb: float
    own_mb: float
    cpu: float
    wall: float
    store_bytes: int

    @property
    def per_cpu_second(self) -> float:
        return self.games / self.cpu if self.cpu else float("nan")


def command(games: int, jobs: int, agents: str, db: Path) -> list[str]:
    """The playtest of ``games`` games into the database ``db`` (run in a tree's root: ``-m cli`` is its CLI)."""
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


def measure(games: int, jobs: int, agents: str, tree: Path = ROOT) -> Point:
    """One playtest of ``games`` games by the sources in ``tree``, in a fresh database: its peak memory, CPU and
    wall seconds, store size."""
    with tempfile.TemporaryDirectory(prefix="playtest-memory-") as tmp:
        db = Path(tmp) / "runs.sqlite3"
        start = time.monotonic()
        args = command(games, jobs, agents, db)
        proc = subprocess.Popen(args, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        own = peak_tree = 0.0  # the command's own process (the store, the summary); it and its workers together
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            own = max(own, _status_mb(proc.pid, "VmHWM"))
            peak_tree = max(peak_tree, sum(_status_mb(p, "VmRSS") for p in _tree(proc.pid)))
            time.sleep(0.1)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"the playtest of {games} games failed (exit {proc.returncode}): {' '.join(args)}")
        # ru_maxrss is in kilobytes on Linux: the largest single process the command waited for
        cpu = usage.ru_utime + usage.ru_stime
        return Point(games, peak_tree, usage.ru_maxrss / 1024, own, cpu, wall, db.stat().st_size)


def _status_mb(pid: int, field: str) -> float:
    """A running process's ``field`` of ``/proc/PID/status`` (``VmRSS``, ``VmHWM``) in MB; 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def _tree(root: int) -> list[int]:
    """``root`` and every process under it, from the parents in ``/proc/*/stat``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])  # after "pid (name) state"
        children.setdefault(parent, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, ()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--games", default="1000,10000", help="numbers of games, smallest first (e.g. 1000,10000,100000)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of each playtest (default 2)")
    parser.add_argument("--agents", default="random,greedy", help="the playtest's agents (default random,greedy)")
    parser.add_argument("--before", type=Path, help="another tree's root: each size played by both trees in turn")
    parser.add_argument("--rounds", type=int, default=2, help="with --before: rounds of the two trees (default 2)")
    args = parser.parse_args()
    if args.before is not None and not (args.before / "cli" / "__main__.py").is_file():
        raise SystemExit(f"--before {args.before}: not a tree of lehavre (no cli/__main__.py there)")
    if args.rounds < 1 or args.jobs < 1:
        raise SystemExit("--rounds and --jobs: at least 1")
    sizes = sorted(int(n.replace("_", "")) for n in args.games.split(","))
    print(f"lehavre playtest inland --agents {args.agents} --jobs {args.jobs} --games N  (one fresh database each)")
    print(
        f"{'tree':>7} {'games':>9} {'tree MB':>8} {'largest MB':>10} {'own MB':>7} {'CPU s':>9} {'wall s':>9}"
        f" {'games/CPU s':>12} {'store KB/game':>14}",
        flush=True,
    )
    if args.before is not None:
        _compare(sizes, args)
        return
    points: list[Point] = []
    for n in sizes:
        if points and n >= 50_000:
            _expect(n, points[-1], args.jobs)
        points.append(_row("this", measure(n, args.jobs, args.agents)))
    _verdict(points)


def _expect(games: int, last: Point, jobs: int) -> None:
    expected = games / last.per_cpu_second
    print(
        f"  ({games:,} games: about {expected / 60:.0f} CPU minutes, {expected / max(1, jobs) / 60:.0f} minutes"
        f" on {jobs} cores, expected from the last run)",
        flush=True,
    )


def _row(label: str, p: Point) -> Point:
    print(
        f"{label:>7} {p.games:>9,} {p.tree_mb:>8.0f} {p.peak_mb:>10.0f} {p.own_mb:>7.0f} {p.cpu:>9.1f} {p.wall:>9.1f}"
        f" {p.per_cpu_second:>12.1f} {p.store_bytes / p.games / 1024:>14.2f}",
        flush=True,
    )
    return p


def _compare(sizes: list[int], args: argparse.Namespace) -> None:
    """Each size by the before tree and this one in turn; this tree's games per CPU second over the other's."""
    for n in sizes:
        ratios = []
        for r in range(1, args.rounds + 1):
            before = _row("before", measure(n, args.jobs, args.agents, args.before))
            after = _row("this", measure(n, args.jobs, args.agents))
            ratios.append(after.per_cpu_second / before.per_cpu_second)
            print(f"  round {r}: games per CPU second {ratios[-1]:.2f}x the before tree's", flush=True)
        print(
            f"{n:,} games: this tree plays {statistics.median(ratios):.2f}x the before tree's games per CPU second"
            f" (median of {len(ratios)} rounds; load {os.getloadavg()[0]:.1f})",
            flush=True,
        )


def _verdict(points: list[Point]) -> None:
    """The largest run's tree peak against the 10,000-game run's (the aim: at most 1.5x, and under 500 MB)."""
    base = next((p for p in points if p.games == 10_000), None)
    largest = points[-1]
    if base is not None and largest.games > base.games:
        ratio = largest.tree_mb / base.tree_mb
        met = ratio <= 1.5 and largest.tree_mb < 500
        print(
            f"tree peak at {largest.games:,} games / at 10,000: {ratio:.2f}x, {largest.tree_mb:.0f} MB"
            f" (aim: at most 1.5x, and under 500 MB: {'met' if met else 'NOT met'})"
        )
    elif largest.games < 100_000:
        print("the 100,000-game point was not run: add it with --games 1000,10000,100000 (it takes a long while)")


if __name__ == "__main__":
    main()
