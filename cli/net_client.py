"""A seat at a game hosted elsewhere: the connection (:class:`Link`) and the play loop over it
(:class:`RemoteLoop`): the same screen, prompt, commands and help as a local game, where the other
seats are remote (their moves come from the server) and the server applies every action.

The connection uses the ``websockets`` package's blocking client: the prompt blocks on the keyboard
anyway, and its own thread answers the server's keep-alive pings meanwhile.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.table import Table as Grid
from rich.text import Text
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from cli.console import Copy, told
from cli.prompt import PlayLoop, Stopped, _End
from cli.renderer import Renderer
from cli.session import EXIT_OK, plural
from cli.table_words import undo_absent_words, undo_request_words, whose_decisions
from core.agents import Agent
from core.games import game_spec
from core.net.messages import (
    MAX_MESSAGE,
    Answer,
    Closed,
    Hello,
    Leave,
    MessageError,
    Notice,
    Play,
    Position,
    Question,
    Refused,
    Save,
    Undo,
    Welcome,
    encode,
    parse_server,
)
from core.net.view import ViewError, ViewReplay
from core.protocol import GameState
from core.records import ReplayError
from core.seeds import NET_AGENT, derive_seed
from core.table import AGENT, REMOTE, Seat, Table

#: exit code when the connection is lost for good (rejoin with the same command)
EXIT_LOST = 1
#: how long a dropped client tries to reconnect before it gives up, in seconds
RETRY_FOR = 30.0


def bot_seed(seat: int, ply: int) -> int:
    """The seed of the agent that plays ``seat`` (``join --agent``) after ``ply`` actions: the one
    derivation (:data:`core.seeds.NET_AGENT`), from the number of actions played where a local game
    has its seed (a client is never told the game's seed: it rebuilds a hidden set-up)."""
    return derive_seed(ply, NET_AGENT, seat)


class LinkError(Exception):
    """The connection cannot be made or is lost for good; the text says why."""


def url_of(address: str) -> str:
    """``HOST:PORT`` (or a ws:// URL) as a WebSocket URL."""
    address = address.strip()
    return address if address.startswith(("ws://", "wss://")) else f"ws://{address}"


class Link:
    """One connection to the server, joined with a code (sent as the first message, never in the
    address); reconnects by itself for :data:`RETRY_FOR` seconds when the connection drops."""

    def __init__(self, address: str, code: str, *, watch: bool = False, retry_for: float = RETRY_FOR) -> None:
        self.address, self.code, self.watch, self.retry_for = address, code, watch, retry_for
        self.ws: ClientConnection | None = None
        self.welcome: Welcome | None = None
        #: a message taken off the connection by :meth:`ready`, not yet looked at (:meth:`poll` gives it)
        self.held: str | bytes | None = None

    def open(self) -> Welcome:
        """Connect and join; LinkError with the reason if the server or the code is wrong."""
        try:
            ws = connect(url_of(self.address), proxy=None, max_size=MAX_MESSAGE, open_timeout=5, legacy=True)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as exc:
            raise LinkError(f"cannot connect to {self.address} (is 'lehavre host' running there?): {exc}") from None
        try:
            ws.send(encode(Hello(code=self.code, watch=self.watch)))
            first = parse_server(ws.recv(timeout=10))
        except (ConnectionClosed, TimeoutError, MessageError) as exc:
            ws.close()
            raise LinkError(f"{self.address} did not let this code join: {exc}") from None
        if isinstance(first, Refused):
            ws.close()
            raise CodeRefused(f"{self.address} refused: {first.reason}")
        if not isinstance(first, Welcome):
            ws.close()
            raise LinkError(f"{self.address} answered '{first.type}' instead of a welcome")
        self.ws, self.welcome, self.held = ws, first, None
        return first

    def send(self, msg: Any) -> None:
        try:
            if self.ws is not None:
                self.ws.send(encode(msg))
        except ConnectionClosed:
            pass  # the next recv reconnects

    def recv(self, on_retry: Any = None) -> Any:
        """The next message (a Welcome again after a reconnection); LinkError once it gives up."""
        while True:
            raw, self.held = self.held, None  # (one :meth:`ready` took in first)
            try:
                assert self.ws is not None
                if raw is None:
                    raw = self.ws.recv(timeout=1.0)
            except TimeoutError:
                continue
            except ConnectionClosed:
                self.reopen(on_retry)
                assert self.welcome is not None
                return self.welcome
            try:
                return parse_server(raw)
            except MessageError as exc:
                raise LinkError(f"the server sent a message this version cannot read: {exc}") from None

    def poll(self, on_retry: Any = None) -> Any:
        """The next message if one has arrived (None: not yet; a Welcome after a reconnection).  One
        at a time: whoever takes one in may stop to look at the game again, and the next one waits
        for it here (a message taken off the connection and not looked at would be lost)."""
        if self.ws is None:
            return None
        raw, self.held = self.held, None
        try:
            if raw is None:
                raw = self.ws.recv(timeout=0)
        except TimeoutError:
            return None
        except ConnectionClosed:
            self.reopen(on_retry)
            return self.welcome
        try:
            return parse_server(raw)
        except MessageError as exc:
            raise LinkError(f"the server sent a message this version cannot read: {exc}") from None

    def ready(self) -> bool:
        """Whether :meth:`poll` has something to do now: a message has arrived (it is taken off the
        connection, one only, and kept for :meth:`poll`), or the connection has dropped."""
        if self.held is not None:
            return True
        if self.ws is None:
            return False
        try:
            self.held = self.ws.recv(timeout=0)
        except TimeoutError:
            return False
        except ConnectionClosed:
            return True
        return True

    def reopen(self, on_retry: Any) -> None:
        if on_retry is not None:
            on_retry()
        deadline = time.monotonic() + self.retry_for
        while True:
            try:
                self.open()
                return
            except LinkError as exc:
                if isinstance(exc, CodeRefused) or time.monotonic() > deadline:
                    raise
            time.sleep(0.5)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


class CodeRefused(LinkError):
    """The server answered, and does not let this code join (trying again will not help)."""


class Keyboard:
    """The lines typed at this keyboard, read on a thread of their own, so that what the server says
    reaches the person while they are at the prompt (``""`` is the end of input)."""

    def __init__(self, read: Callable[[], str] = sys.stdin.readline) -> None:
        self.read = read
        self.lines: queue.Queue[str] = queue.Queue()
        self.thread: threading.Thread | None = None

    def get(self, timeout: float) -> str | None:
        """The next line (without its newline; ``""`` at the end of input), or None after ``timeout`` s."""
        if self.thread is None:
            self.thread = threading.Thread(target=self.main, name="lehavre-keyboard", daemon=True)
            self.thread.start()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return line if line == "" else line.rstrip("\r\n") or " "

    def main(self) -> None:
        while True:
            try:
                line = self.read()
            except (OSError, ValueError):
                line = ""
            self.lines.put(line)
            if line == "":
                return


class FreshAgent:
    """The agent of ``join --agent``: made afresh for each decision from the number of actions played,
    so a bot that drops and rejoins plays on exactly as it would have."""

    def __init__(self, make: Callable[[int], Agent], name: str) -> None:
        self.make, self.name = make, name
        self.last_info: dict[str, Any] | None = None

    def choose(self, state: GameState) -> Any:
        agent = self.make(len(state.history))
        action = agent.choose(state)
        self.last_info = getattr(agent, "last_info", None)
        return action


#: what a person may type while their undo waits for the other side's answer
UNDO_WAIT_COMMANDS = "'help', 'board', 'history', 'quit'"

#: how the prompts while another seat decides begin (their status is kept up to date)
WAIT_PROMPTS = ("Waiting for", "Watching")


@contextlib.contextmanager
def signals_interrupt() -> Iterator[None]:
    """While in the block, SIGTERM and SIGHUP interrupt as Ctrl-C does (a KeyboardInterrupt in the main
    thread); the handlers before are put back after it.  (Elsewhere than the main thread: nothing.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    wanted = [sig for sig in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig is not None]
    before = {sig: signal.signal(sig, interrupt) for sig in wanted}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


class _Moved(Exception):
    """The position changed while a person was at the prompt (a move arrived, or an undo): look again."""


class RemoteLoop(PlayLoop):
    """The play loop of one seat (or a spectator) of a hosted game: the other seats are remote
    (:meth:`wait_for` is their ``next_action``) and the server plays every action."""

    def __init__(
        self,
        link: Link,
        renderer: Renderer,
        console: Console,
        *,
        agent: Callable[[int], Agent] | None = None,
        agent_name: str = "",
        join_command: str = "",
        on_leave: Callable[[], None] | None = None,
        resume_name: Callable[[], str] | None = None,
        keyboard: Keyboard | None = None,
        **kw: Any,
    ) -> None:
        welcome = link.welcome
        assert welcome is not None
        self.link, self.welcome = link, welcome
        self.spec = game_spec(welcome.ruleset)
        self.replay = ViewReplay(self.spec, welcome.data)
        self.my_agent = FreshAgent(agent, agent_name) if agent is not None else None
        self.agent_name = agent_name
        self.join_command = join_command
        #: called when this loop ends, before its connection closes (the host stops the server)
        self.on_leave = on_leave
        #: the host's keyboard: the name its game is saved under (the server never sends it)
        self.resume_name = resume_name
        #: what is true of each seat now (connected, reconnecting, left the game, not joined yet)
        self.status: dict[int, str] = {}
        #: the seat the waiting prompt waits for (None: not waiting)
        self.waiting: int | None = None
        self.keys = keyboard or Keyboard()
        #: a spectator's input has ended: they watch on without a prompt
        self.no_keyboard = False
        #: the prompt the person is at (None: not at one), and the server's open question
        self.at_prompt: str | None = None
        self.question: Question | None = None
        #: the game changed while a question was open (the prompt ends once it is answered)
        self.moved = False
        #: this seat's undo waits for the other side's answer
        self.undo_open = False
        #: the server's explanations of the computer's latest actions, by the number of actions before each
        self.reasons: dict[int, dict[str, Any]] = {}
        #: the seats the computer took over from a person: the number of actions played before it did
        self.taken_over: dict[int, int] = {}
        session = Table(self.spec, None, 0, self.spec.new_game(0, None), [])
        super().__init__(session, renderer, console, allow_undo=welcome.undo, **kw)

    @property
    def mine(self) -> int | None:
        return self.welcome.seat

    @property
    def person_here(self) -> bool:
        """A person plays a seat at this keyboard (not a spectator, not ``--agent``)."""
        return self.mine is not None and self.my_agent is None

    # -- what the server says ----------------------------------------------------------------
    def sync(self, pos: Position) -> bool:
        """Take in a position; True if the game changed (actions played or taken back)."""
        players = []
        for s, info in enumerate(pos.seats):
            if s == self.mine:
                mine = Seat(info.name) if self.my_agent is None else Seat(info.name, AGENT, self.agent_name or None)
                mine.agent = self.my_agent
                players.append(mine)
            else:
                players.append(Seat(info.name, REMOTE, None if info.kind == "person" else info.kind))
        self.s.seats = players
        self.status = {s: info.status for s, info in enumerate(pos.seats)}
        self.taken_over = {s: info.since for s, info in enumerate(pos.seats) if info.since}
        self.s.seed = pos.seed
        if pos.undone:
            self.pending.append(Text(self.taken_back_line(pos.undone)))
            self.last_ai, self.ai_turn, self.last_turn = None, [], []
        before = list(self.state.history)
        self.reasons = {r.ply: r.info for r in pos.reasons}
        self.s.state = self.replay.update(pos.seed, pos.options, pos.actions, self.step)
        self.s.positions = self.replay.positions
        return bool(pos.undone) or self.state.history != before

    def taken_back_line(self, undone: list[str]) -> str:
        """What an undo took back, whose each decision was (read from the positions before it)."""
        start = len(self.state.history) - len(undone)
        if start < 0 or len(self.s.positions) < len(self.state.history):
            return f"Took back {plural(len(undone), 'action')}: " + "; ".join(undone)
        taken = [(self.s.positions[start + i].current_player(), text) for i, text in enumerate(undone)]
        return f"Took back {whose_decisions(taken, self.names, self.mine)}."

    def step(self, before: GameState, actor: int, action: Any, after: GameState) -> None:
        info = self.reasons.get(len(before.history))
        if info is not None and actor != self.mine:  # the computer played it on the server: 'why' explains it
            self.remember_ai(actor, before, str(action), info)
        lines = self.r.event_lines(after, self.seats_at(len(before.history)), actor, action, before)
        self.log.extend(lines)
        self.pending.extend(lines)

    def seats_at(self, ply: int) -> list[Seat]:
        """The seats as they were when the action after ``ply`` actions was played: a seat the computer
        took over from a person was the person's before it did."""
        return [Seat(p.name, REMOTE) if ply < self.taken_over.get(s, 0) else p for s, p in enumerate(self.s.seats)]

    def mover_tag(self, ply: int, seat: int) -> str:
        """Who made the action after ``ply`` actions ('history'): a seat the computer took over names the
        computer from the action it took over (the person's own earlier actions are theirs)."""
        tag = self.r.seat_tag(self.seats_at(ply), seat)
        spec = self.s.seats[seat].spec
        return f"{tag} ({spec})" if spec and self.taken_over.get(seat, 0) and ply >= self.taken_over[seat] else tag

    def handle(self, msg: Any) -> bool:
        """Take in one message; True if it changed the game (or refused the undo this seat waits on)."""
        if isinstance(msg, Welcome):
            self.welcome = msg
            self.say(Text("Connected again.", style="muted"))
        elif isinstance(msg, Position):
            return self.sync(msg)
        elif isinstance(msg, Notice):
            self.flush()
            self.say(Text(self.words(msg), style="muted"))
        elif isinstance(msg, Question):
            self.asked(msg)
        elif isinstance(msg, Refused) and self.undo_open:  # the answer to this seat's undo: no
            self.flush()
            self.error(msg.reason)
            self.undo_open = False
            return True
        elif isinstance(msg, Closed):
            raise Stopped(self.closed_words(msg.text), EXIT_OK)
        return False

    def words(self, msg: Question | Notice | Refused) -> str:
        """What ``msg`` says, in words: the server sends an undo's facts (:class:`core.net.messages.TakeBack`),
        which are worded here as at one keyboard."""
        undo = msg.undo
        if undo is None:
            return msg.reason if isinstance(msg, Refused) else msg.text
        if isinstance(msg, Refused):
            return undo_absent_words(undo.taken, self.names, undo.asker, undo.maker)
        asked, told = undo_request_words(undo.taken, self.names, undo.asker, undo.maker)
        return f"{asked} Agree?" if isinstance(msg, Question) else told

    def receive(self) -> Any:
        """The next message (waiting for it), taken in."""
        msg = self.guarded(lambda: [self.link.recv(on_retry=self.lost)])[0]
        self.handle(msg)
        return msg

    def guarded(self, get: Callable[[], list[Any]]) -> list[Any]:
        """``get()``'s messages; a connection lost for good stops the game with how to rejoin."""
        try:
            return get()
        except (LinkError, ViewError, ReplayError) as exc:
            text = Text(str(exc), style="error")
            if self.join_command:
                raise Stopped(Group(text, told("Rejoin with", Copy(self.join_command))), EXIT_LOST) from None
            raise Stopped(text, EXIT_LOST) from None

    def lost(self) -> None:
        if self.at_prompt is not None:
            self.clear_prompt()
        self.flush()
        self.say(Text(f"The connection is lost; reconnecting for {self.link.retry_for:g} s...", style="error"))

    def asked(self, q: Question) -> None:
        """A question for this seat: an agent or a spectator answers at once; a person at the prompt."""
        self.flush()
        self.say(Text(self.words(q), style="bold"))
        if not self.person_here:
            self.link.send(Answer(question=q.id, choice="yes" if "yes" in q.choices else "wait"))
            return
        self.question = q
        self.say(Text(f"Answer at the prompt: {', '.join(q.choices)}.", style="muted"))
        if self.at_prompt is None:  # not at a prompt (waiting for the server): ask now
            while self.question is q:
                self.prompt(f"{' / '.join(q.choices)}> ")
                if self.question is q:
                    self.error(f"Answer one of: {', '.join(q.choices)}.")

    def reply(self, ply: int) -> Position | Refused:
        """Wait for the server's answer to what this seat sent at ``ply``: a new position, or why not
        (a position sent before the answer, still at ``ply``, is only taken in)."""
        while True:
            msg = self.receive()
            if isinstance(msg, Position) and len(msg.actions) == ply and not msg.undone:
                continue
            if isinstance(msg, Refused):
                self.error(self.words(msg))
                return msg
            if isinstance(msg, Position):
                return msg
            if isinstance(msg, Welcome):  # reconnected: look at the position again
                return self.receive_position()

    def receive_position(self) -> Position:
        while True:
            msg = self.receive()
            if isinstance(msg, Position):
                return msg

    # -- the prompt, with the server's messages shown above it -----------------------------------
    def prompt(self, text: str) -> str:
        """A line typed at the prompt ``text``; meanwhile what the server says is shown above it, and
        a changed position ends the prompt (:class:`_Moved`) unless a question is being answered."""
        outer, self.at_prompt = self.at_prompt, text
        try:
            while True:
                line = self.next_line()
                q = self.question
                if q is not None and line.strip().lower() in q.choices:
                    self.question = None
                    self.link.send(Answer(question=q.id, choice=line.strip().lower()))
                    if outer is None and text.startswith(" / ".join(q.choices)):
                        return line
                    if self.moved:  # the game changed while the question was open: look again
                        self.moved = False
                        raise _Moved
                    continue
                return line.strip()
        finally:
            self.at_prompt = outer

    def next_line(self) -> str:
        """The next line typed at the prompt, what the server says shown above it meanwhile: on a
        terminal the line being typed stays as it is (:class:`cli.line_input.LineInput`); otherwise
        the keyboard's lines are read on a thread while the connection is polled."""
        if self.line.terminal:
            return self.line.read(self.shown_prompt, watch=(self.link.ready, self.take_one))
        self.write_prompt()
        while True:
            line = self.keys.get(0.1)
            if line == "":
                raise EOFError
            if line is not None:
                return line
            while (msg := self.guarded(lambda: [self.link.poll(self.lost)])[0]) is not None:
                self.above_prompt(msg)

    def take_one(self) -> None:
        """One message from the server, shown above the prompt being typed at."""
        msg = self.guarded(lambda: [self.link.poll(self.lost)])[0]
        if msg is not None:
            self.above_prompt(msg)

    def shown_prompt(self) -> str:
        """The prompt's text now: the open question's answers while one is asked here, else the prompt's own."""
        q = self.question
        if q is not None and self.person_here and self.at_prompt is not None:
            return f"{' / '.join(q.choices)}> "
        return self.at_prompt or ""

    def write_prompt(self) -> None:
        if not self.line.terminal:  # (on a terminal the prompt draws itself)
            self.console.file.write(self.shown_prompt())
            self.console.file.flush()

    def clear_prompt(self) -> None:
        """Make room for a message above the prompt: a terminal clears the prompt's line, a transcript
        ends it (on a terminal whose prompt draws itself, it is out of the way already)."""
        if not self.line.terminal:
            self.console.file.write("\r\x1b[2K" if self.console.is_terminal else "\n")
            self.console.file.flush()

    def above_prompt(self, msg: Any) -> None:
        """Show ``msg`` above the prompt (the prompt's line is cleared, then written again)."""
        self.clear_prompt()
        self.moved = self.handle(msg) or self.moved
        if self.moved and self.question is None:
            self.moved = False
            raise _Moved
        self.flush()
        if self.waiting is not None and self.at_prompt is not None and self.at_prompt.startswith(WAIT_PROMPTS):
            self.at_prompt = self.waiting_prompt(self.waiting)  # who it waits for, as they are now
        self.write_prompt()

    def ask(self, seat: int) -> Any:
        self.moved = False  # what is shown now is the game as it is
        try:
            return super().ask(seat)
        except _Moved:
            return None

    # -- the game ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end; SIGTERM and SIGHUP end it as Ctrl-C does (the others are told this seat
        left, and this terminal how to come back)."""
        with signals_interrupt():
            return super().run()

    def start(self) -> None:
        self.receive_position()
        if self.mine is None:  # a spectator: what happened so far, then the board
            self.flush()
            self.say(self.r.board(self.state, self.s.seats, None))

    def leave(self) -> None:
        if self.on_leave is not None:
            self.on_leave()
        self.link.close()

    def play(self, action: Any) -> None:
        ply = len(self.state.history)
        self.link.send(Play(action=str(action), ply=ply))
        self.reply(ply)

    def wait_for(self, seat: int) -> None:
        """The ``next_action`` of a seat played elsewhere: wait until the game changes (None: look
        again).  A person here has a prompt meanwhile, for the commands ('help', 'save', 'quit'...),
        and so has a spectator ('board', 'log', 'help', 'quit') while their keyboard is there."""
        if self.person_here:
            return self.wait_at_prompt(seat)
        if self.mine is None and not self.no_keyboard:
            self.watch_at_prompt(seat)
        else:
            self.flush()
            while not self.handle(self.guarded(lambda: [self.link.recv(on_retry=self.lost)])[0]):
                pass
        if self.mine is None and not self.state.is_terminal():  # a spectator sees the board after every
            self.say(self.r.board(self.state, self.s.seats, None))  # action (the last one: at the game's end)
            self.flush()
            self.say(self.r.turn_line(self.state, self.s.seats))
        return None

    def waiting_prompt(self, seat: int) -> str:
        """The prompt while ``seat`` decides: its name, and what is true of it now if it is not playing."""
        status = self.status.get(seat, "")
        shown = f" ({status})" if status not in ("", "connected") else ""
        if self.mine is None:
            return f"Watching, {self.s.seats[seat].name}{shown} to play ('board', 'log', 'help', 'quit')> "
        return f"Waiting for {self.s.seats[seat].name}{shown} ('help', 'board', 'save', 'quit')> "

    def watch_at_prompt(self, seat: int) -> None:
        """A spectator's prompt until the game changes: 'board', 'log', 'help', 'quit', nothing that
        changes the game.  The end of their input ends the prompt, not the watching."""
        self.flush()
        self.moved = False
        self.waiting = seat
        try:
            while True:
                word, _, rest = self.prompt(self.waiting_prompt(seat)).partition(" ")
                self.spectator_command(word.lower(), rest.strip())
        except _Moved:
            return
        except EOFError:
            self.no_keyboard = True
            self.clear_prompt()
            self.wait_for(seat)
        finally:
            self.waiting = None

    def spectator_command(self, cmd: str, arg: str) -> None:
        if cmd in ("quit", "exit"):
            raise _End("quit")
        if cmd == "board":
            self.say(self.r.board(self.state, self.s.seats, None))
            self.say(self.r.turn_line(self.state, self.s.seats))
        elif cmd == "log":
            self.show_log(arg)
        elif cmd == "history":
            self.show_history()
        elif cmd in ("help", "?"):
            self.say(spectator_help(self.join_command))
        elif cmd:
            self.error(
                f"'{cmd}' is not a spectator's command: a spectator types 'board', 'log [N]', 'history', "
                "'help' or 'quit'."
            )

    def wait_at_prompt(self, seat: int) -> None:
        self.flush()
        self.moved = False
        name = self.s.seats[seat].name
        self.waiting = seat
        try:
            while True:
                line = self.prompt(self.waiting_prompt(seat))
                word, _, rest = line.partition(" ")
                if word.lower() in self.command_names:
                    assert self.mine is not None
                    if self.command(self.mine, word.lower(), rest.strip(), []) is not None:
                        return None
                elif line:
                    self.error(f"It is {name}'s turn: wait for their move. 'help' lists what you can do meanwhile.")
        except _Moved:
            return None
        finally:
            self.waiting = None

    # -- commands that go through the server ----------------------------------------------------
    def undo(self, seat: int) -> str | None:
        if not self.allow_undo:
            self.error("Undo is switched off for this game.")
            return None
        ply = len(self.state.history)
        self.link.send(Undo(ply=ply))
        while True:  # the server's first answer: done, refused, or the other side is asked
            msg = self.receive()
            if isinstance(msg, Refused):
                self.error(msg.reason)
                return None
            if isinstance(msg, Position) and (msg.undone or len(msg.actions) != ply):
                self.flush()
                return "undone"
            if isinstance(msg, Welcome):  # reconnected: look at the position again
                self.receive_position()
                return "undone"
            if isinstance(msg, Notice):
                return self.await_undo()

    def await_undo(self) -> str:
        """The other side is asked to agree to this seat's undo: a prompt saying so, where the commands
        that change nothing work, until they answer (taken back, or refused) or the game changes; then
        the position is looked at again."""
        self.flush()
        self.undo_open = True
        try:
            while True:
                line = self.prompt(f"Waiting for the answer to your undo ({UNDO_WAIT_COMMANDS})> ")
                word, _, rest = line.partition(" ")
                if word.lower() in self.command_names and word.lower() != "undo":
                    assert self.mine is not None
                    self.command(self.mine, word.lower(), rest.strip(), [])
                elif line:
                    self.error(
                        "Your undo waits for the other side's answer: nothing can be played meanwhile. "
                        "'help' lists what you can do."
                    )
        except _Moved:
            return "undone"
        finally:
            self.undo_open = False

    def save(self, arg: str) -> None:
        if not self.welcome.host:
            self.say(Text("The host saves this game after every action; only the host saves it under another name."))
            return
        self.link.send(Save(name=arg))
        while True:
            msg = self.receive()
            if isinstance(msg, Refused):
                self.error(msg.reason)
                return
            if isinstance(msg, Notice):
                return

    STOPPED: ClassVar[dict[str, str]] = {
        "quit": "You left the game.",
        "eof": "End of input: you left the game.",
        "interrupt": "Interrupted: you left the game.",
    }

    #: what stopping says to a spectator
    WATCH_STOPPED: ClassVar[dict[str, str]] = {
        "quit": "You stopped watching.",
        "eof": "End of input: you stopped watching.",
        "interrupt": "Interrupted: you stopped watching.",
    }

    def ended(self, how: str) -> int:
        """The person leaves on purpose: the server tells the others so (not "reconnecting")."""
        if self.mine is not None:
            self.link.send(Leave())
        return super().ended(how)

    def stopped_words(self) -> dict[str, str]:
        return self.STOPPED if self.mine is not None else self.WATCH_STOPPED

    def how_to_go_on(self) -> tuple[str | Copy, ...]:
        if self.mine is None:
            return (" Watch again with", Copy(self.join_command)) if self.join_command else ()
        if self.welcome.host:
            name = self.resume_name() if self.resume_name is not None else "NAME"
            return (
                " It is saved, and the other players are told the game is stopped; continue it with",
                Copy(f"lehavre host --resume {name}"),
            )
        return (" It stays saved on the host; rejoin with", Copy(self.join_command)) if self.join_command else ()

    def closed_words(self, text: str) -> RenderableType:
        """The server's words on closing the game, and how to come back to it when it is not over: a
        spectator watches again, a player rejoins, once the host continues it (the host is told how)."""
        if self.state.is_terminal() or self.welcome.host or not self.join_command:
            return Text(text, style="bold")
        again = "Watch again" if self.mine is None else "Rejoin"
        return Group(
            Text(text, style="bold"), told(f"{again}, once the host continues it, with", Copy(self.join_command))
        )


def spectator_help(watch_command: str) -> RenderableType:
    """What a spectator can type at their prompt."""
    t = Grid.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    t.add_row("board", "the whole board")
    t.add_row("log [N]", "what the last N actions did (default 30)")
    t.add_row("history", "the last 20 actions and who played them")
    t.add_row("help", "this list")
    again = f"; '{watch_command}' watches again" if watch_command else ""
    t.add_row("quit", f"stop watching (the game goes on{again})")
    return Group(Text("Commands while watching (a spectator does not play):", style="bold"), t)
