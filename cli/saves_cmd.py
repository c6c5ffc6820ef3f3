"""``lehavre saves``: the saved games a person can continue, newest first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from cli.console import make_console
from cli.options import json_print_option
from cli.root import app
from cli.session import is_hosted
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
        "hosted": is_hosted(Path(path)),
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
    json_out: Annotated[bool, json_print_option("Print the list as JSON.")] = False,
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
    console.print(games_table(rows, console.width))
    for row in rows:
        if row["problem"]:
            console.print(Text(f"{row['name']}: {row['problem']}", style="dim"), soft_wrap=True)
    if unreadable:
        console.print(Text(unreadable, style="dim"), soft_wrap=True)
    console.print(Text(continue_advice(rows), style="dim"))


def continue_advice(rows: list[dict[str, Any]]) -> str:
    """How to continue the games listed (a hosted game goes on over the network, with its seats and codes)."""
    text = (
        "Continue one with 'lehavre GAME --load NAME' (GAME: inland or base); a name that is a path "
        "is a file outside this folder."
    )
    if any(row["hosted"] and not row["finished"] for row in rows):
        text += " A hosted game continues over the network with 'lehavre host --resume NAME'."
    return text


#: below this width each game takes two lines (its name, game and time; then its players and round)
WIDE = 110


def _where(row: dict[str, Any]) -> Text:
    where = row["round"] if row["status"] == "unfinished" else row["status"]
    return Text(where, style="dim" if row["finished"] or row["problem"] else "")


def games_table(rows: list[dict[str, Any]], width: int) -> Table:
    """The saved games as a table, one line each when the terminal is wide, else two lines each; a
    player's name is never split (names wrap only between players)."""
    table = Table(box=None, pad_edge=False, header_style="bold", show_header=width >= WIDE)
    longest = max((len(p) for row in rows for p in row["players"]), default=8)
    if width >= WIDE:
        for column in ("name", "game", "players", "round", "last played"):
            table.add_column(column, no_wrap=column != "players", min_width=longest if column == "players" else None)
        for row in rows:
            name = row["name"] + (" (hosted)" if row["hosted"] else "")
            table.add_row(name, row["game"], ", ".join(row["players"]), _where(row), row["last_played"])
        return table
    table.add_column(overflow="fold")
    for row in rows:
        head = Text(row["name"], style="bold")
        head.append(f"  {row['game']}{', hosted' if row['hosted'] else ''}  {row['last_played']}", style="")
        body = Text("  round " if row["status"] == "unfinished" else "  ")
        body.append_text(_where(row))
        body.append("  " + ", ".join(row["players"]))
        table.add_row(head)
        table.add_row(body)
    return table
