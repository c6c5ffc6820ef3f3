"""The base game's AI: evaluation, search actions, fair play, levels, every player count.

Rules cited (seeds/000_3a1c2d85c0e157da.txt):
"Setup and explanation of components" 3 (supply tiles shuffled face down) and
8 (six special buildings face down); "End of a round", "Feeding phase"
(food due, ships reduce it, each franc counts as 1 food); "Loan cards" (4
francs per loan, -7 at the end); "Game end and winner" (wealth).
"""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from base_game import RULESET
from base_game import cards as K
from base_game.ai import BASE_LEVELS
from base_game.evaluate import evaluate, evaluation_terms, search_actions
from core.agents import make_agent
from core.search import SearchAgent

TILES = [3, 1, 4, 7, 5, 2, 6]
SPECIALS = ["Farm", "Football Stadium", "Steelworks", "Zoo", "Luxury Yacht", "Town Square"]


def _game(tiles=TILES, specials=SPECIALS, players=2):
    return RULESET.new_game(5, {"players": players, "supply_tiles": tiles, "special_pile": specials})


def _random_states(seed: int, count: int, players: int = 2):
    """Positions from a random game (sales rarely, so games stay sensible)."""
    s = RULESET.new_game(seed, {"players": players})
    rng = random.Random(seed)
    out = []
    while not s.is_terminal() and len(out) < count:
        acts = s.legal_actions()
        keep = [a for a in acts if not str(a).startswith("sell")]
        s.apply_action(rng.choice(keep or acts))
        out.append(s.clone())
    return out


# --------------------------------------------------------------- fair play
def test_special_pile_names_are_real_cards():
    for name in SPECIALS:
        assert name.lower() in K.BY_NAME


def test_determinize_does_not_depend_on_hidden_order():
    """Setup 3 and 8: the face-down supply tiles and special buildings are
    unknown; two games differing only in their order look the same to a
    player after determinisation with the same random numbers."""
    a = _game()
    b = _game(tiles=TILES[:1] + list(reversed(TILES[1:])), specials=list(reversed(SPECIALS)))
    assert a.supply_tiles != b.supply_tiles and a.special_pile != b.special_pile
    assert a.supply_tiles[: a.tiles_revealed] == b.supply_tiles[: b.tiles_revealed]
    for p in range(2):
        assert a.determinize(p, random.Random(9)).key() == b.determinize(p, random.Random(9)).key()


def test_first_decision_is_the_same_whatever_the_hidden_order():
    """Setup 3 and 8: same game but for the order of the face-down supply
    tiles and of the special pile: the AI's first decision, its score and its
    whole ranking of alternatives are identical."""
    a = _game()
    b = _game(tiles=TILES[:1] + TILES[4:] + TILES[1:4], specials=SPECIALS[3:] + SPECIALS[:3])
    assert a.legal_actions() == b.legal_actions()
    ia, ib = make_agent("ai:easy", 3), make_agent("ai:easy", 3)
    assert ia.choose(a) == ib.choose(b)
    assert ia.last_info["alternatives"] == ib.last_info["alternatives"]
    assert ia.last_info["nodes"] == ib.last_info["nodes"] > 0


def test_later_decision_is_the_same_whatever_the_hidden_order():
    """The same after a few identical moves, while only the first tiles are
    face up (Setup 3: a tile is turned over when a ship marker reaches it)."""
    tiles_b = TILES[:3] + list(reversed(TILES[3:]))
    a, b = _game(), _game(tiles=tiles_b, specials=SPECIALS[1:] + SPECIALS[:1])
    ai = make_agent("ai:easy", 4)
    while a.tiles_revealed < 3:
        act = ai.choose(a)
        assert act in b.legal_actions()
        a.apply_action(act)
        b.apply_action(act)
    assert a.supply_tiles[: a.tiles_revealed] == b.supply_tiles[: b.tiles_revealed]
    assert a.supply_tiles != b.supply_tiles
    ia, ib = make_agent("ai:easy", 8), make_agent("ai:easy", 8)
    assert ia.choose(a) == ib.choose(b)
    assert ia.last_info["alternatives"] == ib.last_info["alternatives"]


def test_marketplace_peek_is_kept_only_by_the_player_who_peeked():
    """Marketplace (seeds/000, Buildings overview): its user looks at the top
    two special buildings; that player keeps them on top when sampling, the
    others see only a face-down pile whose order does not matter."""
    a = _game()
    b = _game(specials=SPECIALS[:2] + list(reversed(SPECIALS[2:])))
    for s in (a, b):
        s.peek_known[0] = tuple(s.special_pile[:2])
    for s in (a, b):
        d = s.determinize(0, random.Random(1))
        assert d.special_pile[:2] == s.special_pile[:2]
        assert len(d.special_pile) == len(s.special_pile)
        assert d.peek_known[1] == ()
    # for player 1 (who did not peek) and for player 0 (who knows only the top two)
    # the rest of the pile is sampled the same way in both games
    for p in (0, 1):
        assert a.determinize(p, random.Random(2)).special_pile == b.determinize(p, random.Random(2)).special_pile


# --------------------------------------------------------------- evaluation
def test_terms_add_up_and_equal_the_wealth_margin_at_the_end():
    """Game end and winner: at the end the evaluation is the true wealth margin."""
    for s in _random_states(3, 400)[::40]:
        for p in range(2):
            terms = evaluation_terms(s, p)
            assert abs(sum(terms.values()) - evaluate(s, p)) < 1e-6
    s = RULESET.new_game(4, {"players": 2})
    rng = random.Random(4)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    w = s.wealth()
    assert evaluate(s, 0) == w[0] - w[1]
    assert set(evaluation_terms(s, 0)) >= {"wealth", "food", "goods", "loan risk", "buildings"}


def test_food_short_of_the_feeding_costs_more_than_the_food_itself():
    """Feeding phase / Loan cards: a player who cannot pay must borrow (4
    francs per loan, 7 back), so each food point short is worth more than a
    franc; once covered, a fish is worth a franc again."""
    s = _game()
    s.francs[0] = 0
    due = s.food_due(0)
    assert due > 0
    base = evaluation_terms(s, 0)
    assert base["loan risk"] < 0
    s.goods[0][K.FISH] += 1
    plus_one = evaluation_terms(s, 0)
    gain_short = sum(plus_one.values()) - sum(base.values())
    assert gain_short > 1.0
    s.goods[0][K.FISH] += due + 5
    covered = evaluation_terms(s, 0)
    assert covered["loan risk"] == 0
    s.goods[0][K.FISH] += 1
    gain_covered = sum(evaluation_terms(s, 0).values()) - sum(covered.values())
    assert gain_covered == pytest.approx(1.0)


def test_a_ship_is_worth_more_than_its_value_early():
    """Feeding phase: each ship reduces the food due in every round left, so
    an early ship is worth its value plus the food it saves."""
    s = _game()
    before = evaluation_terms(s, 0)
    s.ship_piles["wooden"].append(0)  # not needed: give the card directly
    s.ship_piles["wooden"].pop()
    s.ships[0].append(0)  # ship card 0 is round 1's wooden ship
    after = evaluation_terms(s, 0)
    assert after["food"] > before["food"] + 10
    assert after["wealth"] == before["wealth"] + s.ship_cards[0][1]


def test_loans_cost_wealth_and_interest():
    """Loan cards: -7 francs each at the end, interest meanwhile."""
    s = _game()
    before = evaluation_terms(s, 0)
    s.loans[0] += 1
    after = evaluation_terms(s, 0)
    assert after["wealth"] == before["wealth"] - 7
    assert after["loans"] < before["loans"]


# --------------------------------------------------------------- search actions
def test_search_actions_are_a_legal_subset_and_never_sell_in_a_turn():
    """Selling (Additional actions) turns a card into half its value: the
    search leaves it out of ordinary turns, keeps everything else."""
    seen_sale = False
    for s in _random_states(11, 600):
        if s.is_terminal():
            continue
        legal = s.legal_actions()
        acts = search_actions(s)
        assert acts and set(acts) <= set(legal)
        if s.decision in ("main", "after", "final", "after_final"):
            seen_sale = seen_sale or any(str(a).startswith("sell") for a in legal)
            assert not any(str(a).startswith("sell") for a in acts)
            assert [a for a in legal if not str(a).startswith("sell")] == acts
    assert seen_sale


def test_debt_that_can_be_paid_is_paid_without_selling():
    """Feeding phase: a player who can pay is offered the ways to pay (and,
    in the basic rules, sales); the search only pays."""
    found = 0
    for seed in range(20):
        for s in _random_states(seed, 400):
            if s.decision == "debt" and any(str(a).startswith("pay") for a in s.legal_actions()):
                acts = search_actions(s)
                assert all(str(a).startswith("pay") for a in acts)
                found += 1
        if found >= 3:
            break
    assert found >= 3


def test_trivial_decision_is_answered_without_searching():
    """A debt with a single way to pay (besides sales) is played at once."""
    agent = make_agent("ai:normal", 1)
    for seed in range(30):
        for s in _random_states(seed, 500):
            if len(s.legal_actions()) > 1 and len(search_actions(s)) == 1:
                act = agent.choose(s)
                assert act == search_actions(s)[0]
                assert agent.last_info["nodes"] == 0 and agent.last_info["forced"]
                return
    raise AssertionError("no trivial decision found in 30 random games")


# --------------------------------------------------------------- agent
def test_make_agent_ai_gives_the_base_levels():
    s = _game()
    for spec, level in (("ai", "normal"), ("ai:easy", "easy"), ("ai:normal", "normal"), ("ai:hard", "hard")):
        for agent in (make_agent(spec, 0, "base"), make_agent(spec, 0)):
            assert isinstance(agent, SearchAgent)
            assert agent.name == f"ai:{level}"
            assert agent.level_for(s) == BASE_LEVELS[level]


def test_last_info_has_the_shape_hint_and_why_use():
    s = _game()
    agent = make_agent("ai:easy", 2)
    act = agent.choose(s)
    info = agent.last_info
    assert act in s.legal_actions() and info["action"] == str(act)
    for key in ("pv", "score", "depth", "nodes", "alternatives", "terms", "level"):
        assert key in info
    assert info["pv"][0] == str(act)
    assert "food" in info["terms"]
    from cli.play import explain_info

    assert explain_info(info, "Hint: the AI", "would play") is not None


def test_think_time_searches_on_time():
    s = _game()
    agent = SearchAgent(level="normal", think_time=0.05, seed=1, game=RULESET)
    assert agent.choose(s) in s.legal_actions()
    assert agent.last_info["nodes"] > 0


def test_inland_port_is_searched_as_before():
    """On another game the agent is core.search's SearchAgent unchanged."""
    from inland_port import RULESET as INLAND

    s = INLAND.new_game(3)
    a = make_agent("ai:easy", 5)
    b = SearchAgent(level="easy", seed=5)
    assert str(a.choose(s)) == str(b.choose(s))
    assert a.last_info["alternatives"] == b.last_info["alternatives"]


#: the full game with 3-5 players is the longest (10 s at 5): in the long runs
_WATCHED = [(n, True) for n in range(1, 6)] + [
    (n, False) if n < 3 else pytest.param(n, False, marks=pytest.mark.slow) for n in range(1, 6)
]


@pytest.mark.parametrize("players, short", _WATCHED)
def test_watch_runs_every_player_count_and_version_with_ai_easy(players, short):
    """lehavre base --watch --agents ai:easy,... plays to the end (Game end and winner)."""
    from cli.app import app

    args = [
        "base",
        "--watch",
        "--agents",
        ",".join(["ai:easy"] * players),
        "--players",
        str(players),
        "--seed",
        str(20 + players),
    ]
    if short:
        args.append("--short")
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "wins" in res.output.lower() or "winner" in res.output.lower() or "wealth" in res.output.lower()
