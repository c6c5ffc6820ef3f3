"""The messages of network play: JSON objects validated by pydantic models, each with the protocol
version and a ``type``.  A message that does not parse, is too long, or is of another version is
refused with a reason (:class:`MessageError`), like a bad save file.

A connection begins with :class:`Hello` (its code).  A terminal client then receives :class:`Position`
(the options and action texts it replays with its own engine); a client without the engine (a
browser) says ``view: true`` in its hello and receives :class:`SeatView` instead: after every change,
the position as its seat may see it as plain data (the game's view model), the choices of the seat
to move with the texts to send in :class:`Play` and the notes the terminal's numbered choices show,
the log, the seats, the open question and, at the end, the result.  Both kinds receive
:class:`Welcome` first, and :class:`Refused`, :class:`Notice`, :class:`Question` and :class:`Closed`
alike; a :class:`Play` whose text is not legal is refused with what is allowed and the legal action
it was probably meant to be ("Did you mean ...?"), as the terminal's prompt says it.  (``view`` and
``SeatView`` came without a new protocol version: a terminal client neither asks for nor receives
them, and a page is served by the server it speaks to.)"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from core.protocol import GameError
from core.view_model import GameResult

#: the protocol version; a message of another version is refused (2: an undo's facts, worded by the client)
PROTOCOL_VERSION = 2
#: the longest message accepted, in bytes (a base game's position with a long history fits well inside)
MAX_MESSAGE = 256 * 1024
#: the longest message a client may send (its actions and answers are short); longer ones are refused
MAX_CLIENT_MESSAGE = 4096
#: the longest action text or name a client may send
MAX_TEXT = 200


class MessageError(GameError):
    """A message that cannot be accepted; the text says why."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    version: Literal[2] = 2  # PROTOCOL_VERSION


# -- client to server ------------------------------------------------------------------------
class Hello(_Message):
    """The first message of a connection: the seat's (or the spectators') code, never in the address."""

    type: Literal["hello"] = "hello"
    code: str = Field(min_length=1, max_length=64)
    #: only watch, even with a seat's code (a spectator never plays)
    watch: bool = False
    #: receive :class:`SeatView` (the position as plain data, for a client without the engine: a
    #: browser) instead of :class:`Position` (action texts the client replays)
    view: bool = False


class Play(_Message):
    """An action's canonical text, played from the position after ``ply`` actions."""

    type: Literal["play"] = "play"
    action: str = Field(min_length=1, max_length=MAX_TEXT)
    ply: int = Field(ge=0)


class Undo(_Message):
    """Ask to take back the last decision of a person (its maker must agree if it is not the asker)."""

    type: Literal["undo"] = "undo"
    ply: int = Field(ge=0)


class Answer(_Message):
    """The answer to a :class:`Question`."""

    type: Literal["answer"] = "answer"
    question: int = Field(ge=0)
    choice: str = Field(min_length=1, max_length=20)


class Save(_Message):
    """The host saves the game under a name (``save NAME`` at the host's prompt)."""

    type: Literal["save"] = "save"
    name: str = Field(default="", max_length=MAX_TEXT)


class Leave(_Message):
    """The person leaves on purpose ('quit'): the others read that they left, not that their connection
    was lost (they may still come back with their code)."""

    type: Literal["leave"] = "leave"


ClientMessage = Annotated[Hello | Play | Undo | Answer | Save | Leave, Field(discriminator="type")]


# -- server to client ------------------------------------------------------------------------
class SeatInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    #: "person" (at a keyboard somewhere) or the agent's spec
    kind: str
    #: "connected", "reconnecting", "left the game", "not joined yet", or "" for the computer's seats
    status: str = ""
    #: the number of actions played before ``kind`` took the seat (the computer that took over a person's
    #: seat: the earlier actions were the person's); 0 when ``kind`` sat here from the start
    since: int = Field(default=0, ge=0)


class Welcome(_Message):
    type: Literal["welcome"] = "welcome"
    ruleset: str
    seat: int | None  # None: a spectator
    host: bool = False
    undo: bool = True
    #: no longer sent (always ""): a path of the host's disk, and the save's name carries the seed
    save_path: str = ""
    #: the contents of the game's data file (Inland Port: ``--buildings``), so a client needs no copy
    data: Any = None


class Reason(BaseModel):
    """The computer's explanation of the action it played after ``ply`` actions (its principal
    variation, score and evaluation terms, as 'why' shows them), sent only to who may hear it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ply: int = Field(ge=0)
    info: dict[str, Any]


class Position(_Message):
    """The game as the receiver may see it: options and seed of a replay (for a game with hidden
    set-up, the receiver's own, with seed 0) and every action's text so far."""

    type: Literal["position"] = "position"
    ruleset: str
    seed: int
    options: dict[str, Any]
    actions: list[str]
    seats: list[SeatInfo]
    #: the texts taken back by an undo just now (shown to everyone), else empty
    undone: list[str] = []
    #: the computer's explanations of its latest actions, for 'why'
    reasons: list[Reason] = []


class TakeBack(BaseModel):
    """The facts of an undo one seat asks another to agree to (the client words them): ``asker`` asks,
    ``maker`` decided first of what it takes back, ``taken`` is every decision it takes back (who
    decided, the action's text), in order."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    asker: int = Field(ge=0)
    maker: int = Field(ge=0)
    taken: list[tuple[int, str]]


class Refused(_Message):
    """The last message changed nothing; ``reason`` says why and what is allowed (with ``undo``: the
    undo asked for, whose maker is not here to agree)."""

    type: Literal["refused"] = "refused"
    reason: str = ""
    undo: TakeBack | None = None


class Notice(_Message):
    """News for this seat (with ``undo``: the undo it asked for, whose maker is asked to agree)."""

    type: Literal["notice"] = "notice"
    text: str = ""
    undo: TakeBack | None = None


class Question(_Message):
    """A question for this person (an undo to agree to: ``undo``, a seat gone for too long: ``text``):
    one of ``choices``."""

    type: Literal["question"] = "question"
    id: int
    text: str = ""
    choices: list[str]
    undo: TakeBack | None = None


class Choice(BaseModel):
    """One legal action: its canonical text (what to send in :class:`Play`), the way it differs from
    the other actions of its group (``how``: after the colon; "" when it is alone) and its note."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    text: str
    how: str = ""
    note: str = ""


class ChoiceGroup(BaseModel):
    """One of the terminal's numbered choices: its ``head`` (the action's text when it is alone), its
    note (cost, effect, number of ways) and its actions (several: the terminal's second step)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    head: str
    note: str = ""
    actions: list[Choice]


class LogEntry(BaseModel):
    """Action number ``ply`` (0-based: the actions before it) was ``seat``'s, and its text."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ply: int = Field(ge=0)
    seat: int = Field(ge=0)
    text: str


class SeatView(_Message):
    """The position as the receiver may see it, as plain data (to a connection whose hello asked for
    ``view``, instead of :class:`Position`), sent after every change:

    - ``ruleset``; ``seat`` (None: a spectator); ``ply``: the number of actions played (a :class:`Play`
      or :class:`Undo` names it); ``to_move``: the seat to decide (None: the game is over);
    - ``board``: the game's view model (``inland_port.view_model.InlandBoard``,
      ``base_game.view_model.BaseBoard``, as JSON; its ``game`` field names which);
    - ``choices``: for the seat to move only, the terminal's numbered choices (each group's actions
      with their canonical texts and notes); ``unlisted``: how many legal ways to pay are left out of
      them (another way pays no more of anything; they may still be typed);
    - ``log``: every action so far (who, its text); ``undone``: the texts an undo took back just now;
    - ``seats``: each seat's name, kind and status; ``question``: the question open for this seat
      (also sent as a :class:`Question` when asked); ``result``: when the game is over, each seat's
      wealth and its parts, placings and the winner's margin.

    Never in it: the seed, the order of face-down cards or tiles, a path of the host's machine, or
    another seat's secret."""

    type: Literal["view"] = "view"
    ruleset: str
    seat: int | None
    ply: int = Field(ge=0)
    to_move: int | None
    board: dict[str, Any]
    choices: list[ChoiceGroup] = []
    unlisted: int = Field(default=0, ge=0)
    log: list[LogEntry] = []
    undone: list[str] = []
    seats: list[SeatInfo]
    question: Question | None = None
    result: GameResult | None = None


class Closed(_Message):
    """The game stops (it is over, or saved and stopped); ``text`` says how to continue if it can."""

    type: Literal["closed"] = "closed"
    text: str


ServerMessage = Annotated[
    Welcome | Position | SeatView | Refused | Notice | Question | Closed, Field(discriminator="type")
]

_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def _parse(adapter: TypeAdapter[Any], data: str | bytes, who: str, limit: int) -> Any:
    if len(data) > limit:
        raise MessageError(f"the message is {len(data)} bytes long; at most {limit} are accepted")
    try:
        obj = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MessageError(f"the message is not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise MessageError("a message is a JSON object with 'version' and 'type'")
    if obj.get("version") != PROTOCOL_VERSION:
        raise MessageError(
            f"protocol version {obj.get('version')!r} is not spoken here (this is version {PROTOCOL_VERSION}); "
            "use the same lehavre version as the host"
        )
    try:
        return adapter.validate_python(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "message"
        raise MessageError(f"not a valid {who} message: {where}: {first['msg']}") from None


def parse_client(data: str | bytes) -> Hello | Play | Undo | Answer | Save | Leave:
    """A client's message, or :class:`MessageError` saying what is wrong."""
    msg: Hello | Play | Undo | Answer | Save | Leave = _parse(_CLIENT, data, "client", MAX_CLIENT_MESSAGE)
    return msg


def parse_server(data: str | bytes) -> Welcome | Position | SeatView | Refused | Notice | Question | Closed:
    """A server's message, or :class:`MessageError` saying what is wrong."""
    msg: Welcome | Position | SeatView | Refused | Notice | Question | Closed = _parse(
        _SERVER, data, "server", MAX_MESSAGE
    )
    return msg


def encode(msg: BaseModel) -> str:
    return msg.model_dump_json()
