"""Rich renderables for Le Havre (the base game), and its :class:`BaseRenderer`.

What a player sees at the table (the rulebook, "Setup", "Course of play", "End
of a round"): the round card (food, harvest, what the town builds, the ship
that comes into play), the seven supply tiles with the players' ships on them
(tiles still face down show as ``?``), the seven Offer spaces, the three
Building Proposals piles (fanned: the top card and the bottom line of every
card under it), the town's buildings and the face-up special buildings with
the person discs standing on them, the ship piles, the face-down special
pile (only how many cards it holds, plus what the viewer saw there at the
Marketplace), and each player's francs, loans, goods, buildings and ships
with the food those ships provide per round.

Hidden information (the face-down supply tiles, the order and names of the
face-down special buildings) is never drawn, except the top two special
buildings to the player who looks at them at the Marketplace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from base_game import cards as K
from base_game.actions import UNIT, as_action
from base_game.cards import GOOD_LABEL, NG, OFFER_LABEL
from base_game.state import TOWN, BaseState
from base_game.view_model import (
    building_order,
    decision_text,
    enterable,
    feeding_started,
    food_owed,
    in_list,
    plural,
    round_started_by,
    specials_seen,
)
from cli.console import SEAT_STYLES
from cli.renderer import Renderer, final_table, forms_table, only_human, turns
from cli.session import Player
from core.protocol import GameError, normalize_text

#: one colour per seat (up to 5 players)
SEAT_STYLE = SEAT_STYLES
TYPE_NAME = {
    "C": "Craftsman's building",
    "E": "Economic building",
    "I": "Industrial building",
    "P": "Public building",
    "N": "Non-building",
    "S": "Ship",
}
TOWN_BUILDS = {
    "standard": "a standard building (lowest pile top)",
    "special": "a special building (pile top)",
    "none": "nothing",
}
SHIP_LABEL = {"wooden": "wooden", "iron": "iron", "steel": "steel", "luxury_liner": "luxury liner"}
ENTER_HEAD = "enter a building"
BUY_HEAD = "buy a building or ship"
SELL_HEAD = "sell a building or ship"
#: the ways to pay beyond the few least wasteful (the ones the AI searches), in one entry
MORE_PAYS_HEAD = "pay another way"
#: decisions that belong to a player's own turn (the rest are building choices, payments, debts)
TURN_FRAMES = ("main", "after", "final", "after_final")


def seat_tag(p: int) -> Text:
    return Text(f"P{p + 1}", style=SEAT_STYLE[p % len(SEAT_STYLE)])


def _ship_phrase(typ: str) -> str:
    if typ == "luxury_liner":
        return "a luxury liner"
    return f"{'an' if typ[0] in 'aeiou' else 'a'} {typ} ship"


def fee_text(b: int, short: bool = False) -> str:
    """The entry fee of building ``b`` (food, francs, or either)."""
    food, fr = K.ENTRY_FOOD[b], K.ENTRY_FRANCS[b]
    if K.EFFECT[b] == "none":
        return "no action" if not short else "-"
    if food and fr:
        return f"{food} food or {plural(fr, 'franc')}" if not short else f"{food} food/{fr} fr"
    if food:
        return f"{food} food"
    if fr:
        return plural(fr, "franc") if not short else f"{fr} fr"
    return "free"


def materials_text(b: int) -> str:
    m = K.MATERIALS[b]
    return ", ".join(f"{n} {GOOD_LABEL[g]}" for g, n in m) if m else "-"


#: one letter per building material, for the fanned proposal piles
MATERIAL_LETTER = {K.WOOD: "W", K.CLAY: "C", K.BRICK: "B", K.IRON: "I", K.STEEL: "S"}


def materials_short(b: int) -> str:
    m = K.MATERIALS[b]
    return " ".join(f"{n}{MATERIAL_LETTER[g]}" for g, n in m) if m else "-"


def goods_text(goods: Sequence[int]) -> Text:
    t = Text()
    first = True
    for g in range(NG):
        n = goods[g]
        if not n:
            continue
        if not first:
            t.append(", ")
        first = False
        t.append(f"{n} ", style="bold")
        t.append(GOOD_LABEL[g], style="bold" if K.IS_UPGRADED[g] else "")
    if first:
        t.append("no goods", style="dim")
    return t


def _occupants(state: BaseState, b: int) -> list[int]:
    return [q for q, d in enumerate(state.discs) if d == b]


def _with_discs(state: BaseState, b: int, name_style: str = "") -> Text:
    t = Text(in_list(b), style=name_style)
    for q in _occupants(state, b):
        t.append(" ")
        t.append(f"[P{q + 1}]", style=SEAT_STYLE[q % len(SEAT_STYLE)])
    return t


def round_line(state: BaseState) -> Text:
    t = Text()
    version = "short game" if state.short else "full game"
    if state.is_terminal():
        t.append("The game is over", style="bold")
        t.append(f" ({version}, {len(state.rounds)} rounds played).")
        return t
    if state.final_stage:
        t.append("Final stage", style="bold")
        t.append(
            ": after the last round every player has one more action (no buying; occupied buildings may be entered)."
        )
        return t
    card = state.current_round_card
    t.append(f"Round {state.round_number} of {len(state.rounds)}", style="bold")
    t.append(f" ({version}, {plural(state.num_players, 'player')}), turn {state.turn_in_round} of 7, started by ")
    t.append_text(seat_tag(round_started_by(state)))
    t.append(".  End of round: ")
    t.append("harvest, " if card.harvest else "no harvest, ", style="bold" if card.harvest else "")
    t.append(f"feed {card.food} food", style="bold")
    t.append(f", the town builds {TOWN_BUILDS[card.town_builds]}, then ")
    t.append(f"{_ship_phrase(card.ship_type)} ({card.ship_value})")
    t.append(" joins the ship piles.")
    return t


def supply_table(state: BaseState, width: int = 100) -> Table:
    """The seven supply tiles (face down: ``?``) with the players' ships on them."""
    t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1), header_style="dim", expand=True)
    revealed = state.revealed_supply_tiles
    current = state.ship_markers[state.turn_player] if state.started and not state.final_stage else -1
    for i in range(7):
        t.add_column(
            f"tile {i + 1}", justify="center", no_wrap=True, ratio=1, header_style="bold" if i == current else "dim"
        )
    tiles: list[Text] = []
    for i, r in enumerate(revealed):
        if r is None:
            tiles.append(Text("?", style="dim"))
            continue
        first, second, interest = r
        sep = "+" if width >= 96 else "\n+"
        cell = Text(f"{first}{sep}{second}", style="bold" if i == current else "")
        if interest:
            cell.append("!", style="interest")
        tiles.append(cell)
    ships: list[Text] = []
    for i in range(7):
        cell = Text()
        for q, m in enumerate(state.ship_markers):
            if m == i:
                if cell.plain:
                    cell.append(" ")
                cell.append_text(seat_tag(q))
        ships.append(cell)
    t.add_row(*tiles)
    t.add_row(*ships)
    return t


def offer_text(state: BaseState) -> Text:
    t = Text("Offer: ", style="bold")
    for i, label in enumerate(OFFER_LABEL):
        n = state.offer_spaces[i]
        if i:
            t.append("   ")
        t.append(f"{label} ")
        t.append(str(n), style="money" if n else "dim")
    return t


def harbour_panel(state: BaseState, width: int = 100) -> Panel:
    title = Text("Supply tiles", style="bold")
    title.append(" (? face down, ! interest), the players' ships under them, and the offer", style="dim")
    return Panel(
        Group(supply_table(state, width), offer_text(state)),
        title=title,
        title_align="left",
        border_style="dim",
        padding=(0, 1),
    )


def town_table(state: BaseState, enterable: set[int], width: int) -> RenderableType:
    """The town's buildings (standard, then face-up special) with entry fee, price and the persons there."""
    town = [b for b in range(K.NB) if state.owner[b] == TOWN]
    town.sort(key=building_order)
    if not town:
        return Text("The town owns no buildings.", style="dim")
    per_row = 2 if width >= 90 and len(town) > 1 else 1
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), header_style="dim")
    for k in range(per_row):
        t.add_column("town building", no_wrap=True)
        t.add_column("entry fee", no_wrap=True, style="dim")
        t.add_column("price", no_wrap=True, justify="right", style="dim")
        if k < per_row - 1:
            t.add_column("", width=2)
    rows = (len(town) + per_row - 1) // per_row
    for r in range(rows):
        cells: list[Any] = []
        for k in range(per_row):
            j = k * rows + r
            if j < len(town):
                b = town[j]
                cells += [
                    _with_discs(state, b, "bold" if b in enterable else ""),
                    fee_text(b, short=True),
                    str(K.PRICE[b]) if K.PRICE[b] is not None else "-",
                ]
            else:
                cells += ["", "", ""]
            if k < per_row - 1:
                cells.append("")
        t.add_row(*cells)
    return t


def piles_table(state: BaseState) -> RenderableType:
    """The Building Proposals piles, fanned: the top card, then the bottom line of every card under it."""
    rows: list[RenderableType] = []
    for i, pile in enumerate(state.proposal_piles):
        t = Text()
        t.append(f"{i + 1}: ", style="dim")
        if not pile:
            t.append("empty", style="dim")
            rows.append(t)
            continue
        b = pile[0]
        t.append(K.NAME[b], style="bold")
        price = f", {K.PRICE[b]} fr" if K.PRICE[b] is not None else ", not for sale"
        t.append(f" [{materials_short(b)}] value {K.VALUE[b]}{price}")
        if len(pile) > 1:
            t.append("  under: ", style="dim")
            for k, c in enumerate(pile[1:]):
                if k:
                    t.append(" · ", style="dim")
                t.append(in_list(c))
                t.append(f" {materials_short(c)}", style="dim")
        rows.append(t)
    head = Text("Building proposals (top first; W wood, C clay, B brick, I iron, S steel):", style="dim")
    return Group(head, *rows)


def ships_text(state: BaseState) -> Text:
    t = Text("Ships: ", style="bold")
    first = True
    for typ in K.SHIP_TYPES:
        pile = state.ship_piles[typ]
        if not first:
            t.append("  ·  ", style="dim")
        first = False
        st = state.ship_types[typ]
        t.append(f"{SHIP_LABEL[typ]} ")
        if not pile:
            t.append("-", style="dim")
            continue
        values = [state.ship_cards[s][1] for s in reversed(pile)]
        t.append(str(values[0]), style="bold")
        extra = [f"then {', '.join(str(v) for v in values[1:])}"] if len(values) > 1 else []
        if st.buy_price is not None:
            extra.append(f"{st.buy_price} fr")
        extra.append(f"feeds {st.food[state.num_players - 1]}")
        t.append(f" ({'; '.join(extra)})", style="dim")
    return t


def special_text(state: BaseState, viewer: int | None) -> Text:
    t = Text("Special buildings: ", style="bold")
    n = len(state.special_pile)
    if state.short:
        t.append("none in the short game", style="dim")
        return t
    t.append(f"{n} face down" if n else "pile empty", style="")
    looking, known = specials_seen(state, viewer)
    if looking:
        t.append("; you look at the top two: ", style="")
    elif known:
        t.append("; you know the top: ", style="")
    if known:
        t.append(", then ".join(in_list(b) if looking else K.NAME[b] for b in known), style="bold")
    return t


def town_panel(state: BaseState, viewer: int | None, width: int) -> Panel:
    parts: list[RenderableType] = [
        town_table(state, enterable(state), width - 4),
        piles_table(state),
        ships_text(state),
        special_text(state, viewer),
    ]
    title = Text("Town", style="bold")
    title.append(" ([Pn]: a person there; bold: you can enter it now)", style="dim")
    return Panel(Group(*parts), title=title, title_align="left", border_style="dim", padding=(0, 1))


def player_panel(state: BaseState, p: int, players: Sequence[Player]) -> Panel:
    to_move = not state.is_terminal() and state.current_player() == p
    title = Text()
    if to_move:
        title.append("> ", style="bold")
    title.append_text(seat_tag(p))
    title.append(" ")
    title.append(players[p].label, style=SEAT_STYLE[p % len(SEAT_STYLE)])
    disc = state.discs[p]
    title.append(f"  person at {K.NAME[disc]}" if disc >= 0 else "  person at home", style="dim")
    lines: list[RenderableType] = []
    money = Text()
    money.append(plural(state.francs[p], "franc"), style="money")
    if state.loans[p]:
        money.append(f" · {plural(state.loans[p], 'loan')}", style="loan")
    money.append(f" · food {state.food_value(p)} · energy {state.energy_value(p)}")
    lines.append(money)
    lines.append(goods_text(state.goods[p]))
    ships = Text("ships: ", style="dim")
    own = state.player_ships(p)
    ships.append(", ".join(f"{SHIP_LABEL[t]} {v}" for t, v in own) if own else "none")
    if not state.is_terminal() and not state.final_stage:
        card = state.current_round_card
        due = food_owed(state, p)
        ships.append(f"  feed {min(state.ship_food(p), card.food)} of {card.food} food; ", style="dim")
        if due is None:
            ships.append("fed this round", style="dim")
        else:
            short = due > state.food_value(p) + state.francs[p]
            ships.append(f"{due} due", style="error" if short else "dim")
    lines.append(ships)
    lines.append(buildings_text(state, p))
    return Panel(
        Group(*lines),
        title=title,
        title_align="left",
        border_style="bold" if to_move else "dim",
        subtitle=Text(f"wealth now {state.wealth()[p]}", style="dim"),
        subtitle_align="right",
        padding=(0, 1),
    )


def buildings_text(state: BaseState, p: int) -> Text:
    """A player's buildings in one line (with the persons in them), and their hammers and fishermen."""
    owned = state.owned(p)
    bl = Text("buildings: ", style="dim")
    if not owned:
        bl.append("none", style="dim")
        return bl
    for k, b in enumerate(sorted(owned, key=building_order)):
        if k:
            bl.append(", ")
        bl.append_text(_with_discs(state, b))
    h, f = state.hammers(p), state.fishermen(p)
    extra = ([plural(h, "hammer")] if h else []) + ([f"{f} fisherm{'a' if f == 1 else 'e'}n"] if f else [])
    if extra:
        bl.append(f"  ({', '.join(extra)})", style="dim")
    return bl


def when_text(state: BaseState) -> str:
    """The round and the turn in it, short ('round 2 of 7, turn 3 of 7'; 'final action')."""
    if state.is_terminal():
        return "game over"
    if state.final_stage:
        return "final action"
    return f"round {state.round_number} of {len(state.rounds)}, turn {state.turn_in_round} of 7"


def players_view(state: BaseState, players: Sequence[Player], width: int) -> RenderableType:
    """Every player's side: two side by side from about 100 columns, else one under the other."""
    panels = [player_panel(state, p, players) for p in range(state.num_players)]
    if width >= 96 and len(panels) > 1:
        grid = Table.grid(padding=(0, 0))
        grid.add_column(width=width // 2)
        grid.add_column(width=width - width // 2)
        for k in range(0, len(panels), 2):
            grid.add_row(*panels[k : k + 2], *([Text("")] if k + 1 >= len(panels) else []))
        return grid
    return Group(*panels)


def board(state: BaseState, players: Sequence[Player], viewer: int | None, width: int = 100) -> RenderableType:
    # the round card last, just above the turn line: on a short terminal the town scrolls away first
    return Group(
        town_panel(state, viewer, width),
        harbour_panel(state, width),
        players_view(state, players, width),
        round_line(state),
    )


# ---------------------------------------------------------------------------
# What an action did (event lines), and what it would do (notes)
# ---------------------------------------------------------------------------

_VERBS = {
    "take": "takes",
    "enter": "enters",
    "buy": "buys",
    "sell": "sells",
    "pay": "pays",
    "build": "builds",
    "upgrade": "upgrades",
    "exchange": "exchanges",
    "pick": "picks",
    "ship": "ships",
    "use": "uses",
    "evict": "evicts",
    "haul": "hauls",
    "trade": "trades",
    "give": "gives",
    "return": "returns",
    "repay": f"repays a loan ({K.LOAN_REPAYMENT} francs)",
    "end": "ends the turn",
    "pass": "passes",
    "done": "is done",
    "for": "chooses",
    "borrow": "cannot pay and borrows",
}


def _changes(before: BaseState, after: BaseState, p: int) -> list[str]:
    """What changed for player ``p``: goods, francs, loans, buildings, ships."""
    out = []
    for g in range(NG):
        d = after.goods[p][g] - before.goods[p][g]
        if d:
            out.append(f"{d:+d} {GOOD_LABEL[g]}")
    d = after.francs[p] - before.francs[p]
    if d:
        out.append(f"{d:+d} franc{'s' if abs(d) != 1 else ''}")
    d = after.loans[p] - before.loans[p]
    if d:
        out.append(f"{d:+d} loan{'s' if abs(d) != 1 else ''}")
    for b in range(K.NB):
        if after.owner[b] == p and before.owner[b] != p:
            out.append(f"+{in_list(b)}")
        elif before.owner[b] == p and after.owner[b] != p:
            out.append(f"-{in_list(b)}")
    for s in after.ships[p]:
        if s not in before.ships[p]:
            out.append(f"+{after.ship_name(s)}")
    for s in before.ships[p]:
        if s not in after.ships[p]:
            out.append(f"-{before.ship_name(s)}")
    return out


def action_sentence(before: BaseState, action: Any) -> str:
    """The action in words, from the position before it."""
    text = str(action)
    verb, _, rest = text.partition(" ")
    b = K.BY_NAME.get(rest.lower())
    p = before.current_player()
    if verb == "take" and rest in OFFER_LABEL and before.decision in TURN_FRAMES:
        n = before.offer_spaces[OFFER_LABEL.index(rest)]
        return f"takes {n} {'franc' if rest == 'francs' and n == 1 else rest} from the offer"
    if verb == "enter" and b is not None:
        o = before.owner[b]
        whose = "the town's" if o == TOWN else ("own" if o == p else f"P{o + 1}'s")
        return f"enters {whose} {K.NAME[b]}"
    if verb == "buy" and b is not None:
        return f"buys {K.NAME[b]} for {plural(K.PRICE[b], 'franc')}"
    if verb == "buy":
        typ = next((t for t, lbl in K.SHIP_TYPE_LABEL.items() if lbl == rest), None)
        if typ is not None:
            return f"buys a {rest} for {plural(before.ship_types[typ].buy_price, 'franc')}"
    if verb == "sell" and b is not None:
        return f"sells {K.NAME[b]} for {plural(K.sale_price(K.VALUE[b]), 'franc')}"
    if verb in ("keep", "swap") and rest == "order":
        return f"{'keeps' if verb == 'keep' else 'swaps'} the order of the top two special buildings"
    conj = _VERBS.get(verb)
    if conj is None:
        return text
    if verb in ("repay", "end", "pass", "done", "borrow"):
        return conj
    return f"{conj} {rest}"


class BaseRenderer(Renderer):
    ruleset = "base"
    title = "Le Havre"

    # -- the board ---------------------------------------------------------------
    draw_board = staticmethod(board)

    # -- a game's first lines ------------------------------------------------------
    def game_line(self, state: BaseState) -> str:
        version = "short game" if state.options.short else "full game"
        n = state.num_players
        return f"{self.title} ({version}, {n} player{'' if n == 1 else 's'})"

    def seats_line(self, state: BaseState, players: Sequence[Player], people: Sequence[int]) -> str:
        if len(people) == 1:
            me = people[0]
            line = f"You are P{me + 1}" + (" and start." if me == state.starting_player else ".")
        else:
            line = "People at this keyboard: " + ", ".join(f"P{s + 1}" for s in people) + "."
        others = [f"P{s + 1} {pl.label}" for s, pl in enumerate(players) if pl.agent is not None]
        return line + (" Computer: " + ", ".join(others) + "." if others else "")

    def watch_lines(self, state: BaseState, players: Sequence[Player], seed: int) -> list[RenderableType]:
        who = ", ".join(
            f"P{s + 1} {pl.label}" + (" (starts)" if s == state.starting_player else "") for s, pl in enumerate(players)
        )
        return [Text(f"{self.game_line(state)}: {who}; seed {seed}", style="bold"), self.opening_line(state)]

    def turn_line(self, state: BaseState, players: Sequence[Player]) -> RenderableType:
        p = state.current_player()
        t = Text()
        t.append("> ", style="bold")
        t.append_text(seat_tag(p))
        t.append(" ")
        t.append(players[p].label, style=SEAT_STYLE[p % len(SEAT_STYLE)])
        t.append(f" ({when_text(state)})", style="dim")
        t.append(": ", style="bold")
        t.append(decision_text(state))
        return t

    def screens(self, state: BaseState, players: Sequence[Player], seat: int) -> list[RenderableType]:
        """The whole board; every player's side with the round card; the mover's side with the
        round card; the mover's side alone."""
        width = self.width
        mine = player_panel(state, seat, players)
        line = Text.assemble(seat_tag(seat), " ", (players[seat].label, SEAT_STYLE[seat % len(SEAT_STYLE)]), ": ")
        line.append(plural(state.francs[seat], "franc"), style="money")
        if state.loans[seat]:
            line.append(f", {plural(state.loans[seat], 'loan')}", style="loan")
        line.append("; ")
        line.append_text(goods_text(state.goods[seat]))
        ships = state.player_ships(seat)
        if ships:
            line.append("; ships: " + ", ".join(f"{SHIP_LABEL[t]} {v}" for t, v in ships))
        return [
            board(state, players, seat, width),
            Group(players_view(state, players, width), round_line(state)),
            Group(mine, round_line(state)),
            mine,
            Group(line, buildings_text(state, seat)),
        ]

    def seat_tag(self, players: Sequence[Player], seat: int) -> str:
        return f"P{seat + 1}"

    # -- events --------------------------------------------------------------------
    def event_lines(
        self,
        state: BaseState,
        players: Sequence[Player],
        actor: int,
        action: Any,
        before: BaseState | None = None,
    ) -> list[RenderableType]:
        """What the action did, read against ``before`` (the position it was played from, from the
        play loop's stack of positions); without it, the action's text alone."""
        line = Text()
        if before is not None and not before.final_stage:
            line.append(f"R{before.round_number}.{before.turn_in_round} ", style="dim")
        elif before is not None:
            line.append("final ", style="dim")
        line.append_text(seat_tag(actor))
        line.append(" ")
        line.append(players[actor].label, style=SEAT_STYLE[actor % len(SEAT_STYLE)])
        line.append(": ")
        if before is None:
            line.append(str(action))
            return [line]
        line.append(action_sentence(before, action))
        feeding = (feeding_started(state) and not feeding_started(before)) or (
            state.round_index > before.round_index and not feeding_started(before)
        )
        new_turn = state.turn_in_round != before.turn_in_round or state.round_index != before.round_index
        tile = state.tile_data[state.supply_tiles[state.turn_in_round - 1]] if state.turn_in_round else None
        interest = new_turn and tile is not None and tile.interest and any(state.loans)
        if not feeding and not interest:
            _append_changes(line, before, state, actor, action)
        return [line, *_phase_lines(before, state, feeding, new_turn, tile)]

    def summary(self, steps: Sequence[tuple[BaseState, int, str]], players: Sequence[Player]) -> list[RenderableType]:
        """One line per turn since the person's last decision: where and who (as in the event lines),
        then each action in words."""
        out: list[RenderableType] = []
        for actor, run in turns(steps):
            first = run[0][0]
            line = Text("final " if first.final_stage else f"R{first.round_number}.{first.turn_in_round} ", style="dim")
            line.append_text(seat_tag(actor))
            line.append(" ")
            line.append(players[actor].label, style=SEAT_STYLE[actor % len(SEAT_STYLE)])
            line.append(": " + "; ".join(action_sentence(before, text) for before, text in run))
            out.append(line)
        return out

    def opening_line(self, state: BaseState) -> Text:
        """The first turn's supply action (the event lines announce every later turn)."""
        tile = state.tile_data[state.supply_tiles[0]]
        t = Text("  -- ")
        t.append_text(seat_tag(state.turn_player))
        t.append(
            f"'s turn (round 1, turn 1): supply tile {tile.first}+{tile.second} adds 1 {tile.first} and "
            f"1 {tile.second} to the offer --"
        )
        return t

    # -- the two-step choice -------------------------------------------------------------
    def group_of(self, action: Any) -> tuple[str, str]:
        text = str(action)
        verb, _, rest = text.partition(" ")
        if verb == "enter":
            return ENTER_HEAD, rest
        if verb == "buy":
            return BUY_HEAD, rest
        if verb == "sell":
            return SELL_HEAD, rest
        return text, ""

    def group_in(self, state: BaseState, action: Any) -> tuple[str, str]:
        """The few least wasteful ways to pay are listed one by one; the others (every other
        mix of food and francs, or of energy) are one entry, and can be typed."""
        if (
            action.verb == "pay"
            and not state.is_terminal()
            and action not in state.game.evaluator.search_actions(state)
        ):
            return MORE_PAYS_HEAD, ""
        return self.group_of(action)

    def payment(self, state: BaseState, action: Any) -> tuple[str, dict[str, int]] | None:
        """A way to pay food, energy or francs: how many tokens of each kind, and francs."""
        if action.verb != "pay":
            return None
        return "pay", {"francs" if k == "franc" else GOOD_LABEL[k]: amount // UNIT[k] for k, amount in action.way}

    def describe_group(self, state: BaseState, head: str, actions: Sequence[Any]) -> str:
        if len(actions) == 1:
            return self.describe_choice(state, actions[0])
        if head == MORE_PAYS_HEAD:
            return f"{len(actions)} more ways: type one (e.g. '{actions[-1]}'), or choose this to see them all"
        if head == ENTER_HEAD:
            return f"{len(actions)} buildings you can enter and use now"
        if head == BUY_HEAD:
            return f"{len(actions)} you can afford ({plural(state.francs[state.current_player()], 'franc')})"
        if head == SELL_HEAD:
            return f"one of {len(actions)}, for half its value"
        return f"{len(actions)} ways"

    def describe_choice(self, state: BaseState, action: Any) -> str:
        text = str(action)
        verb, _, rest = text.partition(" ")
        b = K.BY_NAME.get(rest.lower())
        p = state.current_player()
        if verb == "enter" and b is not None:
            o = state.owner[b]
            whose = "town" if o == TOWN else ("yours" if o == p else f"P{o + 1}'s")
            fee = "free" if o == p else fee_text(b)
            done = outcome_text(state, action)
            what = done if done is not None else K.BUILDINGS[b].function
            return f"{whose}, {fee}: {what}"
        if verb == "buy" and b is not None:
            return f"{plural(K.PRICE[b], 'franc')}, value {K.VALUE[b]}, {TYPE_NAME[K.BTYPE[b]]}"
        if verb == "buy":
            typ = next((t for t, lbl in K.SHIP_TYPE_LABEL.items() if lbl == rest), None)
            if typ is not None:
                st = state.ship_types[typ]
                top = state.ship_pile_tops[typ]
                return f"{plural(st.buy_price, 'franc')}, value {top[1] if top else '?'}, feeds {st.food[state.num_players - 1]}"
        if verb == "sell" and b is not None:
            return f"+{plural(K.sale_price(K.VALUE[b]), 'franc')} (value {K.VALUE[b]})"
        if verb == "sell":
            v = rest.rsplit(" ", 1)[-1]
            if v.isdigit():
                return f"+{plural(K.sale_price(int(v)), 'franc')} (value {v})"
        if verb == "take" and rest in OFFER_LABEL and state.decision in TURN_FRAMES:
            return f"{state.offer_spaces[OFFER_LABEL.index(rest)]} on the space"
        if text in ("keep order", "swap order"):
            return order_note(state, text == "swap order")
        if verb in ("end", "pass"):
            return ""
        if verb == "repay":
            return f"{K.LOAN_REPAYMENT} francs, one loan less"
        done = outcome_text(state, action)
        return done or ""

    # -- reference and help ---------------------------------------------------------------
    def reference(self, state: BaseState, name: str | None) -> RenderableType:
        return reference(name)

    def names(self, state: BaseState) -> list[str]:
        return [K.NAME[b] for b in range(K.NB)]

    def action_forms(self) -> RenderableType:
        return forms_table(*ACTION_FORMS)

    def final(self, state: BaseState, players: Sequence[Player]) -> RenderableType:
        return final_table(state, [f"P{i + 1} {p.label}" for i, p in enumerate(players)], only_human(players))


def order_note(state: BaseState, swap: bool) -> str:
    """What keeping or swapping the top two special buildings leaves on top (seen at the Marketplace)."""
    top = [in_list(b) for b in state.special_pile[:2]]
    if len(top) < 2:
        return ""
    first, second = (top[1], top[0]) if swap else top
    return f"{first} on top, then {second}"


def outcome_text(state: BaseState, action: Any) -> str | None:
    """What ``action`` changes for the player who takes it, when that is settled at once
    (None while the building still asks for more choices)."""
    p = state.current_player()
    child = state.clone()
    try:
        child.apply_action(action)
    except Exception:  # pragma: no cover - a legal action always applies
        return None
    if not child.is_terminal() and child.current_player() == p and child.decision in ("pay", "sub"):
        return None
    if feeding_started(child) and not feeding_started(state):
        return None
    ch = _changes(state, child, p)
    return ", ".join(ch) if ch else "no change"


# ---------------------------------------------------------------------------
# Building reference (``lehavre rules base`` and ``rules`` at the prompt)
# ---------------------------------------------------------------------------


def find_building(name: str) -> int:
    """A building by its name or a unique beginning of it; GameError otherwise."""
    want = normalize_text(name)
    exact = [b for b in range(K.NB) if normalize_text(K.NAME[b]) == want]
    if exact:
        return exact[0]
    hits = [b for b in range(K.NB) if normalize_text(K.NAME[b]).startswith(want)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise GameError(
            f"'{name}' fits several buildings: {', '.join(in_list(b) for b in hits)}. Type more of the name."
        )
    names = ", ".join(sorted(K.NAME))
    raise GameError(f"There is no building called '{name}'. Buildings: {names}.")


def _sort_text(b: int) -> str:
    return K.SORT_ORDER[b] or "-"


def _provenance_short(card: Any) -> str:
    other = {f: src for f, src in card.provenance.items() if src != "rulebook"}
    if not other:
        return "rulebook"
    return "; ".join(f"{f}: {src}" for f, src in sorted(other.items()))


def _reference_order() -> list[int]:
    """Standard buildings by sort order (B1-B3 first), then the special buildings by name."""

    def key(b: int) -> tuple[int, str]:
        so = K.SORT_ORDER[b] or ""
        return (0 if so.startswith("B") else 1, so)

    return sorted(K.STANDARD_IDS, key=key) + sorted(K.SPECIAL_IDS, key=lambda b: K.NAME[b])


def _facts(b: int) -> Text:
    card = K.BUILDINGS[b]
    t = Text()
    t.append(f"{card.type} ", style="bold")
    t.append(f"{TYPE_NAME[card.type].replace(' building', '')} · value {card.value} · ")
    t.append(f"price {card.price}" if card.price is not None else "not for sale")
    t.append(f" · fee {fee_text(b)}" if K.EFFECT[b] != "none" else " · no action")
    if K.MATERIALS[b]:
        t.append(f" · materials {materials_text(b)}")
    if card.hammers:
        t.append(f" · {plural(card.hammers, 'hammer')}")
    if card.fishermen:
        t.append(f" · {card.fishermen} fisherm{'a' if card.fishermen == 1 else 'e'}n")
    return t


def reference(name: str | None = None) -> RenderableType:
    """All 69 buildings (standard by sort order, then special), or one in detail."""
    if name:
        return building_card(find_building(name))
    t = Table(
        title="Le Havre - buildings (data: the rulebook, Buildings Overview)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        show_edge=False,
    )
    t.add_column("sort", no_wrap=True)
    t.add_column("building", no_wrap=True, style="bold")
    t.add_column("type, value, price, entry fee, materials, hammers, fishermen; function", ratio=1)
    special_started = False
    for b in _reference_order():
        card = K.BUILDINGS[b]
        if K.IS_SPECIAL[b] and not special_started:
            special_started = True
            t.add_section()
        cell = _facts(b)
        cell.append("\n")
        cell.append(card.function or "-", style="")
        prov = _provenance_short(card)
        if prov != "rulebook":
            cell.append(f"  (data: {prov})", style="dim")
        t.add_row(card.sort_order or "-", card.name, cell)
    note = Text(
        "Types: C Craftsman's, E Economic, I Industrial, P Public, N Non-building, S Ship.  Sort order "
        "B1-B3: in the town from the start; 01-31: standard buildings (the proposal piles); -: special "
        "buildings.  Entry fees in food may be paid in francs 1:1.  Every datum is from the rulebook "
        "unless marked (data: ...).  'lehavre rules base NAME' shows one building.",
        style="dim",
    )
    return Group(t, note)


def building_card(b: int) -> RenderableType:
    card = K.BUILDINGS[b]
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    t.add_row("type", f"{card.type} ({TYPE_NAME[card.type]}), {card.kind} building")
    t.add_row("sort order", card.sort_order or "- (special building)")
    t.add_row("value", str(card.value))
    t.add_row("price", plural(card.price, "franc") if card.price is not None else "cannot be bought")
    t.add_row("entry fee", fee_text(b) if K.EFFECT[b] != "none" else "- (no action: padlock)")
    t.add_row("materials", materials_text(b) + ("" if card.buildable else "  (not built with a building action)"))
    t.add_row("hammers", str(card.hammers))
    t.add_row("fishermen", str(card.fishermen))
    t.add_row("function", card.function or "-")
    fields = (
        "type",
        "sort_order",
        "value",
        "price",
        "entry_food",
        "entry_francs",
        "materials",
        "hammers",
        "fishermen",
        "function",
    )
    t.add_row("provenance", ", ".join(f"{f}: {card.source_of(f)}" for f in fields))
    return Panel(t, title=Text(card.name, style="bold"), title_align="left", expand=False)


ACTION_FORMS = (
    "Action text forms (any case; whole leading words that fit one action are enough, e.g. 'enter fish'):",
    [
        ("take wood", "the main action: all goods of one offer space"),
        ("enter Fishery", "the main action: move your person there (fee first) and use it"),
        ("buy Joinery", "town buildings and the tops of the proposal piles, for their price"),
        ("buy wooden ship", "the top ship of a pile, for its price"),
        ("sell Joinery", "half the value in francs, at any time in your turn (a ship: sell wooden ship 4)"),
        ("repay", f"pay back a loan ({K.LOAN_REPAYMENT} francs)"),
        ("end", "end your turn (after the main action)"),
        (
            "pay 2 fish, 1 franc",
            "how to pay food or energy (no change is given); francs may pay all or part "
            "of any food: pay 5 francs, pay 1 fish, 4 francs",
        ),
        ("upgrade 3", "how many, at an upgrade or exchange building (exchange 2)"),
        ("build Joinery", "at a building firm: which building to build"),
        ("pick grain", "at the Marketplace or Town Square: one good at a time, any order"),
        ("borrow", f"when you cannot pay: take loans ({K.LOAN_FRANCS} francs each, 7 off your wealth)"),
    ],
    "Entering another player's building pays its fee to that player; the town's fees go to the bank.",
)


def _append_changes(line: Text, before: BaseState, state: BaseState, actor: int, action: Any) -> None:
    """What the action changed for the actor, then for each other player, dim after the action's sentence."""
    mine = _changes(before, state, actor)
    if mine and (as_action(action).verb != "take" or len(mine) > 1):
        line.append(f"  ({', '.join(mine)})", style="dim")
    for q in range(state.num_players):
        if q != actor:
            theirs = _changes(before, state, q)
            if theirs:
                line.append("  ")
                line.append_text(seat_tag(q))
                line.append(f" {', '.join(theirs)}", style="dim")


def _phase_lines(before: BaseState, state: BaseState, feeding: bool, new_turn: bool, tile: Any) -> list[RenderableType]:
    """The phases the action led into: the end of a round (feeding, the town's building, the new ship),
    the next turn's supply tile, the end of the game."""
    out: list[RenderableType] = []
    if feeding:
        card = before.current_round_card
        due = [f"P{q + 1} {max(0, card.food - before.ship_food(q))}" for q in range(state.num_players)]
        out.append(
            Text(
                f"  -- End of round {before.round_number}: "
                + ("harvest (1 grain per grain field, 1 cattle per pair); " if card.harvest else "no harvest; ")
                + f"everyone feeds {card.food} food less what ships provide (due: {', '.join(due)}) --",
                style="bold",
            )
        )
    if state.round_index > before.round_index:
        built = [b for b in range(K.NB) if state.owner[b] == TOWN and before.owner[b] < TOWN]
        card = before.rounds[before.round_index]
        msg = f"  -- Round {before.round_index + 1} ends: "
        msg += f"the town builds {', '.join(in_list(b) for b in built)}; " if built else ""
        msg += f"{_ship_phrase(card.ship_type)} ({card.ship_value}) joins the ship piles --"
        out.append(Text(msg, style="bold"))
        if state.final_stage and not state.is_terminal():
            out.append(Text("  -- The last round is over: one final action each, in turn order --", style="bold"))
    if new_turn and state.started and not state.final_stage and not state.is_terminal() and tile is not None:
        head = Text("  -- ")
        head.append_text(seat_tag(state.turn_player))
        head.append(
            f"'s turn (round {state.round_number}, turn {state.turn_in_round}): supply tile "
            f"{tile.first}+{tile.second} adds 1 {tile.first} and 1 {tile.second} to the offer"
        )
        if tile.interest and any(state.loans):
            head.append("; interest: 1 franc per player with loans")
        head.append(" --")
        out.append(head)
    if state.is_terminal() and not before.is_terminal():
        out.append(Text("  -- The game is over --", style="bold"))
    return out
