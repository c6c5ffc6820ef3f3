"""Evaluation weights as data: a game whose evaluation is a weighted sum of named terms reads its
weights from a JSON file (:class:`WeightsFile`, with the provenance of the values).

This is a plain data helper on the engine floor: the games read their weights here, and the tuner
(:mod:`core.lab.tuning`) writes them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.protocol import GameError


class TuningError(GameError):
    """A weights file or a tuning request that cannot be used; the message says why."""


# ---------------------------------------------------------------------------
# Weights as data
# ---------------------------------------------------------------------------


class Provenance(BaseModel):
    """Where a set of weights comes from."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(description="the command that produced the weights")
    games: int = Field(ge=0, description="self-play games the positions came from (0: set by hand)")
    positions: int = Field(ge=0, description="positions the weights were fitted on")
    date: str = Field(description="when (UTC, ISO 8601)")
    note: str = ""


class WeightsFile(BaseModel):
    """One game's evaluation weights (``eval_weights.json``)."""

    model_config = ConfigDict(extra="forbid")

    game: str
    weights: dict[str, float]
    provenance: Provenance
    #: the fit's figures (scale K, log-losses, match result), if the weights were fitted
    fit: dict[str, Any] = Field(default_factory=dict)


def load_weights(path: str | Path, terms: Sequence[str]) -> WeightsFile:
    """Read and check a weights file: exactly one finite weight per term in ``terms``."""
    p = Path(path)
    try:
        data = WeightsFile.model_validate_json(p.read_bytes())
    except OSError as exc:
        raise TuningError(f"cannot read the evaluation weights {p}: {exc.strerror or exc}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ()))
        raise TuningError(f"the evaluation weights {p} are not valid: {where}: {err.get('msg', 'invalid')}") from None
    missing = [t for t in terms if t not in data.weights]
    extra = [t for t in data.weights if t not in terms]
    if missing or extra:
        raise TuningError(
            f"the evaluation weights {p} must give one weight for each term ({', '.join(terms)});"
            + (f" missing: {', '.join(missing)}" if missing else "")
            + (f" unknown: {', '.join(extra)}" if extra else "")
        )
    bad = [t for t, w in data.weights.items() if not math.isfinite(w)]
    if bad:
        raise TuningError(f"the evaluation weights {p}: the weights of {', '.join(bad)} must be finite numbers")
    return data


def write_weights(path: str | Path, data: WeightsFile) -> Path:
    """Write a weights file (indented JSON, terms in their order)."""
    p = Path(path)
    p.write_text(json.dumps(data.model_dump(), indent=2) + "\n")
    return p
