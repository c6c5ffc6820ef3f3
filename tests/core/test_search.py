"""Tests of the generic search (core/search.py) on small synthetic games.

The games here implement core.protocol.GameState but no real rules: a random
game tree (with players that may move several times in a row, and with 1-3
players) and a "take the items" game with transpositions.  The search is
checked against an independent brute-force minimax.
"""

from __future__ import annotations

import hashlib
import math
import random

import pytest
from pydantic import BaseModel

from core.protocol import TERMINAL, Evaluator, GameSpec, GameState
from core.search import LEVELS, WIN_BONUS, Searcher, minimax_value, terminal_value


def _h(*parts) -> int:
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "big")


class TreeGame(GameState):
    """A random tree: ``depth`` plies, ``branching`` moves per node.

    Who moves at a node is drawn from the tree's seed, so the same player
    often moves several times in a row.  Leaves carry random wealth; inner
    nodes a random heuristic evaluation (distinct values, so the best move is
    unique)."""

    ruleset = "tree"

    def __init__(self, seed: int, depth: int, branching: int, num_players: int = 2, path: tuple = ()) -> None:
        self.seed, self.depth, self.branching, self.num_players, self.path = seed, depth, branching, num_players, path
        self.history = [str(m) for m in path]

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return _h(self.seed, "who", self.path) % self.num_players

    def legal_actions(self):
        nb = 1 + _h(self.seed, "nb", self.path) % self.branching
        return [f"m{i}" for i in range(nb)]

    def apply_action(self, action) -> None:
        self.path = self.path + (action,)
        self.history.append(action)

    def clone(self):
        return TreeGame(self.seed, self.depth, self.branching, self.num_players, self.path)

    def is_terminal(self) -> bool:
        return len(self.path) >= self.depth

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        return {"coins": _h(self.seed, "w", self.path, player) % 1000}

    def heuristic(self, player: int) -> float:
        return (_h(self.seed, "e", self.path, player) % 100_000) / 7.0 - 5000.0

    def key(self):
        return self.path


class _NoOptions(BaseModel):
    pass


#: the tree's one evaluator (its random heuristic), declared by its spec as a real game's is
TREE_EVALUATOR = Evaluator(
    evaluate=lambda s, p: s.heuristic(p),
    terms=lambda s, p: {"heuristic": s.heuristic(p)},
    search_actions=lambda s: s.legal_actions(),
)


def toy_spec(state: type[GameState], new_game, **kw) -> GameSpec:
    """A toy game's spec: the search's levels; given to ``state`` as a real game's is."""
    return GameSpec(
        name=state.ruleset,
        title=f"{state.__name__} (a toy game for tests)",
        state=state,
        options_model=_NoOptions,
        new_game=new_game,
        min_players=1,
        max_players=3,
        ai_levels=LEVELS,
        **kw,
    )


TREE = toy_spec(TreeGame, lambda seed, options: TreeGame(seed, depth=4, branching=3), evaluator=TREE_EVALUATOR)


class TakeGame(GameState):
    """Players take items from a pool in turn; an even item earns another
    move (no sign flip for that).  Ends when ``picks`` items are taken;
    wealth = sum of items taken.  Orders of picks transpose."""

    ruleset = "take"

    def __init__(self, items: tuple[int, ...], picks: int, num_players: int = 2) -> None:
        self.pool = tuple(sorted(items))
        self.picks_left = picks
        self.num_players = num_players
        self.sums = [0] * num_players
        self.turn = 0
        self.history = []

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn

    def legal_actions(self):
        return [f"take {v}" for v in sorted(set(self.pool))]

    def apply_action(self, action) -> None:
        v = int(action.split()[1])
        pool = list(self.pool)
        pool.remove(v)
        self.pool = tuple(pool)
        self.sums[self.turn] += v
        self.picks_left -= 1
        if v % 2:
            self.turn = (self.turn + 1) % self.num_players
        self.history.append(action)

    def clone(self):
        c = TakeGame.__new__(TakeGame)
        c.pool, c.picks_left, c.num_players = self.pool, self.picks_left, self.num_players
        c.sums, c.turn, c.history = list(self.sums), self.turn, list(self.history)
        return c

    def is_terminal(self) -> bool:
        return self.picks_left == 0 or not self.pool

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        return {"items": self.sums[player]}

    def key(self):
        return (self.pool, self.picks_left, tuple(self.sums), self.turn)


#: no evaluator declared: the wealth margin over every legal action
TAKE = toy_spec(TakeGame, lambda seed, options: TakeGame((1, 2, 3, 4), picks=3))


def brute_force(state: GameState, depth: int, root: int) -> tuple[float, list[str]]:
    """Independent paranoid minimax: root maximises, everybody else minimises."""

    def leaf(s: GameState) -> float:
        if s.is_terminal():
            w = s.wealth()
            if len(w) == 1:
                return float(w[0])
            m = w[root] - max(x for p, x in enumerate(w) if p != root)
            return (WIN_BONUS if m > 0 else -WIN_BONUS if m < 0 else 0.0) + m
        return s.game.evaluator.evaluate(s, root)

    def rec(s: GameState, d: int) -> float:
        if s.is_terminal() or d == 0:
            return leaf(s)
        vals = []
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            vals.append(rec(c, d - 1))
        return max(vals) if s.current_player() == root else min(vals)

    scored = []
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        scored.append((rec(c, depth - 1), a))
    best = max(v for v, _ in scored)
    return best, [a for v, a in scored if v == best]


def test_terminal_value_makes_wins_dominate():
    g = TreeGame(1, depth=1, branching=1)
    g.apply_action("m0")
    w = g.wealth()
    m = w[0] - w[1]
    v = terminal_value(g, 0)
    assert v == (math.copysign(WIN_BONUS, m) + m if m else 0.0)
    assert terminal_value(g, 1) == -v


@pytest.mark.parametrize("num_players", [2, 3])
@pytest.mark.parametrize("seed", range(12))
def test_alphabeta_matches_brute_force_value_and_move(seed, num_players):
    g = TreeGame(seed, depth=5, branching=4, num_players=num_players)
    root = g.current_player()
    for depth in (1, 2, 3, 5):
        value, moves = brute_force(g, depth, root)
        r = Searcher(max_depth=depth, seed=seed).search(g)
        assert r.score == pytest.approx(value)
        assert str(r.action) in moves
        assert len(moves) == 1  # distinct leaf values: the best move is unique


def test_same_player_moving_again_is_not_sign_flipped():
    # a tree in which the root player moves twice in a row somewhere
    found = 0
    for seed in range(200):
        g = TreeGame(seed, depth=4, branching=3)
        a = g.legal_actions()[0]
        c = g.clone()
        c.apply_action(a)
        if c.current_player() != g.current_player():
            continue
        found += 1
        value, moves = brute_force(g, 4, g.current_player())
        r = Searcher(max_depth=4, seed=seed).search(g)
        assert r.score == pytest.approx(value) and str(r.action) in moves
    assert found >= 20


def test_single_player_maximises_everywhere():
    g = TreeGame(7, depth=4, branching=3, num_players=1)
    value, moves = brute_force(g, 4, 0)
    r = Searcher(max_depth=4).search(g)
    assert r.score == pytest.approx(value) and str(r.action) in moves


@pytest.mark.parametrize("num_players", [2, 3])
def test_take_game_with_extra_moves_and_transpositions(num_players):
    rng = random.Random(num_players)
    for _ in range(6):
        items = tuple(rng.randint(1, 20) for _ in range(7))
        g = TakeGame(items, picks=6, num_players=num_players)
        value, moves = brute_force(g, 6, 0)
        for kw in ({}, {"use_tt": False}, {"iterative": False}, {"ordering": False}):
            r = Searcher(max_depth=6, **kw).search(g)
            assert r.score == pytest.approx(value), kw
            assert str(r.action) in moves, kw
            if kw == {}:
                assert r.tt_hits > 0  # the pick orders transpose


@pytest.mark.parametrize("seed", range(8))
def test_tt_and_iterative_deepening_agree_with_plain_search(seed):
    g = TreeGame(seed, depth=6, branching=4)
    for depth in (2, 3, 4):
        plain = Searcher(
            max_depth=depth, alphabeta=False, use_tt=False, ordering=False, iterative=False, shuffle_root=False
        ).search(g)
        for kw in (
            {"use_tt": True, "iterative": False},
            {"use_tt": False, "iterative": True},
            {"use_tt": True, "iterative": True},
        ):
            r = Searcher(max_depth=depth, seed=seed, **kw).search(g)
            assert r.score == pytest.approx(plain.score)
            assert r.action == plain.action


def test_alphabeta_visits_fewer_nodes_than_minimax():
    g = TreeGame(3, depth=6, branching=5)
    _, _, mm_nodes = minimax_value(g, 5)
    plain = Searcher(max_depth=5, alphabeta=False, use_tt=False, ordering=False, iterative=False).search(g)
    ab = Searcher(max_depth=5).search(g)
    assert plain.nodes == mm_nodes
    assert ab.nodes < plain.nodes
    assert ab.score == pytest.approx(plain.score)


def test_minimax_value_helper_matches_brute_force():
    g = TreeGame(11, depth=4, branching=3, num_players=3)
    v, moves, _ = minimax_value(g, 4)
    bv, bmoves = brute_force(g, 4, g.current_player())
    assert v == pytest.approx(bv) and [str(m) for m in moves] == bmoves


def test_node_budget_with_seed_is_deterministic_and_respected():
    g = TreeGame(5, depth=12, branching=5)
    a = Searcher(max_nodes=3000, seed=9).search(g)
    b = Searcher(max_nodes=3000, seed=9).search(g)
    assert (a.action, a.score, a.depth, a.nodes, [str(x) for x in a.pv]) == (
        b.action,
        b.score,
        b.depth,
        b.nodes,
        [str(x) for x in b.pv],
    )
    assert a.nodes <= 3001
    assert not a.completed
    assert a.action in g.legal_actions()


def test_exhausted_tree_stops_deepening():
    g = TreeGame(2, depth=3, branching=3)
    r = Searcher(max_depth=50).search(g)
    assert r.exhausted and r.depth <= 3
    value, moves = brute_force(g, 3, g.current_player())
    assert r.score == pytest.approx(value) and r.action in moves


def test_principal_variation_is_playable_and_reaches_the_score():
    g = TreeGame(4, depth=4, branching=3)
    r = Searcher(max_depth=4).search(g)
    s = g.clone()
    for a in r.pv:
        assert a in s.legal_actions()
        s.apply_action(a)
    assert s.is_terminal()
    w = s.wealth()
    root = g.current_player()
    m = w[root] - w[1 - root]
    assert r.score == pytest.approx((math.copysign(WIN_BONUS, m) if m else 0.0) + m)


def test_progress_callback_is_called_per_depth():
    seen = []
    Searcher(max_depth=4, progress=seen.append, progress_every=50).search(TreeGame(6, depth=6, branching=4))
    depths = [d["depth"] for d in seen]
    assert {1, 2, 3, 4} <= set(depths)
    assert all("nodes" in d and "nps" in d for d in seen)


def test_search_needs_a_budget_and_an_unfinished_game():
    with pytest.raises(ValueError):
        Searcher()
    g = TreeGame(1, depth=1, branching=2)
    g.apply_action("m0")
    with pytest.raises(ValueError):
        Searcher(max_depth=2).search(g)


class CounterGame(GameState):
    """Count to ``goal``: '+1' passes the turn, '+2' lets the same player go
    again; the mover scores ``(n * 7) % 5`` for the number ``n`` reached.
    The same position (count, turn, scores) is reached at different plies."""

    ruleset = "counter"

    def __init__(self, goal: int) -> None:
        self.goal, self.n, self.turn, self.points, self.num_players, self.history = goal, 0, 0, [0, 0], 2, []

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn

    def legal_actions(self):
        return ["+1", "+2"]

    def apply_action(self, action) -> None:
        self.n += int(action[1])
        self.points[self.turn] += (self.n * 7) % 5
        if action == "+1":
            self.turn = 1 - self.turn
        self.history.append(action)

    def clone(self):
        c = CounterGame(self.goal)
        c.n, c.turn, c.points, c.history = self.n, self.turn, list(self.points), list(self.history)
        return c

    def is_terminal(self) -> bool:
        return self.n >= self.goal

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        return {"points": self.points[player]}

    def key(self):
        return (self.n, self.turn, tuple(self.points))


COUNTER = toy_spec(CounterGame, lambda seed, options: CounterGame(8))


@pytest.mark.parametrize("goal", [5, 8, 11])
def test_exhausted_search_with_transpositions_at_different_plies(goal):
    g = CounterGame(goal)
    value, moves = brute_force(g, goal, 0)
    r = Searcher(max_depth=100).search(g)
    assert r.exhausted
    assert r.score == pytest.approx(value) and r.action in moves
    for depth in range(1, goal + 1):
        plain = brute_force(g, depth, 0)[0]
        assert Searcher(max_depth=depth, use_tt=False).search(g).score == pytest.approx(plain)
