"""A seat without the engine (a browser): with ``view`` in its hello it receives the position as its
seat may see it, as plain data (:class:`core.net.messages.SeatView`), plays by the choices' texts and
gets the terminal's "did you mean" when a text is not legal.  The wire carries nothing it may not
see: not the seed, not a face-down card's place (the base game's rulebook, Setup and Explanation of
Components: the supply tiles and the special buildings lie face down, and the Marketplace shows its
user the top two special buildings), not a path of the host's machine, not another seat's code.
Loopback only; each game is bounded in actions and seconds."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from websockets.asyncio.client import connect

import inland_port
from base_game import cards as K
from base_game.view import known_specials
from base_game.view_model import specials_seen
from core.net.messages import (
    Answer,
    Closed,
    Hello,
    Play,
    Question,
    Refused,
    SeatView,
    Undo,
    Welcome,
    encode,
    parse_server,
)
from core.protocol import ActionError, parse_action
from tests.net.conftest import LOOPBACK, code_of, hosted, make_table

#: a seed whose digits cannot turn up in a message by chance
SEED = 739_182_645


async def view_bot(
    port: int, code: str, seed: int, heard: list[str], *, watch: bool = False, typo: bool = False
) -> tuple[str, list[SeatView], list[str], str]:
    """Play a random choice of every view that asks this seat, as a page would, until the game is
    closed; returns the closing text, the views, the reasons of the refusals and the misspelt text.
    ``typo``: the first move is sent misspelt once (the refusal says what it should be)."""
    views: list[SeatView] = []
    refusals: list[str] = []
    rng = random.Random(seed)
    typed = ""
    async with connect(f"ws://{LOOPBACK}:{port}", proxy=None) as ws:
        await ws.send(encode(Hello(code=code, view=True, watch=watch)))
        async for raw in ws:
            text = raw if isinstance(raw, str) else raw.decode()
            heard.append(text)
            msg = parse_server(text)
            assert msg.type != "position", "a view client is sent no action texts to replay"
            if isinstance(msg, Closed):
                return msg.text, views, refusals, typed
            if isinstance(msg, Refused):
                refusals.append(msg.reason)
            if isinstance(msg, Question):
                await ws.send(encode(Answer(question=msg.id, choice=msg.choices[0])))
            if not isinstance(msg, SeatView):
                continue
            views.append(msg)
            if msg.to_move is None or msg.to_move != msg.seat:
                continue
            assert msg.choices, "the seat to move is given its choices"
            action = rng.choice(rng.choice(msg.choices).actions).text
            if typo:
                typo, typed = False, "x" + action
                await ws.send(encode(Play(action=typed, ply=msg.ply)))
            await ws.send(encode(Play(action=action, ply=msg.ply)))
    return "connection closed", views, refusals, typed


def play_views(port: int, codes: list[str], watch: str, heard: list[list[str]], **kw: Any) -> list[Any]:
    """One view bot per code and a spectator's page, until the game ends (120 s at most)."""

    async def all_bots() -> list[Any]:
        jobs = [view_bot(port, c, 100 + k, heard[k], **kw) for k, c in enumerate(codes)]
        jobs.append(view_bot(port, watch, 0, heard[-1], watch=True))
        return list(await asyncio.wait_for(asyncio.gather(*jobs), 120))

    return asyncio.run(all_bots())


def secrets_of(table: Any, data_dir: Any) -> list[str]:
    """What no message to anyone may carry: the seed, every code, and the host's paths."""
    codes = [p.code for p in table.seats if p.code] + [table.plan.watch_code]
    return [str(SEED), str(data_dir), str(table.save_path), *codes]


def test_browser_seats_and_a_spectator_play_a_base_game_and_hear_nothing_hidden(data_dir):
    table = make_table("base", "remote,remote", SEED, short=True)
    true_specials = list(table.setup.special_pile)
    heard: list[list[str]] = [[], [], []]
    with hosted(table) as (_, port):
        results = play_views(port, [code_of(table, s) for s in range(2)], table.plan.watch_code, heard)
    assert [r[0] for r in results] == ["The game is over."] * 3
    assert table.state.is_terminal()
    states = [*table.positions, table.state]  # the true game after every number of actions
    for raw in (m for msgs in heard for m in msgs):
        assert not any(s in raw for s in secrets_of(table, data_dir))
    for seat, (_, views, _, _) in zip([0, 1, None], results, strict=True):
        assert views and views[-1].result is not None
        for v in views:
            assert v.seat == seat
            then = states[v.ply]
            board = v.board
            for i, tile in enumerate(board["supply_tiles"]):
                assert (tile["first"] is None) == (i >= then.tiles_revealed)  # face down: no goods
            known = known_specials(then, seat)
            hidden = [K.NAME[b] for b in true_specials if b in then.special_pile and b not in known]
            text = json.dumps(v.model_dump(mode="json"))
            assert not any(f'"{name}"' in text for name in hidden)
            assert [e.text for e in v.log] == then.history


def test_the_full_base_game_view_never_names_a_face_down_special_building(data_dir):
    """The full game has special buildings face down: a view names only those its seat looked at."""
    table = make_table("base", "remote,remote", SEED)
    heard: list[list[str]] = [[], [], []]
    with hosted(table) as (_, port):
        asyncio.run(_some_views(port, table, heard))
    states = [*table.positions, table.state]
    for seat, msgs in zip([0, 1, None], heard, strict=True):
        for raw in msgs:
            assert not any(s in raw for s in secrets_of(table, data_dir))
            msg = json.loads(raw)
            if msg["type"] != "view":
                continue
            then = states[msg["ply"]]
            specials = msg["board"]["specials"]
            assert specials["face_down"] == len(then.special_pile)
            looking, known = specials_seen(then, seat)  # in the true game
            assert (specials["looking"], specials["known"]) == (looking, [K.NAME[b] for b in known])
            assert seat is not None or not known
            for b in set(then.special_pile) - known_specials(then, seat):
                assert f'"{K.NAME[b]}"' not in raw
    assert any('"known":["' in raw.replace(" ", "") for raw in heard[0] + heard[1]), "no seat looked at the pile"


async def _some_views(port: int, table: Any, heard: list[list[str]]) -> None:
    """The two seats play 120 actions of a full game by their views, a spectator watching."""
    jobs = [asyncio.wait_for(view_bot(port, code_of(table, s), 7 + s, heard[s]), 60) for s in range(2)] + [
        asyncio.wait_for(view_bot(port, table.plan.watch_code, 0, heard[2], watch=True), 60)
    ]
    tasks = [asyncio.ensure_future(j) for j in jobs]
    for _ in range(600):
        if len(table.state.history) >= 120:
            break
        await asyncio.sleep(0.05)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert len(table.state.history) >= 120


def test_browser_seats_play_an_inland_port_game_to_its_result(data_dir):
    """Two pages play a whole Inland Port game by their choices' texts, a spectator's page follows
    it; the first move of seat 0 is misspelt once and refused with the terminal prompt's words."""
    table = make_table("inland", "remote,remote", SEED)
    heard: list[list[str]] = [[], [], []]
    with hosted(table) as (_, port):
        results = play_views(port, [code_of(table, s) for s in range(2)], table.plan.watch_code, heard, typo=True)
    assert [r[0] for r in results] == ["The game is over."] * 3
    state = table.state
    wealth = state.wealth()
    for seat, (_, views, refusals, _) in zip([0, 1, None], results, strict=True):
        for raw in heard[[0, 1, None].index(seat)]:
            assert not any(s in raw for s in secrets_of(table, data_dir))
        last = views[-1]
        assert last.result is not None and last.to_move is None and not last.choices
        assert last.result.wealth == wealth
        assert last.result.placings == [1 + sum(y > x for y in wealth) for x in wealth]
        assert last.result.margin == (abs(wealth[0] - wealth[1]))
        assert [e.seat for e in last.log] == [p.current_player() for p in table.positions]
        assert all(not v.choices for v in views if v.to_move != seat)
        if seat is None:
            assert not refusals and all(v.seat is None for v in views)
    typed = results[0][3]
    with pytest.raises(ActionError) as prompt:  # what the terminal's prompt says to the same text
        parse_action(inland_port.new_game(0), typed)
    assert results[0][2][0] == str(prompt.value) and f"Did you mean '{typed[1:]}'?" in results[0][2][0]


def test_a_page_loaded_anew_finds_its_seat_and_the_question_open_for_it(data_dir):
    """A reload: the same code again, the view as before with the question still open (an undo the
    other seat asked for), answered from the page; the view then no longer carries it."""
    table = make_table("inland", "remote,remote", SEED)
    with hosted(table) as (_, port):
        asyncio.run(_reload(port, table))


async def _next(ws: Any, kind: type) -> Any:
    while True:
        msg = parse_server(await asyncio.wait_for(ws.recv(), 10))
        if isinstance(msg, kind):
            return msg


async def _reload(port: int, table: Any) -> None:
    url = f"ws://{LOOPBACK}:{port}"
    async with connect(url, proxy=None) as a, connect(url, proxy=None) as b:
        await a.send(encode(Hello(code=code_of(table, 0), view=True)))
        await b.send(encode(Hello(code=code_of(table, 1), view=True)))
        assert (await _next(a, Welcome)).seat == 0
        view = await _next(a, SeatView)
        while view.ply == 0 or view.to_move == 0:  # seat 0 plays its turn
            if view.to_move == 0:
                await a.send(encode(Play(action=view.choices[-1].actions[-1].text, ply=view.ply)))
            view = await _next(a, SeatView)
        await b.send(encode(Undo(ply=view.ply)))
        asked = await _next(a, Question)
    async with connect(url, proxy=None) as again:  # the page of seat 0, loaded anew
        await again.send(encode(Hello(code=code_of(table, 0), view=True)))
        view = await _next(again, SeatView)
        assert view.seat == 0 and view.question is not None and view.question.id == asked.id
        assert view.question.undo is not None and view.question.undo.asker == 1
        await again.send(encode(Answer(question=asked.id, choice="no")))
        after = await _next(again, SeatView)
        assert after.question is None and after.ply == view.ply
