"""A soak: 20 games at once on one server, every seat a bot; each game ends and is saved whole."""

from __future__ import annotations

import asyncio

import pytest

from core import records
from tests.net.conftest import bot, code_of, hosted, make_table

GAMES = 20


@pytest.mark.slow
def test_twenty_concurrent_games_on_one_server(data_dir):
    tables = [make_table("inland" if k % 2 else "base", "remote,remote", 500 + k) for k in range(GAMES)]

    async def everyone() -> list[str]:
        jobs = [bot(port, code_of(t, s), 10 * k + s) for k, t in enumerate(tables) for s in (0, 1)]
        return list(await asyncio.wait_for(asyncio.gather(*jobs), 600))

    with hosted(*tables) as (_, port):
        ends = asyncio.run(everyone())
    assert ends == ["The game is over."] * (2 * GAMES)
    for t in tables:
        assert t.state.is_terminal()
        saved = records.load_record(t.save_path)  # verified: it replays to the same end
        assert saved.finished and saved.actions == t.state.history
