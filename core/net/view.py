"""What each seat may see, and how a client rebuilds it.

The server never sends the true position of a game with hidden set-up: it sends the options and
seed of a game that replays the history as the receiver saw it (the game's
:attr:`core.protocol.GameSpec.seat_setup`; seed 0, the set-up given in full), and the actions' texts.
A game without hidden information sends its own options and seed.  :class:`ViewReplay` turns those
into the receiver's position, applying only the new actions while the set-up seen stays the same.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.protocol import ActionError, GameError, GameSpec, GameState
from core.records import data_dir, options_from_dict, options_to_dict, replay_actions

#: the option naming a game's data file (as :class:`core.protocol.DataTuning` has it): the server sends
#: the file's contents, so a client needs no copy of it
DATA_OPTION = "buildings"

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
    """The data file the server sent cannot be used here."""


def data_of(options: dict[str, Any]) -> Any:
    """The contents of the data file the options name (None: the game's built-in data); OSError or
    ValueError if it cannot be read."""
    path = options.get(DATA_OPTION)
    return json.loads(Path(path).read_text(encoding="utf-8")) if path else None


def received_data(spec: GameSpec, data: Any) -> Path:
    """Keep the data file the server sent (in the data directory, named by its contents) after checking
    it as the game checks its own files; ViewError saying what is wrong with it."""
    text = json.dumps(data, indent=1, sort_keys=True)
    path = data_dir() / "received" / f"{spec.name}-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ViewError(f"cannot keep the host's data file in {path}: {exc.strerror or exc}") from None
    try:
        spec.data_digest(options_from_dict(spec, {DATA_OPTION: str(path)}))
    except GameError as exc:
        raise ViewError(f"the host's data file is not valid: {exc}") from None
    return path


class ViewReplay:
    """A client's position, rebuilt from the server's (seed, options, actions)."""

    def __init__(self, spec: GameSpec, data: Any = None) -> None:
        """``data``: the contents of the data file the game uses, as the server sent it (checked here)."""
        self.spec = spec
        self.data_path = received_data(spec, data) if data is not None else None
        self.setup: tuple[int, dict[str, Any]] | None = None
        self.state: GameState | None = None
        #: every position before an action of this view, for 'undo' and the events (as in a local game)
        self.positions: list[GameState] = []

    def update(self, seed: int, options: dict[str, Any], actions: list[str], step: Step | None = None) -> GameState:
        """The position after ``actions``; ``step`` hears of every action not seen before.  An action
        that does not replay raises :class:`core.records.ReplayError` (a server bug, or another version)."""
        if self.data_path is not None and options.get(DATA_OPTION):  # the host's path: this machine's copy
            options = {**options, DATA_OPTION: str(self.data_path)}
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
        for r in replay_actions(state, actions[start:], first=start + 1, keep_before=True):
            assert r.before is not None
            self.positions.append(r.before)
            if step is not None and r.number > seen:
                step(r.before, r.actor, r.action, state)
        return state
