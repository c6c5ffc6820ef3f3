"""Le Havre: The Inland Port (seeds/004): two players, twelve rounds A-L."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from inland_port.buildings import Catalog, default_catalog, load_catalog


class InlandOptions(BaseModel):
    """Options of an Inland Port game; ``buildings`` replaces the building file."""

    model_config = ConfigDict(extra="forbid")
    buildings: str | None = None


class _InlandRuleset:
    name = "inland"
    title = "Le Havre: The Inland Port"
    options_model = InlandOptions
    min_players = max_players = 2

    def catalog(self, options: InlandOptions | dict | None = None) -> Catalog:
        opts = self.parse_options(options)
        return load_catalog(Path(opts.buildings)) if opts.buildings else default_catalog()

    def parse_options(self, options: InlandOptions | dict | None) -> InlandOptions:
        if options is None:
            return InlandOptions()
        if isinstance(options, InlandOptions):
            return options
        return InlandOptions.model_validate(options)

    def new_game(self, seed: int = 0, options: InlandOptions | dict | None = None):
        from inland_port.state import InlandState

        return InlandState(self.catalog(options), seed=seed)


RULESET = _InlandRuleset()
