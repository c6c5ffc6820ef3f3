"""The ``lehavre inland`` and ``lehavre rules`` commands (issue 2, part 4).

Rules cited where a rule shows on screen: seeds/004_3575577254fe0f5a.txt
("Game setup": the starting warehouse; "Main phase": 3 actions in round A and
the building letters; "End of the game": wealth = building values + francs).
Everything else here is the command line: options, messages, exit codes,
reproducible output, saving and resuming.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import inland_port
from cli.app import app
from cli.play import Player, PlayLoop, Table, new_session
from cli.render_inland import InlandRenderer, board
from core import compiled
from core.agents import make_agent
from core.table import AGENT
from core.version import __version__
from inland_port import RULESET, InlandOptions
from inland_port.buildings import DEFAULT_PATH

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[")


def run_cli(
    *args: str, env_extra: dict[str, str] | None = None, input_text: str | None = None
) -> subprocess.CompletedProcess:
    """The real console entry point in a subprocess (stdout is a pipe, not a TTY)."""
    env = dict(os.environ)
    env.update({"COLUMNS": "100"})
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        capture_output=True,
        text=True,
        env=env,
        input=input_text,
        timeout=120,
        cwd=ROOT,
    )


runner = CliRunner()


def invoke(*args: str, input_text: str | None = None):
    return runner.invoke(app, list(args), input=input_text)


# ---------------------------------------------------------------------------
# --watch: reproducible, JSON
# ---------------------------------------------------------------------------


def test_watch_prints_the_same_every_time(tmp_path):
    a = run_cli(
        "inland", "--watch", "--agents", "random,greedy", "--seed", "1", env_extra={"LEHAVRE_DATA_DIR": str(tmp_path)}
    )
    b = run_cli(
        "inland", "--watch", "--agents", "random,greedy", "--seed", "1", env_extra={"LEHAVRE_DATA_DIR": str(tmp_path)}
    )
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert "Traceback" not in a.stdout + a.stderr
    # every one of the 72 main actions is printed (seeds/004 "Main phase": 3+3+3+5+5+5+7+7+7+9+9+9)
    numbers = [int(m.group(1)) for m in re.finditer(r"^[A-L]\s+(\d+)\s", a.stdout, re.M)]
    assert sorted(set(numbers)) == list(range(1, 73))
    assert "Final wealth" in a.stdout and "End of round L" in a.stdout
    assert not ANSI.search(a.stdout), "a pipe gets no colour codes"
    other_seed = run_cli(
        "inland", "--watch", "--agents", "random,greedy", "--seed", "2", env_extra={"LEHAVRE_DATA_DIR": str(tmp_path)}
    )
    assert other_seed.stdout != a.stdout


def test_watch_json_is_one_object_whose_wealth_matches_the_breakdown():
    r = invoke("inland", "--watch", "--agents", "random,greedy", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)  # the whole output is one JSON object
    assert set(out) == {"ruleset", "seed", "agents", "wealth", "breakdown", "winners", "actions"}
    assert out["ruleset"] == "inland" and out["seed"] == 1 and out["agents"] == ["random", "greedy"]
    # seeds/004 "End of the game": wealth is the sum of building values and francs
    assert out["wealth"] == [sum(b.values()) for b in out["breakdown"]]
    assert out["actions"] == 72
    best = max(out["wealth"])
    assert out["winners"] == [p for p, w in enumerate(out["wealth"]) if w == best]
    again = invoke("inland", "--watch", "--agents", "random,greedy", "--seed", "1", "--json")
    assert again.stdout == r.stdout


def test_agents_imply_watch_and_json_agrees_with_the_text_result():
    text = invoke("inland", "--agents", "greedy,random", "--seed", "4")
    js = json.loads(invoke("inland", "--agents", "greedy,random", "--seed", "4", "--json").stdout)
    assert text.exit_code == 0
    w = js["wealth"]
    assert re.search(rf"total\s+.\s+{w[0]}\s+.\s+{w[1]}", text.stdout), text.stdout[-800:]


# ---------------------------------------------------------------------------
# Bad options: Typer's usage error or a clear message, exit code 2
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, words",
    [
        (["inland", "--seat", "middle"], ["'middle' is not a seat", "first, last, random or a seat number"]),
        (["inland", "--agents", "foo,bar"], ["unknown agent 'foo'", "random"]),
        (["inland", "--agents", "random"], ["expected 2 agents"]),
        (["inland", "--watch", "--agents", "ai:superhuman,random"], ["unknown AI level"]),
        (["inland", "--opponent", "alien"], ["unknown agent", "human"]),
        (["inland", "--json"], ["--json needs --watch"]),
        (["inland", "--seed", "abc"], ["--seed", "'abc' is not a whole number"]),
        (["inland", "--watch", "--resume"], ["--resume"]),
        (["rules", "chess"], ["chess", "inland", "base"]),
    ],
)
def test_wrong_option_values_exit_2_with_a_clear_message(args, words):
    r = run_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    text = " ".join(re.sub(r"[\u2500-\u257f]", " ", r.stdout + r.stderr).split())  # without box lines
    for w in words:
        assert w in text, (w, text)
    assert "Traceback" not in text


def _broken_buildings(tmp_path: Path) -> Path:
    raw = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    raw["buildings"][5]["value"] = -3  # Farm
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    return p


def test_a_malformed_building_file_gives_file_building_field_and_exit_2(tmp_path):
    bad = _broken_buildings(tmp_path)
    for args in (
        ["inland", "--watch", "--agents", "random,random"],
        ["inland", "--opponent", "greedy"],
        ["rules", "inland"],
    ):
        r = run_cli(*args, "--buildings", str(bad), env_extra={"LEHAVRE_DATA_DIR": str(tmp_path)})
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        err = " ".join(r.stderr.split())
        assert str(bad) in err and "'Farm'" in err and "value" in err, err
        assert "Traceback" not in r.stderr + r.stdout
    missing = run_cli("rules", "inland", "--buildings", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_buildings_option_changes_the_game(tmp_path):
    raw = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    raw["buildings"][0]["value"] = 9  # Wood Company
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    r = invoke("rules", "inland", "Wood Company", "--buildings", str(p))
    assert r.exit_code == 0
    assert re.search(r"value\s+9\b", r.stdout)
    assert inland_port.catalog(InlandOptions(buildings=str(p))).buildings[0].value == 9


# ---------------------------------------------------------------------------
# --help, --version, rules
# ---------------------------------------------------------------------------


def test_help_lists_every_command_and_version_prints_it():
    r = invoke("--help")
    assert r.exit_code == 0
    for cmd in ("inland", "rules"):
        assert cmd in r.stdout
    v = invoke("--version")
    assert v.exit_code == 0 and v.stdout.strip() == f"lehavre {__version__} ({compiled.describe()})"
    h = invoke("inland", "--help")
    for opt in (
        "--opponent",
        "--seat",
        "--seed",
        "--buildings",
        "--watch",
        "--agents",
        "--json",
        "--resume",
        "--load",
        "--no-undo",
    ):
        assert opt in h.stdout


def test_rules_inland_prints_every_building_from_the_data():
    r = invoke("rules", "inland")
    assert r.exit_code == 0
    catalog = inland_port.catalog()
    for b in catalog.buildings:
        assert b.name in r.stdout
    # seeds/004 index: Town Hall is worth 26 and is a lock building
    one = invoke("rules", "inland", "town h")
    assert one.exit_code == 0
    assert "Town Hall" in one.stdout and re.search(r"value\s+26\b", one.stdout) and "Lock" in one.stdout
    assert "provenance" in one.stdout


def test_rules_of_an_unknown_building_and_of_the_base_game():
    r = run_cli("rules", "inland", "Eiffel Tower")
    assert r.returncode == 2 and "no building called 'Eiffel Tower'" in r.stderr
    base = run_cli("rules", "base")
    assert "Traceback" not in base.stderr
    try:  # the base game's CLI registers its own reference printer once it exists
        import cli.base_cmd  # noqa: F401
    except ImportError:
        assert base.returncode == 1
        assert "not available yet" in base.stderr and "available: inland" in base.stderr
    else:
        assert base.returncode == 0 and base.stdout.strip()


# ---------------------------------------------------------------------------
# Playing at the keyboard (stdin piped; the pseudo-terminal tests are in test_pty.py)
# ---------------------------------------------------------------------------


def test_the_starting_board_shows_the_setup(data_dir):
    """seeds/004 "Game setup": fish 4, grain 1, wood 2, clay 3, 3 francs; round A has 3 actions."""
    state = RULESET.new_game(0)
    from rich.console import Console

    con = Console(width=100, record=True, color_system=None)
    con.print(board(state, [Player("You"), Player("Bot")], 0, 100))
    text = con.export_text()
    assert "Round A (1 of 12)" in text and "3 of 3 actions left" in text
    assert text.count("F fish 4  G grain 1  W wood 2  C clay 3") == 2
    assert text.count("3 francs") == 2
    # the bottom row (worth 0) holds grain (+1), wood (+2), clay (+3) and fish (+4); the row worth 3 is empty
    row3 = [ln for ln in text.splitlines() if re.search(r"\b3(\s+\.){6}", ln)]
    row0 = [ln for ln in text.splitlines() if re.search(r"\b0\s+\.\s+G\s+W\s+C\s+F\s+\.", ln)]
    assert len(row3) == 1 and len(row0) == 1  # both boards on the same lines, side by side
    assert text.count("pay: left 1, down 3, down-left 4; no change") == 2  # the legend, once per board
    for s in ("0", "2", "3", "4", "4+1", "!"):
        assert re.search(rf"^\S*\s+{re.escape(s)}\s", text, re.M) or f" {s} " in text
    for name in ("Wood Company", "Farmland", "Clay Mound", "Grocery Store", "Hardware Store"):
        assert name in text
    assert "Coming:" in text and "B Farm, Kiln, Smokehouse, Bakehouse" in " ".join(text.split())


def test_two_step_choice_typo_illegal_help_rules_and_end_of_input(data_dir):
    # seeds/004 "Build": Grocery Store costs food (fish and/or grain): several ways to pay
    r = invoke(
        "inland",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "3",
        input_text="bulid Farm\nbuild Zoo\n99\nhelp\nhelp actions\nrules Farm\nbuild\nbuild grocery\n7\nback\n4\n1\n",
    )
    out = r.stdout
    assert r.exit_code == 0, out[-2000:]
    assert "'bulid' is not an action" in out and "Allowed now: build" in out
    assert "Zoo enters the game in round J; it is round A" in out
    assert "There is no choice 99" in out
    assert "Commands at the prompt" in out and "use Marketplace: fish, wood x2" in out
    assert "Move Grain" in out  # the Farm's function text
    assert "'build' is ambiguous: it could be 'build Wood Company: clay to 0+2'" in " ".join(out.split())
    assert "How? build Grocery Store" in out and "There is no way 7" in out
    # the first way is the exact payment from fish alone (seeds/004, "There is no change")
    assert "You: builds Grocery Store into sector 0, paying fish 4 \u2192 2" in out
    assert "End of input: the game is stopped" in out and "--resume" in out
    assert "Traceback" not in out


def test_a_whole_game_at_the_keyboard_reaches_the_final_wealth(data_dir):
    r = invoke(
        "inland", "--opponent", "greedy", "--seat", "second", "--seed", "11", "--no-save", input_text="1\n" * 200
    )
    assert r.exit_code == 0
    assert "Final wealth" in r.stdout and "The game is over" in r.stdout
    assert not (data_dir / "saves").exists() or not list((data_dir / "saves").iterdir())


def test_quit_then_resume_continues_the_same_game(data_dir):
    # my action and 'end' (seeds/004 "Sell": I may sell after my action, so I end the turn), then greedy's
    first = invoke("inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text="1\n1\nquit\n")
    assert first.exit_code == 0 and "You quit the game" in first.stdout
    saves = list((data_dir / "saves").glob("*.json"))
    assert len(saves) == 1
    saved = json.loads(saves[0].read_text())
    assert (
        len(saved["actions"]) == 4 and saved["actions"][1] == saved["actions"][3] == "end"
    )  # two of mine, two replies
    again = invoke("inland", "--resume", input_text="history\nquit\n")
    assert again.exit_code == 0, again.stdout
    assert "continuing the game" in again.stdout and "4 actions played" in again.stdout
    for i, text in enumerate(saved["actions"], 1):  # history says who played each action
        who = "You" if i <= 2 else "greedy"  # one turn each (action, end), You first (seat 1)
        assert f"{i:>3}. {who}: {text}" in again.stdout
    loaded = invoke("inland", "--load", str(saves[0]), input_text="quit\n")
    assert loaded.exit_code == 0 and "4 actions played" in loaded.stdout


def test_undo_takes_back_my_decision_and_the_replies(data_dir):
    r = invoke(
        "inland",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "5",
        "--no-save",
        input_text="undo\n1\n1\nundo\nundo\nhistory\nquit\n",
    )
    out = r.stdout
    assert "Nothing to undo" in out
    # my last decision (end) and greedy's whole turn, each named with whose it was
    assert re.search(r"Took back your 'end', then greedy's '[^']+' and 'end'\.", out)
    assert re.search(r"Took back your 'build [^']+'\.", out)  # then my action
    assert "No actions yet." in out
    off = invoke(
        "inland",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "5",
        "--no-save",
        "--no-undo",
        input_text="1\nundo\nquit\n",
    )
    assert "Undo is switched off" in off.stdout


def test_save_command_and_a_broken_save_file(data_dir, tmp_path):
    target = tmp_path / "mine.json"
    r = invoke(
        "inland",
        "--opponent",
        "greedy",
        "--seat",
        "second",
        "--seed",
        "8",
        "--no-save",
        input_text=f"save {target}\nquit\n",
    )
    assert r.exit_code == 0 and f"Saved to\n  {target}\n" in r.stdout  # the path on a line of its own
    assert json.loads(target.read_text())["ruleset"] == "inland"
    target.write_text(target.read_text()[:40])
    bad = run_cli("inland", "--load", str(target), env_extra={"LEHAVRE_DATA_DIR": str(data_dir)})
    assert bad.returncode == 2 and str(target) in bad.stderr and "Traceback" not in bad.stderr
    nothing = run_cli("inland", "--resume", env_extra={"LEHAVRE_DATA_DIR": str(tmp_path / "empty")})
    assert nothing.returncode == 2 and "no unfinished inland game" in nothing.stderr


def test_why_explains_an_illegal_action_and_the_last_computer_move(data_dir):
    r = invoke(
        "inland",
        "--opponent",
        "greedy",
        "--seat",
        "second",
        "--seed",
        "8",
        "--no-save",
        input_text="why\nwhy build Zoo\nwhy build Farmland\nquit\n",
    )
    out = " ".join(r.stdout.split())
    assert "Zoo enters the game in round J" in out
    assert "'build Farmland: wood to 0+1, clay to 0+2' is legal now." in out
    # greedy moved first (seat 1) but has no search to show
    assert "greedy does not explain its moves" in out


def test_hint_and_why_with_the_ai(data_dir):
    r = invoke(
        "inland",
        "--opponent",
        "ai:easy",
        "--seat",
        "second",
        "--seed",
        "2",
        "--no-save",
        input_text="why\nhint\nquit\n",
    )
    out = r.stdout
    assert r.exit_code == 0
    assert "ai:easy chose" in out
    assert "Hint: the AI would play" in out and "evaluation" in out


def test_play_loop_is_generic_over_the_renderer(data_dir):
    """The loop only uses the renderer's hooks: a bare Renderer plays the Inland Port too."""
    from rich.console import Console

    from cli.play import Renderer

    state = RULESET.new_game(1)
    session = Table(RULESET, None, 1, state, [Player("A"), Player("B")])
    answers = iter(["1"] * 300)
    con = Console(record=True, width=100, color_system=None, file=open(os.devnull, "w"))
    code = PlayLoop(session, Renderer(), con, read_line=lambda prompt: next(answers)).run()
    assert code == 0 and state.is_terminal() and state.main_action_count == 72
    assert "Final wealth" in con.export_text()


def test_new_session_records_seats_and_no_color_is_respected(data_dir):
    players = [Player("You"), Player("greedy", AGENT, "greedy", make_agent("greedy", 1))]
    s = new_session("inland", RULESET, None, 3, players)
    assert [p.agent for p in s.record.players] == [None, "greedy"]
    assert s.save_path is not None and s.save_path.parent == data_dir / "saves"
    r = run_cli("inland", "--watch", "--agents", "greedy,greedy", "--seed", "3", env_extra={"NO_COLOR": "1"})
    assert r.returncode == 0 and not ANSI.search(r.stdout)
    assert "greedy #1" in r.stdout and "greedy #2" in r.stdout


def test_renderer_width_switch_stacks_boards_on_narrow_terminals():
    from rich.console import Console

    state = RULESET.new_game(0)
    r = InlandRenderer(width=70)
    con = Console(width=70, record=True, color_system=None, file=open(os.devnull, "w"))
    con.print(r.board(state, [Player("You"), Player("Bot")], 0))
    lines = con.export_text().splitlines()
    assert max(len(ln) for ln in lines) <= 70
    assert sum(1 for ln in lines if "F fish 4" in ln) == 2  # two panels, one under the other


def test_a_save_folder_that_cannot_be_written_does_not_stop_the_game(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(blocker))
    r = invoke("inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text="1\n1\nquit\n")
    assert r.exit_code == 0
    out = " ".join(r.stdout.split())
    assert out.count("could not save the game") == 1 and "the game goes on without saving" in out
    assert "You quit the game." in out and "Traceback" not in out


def test_a_typo_gets_a_suggestion_and_the_prompt_adds_its_hint(data_dir):
    r = invoke(
        "inland", "--opponent", "greedy", "--seat", "first", "--seed", "3", "--no-save",
        input_text="biuld wood\nbuild grocery: fish to 0+2\nquit\n",
    )  # fmt: skip
    out = " ".join(r.stdout.split())
    assert r.exit_code == 0, out[-2000:]
    assert "Did you mean 'build Wood Company'? (Type 'help', or a number from 1 to" in out
    # a prefix of the name works before a payment (seeds/004, "Build": paid with food)
    assert "You: builds Grocery Store into sector 0, paying fish 4 \u2192 2" in out
