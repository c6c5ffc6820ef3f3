"""The game server: it alone holds the true position, applies every action, saves the record after
each one, and sends each connection only what its seat may see (:mod:`core.net.view`).

One server may host several games (:class:`HostedGame`); a connection's first message is its code,
which names the game and the seat (or a spectator).  Each hosted game plays through one
:class:`core.table.Table` (the position, its stack of positions, the record saved after every action,
the seats, the agents' seeds and the undo rule), as a game at one keyboard does: the server drives
the table's one step from its events (whose decision it is, :meth:`core.table.Table.to_decide`; a
move arriving or an agent done thinking is that seat's decision, played by
:meth:`core.table.Table.take`, with the table's guard on the number of actions), and runs the
agents' seats itself.  A person who drops keeps the seat: the others see "reconnecting" (or "left the
game" when they left on purpose), and after the game's timeout they choose to wait, let ``ai:normal``
take the seat, or save and stop.

Nothing a client receives names the game's seed or a file or folder of the host's machine: the seed
rebuilds a hidden set-up (the face-down buildings and tiles of the base game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from core import records
from core.agents import Agent
from core.net.limits import TOO_FAST, MessageRate
from core.net.messages import (
    MAX_MESSAGE,
    Answer,
    Choice,
    ChoiceGroup,
    Closed,
    Hello,
    Leave,
    LogEntry,
    MessageError,
    Notice,
    Play,
    Position,
    Question,
    Reason,
    Refused,
    Save,
    SeatInfo,
    SeatView,
    TakeBack,
    Undo,
    Welcome,
    encode,
    parse_client,
)
from core.net.plan import SeatPlan, TablePlan, save_plan
from core.net.view import DATA_OPTION, ViewReplay, data_of, may_hear, seat_view
from core.net.web import Gate, PageFiles
from core.protocol import ActionError, GameSpec, GameState, parse_action
from core.table import AGENT, REMOTE, EndlessGame, Seat, Table
from core.view_model import game_result

log = logging.getLogger("lehavre.net")

#: seconds a new connection has to send its code
HELLO_TIMEOUT = 10.0
#: the agent that takes a seat whose person did not come back
STAND_IN = "ai:normal"
#: the answers to a seat gone for too long
TIMEOUT_CHOICES = ["wait", "ai", "stop"]
#: how many of the latest actions' explanations a position carries
KEPT_REASONS = 12


#: what a position carries instead of the host's path of the game's data file (the client keeps the
#: contents the welcome brought, and uses its own copy)
DATA_SENT = "sent in the welcome"
#: the status of a seat whose person left on purpose (they may come back with their code)
LEFT = "left the game"


#: ``choices(state)``: the numbered choices of the seat to move in ``state`` (as a person's screen words
#: them) and how many legal ways to pay they leave out; the host command gives the terminal's own
ChoiceMaker = Callable[[GameState], tuple[list[ChoiceGroup], int]]


def plain_choices(state: GameState) -> tuple[list[ChoiceGroup], int]:
    """Every legal action as a choice of its own, with no note (for a server given no :data:`ChoiceMaker`)."""
    return [ChoiceGroup(head=str(a), actions=[Choice(text=str(a))]) for a in state.legal_actions()], 0


def table_seat(plan: SeatPlan) -> Seat:
    """The seat of the one table for a seat of the plan: a person plays it elsewhere (over a connection,
    the host's keyboard too); an agent is run by the server."""
    return Seat(plan.name, REMOTE) if plan.is_person else Seat(plan.name, AGENT, plan.kind)


@dataclass
class _Asked:
    """A question waiting for an answer: an undo to agree to, or a seat gone for too long."""

    kind: str  # "undo" or "timeout"
    to: set[int]
    seat: int  # undo: who asked; timeout: the seat that is gone
    ply: int
    target: int = 0  # undo: how many actions stay
    #: the question as it was sent (a view carries it again, e.g. to a page loaded anew)
    message: Question | None = None


@dataclass
class HostedGame:
    """One hosted game: the one table (:class:`core.table.Table`: the true position, its stack of
    positions, its record and save file, the seats and their agents), and who is connected where."""

    spec: GameSpec
    plan: TablePlan
    table: Table
    conns: dict[int, ServerConnection] = field(default_factory=dict)
    watchers: set[ServerConnection] = field(default_factory=set)
    joined: set[int] = field(default_factory=set)
    #: the seats whose person left on purpose ('quit'), until they come back
    left: set[int] = field(default_factory=set)
    asked: dict[int, _Asked] = field(default_factory=dict)
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    thinking: asyncio.Task[None] | None = None
    stopped: str = ""
    done: asyncio.Event = field(default_factory=asyncio.Event)
    next_question: int = 1
    #: the agents' explanations of their actions, by the number of actions before each
    reasons: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the connections that receive :class:`SeatView` instead of :class:`Position` (a browser)
    viewers: set[ServerConnection] = field(default_factory=set)
    #: how the choices of a view are worded (the host command gives the terminal's)
    choices_of: ChoiceMaker = plain_choices
    #: each seat's (None: the spectators') own view of a game with hidden set-up, kept up to date
    views: dict[int | None, ViewReplay] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.table.seats = [table_seat(p) for p in self.plan.seats]
        self.setup = self.positions[0] if self.positions else self.state.clone()
        try:  # read once: the game has it already, and a client gets it in its welcome
            self.data = data_of(self.record.options)
        except (OSError, ValueError) as exc:
            raise records.RecordError(f"cannot send the game's data file to the players: {exc}") from None
        self.public_seed = public_seed(self.spec, self.table.seed, self.table.options, self.setup)

    @classmethod
    def new(cls, spec: GameSpec, options: Any, seed: int, plan: TablePlan) -> HostedGame:
        """A fresh game of ``spec`` seated as ``plan`` says; its save file is named here (``plan.record``)."""
        table = Table.new(spec, options, seed, [table_seat(p) for p in plan.seats])
        assert table.record is not None
        table.save_path = records.new_save_path(table.record)
        plan.record = str(table.save_path)
        return cls(spec, plan, table)

    @classmethod
    def from_record(cls, spec: GameSpec, record: records.GameRecord, path: Path, plan: TablePlan) -> HostedGame:
        return cls(spec, plan, Table.load(path, record=record))

    # -- the one table's parts ------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.table.state

    @property
    def positions(self) -> list[GameState]:
        return self.table.positions

    @property
    def record(self) -> records.GameRecord:
        assert self.table.record is not None
        return self.table.record

    @property
    def save_path(self) -> Path:
        assert self.table.save_path is not None
        return self.table.save_path

    # -- what each connection sees ------------------------------------------------------
    @property
    def seats(self) -> list[SeatPlan]:
        return self.plan.seats

    def status(self, seat: int) -> str:
        """What is true of ``seat`` now: connected, reconnecting, left the game, not joined yet ("" for
        the computer's seats)."""
        if not self.seats[seat].is_person:
            return ""
        if seat in self.conns:
            return "connected"
        if seat in self.left:
            return LEFT
        return "reconnecting" if seat in self.joined else "not joined yet"

    def seat_infos(self) -> list[SeatInfo]:
        return [
            SeatInfo(name=p.name, kind=p.kind, status=self.status(s), since=p.since) for s, p in enumerate(self.seats)
        ]

    def position_for(self, seat: int | None, undone: list[str] | None = None) -> Position:
        seed, opts = seat_view(self.spec, self.public_seed, self.table.options, self.setup, self.state, seat)
        if opts.get(DATA_OPTION):  # the client uses the contents its welcome brought, not the host's path
            opts = {**opts, DATA_OPTION: DATA_SENT}
        return Position(
            ruleset=self.spec.name,
            seed=seed,
            options=opts,
            actions=list(self.state.history),
            seats=self.seat_infos(),
            undone=undone or [],
            reasons=self.reasons_for(seat),
        )

    def reasons_for(self, seat: int | None) -> list[Reason]:
        """The explanations of the agents' latest actions that ``seat`` may hear."""
        n = len(self.state.history)
        return [
            Reason(ply=k, info=info)
            for k, info in sorted(self.reasons.items())
            if k >= n - KEPT_REASONS
            and may_hear(self.spec, self.setup, self.positions[k], self.positions[k].current_player(), seat)
        ]

    def view_state(self, seat: int | None) -> GameState:
        """The position as ``seat`` (None: a spectator) sees it: the true one when nothing is hidden, else
        the history replayed from that seat's view of the set-up (:func:`core.net.view.seat_view`), so
        that nothing computed from it (the board, the choices' notes) can tell what the seat cannot see."""
        if self.spec.seat_setup is None:
            return self.state
        seed, opts = seat_view(self.spec, self.public_seed, self.table.options, self.setup, self.state, seat)
        replay = self.views.setdefault(seat, ViewReplay(self.spec))
        return replay.update(seed, opts, list(self.state.history))

    def log_entries(self) -> list[LogEntry]:
        """Who played every action so far, and its text."""
        history = self.state.history
        return [
            LogEntry(ply=k, seat=self.positions[k].current_player(), text=text)
            for k, text in enumerate(history)
            if k < len(self.positions)
        ]

    def question_for(self, seat: int | None) -> Question | None:
        """The question open for ``seat`` (the latest asked), if any."""
        open_ = [q.message for _, q in sorted(self.asked.items()) if seat in q.to and q.message is not None]
        return open_[-1] if open_ else None

    def view_for(self, seat: int | None, undone: list[str] | None = None) -> SeatView:
        """The position as ``seat`` (None: a spectator) may see it, as plain data (see :class:`SeatView`)."""
        state = self.view_state(seat)
        over = state.is_terminal()
        to_move = None if over else state.current_player()
        asked = to_move is not None and to_move == seat and not self.stopped
        choices, unlisted = self.choices_of(state) if asked else ([], 0)
        board = self.spec.view(state, seat).model_dump(mode="json") if self.spec.view is not None else {}
        return SeatView(
            ruleset=self.spec.name,
            seat=seat,
            ply=len(state.history),
            to_move=to_move,
            board=board,
            choices=choices,
            unlisted=unlisted,
            log=self.log_entries(),
            undone=undone or [],
            seats=self.seat_infos(),
            question=self.question_for(seat),
            result=game_result(state),
        )

    def message_for(self, ws: ServerConnection, seat: int | None, undone: list[str] | None) -> Position | SeatView:
        return self.view_for(seat, undone) if ws in self.viewers else self.position_for(seat, undone)

    async def send(self, ws: ServerConnection, msg: Any) -> None:
        try:
            await ws.send(encode(msg))
        except ConnectionClosed:
            pass

    async def broadcast(self, undone: list[str] | None = None) -> None:
        for seat, ws in list(self.conns.items()):
            await self.send(ws, self.message_for(ws, seat, undone))
        made: dict[bool, Position | SeatView] = {}  # the spectators' position and view, made once
        for ws in list(self.watchers):
            viewer = ws in self.viewers
            if viewer not in made:
                made[viewer] = self.message_for(ws, None, undone)
            await self.send(ws, made[viewer])

    async def tell(self, text: str, *, but: int | None = None) -> None:
        for seat, ws in list(self.conns.items()):
            if seat != but:
                await self.send(ws, Notice(text=text))
        for ws in list(self.watchers):
            await self.send(ws, Notice(text=text))

    # -- one connection -----------------------------------------------------------------------
    async def serve(self, ws: ServerConnection, seat: int | None, *, view: bool = False) -> None:
        """``ws`` plays ``seat`` (None: watches); with ``view`` it receives views (:class:`SeatView`)."""
        if view:
            self.viewers.add(ws)
        # a person whose seat the computer took (they were away too long) watches from now on
        demoted = self.seats[seat] if seat is not None and not self.seats[seat].is_person else None
        if demoted is not None:
            seat = None
        if seat is None:
            self.watchers.add(ws)
        else:
            await self.seated(ws, seat)
        await self.send(
            ws,
            Welcome(
                ruleset=self.spec.name,
                seat=seat,
                host=bool(seat is not None and self.seats[seat].host),
                undo=self.plan.undo,
                data=self.data,
            ),
        )
        if demoted is not None:
            await self.send(
                ws,
                Notice(
                    text=f"You were away too long: {demoted.kind} plays {demoted.name}'s seat now, as the others chose. "
                    "You are a spectator of this game from now on: you see every move, and cannot play."
                ),
            )
        await self.broadcast()
        if self.stopped:
            await self.send(ws, Closed(text=self.stopped))
        self.kick()
        rate = MessageRate()  # the same limit for every client: a terminal's, a browser's, a spectator's
        try:
            async for raw in ws:
                if rate.allow():
                    await self.receive(ws, seat, raw)
                else:
                    await self.send(ws, Refused(reason=TOO_FAST))
        except ConnectionClosed:
            pass
        finally:
            self.viewers.discard(ws)
            if seat is None:
                self.watchers.discard(ws)
            elif self.conns.get(seat) is ws:
                del self.conns[seat]
                await self.dropped(seat)

    async def seated(self, ws: ServerConnection, seat: int) -> None:
        """``ws`` takes ``seat`` (joining, or back); the others hear it."""
        old = self.conns.get(seat)
        self.conns[seat] = ws
        back = seat in self.joined
        self.joined.add(seat)
        self.left.discard(seat)
        timer = self.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if old is not None:
            await old.close(reason="this seat was joined from another connection")
        await self.tell(f"{self.seats[seat].name} {'is back' if back else 'joined'}.", but=seat)

    async def receive(self, ws: ServerConnection, seat: int | None, raw: str | bytes) -> None:
        try:
            msg = parse_client(raw)
        except MessageError as exc:
            await self.send(ws, Refused(reason=str(exc)))
            return
        if self.stopped:
            await self.send(ws, Refused(reason=self.stopped))
        elif isinstance(msg, Hello):
            await self.send(
                ws, Refused(reason="this connection has joined already; send 'play', 'undo', 'answer' or 'leave'")
            )
        elif seat is None:
            await self.send(ws, Refused(reason="a spectator watches: only the players' codes can play"))
        elif isinstance(msg, Play):
            await self.play(ws, seat, msg)
        elif isinstance(msg, Undo):
            await self.undo(ws, seat, msg)
        elif isinstance(msg, Answer):
            await self.answer(ws, seat, msg)
        elif isinstance(msg, Save):
            await self.save_as(ws, seat, msg)
        elif isinstance(msg, Leave):
            self.left.add(seat)

    # -- changing the game ----------------------------------------------------------------------
    async def take(self, seat: int, action: Any) -> None:
        """The table's step, its decision taken (``seat``'s move arrived, or its agent is done thinking):
        played at the table (which saves the record after it), then everyone sees it and the next seat
        is asked.  A game that does not end (the table's guard) is stopped, saved."""
        try:
            self.table.take(seat, action)
        except EndlessGame as exc:
            log.error("%s", exc)
            await self.stop(f"The game is stopped: it did not end after {self.table.max_actions} actions (a bug).")
            return
        if self.table.save_error:  # the game goes on; the host's log says why
            log.warning("%s", self.table.save_error)
        await self.changed()

    async def changed(self, undone: list[str] | None = None) -> None:
        await self.broadcast(undone)
        if self.state.is_terminal():
            await self.stop("The game is over.")
        else:
            self.kick()

    def save(self) -> None:
        if not self.table.save():
            log.warning("%s", self.table.save_error)

    def stale(self, seat: int, ply: int) -> str | None:
        """Why a message of ``seat`` sent at ``ply`` cannot be taken now, or None."""
        if self.state.is_terminal():
            return "the game is over"
        n = len(self.state.history)
        if ply != n:
            return f"the game has moved on (it is at action {n}, your message was for action {ply}): look again"
        mover = self.state.current_player()
        if mover != seat:
            return f"it is not your turn: {self.seats[mover].name} is to play"
        return None

    async def play(self, ws: ServerConnection, seat: int, msg: Play) -> None:
        why = self.stale(seat, msg.ply)
        if why is None:
            try:
                action = parse_action(self.state, msg.action)
            except ActionError as exc:
                why = str(exc)
        if why is not None:
            await self.send(ws, Refused(reason=why))
            return
        await self.take(seat, action)

    def kick(self) -> None:
        """The table's step, begun (:meth:`core.table.Table.to_decide`): ask whichever seat is to decide --
        the same seat again included -- once every person has joined.  A person's seat is asked by the
        position every connection receives; an agent's seat thinks here (:meth:`agent_move`)."""
        if self.stopped or self.thinking is not None:
            return
        if any(p.is_person and s not in self.joined for s, p in enumerate(self.seats)):
            return
        seat = self.table.to_decide()
        if seat is not None and not self.seats[seat].is_person:
            self.thinking = asyncio.get_running_loop().create_task(self.agent_move(seat, len(self.state.history)))

    def agent_for(self, seat: int) -> Agent:
        return self.table.agent_for(seat)

    async def agent_move(self, seat: int, ply: int) -> None:
        agent = self.agent_for(seat)
        try:
            action = await asyncio.to_thread(agent.choose, self.state.clone())
        finally:
            self.thinking = None
        if self.stopped or len(self.state.history) != ply or self.seats[seat].is_person:
            self.kick()
            return
        self.reasons[ply] = json.loads(json.dumps(getattr(agent, "last_info", None) or {}, default=str))
        await self.take(seat, action)

    # -- undo ------------------------------------------------------------------------------------
    def undo_target(self) -> tuple[int, int] | None:
        """(how many actions stay, who decided) for the last decision of a person, or None: the
        table's undo rule."""
        return self.table.undo_target()

    async def undo(self, ws: ServerConnection, seat: int, msg: Undo) -> None:
        if not self.plan.undo:
            await self.send(ws, Refused(reason="undo is switched off for this game"))
            return
        found = self.undo_target() if msg.ply == len(self.state.history) else None
        if found is None:
            why = "the game has moved on: look again" if msg.ply != len(self.state.history) else "nothing to undo"
            await self.send(ws, Refused(reason=why))
            return
        k, who = found
        if who == seat:
            await self.take_back(k)
            return
        await self.ask_to_take_back(ws, seat, k, who)

    async def ask_to_take_back(self, ws: ServerConnection, seat: int, k: int, who: int) -> None:
        """``seat`` asks to take back the decisions from ``positions[k]`` on, the first of them ``who``'s:
        ``who`` is asked, and the asker is told so (or that ``who`` is not here to agree); each hears the
        facts (the asker, every decision and whose each is), which their client words."""
        facts = TakeBack(asker=seat, maker=who, taken=self.table.taken_back(k))
        if who not in self.conns:
            await self.send(ws, Refused(undo=facts))
            return
        qid = self.ask("undo", {who}, seat, target=k)
        question = self.asked[qid].message = Question(id=qid, choices=["yes", "no"], undo=facts)
        await self.send(self.conns[who], question)
        await self.send(ws, Notice(undo=facts))

    def ask(self, kind: str, to: set[int], seat: int, target: int = 0) -> int:
        qid = self.next_question
        self.next_question += 1
        self.asked[qid] = _Asked(kind, to, seat, len(self.state.history), target)
        return qid

    async def take_back(self, k: int) -> None:
        self.reasons = {p: info for p, info in self.reasons.items() if p < k}
        removed = self.table.pop_to(k)
        for p in self.seats:  # a computer that took a seat over plays the decisions taken back, too
            p.since = min(p.since, k)
        if self.table.save_error:
            log.warning("%s", self.table.save_error)
        await self.changed(undone=removed)

    async def answer(self, ws: ServerConnection, seat: int, msg: Answer) -> None:
        q = self.asked.get(msg.question)
        if q is None or seat not in q.to:
            await self.send(ws, Refused(reason=f"question {msg.question} is not open for you (answered already?)"))
            return
        allowed = ["yes", "no"] if q.kind == "undo" else TIMEOUT_CHOICES
        choice = msg.choice.strip().lower()
        if choice not in allowed:
            await self.send(ws, Refused(reason=f"answer one of: {', '.join(allowed)}"))
            return
        del self.asked[msg.question]
        if q.kind == "undo":
            await self.undo_answered(q, seat, choice)
        else:
            await self.timeout_answered(q, seat, choice)
        await self.refresh_views()

    async def refresh_views(self) -> None:
        """A new view to every connection that receives views (a question answered is no longer open)."""
        for seat, ws in list(self.conns.items()):
            if ws in self.viewers:
                await self.send(ws, self.view_for(seat))
        watching = [ws for ws in self.watchers if ws in self.viewers]
        if watching:
            view = self.view_for(None)
            for ws in watching:
                await self.send(ws, view)

    async def undo_answered(self, q: _Asked, seat: int, choice: str) -> None:
        asker = self.conns.get(q.seat)
        if q.ply != len(self.state.history):
            if asker is not None:
                await self.send(asker, Refused(reason="the game moved on before the answer: nothing taken back"))
            return
        if choice == "yes":
            await self.take_back(q.target)
        elif asker is not None:
            await self.send(asker, Refused(reason=f"{self.seats[seat].name} did not agree: nothing taken back"))

    # -- a person away ------------------------------------------------------------------------------
    async def dropped(self, seat: int) -> None:
        if self.stopped:
            return
        name = self.seats[seat].name
        after = f"you may choose what to do after {self.plan.timeout:g} s"
        if seat in self.left:
            text = f"{name} left the game (they may come back with their code; {after})."
        else:
            text = f"{name} lost the connection: reconnecting ({after})."
        await self.tell(text, but=seat)
        await self.broadcast()
        self.arm(seat)

    def arm(self, seat: int) -> None:
        loop = asyncio.get_running_loop()
        self.timers[seat] = loop.call_later(self.plan.timeout, lambda: loop.create_task(self.away_too_long(seat)))

    async def away_too_long(self, seat: int) -> None:
        self.timers.pop(seat, None)
        if self.stopped or seat in self.conns or not self.seats[seat].is_person:
            return
        others = {s for s in self.conns if s != seat and self.seats[s].is_person}
        if not others:
            self.arm(seat)
            return
        qid = self.ask("timeout", others, seat)
        name = self.seats[seat].name
        gone = "left the game" if seat in self.left else "been away"
        question = Question(
            id=qid,
            text=(
                f"{name} has {gone} for {self.plan.timeout:g} s. wait: wait longer; ai: {STAND_IN} takes "
                f"the seat; stop: save the game and stop (the host continues it with 'lehavre host --resume')."
            ),
            choices=TIMEOUT_CHOICES,
        )
        self.asked[qid].message = question
        for s in others:
            await self.send(self.conns[s], question)

    async def timeout_answered(self, q: _Asked, seat: int, choice: str) -> None:
        for qid, other in list(self.asked.items()):  # one answer settles it for everyone asked
            if other.kind == "timeout" and other.seat == q.seat:
                del self.asked[qid]
        name, who = self.seats[q.seat].name, self.seats[seat].name
        if q.seat in self.conns:
            await self.tell(f"{name} is back already.")
        elif choice == "wait":
            await self.tell(f"{who} chose to wait for {name}.")
            self.arm(q.seat)
        elif choice == "ai":
            self.stand_in(q.seat)
            await self.tell(f"{who} chose: {STAND_IN} plays {name}'s seat from now on.")
            await self.changed()
        else:
            await self.stop(f"{who} stopped the game: it is saved.", resume=True)

    def stand_in(self, seat: int) -> None:
        """:data:`STAND_IN` plays ``seat`` from now on (at the table, in the record and in the plan)."""
        name = self.seats[seat].name
        self.seats[seat].kind = STAND_IN
        self.seats[seat].since = len(self.state.history)  # the actions before were the person's
        self.table.seats[seat] = Seat(name, AGENT, STAND_IN)
        self.record.players[seat] = records.Seat.of_agent(STAND_IN, name)
        self.save()
        self.save_plan()

    def resume_hint(self, *, host: bool = True) -> str:
        """How the game goes on; the save's name only for the host (it names the seed)."""
        name = f" {records.save_name(self.save_path)}" if host else ""
        return f"The host continues it with 'lehavre host --resume{name}'."

    def save_plan(self) -> None:
        try:
            save_plan(self.plan)
        except records.SaveError as exc:
            log.warning("%s", exc)

    async def save_as(self, ws: ServerConnection, seat: int, msg: Save) -> None:
        if not self.seats[seat].host:
            await self.send(ws, Refused(reason="only the host saves this game (it is saved after every action)"))
            return
        try:
            path = records.save_path_for(msg.name) if msg.name else self.save_path
            if path.exists() and path.resolve() != self.save_path.resolve():
                raise records.SaveError(f"there is already a saved game '{records.save_name(path)}' ({path})")
            records.save_record(self.record, path)
        except records.SaveError as exc:
            await self.send(ws, Refused(reason=str(exc)))
            return
        if path.resolve() != self.save_path.resolve():
            self.table.save_path = path
            self.plan.record = str(path)
            self.save_plan()
        await self.send(ws, Notice(text=f"Saved to {path}. {self.resume_hint()}"))  # the host's own machine

    async def stop(self, text: str, *, resume: bool = False) -> None:
        """End this game: everyone hears why (with ``resume``: how it goes on; the save's name only to
        the host), and the connections close."""
        if self.stopped:
            return
        self.stopped = f"{text} {self.resume_hint(host=False)}" if resume else text
        self.save()
        for timer in self.timers.values():
            timer.cancel()
        for seat, ws in [*self.conns.items(), *((None, w) for w in self.watchers)]:
            host = seat is not None and self.seats[seat].host
            await self.send(ws, Closed(text=f"{text} {self.resume_hint()}" if resume and host else self.stopped))
            with contextlib.suppress(ConnectionClosed):
                await ws.close()
        self.done.set()


def public_seed(spec: GameSpec, seed: int, options: Any, setup: GameState) -> int:
    """The seed a client may be sent for a game without hidden set-up: 0 when the game sets up the same
    from any seed (the Inland Port draws nothing), else the game's own (its set-up is public then)."""
    if spec.seat_setup is not None:
        return 0  # unused: a seat's view is given in full (seat_view)
    return 0 if spec.new_game(0, options).key() == setup.key() else seed


class GameServer:
    """Serves any number of tables on one address; a code names the table and the seat."""

    def __init__(
        self,
        *,
        ping_interval: float | None = 20.0,
        ping_timeout: float | None = 20.0,
        page: PageFiles | None = None,
    ) -> None:
        #: the HTTP side of the port: the page's files (none: every path is 404) and the Origin check
        self.gate = Gate(page or PageFiles())
        self.tables: list[HostedGame] = []
        self.codes: dict[str, tuple[HostedGame, int | None]] = {}
        self.ping = (ping_interval, ping_timeout)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.port = 0

    def add(self, table: HostedGame) -> None:
        for s, p in enumerate(table.seats):
            if p.code:
                self.codes[p.code] = (table, s)
        self.codes[table.plan.watch_code] = (table, None)
        self.tables.append(table)

    async def handler(self, ws: ServerConnection) -> None:
        try:
            first = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT)
            msg = parse_client(first)
        except (TimeoutError, ConnectionClosed):
            return
        except MessageError as exc:
            await ws.send(encode(Refused(reason=f"{exc}; the first message is 'hello' with your code")))
            return
        if not isinstance(msg, Hello):
            await ws.send(encode(Refused(reason="the first message is 'hello' with your code")))
            return
        found = self.codes.get(msg.code)
        if found is None:
            await ws.send(encode(Refused(reason="unknown code: use one of the codes the host printed")))
            return
        table, seat = found
        await table.serve(ws, None if msg.watch else seat, view=msg.view)

    async def run(self, bind: str, port: int, ready: Callable[[int], None] | None = None) -> None:
        """Serve until every table has ended; ``ready(port)`` once listening."""
        self.loop = asyncio.get_running_loop()
        interval, timeout = self.ping
        async with serve(
            self.handler,
            bind,
            port,
            max_size=MAX_MESSAGE,
            process_request=self.gate,
            ping_interval=interval,
            ping_timeout=timeout,
            logger=log,
        ) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            if ready is not None:
                ready(self.port)
            for table in list(self.tables):
                await table.done.wait()
            await asyncio.sleep(0.2)  # let the last 'closed' messages leave

    def stop_all(self, text: str, *, resume: bool = True) -> None:
        """From another thread: stop every table (everyone hears ``text``, and with ``resume`` how the
        game goes on); waits for it (5 s at most)."""
        loop = self.loop
        if loop is None:
            return

        async def stop() -> None:
            for t in self.tables:
                await t.stop(text, resume=resume)

        coro = stop()
        try:
            done = asyncio.run_coroutine_threadsafe(coro, loop)
        except RuntimeError:  # the loop has ended already
            coro.close()
            return
        with contextlib.suppress(Exception):  # stopped, or the loop ended meanwhile
            done.result(timeout=5)
