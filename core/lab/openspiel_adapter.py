"""Expose a game of :mod:`core.protocol` as an OpenSpiel Python game.

Optional: needs the extra ``lehavre[openspiel]`` (``open_spiel``).  The
adapter is thin: every rule question is answered by the wrapped
:class:`~core.protocol.GameState`; the adapter only translates.

Actions are integer ids: id ``i`` is the ``i``-th entry of the state's
``legal_actions()`` (a deterministic enumeration per state, as the protocol
requires), so ``legal_actions()`` is always ``0 .. n-1``.  The game declares
``MAX_ACTIONS`` distinct actions and refuses (loudly) a state with more.
Returns are the protocol's zero-sum ``returns()`` (win +1, loss -1, tie 0).

The game's OpenSpiel ``GameType`` and ``GameInfo`` are read from its
:class:`~core.protocol.GameSpec` (name, title, player counts, whether it has
hidden information); the adapter imports no game.  Usage::

    from core.lab.openspiel_adapter import load_game
    game = load_game("inland")            # or a GameSpec; registers python_lehavre_inland
    state = game.new_initial_state()
    # ... any OpenSpiel algorithm, e.g. open_spiel.python.algorithms.mcts.MCTSBot
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pyspiel

from core.games import game_spec
from core.protocol import GameSpec, GameState

MAX_ACTIONS = 4096
MAX_GAME_LENGTH = 10_000

_CLASSES: dict[str, type[ProtocolGame]] = {}


class ProtocolGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel.Game is Any (untyped C extension)
    """A pyspiel game whose states wrap protocol states made by a factory.

    :func:`load_game` makes one subclass per game, with the class attributes
    set, and registers that class with pyspiel."""

    game_type: Any = None
    game_info: Any = None
    factory: Callable[[int], GameState] | None = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(self.game_type, self.game_info, params or {})
        self._seed = int((params or {}).get("seed", 0))

    def new_initial_state(self, inner: GameState | None = None) -> ProtocolState:
        if inner is None:
            factory = type(self).factory
            if factory is None:  # only the classes load_game registers have one
                raise TypeError(f"{type(self).__name__} has no state factory: register the game with load_game")
            inner = factory(self._seed)
        return ProtocolState(self, inner)


class ProtocolState(pyspiel.State):  # type: ignore[misc]  # pyspiel.State is Any (untyped C extension)
    """An OpenSpiel state wrapping one protocol state (``self.inner``)."""

    def __init__(self, game: ProtocolGame, inner: GameState) -> None:
        super().__init__(game)
        self.inner = inner

    # -- what OpenSpiel asks ----------------------------------------------
    def current_player(self) -> int:
        if self.inner.is_terminal():
            terminal: int = pyspiel.PlayerId.TERMINAL  # an IntEnum member
            return terminal
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        n = len(self.inner.legal_actions())
        if n > MAX_ACTIONS:
            raise RuntimeError(f"{n} legal actions exceed the adapter's MAX_ACTIONS={MAX_ACTIONS}")
        return list(range(n))

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(self.inner.legal_actions()[action])

    def _action_to_string(self, player: int, action: int) -> str:
        legal = self.inner.legal_actions()
        return str(legal[action]) if 0 <= action < len(legal) else f"<action {action}>"

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.inner.is_terminal():
            return [0.0] * self.inner.num_players
        return [float(x) for x in self.inner.returns()]

    def clone(self) -> ProtocolState:
        return ProtocolState(self.get_game(), self.inner.clone())

    def __deepcopy__(self, memo: Any) -> ProtocolState:
        return self.clone()

    def __str__(self) -> str:
        return f"{self.inner.ruleset} after {len(self.inner.history)} decisions: " + "; ".join(self.inner.history[-3:])


def load_game(spec: GameSpec | str, seed: int = 0, num_players: int | None = None, options: Any = None) -> ProtocolGame:
    """Register (once) and return the pyspiel game of ``spec`` (a spec or an installed game's name).

    ``num_players`` is needed only for a game with several player counts.
    """
    spec = game_spec(spec)
    if num_players is None:
        if spec.min_players != spec.max_players:
            raise ValueError(f"{spec.title} is for {spec.min_players} to {spec.max_players} players: give num_players")
        num_players = spec.min_players
    opts = spec.parse_options(options)

    def factory(s: int) -> GameState:
        return spec.new_game(s, opts)

    return _register(
        factory,
        name=f"lehavre_{spec.name}",
        num_players=num_players,
        long_name=f"{spec.title} (lehavre)",
        seed=seed,
        perfect_information=spec.perfect_information,
    )


def _register(
    factory: Callable[[int], GameState],
    name: str,
    num_players: int = 2,
    long_name: str | None = None,
    seed: int = 0,
    perfect_information: bool = True,
) -> ProtocolGame:
    """Register (once) and return a pyspiel game for ``factory(seed)`` states."""
    short = f"python_{name}"
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=long_name or name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=num_players,
        min_num_players=num_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"seed": 0},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=MAX_ACTIONS,
        max_chance_outcomes=0,
        num_players=num_players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )

    if short not in _CLASSES:
        # type() with ProtocolGame as the base makes a subclass of it
        cls = cast(
            "type[ProtocolGame]",
            type(
                f"ProtocolGame_{name}",
                (ProtocolGame,),
                {"game_type": game_type, "game_info": game_info, "factory": staticmethod(factory)},
            ),
        )
        _CLASSES[short] = cls
        pyspiel.register_game(game_type, cls)
    return _CLASSES[short]({"seed": seed})


class TimedMCTSAgent:
    """OpenSpiel's ``MCTSBot`` as a protocol agent, given a wall time per move, or a fixed number of
    simulations per move (``simulations``: then the machine's load changes nothing, as a node budget).

    ``evaluator`` is ``"rollout"`` (random rollouts to the end: OpenSpiel's
    ``RandomRolloutEvaluator``) or ``"eval"`` (the game's own evaluation,
    squashed to a value in (-1, 1) by ``tanh(margin / scale)``: :class:`GameEvaluator`).
    ``MCTSBot`` counts simulations, not time; to give it a wall time per
    move, the number of simulations for each move is set from the rate
    measured on the previous moves (simulations per second), so its time per
    move tracks ``think_time``.  In a game with hidden information the search
    runs on a determinised copy for the player to move (``state.determinize``),
    so it never sees what that player could not see at the table.
    ``last_info`` holds the simulations and time.
    """

    def __init__(
        self,
        think_time: float = 1.0,
        seed: int = 0,
        uct_c: float = 2.0,
        rollouts: int = 1,
        evaluator: str = "rollout",
        scale: float = 20.0,
        simulations: int | None = None,
    ) -> None:
        from open_spiel.python.algorithms import mcts

        if evaluator not in ("rollout", "eval"):
            raise ValueError(f"unknown MCTS evaluator '{evaluator}' (allowed: rollout, eval)")
        self.name = "mcts" if evaluator == "rollout" else "mcts:eval"
        self.think_time = think_time
        self._mcts = mcts
        self._rng = np.random.RandomState(np.random.MT19937(seed))  # any size of seed (derived seeds have 60 bits)
        self._pyrng = random.Random(seed)
        if simulations is not None and simulations < 2:
            raise ValueError("MCTS needs at least 2 simulations a move")
        self.simulations = simulations
        if evaluator == "rollout":
            self._evaluator: Any = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=self._rng)
        else:
            self._evaluator = GameEvaluator(scale)
        self._uct_c = uct_c
        self._rate: float | None = None  # simulations per second
        self.last_info: dict[str, Any] = {}

    def choose(self, state: GameState) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_info = {"simulations": 0, "time": 0.0}
            return legal[0]
        game = _game_for(state)
        view = state.determinize(state.current_player(), self._pyrng)
        wrapped = game.new_initial_state(view)
        if self.simulations is not None:
            sims = self.simulations
        else:
            sims = 20 if self._rate is None else max(2, int(self._rate * self.think_time))
        bot = self._mcts.MCTSBot(game, self._uct_c, sims, self._evaluator, solve=True, random_state=self._rng)
        t0 = time.perf_counter()
        action_id = bot.step(wrapped)
        dt = max(time.perf_counter() - t0, 1e-6)
        rate = sims / dt
        self._rate = rate if self._rate is None else 0.5 * self._rate + 0.5 * rate
        self.last_info = {"simulations": sims, "time": dt}
        # the determinised copy lists the same actions in the same order (the protocol's
        # enumeration depends only on what the player can see); map back by text to be safe
        chosen = str(view.legal_actions()[action_id])
        return next((a for a in legal if str(a) == chosen), legal[action_id])


#: ``mcts`` or ``mcts:eval``, then ``@sims=N`` (simulations a move)
MCTS_TEXT = re.compile(r"^(mcts(?::eval)?)@sims=(\d+)$")


def fixed_mcts(spec: str, seed: int) -> TimedMCTSAgent:
    """The MCTS agent of ``mcts@sims=N`` (random rollouts) or ``mcts:eval@sims=N`` (the game's evaluation)
    with ``N`` simulations a move; ValueError for another text."""
    match = MCTS_TEXT.match(spec.strip().lower())
    if match is None:
        raise ValueError(f"'{spec}' is not an MCTS agent with a simulation budget (e.g. mcts:eval@sims=400)")
    kind, sims = match.group(1), int(match.group(2))
    agent = TimedMCTSAgent(seed=seed, evaluator="eval" if kind == "mcts:eval" else "rollout", simulations=sims)
    agent.name = spec.strip()
    return agent


class GameEvaluator:
    """An OpenSpiel MCTS evaluator from the game's own evaluation, not rollouts.

    A leaf is worth ``tanh(evaluate(state, p) / scale)`` to each player ``p``
    (the evaluation is a margin in francs; ``scale`` francs is a clear lead);
    a finished game its true returns.  Priors are uniform.
    """

    def __init__(self, scale: float = 20.0) -> None:
        self.scale = scale

    def evaluate(self, state: Any) -> Any:
        inner: GameState = state.inner
        if inner.is_terminal():
            return np.array(state.returns(), dtype=float)
        value = inner.game.evaluator.evaluate
        values = []
        for p in range(inner.num_players):
            v = value(inner, p)
            values.append(math.tanh(float(v) / self.scale))
        return np.array(values)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


_GAMES: dict[str, ProtocolGame] = {}


def _no_factory(seed: int) -> GameState:
    raise ValueError("this adapter game wraps states supplied by the caller; pass one to new_initial_state")


def _game_for(state: GameState) -> ProtocolGame:
    """The pyspiel game used to wrap ``state`` (one per rule set)."""
    name = f"lehavre_{state.ruleset}_wrapped_{state.num_players}"
    if name not in _GAMES:
        _GAMES[name] = _register(_no_factory, name=name, num_players=state.num_players)
    return _GAMES[name]
