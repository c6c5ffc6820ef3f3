"""Tune a game's evaluation weights from its own games, and adopt them only if they win.

    python benchmarks/tune_eval.py --game inland --games 140 --agent 'ai:easy~2' --jobs 2 \\
        --match-games 200 --level easy --noise 2 --report tune_inland.json
    python benchmarks/tune_eval.py --game base --games 100 --agent 'ai:easy~0.5' --noise 0.5 --jobs 2

1. Plays ``--games`` self-play games of ``--agent`` against itself (noise on,
   so the games differ) and keeps every decision's position: for each seat its
   evaluation terms with weight 1 (the features) and the seat's result.
2. Fits the scale K of ``sigmoid(evaluation / K)`` with today's weights, then
   the weights (all but ``wealth``) by logistic regression with K fixed and an
   L2 pull ``--l2`` toward today's weights (:mod:`core.lab.tuning`); without
   ``--l2`` the pull is chosen by cross-validation over the training games, and
   today's weights are kept if no pull predicts left-out games better.  Every
   fifth game is held out; the log-loss before and after is printed for both parts.
3. Plays ``--match-games`` games of the fitted weights against today's at the
   node budget of ``--level`` (equal nodes), both seats, noise ``--noise``.
   The fitted weights replace the game's data file only if the 95% Wilson
   interval of their score lies above 50% (and not with ``--no-adopt``).

``--candidate FILE`` always receives the fitted weights with their provenance
and figures; ``--report FILE`` everything as JSON; ``--samples FILE`` keeps
the positions (JSON lines) and ``--from-samples FILE`` fits those instead of
playing again.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.lab.tuning import FitReport, MatchResult, Sample, collect, fit, match, tuning_of
from core.protocol import GameError
from core.weights import Provenance, WeightsFile, write_weights


def _args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="inland", help="inland or base")
    ap.add_argument("--games", type=int, default=140, help="self-play games to collect positions from")
    ap.add_argument("--agent", default=None, help="self-play agent (default: ai:easy~2 Inland, ai:easy~0.5 base)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the self-play games (as a playtest run's)")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    ap.add_argument(
        "--l2",
        type=float,
        default=None,
        help="L2 pull of each weight toward today's (default: chosen by cross-validation over the training games)",
    )
    ap.add_argument("--match-games", type=int, default=200, help="games of tuned vs today (0: no match)")
    ap.add_argument("--level", default="easy", help="the AI level whose node budget both sides use in the match")
    ap.add_argument(
        "--match-nodes", type=int, default=None, help="node budget per decision of both sides (default: the level's)"
    )
    ap.add_argument("--noise", type=float, default=None, help="noise of both sides in the match (default: as --agent)")
    ap.add_argument("--match-seed", type=int, default=7000)
    ap.add_argument("--candidate", type=Path, default=None, help="write the fitted weights file here")
    ap.add_argument("--report", type=Path, default=None, help="write the whole report (JSON) here")
    ap.add_argument("--samples", type=Path, default=None, help="keep the positions here (JSON lines)")
    ap.add_argument("--from-samples", type=Path, default=None, help="fit these positions instead of playing")
    ap.add_argument("--no-adopt", action="store_true", help="never replace the game's weights file")
    args = ap.parse_args(argv)
    if args.agent is None:
        args.agent = "ai:easy~0.5" if args.game == "base" else "ai:easy~2"
    if args.noise is None:
        _, _, noise = args.agent.partition("~")
        args.noise = float(noise) if noise else 0.0
    return args


def _read_samples(path: Path) -> list[Sample]:
    out = []
    for line in path.read_text().splitlines():
        d = json.loads(line)
        out.append(Sample(d["game"], d["seat"], tuple(d["x"]), d["y"]))
    return out


def _write_samples(path: Path, samples: list[Sample]) -> None:
    with path.open("w") as fh:
        for s in samples:
            fh.write(json.dumps({"game": s.game, "seat": s.seat, "x": list(s.x), "y": s.y}) + "\n")


class _Progress:
    """Prints a line every ``every`` games (with the candidate's W-T-L so far in a match)."""

    def __init__(self, what: str, every: int) -> None:
        self.what, self.every, self.n, self.tally = what, every, 0, [0, 0, 0]
        self.t0 = time.perf_counter()

    def __call__(self, result: Any) -> None:
        self.n += 1
        if isinstance(result, float):
            self.tally[0 if result == 1.0 else 2 if result == 0.0 else 1] += 1
        if self.n % self.every == 0:
            w, t, lo = self.tally
            tally = f", W-T-L {w}-{t}-{lo}" if self.what == "match" else ""
            print(f"  {self.what}: {self.n} games, {time.perf_counter() - self.t0:.0f} s{tally}", flush=True)


def _weights_file(args: argparse.Namespace, report: FitReport, result: MatchResult | None) -> WeightsFile:
    command = "python benchmarks/tune_eval.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    if result is None:
        note = "fitted (Texel tuning: K, then the weights); no match played"
    else:
        verdict = "adopted" if result.adopt else "not adopted"
        note = f"fitted (Texel tuning: K, then the weights); {verdict}: {result.line()}"
    fit_figures: dict[str, Any] = {"scale_K": round(report.scale, 4), "l2": report.l2, "self_play_agent": args.agent}
    if report.cv:
        fit_figures["cv_logloss"] = {k: round(v, 5) for k, v in report.cv.items()}
    fit_figures.update({k: round(v, 5) for k, v in report.loss.items()})
    if result is not None:
        lo, hi = result.interval
        fit_figures["match"] = {
            "games": result.games,
            "wins": result.wins,
            "ties": result.ties,
            "losses": result.losses,
            "level": result.level,
            "nodes": result.nodes,
            "noise": result.noise,
            "score": round(result.score, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }
    return WeightsFile(
        game=args.game,
        weights=report.weights(),
        provenance=Provenance(
            command=command,
            games=report.games,
            positions=report.positions,
            date=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            note=note,
        ),
        fit=fit_figures,
    )


def run(argv: list[str] | None = None) -> int:
    args = _args(argv)
    t0 = time.perf_counter()
    try:
        _, tuning = tuning_of(args.game)
        if args.from_samples is not None:
            samples = _read_samples(args.from_samples)
        else:
            samples = collect(args.game, args.games, args.agent, args.seed, args.jobs, _Progress("self-play", 10))
            print(f"self-play: {args.games} games of {args.agent}, {time.perf_counter() - t0:.0f} s", flush=True)
        if args.samples is not None:
            _write_samples(args.samples, samples)
        report = fit(args.game, samples, args.l2)
        print("\n".join(report.lines()), flush=True)
        result = None
        if args.match_games > 0:
            result = match(
                args.game,
                report.weights(),
                args.match_games,
                args.level,
                args.noise,
                args.match_seed,
                args.jobs,
                _Progress("match", 10),
                args.match_nodes,
            )
            print(result.line(), flush=True)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    data = _weights_file(args, report, result)
    if args.candidate is not None:
        write_weights(args.candidate, data)
        print(f"fitted weights written to {args.candidate}")
    adopted = result is not None and result.adopt and not args.no_adopt
    if adopted:
        write_weights(tuning.path, data)
        print(f"adopted: the interval lies above 50%; {tuning.path} now holds the fitted weights")
    elif result is not None:
        print("not adopted: " + ("--no-adopt" if result.adopt else "the interval does not lie above 50%"))
    if args.report is not None:
        args.report.write_text(
            json.dumps({"weights_file": data.model_dump(), "adopted": adopted, "report": report.lines()}, indent=1)
        )
    load = os.getloadavg()
    print(f"{time.perf_counter() - t0:.0f} s in all; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(run())
