"""What each seat may see, and how a client rebuilds it.

The server never sends the true position of a game with hidden set-up: it sends the options and
seed of a game that replays the history as the receiver saw it (the game's
:attr:`core.protocol.GameSpec.seat_setup`; seed 0, the set-up given in full), and the actions' texts.
A game without hidden information sends its own options and seed.  :class:`ViewReplay` turns those
into the receiver's position, applying only the new actions while the set-up seen stays the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.protocol import ActionError, GameSpec, GameState, parse_action
from core.records import options_from_dict, options_to_dict

#: ``step(before, actor, action, after)``: called for every action a client has not seen yet
Step = Callable[[GameState, int, Any, GameState], None]


def seat_view(
    spec: GameSpec, seed: int, options: Any, setup: GameState, now: GameState, seat: int | None
) -> tuple[int, dict[str, Any]]:
    """The (seed, options) a client at ``seat`` (None: a spectator) rebuilds its position from."""
    if spec.seat_setup is None:
        return seed, options_to_dict(options)
    return 0, options_to_dict(spec.seat_setup(setup, now, seat))


def may_hear(spec: GameSpec, setup: GameState, before: GameState, actor: int, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may hear how ``actor`` explains its decision at ``before``:
    the actor searched its own view, so only a seat that saw the same (knew all the actor knew) may."""
    if spec.seat_setup is None or seat == actor:
        return True
    return bool(spec.seat_setup(setup, before, actor) == spec.seat_setup(setup, before, seat))


class ViewError(ActionError):
    """The server's actions do not replay on the set-up it sent (a server bug, or another version)."""


class ViewReplay:
    """A client's position, rebuilt from the server's (seed, options, actions)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.setup: tuple[int, dict[str, Any]] | None = None
        self.state: GameState | None = None
        #: every position before an action of this view, for 'undo' and the events (as in a local game)
        self.positions: list[GameState] = []

    def update(self, seed: int, options: dict[str, Any], actions: list[str], step: Step | None = None) -> GameState:
        """The position after ``actions``; ``step`` hears of every action not seen before."""
        seen = len(self.state.history) if self.state is not None else 0
        same = self.state is not None and self.setup == (seed, options) and self.state.history == actions[:seen]
        if not same:
            self.setup = (seed, options)
            self.state = self.spec.new_game(seed, options_from_dict(self.spec, options))
            self.positions = []
            start = 0
        else:
            start = seen
        state = self.state
        assert state is not None
        for k, text in enumerate(actions[start:], start):
            try:
                action = parse_action(state, text)
            except ActionError as exc:
                raise ViewError(f"action {k + 1} '{text}' does not replay here: {exc}") from None
            before = state.clone()
            actor = state.current_player()
            state.apply_action(action)
            self.positions.append(before)
            if step is not None and k >= seen:
                step(before, actor, action, state)
        return state
