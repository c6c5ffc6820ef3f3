"""What each seat may see of a base game (rulebook, Setup and Explanation of Components: the supply
tiles and the special buildings lie face down; the Marketplace lets its user look at the top two
special buildings): the options a client replays are the seat's own, and the wire carries nothing
hidden from it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from base_game import RULESET, GameOptions
from base_game import cards as K
from base_game.frames import Sub
from base_game.view import known_specials
from cli.render_base import BaseRenderer
from cli.session import Player
from core.games import game_spec
from core.net.view import ViewError, ViewReplay, may_hear, received_data, seat_view
from tests.net.conftest import code_of, hosted, make_table, play_bots


def random_game(seed: int, players: int = 3, until=None):
    """A base game played at random from ``seed``; stops early when ``until(state)`` holds."""
    state = RULESET.new_game(seed, GameOptions(players=players))
    setup = state.clone()
    rng = random.Random(seed)
    while not state.is_terminal() and not (until and until(state)):
        state.apply_action(rng.choice(state.legal_actions()))
    return setup, state


def view_of(setup, state, seat):
    seed, options = seat_view(RULESET, setup.seed, setup.options, setup, state, seat)
    return seed, options, ViewReplay(RULESET).update(seed, options, list(state.history))


def board_text(state, seat, players) -> str:
    from rich.console import Console

    console = Console(width=120, record=True, color_system=None)
    console.print(BaseRenderer(width=120).board(state, players, seat))
    return console.export_text()


def peeking(state) -> bool:
    top = state.stack[-1] if state.stack else None
    return isinstance(top, Sub) and top.effect == "peek"


def test_a_seat_sees_on_its_view_what_it_sees_on_the_true_game():
    players = [Player(f"Player {s + 1}") for s in range(3)]
    for seed in (1, 2):
        setup, state = random_game(seed, until=lambda s: len(s.history) >= 150)
        for seat in (0, 1, 2, None):
            view_seed, _, view = view_of(setup, state, seat)
            assert view_seed == 0
            assert view.wealth() == state.wealth()
            assert view.current_player() == state.current_player()
            assert [str(a) for a in view.legal_actions()] == [str(a) for a in state.legal_actions()]
            assert board_text(view, seat, players) == board_text(state, seat, players)


def test_face_down_tiles_and_specials_come_in_a_canonical_order():
    setup, state = random_game(3, until=lambda s: len(s.history) >= 100)
    for seat in (0, 1, 2, None):
        _, options, _ = view_of(setup, state, seat)
        tiles = options["supply_tiles"]
        assert tiles[: state.tiles_revealed] == setup.supply_tiles[: state.tiles_revealed]
        assert tiles[state.tiles_revealed :] == sorted(tiles[state.tiles_revealed :])
        seen = set(setup.special_pile) - set(state.special_pile) | known_specials(state, seat)
        hidden = [K.BY_NAME[n.lower()] for n in options["special_pile"] if K.BY_NAME[n.lower()] not in seen]
        assert hidden == sorted(b for b in setup.special_pool if b not in seen)[: len(hidden)]


def test_another_players_marketplace_peek_is_not_in_my_view():
    for seed in range(200):
        setup, state = random_game(seed, until=peeking)
        if peeking(state):
            break
    else:
        raise AssertionError("no random game reached the Marketplace's peek")
    peeker = state.stack[-1].player
    top = state.special_pile[:2]
    _, _, view = view_of(setup, state, peeker)
    assert view.special_pile[:2] == top  # the peeker sees the true top two
    for other in {0, 1, 2} - {peeker}:
        _, _, view = view_of(setup, state, other)
        fill = sorted(b for b in setup.special_pool if b not in set(setup.special_pile) - set(state.special_pile))
        assert view.special_pile == fill[: len(view.special_pile)]


def test_no_message_of_a_hosted_base_game_carries_another_seats_hidden_tiles(data_dir):
    table = make_table("base", "remote,remote,remote", 11)
    true_tiles, true_specials = list(table.setup.supply_tiles), [K.NAME[b] for b in table.setup.special_pile]
    assert true_tiles != sorted(true_tiles) and true_specials != sorted(true_specials)
    heard: list[str] = []
    with hosted(table) as (_, port):
        ends = play_bots(port, [code_of(table, s) for s in range(3)], heard=heard)
    assert all(e == "The game is over." for e in ends)
    assert table.state.is_terminal()
    positions = [m for m in map(json.loads, heard) if m["type"] == "position"]
    assert len(positions) > len(table.state.history)
    states = [*table.positions, table.state]  # the true game, after every number of actions
    for msg in positions:
        assert msg["seed"] == 0
        then = states[len(msg["actions"])]
        assert msg["actions"] == then.history
        tiles = msg["options"]["supply_tiles"]
        assert tiles[: then.tiles_revealed] == true_tiles[: then.tiles_revealed]
        assert tiles[then.tiles_revealed :] == sorted(tiles[then.tiles_revealed :])
        face_down = [b for b in msg["options"]["special_pile"] if K.BY_NAME[b.lower()] in then.special_pile]
        assert face_down == sorted(face_down, key=lambda b: K.BY_NAME[b.lower()]) or _peeked(then)
    assert not any(f'"seed":{table.record.seed},' in m for m in heard)


def _peeked(state) -> bool:
    """Someone knows the top of the special pile (the Marketplace): their own view keeps it."""
    return any(state.peek_known) or peeking(state)


def test_the_explanation_of_a_seat_that_peeked_is_not_heard_by_the_others():
    """The Marketplace shows its user the top two special buildings: that seat's search (and so its
    'why') may name them, so only it hears its explanations until they are revealed."""
    for seed in range(200):
        setup, state = random_game(seed, until=peeking)
        if peeking(state):
            break
    else:
        raise AssertionError("no random game reached the Marketplace's peek")
    peeker = state.stack[-1].player
    others = [s for s in range(state.num_players) if s != peeker]
    assert may_hear(RULESET, setup, state, peeker, peeker)
    assert not any(may_hear(RULESET, setup, state, peeker, s) for s in [*others, None])
    # before anyone looked at anything, every seat (and a spectator) knows the same
    start = setup.clone()
    assert all(may_hear(RULESET, setup, start, 0, s) for s in [1, 2, None])


def test_a_server_ai_explains_its_moves_only_to_who_may_hear_them(data_dir):
    table = make_table("base", "remote,ai:easy", 12, short=True)
    heard: list[str] = []
    with hosted(table) as (_, port):
        assert play_bots(port, [code_of(table, 0)], heard=heard, stop_after=25) == ["dropped"]
    positions = [m for m in map(json.loads, heard) if m["type"] == "position"]
    reasons = {r["ply"]: r["info"] for m in positions for r in m["reasons"]}
    states = [*table.positions, table.state]
    ai_moves = [k for k in range(len(states) - 1) if states[k].current_player() == 1 and k < 25]
    assert ai_moves and set(reasons) <= set(ai_moves)
    for k, info in reasons.items():
        assert info["action"] == states[k + 1].history[k] and info["pv"] and "terms" in info
        assert may_hear(RULESET, table.setup, states[k], 1, 0)
    # every move of the AI the person may hear about was explained to them (each position carries the latest)
    assert set(reasons) == {k for k in ai_moves if may_hear(RULESET, table.setup, states[k], 1, 0)}


def test_a_data_file_from_the_server_is_checked_as_a_file_would_be(data_dir):
    inland = game_spec("inland")
    data = json.loads((Path(__file__).resolve().parents[2] / "inland_port/data/buildings-2026-11.json").read_text())
    path = received_data(inland, data)
    assert json.loads(path.read_text()) == data
    del data["buildings"][3]
    with pytest.raises(ViewError, match=r"the host.s data file is not valid: .*is missing"):
        received_data(inland, data)
