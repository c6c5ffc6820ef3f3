"""The generic play loop: written once for every rule set.

It knows only :mod:`core.protocol` (states, legal actions, canonical action
texts, ``parse_action``), :mod:`core.agents` and :mod:`core.records`; what a
game looks like on screen comes from a :class:`Renderer` (one per rule set,
e.g. ``cli.render_inland.InlandRenderer``).

* :func:`play` -- a game with people at the keyboard and/or agents: asks a
  person for each decision (a number from a list, in at most two steps, or an
  action's text), asks an agent otherwise, prints what happened after every
  action, autosaves, and offers ``help``, ``rules``, ``hint``, ``why``,
  ``undo``, ``save``, ``quit`` at the prompt.
* :func:`watch` -- a whole game between agents without input, every action
  printed, or one JSON object at the end.

Ctrl-C or the end of input end a game with a short message (and the autosave
path, to resume with ``--resume``), never a traceback.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from core.agents import Agent, AgentSpecError, make_agent
from core.protocol import ActionError, GameError, GameSpec, GameState, normalize_text, parse_action

#: exit codes of a game: finished or quit by the player, end of input, Ctrl-C
EXIT_OK = 0
EXIT_INTERRUPTED = 130

#: the agent spec used for hints (and the default computer opponent)
HINT_AGENT = "ai:normal"


# ---------------------------------------------------------------------------
# Players and agents
# ---------------------------------------------------------------------------


@dataclass
class Player:
    """Who sits at a seat: a person (``agent`` is None) or an agent."""

    name: str
    agent: Agent | None = None
    spec: str | None = None  # the agent's spec, e.g. "ai:normal"

    @property
    def is_human(self) -> bool:
        return self.agent is None

    @property
    def label(self) -> str:
        if self.agent is None or self.spec in (None, self.name):
            return self.name
        return f"{self.name} ({self.spec})"


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in a game of ``seed`` (reproducible games)."""
    return seed * 1000 + seat


def level_help(game: GameSpec) -> str:
    """``--level``'s help: the game's own AI levels and their budgets (from its spec)."""
    parts = [
        f"{name} ({'the default: ' if name == game.default_level else ''}{lv.describe()})"
        for name, lv in game.ai_levels.items()
    ]
    return "Strength of an 'ai' opponent: " + ", ".join(parts) + "."


def think_time_help(game: GameSpec) -> str:
    """``--think-time``'s help, naming the default level's time cap in this game."""
    normal = game.level(None)
    return (
        f"Seconds every AI thinks per move, instead of its level's node budget (default: the level's budget; "
        f"ai:{normal.name} stops at {normal.time_cap:g} s). A timed game is not reproducible from its seed."
    )


class Level(str, Enum):
    easy = "easy"
    normal = "normal"
    hard = "hard"


def opponent_with_level(opponent: str, level: Level | None, watch: bool) -> str:
    """The ``--opponent`` spec with ``--level`` applied; a bad combination is a usage error."""
    import typer

    if level is None:
        return opponent
    if watch:
        raise typer.BadParameter(
            "with --watch, give each AI's level in --agents (e.g. ai:hard,greedy)", param_hint="'--level'"
        )
    try:
        return with_level(opponent, level.value)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--level'") from None


def check_mode(watch: bool, json_out: bool, resume: bool, load: str | None) -> None:
    """Options that do not go together in a game command are usage errors."""
    import typer

    if json_out and not watch:
        raise typer.BadParameter("--json needs --watch (a game between agents)", param_hint="'--json'")
    if watch and (resume or load is not None):
        raise typer.BadParameter(
            "--resume and --load continue a game at the keyboard; they do not go with --watch", param_hint="'--watch'"
        )
    if resume and load is not None:
        raise typer.BadParameter("give either --resume or --load PATH, not both", param_hint="'--resume'")


#: why options do not go with continuing a saved game or with watching agents (``refuse_conflicts``)
CONTINUING = (
    ("resume", "load"),
    ("a saved game goes on with the seed, players, options and building data it was started with"),
)
WATCHING = ("watch", "agents"), "watching agents has nobody at the keyboard (name every seat's agent in --agents)"


def refuse_conflicts(ctx: Any, conflicts: Sequence[tuple[tuple[str, ...], tuple[str, ...], str]]) -> None:
    """Options given together that cannot go together are a usage error (exit 2) naming both.

    ``conflicts``: (modes, others, why): any of the parameters ``modes``
    given on the command line together with any of ``others``.
    """
    import typer

    # click's UsageError (exit status 2), whether typer vendors click or depends on it
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
    flags = {p.name: (p.opts[0] if getattr(p, "opts", None) else p.name) for p in ctx.command.params}

    def given(name: str) -> bool:
        source = ctx.get_parameter_source(name)
        return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")

    for modes, others, why in conflicts:
        mode = next((m for m in modes if given(m)), None)
        if mode is None:
            continue
        clash = next((o for o in others if given(o)), None)
        if clash is not None:
            raise usage_error(f"{flags[mode]} and {flags[clash]} cannot go together: {why}.", ctx)


def players_or_exit(players: Sequence[Player], think_time: float | None) -> None:
    """Check ``--think-time`` against the seated players (a usage error if no AI plays)."""
    import typer

    try:
        check_think_time(players, think_time)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--think-time'") from None


def with_level(spec: str, level: str | None) -> str:
    """``spec`` with ``--level`` applied: ``ai`` becomes ``ai:LEVEL``; raises AgentSpecError otherwise."""
    if level is None:
        return spec
    kind, _, own = spec.strip().lower().partition(":")
    if kind != "ai":
        raise AgentSpecError(f"--level sets the strength of the ai opponent, not of '{spec}'")
    if own and own != level:
        raise AgentSpecError(f"'{spec}' already names a level; drop --level or write ai:{level}")
    return f"ai:{level}"


def make_player(
    spec: str,
    seed: int,
    seat: int,
    name: str | None = None,
    think_time: float | None = None,
    game: GameSpec | None = None,
) -> Player:
    """A player for ``spec`` (``human`` or an agent spec) in ``game``; raises AgentSpecError.

    ``think_time`` (seconds per move) is given to agents that search (``ai``).
    """
    if spec.strip().lower() == "human":
        return Player(name or "You")
    agent = make_agent(spec, agent_seed(seed, seat), game)
    if think_time is not None and hasattr(agent, "think_time"):
        if think_time <= 0:
            raise AgentSpecError(f"--think-time must be a positive number of seconds, not {think_time}")
        agent.think_time = think_time
    label = getattr(agent, "name", spec)
    return Player(name or label, agent, label)


def check_think_time(players: Sequence[Player], think_time: float | None) -> None:
    """``--think-time`` without any searching agent is a mistake worth saying."""
    if think_time is not None and not any(hasattr(p.agent, "think_time") for p in players if p.agent is not None):
        raise AgentSpecError("--think-time applies to the ai agent, and no ai plays in this game")


def draw_seed() -> int:
    """A fresh seed for a game started without ``--seed`` (printed, so it can be replayed)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def seat_of_human(choice: str, seed: int) -> int:
    """Seat 0 or 1 for ``first``, ``second`` or ``random`` (drawn from the seed)."""
    if choice == "first":
        return 0
    if choice == "second":
        return 1
    return random.Random(f"seat-{seed}").randrange(2)


# ---------------------------------------------------------------------------
# The renderer interface (generic defaults; each rule set refines them)
# ---------------------------------------------------------------------------


class Renderer:
    """How a rule set looks on screen.  Subclass per game; defaults are generic."""

    ruleset = ""
    title = "game"

    def board(self, state: GameState, players: Sequence[Player], viewer: int | None) -> RenderableType:
        """The whole position, seen by ``viewer`` (a seat, or None for a spectator)."""
        w = state.wealth()
        return Text("  ".join(f"{p.label}: wealth {w[i]}" for i, p in enumerate(players)))

    def seat_tag(self, players: Sequence[Player], seat: int) -> str:
        """A player's short name in lines of moves (hint, why, history)."""
        return players[seat].name

    def who(self, players: Sequence[Player], seat: int) -> str:
        """A player's name with its agent, as in 'why' ('ai:normal', 'P2 ai:normal')."""
        tag, label = self.seat_tag(players, seat), players[seat].label
        return label if tag == players[seat].name else f"{tag} {label}"

    def turn_line(self, state: GameState, players: Sequence[Player]) -> RenderableType:
        p = state.current_player()
        return Text(f"{players[p].label} to play")

    def event_lines(self, state: GameState, players: Sequence[Player], actor: int, action: Any) -> list[RenderableType]:
        """What the action just applied did (shown after every action)."""
        return [Text(f"{players[actor].label}: {action}")]

    def group_of(self, action: Any) -> tuple[str, str]:
        """(what, how) of an action: the text before and after its first colon."""
        head, sep, tail = str(action).partition(":")
        return head.strip(), tail.strip() if sep else ""

    def describe_group(self, state: GameState, head: str, actions: Sequence[Any]) -> str:
        """A short note after a first-step choice (cost, effect, number of ways)."""
        return f"{len(actions)} ways" if len(actions) > 1 else ""

    def describe_choice(self, state: GameState, action: Any) -> str:
        """A short note after a second-step choice (e.g. its outcome)."""
        return ""

    def reference(self, state: GameState, name: str | None) -> RenderableType:
        """``rules [NAME]`` at the prompt: the reference of one item or all."""
        return Text("No rules reference for this game.")

    def action_forms(self) -> str:
        """Help text: the action text forms of this game, with examples."""
        return "Type an action's text, e.g. as listed."

    def final(self, state: GameState, players: Sequence[Player]) -> RenderableType:
        return final_table(state, [p.label for p in players])


def final_table(state: GameState, labels: Sequence[str]) -> RenderableType:
    """Every player's wealth breakdown and the winners (generic)."""
    n = state.num_players
    table = Table(title="Final wealth" if state.is_terminal() else "Wealth now", title_justify="left")
    table.add_column("")
    for p in range(n):
        table.add_column(labels[p], justify="right")
    parts: list[str] = []
    breakdowns = [state.wealth_breakdown(p) for p in range(n)]
    for b in breakdowns:
        for k in b:
            if k not in parts:
                parts.append(k)
    for k in parts:
        table.add_row(k, *[str(b[k]) if k in b else "" for b in breakdowns])
    table.add_section()
    wealth = state.wealth()
    table.add_row(Text("total", style="bold"), *[Text(str(x), style="bold") for x in wealth])
    lines: list[RenderableType] = [table]
    if state.is_terminal():
        win = state.winners()
        if len(win) == n and n > 1:
            lines.append(Text(f"A tie at {wealth[0]}.", style="bold"))
        else:
            names = " and ".join(labels[p] for p in win)
            lines.append(
                Text(
                    f"Winner: {names} with {wealth[win[0]]}."
                    if len(win) == 1
                    else f"Tie: {names} with {wealth[win[0]]}.",
                    style="bold",
                )
            )
    return Group(*lines)


# ---------------------------------------------------------------------------
# Agents thinking (spinner) and the AI's explanation
# ---------------------------------------------------------------------------


def _takes_progress(agent: Any) -> bool:
    try:
        return "progress" in inspect.signature(agent.choose).parameters
    except (TypeError, ValueError):
        return False


def agent_choose(agent: Any, state: GameState, console: Console, label: str) -> Any:
    """Ask ``agent`` for an action on a copy; a spinner on a terminal while it thinks."""
    view = state.clone()
    if not console.is_terminal or not _takes_progress(agent):
        return agent.choose(view)
    with console.status(f"{label} is thinking...", spinner="dots") as status:

        def progress(info: dict[str, Any]) -> None:
            status.update(f"{label} is thinking... depth {info.get('depth', '?')}, {info.get('nodes', 0):,} positions")

        return agent.choose(view, progress=progress)


def labelled_pv(state: GameState | None, pv: Sequence[Any], tag: Callable[[int], str]) -> list[str]:
    """The moves of a principal variation, each with who makes it ('P2: take wood').

    The moves are followed from ``state`` (where the line starts); once one
    cannot be followed (the AI searched a re-dealt copy of hidden cards), the
    rest are shown without a player.
    """
    out: list[str] = []
    s = state.clone() if state is not None else None
    for move in pv:
        text = str(move)
        if s is not None and not s.is_terminal():
            who = s.current_player()
            try:
                s.apply_action(parse_action(s, text))
            except Exception:
                s = None
            else:
                out.append(f"{tag(who)}: {text}")
                continue
        out.append(text)
    return out


def explain_info(
    info: dict[str, Any],
    who: str,
    verb: str = "chose",
    *,
    state: GameState | None = None,
    tag: Callable[[int], str] | None = None,
) -> RenderableType:
    """The search agent's ``last_info`` in words: plan, score, alternatives, terms.

    ``state`` is the position the decision was made in and ``tag(seat)`` a
    player's short name: with them the line names the player of every move.
    """
    if not info:
        return Text(f"{who} has not explained a move yet.")
    lines: list[RenderableType] = []
    head = Text()
    head.append(f"{who} {verb} ")
    head.append(str(info.get("action", "?")), style="bold")
    if info.get("forced"):
        several = state is not None and len(state.legal_actions()) > 1
        head.append(
            " (the one sensible move here, so it was not searched)." if several else " (the only legal action)."
        )
        lines.append(head)
        return Group(*lines)
    mover = state.current_player() if state is not None and tag is not None else None
    score = info.get("score")
    if isinstance(score, (int, float)):
        head.append(
            f"  evaluation {score:+.1f} for " + (tag(mover) if mover is not None and tag else "the player to move")
        )
    depth = info.get("depth")
    if depth:
        head.append(f", looking {depth} decisions ahead ({info.get('nodes', 0):,} positions)")
    lines.append(head)
    pv = info.get("pv") or []
    if len(pv) > 1:
        moves = labelled_pv(state, pv[:8], tag) if tag is not None else [str(x) for x in pv[:8]]
        lines.append(Text("Expected line: " + "  ->  ".join(moves) + (" ..." if len(pv) > 8 else "")))
    alts = info.get("alternatives") or []
    if len(alts) > 1:
        shown = ", ".join(f"{a} ({s:+.1f})" for a, s in alts[1:5])
        lines.append(Text(f"Next best (bounds): {shown}", style="dim"))
    terms = info.get("terms") or {}
    if terms:
        whose = f" (for {tag(mover)})" if mover is not None and tag else ""
        lines.append(
            Text(f"At the end of that line{whose}: " + ", ".join(f"{k} {v:+g}" for k, v in terms.items()), style="dim")
        )
    return Group(*lines)


@dataclass
class AIDecision:
    """One decision an agent made: its seat, the position before it, and its ``last_info``."""

    seat: int
    before: GameState
    action: str
    info: dict[str, Any]


#: action texts that only close a turn (never a turn's main choice)
TURN_ENDS = ("end", "pass")


def main_choice(decisions: Sequence[AIDecision]) -> AIDecision | None:
    """The turn's main choice: its first searched decision that does more than end the turn; None if none was searched."""
    searched = [d for d in decisions if d.info and not d.info.get("forced")]
    doing = [d for d in searched if d.action.strip().lower() not in TURN_ENDS]
    return (doing or searched or [None])[0]


def explain_turn(
    decisions: Sequence[AIDecision],
    renderer: Renderer,
    players: Sequence[Player],
    since: str = "Since your last decision",
) -> RenderableType:
    """Every decision the computer made between two decisions of a person, and the thinking behind its main choice."""
    tag = lambda seat: renderer.seat_tag(players, seat)  # noqa: E731
    lines: list[RenderableType] = [
        Text(f"{since} the computer made {plural(len(decisions), 'decision')}:", style="bold")
    ]
    for n, d in enumerate(decisions, 1):
        info = d.info
        if not info:
            note = "does not explain its moves"
        elif info.get("forced"):
            note = "the one sensible move" if len(d.before.legal_actions()) > 1 else "the only legal action"
        else:
            note = f"searched {info.get('depth', 0)} decisions ahead"
            if isinstance(info.get("score"), (int, float)):
                note += f", evaluation {info['score']:+.1f}"
        lines.append(Text(f"{n:>3}. {renderer.who(players, d.seat)}: {d.action}  ({note})"))
    seats = list(dict.fromkeys(d.seat for d in decisions))
    for seat in seats:
        mine = [d for d in decisions if d.seat == seat]
        main = main_choice(mine)
        who = renderer.who(players, seat)
        if main is None:
            if not any(d.info for d in mine):
                lines.append(Text(f"{who} does not explain its moves (only the ai agent does).", style="dim"))
            continue
        lines.append(Text(f"{who}'s main choice:", style="bold"))
        lines.append(explain_info(main.info, who, state=main.before, tag=tag))
    return Group(*lines)


# ---------------------------------------------------------------------------
# Saving (core.records)
# ---------------------------------------------------------------------------


class Session:
    """A game being played: state, players, its record and where it is saved."""

    def __init__(
        self,
        ruleset_name: str,
        options: Any,
        seed: int,
        state: GameState,
        players: list[Player],
        record: Any = None,
        save_path: Path | None = None,
        positions: list[GameState] | None = None,
    ) -> None:
        self.ruleset_name = ruleset_name
        self.options = options
        self.seed = seed
        self.state = state
        self.players = players
        self.record = record
        self.save_path = save_path
        #: the stack of positions before the last ``len(positions)`` actions, oldest first (undo pops
        #: it, like python-chess's ``push``/``pop``); from setup on when it is as long as the history
        self.positions: list[GameState] = list(positions or [])

    def push(self, action: Any) -> GameState:
        """Apply ``action``, keeping the position before it on the stack; returns that position."""
        before = self.state.clone()
        self.positions.append(before)
        self.state.apply_action(action)
        return before

    def action_text(self, k: int) -> str:
        """The text of the action played from ``positions[k]``."""
        return self.state.history[len(self.state.history) - len(self.positions) + k]

    def pop_to(self, k: int) -> list[str]:
        """Go back to ``positions[k]``; returns the texts of the actions taken back."""
        removed = list(self.state.history[len(self.state.history) - len(self.positions) + k :])
        self.state = self.positions[k]
        del self.positions[k:]
        return removed


def _records() -> Any:
    import core.records as records

    return records


def new_session(
    ruleset_name: str, ruleset: Any, options: Any, seed: int, players: list[Player], autosave: bool = True
) -> Session:
    """A fresh game; with ``autosave`` a record and a file in the save folder."""
    state = ruleset.new_game(seed, options)
    session = Session(ruleset_name, options, seed, state, players)
    records = _records()
    seats = [
        records.Seat.human(p.name) if p.is_human else records.Seat.of_agent(p.spec or p.name, p.name) for p in players
    ]
    session.record = records.new_record(ruleset_name, options, seed, seats, state=state)
    if autosave:
        session.save_path = records.new_save_path(session.record)
    return session


def load_session(path: str | Path | None, ruleset_name: str) -> Session:
    """A saved game (``path``), or the latest unfinished one of ``ruleset_name`` when path is None.

    Raises :class:`core.records.RecordError` with the file and the problem.
    """
    records = _records()
    if isinstance(path, str):
        path = records.find_save(path)
    if path is None:
        found = records.latest_unfinished(ruleset=ruleset_name)
        if found is None:
            raise records.RecordError(
                f"no unfinished {ruleset_name} game to resume in {records.default_save_dir()} (start one with 'lehavre {ruleset_name}')"
            )
        path = found
    path = Path(path)
    record = records.load_record(path)
    if record.ruleset != ruleset_name:
        raise records.RecordError(
            f"{path}: this is a '{record.ruleset}' game, not '{ruleset_name}' (use 'lehavre {record.ruleset} --load')"
        )
    states = records.replay_all(record, source=path)
    state = states[-1]
    records.remember_save(path)
    players: list[Player] = []
    for seat, s in enumerate(record.players):
        if s.agent is None:
            players.append(Player(s.name))
        else:
            try:
                agent = make_agent(s.agent, agent_seed(record.seed, seat), record.ruleset)
            except GameError as exc:
                raise records.RecordError(
                    f"{path}: seat {seat + 1} is played by '{s.agent}', which cannot be made here: {exc}"
                ) from None
            players.append(Player(s.name, agent, getattr(agent, "name", s.agent)))
    while len(players) < state.num_players:
        players.append(Player(f"Player {len(players) + 1}"))
    ruleset = records.get_ruleset(record.ruleset)
    options = records.options_from_dict(ruleset, record.options)
    return Session(ruleset_name, options, record.seed, state, players, record, path, positions=states[:-1])


# ---------------------------------------------------------------------------
# The interactive loop
# ---------------------------------------------------------------------------


class _End(Exception):
    """The person ended the game (quit, end of input, Ctrl-C)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


_COMMANDS = ("help", "?", "rules", "quit", "exit", "board", "list", "hint", "why", "undo", "save", "history", "back")


@dataclass
class _Choice:
    head: str
    actions: list[Any] = field(default_factory=list)


class PlayLoop:
    """Runs one session to its end; see :func:`play`."""

    def __init__(
        self,
        session: Session,
        renderer: Renderer,
        console: Console,
        *,
        read_line: Callable[[str], str] | None = None,
        allow_undo: bool = True,
        hint_spec: str = HINT_AGENT,
    ) -> None:
        self.s = session
        self.r = renderer
        self.console = console
        self.read_line = read_line or input
        self.allow_undo = allow_undo
        self.hint_spec = hint_spec
        #: the computer's last decision (seat, position before it, its explanation)
        self.last_ai: tuple[int, GameState, dict[str, Any]] | None = None
        #: every decision the computer made since a person last decided
        self.ai_turn: list[AIDecision] = []
        #: the computer's decisions before that (still explained by 'why' once a person has decided)
        self.last_turn: list[AIDecision] = []
        self.pending: list[RenderableType] = []
        self.save_warned = False

    # -- helpers -------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.s.state

    def say(self, *things: RenderableType, **kw: Any) -> None:
        self.console.print(*things, **kw)

    def error(self, message: str) -> None:
        self.console.print(Text(message, style="bold red"))

    def autosave(self) -> None:
        if self.s.record is None or self.s.save_path is None:
            return
        records = _records()
        try:
            records.save_record(self.s.record, self.s.save_path)
        except records.SaveError as exc:
            if not self.save_warned:
                self.error(f"{exc} (the game goes on without saving)")
                self.save_warned = True

    def apply(self, action: Any) -> None:
        actor = self.state.current_player()
        self.s.push(action)
        if self.s.record is not None:
            self.s.record.append(str(action), self.state)
        # shown just above the next prompt (after the board), so a person sees
        # what the other players did right where they decide
        self.pending.extend(self.r.event_lines(self.state, self.s.players, actor, action))
        if not any(p.is_human for p in self.s.players):
            self.flush()
        self.autosave()

    def flush(self) -> None:
        for line in self.pending:
            self.say(line, soft_wrap=True)
        self.pending = []

    # -- the game -----------------------------------------------------------------------
    def run(self) -> int:
        self.autosave()
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player()
                player = self.s.players[seat]
                if player.is_human:
                    action = self.ask(seat)
                    if action is None:  # undo or similar: ask again
                        continue
                    if self.ai_turn:
                        self.last_turn, self.ai_turn = self.ai_turn, []
                else:
                    before = self.state.clone()
                    action = agent_choose(player.agent, self.state, self.console, player.label)
                    info = dict(getattr(player.agent, "last_info", None) or {})
                    self.last_ai = (seat, before, info)
                    self.ai_turn.append(AIDecision(seat, before, str(action), info))
                self.apply(action)
        except _End as end:
            return self.ended(end.how)
        except KeyboardInterrupt:
            return self.ended("interrupt")
        except EOFError:
            return self.ended("eof")
        self.say()
        self.say(self.r.board(self.state, self.s.players, None))
        self.flush()
        self.say(self.r.final(self.state, self.s.players))
        if self.s.save_path is not None and self.s.record is not None and not self.save_warned:
            self.say(Text(f"Game record: {self.s.save_path}", style="dim"))
        return EXIT_OK

    def ended(self, how: str) -> int:
        self.flush()
        self.console.print()
        why = {
            "quit": "You quit the game.",
            "eof": "End of input: the game is stopped.",
            "interrupt": "Interrupted: the game is stopped.",
        }[how]
        msg = why
        if self.s.save_path is not None and self.s.record is not None and not self.save_warned:
            msg += (
                f" It is saved in {self.s.save_path}; continue it with 'lehavre {self.s.ruleset_name} --resume' "
                f"(the latest unfinished game) or, any time, '{continue_command(self.s.ruleset_name, self.s.save_path)}'."
            )
        self.console.print(Text(msg))
        return EXIT_INTERRUPTED if how == "interrupt" else EXIT_OK

    # -- asking a person -------------------------------------------------------------------
    def choices(self) -> list[_Choice]:
        groups: dict[str, _Choice] = {}
        for a in self.state.legal_actions():
            head, _ = self.r.group_of(a)
            groups.setdefault(head, _Choice(head)).actions.append(a)
        return list(groups.values())

    def show(self, seat: int, choices: list[_Choice]) -> None:
        self.say()
        self.say(self.r.board(self.state, self.s.players, seat))
        self.flush()
        self.say(self.r.turn_line(self.state, self.s.players))
        self.show_choices(choices)

    def show_choices(self, choices: list[_Choice]) -> None:
        entries = []
        for n, c in enumerate(choices, 1):
            t = Text()
            t.append(f"{n:>2}. ", style="bold")
            t.append(c.head if len(c.actions) > 1 else str(c.actions[0]), style="bold")
            note = self.r.describe_group(self.state, c.head, c.actions)
            if note:
                t.append(f"  {note}", style="dim")
            entries.append(t)
        self.say(columns(entries, self.console.width))

    def prompt(self, text: str) -> str:
        return self.read_line(text)

    def ask(self, seat: int) -> Any:
        choices = self.choices()
        self.show(seat, choices)
        n = len(choices)
        while True:
            line = self.prompt(f"{self.s.players[seat].name}, your move (1-{n}, an action, or help)> ").strip()
            if not line:
                self.say(
                    Text(
                        f"Type a number from 1 to {n}, an action such as '{choices[0].actions[0]}', or 'help'.",
                        style="dim",
                    )
                )
                continue
            word, _, rest = line.partition(" ")
            low = word.lower()
            if line.isdigit():
                k = int(line)
                if not 1 <= k <= n:
                    self.error(f"There is no choice {k}: type a number from 1 to {n}.")
                    continue
                c = choices[k - 1]
                if len(c.actions) == 1:
                    return c.actions[0]
                picked = self.ask_how(seat, c)
                if picked is not None:
                    return picked
                self.show_choices(choices)
                continue
            if low in _COMMANDS:
                result = self.command(seat, low, rest.strip(), choices)
                if result == "undone":
                    return None
                if result == "redraw":
                    self.show(seat, choices)
                continue
            # a first-step head typed in full ("use Marketplace") goes to the second step
            want = normalize_text(line)
            group = next((c for c in choices if normalize_text(c.head) == want and len(c.actions) > 1), None)
            if group is None:
                # a beginning that fits several ways of one thing only ("build Groc")
                hits = [c for c in choices if any(_begins(str(x), want) for x in c.actions)]
                if len(hits) == 1 and sum(_begins(str(x), want) for x in hits[0].actions) > 1:
                    group = hits[0]
            if group is not None:
                picked = self.ask_how(seat, group)
                if picked is not None:
                    return picked
                self.show_choices(choices)
                continue
            try:
                return parse_action(self.state, line)
            except ActionError as exc:
                self.error(str(exc))

    def ask_how(self, seat: int, c: _Choice) -> Any:
        """The second step: how to do ``c`` (numbered); None to go back."""
        self.say(Text(f"How? {c.head}:", style="bold"))
        entries = []
        for n, a in enumerate(c.actions, 1):
            _, how = self.r.group_of(a)
            t = Text()
            t.append(f"{n:>2}. ", style="bold")
            t.append(how or str(a), style="bold")
            note = self.r.describe_choice(self.state, a)
            if note:
                t.append(f"  {note}", style="dim")
            entries.append(t)
        self.say(columns(entries, self.console.width))
        m = len(c.actions)
        while True:
            line = self.prompt(f"{c.head}: choose 1-{m} (or back)> ").strip()
            low = line.lower()
            if not line or low in ("back", "b"):
                return None
            if line.isdigit():
                k = int(line)
                if 1 <= k <= m:
                    return c.actions[k - 1]
                self.error(f"There is no way {k}: type a number from 1 to {m}, or 'back'.")
                continue
            word, _, rest = line.partition(" ")
            if word.lower() in ("help", "?", "rules", "quit", "exit", "hint", "why"):
                self.command(seat, word.lower(), rest.strip(), [])
                continue
            want = normalize_text(line)
            hows = [normalize_text(self.r.group_of(a)[1]) for a in c.actions]
            exact = [a for a, h in zip(c.actions, hows, strict=False) if h == want]
            begins = [a for a, h in zip(c.actions, hows, strict=False) if h.startswith(want)]
            if len(exact) == 1 or len(begins) == 1:
                return (exact or begins)[0]
            for text in (f"{c.head}: {line}", line):
                try:
                    a = parse_action(self.state, text)
                except ActionError:
                    continue
                if a in c.actions:
                    return a
            self.error(
                f"'{line}' is not one of the {m} ways: type a number from 1 to {m}, or 'back' for the other actions."
            )

    # -- prompt commands ---------------------------------------------------------------------
    def command(self, seat: int, cmd: str, arg: str, choices: list[_Choice]) -> str | None:
        if cmd in ("quit", "exit"):
            raise _End("quit")
        if cmd in ("help", "?"):
            self.say(help_text(self.r, self.allow_undo))
        elif cmd == "rules":
            try:
                self.say(self.r.reference(self.state, arg or None))
            except GameError as exc:
                self.error(str(exc))
        elif cmd in ("board", "list"):
            return "redraw"
        elif cmd == "back":
            self.say(Text("Nothing to go back to: choose an action.", style="dim"))
        elif cmd == "history":
            hist = self.state.history
            shown = hist[-20:]
            start = len(hist) - len(shown)
            movers = self.movers()
            for i, t in enumerate(shown, start + 1):
                who = f"{self.r.seat_tag(self.s.players, movers[i - 1])}: " if movers else ""
                self.say(Text(f"{i:>3}. {who}{t}"))
            if not hist:
                self.say(Text("No actions yet."))
        elif cmd == "hint":
            self.hint(seat)
        elif cmd == "why":
            self.why(arg)
        elif cmd == "undo":
            return self.undo(seat)
        elif cmd == "save":
            self.save(arg)
        return None

    def movers(self) -> list[int]:
        """Who made each action of the game so far (empty if the stack of positions is not complete)."""
        if len(self.s.positions) != len(self.state.history):
            return []
        return [st.current_player() for st in self.s.positions]

    def hint(self, seat: int) -> None:
        agent = make_agent(self.hint_spec, agent_seed(self.s.seed, 100 + len(self.state.history)), self.s.ruleset_name)
        try:
            agent_choose(agent, self.state, self.console, "The hint AI")
        except KeyboardInterrupt:
            self.say(Text("Hint cancelled."))
            return
        self.say(
            explain_info(
                agent.last_info,
                "Hint: the AI",
                "would play",
                state=self.state,
                tag=lambda s: self.r.seat_tag(self.s.players, s),
            )
        )

    def why(self, arg: str) -> None:
        if arg:
            try:
                a = parse_action(self.state, arg)
            except ActionError as exc:
                self.say(Text(str(exc)))
            else:
                self.say(Text(f"'{a}' is legal now."))
            return
        turn = self.ai_turn or self.last_turn
        if len(turn) > 1:
            since = "Since your last decision" if self.ai_turn else "Before your last decision"
            self.say(explain_turn(turn, self.r, self.s.players, since))
            return
        if self.last_ai is None:
            self.say(
                Text(
                    "No computer move to explain yet in this session; 'why' explains the computer's moves since "
                    "your last decision, 'why ACTION' whether an action is legal here."
                )
            )
            return
        seat, before, info = self.last_ai
        who = self.r.who(self.s.players, seat)
        if not info:
            self.say(Text(f"{who} does not explain its moves (only the ai agent does)."))
            return
        self.say(explain_info(info, who, state=before, tag=lambda s: self.r.seat_tag(self.s.players, s)))

    def undo(self, seat: int) -> str | None:
        if not self.allow_undo:
            self.error("Undo is switched off for this game (--no-undo).")
            return None
        humans = {i for i, p in enumerate(self.s.players) if p.is_human}
        # the last decision a person made (and who made it); the computer's replies after it go too
        target = who = None
        for k, before in enumerate(self.s.positions):
            if before.current_player() in humans:
                target, who = k, before.current_player()
        if target is None or who is None:
            self.error("Nothing to undo: you have not made a decision yet.")
            return None
        if who != seat and not self.other_agrees(seat, who, self.s.action_text(target)):
            return None
        removed = self.s.pop_to(target)
        record = self.s.record
        if record is not None:
            record.undo(len(removed))
            record.sync(self.state)
            self.autosave()
        self.say(Text(f"Took back {len(removed)} action{'s' if len(removed) != 1 else ''}: " + "; ".join(removed)))
        self.last_ai = None
        self.ai_turn, self.last_turn = [], []
        return "undone"

    def other_agrees(self, seat: int, who: int, action: str) -> bool:
        """Undo takes back only your own last decision while nobody else has decided since;
        otherwise the person who decided last must agree (their decision goes first)."""
        me, them = self.s.players[seat].name, self.s.players[who].name
        self.say(
            Text(
                f"{them} decided last ('{action}'): 'undo' takes back only your own last decision while "
                f"nobody else has decided since. {them} must agree to take back '{action}' first "
                f"(then {them} decides again)."
            )
        )
        answer = self.prompt(f"{them}, take back '{action}'? (yes/no)> ").strip().lower()
        if answer in ("y", "yes"):
            return True
        self.say(Text(f"Nothing taken back: {me}, it is still your move."))
        return False

    def save(self, arg: str) -> None:
        """``save``: now, in the game's file; ``save NAME``: as NAME.json in the saves folder, and
        the game goes on saving there (a NAME with a slash or ending in .json is a path)."""
        record = self.s.record
        if record is None:
            self.error("This game has no record to save.")
            return
        records = _records()
        old = self.s.save_path
        try:
            path = records.save_path_for(arg) if arg else (old or records.new_save_path(record))
        except records.SaveError as exc:
            self.error(str(exc))
            return
        if arg and path.exists() and (old is None or path.resolve() != old.resolve()):
            self.error(
                f"There is already a saved game '{records.save_name(path)}' ({path}); "
                "choose another name, or delete that file first."
            )
            return
        try:
            records.save_record(record, path)
        except records.SaveError as exc:
            self.error(str(exc))
            return
        records.remember_save(path)
        how = continue_command(self.s.ruleset_name, path)
        if old is None:  # autosave is off: a snapshot
            self.say(Text(f"Saved to {path}; continue it with '{how}'."))
            return
        self.s.save_path = path
        self.save_warned = False
        if old.resolve() != path.resolve() and records.is_autosave_name(old):
            try:  # the same game under its automatic name: not kept twice
                old.unlink()
            except OSError:
                pass
        self.say(Text(f"Saved to {path}; the game goes on saving there. Continue it later with '{how}'."))


def continue_command(ruleset_name: str, path: Path) -> str:
    """The command that continues the game saved in ``path`` (by its name in the saves folder)."""
    import re

    name = _records().save_name(path)
    if not re.fullmatch(r"[\w.,:@%+=/~-]+", name):
        name = '"' + re.sub(r'(["\\$`])', r"\\\1", name) + '"'
    return f"lehavre {ruleset_name} --load {name}"


def _begins(action_text: str, want: str) -> bool:
    """``want`` (normalised) is whole leading words of the action's text (as in parse_action)."""
    t = normalize_text(action_text)
    return t == want or (t.startswith(want) and t[len(want)] in " :;,+")


def columns(entries: list[Text], width: int) -> RenderableType:
    """Numbered entries in one or two columns (row-major, so numbers read across)."""
    if not entries:
        return Text("")
    longest = max(e.cell_len for e in entries)
    ncol = 2 if len(entries) > 6 and longest * 2 + 4 <= width else 1
    if ncol == 1:
        return Group(*entries)
    grid = Table.grid(padding=(0, 3))
    for _ in range(ncol):
        grid.add_column(no_wrap=True)
    rows = (len(entries) + ncol - 1) // ncol
    for r in range(rows):
        # column-major: 1..rows in the first column
        grid.add_row(*[entries[c * rows + r] if c * rows + r < len(entries) else Text("") for c in range(ncol)])
    return grid


def help_text(renderer: Renderer, allow_undo: bool = True) -> RenderableType:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    rows = [
        ("NUMBER", "choose from the list; if there are several ways, a second list asks how ('back' returns)"),
        ("ACTION TEXT", "type an action directly (any case; its first whole words are enough if they fit one action)"),
        ("board", "show the board and the choices again"),
        ("rules [BUILDING]", "the building reference (all buildings, or one)"),
        ("hint", "ask the AI what it would do here, and why"),
        ("why [ACTION]", "explain the computer's last move; with an action: why it is not legal"),
        (
            "undo",
            "take back your last decision (and the computer's replies); another person's decision only if they agree"
            if allow_undo
            else "off in this game (--no-undo)",
        ),
        (
            "save [NAME]",
            "save now (every action is saved anyway); with NAME: as NAME in your saves folder, and "
            "the game goes on saving there ('lehavre saves' lists them; a NAME with '/' is a path)",
        ),
        ("history", "the last 20 actions and who played them"),
        ("quit", "stop; the game stays saved and the message says how to continue it"),
    ]
    for a, b in rows:
        t.add_row(a, b)
    return Group(Text("Commands at the prompt:", style="bold"), t, Text(""), Text(renderer.action_forms()))


def play(
    session: Session,
    renderer: Renderer,
    console: Console,
    *,
    read_line: Callable[[str], str] | None = None,
    allow_undo: bool = True,
) -> int:
    """Play ``session`` to its end (or until the person stops); returns the exit code."""
    if read_line is None and sys.stdin.isatty():
        try:  # line editing and history at the prompt
            import readline  # noqa: F401
        except ImportError:  # pragma: no cover - not on every platform
            pass
    return PlayLoop(session, renderer, console, read_line=read_line, allow_undo=allow_undo).run()


# ---------------------------------------------------------------------------
# Watching agents
# ---------------------------------------------------------------------------


def watch(
    state: GameState,
    players: Sequence[Player],
    renderer: Renderer,
    console: Console,
    *,
    seed: int,
    ruleset_name: str,
    as_json: bool = False,
    show_board: bool = False,
) -> dict[str, Any]:
    """Play a whole game between agents; print every action (or only JSON at the end).

    Returns the result: ruleset, seed, agents, wealth, breakdown, winners, actions.
    Nothing printed depends on time, so the output is the same on every run.
    """
    quiet = Console(quiet=True) if as_json else console
    while not state.is_terminal():
        seat = state.current_player()
        player = players[seat]
        if as_json:
            action = player.agent.choose(state.clone())  # type: ignore[union-attr]
        else:  # a spinner while an AI thinks, only on a terminal (the printed text is the same)
            action = agent_choose(player.agent, state, console, player.label)
        state.apply_action(action)
        for line in renderer.event_lines(state, players, seat, action):
            quiet.print(line, soft_wrap=True)
    summary = _records().state_summary(state)
    result = {
        "ruleset": ruleset_name,
        "seed": seed,
        "agents": [p.spec or p.name for p in players],
        "wealth": summary["wealth"],
        "breakdown": summary["breakdown"],
        "winners": summary["winners"],
        "actions": summary["actions"],
    }
    if as_json:
        print(json.dumps(result), flush=True)
    else:
        if show_board:
            console.print(renderer.board(state, players, None))
        console.print(renderer.final(state, players))
    return result


# -- what every game command does the same way --------------------------------------


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def watch_or_exit(
    state: GameState,
    players: Sequence[Player],
    renderer: Renderer,
    console: Console,
    *,
    seed: int,
    ruleset_name: str,
    as_json: bool,
) -> None:
    """``watch``, turning Ctrl-C into a short message and exit code 130."""
    import typer

    from cli.console import make_console

    try:
        watch(state, players, renderer, console, seed=seed, ruleset_name=ruleset_name, as_json=as_json)
    except KeyboardInterrupt:
        make_console(stderr=True).print("\nInterrupted: the game is stopped.")
        raise typer.Exit(EXIT_INTERRUPTED) from None


def resume_or_exit(
    load: str | None, ruleset_name: str, title: str, renderer: Renderer, console: Console, no_save: bool
) -> Session | None:
    """The session of ``--resume``/``--load``; ``None`` (after showing the result) if that game is over.

    A broken or missing save file prints its message and exits with code 2.
    """
    import typer

    from cli.console import error
    from core.records import RecordError

    try:
        session = load_session(load, ruleset_name)
    except RecordError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    if session.state.is_terminal():
        console.print(Text(f"The game in {session.save_path} is already over.", style="bold"))
        console.print(renderer.final(session.state, session.players))
        return None
    if no_save:
        session.save_path = None
    console.print(
        Text(
            f"{title}: continuing the game in {session.save_path or load} "
            f"(seed {session.seed}, {plural(len(session.state.history), 'action')} played).",
            style="bold",
        )
    )
    return session
