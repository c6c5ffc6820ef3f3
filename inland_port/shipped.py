"""The building data shipped with the Inland Port: named files in ``inland_port/data/``
(``buildings-2026-11.json``, ...), and ``default.json``, which names the one a new game uses.

A file stays shipped when another becomes the default, so a game saved with it is played on with
the same data: its save records the data's digest, and the shipped file of that digest is found by
:func:`inland_port.data_by_digest`.  A game's ``buildings`` option is a path or one of these names.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"
#: the file that names the default data
DEFAULT_FILE = "default.json"
#: how a shipped building data file is named: ``buildings-NAME.json``
PREFIX, SUFFIX = "buildings-", ".json"


def default_name() -> str:
    """The name of the data a new game uses (``default.json``'s ``buildings``)."""
    return str(json.loads((DATA_DIR / DEFAULT_FILE).read_text(encoding="utf-8"))["buildings"])


def shipped_names() -> list[str]:
    """The names of the shipped building data files, oldest name first (``buildings-2026-11``, ...)."""
    return sorted(p.name.removesuffix(SUFFIX) for p in DATA_DIR.glob(f"{PREFIX}*{SUFFIX}"))


def shipped_path(name: str) -> Path:
    """The file of the shipped data ``name``."""
    return DATA_DIR / f"{name}{SUFFIX}"


def data_path(value: str | None) -> Path:
    """The building file a game's ``buildings`` option means: the default data (None), a shipped data
    file's name (when no file of that name stands where the game is started), or a path."""
    if value is None:
        return shipped_path(default_name())
    if not Path(value).exists() and value in shipped_names():
        return shipped_path(value)
    return Path(value)
