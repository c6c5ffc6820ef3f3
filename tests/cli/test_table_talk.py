"""Issue 13, points 3, 4, 6, 7 and the small things: undo between people, 'why' for the computer's whole
turn with every move's player, options that cannot go together, help that points only inside the
repository, and the small wording fixes."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from cli.play import labelled_pv
from core.protocol import parse_action
from core.records import load_record
from inland_port import RULESET

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str, input_text: str | None = None):
    return runner.invoke(app, list(args), input=input_text)


def flat(text: str) -> str:
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", text).split())


def only_save(data_dir: Path) -> Path:
    (path,) = (data_dir / "saves").glob("*.json")
    return path


# -- point 3: undo between people ------------------------------------------------------------


def test_undo_between_people_takes_back_only_your_own_decision_unless_the_other_agrees(data_dir):
    # base game, two people: P1 takes goods (still P1's turn), undoes it, takes again and ends; then P2 asks to undo
    r = invoke(
        "base",
        "--players",
        "2",
        "--humans",
        "2",
        "--seat",
        "first",
        "--seed",
        "4",
        input_text="1\nundo\n1\nend\nundo\nno\nhistory\nundo\nyes\nquit\n",
    )
    assert r.exit_code == 0, r.output
    out = flat(r.stdout)
    # P1's own decision, nobody else has decided since: taken back at once
    assert "Took back your 'take" in out
    # P2 asks: P1 decided last, so P1 must agree; 'no' keeps everything
    assert "This takes back Player 1's 'end' (Player 1 decided last; your own decisions stay)" in out
    assert "Player 2 asks to take back your 'end' (then you decide again)." in out
    assert "Nothing taken back: Player 2, it is still your move." in out
    assert re.search(r"\d+\. P1: end", out)  # still in the history after the refusal
    # 'yes': P1's decision is taken back and P1 decides again
    assert out.count("Took back ") == 2
    assert out.rindex("Took back Player 1's 'end'.") > out.rindex("Nothing taken back")
    record = load_record(only_save(data_dir))
    assert record.actions[-1].startswith("take") and "end" not in record.actions


def test_end_of_input_while_asked_to_agree_stops_cleanly_and_keeps_the_game(data_dir):
    r = invoke("base", "--players", "2", "--humans", "2", "--seat", "first", "--seed", "4", input_text="1\nend\nundo\n")
    assert r.exit_code == 0 and "End of input: the game is stopped" in flat(r.stdout)
    assert load_record(only_save(data_dir)).actions[-1] == "end"


def test_undo_against_the_computer_still_takes_back_its_replies(data_dir):
    r = invoke("inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text="1\nend\n1\nundo\nquit\n")
    assert r.exit_code == 0
    out = flat(r.stdout)
    assert "is asked to agree" not in out and re.search(r"Took back your '[^']+'", out)


# -- point 4: why for a whole turn, players labelled -------------------------------------------


def test_why_explains_every_decision_of_the_computers_turn_and_its_main_choice(data_dir):
    r = invoke(
        "base", "--opponent", "ai:easy", "--seat", "last", "--seed", "5", "--no-save", input_text="why\nhint\nquit\n"
    )
    assert r.exit_code == 0, r.output
    out = flat(r.stdout)
    m = re.search(r"Since your last decision the computer made (\d+) decisions:", out)
    assert m, out[-2000:]
    n = int(m.group(1))
    assert n >= 2  # a base-game turn: the main action, then ending the turn
    for i in range(1, n + 1):
        assert re.search(rf"\b{i}\. P1 ai:easy: \S", out)
    assert "P1 ai:easy's main choice: P1 ai:easy chose" in out
    main = re.search(r"P1 ai:easy chose (.+?) evaluation", out).group(1).strip()
    assert main != "end"  # the main choice is what the turn did, not closing it
    # the expected line names who makes every move it can follow from the position, and whose evaluation it
    # is; where the search's line goes through a re-dealt hidden supply tile the table cannot follow it, and
    # the rest is shown without a player (cli/explain.py, labelled_pv): the labelled moves come first
    why_line, hint_line = [m.split(" -> ") for m in re.findall(r"Expected line: (.+?)(?: \.\.\.)? Next best", out)]
    for line in (why_line, hint_line):
        named = [bool(re.match(r"P[12]: ", mv)) for mv in line]
        assert named[0] and named == sorted(named, reverse=True), (why_line, hint_line)
    assert why_line[0] == f"P1: {main}" and "for P1" in out
    # the hint is for the person at the keyboard (P2), and its line starts with P2's move
    hint = re.search(r"Hint: the AI would play (.+?) evaluation [-+.\d]+ for P2", out)
    assert hint and hint_line[0] == f"P2: {hint.group(1).strip()}"


def test_labelled_pv_follows_the_moves_and_stops_labelling_where_it_cannot():
    state = RULESET.new_game(3)
    first = str(state.legal_actions()[0])
    after = state.clone()
    after.apply_action(parse_action(after, first))
    second = str(after.legal_actions()[0])
    tag = lambda seat: f"S{seat + 1}"  # noqa: E731
    out = labelled_pv(state, [first, second, "build Nothing At All", second], tag)
    assert out[0] == f"S{state.current_player() + 1}: {first}"
    assert out[1] == f"S{after.current_player() + 1}: {second}"
    assert out[2:] == ["build Nothing At All", second]  # no player claimed for moves it cannot follow
    assert state.history == []  # the position itself is not touched


# -- point 6: options that cannot go together --------------------------------------------------


@pytest.mark.parametrize(
    "args, first, second",
    [
        (["base", "--resume", "--seed", "5"], "--resume", "--seed"),
        (["base", "--resume", "--players", "4"], "--resume", "--players"),
        (["base", "--load", "x", "--short"], "--load", "--short"),
        (["base", "--resume", "--opponent", "greedy"], "--resume", "--opponent"),
        (["base", "--watch", "--humans", "2"], "--watch", "--humans"),
        (["base", "--agents", "random,random", "--seat", "first"], "--agents", "--seat"),
        (["inland", "--resume", "--seed", "5"], "--resume", "--seed"),
        (["inland", "--load", "x", "--buildings", "b.json"], "--load", "--buildings"),
        (["inland", "--watch", "--opponent", "human"], "--watch", "--opponent"),
        (["inland", "--agents", "random,random", "--no-undo"], "--agents", "--no-undo"),
    ],
)
def test_options_that_cannot_go_together_are_refused_naming_both(args, first, second, data_dir):
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    out = flat(r.output)
    assert f"{first} and {second} cannot go together" in out and "Traceback" not in out


def test_options_that_do_go_together_are_still_accepted(data_dir):
    invoke("inland", "--opponent", "greedy", "--seed", "5", input_text="quit\n")
    r = invoke("inland", "--resume", "--no-undo", "--no-save", input_text="undo\nquit\n")
    assert r.exit_code == 0 and "Undo is switched off" in r.stdout


# -- point 7: help that points only inside the repository ------------------------------------------

OUTSIDE = re.compile(r"seeds/|REFERENCE\.md|\.\./shared")


@pytest.mark.parametrize(
    "args", [[], ["inland"], ["base"], ["replay"], ["playtest"], ["compare"], ["rules"], ["saves"]]
)
def test_help_never_points_outside_the_repository(args):
    r = invoke(*args, "--help")
    assert r.exit_code == 0 and not OUTSIDE.search(r.output), OUTSIDE.search(r.output)


@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        ["rules", "base"],
        ["rules", "base", "Fishery"],
        ["rules", "inland"],
        ["rules", "inland", "Wood Trader"],
    ],
)
def test_rules_never_point_outside_the_repository(args):
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    assert not OUTSIDE.search(r.output), OUTSIDE.search(r.output)


def test_the_rulings_ship_with_the_package_and_cite_the_rulebook_by_section(data_dir):
    r = invoke("rules")
    out = flat(r.stdout)
    assert r.exit_code == 0
    assert "the rulebook, Loan Cards" in out and "reconstructed" in out and "Inland Port" in out
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "rules.md" in pyproject["tool"]["setuptools"]["package-data"]["cli"]
    game = invoke("base", "--seed", "1", "--no-save", "--opponent", "greedy", input_text="help\nrules Fishery\nquit\n")
    assert game.exit_code == 0 and not OUTSIDE.search(game.stdout)


# -- the small things -------------------------------------------------------------------------


def test_no_one_francs_anywhere_in_a_whole_game():
    r = invoke("base", "--watch", "--agents", "greedy,random", "--players", "2", "--seed", "2")
    assert r.exit_code == 0
    assert not re.search(r"(?<![\d.])1 francs", r.stdout)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("inland:players=3", "Le Havre: The Inland Port is for 2 players, not 3"),
        ("base:players=9", "Le Havre is for 1 to 5 players, not 9"),
    ],
)
def test_a_player_count_the_game_is_not_made_for(spec, words, data_dir):
    r = invoke("compare", "--a", spec, "--b", "inland:agents=random,random", "--games", "1", "--agents", "random")
    assert r.exit_code == 2 and words in flat(r.output)


def test_option_errors_have_no_pydantic_prefix(data_dir):
    r = invoke(
        "compare",
        "--a",
        "base:players=2;expensive_loans=maybe",
        "--b",
        "inland:agents=random,random",
        "--games",
        "1",
        "--agents",
        "random",
    )
    out = flat(r.output)
    assert r.exit_code == 2 and "expensive_loans" in out and "(found 'maybe')" in out and "Value error" not in out


def test_playtest_progress_and_report_axes(data_dir, tmp_path):
    report = tmp_path / "r.html"
    r = invoke(
        "playtest", "inland", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--report", str(report)
    )
    assert r.exit_code == 0, r.output
    assert "elapsed" in r.output and "left" in r.output  # the clock says which time it is
    html = report.read_text()
    for title in (
        "final wealth of a player (francs)",
        "seat (seat 1 starts)",
        ">agent<",
        "game length (actions)",
        "share of games in which it was built or bought",
    ):
        assert title in html, title
    assert html.count('class="axis-title"') == 5


def test_watch_without_seed_draws_and_prints_a_seed(data_dir):
    a = json.loads(invoke("inland", "--agents", "random,random", "--json").stdout)
    b = json.loads(invoke("inland", "--agents", "random,random", "--json").stdout)
    assert a["seed"] != 0 and b["seed"] != 0 and a["seed"] != b["seed"]
    text = invoke("base", "--agents", "random,random")
    seed = int(re.search(r"seed (\d+)", text.stdout).group(1))
    assert seed != 0
    again = invoke("base", "--agents", "random,random", "--seed", str(seed))
    assert again.stdout == text.stdout  # the printed seed replays the game
