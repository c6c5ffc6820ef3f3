"""Each game's view (what a page draws) holds the facts the terminal's board shows, for one known
position per game; the choices are the terminal's numbered choices, in its words."""

from __future__ import annotations

import random

from rich.console import Console

import base_game
import inland_port
from base_game import cards as K
from base_game.view_model import BaseBoard, base_view
from cli.render_base import BaseRenderer
from cli.render_inland import InlandRenderer
from cli.view_choices import view_choices
from core.protocol import parse_action
from core.table import Seat
from inland_port.state import SECTOR_LABELS
from inland_port.view_model import InlandBoard, inland_view


def played(state, seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def board_text(renderer, state, viewer) -> str:
    console = Console(width=250, record=True, color_system=None, file=open("/dev/null", "w"))
    players = [Seat(f"Player {p + 1}", "person") for p in range(state.num_players)]
    console.print(renderer.board(state, players, viewer))
    return console.export_text()


def test_the_inland_view_at_the_start_is_the_rulebooks_set_up():
    """Game setup: 3 francs each, the counters on their start cells, nothing built, round A with its
    3 actions, seat 0 to move; the buildings of round A on offer."""
    state = inland_port.new_game(0)
    view = inland_view(state, None)
    assert isinstance(view, InlandBoard)
    assert (view.round_letter, view.round_number, view.actions_left, view.actions_in_round) == ("A", 1, 3, 3)
    assert view.to_move == 0 and not view.acted and not view.over
    for side in view.sides:
        assert side.francs == 3
        assert [s.label for s in side.sectors] == ["0", "2", "3", "4", "4+1", "!"]
        assert [s.value for s in side.sectors] == [0, 2, 3, 4, 4, None]
        assert all(not s.buildings for s in side.sectors) and not side.beside_board
        wh = state.catalog.warehouse
        assert [(c.good, c.cell, c.amount) for c in side.warehouse.counters] == [
            (g, wh.text(c), wh.amount[c])
            for g, c in zip(("fish", "grain", "wood", "clay"), state.cells[0], strict=True)
        ]
    assert [b.name for b in view.offer] == [state.catalog.buildings[i].name for i in state.on_offer()]
    assert view.sides[0].game_board == "A-F board" and view.sides[1].game_board == "G-L board"


def test_the_inland_view_holds_what_the_terminal_board_shows():
    state = played(inland_port.new_game(0), 5, 40)
    view = inland_view(state, 0)
    text = board_text(InlandRenderer(width=250), state, 0)
    assert f"Round {view.round_letter}" in text
    assert f"{view.actions_left} of {view.actions_in_round} actions left" in text
    for side in view.sides:
        assert f"{side.francs} francs" in text
        built = [name for s in side.sectors for name in s.buildings] + side.beside_board
        assert sorted(built) == sorted(state.catalog.buildings[i].name for i in state.owned(side.seat))
        assert all(name in text for name in built)
        for s in side.sectors:
            for name in s.buildings:
                assert SECTOR_LABELS[state.sector[state.catalog.index[name]]] == s.label
    for b in view.offer:
        assert b.name in text
    for r in view.coming:
        assert f"{r.round} {', '.join(r.buildings)}" in text


def SECTOR_OF(state, name: str) -> str:
    from inland_port.state import SECTOR_LABELS

    return SECTOR_LABELS[state.sector[state.catalog.index[name]]]


def test_the_base_view_holds_what_the_terminal_board_shows():
    state = played(base_game.new_game(3, {"players": 3}), 3, 150)
    for seat in (0, None):
        view = base_view(state, seat)
        assert isinstance(view, BaseBoard)
        text = board_text(BaseRenderer(width=250), state, seat)
        assert view.round is not None and f"Round {view.round.number} of {view.round.rounds}" in text
        assert f"turn {view.turn_in_round} of 7" in text
        assert "Offer: " + "   ".join(f"{k} {n}" for k, n in view.offer.items()) in text
        for b in view.town:
            assert b.name in text
            assert b.persons == [q for q, d in enumerate(state.discs) if d == K.BY_NAME[b.name.lower()]]
        for pile in view.proposal_piles:
            assert pile and pile[0].name in text
        for side in view.sides:
            assert f"{side.francs} franc" in text
            assert side.goods == {K.GOOD_LABEL[g]: n for g, n in enumerate(state.goods[side.seat]) if n}
            assert (side.food, side.energy) == (state.food_value(side.seat), state.energy_value(side.seat))
            assert f"food {side.food} · energy {side.energy}" in text
            assert {b.name for b in side.buildings} == {K.NAME[b] for b in state.owned(side.seat)}
            assert all(b.name in text for b in side.buildings)
            assert side.loans == state.loans[side.seat]
        shown = [t for t in view.supply_tiles if t.first is not None]
        assert len(shown) == state.tiles_revealed
        assert view.specials is not None and view.specials.face_down == len(state.special_pile)
        assert f"{view.specials.face_down} face down" in text
        for pile in view.ship_piles:
            assert pile.values == [state.ship_cards[s][1] for s in reversed(state.ship_piles[pile.type])]


def test_the_choices_are_the_legal_actions_as_the_terminal_lists_them():
    """Every listed legal action once, grouped and worded as the numbered choices (Game setup: at
    the start of the Inland Port, the Wood Company costs 1 clay, value 3)."""
    state = inland_port.new_game(0)
    groups, unlisted = view_choices(state)
    texts = [c.text for g in groups for c in g.actions]
    assert len(texts) == len(set(texts)) and len(texts) + unlisted == len(state.legal_actions())
    assert all(str(parse_action(state, t)) == t for t in texts)
    wood = next(g for g in groups if g.head.startswith("build Wood Company"))
    assert wood.note == "1 clay, value 3: clay 3 \u2192 2"
    grocery = next(g for g in groups if g.head == "build Grocery Store")
    assert grocery.note == "2 food, value 4; 2 ways to pay" and len(grocery.actions) == 2
    assert all(c.how and c.note for c in grocery.actions)
    base = played(base_game.new_game(3, {"players": 3}), 3, 150)
    groups, unlisted = view_choices(base)
    texts = [c.text for g in groups for c in g.actions]
    assert len(texts) + unlisted == len(base.legal_actions())
