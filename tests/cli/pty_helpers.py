"""Running ``lehavre`` in a pseudo-terminal, as a person would (pexpect), for the terminal tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect

LEHAVRE = str(Path(sys.executable).parent / "lehavre")
ROOT = Path(__file__).resolve().parents[2]
PROMPT = "your move"


class Log:
    """Everything the program printed, to look for tracebacks afterwards."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, s: str) -> None:
        self.parts.append(s)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(self.parts)


def spawn(tmp_path: Path, *args: str, extra_env: dict[str, str] | None = None, rows: int = 40):
    """Start ``lehavre ARGS`` in a 100-column terminal, saving games under ``tmp_path``."""
    env = dict(os.environ)
    env.update({"LEHAVRE_DATA_DIR": str(tmp_path), "TERM": "xterm-256color", "COLUMNS": "100", "LINES": str(rows)})
    env.pop("NO_COLOR", None)
    env.update(extra_env or {})
    child = pexpect.spawn(
        LEHAVRE, list(args), env=env, cwd=str(ROOT), encoding="utf-8", timeout=60, dimensions=(rows, 100)
    )
    child.logfile_read = Log()
    return child


def finish(child) -> tuple[int | None, str]:
    """Wait for the program to end; its exit status and everything it printed."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.logfile_read.text
