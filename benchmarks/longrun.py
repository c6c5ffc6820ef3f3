"""The long measurements: play what the store lacks, say where they stand, regenerate their tables.

    python benchmarks/longrun.py play [--minutes M] [--runs NAME,NAME]   # play on; Ctrl-C or SIGTERM stops cleanly
    python benchmarks/longrun.py status                                    # games stored per run, time left
    python benchmarks/longrun.py report                                    # every table and report, from the store

The plan (``benchmarks/longrun/plan.json``) lists every run; the store (``benchmarks/longrun/store/``,
one file a run, one game a line) is committed with the code.  One process, node budgets, no time cap:
see :mod:`core.lab.longrun`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.lab.longrun import LongrunError, StopSignal, load_plan, play_plan, read_run
from core.lab.longrun_report import write_reports

HERE = Path(__file__).resolve().parent / "longrun"
PLAN = HERE / "plan.json"
STORE = HERE / "store"


def status(plan_path: Path, store: Path) -> None:
    plan = load_plan(plan_path)
    for run in plan.runs:
        games = read_run(store, run)
        seconds = [float(g["wall"]) for g in games]
        mean = sum(seconds) / len(seconds) if seconds else None
        left = (
            ""
            if mean is None
            else f", about {mean * (run.games - len(games)) / 3600:.1f} h left at {mean:.0f} s a game"
        )
        print(f"{run.name:28} {len(games):4}/{run.games}{left}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["play", "status", "report"])
    parser.add_argument("--minutes", type=float, default=None, help="play: stop after this many minutes")
    parser.add_argument("--runs", default="", help="play: only these runs (names, comma-separated)")
    parser.add_argument("--plan", type=Path, default=PLAN, help="the plan file")
    parser.add_argument("--store", type=Path, default=STORE, help="the store folder")
    parser.add_argument("--out", type=Path, default=HERE, help="report: where the tables and HTML go")
    args = parser.parse_args(argv)
    if args.minutes is not None and not args.minutes > 0:
        parser.error(f"--minutes must be a positive number, not {args.minutes:g}")
    try:
        if args.what == "status":
            status(args.plan, args.store)
        elif args.what == "report":
            for path in write_reports(load_plan(args.plan), args.store, args.out, ROOT):
                print(f"wrote {path}")
        else:
            stop = StopSignal.after(args.minutes)
            stop.install()
            names = [n.strip() for n in args.runs.split(",") if n.strip()]
            played = play_plan(
                load_plan(args.plan), args.store, ROOT, names, say=lambda s: print(s, flush=True), stop=stop
            )
            print(f"{played} game(s) played this time", flush=True)
    except LongrunError as exc:
        print(f"longrun: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``status | head``): nothing more to say, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
