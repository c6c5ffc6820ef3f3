"""Le Havre, the base game (1-5 players, full and short versions).

The game declares itself once, as :data:`RULESET` (a
:class:`core.protocol.GameSpec`): ``RULESET.new_game(seed, options)`` gives a
:class:`base_game.state.BaseState` (see its module docstring for how a turn
is modelled and the rulings).
"""

from __future__ import annotations

import core  # noqa: F401  (the engine, compiled or pure, is chosen before any compiled module loads)
from base_game import evaluate
from base_game.ai import BASE_LEVELS
from base_game.data import data_digest as _files_digest
from base_game.setup import GameOptions, SetupError, new_game
from base_game.state import BaseState
from base_game.view import seat_setup
from base_game.view_model import base_view
from core.protocol import GameSpec


def data_digest(options: object = None) -> str:
    """Hash of the data files in use (recorded in saves to detect other data)."""
    return _files_digest()


RULESET = GameSpec(
    name="base",
    title="Le Havre",
    short_title="base game",
    state=BaseState,
    options_model=GameOptions,
    new_game=new_game,
    min_players=1,
    max_players=5,
    ai_levels=BASE_LEVELS,
    evaluator=evaluate.EVALUATOR,
    data_digest=data_digest,
    # face-down supply tiles and special buildings
    perfect_information=False,
    seat_setup=seat_setup,
    view=base_view,
)

__all__ = ["RULESET", "BaseState", "GameOptions", "SetupError", "new_game"]
