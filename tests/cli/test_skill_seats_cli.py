"""``lehavre skill --seats`` end to end on a few cheap games (tiny node budgets): the table at 80
columns, the JSON and HTML, common seeds across levels, resuming, and clear messages for bad lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from core.lab import playtest as pt

runner = CliRunner()
LEVELS = "ai:easy@nodes=20,ai:easy@nodes=40"


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_seat_curve_end_to_end(tmp_path: Path, data_dir: Path) -> None:
    db, out, html = tmp_path / "s.db", tmp_path / "s.json", tmp_path / "s.html"
    args = ("skill", "inland", "--seats", "--levels", LEVELS, "--games", "3,2", "--noise", "2", "--seed", "5")
    result = invoke(*args, "--db", db, "--json", out, "--html", html)
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("Seat balance by skill") : result.output.index("Runs stored")]
    assert max(len(line.rstrip()) for line in table.splitlines()) <= 80
    assert "ai:easy@nodes=20" in table and "Cochran-Armitage trend test" in " ".join(table.split())
    curve = json.loads(out.read_text())["curves"][0]
    assert [lv["level"] for lv in curve["levels"]] == LEVELS.split(",")
    assert [lv["games"] for lv in curve["levels"]] == [3, 2]
    for lv in curve["levels"]:
        assert lv["first_wins"] + lv["second_wins"] + lv["ties"] == lv["games"]
    assert 'id="chart-seat-curve"' in html.read_text()
    # a mirror per level, noise on, and game i of every level set up from the same seed
    with pt.Store(db) as store:
        runs = {r.config.agents[0]: r for r in store.runs()}
        assert {tuple(r.config.agents) for r in runs.values()} == {(s, s) for s in LEVELS.split(",")}
        assert {r.config.noise for r in runs.values()} == {2.0}
        seeds = [[g["seed"] for g in store.games(r.id)] for r in runs.values()]
    assert seeds[0][:2] == seeds[1][:2]
    again = invoke(*args, "--db", db, "--json", tmp_path / "t.json")
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "t.json").read_text())["curves"] == [curve]  # resumed: nothing played anew


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--seats", "--levels", "easy,expert"), "unknown level 'expert' in --levels"),
        (("--seats", "--levels", "easy,normal", "--games", "4,2,1"), "--games gives 3 counts"),
        (("--seats", "--games", "many"), "--games takes whole numbers >= 1"),
        (("--levels", "easy"), "--levels goes with --seats"),
        (("--html", "x.html"), "--html goes with --seats"),
        (("--games", "4,2"), "--games takes one count per step without --seats"),
        (("--seats", "--buildings", "nowhere.json"), "building file 'nowhere.json' does not exist"),
    ],
)
def test_bad_input_gets_a_clear_message(tmp_path: Path, data_dir: Path, extra: tuple[str, ...], message: str) -> None:
    result = invoke("skill", "inland", *extra, "--db", tmp_path / "e.db")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
