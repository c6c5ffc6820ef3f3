"""Evaluation weights as data, and their tuning from self-play ("Texel tuning").

A game whose evaluation is ``sum(weights[name] * features[name])`` over named
terms reads its weights from a JSON file (:class:`WeightsFile`, with the
provenance of the values) and declares an :class:`core.protocol.EvalTuning`
in its evaluator.  This module knows no game.

The tuning, as chess engines do it (the "Texel" method):

1. **Positions** (:func:`collect`): noisy self-play games; every decision's
   position is kept with, for each seat, its unweighted features and the
   seat's result (win 1, tie 0.5, loss 0).
2. **Scale** (:func:`fit_scale`): with today's weights, the ``K`` that
   minimises the log-loss of ``sigmoid(evaluation / K)`` against the results
   (the evaluation is in francs; ``K`` says how many francs of margin make a
   win likely).
3. **Weights** (:func:`fit_weights`): with ``K`` fixed, the weights that
   minimise the same log-loss, plus an L2 penalty pulling each weight toward
   today's (Newton's method; the ``fixed`` terms keep their weight, so the
   evaluation stays in francs).  Games are split into a training and a
   held-out part (every fifth game held out), never positions of one game
   into both.  The pull is chosen by cross-validation by game on the training
   part (:func:`choose_pull`): every position of a game shares the game's one
   result, so 50 games are 50 outcomes however many positions they hold, and
   a weak pull fits their noise (held-out log-loss worse than today's).
4. **Match** (:func:`match`): tuned against today's at equal nodes, both
   seats, noise on.  The tuned weights are adopted only if the 95% Wilson
   interval of their score lies above one half.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.agents import with_nodes
from core.games import game_spec
from core.lab.playtest import game_seed, make_config, new_game
from core.lab.pool import in_processes
from core.lab.stats import wilson_interval
from core.protocol import EvalTuning, GameSpec, GameState
from core.search import Noise, SearchAgent
from core.table import AGENT, Seat, Table, agents_decide, seat_agent
from core.weights import TuningError


def tuning_of(game: str) -> tuple[GameSpec, EvalTuning]:
    """The spec and the tuning hooks of ``game``; :class:`TuningError` if its evaluation has none."""
    spec = game_spec(game)
    tuning = spec.evaluator.tuning
    if tuning is None:
        raise TuningError(f"the evaluation of '{game}' has no weights to tune")
    return spec, tuning


# ---------------------------------------------------------------------------
# 1. Positions from self-play
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One seat's view of one position: features (in term order) and the seat's result."""

    game: int
    seat: int
    x: tuple[float, ...]
    y: float


def seat_result(state: GameState, seat: int) -> float:
    """Win 1, loss 0; a shared first place is split (a two-player tie is 0.5)."""
    win = state.winners()
    return 1.0 / len(win) if seat in win else 0.0


def _collect_one(task: tuple[str, dict[str, Any], str, int, int]) -> list[Sample]:
    """Play one self-play game and return every decision's samples, one per seat."""
    game, options, agent, run_seed, index = task
    spec, tuning = tuning_of(game)
    terms = list(tuning.weights)
    seed = game_seed(run_seed, index)
    state = new_game(game, options, seed)
    seats = [Seat(f"P{s + 1}", AGENT, agent) for s in range(state.num_players)]
    table = Table(spec, None, seed, state, seats, keep_positions=False)
    views: list[list[tuple[float, ...]]] = [[] for _ in range(state.num_players)]

    def decide(t: Table, seat: int) -> object:
        for p in range(t.state.num_players):
            f = tuning.features(t.state, p)
            views[p].append(tuple(float(f[term]) for term in terms))
        return agents_decide(t, seat)

    state = table.play(decide)
    return [Sample(index, p, x, seat_result(state, p)) for p in range(state.num_players) for x in views[p]]


def _pool_map(
    fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int, on_result: Callable[[Any], None] | None = None
) -> list[Any]:
    """``fn`` over ``tasks`` in order, in ``jobs`` processes (1: here; :func:`core.lab.pool.in_processes`);
    ``on_result`` sees each result in order."""
    out: list[Any] = []
    for r in in_processes(fn, tasks, min(jobs, len(tasks)), ordered=True):
        out.append(r)
        if on_result is not None:
            on_result(r)
    return out


def collect(
    game: str,
    games: int,
    agent: str,
    seed: int = 1,
    jobs: int = 1,
    on_game: Callable[[list[Sample]], None] | None = None,
) -> list[Sample]:
    """Samples of ``games`` self-play games of ``agent`` against itself (two seats).

    Game ``i`` is set up and its agents seeded as playtest game ``i`` of a run
    with seed ``seed`` (:mod:`core.lab.playtest`), so the positions depend only on
    the arguments."""
    if games < 1:
        raise TuningError(f"the number of self-play games must be at least 1 (got {games})")
    config = make_config(game, [agent, agent])
    tasks = [(game, config.options, agent, seed, i) for i in range(games)]
    return [s for part in _pool_map(_collect_one, tasks, jobs, on_game) for s in part]


# ---------------------------------------------------------------------------
# 2-3. The fit: the scale K, then the weights
# ---------------------------------------------------------------------------


def _log_sigmoid(z: float) -> float:
    return -math.log1p(math.exp(-z)) if z >= 0 else z - math.log1p(math.exp(z))


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def log_loss(samples: Sequence[Sample], weights: Sequence[float], scale: float) -> float:
    """Mean cross-entropy of ``sigmoid(sum(w * x) / scale)`` against the results."""
    if not samples:
        return math.nan
    total = 0.0
    for s in samples:
        z = sum(w * x for w, x in zip(weights, s.x, strict=True)) / scale
        total -= s.y * _log_sigmoid(z) + (1.0 - s.y) * _log_sigmoid(-z)
    return total / len(samples)


def fit_scale(samples: Sequence[Sample], weights: Sequence[float], lo: float = 0.1, hi: float = 1000.0) -> float:
    """The scale ``K`` minimising :func:`log_loss` with ``weights`` (golden-section search on log K)."""
    a, b = math.log(lo), math.log(hi)
    g = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = log_loss(samples, weights, math.exp(c)), log_loss(samples, weights, math.exp(d))
    while b - a > 1e-4:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = log_loss(samples, weights, math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = log_loss(samples, weights, math.exp(d))
    return math.exp((a + b) / 2.0)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for k in range(col, n + 1):
                m[r][k] -= f * m[col][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def objective(
    samples: Sequence[Sample], weights: Sequence[float], scale: float, start: Sequence[float], l2: float
) -> float:
    """What :func:`fit_weights` minimises: :func:`log_loss` plus ``l2 / 2 * sum((w - start)^2)``."""
    pull = sum((w - s) ** 2 for w, s in zip(weights, start, strict=True))
    return log_loss(samples, weights, scale) + 0.5 * l2 * pull


def _newton_system(
    samples: Sequence[Sample], w: Sequence[float], start: Sequence[float], scale: float, free: Sequence[int], l2: float
) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian of :func:`objective` in the ``free`` weights at ``w``."""
    n = len(samples)
    grad = [l2 * (w[j] - start[j]) for j in free]
    hess = [[l2 if a == b else 0.0 for b in range(len(free))] for a in range(len(free))]
    for s in samples:
        z = sum(wi * xi for wi, xi in zip(w, s.x, strict=True)) / scale
        p = _sigmoid(z)
        r = (p - s.y) / (scale * n)
        h = p * (1.0 - p) / (scale * scale * n)
        xs = [s.x[j] for j in free]
        for a, xa in enumerate(xs):
            grad[a] += r * xa
            ha = h * xa
            row = hess[a]
            for b in range(a + 1):
                row[b] += ha * xs[b]
    for a in range(len(free)):
        for b in range(a):
            hess[b][a] = hess[a][b]
    return grad, hess


def fit_weights(
    samples: Sequence[Sample],
    start: Sequence[float],
    scale: float,
    free: Sequence[int],
    l2: float = 1e-3,
    iterations: int = 30,
) -> list[float]:
    """Newton's method on the weights ``free`` (indices), the others kept at ``start``.

    Minimises :func:`objective`: ``log_loss(samples, w, scale) + l2 / 2 * sum((w - start)^2)``
    over the free weights.  The objective is convex; each Newton step is halved
    until it lowers the objective (a full step can overshoot far from the
    optimum), so the result is never worse than ``start`` on ``samples``."""
    w = [float(x) for x in start]
    if not samples or not free:
        return w
    current = objective(samples, w, scale, start, l2)
    for _ in range(iterations):
        grad, hess = _newton_system(samples, w, start, scale, free, l2)
        step = _solve(hess, grad)
        t = 1.0
        while True:
            trial = list(w)
            for a, j in enumerate(free):
                trial[j] = w[j] - t * step[a]
            value = objective(samples, trial, scale, start, l2)
            if value <= current or t < 1e-6:
                break
            t /= 2.0
        if value > current:
            break  # no step along the Newton direction lowers the objective: at the optimum (to rounding)
        w, current = trial, value
        if max(abs(t * x) for x in step) < 1e-7:
            break
    return w


@dataclass
class FitReport:
    """The fit's figures: scale, weights before and after, log-losses, counts."""

    game: str
    terms: list[str]
    before: list[float]
    after: list[float]
    scale: float
    #: the pull toward today's weights (None: today's weights kept, no pull predicted left-out games better)
    l2: float | None
    games: int
    positions: int
    train_samples: int
    heldout_samples: int
    loss: dict[str, float] = field(default_factory=dict)
    #: the cross-validation that chose ``l2``: mean left-out log-loss of today's weights and of each pull
    cv: dict[str, float] = field(default_factory=dict)

    def weights(self) -> dict[str, float]:
        return {t: round(w, 6) for t, w in zip(self.terms, self.after, strict=True)}

    def lines(self) -> list[str]:
        """The report as a person reads it."""
        out = [
            f"{self.game}: {self.games} games, {self.positions:,} positions "
            f"({self.train_samples:,} seat-samples to fit, {self.heldout_samples:,} held out: every 5th game)",
            f"scale K = {self.scale:.2f} francs (sigmoid(evaluation / K)); L2 toward today's weights "
            + (f"{self.l2:g}" if self.l2 is not None else "none: today's weights kept"),
        ]
        if self.cv:
            out.append(
                "pull chosen by cross-validation over the training games (mean left-out log-loss): "
                + ", ".join(f"{k} {v:.4f}" for k, v in self.cv.items())
            )
        out.append(f"{'term':14} {'today':>9} {'fitted':>9}")
        out += [f"{t:14} {a:9.3f} {b:9.3f}" for t, a, b in zip(self.terms, self.before, self.after, strict=True)]
        lo = self.loss
        out.append(
            f"log-loss, training: {lo['train_before']:.4f} -> {lo['train_after']:.4f}; "
            f"held out: {lo['heldout_before']:.4f} -> {lo['heldout_after']:.4f}"
        )
        return out


def split_by_game(samples: Sequence[Sample]) -> tuple[list[Sample], list[Sample]]:
    """(training, held out): every game whose index is 4 modulo 5 is held out (the last game if none is),
    so the positions of one game are never on both sides."""
    ids = sorted({s.game for s in samples})
    if len(ids) < 2:
        raise TuningError("the fit needs positions from at least 2 games (one is held out)")
    out = {i for i in ids if i % 5 == 4} or {ids[-1]}
    return [s for s in samples if s.game not in out], [s for s in samples if s.game in out]


#: the pulls toward today's weights that :func:`choose_pull` compares (and keeping today's weights)
PULLS = (1e-3, 1e-2, 1e-1, 1.0)


def choose_pull(
    samples: Sequence[Sample],
    start: Sequence[float],
    scale: float,
    free: Sequence[int],
    pulls: Sequence[float] = PULLS,
    folds: int = 4,
) -> tuple[float | None, dict[str, float]]:
    """The L2 pull whose fits predict games they were not fitted on best: cross-validation by game.

    The games of ``samples`` are dealt into ``folds`` parts; for each pull, the weights are fitted on all
    parts but one and scored (log-loss) on that one.  Returns the best pull, or None when no pull beats
    today's weights on the left-out games, and the mean left-out log-loss of each (``"today"``, ``"1e-3"``...).
    The positions of one game share its one result, so a few dozen games are a few dozen outcomes however
    many positions they hold: a weak pull fits their noise."""
    ids = sorted({s.game for s in samples})
    parts = [{g for k, g in enumerate(ids) if k % folds == f} for f in range(min(folds, len(ids)))]
    table = {"today": 0.0, **{f"{p:g}": 0.0 for p in pulls}}
    for part in parts:
        fit_on = [s for s in samples if s.game not in part]
        left = [s for s in samples if s.game in part]
        table["today"] += log_loss(left, start, scale) / len(parts)
        for p in pulls:
            table[f"{p:g}"] += log_loss(left, fit_weights(fit_on, start, scale, free, p), scale) / len(parts)
    best = min(pulls, key=lambda p: table[f"{p:g}"])
    return (best if table[f"{best:g}"] < table["today"] else None), table


def fit(game: str, samples: Sequence[Sample], l2: float | None = None) -> FitReport:
    """Texel tuning of ``game``'s weights on ``samples``: K with today's weights, then the free weights.

    ``l2`` is the pull toward today's weights; None chooses it by cross-validation over the training
    games (:func:`choose_pull`), and keeps today's weights if no pull predicts left-out games better."""
    _, tuning = tuning_of(game)
    terms = list(tuning.weights)
    start = [float(tuning.weights[t]) for t in terms]
    ids = sorted({s.game for s in samples})
    train, held = split_by_game(samples)
    scale = fit_scale(train, start)
    free = [i for i, t in enumerate(terms) if t not in tuning.fixed]
    cv: dict[str, float] = {}
    if l2 is None and len({s.game for s in train}) >= 2:
        l2, cv = choose_pull(train, start, scale, free)
    after = list(start) if l2 is None else fit_weights(train, start, scale, free, l2)
    positions = sum(1 for s in samples if s.seat == 0)
    report = FitReport(game, terms, start, after, scale, l2, len(ids), positions, len(train), len(held), cv=cv)
    report.loss = {
        "train_before": log_loss(train, start, scale),
        "train_after": log_loss(train, after, scale),
        "heldout_before": log_loss(held, start, scale),
        "heldout_after": log_loss(held, after, scale),
    }
    return report


# ---------------------------------------------------------------------------
# 4. The match: tuned against today's at equal nodes
# ---------------------------------------------------------------------------


@dataclass
class MatchResult:
    """The candidate's games against today's weights: wins, ties, losses and the 95% Wilson interval."""

    games: int
    wins: int
    ties: int
    losses: int
    level: str
    noise: float
    #: the node budget per decision of both sides (None: the level's)
    nodes: int | None = None

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the score (a tie counts one half, as in the ladder)."""
        return wilson_interval(round(self.wins + 0.5 * self.ties), self.games) if self.games else (0.0, 1.0)

    @property
    def adopt(self) -> bool:
        return self.games > 0 and self.interval[0] > 0.5

    def line(self) -> str:
        lo, hi = self.interval
        budget = f"@nodes={self.nodes}" if self.nodes is not None else ""
        return (
            f"tuned vs today, ai:{self.level}{budget} budgets (equal nodes), noise {self.noise:g}, both seats: "
            f"{self.wins}-{self.ties}-{self.losses} (W-T-L) in {self.games} games, "
            f"score {self.score:.1%} [95% {lo:.1%}, {hi:.1%}]"
        )


#: one match game: game, options, candidate weights, level, node budget (None: the level's), noise, seed, seat
MatchTask = tuple[str, dict[str, Any], dict[str, float], str, int | None, float, int, int]


def match_agents(
    spec: GameSpec,
    tuning: EvalTuning,
    weights: Mapping[str, float],
    level: str,
    nodes: int | None,
    noise: float,
    seed: int,
    seat: int,
) -> list[SearchAgent]:
    """The two agents of one match game, by seat: the candidate (``weights``) in ``seat``, today's in the other.

    The agent in seat ``k`` is the table's (:func:`core.table.seat_agent`, seeded by the one derivation)
    whichever weights it plays, so with equal weights the two games of one seed are the same game."""
    text = f"ai:{level}" if nodes is None else with_nodes(f"ai:{level}", nodes)
    agents = []
    for k in range(2):
        agent = seat_agent(spec, seed, k, text, noise=Noise(noise))
        assert isinstance(agent, SearchAgent)
        agents.append(agent)
    agents[seat].evaluator = spec.evaluator.reweighted(weights)
    return agents


def _match_one(task: MatchTask) -> float:
    """One game, candidate weights in ``seat``: the candidate's result (1, 0.5, 0)."""
    game, options, weights, level, nodes, noise, seed, seat = task
    spec, tuning = tuning_of(game)
    state = new_game(game, options, seed)
    agents = match_agents(spec, tuning, weights, level, nodes, noise, seed, seat)
    seats = [Seat("tuned" if k == seat else "today", AGENT, f"ai:{level}", agents[k]) for k in range(2)]
    state = Table(spec, None, seed, state, seats, keep_positions=False).play(agents_decide)
    return seat_result(state, seat)


def match(
    game: str,
    weights: Mapping[str, float],
    games: int,
    level: str,
    noise: float,
    seed: int = 1,
    jobs: int = 1,
    on_game: Callable[[float], None] | None = None,
    nodes: int | None = None,
) -> MatchResult:
    """``games`` games of the ``weights`` against the game's weights in use, at ``level``'s node budget
    (or ``nodes`` per decision on both sides).

    Game ``i`` uses the seed of game ``i // 2`` of a playtest run with seed ``seed`` and seats the candidate in seat
    ``i % 2``, so every seed is played from both seats."""
    if games < 1:
        raise TuningError(f"the match needs at least 1 game (got {games})")
    if nodes is not None and nodes < 1:
        raise TuningError(f"the match's node budget must be at least 1 (got {nodes})")
    spec, tuning = tuning_of(game)
    spec.level(level)
    missing = [t for t in tuning.weights if t not in weights]
    if missing:
        raise TuningError(f"the candidate weights must give one weight per term; missing: {', '.join(missing)}")
    config = make_config(game, ["ai", "ai"])
    tasks: list[MatchTask] = [
        (game, config.options, dict(weights), level, nodes, noise, game_seed(seed, pair), side)
        for pair in range((games + 1) // 2)
        for side in (0, 1)
    ][:games]
    results = _pool_map(_match_one, tasks, jobs, on_game)
    wins = sum(1 for r in results if r == 1.0)
    losses = sum(1 for r in results if r == 0.0)
    return MatchResult(games, wins, games - wins - losses, losses, level, noise, nodes)
