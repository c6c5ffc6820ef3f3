"""The ``lehavre base`` command and ``lehavre rules base`` (issue 4, part 6).

Rules cited where a rule shows on screen (seeds/000_3a1c2d85c0e157da.txt):
"Setup and explanation of components" 3 (supply tiles face down, turned over
when a ship reaches them), 6 (starting offers), 7 (5 francs and 1 coal), 8 (six
special buildings face down), 9 (the proposal piles, fanned so the bottom line
of each card shows); "Game end and winner" (wealth = buildings + ships + bonus
+ cash - 7 per loan).  Everything else is the command line: options, messages,
exit codes, reproducible output, saving and resuming.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from base_game import RULESET, GameOptions
from base_game import cards as K
from base_game.state import NOWHERE
from cli.app import app
from cli.play import Player, PlayLoop, Table
from cli.render_base import BaseRenderer, board
from cli.session import people_seats as human_seats
from core.agents import make_agent
from core.table import AGENT

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def run_cli(*args: str, input_text: str | None = None) -> subprocess.CompletedProcess:
    """The real console entry point in a subprocess (stdout is a pipe, not a TTY)."""
    env = dict(os.environ)
    env.update({"COLUMNS": "100"})
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        capture_output=True,
        text=True,
        env=env,
        input=input_text,
        timeout=120,
        cwd=ROOT,
    )


def invoke(*args: str, input_text: str | None = None):
    return runner.invoke(app, list(args), input=input_text)


def render(renderable, width: int = 100) -> str:
    con = Console(width=width, record=True, color_system=None, file=io.StringIO())
    con.print(renderable)
    return con.export_text()


# ---------------------------------------------------------------------------
# --watch: reproducible, every player count and both versions, JSON
# ---------------------------------------------------------------------------


def test_watch_prints_the_same_every_time():
    args = ("base", "--watch", "--agents", "random,greedy", "--players", "2", "--seed", "1")
    one, two = run_cli(*args), run_cli(*args)
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    assert "P1 random" in one.stdout and "P2 greedy" in one.stdout
    assert "Final wealth" in one.stdout and "The game is over" in one.stdout
    assert "Traceback" not in one.stdout + one.stderr
    # seeds/000 "End of a round" (harvest, feeding, the town builds, a new ship) and "Final stage"
    out = " ".join(one.stdout.split())
    assert "P1's turn (round 1, turn 1): supply tile" in out
    for r in range(1, 15):  # full game, 2 players: 14 rounds
        assert f"-- End of round {r}:" in out and f"-- Round {r} ends:" in out
    assert "-- The last round is over: one final action each" in out and "final P1 random:" in out


@pytest.mark.parametrize("short", [False, True])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_player_count_and_version_plays_to_the_end_with_json(players, short):
    """seeds/000 "Game end and winner": wealth = buildings + ships + bonus + cash - 7 per loan."""
    agents = ",".join(("random", "greedy")[s % 2] for s in range(players))
    args = ["base", "--watch", "--agents", agents, "--players", str(players), "--seed", str(10 + players), "--json"]
    if short:
        args.append("--short")
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    result = json.loads(r.stdout)
    assert set(result) == {"ruleset", "seed", "agents", "wealth", "breakdown", "winners", "actions"}
    assert result["ruleset"] == "base" and result["seed"] == 10 + players
    assert result["agents"] == agents.split(",")
    assert len(result["wealth"]) == len(result["breakdown"]) == players
    for w, parts in zip(result["wealth"], result["breakdown"], strict=False):
        assert w == sum(parts.values())
        assert set(parts) == {"buildings", "bonus", "ships", "francs", "loans"}
    best = max(result["wealth"])
    assert result["winners"] == [p for p, w in enumerate(result["wealth"]) if w == best]
    assert result["actions"] > 0


def test_watch_text_and_json_agree():
    text = invoke("base", "--agents", "greedy,random,greedy", "--players", "3", "--seed", "4", "--short")
    js = invoke("base", "--agents", "greedy,random,greedy", "--players", "3", "--seed", "4", "--short", "--json")
    assert text.exit_code == 0 and js.exit_code == 0
    result = json.loads(js.stdout)
    total_row = next(ln for ln in text.stdout.splitlines() if "total" in ln)
    assert [int(x) for x in re.findall(r"-?\d+", total_row)] == result["wealth"]
    # the agents' names are told apart by seat
    assert "P1 greedy" in text.stdout and "P3 greedy" in text.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["base", "--watch", "--agents", "random,greedy,random"], ["expected 2 agents", "--players is 2"]),
        (["base", "--watch", "--agents", "random", "--players", "3"], ["expected 3 agents", "--players is 3"]),
        (["base", "--agents", "random,robot"], ["unknown agent 'robot'"]),
        (["base", "--players", "6"], ["--players", "6 is out of range: give a number from 1 to 5"]),
        (["base", "--json"], ["--json needs --watch"]),
        (["base", "--humans", "3", "--players", "2"], ["--humans", "3 is not between 1 and the number of players (2)"]),
        (["base", "--humans", "0"], ["--humans", "0 is not between 1", "use --watch"]),
        (["base", "--opponent", "wizard"], ["unknown agent 'wizard'"]),
        (["base", "--watch", "--resume"], ["do not go with --watch"]),
    ],
)
def test_wrong_option_values_exit_2_with_a_clear_message(args, words):
    r = run_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    err = " ".join(r.stderr.replace("│", " ").split())
    for w in words:
        assert w in err, err
    assert "Traceback" not in r.stderr


def test_seats_of_the_people():
    assert human_seats("first", 4, 2, 7) == [0, 1]
    assert human_seats("last", 4, 2, 7) == [2, 3]
    drawn = human_seats("random", 5, 2, 7)
    assert drawn == human_seats("random", 5, 2, 7) and len(set(drawn)) == 2 and all(0 <= s < 5 for s in drawn)


# ---------------------------------------------------------------------------
# lehavre rules base [BUILDING]
# ---------------------------------------------------------------------------


def test_rules_base_prints_every_building_with_its_data():
    r = invoke("rules", "base")
    assert r.exit_code == 0, r.output
    for card in K.BUILDINGS:
        assert card.name in r.stdout
    assert "Sort order" in r.stdout and "Craftsman's" in r.stdout


def test_rules_base_one_building_in_detail():
    """seeds/000 Buildings Overview: Marketplace (N, sort order 01, value 6, entry fee 2 food or 1 franc, 2 wood)."""
    r = invoke("rules", "base", "market")
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.replace("│", " ").split())
    for piece in (
        "Marketplace",
        "type N (Non-building)",
        "sort order 01",
        "value 6",
        "price 6 francs",
        "entry fee 2 food or 1 franc",
        "materials 2 wood",
        "hammers 0",
        "fishermen 0",
        "provenance",
    ):
        assert piece in out, piece


def test_rules_base_unknown_or_ambiguous_building_and_no_buildings_file():
    r = run_cli("rules", "base", "Eiffel Tower")
    assert r.returncode == 2 and "no building called 'Eiffel Tower'" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("rules", "base", "wharf")
    assert r.returncode == 2 and "Wharf 1, Wharf 2" in r.stderr
    r = run_cli("rules", "base", "--buildings", "x.json")
    assert r.returncode == 2 and "--buildings is for 'inland' only" in r.stderr


# ---------------------------------------------------------------------------
# The board: setup, and no hidden information
# ---------------------------------------------------------------------------


def test_the_starting_board_shows_the_setup():
    """seeds/000 Setup 6-9: offers 2 francs, 2 fish, 2 wood, 1 clay (plus the first supply tile);
    5 francs and 1 coal each; six special buildings face down; three fanned proposal piles."""
    state = RULESET.new_game(5, GameOptions(players=3))
    text = render(board(state, [Player("You"), Player("Bot"), Player("Eve")], 0, 100))
    assert "Round 1 of 18 (full game, 3 players), turn 1 of 7" in text
    assert text.count("5 francs") == 3 and text.count("1 coal") == 3
    assert "Special buildings: 6 face down" in text
    assert text.count("?") >= 6  # six supply tiles still face down
    for pile in state.proposal_piles:
        for b in pile:
            assert K.NAME[b] in text  # fanned: every card in the piles can be read
    for name in ("Building Firm 1", "Building Firm 2", "Construction Firm"):
        assert name in text
    first = state.tile_data[state.supply_tiles[0]]
    offer = {"franc": 2, "fish": 2, "wood": 2, "clay": 1, "iron": 0, "grain": 0, "cattle": 0}
    for g in (first.first, first.second):
        offer[g] += 1
    shown = re.search(r"Offer: (.*?)\s*│", text).group(1)
    assert " ".join(shown.split()) == " ".join(f"{'francs' if g == 'franc' else g} {n}" for g, n in offer.items())


def _hidden_specials(state, viewer):
    known = set(state.peek_known[viewer]) if viewer is not None else set()
    if (
        viewer is not None
        and state.decision == "sub"
        and state.current_player() == viewer
        and state.stack[-1].effect == "peek"
    ):
        known |= set(state.special_pile[:2])
    return [b for b in state.special_pile if b not in known]


def _public_names(state):
    """Names of buildings a player may see (everything not in the face-down special pile)."""
    return sorted(
        (
            K.NAME[b]
            for b in range(K.NB)
            if b not in state.special_pile and (state.owner[b] != NOWHERE or any(b in p for p in state.proposal_piles))
        ),
        key=len,
        reverse=True,
    )


def _assert_nothing_hidden(text, state, viewer):
    for name in _public_names(state):
        text = text.replace(name, "#")
    for b in _hidden_specials(state, viewer):
        assert not re.search(rf"\b{re.escape(K.NAME[b])}\b", text), (K.NAME[b], viewer)
    for i in range(state.tiles_revealed, 7):
        d = state.tile_data[state.supply_tiles[i]]
        assert f"{d.first}+{d.second}" not in text
    tiles_row = next(ln for ln in text.splitlines() if "+" in ln and "tile" not in ln)
    assert tiles_row.count("?") == 7 - state.tiles_revealed


@pytest.mark.parametrize("players", [1, 2, 4])
def test_no_face_down_tile_or_special_pile_order_in_the_board_or_the_log(players):
    """seeds/000 Setup 3 and 8: the supply tiles lie face down until a ship reaches them; the
    special buildings lie face down (only the Marketplace's visitor looks at the top two)."""
    rng = random.Random(players)
    state = RULESET.new_game(players, GameOptions(players=players))
    agents = [make_agent("random", s) for s in range(players)]
    labels = [Player(f"P{s}") for s in range(players)]
    renderer = BaseRenderer(width=100)
    while not state.is_terminal():
        if rng.random() < 0.2 or (state.decision == "sub" and state.stack[-1].effect == "peek"):
            viewer = state.current_player()
            for v in (viewer, None, (viewer + 1) % players):
                _assert_nothing_hidden(render(board(state, labels, v, 100)), state, v)
        actor = state.current_player()
        action = agents[actor].choose(state.clone())
        before = state.clone()
        state.apply_action(action)
        log = render(_group(renderer.event_lines(state, labels, actor, action, before)))
        for name in _public_names(state):
            log = log.replace(name, "#")
        for b in state.special_pile:  # still face down after the action
            assert not re.search(rf"\b{re.escape(K.NAME[b])}\b", log), K.NAME[b]
    assert state.tiles_revealed == 7


def _group(lines):
    from rich.console import Group

    return Group(*lines)


def test_the_marketplace_visitor_sees_the_top_two_special_buildings_and_no_one_else():
    """seeds/000 Marketplace: after taking goods the player may look at the two top special buildings."""
    for seed in range(40):
        state = RULESET.new_game(seed, GameOptions(players=2))
        agents = [make_agent("random", s) for s in range(2)]
        while not state.is_terminal() and not (state.decision == "sub" and state.stack[-1].effect == "peek"):
            state.apply_action(agents[state.current_player()].choose(state.clone()))
        if not state.is_terminal():
            break
    else:  # pragma: no cover - the random games above always reach the Marketplace
        pytest.fail("no game reached the Marketplace's look at the special buildings")
    p = state.current_player()
    top = [K.NAME[b] for b in state.special_pile[:2]]
    players = [Player("A"), Player("B")]
    mine = render(board(state, players, p, 100))
    assert f"you look at the top two: {top[0]}, then {top[1]}" in " ".join(mine.split())
    for v in (1 - p, None):
        other = render(board(state, players, v, 100))
        assert top[0] not in other.replace("Charcoal Kiln", "") and "you look" not in other
    line = render(BaseRenderer(width=100).turn_line(state, players))
    assert top[0] in line and "keep or swap" in line


def test_renderer_fits_every_player_count_at_100_columns():
    for n in range(1, 6):
        state = RULESET.new_game(n, GameOptions(players=n))
        text = render(board(state, [Player(f"Player {s + 1}") for s in range(n)], 0, 100))
        assert all(len(ln) <= 100 for ln in text.splitlines())
        assert text.count("wealth now") == n
    narrow = render(board(RULESET.new_game(1, GameOptions(players=2)), [Player("A"), Player("B")], 0, 70), 70)
    assert all(len(ln) <= 70 for ln in narrow.splitlines())


# ---------------------------------------------------------------------------
# Playing at the keyboard (stdin piped; the pseudo-terminal test is test_base_pty.py)
# ---------------------------------------------------------------------------


def test_typo_illegal_help_rules_two_steps_and_end_of_input(data_dir):
    # seed 3, seat first: the first turn offers take francs/fish/wood/clay and buy Building Firm 1
    r = invoke(
        "base",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "3",
        input_text="tkae wood\nbuy Bank\n99\nhelp\nhelp actions\nrules Fishery\ntake wood\n",
    )
    out = r.stdout
    assert r.exit_code == 0, out[-2000:]
    assert "'tkae wood' is not a legal action here. Allowed now: buy, take" in " ".join(out.split())
    assert "Bank costs 40 francs; you have 5" in out
    assert "There is no choice 99" in out
    assert "Commands at the prompt" in out and "enter Fishery" in out
    assert "Take 3 fish" in out and "provenance" in out  # the Fishery's card
    assert "P1 You: takes 3 wood from the offer" in out
    assert "End of input: the game is stopped" in out and "--resume" in out
    assert "Traceback" not in out


def test_the_second_step_lists_the_buildings_to_enter(data_dir):
    # play greedy moves until a person could enter several buildings, then go into the second step
    state = RULESET.new_game(7, GameOptions(players=2))
    agents = [make_agent("random", 0), make_agent("random", 1)]
    moves: list[str] = []
    while True:
        enters = [a for a in state.legal_actions() if str(a).startswith("enter ")]
        if state.current_player() == 0 and state.decision == "main" and len(enters) >= 2:
            break
        a = agents[state.current_player()].choose(state.clone())
        moves.append(a)
        state.apply_action(a)
    lines = iter(["enter", "back", "enter a building", "x", "1", "quit"])
    con = Console(width=100, record=True, color_system=None, file=io.StringIO())
    players = [Player("You"), Player("Bot", AGENT, "random", make_agent("random", 1))]
    session = Table(RULESET, None, 7, state, players)
    loop = PlayLoop(session, BaseRenderer(console=con), con, read_line=lambda _p: next(lines))
    code = loop.run()
    out = " ".join(con.export_text().split())
    assert code == 0
    assert "enter a building" in out and "How? enter a building:" in out
    first = str(enters[0]).split(" ", 1)[1]
    assert f"1. {first}" in out and "town" in out
    assert "'x' is not one of the" in out
    assert re.search(rf"P1 You: enters (the town's|P2's) {re.escape(first)}", out)
    assert "You quit the game" in out


def test_a_whole_short_game_at_the_keyboard_reaches_the_final_wealth(data_dir):
    r = invoke(
        "base", "--short", "--opponent", "random", "--seat", "last", "--seed", "2", "--no-save", input_text="1\n" * 600
    )
    assert r.exit_code == 0, r.stdout[-2000:]
    assert "Final wealth" in r.stdout and ("Winner" in r.stdout or "Tie" in r.stdout)
    assert not (data_dir / "saves").exists() or not list((data_dir / "saves").iterdir())


def test_two_people_and_three_computers_then_quit_and_resume(data_dir):
    r = invoke(
        "base",
        "--players",
        "5",
        "--humans",
        "2",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "9",
        input_text="1\nquit\n",
    )
    assert r.exit_code == 0, r.stdout[-2000:]
    assert "People at this keyboard: P1, P2" in r.stdout and "P3 greedy" in r.stdout
    assert "Player 1, your move" in r.stdout and "You quit the game" in r.stdout
    saves = list((data_dir / "saves").glob("base-*.json"))
    assert len(saves) == 1
    again = invoke("base", "--resume", input_text="quit\n")
    assert again.exit_code == 0
    assert "continuing the game in" in again.stdout and "Player 1, your move" in again.stdout
