"""Le Havre: The Inland Port: two players, twelve rounds A-L.

The game declares itself once, as :data:`RULESET` (a
:class:`core.protocol.GameSpec`); see :mod:`core.games` for how generic code
finds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from core.cards import DataFileError
from core.protocol import DataTuning, GameError, GameSpec
from core.search import LEVELS
from inland_port import evaluate
from inland_port.buildings import Catalog, default_catalog, load_catalog, tunable_fields, write_buildings
from inland_port.shipped import data_path, default_name, shipped_names
from inland_port.state import InlandState
from inland_port.view_model import inland_view


class InlandOptions(BaseModel):
    """Options of an Inland Port game; ``buildings`` replaces the default building data: a file's path,
    or the name of a data file shipped with the game (``buildings-2026-11``)."""

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
    """The buildings in use: the ``--buildings`` file or shipped data, else the default data."""
    opts = parse_options(options)
    if not opts.buildings:
        return default_catalog()
    path = data_path(opts.buildings)
    if not path.exists():
        raise DataFileError(
            f"{opts.buildings}: no such file, and no building data of that name is shipped with the game "
            f"(give a data file, or one of: {', '.join(shipped_names())})"
        )
    return load_catalog(path)


def new_game(seed: int = 0, options: InlandOptions | dict[str, Any] | None = None) -> InlandState:
    """A game set up from ``seed`` (the Inland Port's setup draws nothing from it)."""
    return InlandState(catalog(options), seed=seed)


def data_digest(options: InlandOptions | dict[str, Any] | None = None) -> str:
    """Hash of the buildings and warehouse grid in use (recorded in saves)."""
    return catalog(options).digest


def data_name(options: InlandOptions | dict[str, Any] | None = None) -> str:
    """Which building data ``options`` use, in words: a shipped file's name (and whether it is the
    default) or the path of another file."""
    given = parse_options(options).buildings
    if given is None or data_path(given) == data_path(None):
        return f"{default_name()} (the default)"
    return given if data_path(given) != Path(given) else f"the file {given}"


def data_by_digest(options: InlandOptions | dict[str, Any] | None, digest: str) -> dict[str, Any] | None:
    """The options that play a game saved with the default data of its day with that data, found by
    its ``digest`` among the shipped files; None for a game whose options chose its data (a file whose
    data changed is not replaced); GameError naming the digest and the data shipped when none has it."""
    if parse_options(options).buildings is not None:
        return None
    shipped = {name: data_digest({"buildings": name}) for name in shipped_names()}
    found = [name for name, d in shipped.items() if d == digest]
    if found:
        return {"buildings": found[0]}
    default = default_name()
    listed = ", ".join(f"{n} (digest {d}{', the default' if n == default else ''})" for n, d in shipped.items())
    raise GameError(f"no building data of digest {digest} is shipped with this lehavre; it ships {listed}")


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
    data_by_digest=data_by_digest,
    tuning=DataTuning(fields=tunable_fields, write=write_buildings),
    # ending the turn after the main action, when no sale is worth searching, costs the search no depth
    forced_moves_free=True,
    view=inland_view,
)

__all__ = [
    "RULESET",
    "InlandOptions",
    "catalog",
    "data_by_digest",
    "data_digest",
    "data_name",
    "new_game",
    "parse_options",
]
