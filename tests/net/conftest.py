"""Helpers of the network tests: a server on the loopback (port chosen by the OS) in a thread of its
own, tables made as ``lehavre host`` makes them, and bots: clients that speak the protocol directly."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from cli.net_cmd import game_options, new_table, parse_seats, serve_in_thread
from core.games import game_spec
from core.net.messages import Answer, Closed, Hello, Play, Position, Question, encode, parse_server
from core.net.server import GameServer, HostedGame
from core.net.view import ViewReplay

LOOPBACK = "127.0.0.1"


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    """Saves (and the hosted games' seats) go to a temporary folder, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(d))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return d


def make_table(game: str, seats: str, seed: int, *, timeout: float = 120.0, **options: Any) -> HostedGame:
    spec = game_spec(game)
    plans = parse_seats(seats, spec)
    opts = game_options(
        spec,
        len(plans),
        options.get("short", False),
        None,
        (options.get("advanced_selling", False), options.get("expensive_loans", False)),
    )
    return new_table(spec, plans, opts, seed, LOOPBACK, 0, timeout, True)


@contextlib.contextmanager
def hosted(*tables: HostedGame, ping: float | None = 20.0) -> Iterator[tuple[GameServer, int]]:
    """A server holding ``tables`` on the loopback; stopped (every table) when the block ends."""
    server = GameServer(ping_interval=ping, ping_timeout=ping)
    for t in tables:
        server.add(t)
        t.save()
    thread, port = serve_in_thread(server, LOOPBACK, 0)
    try:
        yield server, port
    finally:
        server.stop_all("the test is over")
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop"


def code_of(table: HostedGame, seat: int) -> str:
    code = table.seats[seat].code
    assert code is not None
    return code


async def bot(
    port: int,
    code: str,
    seed: int,
    *,
    heard: list[str] | None = None,
    answer: str = "yes",
    stop_after: int | None = None,
) -> str:
    """Play random legal moves at the seat of ``code`` until the server closes the game; returns
    the closing text.  ``heard`` collects every message received; ``answer`` answers questions;
    ``stop_after``: drop the connection once the game has this many actions."""
    async with connect(f"ws://{LOOPBACK}:{port}", proxy=None) as ws:
        await ws.send(encode(Hello(code=code)))
        first = await ws.recv()
        if heard is not None:
            heard.append(first if isinstance(first, str) else first.decode())
        welcome = parse_server(first)
        assert welcome.type == "welcome", welcome
        replay = ViewReplay(game_spec(welcome.ruleset))
        rng = random.Random(seed)
        async for raw in ws:
            if heard is not None:
                heard.append(raw if isinstance(raw, str) else raw.decode())
            msg = parse_server(raw)
            if isinstance(msg, Closed):
                return msg.text
            if isinstance(msg, Question):
                choice = answer if answer in msg.choices else msg.choices[0]
                await ws.send(encode(Answer(question=msg.id, choice=choice)))
            if not isinstance(msg, Position):
                continue
            state = replay.update(msg.seed, msg.options, msg.actions)
            if stop_after is not None and len(state.history) >= stop_after:
                return "dropped"
            if not state.is_terminal() and state.current_player() == welcome.seat:
                action = rng.choice(state.legal_actions())
                await ws.send(encode(Play(action=str(action), ply=len(state.history))))
    return "connection closed"


def play_bots(port: int, codes: list[str], timeout: float = 120.0, **kw: Any) -> list[str]:
    """Run one bot per code until the game ends (at most ``timeout`` seconds)."""

    async def all_bots() -> list[str]:
        jobs = [bot(port, c, 100 + k, **kw) for k, c in enumerate(codes)]
        return list(await asyncio.wait_for(asyncio.gather(*jobs), timeout))

    return asyncio.run(all_bots())
