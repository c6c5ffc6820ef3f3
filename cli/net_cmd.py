"""``lehavre host``, ``lehavre join`` and ``lehavre watch``: a game played over the network.

The host runs the server (:mod:`core.net.server`), which alone holds the game; every person joins it
with a code, the host's own keyboard too (over the loopback), so every screen is the same play loop
(:class:`cli.net_client.RemoteLoop`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.text import Text

from cli import base_cmd, inland_cmd
from cli import play as loop
from cli.console import error, make_console
from cli.games import GAME_UI
from cli.net_client import CodeRefused, Link, LinkError, RemoteLoop, bot_seed
from cli.options import NoUndoOption, PlainOption, RulesOptions, buildings_option, seed_option
from cli.prompt import PromptCommand
from cli.root import app
from cli.screen import height_of
from cli.view_choices import view_choices
from core import records
from core.agents import Agent, AgentSpecError, make_agent, parse_agent_list
from core.games import game_spec
from core.net.plan import PERSON, SeatPlan, TablePlan, load_plan, new_code, plan_path, save_plan
from core.net.server import GameServer, HostedGame
from core.net.view import ViewError
from core.net.web import PageFiles
from core.protocol import GameError, GameSpec

#: the games that can be hosted: their own commands make their options
GAME_OPTIONS: dict[str, Callable[[RulesOptions], Any]] = {
    inland_cmd.RULESET_NAME: inland_cmd.game_options,
    base_cmd.RULESET_NAME: base_cmd.game_options,
}

#: the port a host listens on unless --port says otherwise
DEFAULT_PORT = 8765
#: the files of the page a browser plays from, served by the host at ``/NAME`` (``index.html`` at ``/``)
PAGE = ("index.html", "app.js", "boards.js", "style.css", "favicon.svg")
WEB_DIR = Path(__file__).parent / "web"


def parse_seats(text: str, game: GameSpec) -> list[SeatPlan]:
    """``me,remote,ai:normal``: who sits at each seat; BadParameter saying what is allowed."""
    words = [w.strip().lower() for w in text.split(",")]
    if not game.min_players <= len(words) <= game.max_players:
        takes = f"{game.min_players}-{game.max_players}" if game.max_players > game.min_players else game.max_players
        raise typer.BadParameter(
            f"{loop.plural(len(words), 'seat')} named: the {game.label} takes {takes} players, one seat each",
            param_hint="'--seats'",
        )
    if words.count("me") > 1:
        raise typer.BadParameter("'me' (the host's keyboard) can sit at one seat only", param_hint="'--seats'")
    seats = []
    for s, w in enumerate(words):
        if w == "me":
            seats.append(SeatPlan(name="Host", code=new_code(), host=True))
        elif w in ("remote", "web"):  # the same seat: a person who joins with a code, by link or terminal
            seats.append(SeatPlan(name=f"Player {s + 1}", code=new_code()))
        else:
            try:
                parse_agent_list(w, 1, game)
            except AgentSpecError as exc:
                raise typer.BadParameter(
                    f"seat {s + 1}: {exc}; a seat is 'me', 'remote', 'web' or an agent", param_hint="'--seats'"
                ) from None
            seats.append(SeatPlan(name=w if words.count(w) == 1 else f"{w} #{s + 1}", kind=w))
    if not any(p.is_person for p in seats):
        raise typer.BadParameter(
            "no seat for a person: use 'lehavre inland|base --watch' to watch agents", param_hint="'--seats'"
        )
    return seats


def game_options(game: GameSpec, players: int, short: bool, buildings: Path | None, advanced: tuple[bool, bool]) -> Any:
    """The options of the game to host, made as its own command makes them; a usage error says what is wrong."""
    if game.name == "inland" and (short or any(advanced)):
        raise typer.BadParameter("--short, --advanced-selling and --expensive-loans are base game options")
    if game.name != "inland" and buildings is not None:
        raise typer.BadParameter("--buildings is for the Inland Port only", param_hint="'--buildings'")
    make = GAME_OPTIONS.get(game.name)
    if make is None:
        raise typer.BadParameter(f"this lehavre cannot host '{game.name}'", param_hint="'inland|base'")
    return make(
        RulesOptions(
            players=players,
            short=short,
            buildings=buildings,
            advanced_selling=advanced[0],
            expensive_loans=advanced[1],
        )
    )


def new_table(
    game: GameSpec, seats: list[SeatPlan], options: Any, seed: int, bind: str, port: int, timeout: float, undo: bool
) -> HostedGame:
    plan = TablePlan(record="", seats=seats, watch_code=new_code(), bind=bind, port=port, timeout=timeout, undo=undo)
    table = HostedGame.new(game, options, seed, plan)
    table.choices_of = view_choices  # a browser's choices worded as the terminal's
    return table


def resumed_table(name: str) -> HostedGame:
    """The hosted game saved as ``name``, with its seats and codes; exit 2 with the reason if it cannot be."""
    try:
        path = records.find_save(name)
        record = records.load_record(path)
        plan = load_plan(path)
        table = HostedGame.from_record(game_spec(record.ruleset), record, path, plan)
        table.choices_of = view_choices  # a browser's choices worded as the terminal's
    except GameError as exc:
        error(str(exc))
        raise typer.Exit(2) from None
    if table.state.is_terminal():
        error(f"the game in {path} is over already")
        raise typer.Exit(2)
    return table


def announce(console: Console, table: HostedGame, address: str) -> None:
    """The address and one command per seat (each remote person gets theirs), and the watch code."""
    game = table.spec
    played = len(table.state.history)
    console.print(
        Text(
            f"Hosting {game.title} (seed {table.record.seed}"
            + (f", {loop.plural(played, 'action')} played" if played else "")
            + f"), saved as '{records.save_name(table.save_path)}'.",
            style="bold",
        )
    )
    console.print(codes_text(table, address), soft_wrap=True)
    console.print(
        Text(
            "Give each person their own line: the code is their seat. If the server stops, "
            f"'lehavre host --resume {records.save_name(table.save_path)}' restarts it with the same codes.",
            style="muted",
        )
    )


def codes_text(table: HostedGame, address: str) -> Text:
    """The address, one join command per remote seat, the computer's seats and the spectators' command."""
    lines = [Text(f"Address: {address}")]
    for s, p in enumerate(table.seats):
        if p.is_person and not p.host:
            assert p.code is not None
            lines.append(Text(f"  Seat {s + 1} ({p.name}): lehavre join {address} {p.code}"))
            lines.append(Text(f"    or in a browser: {page_link(address, p.code)}"))
        elif not p.is_person:
            lines.append(Text(f"  Seat {s + 1}: {p.kind}", style="muted"))
    lines.append(Text(f"  Spectators: lehavre watch {address} {table.plan.watch_code}"))
    lines.append(Text(f"    or in a browser: {page_link(address, table.plan.watch_code)}"))
    return Text("\n").join(lines)


def page_link(address: str, code: str) -> str:
    """The link that opens the game's page at a seat (or as a spectator): the code rides in the
    fragment, which a browser keeps to itself (it never reaches the server or its log)."""
    return f"http://{address}/#{code}"


def not_joined(table: HostedGame) -> bool:
    """A remote person's seat is not joined yet (the host's codes stay in view meanwhile)."""
    return any(p.is_person and not p.host and table.status(s) == "not joined yet" for s, p in enumerate(table.seats))


def codes_command(table: HostedGame, address: str) -> PromptCommand:
    """``codes`` at the host's prompt: the address and the join codes again; kept in view above the
    host's board while a remote seat is not joined yet."""
    return PromptCommand(
        "codes",
        "the address and the join codes again (to give to the other players)",
        lambda: Group(codes_text(table, address), Text("('codes' at the prompt shows these again)", style="muted")),
        lambda: not_joined(table),
    )


class HostLoop(RemoteLoop):
    """The play loop at the host's keyboard, with its ``codes`` command: the codes come last after the
    recap of a resumed game, and while a remote seat is not joined yet they stay in view: above the
    board (the fitted screen keeps them) and, while the host waits, shown again once the lines since
    would push them off the screen."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.codes = self.extra["codes"]
        #: lines shown since the codes last were
        self.since_codes = 0

    def start(self) -> None:
        super().start()
        if not self.codes.keep():  # else the screen or the waiting prompt keeps them in view
            self.show_codes(always=True)

    def show(self, seat: int, choices: list[Any]) -> None:
        super().show(seat, choices)
        self.since_codes = 0

    def wait_at_prompt(self, seat: int) -> None:
        self.show_codes()
        return super().wait_at_prompt(seat)

    def show_codes(self, always: bool = False) -> None:
        """After the lines about to be shown, the codes again if those lines would push them off."""
        if not self.pending or not (always or self.codes.keep()):
            return
        self.since_codes += height_of(self.console, Group(*self.pending))
        text = self.codes.text()
        if self.since_codes + height_of(self.console, text) + 2 > self.console.height:
            self.flush()
            self.say(text)
            self.since_codes = 0


def page_files() -> PageFiles:
    """The browser's page (:data:`PAGE`, in this package's ``web`` folder), read once; exit 2 if the
    install lacks it."""
    try:
        return PageFiles.read(WEB_DIR, list(PAGE))
    except OSError as exc:
        error(f"the browser's page is missing from this install ({exc.strerror or exc}): reinstall lehavre")
        raise typer.Exit(2) from None


def serve_in_thread(server: GameServer, bind: str, port: int) -> tuple[threading.Thread, int]:
    """Start ``server`` in a thread of its own; returns it and the port it listens on."""
    ready = threading.Event()
    failed: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(server.run(bind, port, ready=lambda _p: ready.set()))
        except BaseException as exc:
            failed.append(exc)
            ready.set()

    thread = threading.Thread(target=main, name="lehavre-server", daemon=True)
    thread.start()
    ready.wait()
    if failed:
        raise failed[0]
    return thread, server.port


def game_of(ruleset: str | None) -> GameSpec:
    """The game named on the command line (a usage error if none or unknown)."""
    if ruleset is None:
        raise typer.BadParameter(
            "name the game: 'lehavre host inland' or 'lehavre host base'", param_hint="'inland|base'"
        )
    try:
        return game_spec(ruleset.lower())
    except GameError as exc:
        raise typer.BadParameter(str(exc), param_hint="'inland|base'") from None


def seats_of(game: GameSpec, seats_text: str | None, players: int | None) -> list[SeatPlan]:
    """``--seats`` checked against ``--players`` (default: the host and remote people)."""
    if game.name == "inland" and players not in (None, 2):
        raise typer.BadParameter("the Inland Port is a game for 2", param_hint="'--players'")
    n = players or (2 if seats_text is None else len(seats_text.split(",")))
    seats = parse_seats(seats_text or ",".join(["me"] + ["remote"] * (n - 1)), game)
    if players is not None and players != len(seats):
        raise typer.BadParameter(
            f"--players is {players} but --seats names {len(seats)} seats", param_hint="'--players'"
        )
    return seats


GameArg = Annotated[str | None, typer.Argument(metavar="inland|base", help="The game to host: inland or base.")]


SeatsOption = Annotated[
    str | None,
    typer.Option(
        "--seats",
        metavar="SEAT,SEAT,...",
        help="Who sits at each seat, in order: me (this keyboard), remote or web (a person who joins with a code, "
        "from a browser by the link printed or with 'lehavre join'), "
        "or an agent (ai, ai:easy, ai:hard, greedy, random). Default: me and remote people for --players.",
    ),
]
PlayersOption = Annotated[
    int | None, typer.Option("--players", "-p", min=1, max=5, help="Number of players (base game; default 2).")
]
ShortOption = Annotated[bool, typer.Option("--short", help="The base game's shortened version.")]
BuildingsOption = Annotated[Path | None, buildings_option("Inland Port: play with this building data.")]
SellingOption = Annotated[bool, typer.Option("--advanced-selling", help="Base game advanced rule.")]
LoansOption = Annotated[bool, typer.Option("--expensive-loans", help="Base game advanced rule.")]
SeedOption = Annotated[int | None, seed_option("Seed of the game (drawn if not given).")]
ResumeOption = Annotated[
    str | None,
    typer.Option("--resume", metavar="NAME", help="Restart the hosted game saved as NAME (after a crash or a stop)."),
]
BindOption = Annotated[
    str,
    typer.Option(
        "--bind", metavar="ADDR", help="The address to listen on (default: this machine only; 0.0.0.0 for all)."
    ),
]
PortOption = Annotated[
    int | None,
    typer.Option("--port", min=0, max=65535, help=f"The port (default {DEFAULT_PORT}; 0: any free one)."),
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        min=1.0,
        metavar="SECONDS",
        help="How long a person may be away before the others choose to wait, let ai:normal play, or stop.",
    ),
]
HeadlessOption = Annotated[
    bool, typer.Option("--headless", help="Run only the server (nobody plays at this keyboard).")
]


@app.command("host", short_help="Host a game over the network.")
def host(
    ruleset: GameArg = None,
    seats_text: SeatsOption = None,
    players: PlayersOption = None,
    short: ShortOption = False,
    buildings: BuildingsOption = None,
    advanced_selling: SellingOption = False,
    expensive_loans: LoansOption = False,
    seed: SeedOption = None,
    resume: ResumeOption = None,
    bind: BindOption = "127.0.0.1",
    port: PortOption = None,
    timeout: TimeoutOption = 120.0,
    headless: HeadlessOption = False,
    no_undo: NoUndoOption = False,
    plain: PlainOption = False,
) -> None:
    """Host a game over the network: print one join command per remote seat, then play at this keyboard.

    'lehavre host inland' seats you and one remote person; 'lehavre host base --seats me,remote,ai'
    a three-player base game. The others join with 'lehavre join ADDRESS CODE', or open the link printed
    for their seat in a browser; 'lehavre host inland --seats web,ai' plays the AI from a browser.
    """
    console = make_console()
    if resume is not None:
        if ruleset is not None or seats_text is not None or seed is not None or players is not None:
            raise typer.BadParameter(
                "a resumed game keeps its game, seats and seed; give only --resume NAME", param_hint="'--resume'"
            )
        table = resumed_table(resume)
        port = table.plan.port if port is None else port
        table.plan.bind = bind if bind != "127.0.0.1" else table.plan.bind
        bind = table.plan.bind
    else:
        game = game_of(ruleset)
        seats = seats_of(game, seats_text, players)
        options = game_options(game, len(seats), short, buildings, (advanced_selling, expensive_loans))
        drawn = seed if seed is not None else loop.draw_seed()
        table = new_table(game, seats, options, drawn, bind, port or 0, timeout, not no_undo)
        port = DEFAULT_PORT if port is None else port
    run_host(console, table, bind, port, headless, plain)


def log_to_file(table: HostedGame) -> None:
    """The server's warnings go to a file beside the hosted game's seats, not onto the host's screen."""
    path = plan_path(table.save_path).with_suffix(".log")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger = logging.getLogger("lehavre.net")
    logger.addHandler(handler)
    logger.propagate = False


def run_host(console: Console, table: HostedGame, bind: str, port: int, headless: bool, plain: bool) -> None:
    log_to_file(table)
    server = GameServer(page=page_files())
    server.add(table)
    table.save()
    try:
        thread, port = serve_in_thread(server, bind, port)
    except OSError as exc:
        error(f"cannot listen on {bind}:{port}: {exc.strerror or exc} (choose another with --port)")
        raise typer.Exit(2) from None
    table.plan.port = port
    try:
        save_plan(table.plan)
    except GameError as exc:
        error(str(exc))
    records.remember_save(table.save_path)
    address = f"{'127.0.0.1' if bind in ('0.0.0.0', '::', '') else bind}:{port}"
    announce(console, table, address)
    me = next((p for p in table.seats if p.host), None)
    if not headless and me is not None:
        console.print(Text("'codes' at your prompt shows the address and these lines again.", style="muted"))
    stopped = "The host stopped the game: it is saved."
    try:
        if headless or me is None:
            if me is not None:
                assert me.code is not None
                console.print(Text(f"  Your seat ({me.name}): lehavre join {address} {me.code}"), soft_wrap=True)
                console.print(Text(f"    or in a browser: {page_link(address, me.code)}"), soft_wrap=True)
            console.print(Text("The server runs until the game ends; Ctrl-C saves and stops it.", style="muted"))
            while thread.is_alive():
                thread.join(0.5)
            return
        assert me.code is not None
        code = join_game(
            console,
            address,
            me.code,
            plain=plain,
            on_leave=lambda: server.stop_all(stopped),
            resume_name=lambda: records.save_name(table.save_path),
            commands=[codes_command(table, address)],
        )
    except KeyboardInterrupt:
        code = loop.EXIT_INTERRUPTED
    finally:
        server.stop_all(stopped)
        thread.join(5)
    if code:
        raise typer.Exit(code)


def agent_of(spec: str, seat: int, ruleset: str) -> tuple[Callable[[int], Agent], str]:
    """The agent of ``join --agent``, made afresh for each decision (from the number of actions played)
    with the one seed derivation, and its name; GameError if ``spec`` is no agent of ``ruleset``."""
    name = getattr(make_agent(spec, 0, ruleset), "name", spec)

    def make(ply: int) -> Agent:
        return make_agent(spec, bot_seed(seat, ply), ruleset)

    return make, name


def join_game(
    console: Console,
    address: str,
    code: str,
    *,
    watch: bool = False,
    agent: str | None = None,
    plain: bool = False,
    on_leave: Callable[[], None] | None = None,
    resume_name: Callable[[], str] | None = None,
    commands: Sequence[PromptCommand] = (),
) -> int:
    """Join (or watch) the game at ``address`` with ``code`` and play it to its end; the exit code.
    ``on_leave``, ``resume_name`` and ``commands``: the host's keyboard (stop the server; the name it
    saved the game as; its own prompt commands, 'codes')."""
    link = Link(address, code, watch=watch)
    try:
        welcome = link.open()
    except LinkError as exc:
        error(str(exc))
        return 2 if isinstance(exc, CodeRefused) else 1
    ui = GAME_UI.get(welcome.ruleset)  # drawn at this terminal's width, as it is now
    renderer = ui.renderer(console=console) if ui is not None else None
    if renderer is None:
        link.close()
        error(f"this lehavre cannot show the game '{welcome.ruleset}'")
        return 2
    me, name = None, ""
    if agent is not None and welcome.seat is not None:
        try:
            me, name = agent_of(agent, welcome.seat, welcome.ruleset)
        except GameError as exc:
            link.close()
            error(str(exc))
            return 2
    again = f"lehavre {'watch' if watch else 'join'} {address} {code}"
    try:
        play = (HostLoop if commands else RemoteLoop)(
            link,
            renderer,
            console,
            agent=me,
            agent_name=name,
            join_command=again,
            plain=plain,
            on_leave=on_leave,
            resume_name=resume_name,
            commands=commands,
        )
    except ViewError as exc:  # the host's data file does not check out here
        link.close()
        error(str(exc))
        return 2
    if welcome.seat is None:
        console.print(Text(f"Watching a game of {play.spec.title} at {address}.", style="bold"))
    else:
        where = "at this keyboard" if welcome.host else f"in the game of {play.spec.title} at {address}"
        console.print(Text(f"You play seat {welcome.seat + 1} {where}.", style="bold"))
        console.print(Text("Type a number or an action; 'help' for every command, 'quit' to leave.", style="muted"))
    return play.run()


def check_address(address: str) -> str:
    """``HOST:PORT`` (or a ws:// URL) with a port a host can listen on; anything else is a usage error
    saying what is allowed (as ``host --port`` says it)."""
    found = re.fullmatch(r"(wss?://)?(\[[0-9a-fA-F:.]+\]|[\w.-]+):(\d+)/?", address.strip())
    if found is None:
        raise typer.BadParameter(
            f"'{address}' is not HOST:PORT; give the address 'lehavre host' printed, e.g. 127.0.0.1:8765"
        )
    port = int(found.group(3))
    if not 1 <= port <= 65535:
        raise typer.BadParameter(
            f"the port {port} is out of range: give a number from 1 to 65535 (the address 'lehavre host' printed, "
            "e.g. 127.0.0.1:8765)"
        )
    return address


AddressArg = Annotated[
    str,
    typer.Argument(metavar="ADDRESS", callback=check_address, help="The host's address, HOST:PORT, as it printed."),
]
CodeArg = Annotated[str, typer.Argument(metavar="CODE", help="Your code, as the host printed it.")]


@app.command("join", short_help="Join a game hosted with 'lehavre host'.")
def join(
    address: AddressArg,
    code: CodeArg,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            metavar="AGENT",
            help="Let an agent play your seat (random, greedy, ai, ...): for bots and tests.",
        ),
    ] = None,
    plain: PlainOption = False,
) -> None:
    """Join a game hosted with 'lehavre host': the same screen, prompt and commands as a local game."""
    if agent is not None:
        try:
            make_agent(agent, 0, None)
        except AgentSpecError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--agent'") from None
    code_ = join_game(make_console(), address, code, agent=agent, plain=plain)
    if code_:
        raise typer.Exit(code_)


@app.command("watch", short_help="Watch a game hosted with 'lehavre host'.")
def watch(address: AddressArg, code: CodeArg) -> None:
    """Watch a game hosted with 'lehavre host' (with the spectators' code; a seat's code watches too)."""
    code_ = join_game(make_console(), address, code, watch=True, plain=True)
    if code_:
        raise typer.Exit(code_)


__all__ = ["PERSON", "host", "join", "watch"]
