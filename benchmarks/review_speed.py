"""How long a review of a whole Inland Port game takes at the default level.

Plays (or loads) a 72-action Inland Port game -- 72 main actions, about 147
decisions with the sales and 'end' -- between ``ai:normal`` and ``greedy``
(seed 1), then reviews every decision with the reference ``ai:hard`` and
``--jobs`` processes, as ``lehavre review GAME --jobs 2`` does.  Prints the
wall time, the machine's load before and after (``os.getloadavg``), the
decisions searched, the nodes of the reference searches, and the CPU seconds of
this process and its workers (on a busy machine the wall time says little; on
an idle one it is about the CPU seconds divided by the jobs).

    .venv/bin/python benchmarks/review_speed.py [--jobs 2] [--level hard] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.lab.review import GameSource, review_game
from core.table import AGENT, Seat, Table, agents_decide
from inland_port import RULESET


def play(seed: int) -> tuple[GameSource, list[int], int]:
    seats = [Seat("ai:normal", AGENT, "ai:normal"), Seat("greedy", AGENT, "greedy")]
    state = Table.new(RULESET, None, seed, seats, record=False, keep_positions=False).play(agents_decide)
    return GameSource("inland", {}, seed, tuple(state.history)), state.wealth(), state.main_action_count


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished worker processes."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()
    source, wealth, main_actions = play(args.seed)
    load_before = os.getloadavg()
    cpu0 = _cpu()
    t0 = time.perf_counter()
    review = review_game(source, ["ai:normal", "greedy"], args.level, jobs=args.jobs, final_wealth=wealth)
    seconds = time.perf_counter() - t0
    cpu = _cpu() - cpu0
    searched = [d for d in review.decisions if not d.forced]
    figures = {
        "seconds": round(seconds, 1),
        # CPU seconds of this process and its workers: on an idle machine the wall time is about cpu / jobs
        "cpu_seconds": round(cpu, 1),
        "jobs": args.jobs,
        "level": review.level,
        "main_actions": main_actions,
        "decisions": len(review.decisions),
        "searched": len(searched),
        "nodes": sum(d.nodes for d in searched),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "summary": review.summary(),
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
