"""The build's one switch: the engine's hot modules compiled with mypyc where a C compiler is present.

Everything else about the package is in ``pyproject.toml``. As mypy and black ship theirs, the same
sources build two ways: ``pip install -e .`` compiles the modules that ``core/compiled.py`` lists (with
mypyc, a build requirement) when a C compiler and the Python headers are present and
``LEHAVRE_COMPILE`` is not ``0``; otherwise, or if compiling fails, it installs them as pure Python.
One line says which was built (``pip install -v`` shows it; ``lehavre --version`` says it after).
The build records each compiled module's source digest (``core/_compiled.json``), so that a compiled
module whose source changed is not run (``core/compiled.py``).
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

HERE = Path(__file__).resolve().parent
#: the list of compiled modules and the manifest's form, read from their one place (without importing ``core``)
ENGINE: dict[str, Any] = runpy.run_path(str(HERE / "core" / "compiled.py"))
COMPILED: tuple[str, ...] = ENGINE["COMPILED"]
GROUP: str = ENGINE["GROUP"]
MANIFEST = "core/_compiled.json"
#: where mypyc writes the C files (its default, relative to this directory)
MYPYC_BUILD = "build"
#: each compiled module's source digest, taken before mypyc reads the sources (written once the build succeeds)
DIGESTS: dict[str, str] = {}
#: the setup.py commands that build the package (metadata queries such as egg_info compile nothing)
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def say(line: str) -> None:
    print(f"lehavre: engine built as {line}", flush=True)


def why_pure() -> str:
    """Why the build cannot compile here ('' if it can)."""
    if os.environ.get("LEHAVRE_COMPILE", "1") == "0":
        return "LEHAVRE_COMPILE=0"
    try:
        import mypyc.build  # noqa: F401  (the build requirement; absent when building without isolation)
    except ImportError:
        return "mypy (mypyc) is not installed"
    from setuptools._distutils import ccompiler
    from setuptools._distutils import sysconfig as dist_sysconfig

    compiler: Any = ccompiler.new_compiler()
    dist_sysconfig.customize_compiler(compiler)
    exe = compiler.compiler_so[0] if getattr(compiler, "compiler_so", None) else None
    if exe is not None and shutil.which(exe) is None:
        return f"no C compiler ({exe})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return ""


def remove_compiled() -> None:
    """Remove a compiled build from the source tree (an editable install that is now pure)."""
    (HERE / MANIFEST).unlink(missing_ok=True)
    for module in (*COMPILED, GROUP + "__mypyc"):
        base = HERE.joinpath(*module.split("."))
        for so in base.parent.glob(base.name + ".*.so"):
            so.unlink()


def cores() -> int:
    """The CPU cores this build may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


def compile_in_parallel(compiler: Any, jobs: int) -> None:
    """Make ``compiler.compile`` compile an extension's C files ``jobs`` at a time, the largest first (the
    same per-file compiler calls, the objects in the order given), as numpy's build does."""
    compile_serially = compiler.compile

    def compile_sources(sources: list[str], output_dir: str | None = None, *args: Any, **kwargs: Any) -> list[str]:
        if jobs < 2 or len(sources) < 2:
            return list(compile_serially(sources, output_dir, *args, **kwargs))
        for obj in compiler.object_filenames(sources, output_dir=output_dir or ""):
            Path(obj).parent.mkdir(parents=True, exist_ok=True)
        largest_first = sorted(sources, key=lambda s: -Path(s).stat().st_size)

        def one(source: str) -> list[str]:
            return list(compile_serially([source], output_dir, *args, **kwargs))

        with ThreadPoolExecutor(jobs) as pool:
            objects = dict(zip(largest_first, pool.map(one, largest_first), strict=True))
        return [obj for source in sources for obj in objects[source]]

    compiler.compile = compile_sources


class BuildEngine(build_ext):
    """build_ext that compiles each extension's C files on all cores, falls back to pure Python when the C
    compiler fails, and records the sources' digests."""

    def build_extensions(self) -> None:
        compile_in_parallel(self.compiler, cores())
        super().build_extensions()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except (CCompilerError, CompileError, LinkError, ExecError, PlatformError, OSError) as exc:
            self.extensions = []
            if self.inplace or self.editable_mode:
                remove_compiled()
            say(f"pure Python (the C compiler failed: {str(exc).strip().splitlines()[-1] if str(exc) else exc!r})")
            return
        out = HERE / MANIFEST if (self.inplace or self.editable_mode) else Path(self.build_lib) / MANIFEST
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(DIGESTS, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        say(f"compiled (mypyc: {len(COMPILED)} modules)")


def engine_extensions() -> list[Any]:
    """The compiled modules' extensions, or none (the reason said) when this build is pure Python."""
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    why = why_pure()
    if why:
        remove_compiled()
        say(f"pure Python ({why})")
        return []
    from mypyc.build import mypycify

    paths = [str(ENGINE["source_path"](m, HERE).relative_to(HERE)) for m in COMPILED]
    # the sources' digests as mypyc reads them (a source edited during the build is then found stale)
    DIGESTS.update(ENGINE["manifest_for"](COMPILED, HERE))
    try:
        # no debug information in the C build (it only lengthens the compile); one C file per module, which
        # the build compiles in parallel (see BuildEngine)
        extensions = list(
            mypycify(paths, group_name=GROUP, opt_level="3", debug_level="0", multi_file=True, target_dir=MYPYC_BUILD)
        )
    except (SystemExit, Exception) as exc:  # mypyc stops with SystemExit on a type error
        remove_compiled()
        say(f"pure Python (mypyc failed: {exc!r})")
        return []
    # mypyc writes a dotted group's headers into the group's package directory (build/core/) but its modules'
    # C files, which include them, into build/: the compiler must look there too
    group_headers = str(Path(MYPYC_BUILD, *GROUP.split(".")[:-1]))
    for ext in extensions:
        if ext.name == GROUP + "__mypyc":
            ext.include_dirs.append(group_headers)
    return extensions


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": BuildEngine})
