"""Game records: saving, loading and replaying games of any rule set.

A game is fully reproduced by (rule set, options, seed, list of action texts)
(see :mod:`core.protocol`), so that is what a record holds, together with the
hash of the building data in use, who sits at each seat, when the record was
made and last changed, whether the game is over and -- when known -- the
``state_hash()`` reached after the last action, to check a replay against.

The API the play loop uses::

    record = new_record("inland", options, seed, ["Alice", Seat.agent("ai:hard")])
    state = new_state(record)                  # the game at setup
    action = parse_action(state, text); state.apply_action(action)
    record.append(str(action), state)          # state: keeps hash/finished right
    save_record(record, path)                  # atomic; SaveError on OSError
    record = load_record(path)                 # RecordError on anything wrong
    state = replay(record)                     # or replay(record, upto=n)
    record.undo(1); state = replay(record)     # take an action back

Every place that turns action texts into positions (saves, a network client's view, a review,
``lehavre replay``) does it with :func:`replay_actions`, and an action that does not replay is one
:class:`ReplayError` naming its number and text, why, and what is legal there.

Everything here is generic over :class:`core.protocol.GameState`; rule sets
are the games' specs, looked up by name in :mod:`core.games`.  Every problem a person can cause -- a corrupt,
truncated or hand-edited file, an unknown format version, a file made with
other building data, a full disk -- surfaces as :class:`RecordError` (reading)
or :class:`SaveError` (writing), whose message names the file and the problem.
A record is verified completely (replayed to the end) before it is returned,
so a bad file never half-loads.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from core.games import UnknownGameError, game_spec
from core.protocol import GameError, GameSpec, GameState, parse_action

#: the version written by this code; files of other versions are refused
FORMAT_VERSION = 1
#: versions this code reads (older ones would be migrated here)
READABLE_VERSIONS: tuple[int, ...] = (1,)
#: file name suffix of saved games
SAVE_SUFFIX = ".json"
#: a save file larger than this is refused without reading it
MAX_RECORD_BYTES = 32 * 1024 * 1024
#: environment variable that moves the data directory (tests, portable installs)
DATA_DIR_ENV = "LEHAVRE_DATA_DIR"


class RecordError(GameError):
    """A record that cannot be used; the message names the file and the problem."""


class SaveError(GameError):
    """A record that could not be written; the game can go on without saving."""


#: how many of the legal actions a :class:`ReplayError` names
SHOWN_LEGAL = 8


class ReplayError(RecordError):
    """An action text that does not replay where it stands (a save, a network view, a review, a replay):
    the message names the action's number and text, why, and what is legal there."""

    def __init__(self, number: int, text: str, why: str, legal: Sequence[str], where: str = "") -> None:
        self.number, self.text, self.legal = number, text, list(legal)
        shown = ", ".join(f"'{t}'" for t in legal[:SHOWN_LEGAL])
        more = f" and {len(legal) - SHOWN_LEGAL} more" if len(legal) > SHOWN_LEGAL else ""
        there = f"legal there: {shown}{more}" if legal else "no action is legal there (the game is over)"
        super().__init__(f"{where}action {number} '{text}' {why}; {there}")


@dataclasses.dataclass(frozen=True, slots=True)
class Replayed:
    """One action replayed: its number (1 for a game's first), text, who decided it, the action, and (when
    asked for) the position before it."""

    number: int
    text: str
    actor: int
    action: Any
    before: GameState | None


def replay_actions(
    state: GameState, texts: Sequence[str], *, first: int = 1, keep_before: bool = False, where: str = ""
) -> Iterator[Replayed]:
    """The one replay: apply the action ``texts`` to ``state`` (changed in place), one at a time, and
    yield each (``first``: the number of the first; ``keep_before``: with a copy of the position before
    it).  An action that is not legal where it stands, or not in its canonical text (a record holds
    canonical texts only), raises :class:`ReplayError`; ``where`` begins its message (a file's name)."""
    for number, text in enumerate(texts, first):
        try:
            action = parse_action(state, text)
        except GameError as exc:
            raise ReplayError(number, text, f"is not legal there: {exc}", _legal(state), where) from None
        if str(action) != text:
            why = f"is not a canonical action text (did you mean '{action}'?)"
            raise ReplayError(number, text, why, _legal(state), where)
        before = state.clone() if keep_before else None
        actor = state.current_player()
        state.apply_action(action)
        yield Replayed(number, text, actor, action, before)


def _legal(state: GameState) -> list[str]:
    return [] if state.is_terminal() else [str(a) for a in state.legal_actions()]


# ---------------------------------------------------------------------------
# Rule sets: the games' specs (core.games)
# ---------------------------------------------------------------------------


def get_ruleset(name: str) -> GameSpec:
    """The spec of the game ``name``; :class:`RecordError` lists the known names."""
    try:
        return game_spec(name)
    except UnknownGameError as exc:
        raise RecordError(str(exc)) from None


# ---------------------------------------------------------------------------
# Options and building data
# ---------------------------------------------------------------------------


def options_to_dict(options: Any) -> dict[str, Any]:
    """A JSON-able dict for a rule set's options (pydantic model, dataclass, dict or None)."""
    if options is None:
        return {}
    if isinstance(options, BaseModel):
        data = options.model_dump(mode="json")
    elif dataclasses.is_dataclass(options) and not isinstance(options, type):
        data = dataclasses.asdict(options)
    elif isinstance(options, Mapping):
        data = dict(options)
    else:
        raise TypeError(f"options must be a pydantic model, a dataclass, a dict or None, not {type(options).__name__}")
    try:
        plain: dict[str, Any] = json.loads(json.dumps(data))
        return plain
    except (TypeError, ValueError) as exc:
        raise TypeError(f"options are not JSON-able: {exc}") from None


def options_from_dict(ruleset: GameSpec, data: dict[str, Any]) -> Any:
    """Turn a record's options back into the game's options model."""
    return ruleset.parse_options(data)


def data_digest_of(ruleset: GameSpec, options: Any = None) -> str:
    """The hash of the building data a game of ``ruleset`` with ``options`` uses."""
    return ruleset.data_digest(options)


# ---------------------------------------------------------------------------
# The record
# ---------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class Seat(BaseModel):
    """Who sits at one seat: a person (``agent`` is None) or an agent spec."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=200)
    agent: str | None = Field(default=None, max_length=200)

    @classmethod
    def human(cls, name: str) -> Seat:
        return cls(name=name)

    @classmethod
    def of_agent(cls, spec: str, name: str | None = None) -> Seat:
        return cls(name=name or spec, agent=spec)

    @property
    def is_human(self) -> bool:
        return self.agent is None

    def label(self) -> str:
        return self.name if self.agent is None or self.agent == self.name else f"{self.name} ({self.agent})"


_HEX = re.compile(r"^[0-9a-f]{8,128}$")


class GameRecord(BaseModel):
    """One game: everything needed to rebuild every position of it."""

    model_config = ConfigDict(extra="forbid", strict=True, validate_assignment=True)

    format_version: int = FORMAT_VERSION
    ruleset: str = Field(min_length=1, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    #: hash of the building data the game was played with
    data_digest: str = Field(max_length=128)
    players: list[Seat] = Field(default_factory=list)
    #: canonical action texts, in the order they were applied
    actions: list[str] = Field(default_factory=list)
    created: datetime = Field(default_factory=_now)
    updated: datetime = Field(default_factory=_now)
    finished: bool = False
    #: ``state_hash()`` after the last action, when known (checked on replay)
    state_hash: str | None = None
    #: final wealth per seat once the game is over
    final_wealth: list[int] | None = None

    _verified: tuple[tuple[str, ...], GameState] | None = PrivateAttr(default=None)

    @field_validator("format_version")
    @classmethod
    def _version_known(cls, v: int) -> int:
        if v not in READABLE_VERSIONS:
            raise ValueError(f"format version {v} is not supported (this lehavre reads {_versions_text()})")
        return v

    @field_validator("actions")
    @classmethod
    def _actions_are_lines(cls, v: list[str]) -> list[str]:
        for i, text in enumerate(v, 1):
            if not text.strip() or "\n" in text or len(text) > 1000:
                raise ValueError(f"action {i} is not one line of text")
        return v

    @field_validator("state_hash")
    @classmethod
    def _hash_is_hex(cls, v: str | None) -> str | None:
        if v is not None and not _HEX.match(v):
            raise ValueError("state_hash must be a lower-case hex digest")
        return v

    # -- changes made by the play loop -----------------------------------------
    def append(self, action_text: str, state: GameState | None = None) -> None:
        """Add one applied action; pass the state after it to keep hash and result right."""
        text = str(action_text)
        self.actions = [*self.actions, text]
        self._after_change(state)

    def undo(self, count: int = 1) -> list[str]:
        """Remove the last ``count`` actions and return them (rebuild with :func:`replay`)."""
        if count < 0 or count > len(self.actions):
            raise RecordError(f"cannot take back {count} actions: the record holds {len(self.actions)}")
        if count == 0:
            return []
        removed = self.actions[-count:]
        self.actions = self.actions[:-count]
        self._after_change(None)
        return removed

    def sync(self, state: GameState) -> None:
        """Record ``state`` (the state after every action) as this record's end."""
        if list(state.history) != list(self.actions):
            raise RecordError("the state's history does not match the record's actions")
        self._after_change(state)

    def _after_change(self, state: GameState | None) -> None:
        self.updated = _now()
        if state is None:
            self.state_hash = None
            self.finished = False
            self.final_wealth = None
            self._verified = None
            return
        self.state_hash = state.state_hash()
        self.finished = state.is_terminal()
        self.final_wealth = list(state.wealth()) if self.finished else None
        self._verified = (tuple(self.actions), state.clone())

    # -- reading ---------------------------------------------------------------
    def to_json(self) -> str:
        return self.model_dump_json(indent=2) + "\n"

    def seat_label(self, seat: int) -> str:
        if 0 <= seat < len(self.players):
            return self.players[seat].label()
        return f"player {seat + 1}"


def _versions_text() -> str:
    return ", ".join(str(v) for v in READABLE_VERSIONS)


def _to_seat(p: Any) -> Seat:
    if isinstance(p, Seat):
        return p
    if isinstance(p, str):
        return Seat.human(p)
    if isinstance(p, Mapping):
        return Seat.model_validate(dict(p))
    raise TypeError(f"a player is a Seat, a name or a dict, not {type(p).__name__}")


def new_record(
    ruleset_name: str,
    options: Any,
    seed: int,
    players: Sequence[Seat | str | Mapping[str, Any]] | Mapping[int, Seat | str] = (),
    *,
    state: GameState | None = None,
) -> GameRecord:
    """A fresh record for a game about to start.

    ``players`` lists each seat as a :class:`Seat`, a person's name, or
    ``{"name": ..., "agent": ...}``; a mapping seat -> player works too.
    ``state`` is the set-up state if the caller already made it (saves making
    it again to learn the building data's hash).
    """
    ruleset = get_ruleset(ruleset_name)
    opts = options_to_dict(options)
    if state is None:
        state = ruleset.new_game(seed, options_from_dict(ruleset, opts))
    if isinstance(players, Mapping):
        players = [players[k] for k in sorted(players)]
    return record_from_state(ruleset_name, options, seed, state, players)


def record_from_state(
    ruleset_name: str,
    options: Any,
    seed: int,
    state: GameState,
    players: Sequence[Seat | str | Mapping[str, Any]] = (),
) -> GameRecord:
    """A record of a game already played to ``state`` (e.g. an agents' game)."""
    ruleset = get_ruleset(ruleset_name)
    seats = [_to_seat(p) for p in players]
    _check_seats(seats, state, "")
    record = GameRecord(
        ruleset=ruleset_name,
        options=options_to_dict(options),
        seed=seed,
        data_digest=data_digest_of(ruleset, options),
        players=seats,
        actions=list(state.history),
    )
    record._after_change(state)
    return record


# ---------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------


def _where(source: str | Path | None) -> str:
    return f"{source}: " if source else ""


def new_state(record: GameRecord, *, source: str | Path | None = None) -> GameState:
    """The record's game at setup (checks the rule set and building data).

    A record whose data is no longer what its options give (the game's default data changed since it
    was saved) is set up with the shipped data of its digest, and its options are made to name that
    data, so everything that plays the record on plays it with that data."""
    where = _where(source)
    try:
        ruleset = get_ruleset(record.ruleset)
    except RecordError as exc:
        raise RecordError(f"{where}{exc}") from None
    state, mine = _set_up(ruleset, record, where)
    if mine != record.data_digest:
        record.options = {**record.options, **_shipped_data(ruleset, record, mine, where)}
        state, mine = _set_up(ruleset, record, where)
    return state


def _set_up(ruleset: GameSpec, record: GameRecord, where: str) -> tuple[GameState, str]:
    """The record's game at setup with its options, and the digest of the data they give."""
    try:
        options = options_from_dict(ruleset, record.options)
        state = ruleset.new_game(record.seed, options)
    except (GameError, OSError, ValueError, TypeError, LookupError, ArithmeticError) as exc:
        raise RecordError(f"{where}the options or seed cannot start a game of '{record.ruleset}': {exc}") from None
    except Exception as exc:
        raise RecordError(
            f"{where}the options or seed cannot start a game of '{record.ruleset}' ({type(exc).__name__}: {exc})"
        ) from None
    _check_seats(record.players, state, where)
    return state, data_digest_of(ruleset, options)


def _shipped_data(ruleset: GameSpec, record: GameRecord, mine: str, where: str) -> dict[str, Any]:
    """The option values that give the record's data, shipped with its game; RecordError if none does."""
    refused = (
        f"{where}this game was made with other building data (data digest {record.data_digest or 'none'}, "
        f"this lehavre uses {mine or 'none'}); it cannot be replayed with these buildings"
    )
    if ruleset.data_by_digest is None or not record.data_digest:
        raise RecordError(refused)
    try:
        found = ruleset.data_by_digest(record.options, record.data_digest)
    except GameError as exc:
        raise RecordError(f"{refused}: {exc}") from None
    if found is None:
        raise RecordError(refused)
    return found


def _check_seats(players: Sequence[Seat], state: GameState, where: str) -> None:
    if players and len(players) != state.num_players:
        raise RecordError(f"{where}the record names {len(players)} players, but its game has {state.num_players} seats")


def iter_replay(record: GameRecord, *, source: str | Path | None = None) -> Iterable[GameState]:
    """Yield the state at setup and after each action (the same object, mutated)."""
    state = new_state(record, source=source)
    yield state
    for _ in replay_actions(state, record.actions, where=_where(source)):
        yield state


def replay(record: GameRecord, upto: int | None = None, *, source: str | Path | None = None) -> GameState:
    """The state after the first ``upto`` actions (all of them by default).

    Raises :class:`RecordError` naming the action number and text if an
    action is not legal where it stands, and, replaying to the end, if the
    state reached differs from the hash stored in the record.
    """
    n = len(record.actions)
    if upto is None:
        upto = n
    if not 0 <= upto <= n:
        raise RecordError(f"{_where(source)}there is no action {upto}: the record holds actions 0 to {n}")
    cached = record._verified
    if cached is not None and upto == n and cached[0] == tuple(record.actions):
        return cached[1].clone()
    where = _where(source)
    state = new_state(record, source=source)
    for _ in replay_actions(state, record.actions[:upto], where=where):
        pass
    if upto == n:
        _check_end(record, state, where)
        record._verified = (tuple(record.actions), state.clone())
    return state


def replay_all(record: GameRecord, *, source: str | Path | None = None) -> list[GameState]:
    """Every state of the game: index ``k`` is the state after ``k`` actions."""
    states: list[GameState] = []
    last: GameState | None = None
    for state in iter_replay(record, source=source):
        last = state
        states.append(state.clone())
    if last is not None:
        _check_end(record, last, _where(source))
    return states


def _check_end(record: GameRecord, state: GameState, where: str) -> None:
    if record.state_hash is not None and state.state_hash() != record.state_hash:
        raise RecordError(
            f"{where}replaying the {len(record.actions)} actions does not reach the position that was saved "
            f"(state hash {state.state_hash()} instead of {record.state_hash}); the file was edited or made by "
            "other rules"
        )
    if record.finished and not state.is_terminal():
        raise RecordError(
            f"{where}the record says the game is over, but after its {len(record.actions)} actions it is not"
        )
    if record.final_wealth is not None and (not state.is_terminal() or record.final_wealth != list(state.wealth())):
        raise RecordError(
            f"{where}the final wealth in the record ({record.final_wealth}) is not what its actions give "
            f"({list(state.wealth()) if state.is_terminal() else 'the game is not over'})"
        )


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


def data_dir() -> Path:
    """The user's data directory: ``$LEHAVRE_DATA_DIR`` when set, else the platform's app dir.

    Everything lehavre keeps lives here: saved games (``saves/``), the list of
    games saved elsewhere (``elsewhere.json``) and the playtest database.
    """
    base = os.environ.get(DATA_DIR_ENV)
    if base:
        return Path(base).expanduser()
    import typer

    return Path(typer.get_app_dir("lehavre"))


def default_save_dir() -> Path:
    """Where saved games live: ``saves`` in :func:`data_dir`."""
    return data_dir() / "saves"


def is_save_name(text: str) -> bool:
    """A save *name* (``mygame``) rather than a path: no folder separator, no ``.json`` ending."""
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return not any(c in text for c in seps) and not text.lower().endswith(SAVE_SUFFIX)


def save_path_for(text: str, directory: str | Path | None = None) -> Path:
    """Where ``save TEXT`` writes: a name goes into the saves folder as ``NAME.json``; a path is a path.

    :class:`SaveError` for a name that cannot be a file name.
    """
    text = text.strip()
    if not text:
        raise SaveError("a save needs a name (e.g. 'save mygame') or a path ending in .json")
    if not is_save_name(text):
        return Path(text).expanduser()
    if text.startswith(".") or any(ord(c) < 32 for c in text) or len(text) > 100:
        raise SaveError(
            f"'{text}' cannot be a save name: use letters, digits, spaces, '-' or '_' "
            "(at most 100 characters, not starting with '.')"
        )
    folder = Path(directory) if directory is not None else default_save_dir()
    return folder / f"{text}{SAVE_SUFFIX}"


def find_save(text: str, directory: str | Path | None = None) -> Path:
    """The file ``--load TEXT`` means: a name listed by ``lehavre saves`` or a path.

    A name is looked up in the saves folder first (``NAME.json``, or the file
    name as listed); :class:`RecordError` if there is no such game.
    """
    folder = Path(directory) if directory is not None else default_save_dir()
    given = Path(text).expanduser()
    if is_save_name(text):
        named = folder / f"{text}{SAVE_SUFFIX}"
        if named.exists():
            return named
        if given.exists():
            return given
        raise RecordError(
            f"no saved game named '{text}' in {folder} ('lehavre saves' lists them; a file elsewhere needs its path)"
        )
    if not given.exists() and given.name == text and (folder / text).exists():
        return folder / text
    return given


_AUTOSAVE_NAME = re.compile(r"^[a-z_]+-\d{8}-\d{6}-seed-?\d+(-\d+)?\.json$")


def is_autosave_name(path: str | Path) -> bool:
    """``path`` is a file :func:`new_save_path` named in the saves folder (not one a person named)."""
    path = Path(path)
    try:
        inside = path.resolve().parent == default_save_dir().resolve()
    except OSError:
        return False
    return inside and bool(_AUTOSAVE_NAME.match(path.name))


def save_name(path: str | Path, directory: str | Path | None = None) -> str:
    """How a person names the game in ``path``: its name in the saves folder, else the path."""
    path = Path(path)
    folder = Path(directory) if directory is not None else default_save_dir()
    try:
        inside = path.resolve().parent == folder.resolve()
    except OSError:
        inside = False
    return path.stem if inside and path.suffix == SAVE_SUFFIX else str(path)


#: how many games saved outside the saves folder are remembered (for ``--resume`` and ``lehavre saves``)
MAX_ELSEWHERE = 50


def _elsewhere_file() -> Path:
    return data_dir() / "elsewhere.json"


def saves_elsewhere() -> list[Path]:
    """Games saved outside the saves folder that lehavre played, most recent first (missing ones dropped)."""
    try:
        data = json.loads(_elsewhere_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return [Path(x) for x in data if isinstance(x, str) and Path(x).is_file()]


def remember_save(path: str | Path) -> None:
    """Note a game saved outside the saves folder, so ``--resume`` and ``lehavre saves`` find it.

    Best effort: a data directory that cannot be written is ignored here (the
    autosave warns about it).
    """
    path = Path(path).expanduser().resolve()
    try:
        if path.parent == default_save_dir().resolve():
            return
    except OSError:
        return
    paths = [str(path)] + [str(p) for p in saves_elsewhere() if str(p) != str(path)]
    target = _elsewhere_file()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(paths[:MAX_ELSEWHERE], indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        pass


def new_save_path(record: GameRecord, directory: str | Path | None = None) -> Path:
    """A fresh file name for ``record`` in ``directory`` (default: :func:`default_save_dir`)."""
    folder = Path(directory) if directory is not None else default_save_dir()
    stamp = record.created.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    base = f"{record.ruleset}-{stamp}-seed{record.seed}"
    path = folder / f"{base}{SAVE_SUFFIX}"
    k = 2
    while path.exists():
        path = folder / f"{base}-{k}{SAVE_SUFFIX}"
        k += 1
    return path


def save_record(record: GameRecord, path: str | Path) -> Path:
    """Write ``record`` to ``path`` atomically (temporary file, then ``os.replace``).

    Creates the folder if needed.  Any OS error becomes :class:`SaveError`
    with the file and the reason; the old file, if any, is left intact.
    """
    path = Path(path)
    text = record.to_json()
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SaveError(f"could not save the game to {path}: {reason}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


#: pydantic's messages for the common problems, in the words of the rest of lehavre's messages
PLAIN_MESSAGES = {
    "missing": "missing",
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number",
    "float_type": "should be a number",
    "float_parsing": "should be a number",
    "string_type": "should be text",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "list_type": "should be a list",
    "dict_type": "should be an object",
    "model_type": "should be an object",
    "extra_forbidden": "is not a known field",
}


def validation_message(exc: ValidationError) -> str:
    """Pydantic's errors in words a person reads: the field, the problem, what was found (no "Value error," prefix)."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "record"
        msg = PLAIN_MESSAGES.get(err.get("type", ""), err.get("msg", "invalid"))
        for prefix in ("Value error, ", "Assertion failed, "):
            msg = msg.removeprefix(prefix)
        found = err.get("input")
        if err.get("type") != "missing" and (found is None or isinstance(found, (bool, int, float, str))):
            shown = repr(found)
            msg += f" (found {shown if len(shown) <= 40 else shown[:37] + '...'})"
        parts.append(f"field '{loc}': {msg}")
    more = f" (and {exc.error_count() - 5} more problems)" if exc.error_count() > 5 else ""
    return "; ".join(parts) + more


def parse_record(text: str | bytes, *, source: str | Path | None = None, verify: bool = True) -> GameRecord:
    """A record from the text of a save file; :class:`RecordError` on any problem.

    With ``verify`` (the default) the record is replayed to the end, so a
    record that is returned is known to be playable.
    """
    where = _where(source) if source else "save file: "
    if isinstance(text, bytes):
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"{where}file is too large to be a saved game ({len(text)} bytes)")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{where}not a saved game: not UTF-8 text (byte {exc.start} is invalid)") from None
    if not text.strip():
        raise RecordError(f"{where}file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        body = text.strip()
        if not body.startswith(("{", "[")):
            start = body.splitlines()[0][:20]
            raise RecordError(
                f"{where}not a saved game: it is not JSON (a saved game is a JSON object starting with '{{'; "
                f"this file starts with {start!r})"
            ) from None
        hint = " (the file looks truncated)" if body.startswith("{") and not body.endswith("}") else ""
        raise RecordError(
            f"{where}not a saved game: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}{hint}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"{where}not a saved game: invalid JSON ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}not a saved game: expected a JSON object, found {type(data).__name__}")
    version = data.get("format_version")
    if version is None:
        raise RecordError(f"{where}not a saved game: it has no format_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        newer = type(version) is int and version > FORMAT_VERSION
        hint = " (made by a newer lehavre?)" if newer else ""
        raise RecordError(
            f"{where}unknown save format version {version!r}{hint}; this lehavre reads version {_versions_text()}"
        )
    try:
        record = GameRecord.model_validate_json(text)
    except ValidationError as exc:
        raise RecordError(f"{where}not a valid saved game: {validation_message(exc)}") from None
    except (ValueError, RecursionError) as exc:  # pragma: no cover - pydantic wraps these
        raise RecordError(f"{where}not a valid saved game: {exc.__class__.__name__}") from None
    if verify:
        try:
            replay(record, source=source)
        except RecursionError:  # pragma: no cover - a bug in a rule set, reported cleanly
            raise RecordError(f"{where}the game in this file cannot be replayed") from None
    return record


def load_record(path: str | Path, *, verify: bool = True) -> GameRecord:
    """Read and check a saved game; :class:`RecordError` names the file and the problem."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir() and not path.is_file():
            raise RecordError(f"{path}: not a regular file, so not a saved game")
        with path.open("rb") as fh:
            raw = fh.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: file is too large to be a saved game (over {MAX_RECORD_BYTES} bytes)")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a folder, not a saved game") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    return parse_record(raw, source=path, verify=verify)


def list_records(directory: str | Path | None = None, ruleset: str | None = None) -> list[tuple[Path, GameRecord]]:
    """Saved games in ``directory`` that can be read (unverified), newest first.

    Without ``directory``: the saves folder and the games saved elsewhere
    (:func:`saves_elsewhere`).

    Files that are not readable records are skipped; load one with
    :func:`load_record` to learn what is wrong with it.
    """
    folder = Path(directory) if directory is not None else default_save_dir()
    found: list[tuple[float, datetime, Path, GameRecord]] = []
    try:
        paths = sorted(folder.glob(f"*{SAVE_SUFFIX}"))
    except OSError:
        paths = []
    if directory is None:  # the default folder: with the games saved elsewhere
        paths += [p for p in saves_elsewhere() if p not in paths]
    for path in paths:
        try:
            record = load_record(path, verify=False)
            mtime = path.stat().st_mtime
        except (RecordError, OSError):
            continue
        if ruleset is not None and record.ruleset != ruleset:
            continue
        found.append((mtime, record.updated, path, record))
    found.sort(key=lambda t: (t[1], t[0], str(t[2])), reverse=True)
    return [(p, r) for _, _, p, r in found]


def latest_unfinished(
    directory: str | Path | None = None, ruleset: str | None = None, *, skip: Callable[[Path], bool] | None = None
) -> Path | None:
    """The most recently updated unfinished game of ``ruleset`` that replays (and that ``skip`` does not
    leave out), or None."""
    for path, record in list_records(directory, ruleset):
        if record.finished or (skip is not None and skip(path)):
            continue
        try:
            replay(record, source=path)
        except RecordError:
            continue
        return path
    return None


# ---------------------------------------------------------------------------
# The JSON state summary (shared by replay --json, the play loop and --watch --json)
# ---------------------------------------------------------------------------


def state_summary(state: GameState, record: GameRecord | None = None) -> dict[str, Any]:
    """A JSON-able summary of ``state``.

    Keys: ``ruleset``, ``action_number`` (action texts applied so far),
    ``actions`` (main actions so far), ``last_action``, ``current_player``
    (``None`` once the game is over), ``terminal``, ``wealth`` (per seat),
    ``breakdown`` (per seat: part -> amount), ``winners`` (seats, once over),
    ``state_hash`` and, with a record, ``seed`` and ``players``.
    """
    terminal = state.is_terminal()
    current = state.current_player()
    out: dict[str, Any] = {
        "ruleset": record.ruleset if record is not None else (state.ruleset or type(state).__name__),
        "action_number": len(state.history),
        "actions": state.main_action_count,
        "last_action": state.history[-1] if state.history else None,
        "current_player": None if terminal or current < 0 else current,
        "terminal": terminal,
        "wealth": list(state.wealth()),
        "breakdown": [dict(state.wealth_breakdown(p)) for p in range(state.num_players)],
        "winners": list(state.winners()) if terminal else None,
        "state_hash": state.state_hash(),
    }
    if record is not None:
        out["seed"] = record.seed
        out["players"] = [s.model_dump() for s in record.players]
    return out


__all__ = [
    "DATA_DIR_ENV",
    "FORMAT_VERSION",
    "GameRecord",
    "RecordError",
    "ReplayError",
    "Replayed",
    "SaveError",
    "Seat",
    "data_digest_of",
    "data_dir",
    "default_save_dir",
    "find_save",
    "get_ruleset",
    "is_autosave_name",
    "is_save_name",
    "iter_replay",
    "latest_unfinished",
    "list_records",
    "load_record",
    "new_record",
    "new_save_path",
    "new_state",
    "options_from_dict",
    "options_to_dict",
    "parse_record",
    "record_from_state",
    "remember_save",
    "replay",
    "replay_actions",
    "replay_all",
    "save_name",
    "save_path_for",
    "save_record",
    "saves_elsewhere",
    "state_summary",
    "validation_message",
]
