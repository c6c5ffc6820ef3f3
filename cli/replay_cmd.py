"""``lehavre replay PATH``: step through a saved game, or print one position as JSON.

Generic over the rule sets (:mod:`core.records`): the record is loaded and
verified, every position is rebuilt from its action texts, and the board is
drawn by the rule set's renderer (a :class:`cli.play.Renderer` subclass in
``cli/render_<ruleset>.py``) or, if it has none, as a text summary.

At the replay prompt::

    Enter, n, next      the next action          b, back      the action before
    N, j N, jump N      position after action N  start, end   the first or last position
    s, show, board      the board now            l, log [N]   the actions around here (N each side)
    h, help             this list                q, quit      leave the replay
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from cli.console import error, make_console
from cli.games import renderer_for
from cli.options import json_print_option
from cli.play import Player
from cli.review_view import evaluation_line, lost_line, stored_review
from cli.root import app
from core.games import game_spec
from core.lab.review import GameSource
from core.protocol import GameError, GameState
from core.records import GameRecord, RecordError, find_save, load_record, replay_actions, replay_all, state_summary

#: exit code for a file that cannot be replayed or a position that does not exist
EXIT_BAD_INPUT = 2

HELP = """\
Enter, n, next   the next action           b, back        the action before
N, j N, jump N   position after action N   start, end     the first or the last position
s, show, board   the board now             l, log [N]     the actions around here (N each side)
h, help          this list                 q, quit        leave the replay"""


# ---------------------------------------------------------------------------
# Renderers: cli/render_<ruleset>.py if it exists, else a text summary
# ---------------------------------------------------------------------------


def find_renderer(ruleset: str, width: int = 100) -> Any | None:
    """The renderer for ``ruleset`` (:mod:`cli.games`), or None for a game the command line does not draw."""
    return renderer_for(ruleset, width)


def summary_text(state: GameState, labels: Sequence[str]) -> RenderableType:
    """A plain summary of a position, for rule sets without a renderer."""
    table = Table(title="Wealth" if not state.is_terminal() else "Final wealth", title_justify="left")
    table.add_column("")
    parts: list[str] = []
    breakdowns = [state.wealth_breakdown(p) for p in range(state.num_players)]
    for b in breakdowns:
        parts += [k for k in b if k not in parts]
    for p in range(state.num_players):
        table.add_column(labels[p], justify="right")
    for k in parts:
        table.add_row(k, *[str(b.get(k, "")) for b in breakdowns])
    table.add_row(Text("total", style="bold"), *[Text(str(w), style="bold") for w in state.wealth()])
    return table


# ---------------------------------------------------------------------------
# The viewer
# ---------------------------------------------------------------------------


class ReplayViewer:
    """Positions 0..n of a record and a cursor; prints with Rich."""

    def __init__(
        self, record: GameRecord, states: list[GameState], console: Console, path: Path, boards: bool = False
    ) -> None:
        self.record = record
        self.states = states
        self.console = console
        self.path = path
        self.boards = boards
        self.pos = 0
        self.labels = [record.seat_label(p) for p in range(states[0].num_players)]
        self.evaluate = game_spec(record.ruleset).evaluator.evaluate
        #: the review of this game ('lehavre review'), if one was made: francs lost per action
        self.review = stored_review(
            GameSource(record.ruleset, record.options, record.seed, tuple(record.actions), record.data_digest)
        )
        self.renderer = find_renderer(record.ruleset, width=max(console.width, 40))
        if self.renderer is not None:
            self.players = [Player(label) for label in self.labels]

    @property
    def last(self) -> int:
        return len(self.states) - 1

    # -- printing -----------------------------------------------------------
    def header(self) -> None:
        r = self.record
        who = ", ".join(f"seat {i + 1}: {label}" for i, label in enumerate(self.labels))
        status = "finished" if r.finished else "not finished"
        self.console.print(
            Text(
                f"Replay of {self.path} ({r.ruleset}, seed {r.seed}, {len(r.actions)} actions, {status})", style="bold"
            )
        )
        self.console.print(Text(who, style="muted"))
        self.console.print(Text("Type h for help, Enter for the next action, q to quit.", style="muted"))

    def actor_of(self, k: int) -> int:
        """The seat that chose action ``k`` (1-based)."""
        return self.states[k - 1].current_player()

    def action_line(self, k: int) -> None:
        """What action ``k`` was and did (the renderer's event lines when it has some)."""
        actor = self.actor_of(k)
        text = self.record.actions[k - 1]
        head = Text(f"[{k}/{self.last}] ", style="muted")
        if self.renderer is None:
            head.append(f"{self.labels[actor]}: {text}")
            self.console.print(head)
            self._lost(k)
            return
        before = self.states[k - 1]
        after = before.clone()  # a fresh apply, so the state knows what the action did
        action = next(replay_actions(after, [text], first=k)).action
        head.append(text, style="bold")
        self.console.print(head)
        for line in self.renderer.event_lines(after, self.players, actor, action, before):
            self.console.print(line)
        self._lost(k)

    def _lost(self, k: int) -> None:
        """What action ``k`` lost (where a review is kept), and the evaluation of the position it led to."""
        state = self.states[k]
        for line in (lost_line(self.review, k), self._evaluation(state, k)):
            if line is not None:
                self.console.print(line)

    def _evaluation(self, state: GameState, pos: int) -> Text | None:
        if state.is_terminal():
            return None
        return evaluation_line(self.review, self.evaluate, state, pos, self.labels[state.current_player()])

    def position_line(self) -> None:
        state = self.states[self.pos]
        where = "the start" if self.pos == 0 else f"action {self.pos}: {self.record.actions[self.pos - 1]}"
        t = Text(
            f"Position after {where} ({self.pos}/{self.last})"
            if self.pos
            else f"Position at the start (0/{self.last})",
            style="bold",
        )
        self.console.print(t)
        if state.is_terminal():
            self.console.print(Text("The game is over.", style="bold"))
        else:
            self.console.print(Text(f"{self.labels[state.current_player()]} to play", style="muted"))
            line = self._evaluation(state, self.pos)
            if line is not None:
                self.console.print(line)

    def board(self) -> None:
        state = self.states[self.pos]
        if self.renderer is not None:
            self.console.print(self.renderer.board(state, self.players, None))
            if state.is_terminal():
                self.console.print(self.renderer.final(state, self.players))
        else:
            self.console.print(summary_text(state, self.labels))
            if state.is_terminal():
                w = state.wealth()
                win = state.winners()
                names = " and ".join(self.labels[p] for p in win)
                self.console.print(
                    Text(f"{'Winner' if len(win) == 1 else 'Tie'}: {names} with {w[win[0]]}.", style="bold")
                )

    def log(self, around: int = 5) -> None:
        lo, hi = max(1, self.pos - around), min(self.last, self.pos + around)
        for k in range(lo, hi + 1):
            mark = ">" if k == self.pos else " "
            self.console.print(
                Text(
                    f"{mark} {k:>4}  {self.labels[self.actor_of(k)]}: {self.record.actions[k - 1]}",
                    style="bold" if k == self.pos else "",
                )
            )
        if lo > hi:
            self.console.print(Text("No actions in this record yet.", style="muted"))

    # -- moving -------------------------------------------------------------
    def goto(self, n: int) -> None:
        if not 0 <= n <= self.last:
            self.console.print(
                Text(f"There is no action {n}: this record holds actions 0 to {self.last}.", style="error")
            )
            return
        self.pos = n
        self.position_line()
        self.board()

    def next(self) -> None:
        if self.pos >= self.last:
            self.console.print(Text("That was the last action (b goes back, q quits).", style="muted"))
            return
        self.pos += 1
        self.action_line(self.pos)
        if self.boards or self.pos == self.last:
            self.board()

    def back(self) -> None:
        if self.pos == 0:
            self.console.print(Text("This is the start (Enter goes forward, q quits).", style="muted"))
            return
        self.goto(self.pos - 1)

    def command(self, line: str) -> bool:
        """Do one command; False to quit."""
        words = line.strip().lower().split()
        cmd, args = (words[0], words[1:]) if words else ("n", [])
        if cmd in ("q", "quit", "exit"):
            return False
        if cmd in ("n", "next", "+"):
            self.next()
        elif cmd in ("b", "back", "p", "prev", "-"):
            self.back()
        elif cmd in ("s", "show", "board"):
            self.position_line()
            self.board()
        elif cmd in ("start", "first"):
            self.goto(0)
        elif cmd in ("end", "last"):
            self.goto(self.last)
        elif cmd in ("l", "log"):
            around = int(args[0]) if args and args[0].isdigit() else 5
            self.log(around)
        elif cmd in ("h", "help", "?"):
            self.console.print(HELP, markup=False)
        elif cmd.isdigit() or (cmd in ("j", "jump", "g", "goto") and args and args[0].isdigit()):
            self.goto(int(cmd if cmd.isdigit() else args[0]))
        else:
            self.console.print(
                Text(
                    f"Unknown command '{line.strip()}'. Allowed: n, b, a number, j N, s, l, start, end, h, q.",
                    style="error",
                )
            )
        return True

    def run(self, start: int) -> None:
        self.header()
        self.goto(start)
        while True:
            try:
                line = self.console.input("replay> ")
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if not self.command(line):
                return


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def load_states(path: Path) -> tuple[GameRecord, list[GameState]]:
    """The verified record at ``path`` and every one of its positions."""
    record = load_record(path)
    return record, replay_all(record, source=path)


@app.command("replay")
def replay_command(
    path: Annotated[
        str,
        typer.Argument(
            metavar="NAME|PATH",
            show_default=False,
            help="A saved game: a name 'lehavre saves' lists, or a file's path.",
        ),
    ],
    to: Annotated[
        int | None,
        typer.Option("--to", metavar="N", min=0, help="Start at (with --json: print) the position after action N."),
    ] = None,
    json_out: Annotated[
        bool, json_print_option("Print the position after action N (default: the last) as JSON and exit.")
    ] = False,
    boards: Annotated[
        bool, typer.Option("--boards", help="Show the board after every action, not only on 's'.")
    ] = False,
) -> None:
    """Step through a saved game, or print one position as JSON.

    At the replay's prompt: Enter or n next, b back, a number to jump there, s the board, l the log, q quit.
    """
    try:
        file = find_save(path)
        record, states = load_states(file)
    except RecordError as exc:
        error(str(exc))
        raise typer.Exit(EXIT_BAD_INPUT) from None
    last = len(states) - 1
    n = last if to is None and json_out else (to or 0)
    if n > last:
        error(f"{path}: there is no action {n}: this record holds actions 0 to {last}")
        raise typer.Exit(EXIT_BAD_INPUT)
    if json_out:
        summary = state_summary(states[n], record)
        summary["total_actions"] = last
        summary["finished"] = record.finished
        typer.echo(json.dumps(summary))
        return
    console = make_console()
    try:
        ReplayViewer(record, states, console, file, boards=boards).run(n)
    except GameError as exc:  # pragma: no cover - a renderer refusing a verified position is a bug
        error(str(exc))
        raise typer.Exit(EXIT_BAD_INPUT) from None
