"""Le Havre: The Inland Port: two players, twelve rounds A-L.

The game declares itself once, as :data:`RULESET` (a
:class:`core.protocol.GameSpec`); see :mod:`core.games` for how generic code
finds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from core.protocol import DataTuning, GameSpec
from core.search import LEVELS
from inland_port import evaluate
from inland_port.buildings import Catalog, default_catalog, load_catalog, tunable_fields, write_buildings
from inland_port.state import InlandState
from inland_port.view_model import inland_view


class InlandOptions(BaseModel):
    """Options of an Inland Port game; ``buildings`` replaces the building file."""

    model_config = ConfigDict(extra="forbid")
    buildings: str | None = None


def parse_options(options: InlandOptions | dict[str, Any] | None = None) -> InlandOptions:
    """``options`` as :class:`InlandOptions` (``None``: the defaults)."""
    if options is None:
        return InlandOptions()
    if isinstance(options, InlandOptions):
        return options
    return InlandOptions.model_validate(options)


def catalog(options: InlandOptions | dict[str, Any] | None = None) -> Catalog:
    """The buildings in use: the ``--buildings`` file, else the built-in data."""
    opts = parse_options(options)
    return load_catalog(Path(opts.buildings)) if opts.buildings else default_catalog()


def new_game(seed: int = 0, options: InlandOptions | dict[str, Any] | None = None) -> InlandState:
    """A game set up from ``seed`` (the Inland Port's setup draws nothing from it)."""
    return InlandState(catalog(options), seed=seed)


def data_digest(options: InlandOptions | dict[str, Any] | None = None) -> str:
    """Hash of the buildings and warehouse grid in use (recorded in saves)."""
    return catalog(options).digest


RULESET = GameSpec(
    name="inland",
    title="Le Havre: The Inland Port",
    short_title="Inland Port",
    state=InlandState,
    options_model=InlandOptions,
    new_game=new_game,
    min_players=2,
    max_players=2,
    # the search's levels were measured on the Inland Port (see core/search.py)
    ai_levels=LEVELS,
    evaluator=evaluate.EVALUATOR,
    data_digest=data_digest,
    tuning=DataTuning(fields=tunable_fields, write=write_buildings),
    # ending the turn after the main action, when no sale is worth searching, costs the search no depth
    forced_moves_free=True,
    view=inland_view,
)

__all__ = ["RULESET", "InlandOptions", "catalog", "data_digest", "new_game", "parse_options"]
