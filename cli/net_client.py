"""A seat at a game hosted elsewhere: the connection (:class:`Link`) and the play loop over it
(:class:`RemoteLoop`): the same screen, prompt, commands and help as a local game, where the other
seats are remote (their moves come from the server) and the server applies every action.

The connection uses the ``websockets`` package's blocking client: the prompt blocks on the keyboard
anyway, and its own thread answers the server's keep-alive pings meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from cli.explain import agent_choose
from cli.prompt import PlayLoop, _End
from cli.renderer import Renderer
from cli.session import EXIT_INTERRUPTED, EXIT_OK, Player, Session
from core.agents import Agent
from core.games import game_spec
from core.net.messages import (
    MAX_MESSAGE,
    Answer,
    Closed,
    Hello,
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
from core.records import save_name

#: exit code when the connection is lost for good (rejoin with the same command)
EXIT_LOST = 1
#: how long a dropped client tries to reconnect before it gives up, in seconds
RETRY_FOR = 30.0


def bot_seed(seat: int, ply: int) -> int:
    """The seed of the agent that plays ``seat`` (``join --agent``) after ``ply`` actions."""
    return 1_000_000 * (seat + 1) + ply


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
        self.ws, self.welcome = ws, first
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
            try:
                assert self.ws is not None
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

    def pending(self) -> list[Any]:
        """The messages that have arrived already (without waiting)."""
        out = []
        while self.ws is not None:
            try:
                raw = self.ws.recv(timeout=0)
            except (TimeoutError, ConnectionClosed):
                break
            try:
                out.append(parse_server(raw))
            except MessageError as exc:
                raise LinkError(f"the server sent a message this version cannot read: {exc}") from None
        return out

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


class _Stopped(Exception):
    """The server stopped the game (it is over, or saved and stopped); the text says why."""


class RemoteLoop(PlayLoop):
    """The play loop of one seat (or a spectator) of a hosted game."""

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
        **kw: Any,
    ) -> None:
        welcome = link.welcome
        assert welcome is not None
        self.link, self.welcome = link, welcome
        self.spec = game_spec(welcome.ruleset)
        self.replay = ViewReplay(self.spec)
        #: the agent playing this seat, made afresh for each decision from the number of actions
        #: played (so a bot that drops and rejoins plays on exactly as it would have)
        self.agent_for, self.agent_name = agent, agent_name
        self.my_agent: Agent | None = agent(0) if agent is not None else None
        self.join_command = join_command
        #: called when this loop ends, before its connection closes (the host stops the server)
        self.on_leave = on_leave
        self.asked_to_wait = -1
        session = Session(welcome.ruleset, None, 0, self.spec.new_game(0, None), [])
        super().__init__(session, renderer, console, allow_undo=welcome.undo, **kw)

    @property
    def mine(self) -> int | None:
        return self.welcome.seat

    # -- what the server says ----------------------------------------------------------------
    def sync(self, pos: Position) -> None:
        players = []
        for s, info in enumerate(pos.seats):
            name = info.name + (f" ({info.status})" if info.status not in ("", "connected") else "")
            if s == self.mine:
                players.append(Player(info.name, self.my_agent, self.agent_name or None))
            else:
                players.append(Player(name, spec=None if info.kind == "person" else info.kind, remote=True))
        self.s.players = players
        self.s.seed = pos.seed
        if pos.undone:
            n = len(pos.undone)
            self.pending.append(Text(f"Took back {n} action{'s' if n != 1 else ''}: " + "; ".join(pos.undone)))
            self.last_ai, self.ai_turn, self.last_turn = None, [], []
        self.s.state = self.replay.update(pos.seed, pos.options, pos.actions, self.step)
        self.s.positions = self.replay.positions

    def step(self, before: GameState, actor: int, action: Any, after: GameState) -> None:
        lines = self.r.event_lines(after, self.s.players, actor, action, before)
        self.log.extend(lines)
        self.pending.extend(lines)

    def handle(self, msg: Any) -> Any:
        """Take in one message; returns it (the caller waits for a Position or a Refused)."""
        if isinstance(msg, Welcome):
            self.welcome = msg
            self.say(Text("Connected again.", style="muted"))
        elif isinstance(msg, Position):
            self.sync(msg)
        elif isinstance(msg, Notice):
            self.flush()
            self.say(Text(msg.text, style="muted"))
        elif isinstance(msg, Question):
            self.answer(msg)
        elif isinstance(msg, Closed):
            raise _Stopped(msg.text)
        return msg

    def receive(self) -> Any:
        return self.handle(self.link.recv(on_retry=self.lost))

    def lost(self) -> None:
        self.flush()
        self.say(Text(f"The connection is lost; reconnecting for {self.link.retry_for:g} s...", style="error"))

    def answer(self, q: Question) -> None:
        self.flush()
        self.say(Text(q.text, style="bold"))
        if self.my_agent is not None or self.mine is None:
            choice = "yes" if "yes" in q.choices else "wait"
        else:
            while True:
                choice = self.prompt(f"{' / '.join(q.choices)}> ").strip().lower()
                if choice in q.choices:
                    break
                self.error(f"Answer one of: {', '.join(q.choices)}.")
        self.link.send(Answer(question=q.id, choice=choice))

    def reply(self, ply: int) -> Position | Refused:
        """Wait for the server's answer to what this seat sent at ``ply``: a new position, or why not
        (a position sent before the answer, still at ``ply``, is only taken in)."""
        while True:
            msg = self.receive()
            if isinstance(msg, Position) and len(msg.actions) == ply and not msg.undone:
                continue
            if isinstance(msg, Position | Refused):
                if isinstance(msg, Refused):
                    self.error(msg.reason)
                return msg
            if isinstance(msg, Welcome):  # reconnected: look at the position again
                return self.receive_position()

    def receive_position(self) -> Position:
        while True:
            msg = self.receive()
            if isinstance(msg, Position):
                return msg

    # -- the game ---------------------------------------------------------------------------
    def run(self) -> int:
        try:
            self.receive_position()
            while not self.state.is_terminal():
                seat = self.state.current_player()
                if seat == self.mine:
                    self.my_move(seat)
                else:
                    self.wait_for(seat)
        except _End as end:
            return self.ended(end.how)
        except KeyboardInterrupt:
            return self.ended("interrupt")
        except EOFError:
            return self.ended("eof")
        except _Stopped as stop:
            self.flush()
            self.say(Text(str(stop), style="bold"))
            return EXIT_OK
        except (LinkError, ViewError) as exc:
            self.flush()
            self.error(str(exc))
            if self.join_command:
                self.say(Text(f"Rejoin with '{self.join_command}'."))
            return EXIT_LOST
        finally:
            if self.on_leave is not None:
                self.on_leave()
            self.link.close()
        return self.game_over()

    def my_move(self, seat: int) -> None:
        self.asked_to_wait = -1
        for msg in self.link.pending():  # what arrived meanwhile (someone joined, a newer position)
            self.handle(msg)
        if self.state.is_terminal() or self.state.current_player() != seat:
            return
        ply = len(self.state.history)
        if self.agent_for is not None:
            agent = self.agent_for(ply)
            action = agent_choose(agent, self.state, self.console, self.s.players[seat].label)
        else:
            action = self.ask(seat)
            if action is None:  # taken back, or the position changed: look again
                return
        if len(self.state.history) != ply:
            return
        self.link.send(Play(action=str(action), ply=ply))
        self.reply(ply)

    def wait_for(self, seat: int) -> None:
        if self.asked_to_wait != seat:  # once while the same seat decides
            self.asked_to_wait = seat
            if self.mine is not None and any(p.is_human for p in self.s.players):
                self.flush()
                self.say(Text(f"Waiting for {self.s.players[seat].name}... (Ctrl-C leaves the game)", style="muted"))
        if self.mine is None or not any(p.is_human for p in self.s.players):
            self.flush()
        self.receive()

    # -- commands that go through the server ----------------------------------------------------
    def undo(self, seat: int) -> str | None:
        if not self.allow_undo:
            self.error("Undo is switched off for this game.")
            return None
        ply = len(self.state.history)
        self.link.send(Undo(ply=ply))
        msg = self.reply(ply)
        if isinstance(msg, Position):
            self.flush()
            return "undone"
        return None

    def save(self, arg: str) -> None:
        if not self.welcome.host:
            self.say(
                Text(
                    f"The host saves this game after every action ({self.welcome.save_path}); "
                    "only the host saves it under another name."
                )
            )
            return
        self.link.send(Save(name=arg))
        while True:
            msg = self.receive()
            if isinstance(msg, Refused):
                self.error(msg.reason)
                return
            if isinstance(msg, Notice):
                return

    def ended(self, how: str) -> int:
        self.flush()
        self.console.print()
        why = {
            "quit": "You left the game.",
            "eof": "End of input: you left the game.",
            "interrupt": "Interrupted: you left the game.",
        }[how]
        if self.welcome.host:
            name = save_name(self.welcome.save_path) if self.welcome.save_path else "NAME"
            why += (
                " It is saved, and the other players are told the game is stopped; "
                f"continue it with 'lehavre host --resume {name}'."
            )
        elif self.join_command:
            why += f" It stays saved on the host; rejoin with '{self.join_command}'."
        self.console.print(Text(why))
        return EXIT_INTERRUPTED if how == "interrupt" else EXIT_OK
