"""The prompt loop: asks a person for each decision (a number from a list, in at most two
steps, or an action's text), asks an agent otherwise, shows what happened, autosaves, and
answers ``help``, ``rules``, ``board``, ``log``, ``hint``, ``why``, ``undo``, ``save``, ``quit``.

Ctrl-C or the end of input end a game with a short message naming the command that
continues it, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.console import Copy, told
from cli.explain import AIDecision, agent_choose, explain_info, explain_turn
from cli.line_input import LineInput
from cli.renderer import Renderer, choice_groups, group_entry, way_entry
from cli.screen import Menu, arrange, entry, numbered
from cli.session import EXIT_INTERRUPTED, EXIT_OK, HINT_AGENT, continue_command
from cli.table_words import undo_request_words, whose_decisions
from core import records
from core.agents import make_agent
from core.protocol import ActionError, GameError, GameState, normalize_text, parse_action
from core.search import SearchAgent
from core.seeds import HINT, derive_seed
from core.table import AGENT, PERSON, REMOTE, Seat
from core.table import Table as GameTable


def review_offer(save_path: Path | None) -> Text | None:
    """The last line of a finished game at the keyboard: the command that reviews it (None if it was not saved)."""
    if save_path is None:
        return None
    name = records.save_name(save_path)
    return Text(f"Where was this game won and lost? Type: lehavre review {name}", style="bold")


class Stopped(Exception):
    """The game is stopped from elsewhere (the host ended it, or the connection is lost for good):
    ``message`` says so and how to go on; ``code`` is the exit code."""

    def __init__(self, message: RenderableType, code: int) -> None:
        super().__init__(str(message))
        self.message, self.code = message, code


class _End(Exception):
    """The person ended the game (quit, end of input, Ctrl-C)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


#: the commands the second step (how to do one thing) answers
STEP_COMMANDS = ("help", "?", "rules", "quit", "exit", "hint", "why")

_COMMANDS = (
    "help",
    "?",
    "rules",
    "quit",
    "exit",
    "board",
    "list",
    "log",
    "hint",
    "why",
    "undo",
    "save",
    "history",
    "back",
    "skip",
    "more",
)


class Coach:
    """Explanations shown while a game is played (the tutorial); the default says nothing.

    ``after(before, after, actor, action)`` is asked after every action, ``before_prompt(state, seat)``
    before a person decides; each returns lines to show.  ``skip`` at the prompt switches it off.
    The states are typed ``Any``: a coach is written for one game's states (as a renderer is).
    """

    active = False

    def after(self, before: Any, after: Any, actor: int, action: Any) -> list[RenderableType]:
        return []

    def before_prompt(self, state: Any, seat: int) -> list[RenderableType]:
        return []

    def skip(self) -> str:
        return "There is no tutorial to skip in this game."


def _never() -> bool:
    return False


@dataclass(frozen=True)
class PromptCommand:
    """A command a loop adds at its prompt (the host's ``codes``): its ``name``, its line in ``help``
    (``usage``), and ``text()``: what it prints.  While ``keep()`` is true the fitted screen keeps
    that text in view too, just above the board (the host's codes while a seat is not joined yet)."""

    name: str
    usage: str
    text: Callable[[], RenderableType]
    keep: Callable[[], bool] = _never


@dataclass
class _Choice:
    head: str
    actions: list[Any] = field(default_factory=list)


class PlayLoop:
    """Plays one game at this keyboard to its end, through its :class:`~core.table.Table` (the one
    loop, the stack of positions, the record and the undo rule); see :func:`play`."""

    def __init__(
        self,
        session: GameTable,
        renderer: Renderer,
        console: Console,
        *,
        read_line: Callable[[str], str] | None = None,
        allow_undo: bool = True,
        hint_spec: str = HINT_AGENT,
        plain: bool = False,
        coach: Coach | None = None,
        commands: Sequence[PromptCommand] = (),
    ) -> None:
        self.s = session
        self.r = renderer
        self.console = console
        #: the prompt's line editing, history and Tab completion (plain input() when not on a terminal)
        self.line = LineInput(self.completions, save=lambda: self.s.save_path)
        #: what Tab completes at the second step while one is asked (None: at the move prompt)
        self.how_words: list[str] | None = None
        self.read_line = read_line or self.line
        self.allow_undo = allow_undo
        self.hint_spec = hint_spec
        #: the computer's last decision (seat, position before it, its explanation)
        self.last_ai: tuple[int, GameState, dict[str, Any]] | None = None
        #: every decision the computer made since a person last decided
        self.ai_turn: list[AIDecision] = []
        #: the computer's decisions before that (still explained by 'why' once a person has decided)
        self.last_turn: list[AIDecision] = []
        self.pending: list[RenderableType] = []
        #: the coach's notes for the next screen (kept in view on it, above the mover's side)
        self.notes: list[RenderableType] = []
        #: the numbered choices of the screen last shown (its page, for 'more')
        self.shown_menu: Menu | None = None
        #: how many legal ways to pay the choices leave out (another way pays less of everything)
        self.unlisted = 0
        #: the first choice of the page the next screen shows ('more'), when the choices go in pages
        self.page = 0
        #: every event line of this session ('log')
        self.log: list[RenderableType] = []
        self.save_warned = False
        #: the plain transcript (the whole board before every decision) instead of the fitted screen
        self.plain = plain
        self.coach = coach or Coach()
        #: the commands this loop adds at its prompt, by name
        self.extra = {c.name: c for c in commands}

    @property
    def command_names(self) -> tuple[str, ...]:
        """Every command the prompt answers: the common ones and this loop's own."""
        return (*_COMMANDS, *self.extra)

    @property
    def fitted(self) -> bool:
        """Screens fitted to the terminal: on a terminal, unless --plain."""
        return self.console.is_terminal and not self.plain

    # -- helpers -------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.s.state

    def say(self, *things: RenderableType, **kw: Any) -> None:
        self.console.print(*things, **kw)

    def error(self, message: str) -> None:
        self.console.print(Text(message, style="error"))

    def autosave(self) -> None:
        """Save the record (the table saves after every action); a failure is said once, and the game goes on."""
        self.s.save()
        self.warn_unsaved()

    def warn_unsaved(self) -> None:
        if self.s.save_error and not self.save_warned:
            self.error(f"{self.s.save_error} (the game goes on without saving)")
            self.save_warned = True

    def after(self, table: GameTable, before: GameState | None, actor: int, action: Any) -> None:
        """The table's ``after``: what the action did, shown just above the next prompt (after the
        board), so a person sees what the other players did right where they decide."""
        lines = self.r.event_lines(self.state, self.s.seats, actor, action, before)
        self.log.extend(lines)
        self.pending.extend(lines)
        if self.coach.active and before is not None:
            self.notes.extend(self.coach.after(before, self.state, actor, action))
        if not any(p.kind == PERSON for p in self.s.seats):
            self.flush()
            self.flush_notes()
        self.warn_unsaved()

    def flush(self) -> None:
        # on a terminal lines wrap at word boundaries; a transcript keeps each on one line
        for line in self.pending:
            self.say(line, soft_wrap=not self.fitted)
        self.pending = []

    def flush_notes(self) -> None:
        for line in self.notes:
            self.say(line)
        self.notes = []

    # -- the game -----------------------------------------------------------------------
    def run(self) -> int:
        """Play the game through its table's one loop (:meth:`core.table.Table.play`): the seat to play
        decides (a person at this keyboard, an agent, or a seat played elsewhere), until the game ends
        or is stopped."""
        try:
            self.start()
            self.s.play(self.decide, self.after)
        except _End as end:
            return self.ended(end.how)
        except KeyboardInterrupt:
            return self.ended("interrupt")
        except EOFError:
            return self.ended("eof")
        except Stopped as stop:
            self.flush()
            self.say(stop.message, crop=False)  # (a command in it is never cut)
            return stop.code
        finally:
            self.leave()
        return self.game_over()

    def decide(self, table: GameTable, seat: int) -> Any:
        """The table's ``decide``: the seat's action to play here, or None to look again (an undo, a
        position that changed, an action played elsewhere)."""
        action = self.next_action(seat)
        if action is None:
            return None
        if table.seats[seat].kind == PERSON and self.ai_turn:
            self.last_turn, self.ai_turn = self.ai_turn, []
        return self.play(action)

    def next_action(self, seat: int) -> Any:
        """Ask the seat to play for its decision, each kind the same way; None: look again."""
        who = self.s.seats[seat]
        if who.kind == REMOTE:
            return self.wait_for(seat)
        if who.kind == AGENT:
            return self.agent_move(seat, who)
        return self.ask(seat)

    def start(self) -> None:
        """Before the first decision."""
        self.autosave()

    def leave(self) -> None:
        """After the last decision (the game over, or stopped)."""

    def play(self, action: Any) -> Any:
        """The action decided at this keyboard: returned to be played at this table (over the network
        the server plays it, and this returns None)."""
        return action

    def wait_for(self, seat: int) -> Any:
        """The decision of a seat played elsewhere (a network game's loop waits for it)."""
        raise RuntimeError(f"seat {seat + 1} is played elsewhere, and this game has no connection")

    def agent_move(self, seat: int, player: Seat) -> Any:
        """The decision of the agent at ``seat``, remembered for 'why'."""
        agent = player.agent if player.agent is not None else self.s.agent_for(seat)
        before = self.state.clone()
        action = agent_choose(agent, self.state, self.console, player.label)
        info = dict(getattr(agent, "last_info", None) or {})
        self.remember_ai(seat, before, str(action), info)
        return action

    def remember_ai(self, seat: int, before: GameState, action: str, info: dict[str, Any]) -> None:
        self.last_ai = (seat, before, info)
        self.ai_turn.append(AIDecision(seat, before, action, info))

    def game_over(self) -> int:
        """The end of a finished game: the whole board, the last events, the final table."""
        self.say()
        self.say(self.r.board(self.state, self.s.seats, None))
        self.flush()
        self.flush_notes()
        self.say(self.r.final(self.state, self.s.seats))
        if self.s.save_path is not None and self.s.record is not None and not self.save_warned:
            self.say(told("Game record:", Copy(str(self.s.save_path)), style="dim"), crop=False)
            offer = review_offer(self.s.save_path)
            if offer is not None and any(p.kind == PERSON for p in self.s.seats):
                self.say(offer)
        return EXIT_OK

    #: what stopping says, by how it stopped
    STOPPED: ClassVar[dict[str, str]] = {
        "quit": "You quit the game.",
        "eof": "End of input: the game is stopped.",
        "interrupt": "Interrupted: the game is stopped.",
    }

    def ended(self, how: str) -> int:
        self.flush()
        self.flush_notes()
        self.console.print()
        self.console.print(told(self.stopped_words()[how], *self.how_to_go_on()), crop=False)
        return EXIT_INTERRUPTED if how == "interrupt" else EXIT_OK

    def stopped_words(self) -> dict[str, str]:
        """What stopping says, by how it stopped (:data:`STOPPED`)."""
        return self.STOPPED

    def how_to_go_on(self) -> tuple[str | Copy, ...]:
        """What follows 'You quit the game.': where it is saved and how to continue it (each path and
        command on a line of its own)."""
        if self.s.save_path is None or self.s.record is None or self.save_warned:
            return ()
        return (
            " It is saved in",
            Copy(str(self.s.save_path)),
            "Continue it with",
            Copy(f"lehavre {self.s.game.name} --resume"),
            "(the latest unfinished game) or, any time, with",
            Copy(continue_command(self.s.game.name, self.s.save_path)),
        )

    # -- asking a person -------------------------------------------------------------------
    def choices(self) -> list[_Choice]:
        """The numbered choices: the legal actions the renderer lists (not the ways to pay another
        way beats: :attr:`unlisted` counts them), grouped by what they do."""
        groups, self.unlisted = choice_groups(self.r, self.state)
        return [_Choice(head, actions) for head, actions in groups]

    def show(self, seat: int, choices: list[_Choice]) -> None:
        """The position and the choices before a decision: on a terminal, the fitted screen
        (:func:`cli.screen.arrange`; when the choices go in pages, from :attr:`page` on);
        else the whole board, what happened and the choices."""
        if self.coach.active:
            self.notes.extend(self.coach.before_prompt(self.state, seat))
        if not self.fitted:
            self.say()
            self.say(self.r.board(self.state, self.s.seats, seat))
            self.flush()
            self.flush_notes()
            self.say(self.r.turn_line(self.state, self.s.seats))
            self.show_choices(choices)
            return
        # what happened first (all of it: the terminal keeps it), then, if it does not all stay in
        # view, the turns since this seat's last decision, one line each; then what stays in view (the
        # coach's notes, the host's codes); then the richest layout that fits, with a line for the prompt
        kept = [*self.notes, *(c.text() for c in self.extra.values() if c.keep())]
        menu = self.shown_menu = self.menu(choices)
        menu.start, self.page = self.page, 0
        fitted = arrange(
            self.console,
            self.console.height - 1,
            events=self.pending,
            summary=self.r.summary(self.since(seat), self.s.seats),
            kept=kept,
            tops=self.r.screens(self.state, self.s.seats, seat),
            turn=self.r.turn_line(self.state, self.s.seats),
            menu=menu,
        )
        self.flush()
        self.notes = []
        for line in fitted.again:
            self.say(line)
        self.say(fitted.screen)

    def since(self, seat: int) -> list[tuple[GameState, int, str]]:
        """The actions since ``seat`` last decided (of those this table has the positions of): the
        position before each, who played it, and its text."""
        steps: list[tuple[GameState, int, str]] = []
        for k in range(len(self.s.positions) - 1, -1, -1):
            before = self.s.positions[k]
            mover = before.current_player()
            if mover == seat:
                break
            steps.insert(0, (before, mover, self.s.action_text(k)))
        return steps

    def menu(self, choices: list[_Choice]) -> Menu:
        """The numbered choices: every one's full name and what it costs or does, and the brief
        wording of each for a screen short of lines."""
        full, brief = [], []
        for n, c in enumerate(choices, 1):
            full.append(entry(n, *group_entry(self.r, self.state, c.head, c.actions)))
            brief.append(entry(n, *self.r.brief_group(self.state, c.head, c.actions)))
        return Menu(full, brief, unlisted_note(self.unlisted))

    def show_choices(self, choices: list[_Choice]) -> None:
        """The choices again (after a second step was left): the whole list in a transcript."""
        menu = self.menu(choices)
        self.say(menu.with_footer(numbered(menu.full, self.console.width)))

    def redraw(self, seat: int, choices: list[_Choice]) -> None:
        """The position and the choices again, as before the decision: the fitted screen on a terminal."""
        if self.fitted:
            self.show(seat, choices)
        else:
            self.show_choices(choices)

    def more(self, seat: int, choices: list[_Choice]) -> None:
        """``more``: the next page of the choices, with the position."""
        menu = self.shown_menu
        if not self.fitted or menu is None or (menu.start == 0 and menu.end >= len(menu)):
            self.say(Text("Every choice is on the screen ('list' shows them again).", style="muted"))
            return
        menu.more()
        self.page = menu.start
        self.show(seat, choices)

    def prompt(self, text: str) -> str:
        return self.read_line(text)

    def completions(self) -> list[str]:
        """What Tab completes at the prompt now: the commands, the legal actions (whole, and what
        comes before their colon), and the building names (alone, and after 'rules'); at the second
        step (how to do one thing), its ways, 'back' and the commands it answers."""
        if self.how_words is not None:
            return self.how_words
        words = [c for c in self.command_names if c != "?"] + ["help actions"]
        if not self.state.is_terminal():
            for a in self.state.legal_actions():
                text = str(a)
                words.extend((text.partition(":")[0].rstrip(), text))
        names = self.r.names(self.state)
        return words + names + [f"rules {n}" for n in names]

    def ask(self, seat: int) -> Any:
        choices = self.choices()
        self.show(seat, choices)
        n = len(choices)
        while True:
            line = self.prompt(f"{self.s.seats[seat].name}, your move (1-{n}, an action, or help)> ").strip()
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
                self.redraw(seat, choices)
                continue
            if low in self.command_names:
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
                self.redraw(seat, choices)
                continue
            try:
                return parse_action(self.state, line)
            except ActionError as exc:
                self.error(f"{exc} (Type 'help', or a number from 1 to {n}.)")

    def ask_how(self, seat: int, c: _Choice) -> Any:
        """The second step: how to do ``c`` (numbered); None to go back."""
        entries = [entry(n, *way_entry(self.r, self.state, a)) for n, a in enumerate(c.actions, 1)]
        menu = Menu(entries, entries)
        self.show_how(seat, c, menu)
        ways = [how for how in (self.r.group_of(a)[1] for a in c.actions) if how]
        self.how_words = ["back", *ways, *(w for w in STEP_COMMANDS if w != "?")]
        try:
            return self.choose_how(seat, c, menu)
        finally:
            self.how_words = None

    def choose_how(self, seat: int, c: _Choice, menu: Menu) -> Any:
        """The second step's prompt, until a way is chosen (or None: back)."""
        m = len(c.actions)
        while True:
            line = self.prompt(f"{c.head}: choose 1-{m} (or back)> ").strip()
            low = line.lower()
            if not line or low in ("back", "b"):
                return None
            if low == "more":
                if self.fitted and not (menu.start == 0 and menu.end >= m):
                    menu.more()
                    self.show_how(seat, c, menu)
                else:
                    self.say(Text("Every way is on the screen.", style="muted"))
                continue
            if line.isdigit():
                k = int(line)
                if 1 <= k <= m:
                    return c.actions[k - 1]
                self.error(f"There is no way {k}: type a number from 1 to {m}, or 'back'.")
                continue
            word, _, rest = line.partition(" ")
            if word.lower() in STEP_COMMANDS:
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

    def show_how(self, seat: int, c: _Choice, menu: Menu) -> None:
        """The second step's ways, under the mover's own line on a terminal (in pages if they must be)."""
        head = Text(f"How? {c.head}:", style="bold")
        if not self.fitted:
            self.say(head)
            self.say(numbered(menu.full, self.console.width))
            return
        tops = self.r.screens(self.state, self.s.seats, seat)[-1:]
        room = self.console.height - 1
        self.say(arrange(self.console, room, events=[], summary=[], kept=[], tops=tops, turn=head, menu=menu).screen)

    # -- prompt commands ---------------------------------------------------------------------
    def command(self, seat: int, cmd: str, arg: str, choices: list[_Choice]) -> str | None:
        if cmd in ("quit", "exit"):
            raise _End("quit")
        if cmd in self.extra:
            self.say(self.extra[cmd].text())
        elif cmd in ("help", "?"):
            if arg.lower().startswith("action"):
                self.say(self.r.action_forms())
            else:
                self.say(help_text(self.allow_undo, list(self.extra.values())))
        elif cmd == "rules":
            try:
                self.say(self.r.reference(self.state, arg or None))
            except GameError as exc:
                self.error(str(exc))
        elif cmd == "list" or (cmd == "board" and not self.fitted):
            return "redraw"
        elif cmd == "board":
            self.say(self.r.board(self.state, self.s.seats, seat))
            self.say(self.r.turn_line(self.state, self.s.seats))
            self.say(Text("'list' shows your choices again.", style="muted"))
        elif cmd == "log":
            self.show_log(arg)
        elif cmd == "more":
            self.more(seat, choices)
        elif cmd == "skip":
            self.say(Text(self.coach.skip(), style="muted"))
        elif cmd == "back":
            self.say(Text("Nothing to go back to: choose an action.", style="dim"))
        elif cmd == "history":
            self.show_history()
        elif cmd == "hint":
            self.hint(seat)
        elif cmd == "why":
            self.why(arg)
        elif cmd == "undo":
            return self.undo(seat)
        elif cmd == "save":
            self.save(arg)
        return None

    def show_history(self) -> None:
        """``history``: the last 20 actions of the game and who played them."""
        hist = self.state.history
        shown = hist[-20:]
        start = len(hist) - len(shown)
        movers = self.movers()
        for i, t in enumerate(shown, start + 1):
            who = f"{self.mover_tag(i - 1, movers[i - 1])}: " if movers else ""
            self.say(Text(f"{i:>3}. {who}{t}"))
        if not hist:
            self.say(Text("No actions yet."))

    def show_log(self, arg: str) -> None:
        """``log [N]``: what the last N actions (default 30) did, as shown after each."""
        n = int(arg) if arg.isdigit() and int(arg) > 0 else 30
        if arg and not arg.isdigit():
            self.error(f"'log {arg}': give a number of lines, e.g. 'log 50'.")
            return
        if not self.log:
            self.say(Text("Nothing has happened yet in this session; 'history' lists the game's actions."))
            return
        if len(self.s.positions) < len(self.state.history) and len(self.log) < n:
            self.say(Text("Earlier actions (before this session): 'history'.", style="muted"))
        for line in self.log[-n:]:
            self.say(line, soft_wrap=not self.fitted)

    def mover_tag(self, ply: int, seat: int) -> str:
        """Who made the action after ``ply`` actions, as 'history' names them (``seat``'s short name)."""
        return self.r.seat_tag(self.s.seats, seat)

    def movers(self) -> list[int]:
        """Who made each action of the game so far (empty if the stack of positions is not complete)."""
        if len(self.s.positions) != len(self.state.history):
            return []
        return [st.current_player() for st in self.s.positions]

    def hint(self, seat: int) -> None:
        agent = make_agent(self.hint_spec, derive_seed(self.s.seed, HINT, len(self.state.history)), self.s.game)
        try:
            agent_choose(agent, self.state, self.console, "The hint AI")
        except KeyboardInterrupt:
            self.say(Text("Hint cancelled."))
            return
        self.say(
            explain_info(
                agent.last_info if isinstance(agent, SearchAgent) else {},
                self.hint_title(seat),
                "would play",
                state=self.state,
                tag=lambda s: self.r.seat_tag(self.s.seats, s),
            )
        )

    def hint_title(self, seat: int) -> str:
        """Whose decision the hint is about: said when it is not the asker's (waiting for another seat)."""
        mover = self.state.current_player()
        if mover == seat or not 0 <= mover < len(self.s.seats):
            return "Hint: the AI"
        return f"Hint for {self.s.seats[mover].name}'s decision (not yours): the AI"

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
            self.say(explain_turn(turn, self.r, self.s.seats, since))
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
        who = self.r.who(self.s.seats, seat)
        if not info:
            self.say(Text(f"{who} does not explain its moves (only the ai agent does)."))
            return
        self.say(explain_info(info, who, state=before, tag=lambda s: self.r.seat_tag(self.s.seats, s)))

    def undo(self, seat: int) -> str | None:
        if not self.allow_undo:
            self.error("Undo is switched off for this game (--no-undo).")
            return None
        humans = {i for i, p in enumerate(self.s.seats) if p.kind == PERSON}
        # the undo rule: the last decision a person made (and who made it); the computer's replies after it go too
        target = self.s.undo_target(humans)
        if target is None:
            self.error("Nothing to undo: you have not made a decision yet.")
            return None
        k, who = target
        taken = self.s.taken_back(k)
        if who != seat and not self.other_agrees(seat, who, taken):
            return None
        self.s.pop_to(k)
        self.warn_unsaved()
        self.say(Text(f"Took back {whose_decisions(taken, self.names, seat)}."))
        self.last_ai = None
        self.ai_turn, self.last_turn = [], []
        return "undone"

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.s.seats]

    def other_agrees(self, seat: int, who: int, taken: list[tuple[int, str]]) -> bool:
        """Undo takes back only your own last decision while nobody else has decided since;
        otherwise the person who decided last must agree (their decision goes first): they are asked
        in the words the network uses (the same question, naming every decision and whose it is)."""
        me, them = self.names[seat], self.names[who]
        asked, told = undo_request_words(taken, self.names, seat, who)
        self.say(Text(told))
        self.say(Text(asked))
        answer = self.prompt(f"{them}, agree? (yes/no)> ").strip().lower()
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
        how = continue_command(self.s.game.name, path)
        if old is None:  # autosave is off: a snapshot
            self.say(told("Saved to", Copy(str(path)), "Continue it with", Copy(how)), crop=False)
            return
        self.s.save_path = path
        self.save_warned = False
        if old.resolve() != path.resolve() and records.is_autosave_name(old):
            try:  # the same game under its automatic name: not kept twice
                old.unlink()
            except OSError:
                pass
        self.say(
            told("Saved to", Copy(str(path)), "The game goes on saving there. Continue it later with", Copy(how)),
            crop=False,
        )


def unlisted_note(n: int) -> Text | None:
    """The line under the choices saying that ``n`` ways to pay are not listed, and why."""
    if not n:
        return None
    ways = f"{n} other way{'s' if n != 1 else ''} to pay {'is' if n == 1 else 'are'}"
    return Text(f"{ways} not listed: a listed way pays less. Typed, any legal way is accepted.", style="muted")


def _begins(action_text: str, want: str) -> bool:
    """``want`` (normalised) is whole leading words of the action's text (as in parse_action)."""
    t = normalize_text(action_text)
    return t == want or (t.startswith(want) and t[len(want)] in " :;,+")


def help_text(allow_undo: bool = True, extra: Sequence[PromptCommand] = ()) -> RenderableType:
    """``help``: one line per command, to fit one screen; ``help actions`` has the action forms."""
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    rows = [
        ("NUMBER", "choose from the list (a second list asks how; 'back' returns)"),
        ("ACTION TEXT", "type an action (its first words do if they fit one action)"),
        ("board", "the whole board: every side, the offer, what is to come"),
        ("list", "the screen again: your side, the last moves, your choices"),
        ("more", "the next page of choices (when they do not all fit)"),
        ("log [N]", "what the last N actions did (default 30)"),
        ("rules [BUILDING]", "the building reference (all buildings, or one)"),
        ("hint", "what the AI would do here, and why"),
        ("why [ACTION]", "why the computer played its last move; with an action: why not"),
        ("undo", "take back your last decision and the replies to it" if allow_undo else "off in this game"),
        ("save [NAME]", "save now (every action is saved); NAME: go on saving as NAME"),
        ("history", "the last 20 actions and who played them"),
        *((c.name, c.usage) for c in extra),
        ("quit", "stop; the game stays saved, and you are told how to go on"),
        ("help actions", "how to type each kind of action, with examples"),
    ]
    for a, b in rows:
        t.add_row(a, b)
    return Group(Text("Commands at the prompt:", style="bold"), t)


def play(
    session: GameTable,
    renderer: Renderer,
    console: Console,
    *,
    read_line: Callable[[str], str] | None = None,
    allow_undo: bool = True,
    plain: bool = False,
    coach: Coach | None = None,
) -> int:
    """Play the game at ``session`` (its table) to its end (or until the person stops); returns the exit code.

    ``plain``: the whole board before every decision even on a terminal (see :mod:`cli.screen`);
    ``coach``: explanations while playing (the tutorial); a person types at :class:`cli.line_input.LineInput`
    (line editing, history and Tab completion on a terminal) unless ``read_line`` is given."""
    return PlayLoop(
        session, renderer, console, read_line=read_line, allow_undo=allow_undo, plain=plain, coach=coach
    ).run()
