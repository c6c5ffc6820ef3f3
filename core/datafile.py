"""Numeric data of a card file (``{"buildings": [card, ...]}``) as tunable fields, and the file
written back with some of them changed.

A card's whole-number fields (``"value": 3``) and whole-number parts of its
mapping fields (``"cost": {"clay": 1}``) are the fields; each is named
``CARD.FIELD`` or ``CARD.FIELD.PART`` and takes the card's provenance of
``FIELD``.  A game whose data file has this form declares its
:class:`~core.protocol.DataTuning` with :func:`card_fields` and
:func:`write_cards`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.protocol import GameError, TunableField

#: the provenance every changed datum carries
RECONSTRUCTED = "reconstructed"


def read_json(path: str | Path) -> dict[str, Any]:
    """A data file's JSON object; :class:`GameError` naming the file if it cannot be read."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GameError(f"cannot read the data file '{path}': {exc}") from None
    if not isinstance(raw, dict):
        raise GameError(f"the data file '{path}' is not a JSON object")
    return raw


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def card_fields(
    raw: Mapping[str, Any], numeric: Sequence[str], key: str = "buildings", lowest: Mapping[str, int] | None = None
) -> list[TunableField]:
    """Every whole-number datum named in ``numeric`` of every card under ``raw[key]``.

    ``lowest`` gives a field's smallest allowed value (default 0); a value may
    at most double and grow by 5.
    """
    out: list[TunableField] = []
    for card in raw.get(key, []):
        name = str(card.get("name", "?"))
        provenance = card.get("provenance", {})
        for field in numeric:
            value = card.get(field)
            source = str(provenance.get(field, "rulebook"))
            low = (lowest or {}).get(field, 0)
            parts = sorted(value.items()) if isinstance(value, dict) else [("", value)]
            for part, v in parts:
                if _is_count(v):
                    k = f"{name}.{field}" + (f".{part}" if part else "")
                    out.append(TunableField(k, v, name, source, min(low, v), 2 * v + 5))
    return out


def apply_changes(
    raw: Mapping[str, Any], changes: Mapping[str, int], note: str = "", key: str = "buildings"
) -> dict[str, Any]:
    """A copy of ``raw`` with ``changes`` applied; each changed datum is tagged reconstructed and,
    if ``note`` is given, noted."""
    out: dict[str, Any] = json.loads(json.dumps(raw))
    cards = {str(c.get("name")): c for c in out.get(key, [])}
    for name, value in changes.items():
        card_name, _, rest = name.partition(".")
        field, _, part = rest.partition(".")
        card = cards.get(card_name)
        if card is None or field not in card:
            raise GameError(f"the data has no field '{name}'")
        if part:
            if not isinstance(card[field], dict) or part not in card[field]:
                raise GameError(f"the data has no field '{name}'")
            card[field][part] = int(value)
        else:
            card[field] = int(value)
        card.setdefault("provenance", {})[field] = RECONSTRUCTED
        if note:
            card.setdefault("notes", {})[field] = note
    return out


def write_cards(
    base: str | Path,
    changes: Mapping[str, int],
    out: str | Path,
    note: str,
    check: Callable[[Path], object],
    key: str = "buildings",
) -> None:
    """Write the card file ``base`` with ``changes`` applied to ``out`` and check it with ``check(out)``
    (the game's own loader, which raises :class:`GameError` for a file it refuses)."""
    data = apply_changes(read_json(base), changes, note, key)
    target = Path(out).expanduser()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise GameError(f"cannot write the data file '{target}': {exc}") from None
    check(target)
