"""Who sits where at a hosted game, and the file that keeps it (with the seat codes) beside the saved
game, so that ``lehavre host --resume NAME`` restarts the server and the players rejoin with their codes.
(The game itself is played at a :class:`core.table.Table`; this is only its seating plan.)
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.records import RecordError, SaveError, data_dir, save_name, validation_message

#: the kind of a seat played by a person (at the host's keyboard or elsewhere); any other kind is an agent spec
PERSON = "person"


class SeatPlan(BaseModel):
    """One seat of a hosted game: a person with a code to join, or an agent the server runs."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    kind: str = PERSON
    code: str | None = None
    #: the person at the host's keyboard (may save under a name)
    host: bool = False
    #: the number of actions played before ``kind`` took this seat: the computer that took over a
    #: person's seat (the actions before it were the person's); 0 when ``kind`` sat here from the start
    since: int = Field(default=0, ge=0)

    @property
    def is_person(self) -> bool:
        return self.kind == PERSON


class TablePlan(BaseModel):
    """A hosted game's seats, codes and settings: the file beside its saved game."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    record: str
    seats: list[SeatPlan]
    watch_code: str
    bind: str = "127.0.0.1"
    port: int = Field(default=0, ge=0, le=65535)
    #: seconds a person may be away before the others choose to wait, let the AI play, or stop
    timeout: float = Field(default=120.0, gt=0)
    undo: bool = True


def new_code() -> str:
    """A fresh secret for a seat (hard to guess; typed by a person, so no look-alike characters)."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3))


def hosted_dir() -> Path:
    """Where the files of hosted games live: ``hosted`` in the data directory."""
    return data_dir() / "hosted"


def plan_path(record_path: str | Path) -> Path:
    """The file of the hosted game saved in ``record_path`` (named after the saved game)."""
    return hosted_dir() / f"{save_name(record_path)}.json"


def save_plan(plan: TablePlan) -> Path:
    path = plan_path(plan.record)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(plan.model_dump_json(indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise SaveError(f"could not save the hosted game's seats to {path}: {exc.strerror or exc}") from None
    return path


def load_plan(record_path: str | Path) -> TablePlan:
    """The seats and codes of the hosted game saved in ``record_path``; RecordError saying what is wrong."""
    path = plan_path(record_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise RecordError(
            f"{record_path} was not a hosted game (no seats and codes in {path}); "
            "continue it at this keyboard with 'lehavre inland|base --load NAME'"
        ) from None
    try:
        return TablePlan.model_validate(json.loads(text))
    except (ValueError, ValidationError) as exc:
        why = validation_message(exc) if isinstance(exc, ValidationError) else str(exc)
        raise RecordError(f"{path}: not a hosted game's seats: {why}") from None
