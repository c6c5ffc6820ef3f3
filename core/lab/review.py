"""After the game: francs lost per decision against a reference search, labels and accuracy.

Generic over :mod:`core.protocol`, like the search: a review needs from a game
only what the search needs, plus ``determinize`` for hidden information.

For each decision of a game the reference search (:class:`core.search.Searcher`
with an AI level's budgets, by default ``hard``) looks at the position as the
mover saw it (``state.determinize(mover, rng)``, as the ``ai`` agent does, so
a hidden tile or card is never read) and finds the best move and its value.
The move played is searched at the root at every depth with the full window,
right after the previous best, so its value is exact beside the best move's, at the same depth and
from the mover's side (the sign question of a player who moves again never
arises), in one search.  **Francs lost** is the best value minus
the played move's value, never negative; values of proven results are turned
from ``WIN_BONUS`` scores back into the true wealth margin.  A decision with
one legal action, or one action worth searching that was played, loses
nothing and is not searched.

The reference stops its iterative deepening when the next depth would not
finish within the level's node budget (the ``ai`` agent would start it and
mostly throw it away), which saves about half the nodes of a full budget.

Labels: a decision that loses at least :attr:`Thresholds.inaccuracy` francs is
an inaccuracy, at least ``mistake`` a mistake, at least ``blunder`` a
blunder.  Accuracy of a player (KaTrain's form, in francs):
``100 * 0.75 ** (mean francs lost per searched decision / ACCURACY_SCALE)``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from core.lab.playtest.config import load_ruleset, new_game
from core.lab.pool import in_processes
from core.protocol import GameError, GameSpec, GameState, Level, parse_action
from core.records import replay_actions
from core.search import WIN_BONUS, Searcher, SearchResult, evaluation_terms
from core.seeds import REVIEW, derive_seed

#: the reference level unless ``--level`` says otherwise
DEFAULT_LEVEL = "hard"
#: accuracy = 100 * ACCURACY_BASE ** (mean francs lost / ACCURACY_SCALE)
ACCURACY_BASE = 0.75
ACCURACY_SCALE = 1.0
#: the version of a stored review's JSON
REVIEW_VERSION = 1

LABELS = ("inaccuracy", "mistake", "blunder")


class ReviewError(GameError):
    """A review that cannot be made; the message says why."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Francs lost from which a decision is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float = 2.0
    mistake: float = 5.0
    blunder: float = 10.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ReviewError(
                "the thresholds must be positive and in order: inaccuracy <= mistake <= blunder "
                f"(given {self.inaccuracy:g}, {self.mistake:g}, {self.blunder:g})"
            )

    def label(self, lost: float) -> str | None:
        """The label of a decision that lost ``lost`` francs, or None."""
        if lost >= self.blunder:
            return "blunder"
        if lost >= self.mistake:
            return "mistake"
        if lost >= self.inaccuracy:
            return "inaccuracy"
        return None

    def describe(self) -> str:
        return f"inaccuracy {self.inaccuracy:g}, mistake {self.mistake:g}, blunder {self.blunder:g} francs"


DEFAULT_THRESHOLDS = Thresholds()


def accuracy(mean_lost: float) -> float:
    """A player's accuracy (0-100) from the mean francs lost per searched decision."""
    return float(100.0 * ACCURACY_BASE ** (max(0.0, mean_lost) / ACCURACY_SCALE))


def francs(value: float) -> float:
    """A search value as a wealth margin: a proven result's ``WIN_BONUS`` is taken off."""
    if value >= WIN_BONUS / 2:
        return value - WIN_BONUS
    if value <= -WIN_BONUS / 2:
        return value + WIN_BONUS
    return value


# ---------------------------------------------------------------------------
# One decision
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """The review of one decision: the position before action ``index`` (0-based) of the game."""

    index: int
    seat: int
    played: str
    best: str
    #: the best move's value for the mover, in francs (a wealth margin)
    value: float
    #: the played move's value for the mover, in francs
    played_value: float
    lost: float
    forced: bool
    #: the depth of the reference search, and the nodes of both searches (the best move's and the played one's)
    depth: int = 0
    nodes: int = 0
    #: the best line from this position (action texts, the best move first)
    pv: tuple[str, ...] = ()
    #: the line after the move played (action texts, the played move first)
    played_pv: tuple[str, ...] = ()
    proven: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["pv"], d["played_pv"] = list(self.pv), list(self.played_pv)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decision:
        return cls(**{**d, "pv": tuple(d.get("pv", ())), "played_pv": tuple(d.get("played_pv", ()))})


def _searcher(spec: GameSpec, level: Level, seed: int, **kw: Any) -> Searcher:
    return Searcher(
        max_depth=kw.pop("max_depth", level.max_depth),
        max_nodes=level.max_nodes,
        time_limit=level.time_cap,
        seed=seed,
        evaluator=spec.evaluator,
        **kw,
    )


def _stop_before_overrun(max_nodes: int) -> Callable[[list[dict[str, Any]]], bool]:
    """``keep_going`` for the search: start the next depth only if it is likely to finish within ``max_nodes``."""

    def keep_going(iterations: list[dict[str, Any]]) -> bool:
        nodes = [0] + [int(it["nodes"]) for it in iterations]
        if len(nodes) < 3:
            return True
        last, before = nodes[-1] - nodes[-2], max(1, nodes[-2] - nodes[-3])
        return nodes[-1] + last * max(1.5, last / before) <= max_nodes

    return keep_going


def reference_level(spec: GameSpec, name: str | Level | None = None) -> Level:
    """The level ``name`` of ``spec`` (default ``hard``, or the game's default if it has no ``hard``).

    A :class:`Level` is taken as it is (tests and experiments with other budgets).
    """
    if isinstance(name, Level):
        return name
    if name is None:
        name = DEFAULT_LEVEL if DEFAULT_LEVEL in spec.ai_levels else spec.default_level
    try:
        return spec.level(name)
    except GameError as exc:
        raise ReviewError(str(exc)) from None


def _forced(spec: GameSpec, state: GameState, played: str) -> bool:
    legal = state.legal_actions()
    if len(legal) == 1:
        return True
    worth = spec.evaluator.search_actions(state)
    return len(worth) == 1 and str(worth[0]) == played


def decision_seed(seed: int, index: int) -> int:
    """The seed of the review of decision ``index`` (determinisation and root order)."""
    return derive_seed(seed, REVIEW, index)


def review_decision(spec: GameSpec, state: GameState, played: str, level: Level, index: int, seed: int = 0) -> Decision:
    """Review the decision in ``state`` where ``played`` (an action text) was chosen."""
    mover = state.current_player()
    if _forced(spec, state, played):
        return Decision(index, mover, played, played, 0.0, 0.0, 0.0, True)
    s = decision_seed(seed, index)
    # searched from a copy without the game's action list, as the ai agent searches
    view = state.copy_for_search().determinize(mover, random.Random(s))
    move = parse_action(view, played)
    # The move played is searched with the full window at every depth: its score is exact beside the best's.
    search = _searcher(spec, level, s, keep_going=_stop_before_overrun(level.max_nodes), root_first=move)
    best = search.search(view)
    value = best.score
    played_value = dict(best.root_scores).get(played, value)
    played_pv = [str(a) for a in (best.pv if str(best.action) == played else search.line(view, move))]
    nodes = best.nodes
    lost = max(0.0, francs(value) - francs(played_value))
    return Decision(
        index=index,
        seat=mover,
        played=played,
        best=str(best.action),
        value=round(francs(value), 3),
        played_value=round(francs(played_value), 3),
        lost=round(lost, 3),
        forced=False,
        depth=best.depth,
        nodes=nodes,
        pv=tuple(str(a) for a in best.pv),
        played_pv=tuple(played_pv),
        proven=_proven(best),
    )


def _proven(result: SearchResult) -> bool:
    return result.exhausted or abs(result.score) >= WIN_BONUS / 2


# ---------------------------------------------------------------------------
# Why the better line is better, in a few words
# ---------------------------------------------------------------------------


def follow_line(state: GameState, line: Sequence[str]) -> tuple[GameState, int]:
    """``state`` after as many moves of ``line`` as can be followed (a line searched on a re-dealt
    copy of hidden cards may stop being legal), and how many were."""
    s = state.clone()
    done = 0
    for text in line:
        if s.is_terminal():
            break
        try:
            s.apply_action(parse_action(s, text))
        except GameError:
            break
        done += 1
    return s, done


def _wealth_words(key: str, better: int | None, played: int | None) -> str:
    """One part of the wealth that differs: '7 more francs', 'ships +6' (a part both lines have)."""
    if key == "francs":
        diff = (better or 0) - (played or 0)
        return f"{abs(diff)} {'more' if diff > 0 else 'fewer'} franc{'s' if abs(diff) != 1 else ''}"
    return f"{key} {(better or 0) - (played or 0):+d}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _wealth_differences(mine: dict[str, int], theirs: dict[str, int], limit: int) -> str:
    """The ``limit`` parts of the wealth that differ most between the better line (``mine``) and the line
    played (``theirs``): 'with Shipping Line (14) and Pier (14), without Farm (4), 3 fewer francs'."""
    keys = [k for k in dict.fromkeys([*mine, *theirs]) if mine.get(k) != theirs.get(k)]
    keys.sort(key=lambda k: -abs(mine.get(k, 0) - theirs.get(k, 0)))
    keys = keys[:limit]
    gained = [f"{k} ({mine[k]})" for k in keys if k not in theirs]
    lost = [f"{k} ({theirs[k]})" for k in keys if k not in mine]
    parts = [f"with {_and(gained)}"] if gained else []
    parts += [f"without {_and(lost)}"] if lost else []
    parts += [_wealth_words(k, mine[k], theirs[k]) for k in keys if k in mine and k in theirs]
    return ", ".join(parts)


def explain_better(state: GameState, d: Decision, limit: int = 3) -> str:
    """Why the better line beats the line played, in a few words, from where the two lines lead (both
    followed from ``state``, the position of decision ``d``): the parts of the mover's wealth that differ
    ('at the end: with Pier (14), 7 fewer francs'; when a line ends the game, that goods are worth
    nothing then), then the francs lost term by term (:func:`lost_terms`: they add up to ``d.lost``).
    Empty for a decision that lost nothing."""
    if d.forced or d.lost <= 0 or not d.pv:
        return ""
    better, _ = follow_line(state, d.pv)
    played, _ = follow_line(state, d.played_pv or (d.played,))
    wealth = _wealth_differences(better.wealth_breakdown(d.seat), played.wealth_breakdown(d.seat), limit)
    if better.is_terminal() or played.is_terminal():
        words = f"at the end: {wealth}" if wealth else ""
        if "goods" in evaluation_terms(state, d.seat):  # a game with goods
            words = f"{words}; goods are worth nothing then" if words else "goods are worth nothing at the end"
    else:
        words = f"after the line: {wealth}" if wealth else ""
    terms = ", ".join(f"{k} {v:+.1f}" for k, v in lost_terms(better, played, d, limit))
    return f"{words}; the {d.lost:.1f} lost = {terms}" if words else f"the {d.lost:.1f} lost = {terms}"


def lost_terms(better: GameState, played: GameState, d: Decision, limit: int = 3) -> list[tuple[str, float]]:
    """The francs decision ``d`` lost, term by term: each evaluation term where the better line leads
    (``better``) less the same term where the played line leads (``played``), for the mover, the
    ``limit`` largest (rounded to 0.1), then ``other``: the rest of ``d.lost`` (the smaller terms, and what
    the lines' ends do not hold: a line that could not be followed to its end, the search's own
    corrections).  The values add up to ``d.lost`` rounded to 0.1."""
    a, b = _line_terms(better, d.seat), _line_terms(played, d.seat)
    diffs = {k: a.get(k, 0.0) - b.get(k, 0.0) for k in dict.fromkeys([*a, *b])}
    shown = sorted((k for k in diffs if round(diffs[k], 1)), key=lambda k: -abs(diffs[k]))[:limit]
    out = [(k, round(diffs[k], 1)) for k in shown]
    other = round(round(d.lost, 1) - sum(v for _, v in out), 1)
    return [*out, ("other", other)] if other or not out else out


def _line_terms(state: GameState, seat: int) -> dict[str, float]:
    """The evaluation terms where a line leads, for ``seat``: at the end of the game, the wealth margin
    (what the search counts there); before it, the evaluator's terms (they add up to its evaluation)."""
    if state.is_terminal():
        terms = evaluation_terms(state, seat)
        return {"wealth": terms["final wealth"] - terms["best other wealth"]}
    return evaluation_terms(state, seat)


# ---------------------------------------------------------------------------
# A whole game
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameSource:
    """A game to review: its rule set (a game's name or ``module:ATTR``), options, seed and action texts."""

    rules: str
    options: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    data_digest: str = ""

    @property
    def spec(self) -> GameSpec:
        return load_ruleset(self.rules)

    def positions(self) -> list[GameState]:
        """The position before every action (index ``i``: before action ``i``); an action that does not
        replay raises :class:`core.records.ReplayError`."""
        state = new_game(self.rules, self.options, self.seed)
        return [r.before for r in replay_actions(state, self.actions, keep_before=True) if r.before is not None]

    def key(self) -> str:
        """The digest of the game: equal for the same rule set, options, data, seed and actions."""
        text = json.dumps(
            [self.rules, self.options, self.data_digest, self.seed, list(self.actions)], sort_keys=True, default=str
        )
        return hashlib.sha256(text.encode()).hexdigest()[:32]


#: a worker's positions of the game it reviewed last (each task names its game)
_POSITIONS: dict[str, list[GameState]] = {}


def _review_task(task: tuple[GameSource, Level, int, int]) -> Decision:
    """One decision in a worker process: (game, level, decision index, review seed)."""
    source, level, index, seed = task
    key = source.key()
    if key not in _POSITIONS:
        _POSITIONS.clear()
        _POSITIONS[key] = source.positions()
    spec = source.spec
    return review_decision(spec, _POSITIONS[key][index], source.actions[index], level, index, seed)


class ReviewInterrupted(KeyboardInterrupt):
    """Ctrl-C during a review: ``decisions`` holds every decision reviewed before it (kept, a rerun continues).

    A :class:`KeyboardInterrupt` still, so a caller that does not keep decisions stops as on any Ctrl-C."""

    def __init__(self, decisions: list[Decision], total: int) -> None:
        super().__init__(f"interrupted after {len(decisions)} of {total} decisions")
        self.decisions = decisions
        self.total = total


def review_decisions(
    source: GameSource,
    level: str | Level | None = None,
    *,
    jobs: int = 1,
    seed: int = 0,
    indices: Iterable[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    known: Iterable[Decision] = (),
) -> list[Decision]:
    """Review the decisions ``indices`` (default: all) of ``source``, in ``jobs`` processes.

    ``progress(done, total)`` is called after each decision.  The result is
    the same for any number of processes (each decision's search depends only
    on its position, the level and the seed), so decisions ``known`` from an
    interrupted review of the same game, level and seed are taken as they are.
    Ctrl-C raises :class:`ReviewInterrupted` with every decision reviewed so far.
    """
    spec = source.spec
    lv = reference_level(spec, level)
    positions = source.positions()
    wanted = sorted(set(range(len(positions)) if indices is None else indices))
    if any(not 0 <= i < len(positions) for i in wanted):
        raise ReviewError(f"the game has decisions 0 to {len(positions) - 1}")
    asked = set(wanted)
    done: dict[int, Decision] = {d.index: d for d in known if d.index in asked}
    try:
        tasks = []
        for i in wanted:
            if i in done:
                continue
            if _forced(spec, positions[i], source.actions[i]):
                done[i] = review_decision(spec, positions[i], source.actions[i], lv, i, seed)
            else:
                tasks.append((source, lv, i, seed))
        total = len(wanted)
        if progress is not None:
            progress(len(done), total)
        processes = min(jobs, len(tasks))
        for d in in_processes(_review_task, tasks, processes) if processes > 1 else _here(positions, tasks):
            done[d.index] = d
            if progress is not None:
                progress(len(done), total)
    except KeyboardInterrupt:
        raise ReviewInterrupted(sorted(done.values(), key=lambda d: d.index), len(wanted)) from None
    return [done[i] for i in wanted]


def _here(positions: Sequence[GameState], tasks: Sequence[tuple[GameSource, Level, int, int]]) -> Iterator[Decision]:
    """The tasks' decisions reviewed in this process, from positions already replayed."""
    for source, lv, i, seed in tasks:
        yield review_decision(source.spec, positions[i], source.actions[i], lv, i, seed)


# ---------------------------------------------------------------------------
# The review of a game: labels, accuracy, turning points, the curve
# ---------------------------------------------------------------------------


@dataclass
class GameReview:
    """Every reviewed decision of one game, with what a reader wants from them."""

    rules: str
    key: str
    players: list[str]
    level: str
    budget: str
    decisions: list[Decision]
    final_wealth: list[int] | None = None
    seconds: float = 0.0
    jobs: int = 1
    thresholds: Thresholds = field(default_factory=Thresholds)
    version: int = REVIEW_VERSION

    @property
    def num_players(self) -> int:
        return len(self.players)

    def label(self, d: Decision) -> str | None:
        return None if d.forced else self.thresholds.label(d.lost)

    def labelled(self) -> list[Decision]:
        """Decisions with a label, in game order."""
        return [d for d in self.decisions if self.label(d) is not None]

    def searched(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat and not d.forced]

    def mean_lost(self, seat: int) -> float | None:
        mine = self.searched(seat)
        return sum(d.lost for d in mine) / len(mine) if mine else None

    def accuracy(self, seat: int) -> float | None:
        mean = self.mean_lost(seat)
        return None if mean is None else accuracy(mean)

    def counts(self, seat: int) -> dict[str, int]:
        labels = [self.label(d) for d in self.decisions if d.seat == seat]
        return {name: labels.count(name) for name in LABELS}

    def turning_points(self, n: int = 3) -> list[Decision]:
        """The ``n`` decisions that lost the most (ties: the earlier first), in game order."""
        worst = sorted((d for d in self.decisions if d.lost > 0), key=lambda d: (-d.lost, d.index))[:n]
        return sorted(worst, key=lambda d: d.index)

    def curve(self) -> list[float]:
        """The evaluation before every decision: seat 1's margin with two players, else the mover's own.

        A forced decision changes nothing, so it shows the value of the next
        searched one (the final margin after the last).
        """
        out: list[float | None] = [None if d.forced else self._view(d.value, d.seat) for d in self.decisions]
        nxt = self._final_margin()
        for i in range(len(out) - 1, -1, -1):
            v = out[i]
            if v is None:
                out[i] = nxt
            else:
                nxt = v
        return [float(v if v is not None else 0.0) for v in out]

    def _view(self, value: float, seat: int) -> float:
        return -value if self.num_players == 2 and seat == 1 else value

    def _final_margin(self) -> float | None:
        w = self.final_wealth
        if not w or len(w) != 2:
            return None
        return float(w[0] - w[1])

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if k not in ("decisions", "thresholds")}
        d["thresholds"] = asdict(self.thresholds)
        d["decisions"] = [x.to_dict() for x in self.decisions]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], thresholds: Thresholds | None = None) -> GameReview:
        try:
            if d.get("version") != REVIEW_VERSION:
                raise ReviewError(f"review format {d.get('version')} is not {REVIEW_VERSION}")
            return cls(
                rules=str(d["rules"]),
                key=str(d["key"]),
                players=[str(p) for p in d["players"]],
                level=str(d["level"]),
                budget=str(d.get("budget", "")),
                decisions=[Decision.from_dict(x) for x in d["decisions"]],
                final_wealth=d.get("final_wealth"),
                seconds=float(d.get("seconds", 0.0)),
                jobs=int(d.get("jobs", 1)),
                thresholds=thresholds or Thresholds(**d.get("thresholds", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ReviewError(f"the stored review is malformed ({exc})") from None

    def to_json(self) -> str:
        """For tools: the stored form, each decision's label, and the per-seat summary."""
        out = self.to_dict()
        for d, row in zip(self.decisions, out["decisions"], strict=True):
            row["label"] = self.label(d)
        out["summary"] = self.summary()
        out["turning_points"] = [d.index for d in self.turning_points()]
        return json.dumps(out, indent=2) + "\n"

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: searched decisions, mean francs lost, accuracy, label counts."""
        rows = []
        for seat, name in enumerate(self.players):
            mean = self.mean_lost(seat)
            rows.append(
                {
                    "seat": seat,
                    "player": name,
                    "decisions": sum(1 for d in self.decisions if d.seat == seat),
                    "searched": len(self.searched(seat)),
                    "mean_francs_lost": None if mean is None else round(mean, 3),
                    "francs_lost": round(sum(d.lost for d in self.decisions if d.seat == seat), 3),
                    "accuracy": None if mean is None else round(accuracy(mean), 1),
                    **self.counts(seat),
                }
            )
        return rows


def review_game(
    source: GameSource,
    players: Sequence[str],
    level: str | Level | None = None,
    *,
    jobs: int = 1,
    seed: int = 0,
    thresholds: Thresholds | None = None,
    final_wealth: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    known: Iterable[Decision] = (),
) -> GameReview:
    """Review every decision of ``source`` (see :func:`review_decisions`; ``known``: decisions kept from an
    interrupted review, not searched again)."""
    lv = reference_level(source.spec, level)
    start = time.perf_counter()
    decisions = review_decisions(source, lv, jobs=jobs, seed=seed, progress=progress, known=known)
    return GameReview(
        rules=source.rules,
        key=source.key(),
        players=list(players),
        level=lv.name,
        budget=lv.describe(),
        decisions=decisions,
        final_wealth=list(final_wealth) if final_wealth is not None else None,
        seconds=round(time.perf_counter() - start, 2),
        jobs=jobs,
        thresholds=thresholds or DEFAULT_THRESHOLDS,
    )


# ---------------------------------------------------------------------------
# Stored reviews: a JSON file per game in the data directory, named by the game's digest
# ---------------------------------------------------------------------------


def review_path(key: str, directory: Path) -> Path:
    return directory / f"{key}.json"


def save_review(review: GameReview, directory: Path) -> Path:
    """Write ``review`` beside the others (atomic); returns the path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = review_path(review.key, directory)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(review.to_dict()) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def partial_path(key: str, directory: Path) -> Path:
    """Where the decisions of an interrupted review of the game ``key`` are kept until it is finished."""
    return directory / f"{key}.partial.json"


def keep_partial(key: str, level: Level, decisions: Sequence[Decision], directory: Path) -> Path:
    """Keep the decisions an interrupted review searched (atomic), so a rerun continues from them."""
    directory.mkdir(parents=True, exist_ok=True)
    path = partial_path(key, directory)
    tmp = path.with_suffix(".tmp")
    kept = {"version": REVIEW_VERSION, "level": level.name, "budget": level.describe()}
    tmp.write_text(json.dumps({**kept, "decisions": [d.to_dict() for d in decisions]}) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load_partial(key: str, level: Level, directory: Path) -> list[Decision]:
    """The decisions kept from an interrupted review of ``key`` at ``level`` (none if there are none, they
    were searched at another level or budget, or the file is unreadable)."""
    try:
        data = json.loads(partial_path(key, directory).read_text(encoding="utf-8"))
        if (data["version"], data["level"], data["budget"]) != (REVIEW_VERSION, level.name, level.describe()):
            return []
        return [Decision.from_dict(d) for d in data["decisions"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def forget_partial(key: str, directory: Path) -> None:
    """Remove the kept decisions of ``key`` once its review is whole."""
    partial_path(key, directory).unlink(missing_ok=True)


def load_review(key: str, directory: Path, thresholds: Thresholds | None = None) -> GameReview | None:
    """The stored review of the game ``key``, or None (none stored, or unreadable)."""
    path = review_path(key, directory)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return GameReview.from_dict(data, thresholds)
    except (OSError, ValueError, ReviewError):
        return None


# ---------------------------------------------------------------------------
# Agents measured: mean francs lost per decision against a reference
# ---------------------------------------------------------------------------


def francs_lost_by_agent(
    rules: str,
    options: dict[str, Any],
    games: Sequence[dict[str, Any]],
    level: str | Level | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, dict[str, float]]:
    """Per agent spec: ``decisions`` (searched) and ``mean`` francs lost, over playtest ``games``.

    ``games`` are playtest records (``seed``, ``seats``, ``actions``); every
    decision of every game is reviewed (one search per decision, two where the
    move differs from the reference's).
    """
    totals: dict[str, list[float]] = {}
    for n, game in enumerate(games):
        source = GameSource(rules, dict(options), int(game["seed"]), tuple(game["actions"]))
        for d in review_decisions(source, level, jobs=jobs):
            if not d.forced:
                totals.setdefault(game["seats"][d.seat], []).append(d.lost)
        if progress is not None:
            progress(n + 1, len(games))
    return {
        agent: {"decisions": float(len(xs)), "mean": sum(xs) / len(xs) if xs else math.nan}
        for agent, xs in sorted(totals.items())
    }
