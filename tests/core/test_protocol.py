"""The game protocol's generic parts: the action parser and agents, on the Inland Port."""

import pytest

from base_game import RULESET as BASE
from core.agents import AgentSpecError, make_agent, parse_agent_list
from core.protocol import ActionError, normalize_text, parse_action
from inland_port import RULESET


def test_parse_canonical_prefix_case_and_spacing():
    s = RULESET.new_game(0)
    # the canonical text says where each paying counter goes (seeds/004, "There is no change")
    assert str(parse_action(s, "build wood company")) == "build Wood Company: clay to 0+2"
    assert str(parse_action(s, "  BUILD   Farmland ")) == "build Farmland: wood to 0+1, clay to 0+2"
    assert str(parse_action(s, "build Grocery Store:fish to 0 + 2")) == "build Grocery Store: fish to 0+2"
    assert str(parse_action(s, "build hardware")) == "build Hardware Store: wood to 0+1, clay to 0+2"
    with pytest.raises(ActionError):
        parse_action(s, "build ha")  # a prefix ends at a word boundary
    assert normalize_text("use Masons\u2019 Guild: fish,grain") == "use masons' guild: fish, grain"


def test_parse_errors_say_what_is_allowed():
    s = RULESET.new_game(0)
    with pytest.raises(ActionError, match="ambiguous"):
        parse_action(s, "build Grocery")
    with pytest.raises(ActionError, match=r"not an action.*Allowed now: build"):
        parse_action(s, "bulid Farm")
    with pytest.raises(ActionError, match="round B"):
        parse_action(s, "build Farm")
    with pytest.raises(ActionError, match="no building called"):
        parse_action(s, "build Eiffel Tower")
    with pytest.raises(ActionError, match="Empty"):
        parse_action(s, "   ")


def test_clone_is_independent_and_hash_stable():
    s = RULESET.new_game(0)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history == [] and c.history != []
    assert s.state_hash() == RULESET.new_game(5).state_hash()  # the seed changes nothing in the Inland Port setup
    assert s.state_hash() != c.state_hash() and len(s.state_hash()) == 32


def test_agents_play_legal_moves_deterministically():
    for spec in ("random", "greedy"):
        runs = []
        for _ in range(2):
            s, agents = RULESET.new_game(1), [make_agent(spec, 1), make_agent(spec, 2)]
            while not s.is_terminal():
                a = agents[s.current_player()].choose(s)
                assert a in s.legal_actions()
                s.apply_action(a)
            runs.append((s.history, s.wealth()))
        assert runs[0] == runs[1]


def test_agent_specs_are_checked():
    with pytest.raises(AgentSpecError, match="unknown agent 'foo'"):
        make_agent("foo")
    with pytest.raises(AgentSpecError, match="expected 2 agents"):
        parse_agent_list("random", 2)


def test_typos_get_a_suggestion_and_no_prompt_text():
    s = RULESET.new_game(0)
    with pytest.raises(ActionError, match=r"Did you mean 'build Wood Company'\?$") as err:
        parse_action(s, "biuld wood")
    assert "type 'help'" not in str(err.value)
    with pytest.raises(ActionError, match=r"Did you mean 'build Wood Company'\?$"):
        parse_action(s, "build wood compnay")
    with pytest.raises(ActionError, match=r"Did you mean 'build Grocery Store: fish to 0\+2'\?$"):
        parse_action(s, "biuld grocery: fish to 0+2")
    with pytest.raises(ActionError, match=r"Did you mean 'build'\?$"):
        parse_action(s, "bulid Farm")
    # a building the game knows is not a typo of another ("Farm" is not "Farmland")
    with pytest.raises(ActionError, match=r"round B; it is round A\. Allowed now: build\.$"):
        parse_action(s, "build Farm")
    with pytest.raises(ActionError, match=r"Allowed now: build\.$"):
        parse_action(s, "xyzzy")
    s.apply_action(parse_action(s, "build wood"))  # the main action taken: sell or end now
    with pytest.raises(ActionError, match=r"Did you mean 'end'\?$"):
        parse_action(s, "ednd")


def test_a_name_prefix_works_with_a_payment_too():
    # seeds/004 "Build": the Grocery Store is paid with food, each counter moved to a place
    s = RULESET.new_game(0)
    full = parse_action(s, "build Grocery Store: fish to 0+2")
    assert parse_action(s, "build grocery: fish to 0+2") == full
    assert parse_action(s, "BUILD  grocery:fish to 0 + 2") == full
    with pytest.raises(ActionError, match="not a legal action"):
        parse_action(s, "build gro: fish to 0+2")  # a prefix ends at a word boundary
    with pytest.raises(ActionError):
        parse_action(s, "build grocery: fish to 0+9")  # the payment part must match a way


def test_base_game_prefixes_and_typos():
    s = BASE.new_game(3)
    assert str(parse_action(s, "buy building")) == "buy Building Firm 1"
    with pytest.raises(ActionError, match=r"Did you mean 'take wood'\?$"):
        parse_action(s, "tkae wood")
