"""``lehavre saves``: the saved games a person can continue, newest first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from cli.console import make_console
from cli.root import app
from core import records

GAME_NAMES = {"inland": "Inland Port", "base": "base game"}


def game_text(record: records.GameRecord) -> str:
    """The game of a record in a few words: rule set, version, players."""
    name = GAME_NAMES.get(record.ruleset, record.ruleset)
    if record.ruleset == "base":
        version = "short" if record.options.get("short") else "full"
        return f"{name}, {version}"
    return name


def progress_text(state: Any) -> str:
    """Where a game stands: its round (and how many rounds there are)."""
    letter = getattr(state, "round_letter", None)
    if isinstance(letter, str):
        return f"{letter} of A-L"
    number, rounds = getattr(state, "round_number", None), getattr(state, "rounds", None)
    if isinstance(number, int) and rounds is not None:
        return f"{number} of {len(rounds)}"
    return f"{state.main_action_count} actions"


def describe(path: Any, record: records.GameRecord) -> dict[str, Any]:
    """One saved game as a row: name, game, players, round, when last played, finished, file."""
    try:
        state = records.replay(record, source=path)
        problem = None
    except records.RecordError as exc:
        state, problem = None, str(exc)
    if problem is not None:
        status = "damaged"
    elif record.finished:
        status = "over: " + " - ".join(str(w) for w in (record.final_wealth or []))
    else:
        status = "unfinished"
    return {
        "name": records.save_name(path),
        "game": game_text(record),
        "players": [s.label() for s in record.players],
        "round": progress_text(state) if state is not None and not record.finished else ("" if problem else "over"),
        "last_played": record.updated.astimezone().strftime("%b %d %H:%M"),
        "finished": record.finished,
        "status": status,
        "file": str(path),
        "problem": problem,
    }


def not_saved_games(folder: Path, listed: set[str]) -> str:
    """A line naming the files of the saves folder that are not readable saved games ('' if none)."""
    try:
        files = sorted(p for p in folder.glob("*.json") if str(p) not in listed)
    except OSError:
        return ""
    if not files:
        return ""
    names = ", ".join(p.name for p in files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
    one = len(files) == 1
    return (
        f"{len(files)} file{'' if one else 's'} there {'is' if one else 'are'} not "
        f"{'a readable saved game' if one else 'readable saved games'}: {names} "
        "('lehavre replay NAME' says what is wrong)."
    )


@app.command("saves")
def saves(
    game: Annotated[str | None, typer.Argument(metavar="inland|base", help="Only the games of this kind.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List your saved games, newest first.

    Each with its name, game, players, round (or the result) and when it was last played.

    Continue one with 'lehavre inland --load NAME' or 'lehavre base --load NAME'; 'lehavre inland --resume'
    (or base) continues the most recently played unfinished game.
    """
    if game is not None and game not in GAME_NAMES:
        raise typer.BadParameter(
            f"'{game}' is not a game; use inland or base (or nothing for both)", param_hint="'inland|base'"
        )
    rows = [describe(p, r) for p, r in records.list_records(ruleset=game)]
    if json_out:
        print(json.dumps(rows, indent=1))
        return
    console = make_console()
    folder = records.default_save_dir()
    unreadable = not_saved_games(folder, {row["file"] for row in rows}) if game is None else ""
    if not rows:
        console.print(
            f"No saved games in {folder}. Every game you play is saved there after each action.",
            soft_wrap=True,
            markup=False,
        )
        if unreadable:
            console.print(Text(unreadable, style="dim"), soft_wrap=True)
        return
    console.print(Text(f"Saved games in {folder}, newest first:", style="bold"), soft_wrap=True)
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("name", "game", "players", "round", "last played"):
        table.add_column(column, overflow="fold", no_wrap=column in ("name", "last played"))
    for row in rows:
        where = row["round"] if row["status"] == "unfinished" else row["status"]
        table.add_row(
            row["name"],
            row["game"],
            ", ".join(row["players"]),
            Text(where, style="dim" if row["finished"] or row["problem"] else ""),
            row["last_played"],
        )
    console.print(table)
    for row in rows:
        if row["problem"]:
            console.print(Text(f"{row['name']}: {row['problem']}", style="dim"), soft_wrap=True)
    if unreadable:
        console.print(Text(unreadable, style="dim"), soft_wrap=True)
    console.print(
        Text(
            "Continue one with 'lehavre GAME --load NAME' (GAME: inland or base); a name that is a path "
            "is a file outside this folder.",
            style="dim",
        )
    )
