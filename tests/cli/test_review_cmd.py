"""``lehavre review`` (issue 19): finding the game, the screen at 80 columns, --json, --report,
the stored review that replay shows, and bad input.  Command-line behaviour only (no game rule
is asserted, so no rulebook passage is cited); small games and the easy reference keep it fast.
"""

from __future__ import annotations

import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli.app import app
from cli.prompt import review_offer
from cli.review_view import graph
from core.agents import make_agent
from core.lab.review import Decision, GameReview
from core.records import Seat, default_save_dir, record_from_state, save_record
from inland_port import RULESET

runner = CliRunner()


@pytest.fixture()
def saved(tmp_path, monkeypatch):
    """A short game (24 actions of greedy against random) saved as 'short' in a temporary data folder."""
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "80")
    state = RULESET.new_game(2)
    agents = [make_agent("greedy", 1, RULESET), make_agent("random", 2, RULESET)]
    while len(state.history) < 24:
        state.apply_action(agents[state.current_player()].choose(state.clone()))
    record = record_from_state("inland", None, 2, state, [Seat.of_agent("greedy"), Seat.of_agent("random")])
    save_record(record, tmp_path / "data" / "saves" / "short.json")
    return tmp_path


def test_review_json_report_and_replay(saved):
    r = runner.invoke(app, ["review", "short", "--level", "easy", "--json", "--report", str(saved / "r.html")])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["level"] == "easy" and len(data["decisions"]) == 24
    assert all(d["label"] in (None, "inaccuracy", "mistake", "blunder") for d in data["decisions"])
    assert [row["player"] for row in data["summary"]] == ["greedy", "random"]
    page = (saved / "r.html").read_text()
    assert "<svg" in page and 'id="chart-review"' in page and "Turning points" in page
    # the review is kept: the screen comes at once, and replay shows what each action lost
    screen = runner.invoke(app, ["review", "short", "--level", "easy"])
    assert screen.exit_code == 0 and "Francs lost against ai:easy" in screen.stdout
    assert max(len(line) for line in screen.stdout.splitlines()) <= 80
    replay = runner.invoke(app, ["replay", "short"], input="n\nn\nq\n")
    assert "(review, ai:easy)" in replay.stdout
    assert "lost nothing" in replay.stdout or "lost " in replay.stdout


def test_bad_input_is_refused_with_exit_2(saved):
    cases = [
        (["review"], "name a saved game"),
        (["review", "nosuch"], "no saved game named 'nosuch'"),
        (["review", "short", "--level", "superb"], "'superb' is not one of 'easy', 'normal', 'hard'"),
        (["review", "short", "--mistake", "1"], "in order"),
        (["review", "short", "--run", "1", "--game", "0"], "not both"),
        (["review", "--run", "1", "--game", "0", "--db", str(saved / "none.sqlite3")], "no playtest database"),
    ]
    for args, message in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert message in " ".join(r.output.split()), (args, r.output)


def test_graph_fits_80_columns_and_marks_the_blunder():
    decisions = [Decision(i, i % 2, "a", "a", float(i), float(i), 0.0, False) for i in range(150)]
    decisions[70] = Decision(70, 0, "bad", "good", 20.0, 5.0, 15.0, False)
    review = GameReview("inland", "k", ["Ann", "Bob"], "hard", "", decisions)
    console = Console(width=80, record=True, color_system=None)
    console.print(graph(review, 80))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    marks = next(line for line in lines if "x" in line and "marks" not in line)
    assert marks.count("x") == 1


def test_the_end_of_a_game_names_the_review_command(saved):
    assert review_offer(None) is None
    offer = review_offer(default_save_dir() / "short.json")
    assert offer is not None and offer.plain.endswith("lehavre review short")
    elsewhere = review_offer(saved / "mine.json")
    assert elsewhere is not None and elsewhere.plain.endswith(f"lehavre review {saved / 'mine.json'}")


def test_the_first_screen_is_a_summary_and_all_lists_every_labelled_decision(saved):
    """At 80x24 the review opens with a summary (players, accuracy, graph, turning points) and names
    the command that lists every labelled decision; --all shows them."""
    first = runner.invoke(app, ["review", "short", "--level", "easy"])
    assert first.exit_code == 0, first.output
    review = json.loads(runner.invoke(app, ["review", "short", "--level", "easy", "--json"]).stdout)
    labelled = [d for d in review["decisions"] if d["label"]]
    flat = " ".join(first.stdout.split())
    assert "Labelled decisions (" not in flat
    if labelled:
        assert "every one with its better line: lehavre review short --all" in flat
        full = runner.invoke(app, ["review", "short", "--level", "easy", "--all"])
        assert full.exit_code == 0 and f"Labelled decisions ({len(labelled)})" in full.stdout
        assert max(len(line) for line in full.stdout.splitlines()) <= 80
    else:
        assert "No decision lost enough to be labelled." in flat
