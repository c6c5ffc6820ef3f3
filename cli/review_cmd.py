"""``lehavre review``: where a finished game was won and lost, decision by decision.

The work is done by :mod:`core.lab.review` (the reference search, francs lost,
labels, accuracy, stored reviews) and :mod:`core.lab.review_report` (HTML); this
module finds the game (a save or a stored playtest game), drives a progress
bar and prints what :mod:`cli.review_view` draws.  :func:`offer_review` is
what the end of a game at the keyboard calls.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from cli.console import error, make_console
from cli.options import DbOption, JobsOption, Level, json_print_option, level_choice, report_option
from cli.playtest_cmd import default_db_path
from cli.review_view import Reviewed, better_line, from_save, ranges, run_review, show_review, tagger
from cli.root import app
from core.lab import review as rv
from core.lab import review_report
from core.lab.playtest import PlaytestError, Store
from core.lab.report import write_report
from core.protocol import GameError, GameState

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
D = rv.DEFAULT_THRESHOLDS


def from_playtest(run: int, game: int, db: Path | None) -> Reviewed:
    path = db or default_db_path()
    if not path.exists():
        raise PlaytestError(f"no playtest database at '{path}' (give --db PATH)")
    with Store(path) as store:
        info = store.run(run)
        g = store.game(run, game)
        if g is None:
            raise PlaytestError(f"run {run} has no stored game {game} (stored: {ranges(sorted(store.done(run)))})")
    source = rv.GameSource(info.config.rules, dict(info.config.options), int(g["seed"]), tuple(g["actions"]))
    players = [str(spec) for spec in g["seats"]]
    return Reviewed(f"Review of playtest run {run}, game {game}", source, players, list(g["wealth"]))


REVIEW_EPILOG = (
    "For every decision the reference (ai:hard's budget unless --level) searches the position as the mover "
    "saw it (hidden tiles and cards re-dealt, as the AI does), finds the best move, and searches the move "
    "played to the same depth; francs lost = the best value minus the played move's, for the mover, never "
    "negative. A decision with one legal action, or one worth searching that was played, loses nothing. "
    "Labels: inaccuracy from 2, mistake from 5, blunder from 10 francs lost (chosen from the francs lost "
    "measured in games of ai:normal, greedy and random). Accuracy = 100 x 0.75^(mean francs lost per "
    "searched decision). Reviews are kept in the data directory, so a second look (and 'lehavre replay') "
    "is immediate."
)


GameArg = Annotated[
    str | None,
    typer.Argument(
        metavar="NAME|PATH",
        show_default=False,
        help="A saved game: a name 'lehavre saves' lists, or a file's path.",
    ),
]
RunOpt = Annotated[int | None, typer.Option("--run", metavar="N", help="A stored playtest run (with --game).")]
GameIndexOpt = Annotated[int | None, typer.Option("--game", metavar="I", help="Game I of the playtest run --run.")]
LevelOpt = Annotated[Level | None, level_choice("The reference AI: easy, normal or hard (the default).")]
InaccuracyOpt = Annotated[float, typer.Option(metavar="FRANCS", min=0.01, help="Francs lost that make an inaccuracy.")]
MistakeOpt = Annotated[float, typer.Option(metavar="FRANCS", min=0.01, help="... a mistake.")]
BlunderOpt = Annotated[float, typer.Option(metavar="FRANCS", min=0.01, help="... a blunder.")]
AllOpt = Annotated[
    bool, typer.Option("--all", help="Every labelled decision, not only the summary and turning points.")
]
ReportOpt = Annotated[Path | None, report_option("Also write an HTML page: chart and tables.")]
JsonOpt = Annotated[bool, json_print_option("Print the review as one JSON object (for tools).")]
AgainOpt = Annotated[bool, typer.Option("--again", help="Review again even if a review at this level is stored.")]


@app.command("review", epilog=REVIEW_EPILOG)
def review_command(
    game: GameArg = None,
    run: RunOpt = None,
    game_index: GameIndexOpt = None,
    db: DbOption = None,
    level: LevelOpt = None,
    jobs: JobsOption = 1,
    inaccuracy: InaccuracyOpt = D.inaccuracy,
    mistake: MistakeOpt = D.mistake,
    blunder: BlunderOpt = D.blunder,
    show_all: AllOpt = False,
    report: ReportOpt = None,
    json_out: JsonOpt = False,
    again: AgainOpt = False,
) -> None:
    """Where a game was won and lost, decision by decision.

    Each decision's francs lost against a reference search.

    First a summary: each player's accuracy, a graph of the game, the turning points and each
    player's worst decision; --all lists every labelled decision with its better line.
    """
    target, positions, review = _review_or_exit(
        game, run, game_index, db, level.value if level else None, jobs, (inaccuracy, mistake, blunder), again
    )
    if report is not None:
        _write_report_or_exit(target, review, positions, report)
    if json_out:
        typer.echo(review.to_json())
        return
    out = make_console()
    show_review(target, review, positions, out, show_all, more_command(game, run, game_index))
    if report is not None:
        out.print(Text(f"HTML report: {report}", style="muted"))


def _review_or_exit(
    game: str | None,
    run: int | None,
    game_index: int | None,
    db: Path | None,
    level: str | None,
    jobs: int,
    francs: tuple[float, float, float],
    again: bool,
) -> tuple[Reviewed, list[GameState], rv.GameReview]:
    """Check the thresholds, find the game and review it (a progress bar on stderr); bad input exits with a message."""
    err = make_console(stderr=True)
    try:
        thresholds = rv.Thresholds(*francs)
        target = _target(game, run, game_index, db)
        positions = target.source.positions()
        review = run_review(target, level, jobs, thresholds, err, again)
    except typer.BadParameter:
        raise
    except (GameError, OSError) as exc:
        error(str(exc))
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except rv.ReviewInterrupted as stopped:
        error(
            f"interrupted: {len(stopped.decisions)} of {stopped.total} decisions reviewed; they are kept, "
            "and the same command continues from them"
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except KeyboardInterrupt:
        error("interrupted before any decision was reviewed")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    return target, positions, review


def _write_report_or_exit(target: Reviewed, review: rv.GameReview, positions: list[GameState], report: Path) -> None:
    """Write the HTML report; a file that cannot be written exits with a message."""
    tag = tagger(target.players)
    try:
        write_report(report, review_report.render(review, target.title, lambda d: better_line(d, positions, tag)))
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(EXIT_BAD_INPUT) from None


def more_command(game: str | None, run: int | None, game_index: int | None) -> str:
    """The command that shows every labelled decision of the game reviewed."""
    if game is not None:
        return f"lehavre review {shlex.quote(game)} --all"
    return f"lehavre review --run {run} --game {game_index} --all"


def _target(game: str | None, run: int | None, game_index: int | None, db: Path | None) -> Reviewed:
    if game is not None and (run is not None or game_index is not None):
        raise typer.BadParameter("give a saved game or --run N --game I, not both", param_hint="'--run'")
    if game is not None:
        return from_save(game)
    if run is None or game_index is None:
        raise typer.BadParameter(
            "name a saved game (see 'lehavre saves'), or a playtest game with --run N --game I",
            param_hint="'NAME|PATH'",
        )
    return from_playtest(run, game_index, db)
