"""Every kind of option, declared once and used by every command that takes it (``--seed``, ``--games``,
``--jobs``, ``--db``, ``--noise``, ``--level``, ``--think-time``, ``--buildings``, ``--resume``, ``--json``,
``--report``, ...): a constant ``Annotated`` alias where the help is the same everywhere, a function of the
help where each command says what the option is for there.  Each is checked here, where it is declared
(a type that checks itself, or a range), and a bad value is said in the project's words
(:class:`cli.group.PlainWordsGroup`).  Also what the game commands' options do the same way: AI levels and budgets
in the help, options that cannot go together refused."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, get_args

import typer
from typer.models import OptionInfo

from cli.session import with_level
from core.agents import AgentSpecError
from core.protocol import GameSpec
from core.search import Noise, ThinkTime
from inland_port.shipped import data_path

#: the options both game commands declare alike (Typer's Annotated style: one declaration each)
LoadOption = Annotated[
    str | None,
    typer.Option(
        "--load", metavar="NAME|PATH", help="Continue a saved game: a name 'lehavre saves' lists, or a file's path."
    ),
]


class Backend(str, Enum):
    """Where a playtest's games are played."""

    local = "local"
    dask = "dask"


#: the options of every command that plays stored runs (playtest, compare, skill, balance)
JobsOption = Annotated[
    int,
    typer.Option("--jobs", "-j", metavar="N", min=1, help="Worker processes (the results do not depend on it)."),
]
BackendOption = Annotated[
    Backend, typer.Option("--backend", metavar="local|dask", help="This machine's processes, or a Dask cluster.")
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        metavar="ADDR",
        help="The Dask scheduler (default: a local Dask cluster), e.g. tcp://10.0.0.5:8786.",
    ),
]
DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        metavar="PATH",
        help="The SQLite file that keeps every game (default: in the data directory).",
    ),
]


def shipped_or_file(value: Path | None) -> Path | None:
    """``--buildings``'s value: the file of the building data shipped under that name, else the path given."""
    return data_path(str(value)) if value is not None else None


def buildings_option(help: str) -> Any:
    """``--buildings``, declared once for every command that plays the Inland Port (``help``: what the
    data is for in that command); a file that cannot be read is said by the game, with what is wrong."""
    return typer.Option(
        "--buildings",
        metavar="FILE|NAME",
        callback=shipped_or_file,
        help=f"{help} A data file, or the name of data shipped with the game (see 'lehavre rules inland').",
    )


def resume_option(help: str) -> Any:
    """``--resume`` (go on with what is stored), declared once (``help``: what goes on, in that command)."""
    return typer.Option("--resume", help=help)


def seed_option(help: str) -> Any:
    """``--seed N``, declared once (``help``: what it seeds in that command); a whole number."""
    return typer.Option("--seed", metavar="N", help=help)


def games_option(help: str) -> Any:
    """``--games N``/``-n N``, declared once (``help``: of what, in that command); at least 1."""
    return typer.Option("--games", "-n", metavar="N", min=1, help=help)


def json_file_option(help: str) -> Any:
    """``--json PATH``: write the results to this JSON file (``help``: which results)."""
    return typer.Option("--json", metavar="PATH", help=help)


def json_print_option(help: str) -> Any:
    """``--json``: print one JSON object for tools instead of the screen (``help``: which object)."""
    return typer.Option("--json", help=help)


def report_option(help: str) -> Any:
    """``--report FILE.html``: also write an HTML report (``help``: what it shows)."""
    return typer.Option("--report", metavar="FILE.html", help=help)


ResumeOption = Annotated[bool, resume_option("Continue the most recent unfinished game.")]
WatchOption = Annotated[bool, typer.Option("--watch", help="Watch agents play a whole game (see --agents).")]
JsonOption = Annotated[bool, json_print_option("With --watch: print only one JSON object with the result.")]
SeedOption = Annotated[int | None, seed_option("Seed of the game (drawn and printed if not given).")]
NoUndoOption = Annotated[bool, typer.Option("--no-undo", help="Do not allow 'undo' at the prompt.")]
NoSaveOption = Annotated[bool, typer.Option("--no-save", help="Do not autosave the game after every action.")]
PaceOption = Annotated[
    float | None,
    typer.Option(
        "--pace",
        min=0.0,
        metavar="SECONDS",
        help="With --watch in a terminal: seconds between two actions, each shown on the board (default 0.5; "
        "0: the action lines alone, as fast as they come).",
    ),
]


def _value(kind: type[float]) -> Callable[[str], Any]:
    """A parser for an option whose value type (``kind``) checks itself: a number, then ``kind``'s own check,
    its message a usage error."""

    def parse(text: str) -> Any:
        if isinstance(text, kind):  # a default, already made
            return text
        try:
            number = float(text)
        except ValueError:
            raise typer.BadParameter(f"'{text}' is not a number") from None
        try:
            return kind(number)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    return parse


def noise_option(help: str) -> Any:
    """``--noise X``, declared once (``help``: whose noise, in that command): a :class:`~core.search.Noise`,
    checked by its type."""
    return typer.Option("--noise", parser=_value(Noise), metavar="X", help=help)


NoiseOption = Annotated[
    Noise | None,
    noise_option(
        "Each AI draws among its moves within X francs of its best: varied games a seed reproduces "
        "(not with an agent written with its own noise, ai:easy~3)."
    ),
]
PlainOption = Annotated[
    bool,
    typer.Option(
        "--plain",
        help="Print the whole board before every decision, as a scrolling transcript, instead of a "
        "screen fitted to the terminal.",
    ),
]


@dataclass(frozen=True)
class RulesOptions:
    """The options that make a game's rules, as ``lehavre inland``/``base`` and ``lehavre host`` read them."""

    players: int = 2
    short: bool = False
    buildings: Path | None = None
    advanced_selling: bool = False
    expensive_loans: bool = False


#: the words of ``--seat``, the same in every game (besides a seat number; 'second' is seat 2)
SEAT_WORDS = ("first", "last", "random")


def seat_word(value: str) -> str:
    """``--seat``'s value made one of :data:`SEAT_WORDS` or a seat number ('second' is '2'); anything
    else is a usage error saying what is allowed (whether the seat exists is checked with the players)."""
    word = value.strip().lower()
    if word == "second":
        return "2"
    if word in SEAT_WORDS or (word.isdigit() and int(word) >= 1):
        return str(int(word)) if word.isdigit() else word
    raise typer.BadParameter(f"'{value}' is not a seat: give first, last, random or a seat number (1, 2, ...)")


def seat_option(numbers: str, people: str = "") -> Any:
    """``--seat``, declared once for every game command: the same words and help; ``numbers``: the
    game's seat numbers, ``people``: what it means for several people at the keyboard."""
    return typer.Option(
        "--seat",
        metavar="first|last|random|N",
        callback=seat_word,
        help=f"Your seat: first (seat 1, who starts), last, random (drawn from the seed), or a seat number "
        f"({numbers}; 'second' is seat 2).{people}",
    )


def level_help(game: GameSpec) -> str:
    """``--level``'s help: the game's own AI levels and their budgets (from its spec)."""
    parts = [
        f"{name} ({'the default: ' if name == game.default_level else ''}{lv.describe()})"
        for name, lv in game.ai_levels.items()
    ]
    return "Strength of an 'ai' opponent: " + ", ".join(parts) + "."


def think_time_option(game: GameSpec) -> Any:
    """``--think-time``, declared once for every game command (its help names ``game``'s time cap)."""
    return typer.Option("--think-time", parser=_value(ThinkTime), metavar="SECONDS", help=think_time_help(game))


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


def level_choice(help: str) -> Any:
    """``--level`` of a command that names an AI level in words (``help``: whose level), declared once:
    one of :class:`Level`, in any case."""
    return typer.Option("--level", case_sensitive=False, metavar="easy|normal|hard", help=help)


def level_option(game: GameSpec) -> Any:
    """``--level``, declared once for every game command (its help names ``game``'s levels and budgets)."""
    return Annotated[Level | None, level_choice(level_help(game))]


def think_time_declaration(game: GameSpec) -> Any:
    """``--think-time`` with its type, declared once for every game command."""
    return Annotated[ThinkTime | None, think_time_option(game)]


def opponent_with_level(opponent: str, level: Level | None, watch: bool) -> str:
    """The ``--opponent`` spec with ``--level`` applied; a bad combination is a usage error."""
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


def check_mode(watch: bool, json_out: bool, resume: bool, load: str | None, noise: Noise | None = None) -> None:
    """Options that do not go together in a game command are usage errors."""
    if json_out and not watch:
        raise typer.BadParameter("--json needs --watch (a game between agents)", param_hint="'--json'")
    if noise and not watch:
        raise typer.BadParameter(
            "--noise varies the agents of --watch/--agents; give it with them", param_hint="'--noise'"
        )
    if watch and (resume or load is not None):
        raise typer.BadParameter(
            "--resume and --load continue a game at the keyboard; they do not go with --watch", param_hint="'--watch'"
        )
    if resume and load is not None:
        raise typer.BadParameter("give either --resume or --load PATH, not both", param_hint="'--resume'")


#: options that cannot go together: (modes, others, why), each option named by its declaration (an
#: ``Annotated`` alias of this module or a game command's)
Conflict = tuple[tuple[Any, ...], tuple[Any, ...], str]


def flag_of(declaration: Any) -> str:
    """The first flag (``--seed``) of an option declared as ``Annotated[type, typer.Option(...)]``."""
    info = next(x for x in get_args(declaration)[1:] if isinstance(x, OptionInfo))
    # in an Annotated declaration the first flag stands where a default would
    return str(info.default if isinstance(info.default, str) else (info.param_decls or ("",))[0])


#: why options do not go with continuing a saved game (``--resume``, ``--load``)
CONTINUING_WHY = "a saved game goes on with the seed, players, options and building data it was started with"
#: why options do not go with watching agents (``--watch``, ``--agents``)
WATCHING_WHY = "watching agents has nobody at the keyboard (name every seat's agent in --agents)"


def refuse_conflicts(ctx: Any, conflicts: Sequence[Conflict]) -> None:
    """Options given together that cannot go together are a usage error (exit 2) naming both.

    ``conflicts``: (modes, others, why): any of the options ``modes`` given on the command line
    together with any of ``others``.
    """
    # click's UsageError (exit status 2), whether typer vendors click or depends on it
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
    names = {flag: p.name for p in ctx.command.params for flag in getattr(p, "opts", ())}

    def given(flag: str) -> bool:
        source = ctx.get_parameter_source(names[flag])
        return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")

    for modes, others, why in conflicts:
        mode = next((f for f in map(flag_of, modes) if given(f)), None)
        if mode is None:
            continue
        clash = next((f for f in map(flag_of, others) if given(f)), None)
        if clash is not None:
            raise usage_error(f"{mode} and {clash} cannot go together: {why}.", ctx)
