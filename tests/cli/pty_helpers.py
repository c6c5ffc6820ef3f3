"""Running ``lehavre`` in a pseudo-terminal, as a person would (pexpect), for the terminal tests."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path

import pexpect
from pexpect._async import expect_async
from pexpect.expect import Expecter, searcher_re

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

#: what a terminal does not show as text: styling and modes (dropped), and the other control sequences
#: (cursor moves, erasing; read as a break between words), and the runs of white space and line ends
_STYLE = r"\x1b\[[0-9;:]*m|\x1b\[\?[0-9;]*[hl]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x07"
_CONTROL = r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b(?:\[[0-9;?]*)?$"
_PIECES = re.compile(rf"(?P<style>{_STYLE})|(?P<gap>(?:{_CONTROL}|\s)+)")


def readable(raw: str) -> tuple[str, list[int]]:
    """The text of ``raw`` as a person reads it: styling removed, every line end, control sequence and
    run of spaces one space (so a message reads the same wherever the terminal wrapped it); and, for
    each of its characters, where it begins in ``raw`` (one more at the end: ``len(raw)``)."""
    text: list[str] = []
    where: list[int] = []
    at = 0
    for piece in _PIECES.finditer(raw):
        text.append(raw[at : piece.start()])
        where.extend(range(at, piece.start()))
        if piece.lastgroup == "gap":
            text.append(" ")
            where.append(piece.start())
        at = piece.end()
    text.append(raw[at:])
    where.extend(range(at, len(raw) + 1))
    return "".join(text), where


class ReadableSearch(searcher_re):
    """pexpect's regular-expression search, made in the :func:`readable` text of what was printed; the
    match's ``start``/``end`` are given back in the printed text (``before``/``after`` are as printed)."""

    def search(self, buffer: str, freshlen: int, searchwindowsize: int | None = None) -> int:
        text, where = readable(buffer)
        found = [(m.start(), n, m) for n, pattern in self._searches if (m := pattern.search(text)) is not None]
        if not found:
            return -1
        _, index, match = min(found, key=lambda f: (f[0], f[1]))
        self.start, self.end, self.match = where[match.start()], where[match.end()], match
        return index


class Terminal(pexpect.spawn):
    """A program in a pseudo-terminal, read as a person reads its screen.

    Every ``expect`` looks for its patterns in the :func:`readable` text (styling removed, lines
    joined), so no terminal width or length of a path in a message changes whether it is found; write
    a line end in a pattern as a space (``\\s``).  ``sendline`` returns once the line has been echoed: the
    prompt's line editor (prompt_toolkit) draws the finished line again, prompt included, when Enter is
    pressed; waiting for that echo makes the next ``expect(PROMPT)`` find the next prompt, not the one
    the line was typed at (this one wait is for the printed line end, not for a message).  (A plain
    ``input()`` echoes the line once, after the prompt.)"""

    def expect_list(self, pattern_list, timeout=-1, searchwindowsize=-1, async_=False, **kw):
        if timeout == -1:
            timeout = self.timeout
        search = Expecter(self, ReadableSearch(pattern_list), searchwindowsize)
        return expect_async(search, timeout) if async_ else search.expect_loop(timeout)

    def sendline(self, s: str = "") -> int:
        n = super().sendline(s)
        if s:
            # the echo and the line end after it, as printed (the line end is what says Enter was read);
            # a line longer than the terminal is redrawn wrapped: cursor moves and line ends may come between its
            # letters; a line that ends in the terminal's last column has a carriage return before the styling
            # that ends it ('board\r\x1b[0m\r\r\n')
            between = r"(?:\x1b\[[0-9;?]*[A-Za-z]|\r|\n)*"
            echo = between.join(re.escape(c) for c in s) + r"(?:\x1b\[[0-9;?]*[A-Za-z]|\r)*\n"
            printed = searcher_re(self.compile_pattern_list([echo, pexpect.EOF]))
            with contextlib.suppress(pexpect.TIMEOUT):
                Expecter(self, printed, None).expect_loop(ECHO_WAIT)
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
    # no fixed pause before each key sent (pexpect's 50 ms default): a test waits for what the program
    # prints (its prompt, the echo of a line), never for time to pass
    child.delaybeforesend = None
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
