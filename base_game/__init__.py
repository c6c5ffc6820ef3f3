"""Le Havre, the base game (1-5 players, full and short versions).

``RULESET.new_game(seed, options)`` gives a :class:`base_game.state.BaseState`
(see its module docstring for how a turn is modelled and the rulings).
"""

from __future__ import annotations

from typing import Any

from base_game.setup import GameOptions, SetupError, new_game
from base_game.state import BaseState


class BaseRuleset:
    name = "base"
    title = "Le Havre"
    Options = GameOptions

    def new_game(self, seed: int, options: Any = None) -> BaseState:
        return new_game(seed, options)


RULESET = BaseRuleset()

__all__ = ["RULESET", "BaseRuleset", "BaseState", "GameOptions", "SetupError", "new_game"]
