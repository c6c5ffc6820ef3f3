"""Reading a line at the game's prompt: on a terminal with ``prompt_toolkit`` (line editing, the
game's history on the arrow keys, Tab completion of the prompt's commands, the actions and the
building names, and messages printed above a line being typed without losing it); elsewhere (a pipe,
a file, a test runner) with plain ``input()``, exactly as a transcript expects.

One :class:`LineInput` serves a whole game, at this keyboard and over the network alike.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app, run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import History
from prompt_toolkit.shortcuts import CompleteStyle

#: how often a prompt looks for news while a person types (seconds)
TICK = 0.05

#: ``(ready, take)``: ``ready()`` says whether there is news; ``take()`` shows it (it may raise to end the prompt)
Watch = tuple[Callable[[], bool], Callable[[], None]]


def on_terminal() -> bool:
    """Both the keyboard and the screen are a terminal (not a pipe, a file or a test runner)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class Words(Completer):
    """Tab completion: the words ``words()`` gives now (commands, actions, names) that begin with
    what is typed before the cursor (in any case), each replacing the whole line so far.  When they
    all begin alike beyond what is typed, that common beginning comes first (as readline does)."""

    def __init__(self, words: Callable[[], Iterable[str]]) -> None:
        self.words = words

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        typed = document.text_before_cursor
        low = typed.lower()
        found = list(dict.fromkeys(w for w in self.words() if w.lower().startswith(low) and w != typed))
        common = shared_start([w.lower() for w in found])
        if len(found) > 1 and common > len(typed):
            found = [found[0][:common]]
        for word in found:
            yield Completion(word, start_position=-len(typed))


def shared_start(texts: list[str]) -> int:
    """How many characters all ``texts`` begin with alike (0 for none)."""
    if not texts:
        return 0
    first, n = texts[0], len(texts[0])
    for t in texts[1:]:
        n = next((i for i, (a, b) in enumerate(zip(first[:n], t, strict=False)) if a != b), min(n, len(t)))
    return n


class KeptHistory(History):
    """The lines typed at a game's prompt (the up arrow brings them back), kept in a file beside the
    game's save, so that they come back after 'quit' and '--resume'.  ``save()``: where the game is
    saved now (None: it is not saved, and the lines are kept for this session only); a game saved
    under another name takes its lines along."""

    def __init__(self, save: Callable[[], Path | None] = lambda: None) -> None:
        super().__init__()
        self.save = save
        self.kept: Path | None = None

    def file(self) -> Path | None:
        path = self.save()
        return None if path is None else path.with_suffix(HISTORY_SUFFIX)

    def load_history_strings(self) -> Iterable[str]:
        self.kept = self.file()
        try:
            text = self.kept.read_text(encoding="utf-8") if self.kept is not None else ""
        except OSError:
            return []
        lines = []
        for row in text.splitlines():
            try:
                line = json.loads(row)
            except ValueError:
                continue
            if isinstance(line, str):
                lines.append(line)
        return lines[::-1]  # the newest first

    def store_string(self, string: str) -> None:
        path = self.file()
        if path is None:
            return
        try:
            if self.kept is not None and self.kept != path and self.kept.exists():
                self.kept.replace(path)  # the game was saved under another name: its lines go along
            self.kept = path
            with path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(string) + "\n")
        except OSError:
            pass  # (the lines stay for this session)


#: the file of a game's typed lines, beside its save: ``NAME.history``
HISTORY_SUFFIX = ".history"


class LineInput:
    """The lines typed at one game's prompt.  ``words()``: what Tab completes at this moment; ``save()``:
    where the game is saved, its typed lines kept beside it (:class:`KeptHistory`).

    On a terminal a line is read with ``prompt_toolkit``; :meth:`read` with ``watch`` also shows news
    above the prompt while a person types, and what they had typed stays.  Otherwise ``input()``."""

    def __init__(
        self,
        words: Callable[[], Iterable[str]] | None = None,
        *,
        terminal: bool | None = None,
        save: Callable[[], Path | None] = lambda: None,
    ) -> None:
        self.terminal = on_terminal() if terminal is None else terminal
        self.completer = Words(words) if words is not None else None
        self.history = KeptHistory(save)
        self.session: PromptSession[str] | None = None
        #: what was typed at a prompt that news ended (it is typed already at the next prompt)
        self.carry = ""
        #: news that would have ended a prompt Enter had just ended (raised by :meth:`read` after it)
        self.late_news: Exception | None = None
        if not self.terminal and sys.stdin.isatty():
            try:  # the keyboard is a terminal, the screen is not: readline's editing for input()
                import readline  # noqa: F401
            except ImportError:  # pragma: no cover - not on every platform
                pass

    def __call__(self, prompt: str) -> str:
        return self.read(prompt)

    def read(self, prompt: str | Callable[[], str], *, watch: Watch | None = None) -> str:
        """The next line typed at ``prompt`` (a text, or a function giving the text now).  On a terminal,
        ``watch`` is asked for news every :data:`TICK` s; its ``take()`` prints above the prompt, and an
        exception it raises ends the prompt (the line typed so far is kept for the next one), also when
        Enter was pressed at that moment (the news wins; the line is kept the same way)."""
        if not self.terminal:
            return input(prompt if isinstance(prompt, str) else prompt())
        if self.session is None:
            self.session = PromptSession(
                history=self.history,
                completer=self.completer,
                complete_style=CompleteStyle.READLINE_LIKE,
                complete_while_typing=False,
                reserve_space_for_menu=0,
                enable_open_in_editor=False,
            )
        default, self.carry = self.carry, ""
        self.session.app.erase_when_done = False  # (news that ended the last prompt erased it)
        pre_run = None if watch is None else (lambda: self.start_watch(watch))
        text = prompt if callable(prompt) else (lambda: prompt)
        # in the terminal's own colour, which makes prompt_toolkit write the prompt's last space too
        # (it leaves unstyled spaces at the end of a line unwritten)
        self.late_news = None
        line = self.session.prompt(lambda: [("fg:default", text())], default=default, pre_run=pre_run)
        news, self.late_news = self.late_news, None
        if news is not None:  # the news came as Enter was pressed: it wins, the line waits at the next prompt
            self.carry = line
            raise news
        return line

    def start_watch(self, watch: Watch) -> None:
        get_app().create_background_task(self.watching(*watch))

    async def watching(self, ready: Callable[[], bool], take: Callable[[], None]) -> None:
        """Look for news while the prompt is open: show each piece above it (the prompt is drawn again
        below it, with what was typed); news that ends the prompt erases it and keeps the line typed.
        News that would end a prompt Enter has ended meanwhile is kept for :meth:`read` to raise."""
        app = get_app()
        while True:
            await asyncio.sleep(TICK)
            if not ready():
                continue
            await run_in_terminal(lambda: self.take_news(take))
            if self.late_news is None:
                app.invalidate()  # the prompt's text may have changed
                continue
            if not app.is_done:  # the prompt ends: the position changed, the game stopped...
                news, self.late_news = self.late_news, None
                self.carry = app.current_buffer.text
                app.erase_when_done = True
                app.exit(exception=news)
            return

    def take_news(self, take: Callable[[], None]) -> None:
        """``take()``, what it raises kept (the prompt may have ended by the time it is seen)."""
        try:
            take()
        except Exception as exc:  # the prompt ends: the position changed, the game stopped...
            self.late_news = exc
