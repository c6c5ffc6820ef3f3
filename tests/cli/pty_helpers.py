"""Running ``lehavre`` in a pseudo-terminal, as a person would (pexpect), for the terminal tests."""

from __future__ import annotations

import contextlib
import os
import re
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


#: how long ``sendline`` waits for the line to be echoed (a program busy elsewhere echoes it later)
ECHO_WAIT = 10


class Terminal(pexpect.spawn):
    """A program in a pseudo-terminal whose ``sendline`` returns once the line has been echoed.

    The prompt's line editor (prompt_toolkit) draws the finished line again, prompt included, when
    Enter is pressed; waiting for that echo makes the next ``expect(PROMPT)`` find the next prompt,
    not the one the line was typed at.  (A plain ``input()`` echoes the line once, after the prompt.)"""

    def sendline(self, s: str = "") -> int:
        n = super().sendline(s)
        if s:
            # a line longer than the terminal is redrawn wrapped: cursor moves and line ends may come between its letters
            between = r"(?:\x1b\[[0-9;?]*[A-Za-z]|\r|\n)*"
            echo = between.join(re.escape(c) for c in s) + r"(?:\x1b\[[0-9;?]*[A-Za-z])*\r*\n"
            with contextlib.suppress(pexpect.TIMEOUT):
                self.expect([echo, pexpect.EOF], timeout=ECHO_WAIT)
        return n


def spawn(
    tmp_path: Path, *args: str, extra_env: dict[str, str] | None = None, rows: int = 40, cols: int = 100, log=None
):
    """Start ``lehavre ARGS`` in a terminal of ``cols`` x ``rows`` (100 x 40 unless given), saving
    games under ``tmp_path``."""
    env = dict(os.environ)
    env.update({"LEHAVRE_DATA_DIR": str(tmp_path), "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)})
    env.pop("NO_COLOR", None)
    # the prompt (prompt_toolkit) would ask the terminal where its cursor is, which pexpect does not answer
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    env.update(extra_env or {})
    child = Terminal(LEHAVRE, list(args), env=env, cwd=str(ROOT), encoding="utf-8", timeout=60, dimensions=(rows, cols))
    child.logfile_read = log or Log()
    return child


class Screen(Log):
    """Everything printed, and the screen a person sees: a terminal emulator (pyte) fed the same output."""

    def __init__(self, cols: int, rows: int) -> None:
        import pyte

        super().__init__()
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)

    def write(self, s: str) -> None:
        super().write(s)
        self.stream.feed(s)

    @property
    def lines(self) -> list[str]:
        """The visible lines, top to bottom."""
        return [line.rstrip() for line in self.screen.display]

    @property
    def flat(self) -> str:
        """The visible text as one line: wrapped lines joined, runs of spaces made one."""
        return " ".join(" ".join(line.split()) for line in self.lines if line.strip())


def spawn_screen(tmp_path: Path, *args: str, cols: int = 80, rows: int = 24):
    """``spawn`` in a terminal of ``cols`` x ``rows`` whose screen is emulated (``child.logfile_read.screen``)."""
    return spawn(tmp_path, *args, rows=rows, cols=cols, log=Screen(cols, rows))


def finish(child) -> tuple[int | None, str]:
    """Wait for the program to end; its exit status and everything it printed."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.logfile_read.text
