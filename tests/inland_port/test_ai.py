"""The ``ai`` agent (core/search.py) playing the Inland Port."""

from __future__ import annotations

import random

from core.agents import make_agent
from core.search import SearchAgent
from inland_port import RULESET
from tests.inland_port.helpers import position

#: unowned, so goods stay worthless at the end; nobody can afford them here
FACTORIES = ("Fish Factory", "Grain Silo", "Wood Factory", "Brick Factory")


#: every counter on the bottom-left cell 0+0: holds nothing (seeds/004: row value + column value)
EMPTY = ("0+0",) * 4


def _final_position(my_francs: int, actions: int, mine=(), opp_goods=EMPTY, opp_francs=1, free=()):
    """Round L with ``actions`` left, seat 0 to move.  Every building not in
    ``mine`` or ``free`` belongs to the opponent and stands in sector 0, so the
    opponent can build nothing and use none of its own buildings."""
    s = position(
        goods=EMPTY, francs=my_francs, opp_goods=opp_goods, opp_francs=opp_francs, round_letter="L", buildings=mine
    )
    taken = {name for name, _, _ in mine} | set(free)
    for i, b in enumerate(s.catalog.buildings):
        if b.name not in taken:
            s.owner[i], s.sector[i] = 1, 0
    s.actions_left = actions
    s._legal = None
    return s


def _final_margin(s, first_action: str, agents) -> int:
    s = s.clone()
    s.apply_action(next(a for a in s.legal_actions() if str(a) == first_action))
    while not s.is_terminal():
        s.apply_action(agents[s.current_player()].choose(s))
    w = s.wealth()
    return w[0] - w[1]


def test_finds_the_winning_last_action():
    """seeds/004 "End of the game": the richest player wins; Zoo 20 for 16 francs
    (REFERENCE.md data) turns a 2-franc deficit into a win, Shipping Line does not."""
    s = _final_position(my_francs=16, actions=1, free=("Zoo", "Shipping Line"))
    w = s.wealth()
    s.francs[1] += w[0] - w[1] + 2  # seat 0 is 2 behind
    s._legal = None
    assert s.wealth()[0] - s.wealth()[1] == -2
    agent = SearchAgent("normal", seed=0)
    assert str(agent.choose(s)) == "build Zoo"
    assert agent.last_info["score"] > 0


def test_sees_the_opponents_reply_two_plies_deep():
    """Building Zoo now (+4) lets the opponent use our Business Office in sector
    4+1 (seeds/004 "Use": 1 franc to us, 4 goods down-left for 5 francs each,
    +1 in 4+1) and win; using it ourselves (+1 franc) keeps it from them.
    The opponent's counters stand on 3+1, so each can step down-left (to 0+0)."""
    s = _final_position(
        my_francs=16, actions=2, mine=[("Business Office", 0, "4+1")], opp_goods=("3+1",) * 4, free=("Zoo",) + FACTORIES
    )
    w = s.wealth()
    s.francs[0] += w[1] - w[0]  # level the wealth
    s._legal = None
    assert s.wealth()[0] == s.wealth()[1]
    greedy = make_agent("greedy", 0)
    assert str(greedy.choose(s)) == "build Zoo"  # the trap: best after one ply
    agent = SearchAgent("normal", seed=0)
    choice = str(agent.choose(s))
    assert choice.startswith("use Business Office")
    reply = [make_agent("greedy", 1), make_agent("greedy", 1)]
    assert _final_margin(s, choice, reply) > 0
    assert _final_margin(s, "build Zoo", reply) < 0


def test_never_returns_an_illegal_action_over_a_whole_game():
    s = RULESET.new_game(3)
    ai = SearchAgent("easy", seed=3, max_nodes=250)
    rnd = make_agent("random", 4)
    while not s.is_terminal():
        if s.current_player() == 0:
            acted = s.acted
            a = ai.choose(s)
            assert a in s.legal_actions()
            assert ai.last_info["action"] == str(a)
            # seeds/004 "Main phase" / "Sell": one main action per turn, then only sales or 'end'
            assert (a.verb in ("sell", "end")) if acted else (a.verb != "end")
        else:
            a = rnd.choose(s)
        s.apply_action(a)
    assert s.main_action_count == 72


def test_choice_is_reproducible_from_the_seed_with_a_node_budget():
    s = RULESET.new_game(0)
    rng = random.Random(5)
    for _ in range(25):
        s.apply_action(rng.choice(s.legal_actions()))
    infos = []
    for _ in range(2):
        agent = SearchAgent("normal", seed=11, max_nodes=600)
        agent.choose(s)
        infos.append({k: agent.last_info[k] for k in ("action", "pv", "score", "depth", "nodes")})
    assert infos[0] == infos[1]


def test_last_info_carries_the_evaluation_terms_for_why():
    s = RULESET.new_game(0)
    agent = make_agent("ai:easy", 2)
    agent.choose(s)
    info = agent.last_info
    assert {"wealth", "goods", "wheel", "forced sale", "tempo"} <= set(info["terms"])
    assert info["pv"] and info["pv"][0] == info["action"]
    assert info["nodes"] > 0 and info["depth"] >= 1
