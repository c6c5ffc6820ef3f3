"""The long measurements' store: it refuses another engine's games, survives interruption, and its
tables come from the store alone."""

from __future__ import annotations

import ast
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.lab import longrun, longrun_report
from core.lab import perturb as longrun_perturb
from core.lab.longrun import FingerprintMismatch, LongrunError, Plan, RunPlan, RunStore, play_plan, read_run
from core.lab.longrun_report import write_reports
from core.lab.perturb import PerturbSpec, draw, fit
from core.protocol import TunableField

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "longrun.py"


def quick_run(name: str = "quick", games: int = 6, agents: tuple[str, ...] = ("random", "greedy")) -> RunPlan:
    return RunPlan(
        name=name, group="match", question="a quick test", rules="inland", agents=agents, seed=5, games=games
    )


def plan_file(tmp_path: Path, *runs: RunPlan) -> Path:
    path = tmp_path / "plan.json"
    path.write_text(Plan(runs=list(runs)).model_dump_json(), encoding="utf-8")
    return path


def quiet(_: str) -> None:
    pass


def without_timing(game: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in game.items() if k not in ("wall", "cpu", "load")}


def test_a_store_refuses_games_of_another_engine(tmp_path: Path) -> None:
    run = quick_run(games=2)
    store = tmp_path / "store"
    RunStore(store, run, "aaaa").append({"index": 0, "wall": 1.0, "winners": [0]})
    with pytest.raises(FingerprintMismatch, match="fingerprint aaaa"):
        RunStore(store, run, "bbbb")
    said: list[str] = []
    assert play_plan(Plan(runs=[run]), store, ROOT, say=said.append) == 0  # this tree's fingerprint is not 'aaaa'
    assert any(s.startswith("skipped:") and "aaaa" in s for s in said)
    assert len(read_run(store, run)) == 1  # nothing appended


def test_a_changed_run_definition_needs_a_new_name(tmp_path: Path) -> None:
    store = tmp_path / "store"
    RunStore(store, quick_run(), "f").append({"index": 0, "wall": 1.0, "winners": [0]})
    changed = quick_run(agents=("greedy", "greedy"))
    with pytest.raises(LongrunError, match="another definition"):
        RunStore(store, changed, "f")


def test_the_fingerprint_is_stable_and_follows_the_data(tmp_path: Path) -> None:
    options = longrun.run_options(quick_run(), ROOT)
    assert longrun.engine_fingerprint("inland", options) == longrun.engine_fingerprint("inland", options)
    data = json.loads((ROOT / "inland_port" / "data" / "buildings-2026-11.json").read_text(encoding="utf-8"))
    first = data["buildings"][0] if isinstance(data, dict) else data[0]
    first["value"] = int(first.get("value", 0)) + 1
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data), encoding="utf-8")
    changed = RunPlan(**(quick_run().model_dump() | {"options": {"buildings": str(other)}}))
    assert longrun.engine_fingerprint("inland", longrun.run_options(changed, ROOT)) != longrun.engine_fingerprint(
        "inland", options
    )


def test_games_are_the_same_in_pieces_as_in_one_go(tmp_path: Path) -> None:
    run = quick_run(games=6)
    whole, pieces = tmp_path / "whole", tmp_path / "pieces"
    assert play_plan(Plan(runs=[run]), whole, ROOT, say=quiet) == 6
    first = play_plan(Plan(runs=[run]), pieces, ROOT, say=quiet, stop=_Stopper(250))
    assert first < 6
    while play_plan(Plan(runs=[run]), pieces, ROOT, say=quiet, stop=_Stopper(250)):
        pass
    one_go = sorted((without_timing(g) for g in read_run(whole, run)), key=lambda g: int(str(g["index"])))
    in_pieces = sorted((without_timing(g) for g in read_run(pieces, run)), key=lambda g: int(str(g["index"])))
    assert [g["index"] for g in in_pieces] == list(range(6))
    assert in_pieces == one_go


class _Stopper(longrun.StopSignal):
    """Stops after ``decisions`` questions (as a deadline would, between two decisions)."""

    def __init__(self, decisions: int) -> None:
        super().__init__(None)
        self.left = decisions

    def __call__(self) -> bool:
        self.left -= 1
        if self.left < 0:
            self.reason = "test budget"
        return bool(self.reason)


def test_every_set_up_is_played_from_both_seats() -> None:
    run = quick_run()
    assert longrun.setup_seed(run, 0) != longrun.setup_seed(run, 1)
    assert longrun.seat_order(2, 0) == [0, 1] and longrun.seat_order(2, 1) == [1, 0]


def test_a_torn_last_line_is_dropped_and_cut_before_the_next_append(tmp_path: Path) -> None:
    run = quick_run(games=3)
    store = tmp_path / "store"
    play_plan(Plan(runs=[run]), store, ROOT, say=quiet, stop=_Stopper(10_000))
    path = longrun.run_path(store, run)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(lines[0] + lines[1][: len(lines[1]) // 2], encoding="utf-8")  # a machine killed mid-write
    assert [g["index"] for g in read_run(store, run)] == [0]
    assert play_plan(Plan(runs=[run]), store, ROOT, say=quiet) == 2
    assert sorted(g["index"] for g in read_run(store, run)) == [0, 1, 2]
    assert all(line.endswith("\n") and json.loads(line) for line in path.read_text(encoding="utf-8").splitlines(True))


def test_a_broken_line_in_the_middle_is_named(tmp_path: Path) -> None:
    run = quick_run()
    path = longrun.run_path(tmp_path, run)
    path.write_text('{"index": 0}\nnot json\n{"index": 1}\n', encoding="utf-8")
    with pytest.raises(LongrunError, match="line 2"):
        read_run(tmp_path, run)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_interrupting_the_runner_loses_at_most_the_game_in_flight(tmp_path: Path, sig: signal.Signals) -> None:
    run = quick_run(games=400, agents=("greedy", "greedy"))
    plan = plan_file(tmp_path, run)
    store = tmp_path / "store"
    args = [sys.executable, str(SCRIPT), "play", "--plan", str(plan), "--store", str(store)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    stored = 0
    deadline = time.monotonic() + 120
    while stored < 3 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        stored += line.startswith("quick: game ")
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "stopped (stopped by" in out
    played = int(out.strip().splitlines()[-1].split()[0])
    games = read_run(store, run)
    assert len(games) == played >= 3  # every game it said it played is stored, whole
    assert sorted(g["index"] for g in games) == list(range(played))
    assert played < run.games


def test_the_report_is_made_from_the_store_alone(tmp_path: Path) -> None:
    run = RunPlan(
        name="curve", group="seat curve", label="ai:easy", question="q", rules="inland", agents=("greedy", "greedy"),
        seed=3, games=4,
    )  # fmt: skip
    match = quick_run(games=4)
    plan = Plan(runs=[run, match])
    store = tmp_path / "store"
    play_plan(plan, store, ROOT, say=quiet)
    out = tmp_path / "out"
    report, html = write_reports(plan, store, out, ROOT)
    text = report.read_text(encoding="utf-8")
    games = read_run(store, run)
    first = sum(1 for g in games if g["winners"] == [0])
    decisive = sum(1 for g in games if len(g["winners"]) == 1)
    assert f"| ai:easy | 4 | {4 - decisive} | {first} of {decisive} |" in text
    w, t, losses = (sum(1 for g in read_run(store, match) if cond(g)) for cond in _match_conditions())
    assert f"| {w}-{t}-{losses} |" in text
    assert "python benchmarks/longrun.py report" in text
    assert all(isinstance(g["load"], float) for g in games)  # the machine's load beside each game's seconds
    cost = next(line for line in text.splitlines() if line.startswith("| curve | 4 |"))
    assert cost.endswith(", 4 games |") and "–" not in cost
    matched = next(line for line in text.splitlines() if line.startswith("| quick | 4 of 4 |"))
    assert f"| {w}-{t}-{losses} |" in matched and matched.endswith(", 4 games |")  # its load beside its result
    page = html.read_text(encoding="utf-8")
    assert "<svg" in page and "Made from the store's 8 games." in page
    os.remove(report)
    again = write_reports(plan, store, out, ROOT)
    # the same from the same store: the pages say what they are made from, not when (no clock in them)
    assert again[0].read_text(encoding="utf-8") == text and again[1].read_text(encoding="utf-8") == page


def test_runs_are_added_to_the_plan_after_its_last_line_leaving_its_lines_as_they_are(tmp_path: Path) -> None:
    first, second, third = quick_run("a"), quick_run("b"), quick_run("c")
    path = tmp_path / "plan.json"
    head = '{\n  "runs": [\n    ' + longrun.plan_entry(first) + ',\n    {"name": "b", "group": "match", '
    head += '"question": "a quick test", "rules": "inland", "agents": ["random", "greedy"], "seed": 5, "games": 6}'
    path.write_text(head + "\n  ]\n}\n", encoding="utf-8")  # one run a line, its keys in a hand's order
    assert longrun.add_runs(path, [second, third]) == [third]  # b is there already, the same run
    text = path.read_text(encoding="utf-8")
    assert text == head + ",\n    " + longrun.plan_entry(third) + "\n  ]\n}\n"
    assert [r.name for r in longrun.load_plan(path).runs] == ["a", "b", "c"]
    assert longrun.add_runs(path, [third]) == [] and path.read_text(encoding="utf-8") == text
    other = quick_run("c", games=8)
    with pytest.raises(LongrunError, match="has another run named 'c'"):
        longrun.add_runs(path, [other])
    path.write_text(text.rstrip().rstrip("}"), encoding="utf-8")  # a plan whose end was cut off
    with pytest.raises(LongrunError, match="is not valid"):
        longrun.add_runs(path, [other])


def _match_conditions() -> tuple:  # type: ignore[type-arg]
    def won(g: dict) -> bool:  # type: ignore[type-arg]
        return len(g["winners"]) == 1 and g["seat_agents"][g["winners"][0]] == 0

    def tie(g: dict) -> bool:  # type: ignore[type-arg]
        return len(g["winners"]) != 1

    def lost(g: dict) -> bool:  # type: ignore[type-arg]
        return len(g["winners"]) == 1 and g["seat_agents"][g["winners"][0]] != 0

    return won, tie, lost


def test_the_regression_finds_a_planted_effect() -> None:
    """Synthetic games: the first seat wins more often when number A is higher (12 points a step), B does nothing."""
    fields = [
        TunableField("A.value", 5, "A", "reconstructed", 0, 15),
        TunableField("B.value", 5, "B", "reconstructed", 0, 15),
    ]
    spec = PerturbSpec(share=0.6)
    rng = random.Random(4)
    games = []
    for pair in range(3000):
        changes = draw(fields, spec, pair)
        p = 0.45 + 0.12 * (changes.get("A.value", 5) - 5)
        games.append({"winners": [0] if rng.random() < p else [1], "perturbation": changes})
    intercept, (a, b) = fit(games, fields, spec.step)
    assert abs(intercept - 0.45) < 0.03
    assert abs(a.effect - 0.12) < 3 * a.stderr and a.z > 5
    assert abs(b.effect) < 3 * b.stderr


def test_a_perturbed_run_plays_each_set_up_on_its_own_data(tmp_path: Path) -> None:
    run = RunPlan(**(quick_run(games=4).model_dump() | {"perturb": PerturbSpec(share=0.3)}))
    store = tmp_path / "store"
    assert play_plan(Plan(runs=[run]), store, ROOT, say=quiet) == 4
    games = sorted(read_run(store, run), key=lambda g: g["index"])
    assert games[0]["perturbation"] == games[1]["perturbation"] != games[2]["perturbation"] == games[3]["perturbation"]
    assert games[0]["perturbation"] and all(isinstance(v, int) for v in games[0]["perturbation"].values())
    assert games[0]["setup_seed"] == games[1]["setup_seed"]


def test_a_run_whose_agent_cannot_be_made_is_skipped_with_the_reason(tmp_path: Path) -> None:
    run = quick_run(agents=("greedy", "ai:nonsense"))
    said: list[str] = []
    assert play_plan(Plan(runs=[run]), tmp_path, ROOT, say=said.append) == 0
    assert any(s.startswith("skipped quick:") and "ai:nonsense" in s for s in said)


def test_mcts_with_a_simulation_budget_plays_the_same_game_twice(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    run = quick_run(games=1, agents=("mcts:eval@sims=8", "greedy"))
    for store in (tmp_path / "a", tmp_path / "b"):
        assert play_plan(Plan(runs=[run]), store, ROOT, say=quiet) == 1
    a, b = (without_timing(read_run(tmp_path / s, run)[0]) for s in ("a", "b"))
    assert a == b


def test_without_the_openspiel_extra_an_mcts_run_says_how_to_install_it() -> None:
    # OpenSpiel hidden from a fresh process, whether or not it is installed here
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from core.games import game_spec\n"
        "from core.lab.longrun import LongrunError, fixed_mcts, run_agent\n"
        "assert fixed_mcts is None\n"
        "try:\n"
        "    run_agent('mcts:eval@sims=8', 1, game_spec('inland'), None)\n"
        "except LongrunError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == (
        "agent 'mcts:eval@sims=8' is OpenSpiel's MCTS, and OpenSpiel is not installed here: install the extra "
        "with pip install -e '.[openspiel]', or use the ai, greedy or random agents"
    )


def test_the_long_measurement_imports_no_module_inside_a_function() -> None:
    tree = ast.parse(Path(longrun.__file__).read_text(encoding="utf-8"))
    inside = [
        node.lineno
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, ast.Attribute) and node.attr in ("import_module", "__import__"))
    ]
    assert inside == []


def test_the_long_measurements_engine_is_the_one_that_played_the_store() -> None:
    plan = Plan.model_validate_json((ROOT / "benchmarks" / "longrun" / "plan.json").read_text(encoding="utf-8"))
    run = next(r for r in plan.runs if r.name == "inland-seats-normal")
    assert longrun.engine_fingerprint("inland", longrun.run_options(run, ROOT)) == "6606026b9825ace7"


# ---------------------------------------------------------------------------
# Races: a run stops as soon as its share is clearly outside its band
# ---------------------------------------------------------------------------


def raced(name: str, band: tuple[float, float], every: int, games: int, unless_out: tuple[str, ...] = ()) -> RunPlan:
    race = longrun.RaceSpec(band=band, every=every, unless_out=unless_out)
    return quick_run(name, games, ("greedy", "random")).model_copy(update={"race": race})


def seat_games(first_seat_wins: list[bool]) -> list[dict[str, object]]:
    return [{"index": i, "winners": [0] if won else [1]} for i, won in enumerate(first_seat_wins)]


def test_a_race_is_out_at_the_first_look_whose_interval_leaves_the_band() -> None:
    run = raced("r", (0.43, 0.57), every=10, games=40)
    z = longrun.RaceSpec(band=(0.43, 0.57), every=10).z(40)
    assert z == pytest.approx(2.498, abs=1e-3)  # 5% shared by 4 looks: 1 - 0.05 / 8
    # 10 of 10 at the first look: Wilson at z 2.498 is [61.5%, 100%], wholly above 57%
    verdict = longrun.race_verdict(run, seat_games([True] * 10 + [False] * 30))
    assert verdict is not None and verdict.out and (verdict.games, verdict.first, verdict.decisive) == (10, 10, 10)
    assert verdict.low == pytest.approx(0.615, abs=1e-3)
    # 7 of 10 is not clearly out at 10 games; the run goes on, and 20 of 20 afterwards is not looked at early
    even = longrun.race_verdict(run, seat_games([True, False] * 20))
    assert even is not None and not even.out and even.games == 40 and even.first == 20
    between = longrun.race_verdict(run, seat_games([True] * 7 + [False] * 3 + [True] * 5))
    assert between is not None and not between.out and between.games == 15  # 12 of 15, between two looks
    assert longrun.race_verdict(quick_run(), seat_games([True] * 10)) is None  # a run that is not raced


def test_a_raced_run_stops_when_out_and_the_runs_that_depend_on_it_are_not_played(tmp_path: Path) -> None:
    """A band no seat reaches (at most 1%): the first look (greedy in each seat once) puts the run out."""
    first = raced("first", (0.0, 0.01), every=2, games=6)
    second = raced("second", (0.45, 0.55), every=2, games=6, unless_out=("first",))
    said: list[str] = []
    play_plan(Plan(runs=[first, second]), tmp_path, ROOT, say=said.append)
    stored = read_run(tmp_path, first)
    verdict = longrun.race_verdict(first, stored)
    assert verdict is not None and verdict.out and verdict.games == len(stored) < 6
    assert any(s.startswith("first: out of the race: the first seat's share,") and "outside 0-1%" in s for s in said)
    assert read_run(tmp_path, second) == []
    assert any(s.startswith("second: not played: first is out of its race") for s in said)
    said.clear()  # played again, nothing is played and both say why
    assert play_plan(Plan(runs=[first, second]), tmp_path, ROOT, say=said.append) == 0
    assert any(s.startswith("first: out of the race") for s in said) and len(read_run(tmp_path, first)) == len(stored)


@pytest.mark.parametrize(
    ("race", "says"),
    [
        ({"band": [0.6, 0.4], "every": 2}, "a race's band is two shares from 0 to 1, the lower first; given 0.6, 0.4"),
        ({"band": [0.4, 0.6], "every": 3}, "'every' must be even, not 3"),
        ({"band": [0.4, 0.6], "every": 2, "unless_out": ["nowhere"]}, "races unless nowhere is out, and no run has"),
    ],
)
def test_a_plan_with_a_broken_race_says_what_is_wrong(tmp_path: Path, race: dict[str, object], says: str) -> None:
    entry = quick_run().model_dump(mode="json") | {"race": race}
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"runs": [entry]}), encoding="utf-8")
    with pytest.raises(LongrunError, match="is not valid") as caught:
        longrun.load_plan(path)
    assert says in str(caught.value)


def test_the_two_games_are_compared_from_the_store_with_a_playtests_page(tmp_path: Path) -> None:
    """The base game's mirror beside the Inland Port's ai:easy curve: the report's table and the compare
    page (its tests) from the stored games; a game stored without its lead changes has them replayed."""
    curve = RunPlan(
        name="curve", group="seat curve", label="ai:easy", question="q", rules="inland", agents=("random", "random"),
        seed=3, games=4,
    )  # fmt: skip
    base = RunPlan(
        name="mirror", group="games compared", label="Le Havre (two players)", question="q", rules="base",
        agents=("random", "random"), options={"players": 2, "short": True}, seed=4, games=2,
    )  # fmt: skip
    plan = Plan(runs=[curve, base])
    store = tmp_path / "store"
    play_plan(plan, store, ROOT, say=quiet)
    stored = read_run(store, curve)
    assert all(isinstance(g["lead_changes"], int) for g in stored)
    for game in stored:
        bare = {k: v for k, v in game.items() if k != "lead_changes"}
        assert longrun_report.playtest_record(curve, bare, ROOT)["lead_changes"] == game["lead_changes"]
    written = write_reports(plan, store, tmp_path / "out", ROOT)
    assert [p.name for p in written] == ["report.md", "seats.html", "compare.html"]
    text = written[0].read_text(encoding="utf-8")
    assert "## The two games side by side" in text
    assert "| Le Havre (two players) | 2 |" in text and "| Le Havre: The Inland Port | 4 |" in text
    page = written[2].read_text(encoding="utf-8")
    assert "The two games compared: Le Havre (two players) vs Le Havre: The Inland Port" in page
    assert "Holm" in page and "python benchmarks/longrun.py report" in page


def ladder_games(strong_wins: int, games: int) -> list[dict[str, object]]:
    """Games of a ladder step in which the larger budget (agent 1) wins ``strong_wins``, seats alternating."""
    out: list[dict[str, object]] = []
    for i in range(games):
        seats = longrun.seat_order(2, i)
        winner_agent = 1 if i < strong_wins else 0
        out.append({"index": i, "winners": [seats.index(winner_agent)], "seat_agents": seats})
    return out


@pytest.mark.parametrize(
    ("inland_wins", "says"),
    [
        (30, "p=0.021): Le Havre: The Inland Port rewards search more."),
        (24, "p=0.37): the data cannot tell which game rewards search more."),
    ],
)
def test_the_report_says_which_game_rewards_search_more(inland_wins: int, says: str) -> None:
    agents = ("ai:normal@nodes=625", "ai:normal@nodes=2500")
    inland, base = (
        RunPlan(name=f"{r}-ladder", group="skill depth", question="q", rules=r, agents=agents, seed=1, games=40)
        for r in ("inland", "base")
    )
    plan = Plan(runs=[inland, base])
    # 30 of 40 against 20 of 40: z = 0.25 / sqrt(0.625 * 0.375 * (2 / 40)) = 2.31, p = 0.021;
    # 24 of 40 against 20 of 40: z = 0.1 / sqrt(0.55 * 0.45 * (2 / 40)) = 0.90, p = 0.37
    held = {inland.name: ladder_games(inland_wins, 40), base.name: ladder_games(20, 40)}
    (line, _) = longrun_report.depth_lines(plan, held)
    assert line == (
        "At the step both games play (ai:normal@nodes=625 -> ai:normal@nodes=2500), the larger budget won "
        f"50.0% of 40 decisive Le Havre games and {100 * inland_wins / 40:.1f}% of 40 decisive Le Havre: The Inland "
        f"Port games (two-proportion z test, {says}"
    )
    waiting = longrun_report.depth_lines(plan, {inland.name: [], base.name: []})
    assert waiting[0].startswith("Which game rewards search more: not known yet")


def test_a_run_whose_race_before_it_ended_outside_its_band_is_not_played(tmp_path: Path) -> None:
    """Never clearly out at a look, but played to the end at 40% against a band of 45-55%: the next level's
    run is pointless."""
    first = raced("first", (0.45, 0.55), every=2, games=10)
    second = raced("second", (0.45, 0.55), every=2, games=6, unless_out=("first",))
    store = tmp_path / "store"
    lines = [{"index": i, "wall": 1.0, "winners": [0] if i in (0, 3, 6, 9) else [1]} for i in range(10)]
    held = RunStore(store, first, "f")
    for line in lines:
        held.append(line)
    verdict = longrun.race_verdict(first, read_run(store, first))
    assert verdict is not None and not verdict.out and verdict.done and not verdict.inside and verdict.failed
    assert longrun.skip_reason(Plan(runs=[first, second]), store, second).startswith(
        "not played: first ended its race outside its band (the first seat's share, 40.0% ["
    )
    lines[1]["winners"] = [0]  # 5 of 10: in the band, and the next run is played
    (store / "first.jsonl").unlink()
    for line in lines:
        RunStore(store, first, "f").append(line)
    assert longrun.skip_reason(Plan(runs=[first, second]), store, second) == ""


def test_the_joint_test_tells_numbers_that_matter_from_numbers_that_do_not() -> None:
    """Synthetic games: with A's effect planted (12 points a step) the F test rejects at once; with results drawn
    with no effect at all its p is spread as chance spreads it (about 5% of them under 5%, half under 1/2)."""
    fields = [TunableField(f"{k}.value", 5, k, "reconstructed", 0, 15) for k in "ABCDEF"]
    spec = PerturbSpec(share=0.6)
    changes = [draw(fields, spec, pair) for pair in range(2000)]
    rng = random.Random(4)
    planted = [
        {"winners": [0] if rng.random() < 0.45 + 0.12 * (c.get("A.value", 5) - 5) else [1], "perturbation": c}
        for c in changes
    ]
    found = longrun_perturb.joint_test(planted, fields, spec.step)
    assert found is not None and found.p_value < 1e-6 and found.describe().startswith("R² 0.")
    ps = []
    for seed in range(60):
        null_rng = random.Random(1000 + seed)
        null = [{"winners": [0] if null_rng.random() < 0.45 else [1], "perturbation": c} for c in changes[:500]]
        test = longrun_perturb.joint_test(null, fields, spec.step)
        assert test is not None
        ps.append(test.p_value)
    assert sum(p < 0.05 for p in ps) <= 9  # 3 expected of 60
    assert 0.3 < sorted(ps)[30] < 0.7
    assert longrun_perturb.joint_test(planted[:6], fields, spec.step) is None  # fewer games than numbers + 2


# ---------------------------------------------------------------------------
# Matches played on while undecided
# ---------------------------------------------------------------------------


def match_games(first_agent_wins: list[bool]) -> list[dict[str, object]]:
    """Games of a two-agent match, the first agent in seat 1 of the even games and seat 2 of the odd ones."""
    games: list[dict[str, object]] = []
    for i, won in enumerate(first_agent_wins):
        order = [0, 1] if i % 2 == 0 else [1, 0]
        games.append({"index": i, "seat_agents": order, "winners": [order.index(0 if won else 1)]})
    return games


def test_a_match_is_played_on_only_while_its_interval_includes_half() -> None:
    run = quick_run(games=4).model_copy(update={"extend": longrun.ExtendSpec(to=8)})
    assert run.asked(match_games([True, False])) == 4  # the first 4 not played yet
    assert run.asked(match_games([True, False, True, False])) == 8  # 2 of 4: [15.0%, 85.0%] holds 50%
    assert run.asked(match_games([True] * 4)) == 4  # 4 of 4: [51.0%, 100%] lies above 50%
    assert run.asked(match_games([True] * 4 + [False] * 3)) == 4  # only the first 4 decide
    assert quick_run(games=4).asked(match_games([True, False] * 2)) == 4  # a run without extend


def test_an_undecided_match_is_played_on_and_says_so(tmp_path: Path) -> None:
    """Two games can never decide a match (2 of 2 is [34.2%, 100%]): the run plays on to its 4."""
    run = quick_run(games=2, agents=("random", "random")).model_copy(update={"extend": longrun.ExtendSpec(to=4)})
    said: list[str] = []
    assert play_plan(Plan(runs=[run]), tmp_path, ROOT, say=said.append) == 4
    assert [int(g["index"]) for g in read_run(tmp_path, run)] == [0, 1, 2, 3]
    assert "quick: undecided after 2 games, played on to 4" in said
    assert longrun_report.games_of(run, read_run(tmp_path, run)) == "4 of 4 (played on: undecided after 2)"
    assert longrun_report.games_of(run, []) == "0 of 2 (4 if undecided)"


@pytest.mark.parametrize(
    ("update", "says"),
    [
        ({"extend": {"to": 6}}, "extends to 6 games, which is not more than its 6"),
        ({"extend": {"to": 8}, "race": {"band": [0.4, 0.6], "every": 2}}, "a run may stop early or play on, not both"),
    ],
)
def test_a_plan_with_a_broken_extension_says_what_is_wrong(
    tmp_path: Path, update: dict[str, object], says: str
) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"runs": [quick_run().model_dump(mode="json") | update]}), encoding="utf-8")
    with pytest.raises(LongrunError, match="is not valid") as caught:
        longrun.load_plan(path)
    assert says in str(caught.value)


def test_a_run_the_plan_says_was_stopped_is_not_played_on_and_keeps_its_games(tmp_path: Path) -> None:
    """A confirmation stopped early (its figure already told) stays in the plan with ``stopped``: ``play`` passes
    it by with the reason, even when it is named; its key and stored games stay its own; the reports say it was
    stopped; and a plan that gives no reason is refused."""
    run = quick_run(games=4)
    store = tmp_path / "store"
    play_plan(Plan(runs=[run]), store, ROOT, say=quiet, stop=_Stopper(200))
    held = read_run(store, run)
    assert 0 < len(held) < 4
    stopped = run.model_copy(update={"stopped": "the Dock was built in none of its games"})
    assert stopped.key() == run.key()
    said: list[str] = []
    for names in ((), ("quick",)):
        assert play_plan(Plan(runs=[stopped]), store, ROOT, names, say=said.append) == 0
    assert said == ["quick: stopped in the plan: the Dock was built in none of its games"] * 2
    assert read_run(store, stopped) == held
    assert json.loads(longrun.plan_entry(stopped))["stopped"] == "the Dock was built in none of its games"
    games = [{"index": i, "wall": 1.0, "winners": [0]} for i in range(2)]
    _, line, _ = longrun_report.target_verdict(stopped.model_copy(update={"label": "ai:normal"}), games)
    assert line.endswith("2 of 4 games, stopped: the Dock was built in none of its games)")
    _, line, _ = longrun_report.target_verdict(run.model_copy(update={"label": "ai:normal"}), games)
    assert line.endswith("2 of 4 games, so far)")
    _, line, _ = longrun_report.target_verdict(stopped.model_copy(update={"label": "ai:normal"}), [])
    assert line == "ai:normal 43-57%: no games (stopped: the Dock was built in none of its games)"
    plan = json.loads(plan_file(tmp_path, run).read_text())
    plan["runs"][0]["stopped"] = ""
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    with pytest.raises(LongrunError, match=r"runs\.0\.stopped"):
        longrun.load_plan(tmp_path / "plan.json")
