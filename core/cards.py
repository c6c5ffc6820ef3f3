"""The building-card model shared by both games, and the data-file loader.

Cards are data (DESIGN.md, "Data, not classes"): a JSON file per deck, read
into pydantic models.  A malformed file is refused with a :class:`DataFileError`
that names the file, the card and the field.  Every datum carries its
provenance (REFERENCE.md): ``rulebook`` (read in seeds/), ``reference``
(REFERENCE.md's [pub] tables), ``ruling`` ([dec]) or ``reconstructed`` ([rec]).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from core.protocol import GameError

Provenance = Literal["rulebook", "reference", "ruling", "reconstructed"]
PROVENANCES: tuple[str, ...] = ("rulebook", "reference", "ruling", "reconstructed")


class DataFileError(GameError):
    """A data file that cannot be used; the message names file, card and field."""


class Card(BaseModel):
    """A card: a name, its function text, and the provenance of each datum."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    function: str = ""
    #: field name -> where that datum comes from; fields not named are ``rulebook``
    provenance: dict[str, Provenance] = Field(default_factory=dict)
    #: field name -> a note on that datum (e.g. which balancing run changed it); not part of the data's digest
    notes: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _provenance_names_fields(self) -> Card:
        for what, names in (("provenance", self.provenance), ("notes", self.notes)):
            unknown = set(names) - set(type(self).model_fields)
            if unknown:
                raise ValueError(f"{what} names unknown fields: {', '.join(sorted(unknown))}")
        return self

    def source_of(self, field: str) -> str:
        return self.provenance.get(field, "rulebook")

    @property
    def reconstructed_fields(self) -> list[str]:
        return [f for f, p in self.provenance.items() if p == "reconstructed"]


C = TypeVar("C", bound=Card)


def _describe_location(raw: Any, key: str, loc: tuple[Any, ...]) -> tuple[str, str]:
    """(card, field) names for a pydantic error location inside ``raw[key]``."""
    card = "?"
    if len(loc) >= 2 and loc[0] == key and isinstance(loc[1], int):
        try:
            item = raw[key][loc[1]]
            card = f"'{item.get('name')}'" if isinstance(item, dict) and item.get("name") else f"#{loc[1] + 1}"
        except (IndexError, TypeError, KeyError):
            card = f"#{loc[1] + 1}"
        field = ".".join(str(x) for x in loc[2:]) or "(the whole entry)"
    else:
        field = ".".join(str(x) for x in loc) or "(top level)"
    return card, field


def load_cards(path: str | Path, model: type[C], key: str = "buildings", kind: str = "building") -> list[C]:
    """Read ``{key: [card, ...]}`` from a JSON file into ``model`` instances.

    Raises :class:`DataFileError` naming the file, card and field for a
    missing file, bad JSON, a wrong type, a missing or negative field, an
    unknown field, or two cards with the same name.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: cannot be read ({exc})") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get(key), list):
        raise DataFileError(f'{path}: expected a JSON object with a list under "{key}"')
    cards: list[C] = []
    problems: list[str] = []
    for i, item in enumerate(raw[key]):
        try:
            cards.append(model.model_validate(item))
        except ValidationError as exc:
            for err in exc.errors():
                card, field = _describe_location(raw, key, (key, i, *err["loc"]))
                problems.append(f"{kind} {card}, field '{field}': {err['msg']}")
    if problems:
        shown = "\n  ".join(problems[:10])
        more = f"\n  ... and {len(problems) - 10} more" if len(problems) > 10 else ""
        raise DataFileError(f"{path}: invalid {kind} data:\n  {shown}{more}")
    seen: set[str] = set()
    for c in cards:
        if c.name.lower() in seen:
            raise DataFileError(f"{path}: {kind} '{c.name}' appears twice")
        seen.add(c.name.lower())
    return cards


def file_digest(path: str | Path) -> str:
    """The hash of a data file's bytes, recorded in saves to detect other data."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def cards_digest(cards: list[Card]) -> str:
    """The hash of the card data in use (independent of file formatting)."""
    blob = json.dumps([c.model_dump(mode="json", exclude={"notes"}) for c in cards], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
