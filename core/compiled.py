"""Which engine runs: the modules compiled with mypyc, or the same modules as pure Python.

The build (``setup.py``, run by ``pip install -e .``) compiles the modules of :data:`COMPILED` with
mypyc where a C compiler is present, and records beside them, in :data:`MANIFEST`, a digest of each
one's source.  This module (never compiled itself, and importing nothing of ours) decides once per
process, when the package ``core`` is first imported, which engine runs:

* compiled, when the manifest lists exactly :data:`COMPILED`, every module's source still has the
  digest it was compiled from, and its extension module exists for this Python;
* pure Python otherwise: no compiled build, ``LEHAVRE_PURE=1`` in the environment (to compare the two
  engines in one machine), or a compiled build older than its source.  The last says so on stderr,
  with the command that rebuilds it: a compiled module never runs stale code.

Either every module of :data:`COMPILED` runs compiled or none does: compiled modules call each other
natively, so a pure module among them would not be called.  In the pure case an import hook
(:class:`_PureFinder`) loads each listed module from its ``.py`` file although its extension lies beside it.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

#: the modules compiled with mypyc where a C compiler is present (one a line): the rules' and the
#: search's hot path. ``setup.py`` reads this list; nothing else names the modules.
COMPILED: Final[tuple[str, ...]] = (
    "core.evalcache",
    "core.payment",
    "core.search",
    "inland_port.warehouse",
    "inland_port.effects",
    "inland_port.state",
    "inland_port.evaluate",
    "base_game.cards",
    "base_game.frames",
    "base_game.actions",
    "base_game.payments",
    "base_game.state",
    "base_game.effects",
    "base_game.evaluate",
)

#: the compiled modules' shared library (one mypyc group, inside the package ``core``)
GROUP: Final = "core.engine"
#: the file the build writes beside this one: the digest of each compiled module's source
MANIFEST: Final = Path(__file__).with_name("_compiled.json")
#: set to 1 (or any value but 0 and empty) to run the pure-Python engine even where a compiled one is built
PURE_ENV: Final = "LEHAVRE_PURE"
#: what rebuilds the compiled engine (the README's set-up)
REBUILD: Final = "pip install -e ."

ROOT: Final = Path(__file__).resolve().parents[1]


def source_path(module: str, root: Path = ROOT) -> Path:
    """The ``.py`` file of ``module`` under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(path: Path) -> str:
    """The digest of one module's source, as the manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_for(modules: Sequence[str], root: Path = ROOT) -> dict[str, str]:
    """What the build records: each module's source digest."""
    return {m: source_digest(source_path(m, root)) for m in modules}


def _extension_exists(module: str) -> bool:
    base = source_path(module).with_suffix("")
    return any(Path(str(base) + suffix).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def _check() -> tuple[bool, str]:
    """(whether the compiled engine runs, why not: '' when it runs or was never built, else the reason)."""
    if not MANIFEST.is_file():
        return False, ""
    try:
        recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, f"its record {MANIFEST.name} is unreadable"
    if not isinstance(recorded, dict) or sorted(recorded) != sorted(COMPILED):
        return False, "it was built from another list of modules"
    changed = [m for m in COMPILED if not source_path(m).is_file() or source_digest(source_path(m)) != recorded[m]]
    if changed:
        return False, "the source changed since it was built (" + ", ".join(changed) + ")"
    missing = [m for m in COMPILED if not _extension_exists(m)]
    if missing:
        return False, "it was built for another Python (" + ", ".join(missing) + ")"
    return True, ""


class _PureFinder(importlib.abc.MetaPathFinder):
    """Loads the modules of :data:`COMPILED` from their ``.py`` files (an extension beside one is ignored)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED or not path:
            return None
        source = Path(path[0]) / (fullname.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(fullname, source) if source.is_file() else None


#: "compiled" or "pure Python": the engine this process runs (decided by :func:`install`)
ENGINE = "pure Python"
#: why a compiled build is not used ('' when none is built, or it is used, or LEHAVRE_PURE asked for pure)
STALE = ""


def install() -> str:
    """Decide the engine for this process (once) and, for pure Python, install the import hook."""
    global ENGINE, STALE
    if any(isinstance(f, _PureFinder) for f in sys.meta_path):
        return ENGINE
    fresh, why = _check()
    if fresh and not _pure_requested():
        ENGINE = "compiled"
        return ENGINE
    loaded = [
        m for m in COMPILED if m in sys.modules and not str(getattr(sys.modules[m], "__file__", "")).endswith(".py")
    ]
    if loaded:
        raise ImportError(f"compiled modules were imported before the package 'core': {', '.join(loaded)}")
    sys.meta_path.insert(0, _PureFinder())
    ENGINE = "pure Python"
    STALE = why
    if why and not _pure_requested():
        print(
            f"lehavre: the compiled engine is out of date: {why}; running pure Python. Rebuild: {REBUILD}",
            file=sys.stderr,
        )
    return ENGINE


def describe() -> str:
    """The engine, as ``lehavre --version`` says it."""
    return ENGINE + (f" (compiled build out of date: {STALE}; rebuild: {REBUILD})" if STALE else "")
