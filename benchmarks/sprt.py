"""Should a change to the AI be adopted?  An SPRT of a candidate agent against the base agent.

    python benchmarks/sprt.py --game inland --candidate 'ai:easy@nodes=400' --base 'ai:easy@nodes=100'
    python benchmarks/sprt.py --game inland --base ai:easy --candidate-weights new_weights.json --jobs 2
    python benchmarks/sprt.py --game base --candidate ai:easy --base greedy --elo0 0 --elo1 50 --json out.json

As chess engines adopt a change (Stockfish's fishtest): games are played in pairs until a sequential
probability ratio test says either "the candidate is better by ``--elo1``" (accepted) or "it is not
better than ``--elo0``" (rejected), with error rates ``--alpha`` (accepting a change that is no better
than elo0) and ``--beta`` (rejecting one that is better by elo1).  Pair ``k`` is two games on the
seed ``--seed + k``: the candidate in the first seat, then in the second; each side keeps its own
agent seed over the pair.  The statistics (pentanomial GSPRT, logistic elo) are in
:mod:`core.lab.sprt`.

Both sides play with noise ``--noise`` (default 2 at the Inland Port, 0.5 in the base game; only
``ai`` agents take noise), so the pairs differ.  ``--candidate-weights FILE`` makes the candidate
the ``--candidate`` agent (default: the base's text) evaluating with the weights in FILE (an
``eval_weights.json``) instead of the game's: that is how a tuned evaluation is tested.

After every pair one line: the LLR with its bounds, the score, the naive elo estimate with its 95%
interval (not corrected for the stopping rule: an early stop overstates it) and how many pairs
scored 0, 0.5, 1, 1.5 and 2.  The run stops at a bound or at
``--max-pairs`` (no verdict); ``--json FILE`` keeps the test and every pair.  The base game is
played by two players.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.agents import Agent, make_agent
from core.games import game_spec
from core.lab.sprt import ACCEPTED, REJECTED, SPRT, SPRTError
from core.lab.tuning import seat_result, tuning_of
from core.protocol import GameError, GameSpec, GameState
from core.search import SearchAgent
from core.seeds import SEAT, derive_seed
from core.table import AGENT, Seat, Table, agents_decide
from core.weights import load_weights

#: the noise both sides play with unless told (the tuner's match noise of each game)
DEFAULT_NOISE = {"inland": 2.0, "base": 0.5}
#: the options of each game's SPRT games (the base game: two players)
GAME_OPTIONS: dict[str, dict[str, Any] | None] = {"inland": None, "base": {"players": 2}}


@dataclass(frozen=True)
class PairTask:
    """Everything one process needs to play pair ``index`` (picklable)."""

    index: int
    game: str
    seed: int
    candidate: str
    base: str
    weights: dict[str, float] | None
    #: the noise of both sides' ai agents (None: only what an agent's own text gives, ``ai:easy~3``)
    noise: float | None = None


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------


def make_side(
    text: str, seed: int, spec: GameSpec, weights: dict[str, float] | None = None, noise: float | None = None
) -> Agent:
    """The agent ``text`` for the game, with ``noise`` if it is an ``ai`` agent; with ``weights`` an
    ``ai`` agent that evaluates with those weights instead of the game's (the evaluator reweighted, as
    in the tuner's match)."""
    agent = make_agent(text, seed, spec, noise=noise)
    if weights is not None:
        if not isinstance(agent, SearchAgent):
            raise GameError(f"evaluation weights need an ai agent as the candidate, not '{text}'")
        agent.evaluator = spec.evaluator.reweighted(weights)
    return agent


def play_game(spec: GameSpec, seed: int, agents: Sequence[Agent]) -> list[float]:
    """Play one game on ``seed`` with ``agents`` in seat order at a table; each seat's result
    (win 1, tie 1/2, loss 0).  The one place this script plays a game."""
    seats = [Seat(f"P{i + 1}", AGENT, agent.name, agent) for i, agent in enumerate(agents)]
    table = Table.new(spec, GAME_OPTIONS.get(spec.name), seed, seats, record=False, keep_positions=False)
    state: GameState = table.play(agents_decide)
    return [seat_result(state, seat) for seat in range(len(agents))]


def play_pair(task: PairTask) -> float:
    """Pair ``task.index``: the candidate in seat 1, then in seat 2, on one seed; its score over both games."""
    spec = game_spec(task.game)
    seed = task.seed + task.index
    score = 0.0
    for cand_seat in (0, 1):
        # each side keeps its seed over the pair, so the second game is not the first with seats renamed
        cand = make_side(
            task.candidate, derive_seed(seed, SEAT, 0), spec, task.weights, _own(task.candidate, task.noise)
        )
        base = make_side(task.base, derive_seed(seed, SEAT, 1), spec, None, _own(task.base, task.noise))
        agents = [cand, base] if cand_seat == 0 else [base, cand]
        score += play_game(spec, seed, agents)[cand_seat]
    return score


def in_order(fn: Callable[[PairTask], float], tasks: Iterator[PairTask], jobs: int) -> Iterator[float]:
    """``fn`` over ``tasks``, results in order, ``jobs`` processes (1: here); only a few tasks run
    ahead, and those still waiting are dropped when the caller stops."""
    if jobs <= 1:
        yield from map(fn, tasks)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    pending: list[Future[float]] = []
    try:
        for task in tasks:
            pending.append(pool.submit(fn, task))
            if len(pending) > 2 * jobs:
                yield pending.pop(0).result()
        while pending:
            yield pending.pop(0).result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------


def _args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["inland", "base"], default="inland", help="base: the two-player game")
    ap.add_argument("--candidate", default=None, help="the candidate agent (default: the base's text)")
    ap.add_argument("--base", default="ai:easy", help="the agent in use (default ai:easy)")
    ap.add_argument("--candidate-weights", type=Path, default=None, help="the candidate evaluates with these weights")
    ap.add_argument("--noise", type=float, default=None, help="noise of both ai sides (default 2 inland, 0.5 base)")
    ap.add_argument("--elo0", type=float, default=0.0, help="H0: not better than this (logistic elo)")
    ap.add_argument("--elo1", type=float, default=5.0, help="H1: better by this (logistic elo)")
    ap.add_argument("--alpha", type=float, default=0.05, help="chance of accepting when H0 holds")
    ap.add_argument("--beta", type=float, default=0.05, help="chance of rejecting when H1 holds")
    ap.add_argument("--max-pairs", type=int, default=2000, help="stop without a verdict after this many pairs")
    ap.add_argument("--seed", type=int, default=1, help="pair k is played on the seed SEED + k")
    ap.add_argument("--jobs", type=int, default=1, help="pairs played in parallel (processes)")
    ap.add_argument("--json", type=Path, default=None, help="write the test and every pair's score here")
    return ap.parse_args(argv)


def _own(text: str, noise: float) -> float | None:
    """The noise option for an agent text: none when the text gives its own (``ai:easy~3``)."""
    return None if "~" in text else noise


def _setup(args: argparse.Namespace) -> tuple[SPRT, str, str, dict[str, float] | None, float]:
    """Check everything typed; the test, the two agent texts (with noise) and the candidate's weights."""
    if args.max_pairs < 1:
        raise SPRTError(f"--max-pairs must be at least 1 (got {args.max_pairs})")
    if args.jobs < 1:
        raise SPRTError(f"--jobs must be at least 1 (got {args.jobs})")
    noise = DEFAULT_NOISE[args.game] if args.noise is None else args.noise
    if noise < 0:
        raise SPRTError(f"--noise must not be negative (got {noise:g})")
    test = SPRT(args.elo0, args.elo1, args.alpha, args.beta)
    spec = game_spec(args.game)
    weights = None
    if args.candidate_weights is not None:
        _, tuning = tuning_of(args.game)
        data = load_weights(args.candidate_weights, list(tuning.weights))
        if data.game != args.game:
            raise SPRTError(f"the weights {args.candidate_weights} are for the game '{data.game}', not '{args.game}'")
        weights = dict(data.weights)
    elif args.candidate is None:
        raise SPRTError("give the candidate: --candidate AGENT, or --candidate-weights FILE (same agent as --base)")
    candidate = args.candidate or args.base
    base = args.base
    make_side(candidate, 0, spec, weights, _own(candidate, noise))
    make_side(base, 0, spec, None, _own(base, noise))
    return test, candidate, base, weights, noise


def run(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the test as the command line says; returns what ``--json`` writes."""
    args = _args(argv)
    test, candidate, base, weights, noise = _setup(args)
    lower, upper = test.bounds
    what = candidate + (f" with the weights of {args.candidate_weights}" if weights is not None else "")
    what += f" (noise {noise:g} for ai sides without their own)"
    print(
        f"SPRT {args.game}: {what} vs {base}; H0 elo <= {test.elo0:g}, H1 elo >= {test.elo1:g} (logistic), "
        f"alpha {test.alpha:g}, beta {test.beta:g}: reject at LLR {lower:.2f}, accept at {upper:.2f}; "
        f"pair k on seed {args.seed}+k, both seats",
        flush=True,
    )
    tasks = (PairTask(k, args.game, args.seed, candidate, base, weights, noise) for k in range(args.max_pairs))
    scores: list[float] = []
    start = time.perf_counter()
    for score in in_order(play_pair, tasks, args.jobs):
        scores.append(score)
        test.add(score)
        print(test.line(), flush=True)
        if test.verdict != "continue":
            break
    elapsed = time.perf_counter() - start
    print(_verdict_line(test, args.max_pairs), flush=True)
    out = {
        "game": args.game,
        "candidate": candidate,
        "candidate_weights": str(args.candidate_weights) if weights is not None else None,
        "weights": weights,
        "base": base,
        "noise": noise,
        "seed": args.seed,
        "max_pairs": args.max_pairs,
        "seconds": round(elapsed, 1),
        "test": test.to_dict(),
        "pair_scores": scores,
    }
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return out


def _verdict_line(test: SPRT, max_pairs: int) -> str:
    elo, lo, hi = test.elo()
    figures = (
        f"{test.games} games ({test.pairs} pairs), score {test.score:.1%}, naive elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}] "
        "(not corrected for the early stop, which overstates it)"
    )
    if test.verdict == ACCEPTED:
        return f"ACCEPTED (H1: better by {test.elo1:g} elo or more) after {figures}"
    if test.verdict == REJECTED:
        return f"REJECTED (H0: not better than {test.elo0:g} elo) after {figures}"
    return f"NO VERDICT: stopped at the cap of {max_pairs} pairs after {figures}"


def main(argv: list[str] | None = None) -> int:
    try:
        run(argv)
    except (GameError, SPRTError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
