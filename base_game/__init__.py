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
    options_model = GameOptions

    def new_game(self, seed: int, options: Any = None) -> BaseState:
        return new_game(seed, options)

    @staticmethod
    def data_digest(options: Any = None) -> str:
        """Hash of the data files in use (recorded in saves to detect other data)."""
        from base_game.data import data_digest

        return data_digest()


RULESET = BaseRuleset()

__all__ = ["RULESET", "BaseRuleset", "BaseState", "GameOptions", "SetupError", "new_game"]
