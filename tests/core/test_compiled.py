"""The engine compiled with mypyc and the same engine as pure Python (core/compiled.py, setup.py).

Both must play alike, node for node: the same searches and the same games from the same seeds, in both
games.  Where no compiled build exists (no C compiler) both runs are pure and the comparison is trivial;
CI's install compiles, so there it compares the two engines.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import base_game
import inland_port
from core import compiled

ROOT = Path(__file__).resolve().parents[2]
#: the Inland Port's engine fingerprint of the long measurement (core/lab/longrun.py) that runs on this engine,
#: on the data its plan was written on: compiling must not change a node
LONGRUN_FINGERPRINT = "6606026b9825ace7"


def _run(args: list[str], pure: bool, cwd: Path = ROOT, extra: dict[str, str] | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    if pure:
        env[compiled.PURE_ENV] = "1"
    env.update(extra or {})
    out = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _play(pure: bool) -> dict[str, Any]:
    out = _run([str(ROOT / "benchmarks" / "engine_play.py"), "--nodes", "800"], pure)
    data: dict[str, Any] = json.loads(out.splitlines()[-1])
    return data


def test_the_compiled_and_the_pure_engine_search_and_play_alike() -> None:
    pure, built = _play(pure=True), _play(pure=False)
    assert pure["engine"] == "pure Python"
    assert built["engine"] == compiled.ENGINE
    for rules in ("inland", "base"):
        assert len(pure["play"][rules]["searches"]) >= 4
        assert built["play"][rules]["searches"] == pure["play"][rules]["searches"]
        assert built["play"][rules]["games"] == pure["play"][rules]["games"]


@pytest.mark.parametrize("pure", [True, False], ids=["pure", "as built"])
def test_the_long_measurements_engine_is_unchanged(pure: bool) -> None:
    code = (
        "from pathlib import Path; from core.lab import longrun; "
        "plan = longrun.load_plan(Path('benchmarks/longrun/plan.json')); "
        "run = next(r for r in plan.runs if r.name == 'inland-seats-normal'); "
        "print(longrun.engine_fingerprint('inland', longrun.run_options(run, Path('.').resolve())))"
    )
    assert _run(["-c", code], pure).strip() == LONGRUN_FINGERPRINT


def test_pure_python_is_forced_by_the_environment() -> None:
    code = "import core.compiled as c, core.search, inland_port.state as s; print(c.ENGINE + '|' + s.__file__)"
    engine, _, path = _run(["-c", code], pure=True).strip().partition("|")
    assert engine == "pure Python" and path.endswith("state.py")
    engine, _, path = _run(["-c", code], pure=False).strip().partition("|")
    assert engine == compiled.ENGINE
    assert path.endswith(".py") == (compiled.ENGINE == "pure Python")


def test_a_compiled_build_older_than_its_source_is_not_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = compiled.manifest_for(compiled.COMPILED)
    record["core.search"] = "0" * 64  # core/search.py changed since the build
    manifest = tmp_path / "_compiled.json"
    manifest.write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    fresh, why = compiled._check()
    assert not fresh and why == "the source changed since it was built (core.search)"
    manifest.write_text(json.dumps({m: record[m] for m in compiled.COMPILED[1:]}), encoding="utf-8")
    assert compiled._check() == (False, "it was built from another list of modules")


def test_without_a_c_compiler_the_build_is_pure_python_and_runs(tmp_path: Path) -> None:
    """setup.py where the C compiler is missing: it says so, removes an earlier compiled build, and the
    engine runs as pure Python."""
    tree = tmp_path / "tree"
    skip = shutil.ignore_patterns("*.so", "__pycache__", "_compiled.json")
    for package in ("core", "inland_port"):
        shutil.copytree(ROOT / package, tree / package, ignore=skip)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    stale = tree / "inland_port" / "state.cpython-311-x86_64-linux-gnu.so"
    stale.write_bytes(b"an earlier build")
    (tree / "core" / "_compiled.json").write_text("{}", encoding="utf-8")
    out = _run(["setup.py", "-q", "build_ext", "--inplace"], pure=False, cwd=tree, extra={"CC": "no-such-cc"})
    assert "lehavre: engine built as pure Python (no C compiler (no-such-cc))" in out
    assert not stale.exists() and not (tree / "core" / "_compiled.json").exists()
    code = "import core, inland_port; s = inland_port.new_game(); s.apply_action(s.legal_actions()[0]); print(core.compiled.ENGINE)"
    assert _run(["-c", code], pure=False, cwd=tree, extra={"PYTHONPATH": str(tree)}).strip() == "pure Python"


def test_a_state_and_its_actions_copy_and_pickle_on_either_engine() -> None:
    """Compiled classes are made only through their constructors: copying and pickling still work."""
    s = inland_port.new_game(3)
    s.apply_action(s.legal_actions()[0])
    for twin in (copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert twin.key() == s.key() and twin.history == s.history
        assert [str(a) for a in twin.legal_actions()] == [str(a) for a in s.legal_actions()]
    action = s.legal_actions()[-1]
    assert pickle.loads(pickle.dumps(action)) == action and str(copy.deepcopy(action)) == str(action)


def test_a_base_game_mid_turn_copies_and_pickles_on_either_engine() -> None:
    """The base game's decision frames (a turn, a payment, a building's use) are compiled classes too."""
    s = base_game.new_game(5, {"players": 2})
    for _ in range(12):
        s.apply_action(s.legal_actions()[-1])
    frames = [copy.deepcopy(s.stack), pickle.loads(pickle.dumps(s.stack))]
    assert all(f == s.stack for f in frames) and len(s.stack) > 0
    for twin in (copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert twin.key() == s.key()
        assert [str(a) for a in twin.legal_actions()] == [str(a) for a in s.legal_actions()]


def test_every_package_chooses_the_engine_before_it_loads_a_compiled_module() -> None:
    """``core`` (which decides compiled or pure Python) is imported before any module of the list: a package
    whose ``__init__`` imported a compiled module first would load it compiled even where it must run pure."""
    code = (
        "import sys\n"
        "seen = []\n"
        "sys.addaudithook(lambda event, args: seen.append(args[0]) if event == 'import' else None)\n"
    )
    packages = sorted({m.partition(".")[0] for m in compiled.COMPILED} | {"base_game", "inland_port"})
    for package in packages:
        out = _run(["-c", code + f"import {package}\nprint(' '.join(seen))"], pure=True).split()
        loaded = [out.index(m) for m in compiled.COMPILED if m in out]
        if package != "core":
            assert loaded, f"importing {package} loads none of the compiled modules"
        first = min(loaded, default=len(out))
        assert "core" in out[:first], f"{package} imports {out[first]} before core"
