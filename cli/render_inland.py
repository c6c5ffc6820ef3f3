"""Rich renderables for Le Havre: The Inland Port, and its :class:`InlandRenderer`.

What a player sees (the Inland Port rulebook, "Game setup" and "Main phase"): each player's
wheel (sectors 0, 2, 3, 4, 4+1, ! and the buildings in them; lock buildings
beside the board), the warehouse grid (rows worth 0, 3, 6, ... and columns
worth +0, +1, ...: where every counter stands and the amount it means, with
one legend line for how moves pay), francs, the buildings on offer with cost and value, the buildings of
the coming rounds by letter, the round letter, whose turn it is and how many
actions are left in the round, and after every action what it did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.console import SEAT_STYLES
from cli.renderer import Renderer, forms_table
from cli.session import Player
from core.protocol import GameError
from inland_port.buildings import GOODS, LETTERS, Catalog, InlandBuilding
from inland_port.state import ACTIONS_PER_ROUND, SECTOR_LABELS, InlandState, cell_changes, payment_summary
from inland_port.view_model import GAME_BOARDS, SOLD_AT_ONCE, actions_left, coming, offer, sectors
from inland_port.warehouse import COLUMN_VALUE, ROW_VALUE

#: one letter per good on the warehouse grid
GOOD_LETTER = {"fish": "F", "grain": "G", "wood": "W", "clay": "C"}
SEAT_STYLE = SEAT_STYLES
#: colours of the goods (blue, yellow, brown, red as on the warehouse)
GOOD_STYLE = {g: f"good.{g}" for g in ("fish", "grain", "wood", "clay")}
BOARDS = GAME_BOARDS
SELL_HEAD = "sell a building"


def _goods_text(goods: Sequence[int]) -> Text:
    t = Text()
    for k, (g, n) in enumerate(zip(GOODS, goods, strict=False)):
        if k:
            t.append("  ")
        t.append(GOOD_LETTER[g], style=GOOD_STYLE[g])
        t.append(f" {g} {n}")
    return t


#: how a counter pays (the rulebook, "There are three ways to pay costs")
PAY_LEGEND = "pay: left 1, down 3, down-left 4; no change"


def warehouse_grid(state: InlandState, p: int) -> Table:
    """The grid, top row first: each cell shows the counters standing on it.

    Row labels are the rows' values (0, 3, 6, ...), column headers the
    columns' (+0, +1, ...): a counter's amount is its row's value plus its
    column's.  The player's panel adds the legend of how moves pay.
    """
    wh = state.catalog.warehouse
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0), header_style="dim")
    t.add_column("", justify="right", style="dim", no_wrap=True, min_width=2)
    for c in range(wh.columns):
        t.add_column(f"+{COLUMN_VALUE * c}", justify="center", width=3, no_wrap=True)
    cells = state.cells[p]
    for r in range(wh.rows - 1, -1, -1):
        row: list[Text] = []
        for c in range(wh.columns):
            here = wh.cell(r, c)
            cell = Text()
            for g, at in zip(GOODS, cells, strict=False):
                if at == here:
                    cell.append(GOOD_LETTER[g], style=GOOD_STYLE[g])
            if not cell.plain:
                cell = Text(".", style="dim")
            row.append(cell)
        t.add_row(str(ROW_VALUE * r), *row)
    return t


def wheel_table(state: InlandState, p: int) -> Table:
    """Sectors 0, 2, 3, 4, 4+1, ! with the buildings in them, and the lock buildings."""
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), header_style="dim", expand=True)
    t.add_column("", justify="right", style="bold", no_wrap=True, min_width=4)
    t.add_column("wheel", ratio=1)
    for sector in sectors(state, p):
        if sector.value is not None:
            cell = Text(", ".join(sector.buildings)) if sector.buildings else Text("-", style="dim")
        else:
            cell = Text(SOLD_AT_ONCE, style="dim")
        t.add_row(sector.label, cell)
    beside = [state.catalog.buildings[i].name for i in state.beside_board(p)]
    t.add_row(Text("lock", style="dim"), Text(", ".join(beside)) if beside else Text("-", style="dim"))
    return t


def player_panel(state: InlandState, p: int, players: Sequence[Player], viewer: int | None) -> Panel:
    """One player's board: wheel, warehouse, francs and wealth."""
    body = Table.grid(padding=(0, 1), expand=True)
    body.add_column(ratio=1)
    body.add_column(no_wrap=True)
    body.add_row(wheel_table(state, p), warehouse_grid(state, p))
    money = Text.assemble((f"{state.francs[p]} francs", "money"), ("   wealth now ", "dim"), str(state.wealth()[p]))
    to_move = not state.is_terminal() and state.current_player() == p
    title = Text()
    if to_move:
        title.append("> ", style="bold")
    title.append(players[p].label, style=SEAT_STYLE[p])
    title.append(f"  seat {p + 1}, {BOARDS[p]}", style="dim")
    legend = Text(PAY_LEGEND, style="dim")
    return Panel(
        Group(body, _goods_text(state.goods[p]), legend, money),
        title=title,
        title_align="left",
        border_style="bold" if to_move else "dim",
        padding=(0, 1),
    )


def wheel_text(state: InlandState, p: int) -> Text:
    """The wheel on a few lines: each sector with its buildings, then the lock buildings."""
    t = Text()
    t.append("wheel ", style="dim")
    for k, sector in enumerate(sectors(state, p)):
        if k:
            t.append("  ")
        t.append(f"{sector.label}:", style="bold")
        names = sector.buildings
        if sector.value is not None:
            t.append(" " + ", ".join(names) if names else " -", style="" if names else "dim")
        else:
            t.append(" " + SOLD_AT_ONCE, style="dim")
    beside = [state.catalog.buildings[i].name for i in state.beside_board(p)]
    if beside:
        t.append("  lock: ", style="dim")
        t.append(", ".join(beside))
    return t


def own_side(state: InlandState, p: int, players: Sequence[Player]) -> RenderableType:
    """One player's side in few lines (the screen at 80x24): the warehouse grid, and beside it the
    wheel, the goods, francs and wealth, and the legend of how moves pay."""
    side = Table.grid(padding=(0, 2))
    side.add_column(no_wrap=True)
    side.add_column(ratio=1)
    money = Text.assemble(
        (f"{state.francs[p]} franc{'s' if state.francs[p] != 1 else ''}", "money"),
        ("   wealth now ", "dim"),
        str(state.wealth()[p]),
    )
    who = Text(players[p].label, style=SEAT_STYLE[p])
    who.append(f"  seat {p + 1}, {BOARDS[p]}", style="dim")
    info = Group(who, money, _goods_text(state.goods[p]), wheel_text(state, p), Text(PAY_LEGEND, style="dim"))
    side.add_row(warehouse_grid(state, p), info)
    return side


def own_line(state: InlandState, p: int, players: Sequence[Player]) -> RenderableType:
    """The mover's side in two lines, for a screen too short for the grid: every counter's amount
    and cell, and the francs; the buildings on the wheel by sector (and beside it)."""
    wh = state.catalog.warehouse
    t = Text(f"{players[p].label}: ", style=SEAT_STYLE[p])
    for k, (g, c) in enumerate(zip(GOODS, state.cells[p], strict=True)):
        if k:
            t.append(", ")
        t.append(GOOD_LETTER[g], style=GOOD_STYLE[g])
        t.append(f" {g} {wh.amount[c]} ({wh.text(c)})")
    t.append(f"; {state.francs[p]} franc{'s' if state.francs[p] != 1 else ''}", style="money")
    return Group(t, buildings_line(state, p))


def buildings_line(state: InlandState, p: int) -> Text:
    """A player's buildings in one line: the wheel's sectors that hold any, then the lock buildings."""
    t = Text("wheel ", style="dim")
    wheel = state.wheel(p)
    parts = [(SECTOR_LABELS[s], wheel[s]) for s in range(len(wheel)) if wheel[s]]
    for k, (label, held) in enumerate(parts):
        if k:
            t.append("  ")
        t.append(f"{label}: ", style="bold")
        t.append(", ".join(state.catalog.buildings[i].name for i in held))
    beside = [state.catalog.buildings[i].name for i in state.beside_board(p)]
    if beside:
        t.append("  lock: ", style="dim")
        t.append(", ".join(beside))
    if not parts and not beside:
        t.append("no buildings", style="dim")
    return t


def _cost_text(b: InlandBuilding) -> str:
    return str(b.cost)


def offer_table(state: InlandState, width: int = 100) -> RenderableType:
    """Buildings on offer (cost, value); the ones the player to move can build are bold."""
    entries: list[tuple[Text, str, str]] = []
    for b in offer(state):
        name = Text(b.name + (" (lock)" if b.locked else ""), style="bold" if b.buildable else "")
        entries.append((name, b.cost, str(b.value)))
    if not entries:
        return Text("Nothing on offer.", style="dim")
    # two buildings per row only where both fit whole
    longest = max(e[0].cell_len + len(e[1]) + len(e[2]) for e in entries) + 4
    per_row = 2 if 2 * longest + 6 <= width - 4 else 1
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), header_style="dim")
    for k in range(per_row):
        t.add_column("building", overflow="fold")
        t.add_column("cost", overflow="fold")
        t.add_column("value", justify="right", no_wrap=True)
        if k < per_row - 1:
            t.add_column("", width=1)
    rows = (len(entries) + per_row - 1) // per_row
    for r in range(rows):
        cells: list[Any] = []
        for k in range(per_row):
            j = k * rows + r
            if j < len(entries):
                cells.extend(entries[j])
            else:
                cells.extend(["", "", ""])
            if k < per_row - 1:
                cells.append("")
        t.add_row(*cells)
    return t


def coming_text(state: InlandState) -> Text:
    """The coming rounds' buildings by letter."""
    rounds = coming(state)
    if not rounds:
        return Text("No more buildings to come.", style="dim")
    t = Text()
    for k, r in enumerate(rounds):
        if k:
            t.append("  |  ", style="dim")
        t.append(r.round, style="bold")
        t.append(" " + ", ".join(r.buildings))
    return Text("Coming: ", style="dim") + t


def round_line(state: InlandState, players: Sequence[Player]) -> Text:
    if state.is_terminal():
        return Text("The game is over (rounds A-L played).", style="bold")
    r = state.round
    sp = state.starting_player
    t = Text()
    t.append(f"Round {state.round_letter}", style="bold")
    t.append(f" ({r + 1} of 12)")
    t.append(f"  {actions_left(state)} of {ACTIONS_PER_ROUND[r]} actions left in the round")
    t.append("  starting player: ")
    t.append(players[sp].label, style=SEAT_STYLE[sp])
    return t


def board(state: InlandState, players: Sequence[Player], viewer: int | None, width: int = 100) -> RenderableType:
    panels = [player_panel(state, p, players, viewer) for p in (0, 1)]
    if width >= 96:
        both = Table.grid(padding=(0, 0), expand=False)
        both.add_column(width=width // 2)
        both.add_column(width=width // 2)
        both.add_row(*panels)
        players_view: RenderableType = both
    else:
        players_view = Group(*panels)
    offer = Panel(
        Group(offer_table(state, width), coming_text(state)),
        title=Text(f"On offer in round {state.round_letter}" if not state.is_terminal() else "Left unbuilt"),
        title_align="left",
        border_style="dim",
        padding=(0, 1),
    )
    return Group(round_line(state, players), players_view, offer)


def _main_round(n: int) -> str:
    """The round letter of main action number ``n`` (1-based)."""
    total = 0
    for r, k in enumerate(ACTIONS_PER_ROUND):
        total += k
        if n <= total:
            return LETTERS[r]
    return LETTERS[-1]


def build_cost_text(state: InlandState, action: Any) -> str:
    """What building costs with this payment: every counter's move and the overpayment."""
    p = state.current_player()
    b = state.building(action.building)
    return payment_summary(b, state.cells[p], action.choice, state.catalog.warehouse)


def paid_goods(state: InlandState, action: Any) -> dict[str, int]:
    """How many of each good a build action's counters pay (their amount before less after)."""
    p = state.current_player()
    wh = state.catalog.warehouse
    before = dict(zip(GOODS, state.cells[p], strict=True))
    return {g: wh.amount[before[g]] - wh.amount[dest] for g, dest in action.choice}


def use_note(state: InlandState, actions: Sequence[Any], brief: bool = False) -> str:
    """A use's sector, what it costs when the building is the opponent's, and what it does (or how
    many ways there are); ``brief``: in fewer words ('sector 4, 1 franc: ...')."""
    a = actions[0]
    i = state.catalog.index[a.building]
    note = f"sector {SECTOR_LABELS[state.sector[i]]}"
    if state.owner[i] != state.current_player():
        note += ", 1 franc" if brief else ", opponent's: 1 franc"
    if len(actions) > 1:
        return note + f"; {len(actions)} ways"
    done = outcome_text(state, a)
    return note + ": " + (done.replace(f"; {a.building} goes back", "; back") if brief else done)


def outcome_text(state: InlandState, action: Any) -> str:
    """What an action itself would change for the player who takes it (goods, francs).

    Taken from the action's own event, so a round ending right after it (and
    the buildings it forces to be sold) does not blur the preview.
    """
    p = state.current_player()
    child = state.clone()
    child.apply_action(action)
    for seat, text in child.events:
        if seat == p and text.startswith("uses ") and ": " in text:
            done = text.rsplit(": ", 1)[1]
            # a use that moves no counter still moves the building (Main phase, "Use a building")
            return f"no goods change; {action.building} goes back to sector 0" if done == "no change" else done
    parts = cell_changes(state.cells[p], child.cells[p], state.catalog.warehouse)
    df = child.francs[p] - state.francs[p]
    if df:
        parts.append(f"{df:+d} franc{'s' if abs(df) != 1 else ''}")
    return ", ".join(parts) or "no change"


def reference(catalog: Catalog, name: str | None = None) -> RenderableType:
    """The building reference from the data in use: all buildings, or one in detail."""
    if name:
        b = catalog.find(name)
        if b is None:
            names = ", ".join(x.name for x in catalog.buildings)
            raise GameError(f"There is no building called '{name}'. Buildings: {names}.")
        return building_card(b)
    t = Table(
        title=f"Le Havre: The Inland Port - buildings ({catalog.source})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_lines=False,
        padding=(0, 1),
    )
    longest = max(len(b.name) for b in catalog.buildings)
    t.add_column("", no_wrap=True)
    t.add_column("building", no_wrap=True, style="bold", min_width=longest)
    t.add_column("cost", no_wrap=True, min_width=max(len(_cost_text(b)) for b in catalog.buildings))
    t.add_column("value", justify="right", no_wrap=True)
    t.add_column("function  (data: where the numbers come from)", ratio=1, min_width=20)
    for b in catalog.buildings:
        cell = Text(b.function or ("(lock: no function)" if b.locked else ""))
        cell.append(f"  (data: {_provenance_short(b)})", style="dim")
        t.add_row(b.letter, b.name, _cost_text(b), str(b.value), cell)
    note = Text(
        "data: rulebook = the rulebook's building index; rec = reconstructed (the printed costs and values "
        "are not known to us); ruling = our reading of an ambiguous rule. Correct them with --buildings PATH.",
        style="dim",
    )
    return Group(grid_card(catalog), t, note)


def grid_card(catalog: Catalog) -> RenderableType:
    """The warehouse grid in use: its size, the start cells and where each datum comes from."""
    g = catalog.grid
    wh = catalog.warehouse
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    cols = ", ".join(f"+{COLUMN_VALUE * c}" for c in range(wh.columns))
    rows = ", ".join(str(ROW_VALUE * r) for r in range(wh.rows))
    t.add_row("columns", f"{wh.columns} ({cols})  [{g.source_of('columns')}]")
    t.add_row("rows", f"{wh.rows} ({rows})  [{g.source_of('rows')}]")
    start = ", ".join(
        f"{name} {wh.text(c)} = {wh.amount[c]}" for name, c in zip(GOODS, catalog.start_cells, strict=False)
    )
    t.add_row("start cells", f"{start}  [{g.source_of('start')}]")
    t.add_row("amount", "row value + column value (the rulebook: 'This player has 7 Wood (6+1)')  [rulebook]")
    t.add_row(
        "moves",
        "a counter stops at the last space of a row or column; a step off the grid is not made "
        "and ends the move (a diagonal step: off in either direction)",
    )
    t.add_row(
        "paying",
        f"{PAY_LEGEND}: the counter moves to a cell holding at least the cost less; every cell "
        "with the least overpayment is a way to pay",
    )
    return Panel(t, title=Text("Warehouse grid", style="bold"), title_align="left", expand=False)


_SHORT = {"reconstructed": "rec", "ruling": "ruling", "reference": "ref", "rulebook": "rulebook"}


def _provenance_short(b: InlandBuilding) -> str:
    by_kind: dict[str, list[str]] = {}
    for f, src in b.provenance.items():
        if src != "rulebook":
            by_kind.setdefault(_SHORT.get(src, src), []).append(f)
    if not by_kind:
        return "rulebook"
    return "; ".join(f"{', '.join(fields)}: {kind}" for kind, fields in sorted(by_kind.items()))


def building_card(b: InlandBuilding) -> RenderableType:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    t.add_row("letter", f"{b.letter} (enters the game in round {b.letter})")
    t.add_row("cost", _cost_text(b) + ("  (food: any mix of fish and grain)" if b.cost.food else ""))
    t.add_row("value", str(b.value))
    if b.scoring is not None:
        extra = []
        if b.scoring.per_good:
            extra.append(f"+1 per {b.scoring.per_good} in your warehouse at the end")
        if b.scoring.per_anchor:
            extra.append(f"+{b.scoring.per_anchor} per factory you own at the end")
        t.add_row("scoring", "; ".join(extra))
    t.add_row("function", b.function or "-")
    if b.locked:
        t.add_row("", "Lock: no function; lies beside the board, never turns on the wheel.")
    t.add_row(
        "provenance", ", ".join(f"{f}: {b.source_of(f)}" for f in ("cost", "value", "letter", "params", "function"))
    )
    return Panel(t, title=Text(b.name, style="bold"), title_align="left", expand=False)


ACTION_FORMS = (
    "Action text forms (any case; whole leading words that fit one action are enough, e.g. 'build hardware'):",
    [
        (
            "build Farm: wood to 3+1",
            "where each paying counter goes (row value + column value); only the cells that overpay least are offered",
        ),
        ("build Grocery Store: fish to 0+2", "a food cost: fish and/or grain"),
        ("use Wood Company", "a building without choices"),
        ("use Hardware Store: clay", "one good of a choice"),
        ("use Marketplace: fish, wood x2", "moves spread over counters"),
        ("use Masons' Guild: fish, grain", "different counters"),
        ("use Restaurant: fish to 0+3; grain to 0+0", "one payment per exchange ('x0': none)"),
        ("use Weekly Market: fish x2", "how many (use Fish Market: x3)"),
        ("sell Farm", "half its value in francs, before or after your action"),
        ("end", "after your action: your turn is over"),
        ("pass", "only when you can neither build nor use anything"),
    ],
    "Using your opponent's building costs 1 franc, paid to them.",
)


class InlandRenderer(Renderer):
    ruleset = "inland"
    title = "Le Havre: The Inland Port"

    draw_board = staticmethod(board)

    def seats_line(self, state: Any, players: Sequence[Player], people: Sequence[int]) -> str:
        if len(people) == len(players):
            return "Two players at one keyboard."
        me = people[0]
        return (
            f"You are seat {me + 1} ({'A-F board, you start round A' if me == 0 else 'G-L board'}); "
            f"{players[1 - me].label} plays seat {2 - me}."
        )

    def watch_lines(self, state: Any, players: Sequence[Player], seed: int) -> list[RenderableType]:
        who = f"{players[0].label} (seat 1, starts) against {players[1].label}"
        return [Text(f"{self.game_line(state)}: {who}, seed {seed}", style="bold")]

    def screens(self, state: InlandState, players: Sequence[Player], seat: int) -> list[RenderableType]:
        """The whole board; both players' sides (side by side from about 100 columns); the
        mover's own side with the round; the mover's own side alone."""
        width = self.width
        panels = [player_panel(state, p, players, seat) for p in (0, 1)]
        if width >= 96:
            both = Table.grid(padding=(0, 0))
            both.add_column(width=width // 2)
            both.add_column(width=width - width // 2)
            both.add_row(*panels)
            sides: RenderableType = both
        else:
            sides = Group(*panels)
        mine = own_side(state, seat, players)
        return [
            board(state, players, seat, width),
            Group(round_line(state, players), sides),
            mine,
            own_line(state, seat, players),
        ]

    def turn_line(self, state: InlandState, players: Sequence[Player]) -> RenderableType:
        p = state.current_player()
        t = Text()
        t.append("> ", style="bold")
        t.append(players[p].label, style=SEAT_STYLE[p])
        t.append(" to play", style="bold")
        if not state.is_terminal():
            r = state.round
            t.append(f"  round {state.round_letter} ({r + 1} of 12), ")
            t.append(f"{actions_left(state)} of {ACTIONS_PER_ROUND[r]} actions left")
        if state.acted:
            t.append(" (action taken: sell buildings or end your turn)", style="dim")
        elif state.history and state.history[-1].startswith("sell ") and state.events and state.events[-1][0] == p:
            t.append(" (after selling, still your turn)", style="dim")
        return t

    def event_lines(
        self,
        state: InlandState,
        players: Sequence[Player],
        actor: int,
        action: Any,
        before: InlandState | None = None,
    ) -> list[RenderableType]:
        out: list[RenderableType] = []
        verb = getattr(action, "verb", "")
        main = verb not in ("sell", "end")
        n = state.main_action_count
        # a sale or the end of a turn belongs to the turn, not to a round that may end with it
        tag = f"{_main_round(n)}{n:>3}" if main else "    "
        events = state.events or ([] if verb == "end" else [(actor, str(action))])
        for seat, text in events:
            line = Text()
            if seat >= 0:
                # a forced sale belongs to the end of the round, not to the action
                line.append(f"{tag}  " if not text.startswith("must sell") else "   !  ", style="dim")
                line.append(players[seat].label, style=SEAT_STYLE[seat])
                line.append(f": {text}")
            else:
                line.append(f"  -- {text[0].upper()}{text[1:]} --", style="bold")
            out.append(line)
        return out

    def group_of(self, action: Any) -> tuple[str, str]:
        """Selling is one first-step entry ("sell a building"), the building the second step."""
        if getattr(action, "verb", "") == "sell":
            return SELL_HEAD, action.building
        return super().group_of(action)

    def describe_group(self, state: InlandState, head: str, actions: Sequence[Any]) -> str:
        a = actions[0]
        verb = a.verb
        if verb == "sell" and len(actions) > 1:
            return f"one of your {len(actions)} buildings, for half its value"
        if verb == "pass":
            return "no build or use is possible"
        if verb == "end":
            return "end your turn (you may sell buildings first)"
        i = state.catalog.index[a.building]
        b = state.catalog.buildings[i]
        if verb == "build":
            note = f"{_cost_text(b)}, value {b.value}"
            if b.locked:
                note += ", lock"
            if len(actions) > 1:
                note += f"; {len(actions)} ways to pay"
            elif a.choice:
                note += f": {build_cost_text(state, a)}"
            return note
        if verb == "sell":
            return f"+{b.value // 2} franc{'s' if b.value // 2 != 1 else ''}"
        return use_note(state, actions)

    def brief_group(self, state: InlandState, head: str, actions: Sequence[Any]) -> tuple[str, str]:
        """A building paid one way only: its name, value and what paying does (the cells the
        counters go to are in its full text); a use: its sector, the franc it costs when it is the
        opponent's, and what it does (the goods it is done with are in its full text)."""
        a = actions[0]
        if len(actions) == 1 and a.verb == "build" and a.choice:
            b = state.building(a.building)
            return f"build {b.name}", f"value {b.value}{', lock' if b.locked else ''}: {build_cost_text(state, a)}"
        if a.verb == "use":
            return head, use_note(state, actions, brief=True)
        return super().brief_group(state, head, actions)

    def payment(self, state: InlandState, action: Any) -> tuple[str, dict[str, int]] | None:
        """A building's way to pay: how many of each good its counters pay (the francs are the cost's)."""
        if action.verb != "build" or not action.choice:
            return None
        return action.building, paid_goods(state, action)

    def describe_choice(self, state: InlandState, action: Any) -> str:
        if action.verb == "sell":
            b = state.building(action.building)
            return f"+{b.value // 2} franc{'s' if b.value // 2 != 1 else ''} (value {b.value})"
        if action.verb == "build":
            return build_cost_text(state, action)
        if action.verb == "end":
            return "your turn is over"
        return outcome_text(state, action)

    def reference(self, state: InlandState, name: str | None) -> RenderableType:
        return reference(state.catalog, name)

    def names(self, state: InlandState) -> list[str]:
        return [b.name for b in state.catalog.buildings]

    def action_forms(self) -> RenderableType:
        return forms_table(*ACTION_FORMS)
