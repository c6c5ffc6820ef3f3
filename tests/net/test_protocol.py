"""The protocol: a bad, oversized or out-of-turn message is refused with a reason and changes
nothing (fuzzed with hypothesis); undo between people; a person away too long."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from cli.table_words import undo_absent_words
from core.net.messages import (
    MAX_CLIENT_MESSAGE,
    PROTOCOL_VERSION,
    Answer,
    Hello,
    Leave,
    MessageError,
    Notice,
    Play,
    Position,
    Question,
    Refused,
    Save,
    Undo,
    Welcome,
    encode,
    parse_client,
    parse_server,
)
from core.net.view import ViewReplay
from core.protocol import ActionError, parse_action
from core.table import seat_agent
from tests.net.conftest import LOOPBACK, bot, code_of, hosted, make_table, play_bots


class Client:
    """A blocking client for the tests: joins with a code and reads until the message it wants."""

    def __init__(self, port: int, code: str, watch: bool = False) -> None:
        self.ws = connect(f"ws://{LOOPBACK}:{port}", proxy=None, open_timeout=5, legacy=True)
        self.ws.send(encode(Hello(code=code, watch=watch)))
        self.welcome = self.next(Welcome, Refused)

    def next(self, *kinds):
        while True:
            msg = parse_server(self.ws.recv(timeout=10))
            if isinstance(msg, kinds):
                return msg

    def position(self) -> Position:
        return self.next(Position)

    def close(self) -> None:
        self.ws.close()


@pytest.mark.parametrize(
    "raw, why",
    [
        ("{", "not JSON"),
        ("[1]", "JSON object"),
        ('{"version": 9, "type": "play"}', "protocol version 9"),
        (f'{{"version": {PROTOCOL_VERSION}, "type": "dance"}}', "not a valid client message"),
        (f'{{"version": {PROTOCOL_VERSION}, "type": "play", "action": "", "ply": 0}}', "play.action"),
        (f'{{"version": {PROTOCOL_VERSION}, "type": "play", "action": "end", "ply": -1}}', "play.ply"),
        ("x" * (MAX_CLIENT_MESSAGE + 1), "at most 4096"),
    ],
)
def test_a_bad_message_is_refused_with_its_reason(raw, why):
    with pytest.raises(MessageError, match=why):
        parse_client(raw)


def test_wrong_code_and_no_hello_are_refused(data_dir):
    table = make_table("inland", "remote,remote", 3)
    with hosted(table) as (_, port):
        assert "unknown code" in Client(port, "nope-nope-nope").welcome.reason
        ws = connect(f"ws://{LOOPBACK}:{port}", proxy=None, legacy=True)
        ws.send(encode(Play(action="end", ply=0)))
        assert "first message is 'hello'" in parse_server(ws.recv(timeout=10)).reason
        ws.close()


def test_out_of_turn_and_stale_moves_are_refused(data_dir):
    table = make_table("inland", "remote,remote", 3)
    with hosted(table) as (_, port):
        first, second = Client(port, code_of(table, 0)), Client(port, code_of(table, 1))
        pos = second.position()
        state = ViewReplay(table.spec).update(pos.seed, pos.options, pos.actions)
        legal = str(state.legal_actions()[0])
        second.ws.send(encode(Play(action=legal, ply=0)))
        assert "not your turn: Player 1 is to play" in second.next(Refused).reason
        first.ws.send(encode(Play(action=legal, ply=5)))
        assert "moved on" in first.next(Refused).reason
        watcher = Client(port, code_of(table, 0), watch=True)
        assert watcher.welcome.seat is None
        watcher.ws.send(encode(Play(action=legal, ply=0)))
        assert "spectator" in watcher.next(Refused).reason
        assert table.state.history == []
        for c in (first, second, watcher):
            c.close()


def _messages():
    """Anything a client might send: junk, JSON of any shape, and well-formed messages with bad content."""
    oversized = st.integers(MAX_CLIENT_MESSAGE + 1, 3 * MAX_CLIENT_MESSAGE).map(lambda n: "{" * n)
    junk = st.one_of(st.text(max_size=300), st.binary(max_size=300), oversized)
    values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )
    shapes = st.dictionaries(
        st.sampled_from(["version", "type", "action", "ply", "code", "question", "choice", "name", "x"]),
        values,
        max_size=5,
    ).map(json.dumps)
    typed = st.one_of(
        st.builds(Play, action=st.text(min_size=1, max_size=60), ply=st.integers(0, 50)),
        st.builds(Undo, ply=st.integers(0, 50)),
        st.builds(Answer, question=st.integers(0, 9), choice=st.sampled_from(["yes", "no", "ai", "stop", "maybe"])),
        st.builds(Save, name=st.text(max_size=20)),
        st.builds(Hello, code=st.text(min_size=1, max_size=20)),
    ).map(encode)
    return st.one_of(junk, shapes, typed)


def test_fuzzed_messages_are_refused_and_change_nothing(data_dir):
    """At least 1,000 messages (hypothesis): each gets a reason back, the position stays as it was."""
    table = make_table("inland", "remote,remote", 8)
    with hosted(table) as (_, port):
        client = Client(port, code_of(table, 0))
        client.position()
        sent = [0]

        @settings(max_examples=1100, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(_messages())
        def one(raw):
            if isinstance(raw, str) and raw.startswith(f'{{"version":{PROTOCOL_VERSION},"type":"play"'):
                try:  # a legal move would (rightly) be played: only bad ones here
                    parse_action(table.state, json.loads(raw)["action"])
                    return
                except ActionError:
                    pass
            client.ws.send(raw)
            reply = client.next(Refused)
            assert reply.reason
            sent[0] += 1

        one()
        assert sent[0] >= 1000
        assert table.state.history == [] and table.record.actions == []
        client.ws.send(encode(Undo(ply=0)))
        assert "nothing to undo" in client.next(Refused).reason
        client.close()


def test_undo_asks_the_other_person(data_dir):
    table = make_table("inland", "remote,remote", 4)
    with hosted(table) as (_, port):
        a, b = Client(port, code_of(table, 0)), Client(port, code_of(table, 1))
        replay = ViewReplay(table.spec)
        while True:  # Player 1 plays their turn (a main action, then 'end' or a sale)
            pos = a.position()
            state = replay.update(pos.seed, pos.options, pos.actions)
            if state.current_player() != 0:
                break
            a.ws.send(encode(Play(action=str(state.legal_actions()[-1]), ply=len(state.history))))
        played = list(state.history)
        assert played == table.state.history
        b.ws.send(encode(Undo(ply=len(played))))
        q = a.next(Question)
        # the server sends the facts (who asks, whose decisions go back), the client words them
        assert q.undo is not None and (q.undo.asker, q.undo.maker) == (1, 0)
        assert [seat for seat, _ in q.undo.taken] == [0] * len(q.undo.taken) and q.undo.taken
        assert q.text == ""
        a.ws.send(encode(Answer(question=q.id, choice="no")))
        assert "did not agree" in b.next(Refused).reason
        assert table.state.history == played
        b.ws.send(encode(Undo(ply=len(played))))
        q = a.next(Question)
        a.ws.send(encode(Answer(question=q.id, choice="yes")))
        undone = b.position()
        while not undone.undone:
            undone = b.position()
        # the last decision of a person goes back (as at one keyboard): Player 1's last action
        assert undone.undone == played[-1:] and undone.actions == played[:-1] == table.record.actions
        a.close()
        b.close()


def test_an_undo_whose_maker_is_away_is_refused_with_its_facts(data_dir):
    """The server sends the facts of an undo its maker cannot agree to (who asked, whose decisions): the
    client words them ('Player 1 decided last (...) and is not here to agree')."""
    table = make_table("inland", "remote,remote", 4)
    with hosted(table) as (_, port):
        a, b = Client(port, code_of(table, 0)), Client(port, code_of(table, 1))
        replay = ViewReplay(table.spec)
        pos = a.position()
        state = replay.update(pos.seed, pos.options, pos.actions)
        a.ws.send(encode(Play(action=str(state.legal_actions()[-1]), ply=0)))
        while len(b.position().actions) < 1:
            pass
        a.close()
        while "Player 1 lost the connection" not in b.next(Notice).text:
            pass
        b.ws.send(encode(Undo(ply=len(table.state.history))))
        refused = b.next(Refused)
        assert refused.undo is not None and refused.reason == ""
        assert (refused.undo.asker, refused.undo.maker) == (1, 0)
        taken = [tuple(t) for t in refused.undo.taken]
        assert taken == [(0, table.state.history[0])]
        assert undo_absent_words(taken, ["Player 1", "Player 2"], 1, 0) == (
            f"Player 1 decided last (Player 1's '{table.state.history[0]}') and is not here to agree"
        )
        b.close()


def test_a_person_away_too_long_is_replaced_by_the_ai_when_the_others_choose_it(data_dir):
    table = make_table("inland", "remote,remote", 6, timeout=1.0)
    with hosted(table) as (_, port):
        away = Client(port, code_of(table, 1))
        away.close()
        answers = asyncio.run(asyncio.wait_for(bot(port, code_of(table, 0), 1, answer="ai", stop_after=4), 60))
        assert answers == "dropped"
        # the person who was away comes back with their code: a spectator now, told so plainly
        back = Client(port, code_of(table, 1))
        assert back.welcome.seat is None
        told = back.next(Notice).text
        assert "ai:normal plays Player 2's seat now" in told and "You are a spectator of this game" in told
        back.close()
    assert table.seats[1].kind == "ai:normal"
    assert table.record.players[1].agent == "ai:normal"
    movers = [s.current_player() for s in table.positions]
    assert 1 in movers  # the AI played the seat


def test_the_others_may_save_and_stop(data_dir):
    table = make_table("inland", "remote,remote", 6, timeout=1.0)
    with hosted(table) as (_, port):
        Client(port, code_of(table, 1)).close()
        text = asyncio.run(asyncio.wait_for(bot(port, code_of(table, 0), 1, answer="stop"), 60))
    assert "stopped the game: it is saved" in text and "lehavre host --resume" in text
    assert table.save_path.exists()


def test_a_person_who_leaves_on_purpose_is_reported_as_having_left(data_dir):
    """'quit' sends 'leave' before closing: the others read that the person left (not "reconnecting"),
    and the seat's status says so until they come back with their code."""
    table = make_table("inland", "remote,remote", 5)
    with hosted(table) as (_, port):
        a, b = Client(port, code_of(table, 0)), Client(port, code_of(table, 1))
        b.ws.send(encode(Leave()))
        b.close()
        told = a.next(Notice).text
        while "Player 2" not in told or "joined" in told:
            told = a.next(Notice).text
        assert told.startswith("Player 2 left the game") and "reconnecting" not in told
        assert a.position().seats[1].status == "left the game"
        back = Client(port, code_of(table, 1))
        assert a.next(Notice).text == "Player 2 is back."
        assert a.position().seats[1].status == "connected"
        a.close()
        back.close()


def test_the_servers_agents_are_seeded_by_the_one_derivation(data_dir):
    """A hosted game's agent plays as the one table's agent at its seat (core.table.seat_agent): its
    every decision is the one an agent made with that seed makes in the same positions."""
    table = make_table("inland", "remote,random", 9)
    with hosted(table) as (_, port):
        assert play_bots(port, [code_of(table, 0)], timeout=60) == ["The game is over."]
    agent = seat_agent(table.spec, 9, 1, "random")
    for before, text in zip(table.positions, table.state.history, strict=True):
        if before.current_player() == 1:
            assert str(agent.choose(before.clone())) == text
