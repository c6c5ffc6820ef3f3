"""Generic game-tree search over :mod:`core.protocol` and the ``ai`` agent.

The search knows no game: it only calls ``current_player``, ``legal_actions``,
``clone``, ``apply_action``, ``is_terminal``, ``wealth`` and ``key``, and
judges positions with one :class:`~core.protocol.Evaluator` (a position's
value, its named terms for explanations, and the actions worth searching: a
non-empty subset of the legal actions, for games whose rules offer moves that
are almost never useful).  By default that is the evaluator of the state's
own game (``state.game.evaluator``; a game that declares none is judged by
the wealth margin over every legal action); a caller that wants another
evaluation (other weights) passes another Evaluator.  The agent always returns one of
``legal_actions()``.

Algorithm
---------
Negamax with alpha-beta pruning, iterative deepening, a transposition table
keyed by ``state.key()`` and move ordering (transposition-table / previous
iteration's best move first, then two killer moves per ply, then the history
heuristic).  In a game whose spec sets ``forced_moves_free``, a node with
only one action worth searching (a forced move, such as ending a turn when no
sale could change anything) costs no depth, so bookkeeping decisions do not
shorten the look-ahead.  Budgets: maximum depth, maximum node count and wall time; any
mix of them.  With no time budget the result depends only on the position,
the budgets and the seed, so it is deterministic.

Sides, "same player moves again" and more than two players
----------------------------------------------------------
A ply is one decision.  In both games one player may take several decisions
in a row (sell a building, then act), so the sign is flipped only when the
*side* to move changes, never merely because a ply was made.

With more than two players the search uses the **paranoid** reduction: the
searching ("root") player is one side and all other players together are the
other side, minimising the root player's evaluation.  With two players this is
exactly ordinary two-player negamax; with one player (the base game's solo
version) every node is a max node.  Paranoid search is pessimistic (it assumes
the opponents cooperate against you) but it keeps alpha-beta pruning, which
max-n does not.

Values
------
Every value is computed for the root player and reported from the side to
move's view (negamax convention).  A non-terminal leaf is worth
``evaluator.evaluate(state, root)``.  A terminal position is worth its true wealth
margin (root wealth minus the best other wealth) plus ``WIN_BONUS`` times the
sign of that margin, so any proven win outranks any heuristic score (the
heuristics must stay within ``+-WIN_BONUS / 2``).  With one player the
terminal value is the wealth itself.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any, Final, Generic

from core.protocol import A, Evaluator, GameSpec, GameState, Level

# float subclasses, which a compiled module cannot define (core/compiled.py): kept in a pure module, named here
from core.search_options import NO_NOISE as NO_NOISE
from core.search_options import Noise as Noise
from core.search_options import ThinkTime as ThinkTime
from core.seeds import MOVE, NOISE, derive_seed

#: Added to the margin of a finished game (sign of the margin), so that real
#: wins dominate heuristic scores.
WIN_BONUS: Final = 1_000_000.0

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

ProgressCallback = Callable[[dict[str, Any]], None]


class _Abort(Exception):
    """Raised inside the search when a node or time budget runs out."""


def terminal_value(state: GameState, player: int) -> float:
    """Worth of a finished game for ``player``: see the module docstring."""
    w = state.wealth()
    if len(w) == 1:
        return float(w[0])
    margin = w[player] - max(x for p, x in enumerate(w) if p != player)
    if margin > 0:
        return WIN_BONUS + margin
    if margin < 0:
        return -WIN_BONUS + margin
    return 0.0


def evaluation_terms(state: GameState, player: int, evaluator: Evaluator | None = None) -> dict[str, float]:
    """The named terms of ``state``'s evaluation for ``player``.

    ``evaluator`` (default: the state's game's) gives the terms; a finished
    game shows its true margin.
    """
    if state.is_terminal():
        w = state.wealth()
        others = [x for p, x in enumerate(w) if p != player]
        return {"final wealth": float(w[player]), "best other wealth": float(max(others) if others else 0)}
    ev = evaluator if evaluator is not None else state.game.evaluator
    return {str(k): float(v) for k, v in ev.terms(state, player).items()}


class SearchResult(Generic[A]):
    """What one search found (all figures are for the whole search)."""

    def __init__(
        self,
        action: A,
        score: float,
        depth: int,
        pv: list[A],
        nodes: int,
        elapsed: float,
        root_scores: list[tuple[str, float]] | None = None,
    ) -> None:
        self.action = action
        self.score = score
        self.depth = depth
        self.pv = pv
        self.nodes = nodes
        self.elapsed = elapsed
        self.tt_probes = 0
        self.tt_hits = 0
        #: the last started iteration finished
        self.completed = True
        #: the whole tree was searched (no depth horizon)
        self.exhausted = False
        self.root_scores: list[tuple[str, float]] = root_scores if root_scores is not None else []
        self.iterations: list[dict[str, Any]] = []
        #: root moves within the noise of the best (1 without noise)
        self.candidates = 1

    def __repr__(self) -> str:
        return f"SearchResult(action={self.action!r}, score={self.score}, depth={self.depth}, nodes={self.nodes})"

    @property
    def nps(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else float(self.nodes)

    @property
    def tt_hit_rate(self) -> float:
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0


class Searcher:
    """One configurable search; call :meth:`search` once per position.

    ``alphabeta``, ``use_tt`` and ``ordering`` can be switched off to get plain
    minimax (used by the tests and by the benchmark's node ratio).
    ``iterative=False`` searches ``max_depth`` directly.  ``evaluator`` judges
    the positions and names the actions worth searching (default: the searched
    state's game's, ``state.game.evaluator``).
    """

    def __init__(
        self,
        *,
        max_depth: int | None = None,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        seed: int = 0,
        alphabeta: bool = True,
        use_tt: bool = True,
        ordering: bool = True,
        iterative: bool = True,
        shuffle_root: bool = True,
        evaluator: Evaluator | None = None,
        progress: ProgressCallback | None = None,
        progress_every: int = 4096,
        noise: Noise = NO_NOISE,
        forced_moves_free: bool | None = None,
        keep_going: Callable[[list[dict[str, Any]]], bool] | None = None,
        root_first: Any = None,
    ) -> None:
        if max_depth is None and max_nodes is None and time_limit is None:
            raise ValueError("give the search a budget: max_depth, max_nodes or time_limit")
        if max_depth is not None and max_depth < 1:
            raise ValueError("max_depth must be at least 1")
        self.max_depth = max_depth if max_depth is not None else 1000
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.seed = seed
        self.alphabeta = alphabeta
        self.use_tt = use_tt
        self.ordering = ordering
        self.iterative = iterative
        self.shuffle_root = shuffle_root
        #: how positions are judged (``None``: the searched state's game's evaluator)
        self.evaluator = evaluator
        self.progress = progress
        self.progress_every = max(1, progress_every)
        #: choose at random (seeded) among the root moves within ``noise`` of the best
        self.noise = noise
        #: a forced move costs no depth (``None``: as the searched game's spec says)
        self.forced_moves_free = forced_moves_free
        #: asked after each finished iteration with the iterations so far; False ends the search there
        self.keep_going = keep_going
        #: a root move (an action of the searched state) searched with the full window at every depth, right
        #: after the previous best, so its score in ``root_scores`` is exact beside the best's (a review's move)
        self.root_first = root_first

    # -- public -------------------------------------------------------------
    def search(self, state: GameState[A]) -> SearchResult[A]:
        """Search ``state`` within the budgets (see the module docstring).

        Python's cyclic garbage collector is paused while it runs: a search makes no reference cycles, but
        its millions of short-lived tuples and lists kept triggering collections that walked every cached
        object (a third of a compiled search's time); what the caches hold is freed as before."""
        if state.is_terminal():
            raise ValueError("cannot search a finished game")
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(state)
        finally:
            if collecting:
                gc.enable()

    def _search(self, state: GameState[A]) -> SearchResult[A]:
        self._begin(state)
        children = self._root_children(state)
        order = list(range(len(children)))
        prev_scores: dict[int, float] = {}
        scores: dict[int, float] = {}
        best: SearchResult[A] | None = None
        depths = range(1, self.max_depth + 1) if self.iterative else [self.max_depth]
        iterations: list[dict[str, Any]] = []
        completed = True
        exhausted = False
        for depth in depths:
            if best is not None and self.ordering:
                self._reorder_root(order, prev_scores)
            best_i, best_v, scores, finished = self._iteration(children, order, depth)
            if not finished:
                completed = False
                # A partial iteration is still usable if the previous best move
                # (searched first) was finished and something beat it.
                if (
                    best is not None
                    and best_i is not None
                    and self.ordering
                    and order[0] in scores
                    and best_i != order[0]
                ):
                    best = self._result(state, children, best_i, best_v, depth, scores, partial=True)
                break
            prev_scores = scores
            # a finished iteration scored every root move (there is one: the game is not over)
            assert best_i is not None
            best = self._result(state, children, best_i, best_v, depth, scores)
            iterations.append(
                {
                    "depth": depth,
                    "score": best_v,
                    "move": str(children[best_i][0]),
                    "nodes": self.nodes,
                    "time": time.perf_counter() - self._start,
                }
            )
            self._report(depth, best)
            if not self._horizon:
                exhausted = True
                break
            if self._out_of_budget(soft=True):
                break
            if self.keep_going is not None and not self.keep_going(iterations):
                break
        return self._finish(state, children, best, order, scores, prev_scores, completed, exhausted, iterations)

    # -- internals ----------------------------------------------------------
    def _begin(self, state: GameState) -> None:
        """Set up a search of ``state``: the clock, the counters, the tables and the game's evaluator."""
        self._start = time.perf_counter()
        self._deadline = self._start + self.time_limit if self.time_limit is not None else None
        self.root_player = state.current_player()
        self.nodes = 0
        self.tt: dict[Hashable, tuple[int, float, int, Any, bool]] = {}
        self.tt_probes = 0
        self.tt_hits = 0
        self.killers: dict[int, list[Any]] = {}
        self.history: dict[tuple[int, Any], int] = {}
        self._pv: dict[int, list[Any]] = {}
        self._next_progress = self.progress_every
        self._horizon = False
        self._cur_depth = 0
        self.nodes = 1  # the root
        free = self.forced_moves_free
        self._forced_free = state.game.forced_moves_free if free is None else free
        ev = self.evaluator if self.evaluator is not None else state.game.evaluator
        self._evaluate = ev.evaluate
        self._actions = ev.search_actions

    def _root_children(self, state: GameState[A]) -> list[tuple[A, GameState[A]]]:
        """The root's moves (shuffled by the seed, ``root_first`` first), each with the position it leads to."""
        legal = list(self._actions(state))
        if self.shuffle_root:
            random.Random(self.seed).shuffle(legal)
        if self.root_first is not None:
            first = str(self.root_first)
            legal = [self.root_first] + [a for a in legal if str(a) != first]
        children = []
        for a in legal:
            c = state.clone()
            c.apply_action(a)
            children.append((a, c))
        return children

    def _reorder_root(self, order: list[int], prev_scores: dict[int, float]) -> None:
        """The previous iteration's best first, then by previous scores (``root_first`` right after the best)."""
        order.sort(key=lambda i: -prev_scores.get(i, -math.inf))
        if self.root_first is not None and order[0] != 0:
            # the move to score exactly comes right after the previous best, so a partial iteration
            # that is used (its first move finished and beaten) has scored it too
            order.remove(0)
            order.insert(1, 0)

    def _iteration(
        self, children: list[tuple[Any, GameState]], order: list[int], depth: int
    ) -> tuple[int | None, float, dict[int, float], bool]:
        """One iteration to ``depth`` over the root moves in ``order``:
        (the best move's index, its value, the scores so far, whether it finished before the budget ran out)."""
        self._horizon = False
        self._cur_depth = depth
        root_color = 1
        alpha, beta = -math.inf, math.inf
        best_i = None
        best_v = -math.inf
        scores: dict[int, float] = {}
        try:
            for i in order:
                a, child = children[i]
                # the root move to score exactly gets the full window
                low = -math.inf if i == 0 and self.root_first is not None else alpha
                v = self._child_value(child, depth - 1, low, beta, root_color, 1)
                scores[i] = v
                if v > best_v:
                    best_v, best_i = v, i
                    self._pv[0] = [a] + self._pv.get(1, [])
                # with noise, every root move within ``noise`` of the best gets an exact value
                if self.alphabeta and v - self.noise > alpha:
                    alpha = v - self.noise
        except _Abort:
            return best_i, best_v, scores, False
        return best_i, best_v, scores, True

    def _finish(
        self,
        state: GameState[A],
        children: list[tuple[A, GameState[A]]],
        best: SearchResult[A] | None,
        order: list[int],
        scores: dict[int, float],
        prev_scores: dict[int, float],
        completed: bool,
        exhausted: bool,
        iterations: list[dict[str, Any]],
    ) -> SearchResult[A]:
        """The result: the last usable iteration's best (drawn within ``noise``), with the search's counts."""
        if best is None:
            # not even depth 1 finished: fall back to the first searched child
            # or the first ordered move
            i = max(scores, key=lambda j: scores[j]) if scores else order[0]
            best = self._result(state, children, i, scores.get(i, 0.0), 0, scores, partial=True)
        if self.noise > 0 and best.depth > 0:
            self._draw_within_noise(state, children, best, prev_scores or scores)
        best.completed = completed
        best.exhausted = exhausted
        best.iterations = iterations
        best.elapsed = time.perf_counter() - self._start
        best.nodes = self.nodes
        best.tt_probes = self.tt_probes
        best.tt_hits = self.tt_hits
        return best

    def _draw_within_noise(
        self,
        state: GameState[A],
        children: list[tuple[A, GameState[A]]],
        best: SearchResult[A],
        scores: dict[int, float],
    ) -> None:
        """Replace the best move by a seeded draw among the root moves scored within ``noise`` of it.

        The root searched every move whose value is within ``noise`` of the best
        with an exact window, so these scores are exact; the others are bounds
        below the cut.  The draw depends only on the seed and the candidates,
        so the same seed gives the same game."""
        top = max(scores.values())
        candidates = sorted(i for i, v in scores.items() if v >= top - self.noise)
        best.candidates = len(candidates)
        if len(candidates) < 2:
            return
        i = random.Random(derive_seed(self.seed, NOISE)).choice(candidates)
        action = children[i][0]
        if action != best.action:
            best.action = action
            best.score = scores[i]
            best.pv = self._extend_pv(state, [action])

    def _result(
        self,
        state: GameState[A],
        children: list[tuple[A, GameState[A]]],
        best_i: int,
        best_v: float,
        depth: int,
        scores: dict[int, float],
        partial: bool = False,
    ) -> SearchResult[A]:
        action = children[best_i][0]
        pv = list(self._pv.get(0, [action]))
        if not pv or pv[0] != action:
            pv = [action]
        pv = self._extend_pv(state, pv)
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        root_scores = [(str(children[i][0]), v) for i, v in ranked]
        return SearchResult(
            action=action,
            score=best_v,
            depth=depth,
            pv=pv,
            nodes=self.nodes,
            elapsed=time.perf_counter() - self._start,
            root_scores=root_scores,
        )

    def line(self, state: GameState[A], action: A) -> list[A]:
        """After :meth:`search` of ``state``: the line that starts with ``action``, continued from the table."""
        return self._extend_pv(state, [action])

    def _extend_pv(self, state: GameState[A], pv: list[A]) -> list[A]:
        """Check the PV is playable and extend it from the TT's best moves."""
        s = state.clone()
        out: list[A] = []
        for a in pv:
            if s.is_terminal() or a not in s.legal_actions():
                return out
            s.apply_action(a)
            out.append(a)
        for _ in range(64):
            if s.is_terminal() or not self.use_tt:
                break
            entry = self.tt.get(s.key())
            if entry is None or entry[3] is None or entry[3] not in s.legal_actions():
                break
            s.apply_action(entry[3])
            out.append(entry[3])
        return out

    def _out_of_budget(self, soft: bool = False) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        if self._deadline is not None:
            now = time.perf_counter()
            if soft and self.max_nodes is None:
                # on time alone: do not start an iteration that will surely not finish
                # (with a node budget the deadline is only a safety, so the nodes decide)
                spent = now - self._start
                return now >= self._deadline or spent * 3 > (self._deadline - self._start)
            return now >= self._deadline
        return False

    def _report(self, depth: int, best: SearchResult[Any] | None) -> None:
        if self.progress is None:
            return
        elapsed = time.perf_counter() - self._start
        self.progress(
            {
                "depth": depth,
                "nodes": self.nodes,
                "elapsed": elapsed,
                "nps": self.nodes / elapsed if elapsed > 0 else 0.0,
                "best": str(best.action) if best is not None else None,
                "score": best.score if best is not None else None,
            }
        )

    def _leaf(self, state: GameState) -> float:
        """Root player's value of a leaf (terminal or at the horizon)."""
        if state.is_terminal():
            return terminal_value(state, self.root_player)
        return float(self._evaluate(state, self.root_player))

    def _color(self, state: GameState) -> int:
        p = state.current_player()
        if p == self.root_player or state.num_players == 1:
            return 1
        return -1

    def _child_value(self, child: GameState, depth: int, alpha: float, beta: float, color: int, ply: int) -> float:
        """Value of ``child`` from the view of the side (``color``) that moved into it."""
        if child.is_terminal():
            self.nodes += 1
            self._pv[ply] = []
            return color * terminal_value(child, self.root_player)
        ccolor = self._color(child)
        if ccolor == color:
            return self._negamax(child, depth, alpha, beta, ccolor, ply)
        return -self._negamax(child, depth, -beta, -alpha, ccolor, ply)

    # one piece: the search's inner loop (node count, budget, table probe, children, table store); a call per part costs every node
    def _negamax(self, state: GameState, depth: int, alpha: float, beta: float, color: int, ply: int) -> float:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Abort
        if self.nodes >= self._next_progress:
            self._next_progress += self.progress_every
            if self._deadline is not None and time.perf_counter() >= self._deadline:
                raise _Abort
            self._report(self._cur_depth, None)
        elif self._deadline is not None and (self.nodes & 31) == 0 and time.perf_counter() >= self._deadline:
            raise _Abort
        if depth <= 0:
            self._horizon = True
            self._pv[ply] = []
            return color * self._leaf(state)

        key = None
        tt_move = None
        alpha0 = alpha
        if self.use_tt:
            key = state.key()
            self.tt_probes += 1
            entry = self.tt.get(key)
            if entry is not None:
                e_depth, e_value, e_flag, tt_move, e_horizon = entry
                if e_depth >= depth:
                    if e_horizon:
                        # the stored value looked past no horizon only if
                        # its subtree did not: keep "exhausted" honest
                        self._horizon = True
                    if e_flag == EXACT:
                        self.tt_hits += 1
                        self._pv[ply] = [tt_move] if tt_move is not None else []
                        return e_value
                    if self.alphabeta:
                        if e_flag == LOWER and e_value >= beta:
                            self.tt_hits += 1
                            self._pv[ply] = [tt_move] if tt_move is not None else []
                            return e_value
                        if e_flag == UPPER and e_value <= alpha:
                            self.tt_hits += 1
                            self._pv[ply] = []
                            return e_value

        legal = self._actions(state)
        if self.ordering and len(legal) > 1:
            legal = self._order(legal, tt_move, ply, state.current_player())

        outer_horizon = self._horizon
        self._horizon = False
        best_v = -math.inf
        best_a = None
        # a forced move (the only action worth searching) costs no depth, in games that ask for it
        child_depth = depth if len(legal) == 1 and self._forced_free else depth - 1
        for a in legal:
            child = state.clone()
            child.apply_action(a)
            v = self._child_value(child, child_depth, alpha, beta, color, ply + 1)
            if v > best_v:
                best_v, best_a = v, a
                self._pv[ply] = [a] + self._pv.get(ply + 1, [])
            if self.alphabeta:
                if v > alpha:
                    alpha = v
                if alpha >= beta:
                    if self.ordering:
                        self._cutoff(a, ply, depth, state.current_player())
                    break

        node_horizon = self._horizon
        self._horizon = outer_horizon or node_horizon
        if self.use_tt:
            if not self.alphabeta or (alpha0 < best_v < beta):
                flag = EXACT
            elif best_v <= alpha0:
                flag = UPPER
            else:
                flag = LOWER
            self.tt[key] = (depth, best_v, flag, best_a, node_horizon)
        return best_v

    def _order(self, legal: list[Any], tt_move: Any, ply: int, mover: int) -> list[Any]:
        """``legal`` sorted (stably) by rank: the table's move, the killers in their order, then by history."""
        killers = self.killers.get(ply, [])
        hist = self.history
        ranks: list[float] = []
        for a in legal:
            if tt_move is not None and a == tt_move:
                ranks.append(-1e18)
            elif a in killers:
                ranks.append(-1e17 + killers.index(a))
            else:
                ranks.append(-hist.get((mover, a), 0))
        return [legal[i] for i in sorted(range(len(legal)), key=ranks.__getitem__)]

    def _cutoff(self, a: Any, ply: int, depth: int, mover: int) -> None:
        ks = self.killers.setdefault(ply, [])
        if a not in ks:
            ks.insert(0, a)
            del ks[2:]
        self.history[(mover, a)] = self.history.get((mover, a), 0) + depth * depth


def minimax_value(
    state: GameState[A],
    depth: int,
    root_player: int | None = None,
    evaluator: Evaluator | None = None,
) -> tuple[float, list[A], int]:
    """Plain paranoid minimax, for reference: ``(root value, best moves, nodes)``.

    Returns the value for ``root_player`` (default: the player to move), every
    root move achieving it (in legal order) and the nodes visited.  Every ply
    costs one depth; ``evaluator`` (default: the state's game's) judges the
    leaves and names the moves searched (its actions worth searching).
    """
    ev = evaluator if evaluator is not None else state.game.evaluator
    moves, value = ev.search_actions, ev.evaluate
    root = state.current_player() if root_player is None else root_player
    nodes = 0

    def leaf(s: GameState) -> float:
        if s.is_terminal():
            return terminal_value(s, root)
        return float(value(s, root))

    def rec(s: GameState, d: int) -> float:
        nonlocal nodes
        nodes += 1
        if s.is_terminal() or d == 0:
            return leaf(s)
        vals = []
        for a in moves(s):
            c = s.clone()
            c.apply_action(a)
            vals.append(rec(c, d - 1))
        if s.current_player() == root or s.num_players == 1:
            return max(vals)
        return min(vals)

    nodes += 1
    vals = []
    acts = moves(state)
    for a in acts:
        c = state.clone()
        c.apply_action(a)
        vals.append(rec(c, depth - 1))
    best = max(vals)
    return best, [a for a, v in zip(acts, vals, strict=False) if v == best], nodes


# ---------------------------------------------------------------------------
# The agent
# ---------------------------------------------------------------------------


#: The ``ai`` agent's levels for a game that declares none, and the Inland
#: Port's (its spec uses them).  The node budget is what normally ends a
#: search, so a game is reproduced by its seeds; the time cap only ends it on
#: a slow or busy machine.  Measured on the Inland Port (2-core VM shared with
#: other jobs): 2,000-8,000 nodes/s, so ai:normal takes ~0.7 s per move
#: (median) and never more than its 1 s cap; ai:hard up to 8 s.
LEVELS: Final[dict[str, Level]] = {
    "easy": Level("easy", max_depth=2, max_nodes=1_500, time_cap=4.0),
    "normal": Level("normal", max_depth=64, max_nodes=5_000, time_cap=10.0),
    "hard": Level("hard", max_depth=64, max_nodes=40_000, time_cap=60.0),
}


class SearchAgent:
    """The ``ai`` agent: iterative-deepening alpha-beta on a copy of the state.

    ``level`` is ``easy``, ``normal`` or ``hard``.  Its budgets, evaluation and
    the actions worth searching come from the spec of the game being played
    (``game``, or the state's own game, ``state.game``).  A
    decision with one action worth searching (or one legal action) is answered
    at once, without searching.  With ``think_time`` (seconds) the search runs
    on time instead of nodes, which is stronger on a fast machine but no
    longer reproducible from the seed.
    ``progress`` (also settable per call) is called with a dict (depth, nodes,
    elapsed, nps, best, score) after each finished depth and every few
    thousand nodes, e.g. to turn a spinner.

    After each :meth:`choose`, :attr:`last_info` holds: ``action``, ``pv``
    (action texts), ``score``, ``depth``, ``nodes``, ``nps``, ``time``,
    ``tt_probes``, ``tt_hits``, ``tt_hit_rate``, ``alternatives`` (root moves
    with their scores at the last depth, best first; only the best is exact,
    the rest are bounds), ``terms`` (the evaluation terms of the position at
    the end of the principal variation, for the AI's seat) and ``level``.
    ``evaluator`` (an :class:`~core.protocol.Evaluator`) replaces the game's
    (other weights, experiments).

    ``noise`` (evaluation points, about francs) varies the play for
    playtests: at the root every move within ``noise`` of the best is scored
    exactly and one of them is drawn with the move's seed (the agent's seed
    and the number of decisions so far).  The same seeds give the same game;
    different seeds give different draws.  ``last_info["candidates"]`` says
    how many moves were in the draw.
    """

    def __init__(
        self,
        level: str | None = "normal",
        think_time: ThinkTime | None = None,
        seed: int = 0,
        progress: ProgressCallback | None = None,
        max_nodes: int | None = None,
        max_depth: int | None = None,
        evaluator: Evaluator | None = None,
        game: GameSpec | None = None,
        noise: Noise = NO_NOISE,
        time_cap: bool = True,
    ) -> None:
        level = (level or (game.default_level if game else "normal")).strip().lower()
        levels = game.ai_levels if game is not None else LEVELS
        if level not in levels:
            raise ValueError(f"unknown AI level '{level}' (allowed: {', '.join(levels)})")
        self.game = game
        #: the level's budgets in ``game`` (without a game: :data:`LEVELS`'s)
        self.level = levels[level]
        self.name = f"ai:{level}"
        self.think_time = think_time
        self.seed = seed
        self.progress = progress
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.evaluator = evaluator
        #: choose at random (seeded by the agent's seed and the move) among root moves within this of the best
        self.noise = noise
        #: False: the node budget alone ends a search, however long it takes (the long measurements)
        self.time_cap = time_cap
        self.last_info: dict[str, Any] = {}

    def game_of(self, state: GameState) -> GameSpec:
        """The spec of the game ``state`` belongs to (the agent's own ``game`` first)."""
        return self.game if self.game is not None else state.game

    def level_for(self, state: GameState) -> Level:
        """This agent's level with the budgets of ``state``'s game."""
        levels = self.game_of(state).ai_levels
        if self.level.name not in levels:
            raise ValueError(f"unknown AI level '{self.level.name}' (allowed: {', '.join(levels)})")
        return levels[self.level.name]

    def searcher(
        self,
        seed: int,
        progress: ProgressCallback | None = None,
        level: Level | None = None,
        game: GameSpec | None = None,
    ) -> Searcher:
        """The search for one move: ``level``'s budgets (default: the agent's), or ``think_time``.

        ``game`` supplies the evaluator unless the agent was given its own (neither: the searched state's game's).
        """
        lv = level or self.level
        evaluator = self._evaluator(game) if game is not None else self.evaluator
        free = game.forced_moves_free if game is not None else None
        if self.think_time is not None:
            return Searcher(
                max_depth=self.max_depth or lv.max_depth,
                max_nodes=self.max_nodes,
                time_limit=self.think_time,
                seed=seed,
                progress=progress,
                evaluator=evaluator,
                noise=self.noise,
                forced_moves_free=free,
            )
        return Searcher(
            max_depth=self.max_depth or lv.max_depth,
            max_nodes=self.max_nodes or lv.max_nodes,
            time_limit=lv.time_cap if self.time_cap else None,
            seed=seed,
            progress=progress,
            evaluator=evaluator,
            noise=self.noise,
            forced_moves_free=free,
        )

    def _evaluator(self, game: GameSpec) -> Evaluator:
        """The agent's own evaluator, else ``game``'s."""
        return self.evaluator if self.evaluator is not None else game.evaluator

    def choose(self, state: GameState[A], progress: ProgressCallback | None = None) -> A:
        me = state.current_player()
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action to choose from")
        t0 = time.perf_counter()
        game = self.game_of(state)
        level = self.level_for(state)
        seed = derive_seed(self.seed, MOVE, len(state.history))
        by_text = {str(a): a for a in legal}
        only = legal if len(legal) == 1 else self._worth_searching(state, game)
        if len(only) == 1 and str(only[0]) in by_text:
            # One legal action, or one worth searching: answered without searching.
            action = by_text[str(only[0])]
            value = float(self._evaluator(game).evaluate(state, me))
            self.last_info = {
                "action": str(action),
                "pv": [str(action)],
                "score": value,
                "depth": 0,
                "nodes": 0,
                "nps": 0.0,
                "time": time.perf_counter() - t0,
                "tt_probes": 0,
                "tt_hits": 0,
                "tt_hit_rate": 0.0,
                "alternatives": [(str(action), value)],
                "terms": evaluation_terms(state, me, self._evaluator(game)),
                "level": level.name,
                "forced": True,
            }
            return action
        # Search a copy in which everything this seat cannot see is resampled.
        # (from a copy without the game's action list: the search copies its position at every node)
        view = state.copy_for_search().determinize(me, random.Random(seed))
        result = self.searcher(seed, progress or self.progress, level=level, game=game).search(view)
        # Map back by canonical text, so the action is one of *this* state's.
        action = by_text.get(str(result.action), legal[0])
        leaf = view.clone()
        for a in result.pv:
            leaf.apply_action(a)
        self.last_info = {
            "action": str(action),
            "pv": [str(a) for a in result.pv],
            "score": result.score,
            "depth": result.depth,
            "nodes": result.nodes,
            "nps": result.nps,
            "time": time.perf_counter() - t0,
            "tt_probes": result.tt_probes,
            "tt_hits": result.tt_hits,
            "tt_hit_rate": result.tt_hit_rate,
            "alternatives": result.root_scores,
            "terms": evaluation_terms(leaf, me, self._evaluator(game)),
            "level": level.name,
            "forced": False,
            "exhausted": result.exhausted,
            "candidates": result.candidates,
        }
        return action

    def _worth_searching(self, state: GameState[A], game: GameSpec) -> list[A]:
        return list(self._evaluator(game).search_actions(state))
