"""The rebalance: candidates from the perturbation fits, their data files and confirmation runs, and the
report's section; on made-up fits and small synthetic stores (no game is played)."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.lab import longrun, rebalance, stats
from core.lab.longrun import Plan, RunPlan, RunStore, read_run, run_options, run_path
from core.lab.longrun_report import agreement_lines, gap_lines, proposal_lines, rebalance_lines, seat_curves
from core.lab.perturb import Effect, Fit, PerturbSpec, draw, write_data
from core.lab.playtest.config import load_ruleset, new_game
from core.protocol import TunableField
from inland_port import shipped
from inland_port.state import InlandState

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "longrun.py"
SPEC = PerturbSpec(share=0.3, step=2)

FIELDS = [TunableField(k, 10, k.split(".")[0], "reconstructed", 0, 25) for k in ("A.value", "B.value", "C.value")]


def level(name: str, intercept: float, effects: dict[str, tuple[float, float]]) -> rebalance.LevelFit:
    """A made-up fit: ``effects`` maps a number to (effect per step, its standard error); no ties."""
    run = RunPlan(
        name=f"made-up-{name.split(':')[1]}",
        group="perturbation",
        question="q",
        rules="inland",
        agents=(name, name),
        games=1,
    )
    made = [Effect(f.key, f.value, *effects.get(f.key, (0.0, 0.01)), moved=10) for f in FIELDS]
    return rebalance.LevelFit(name, run, Fit(intercept, 0.01, made, 0.0, 100), 2)


def test_a_single_number_that_evens_both_levels_is_found_first() -> None:
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01), "B.value": (0.03, 0.01)})
    normal = level("ai:normal", 0.60, {"A.value": (-0.05, 0.01), "B.value": (0.0, 0.01)})
    found = rebalance.candidates([easy, normal], FIELDS)
    best = found[0]
    assert best.qualifies and best.changes == {"A.value": 14}  # two steps of 2: 40% -> 50% and 60% -> 50%
    assert [p.share for p in best.predictions] == pytest.approx([0.50, 0.50])
    sizes = [len(c.moves) for c in found if c.qualifies]
    assert sizes == sorted(sizes)  # fewest numbers first


def test_a_pair_is_found_when_no_single_number_evens_both_levels() -> None:
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01)})
    normal = level("ai:normal", 0.60, {"B.value": (-0.05, 0.01)})
    best = rebalance.candidates([easy, normal], FIELDS)[0]
    assert best.qualifies and best.changes == {"A.value": 14, "B.value": 14}


def test_a_number_whose_effect_is_not_clear_is_not_moved() -> None:
    """C alone would even both levels, but its effect is within 1.3 standard errors of nothing at each level."""
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01), "C.value": (0.10, 0.08)})
    normal = level("ai:normal", 0.60, {"B.value": (-0.05, 0.01), "C.value": (-0.10, 0.08)})
    assert rebalance.clear_numbers([easy, normal]) == ["A.value", "B.value"]
    assert "C.value" not in rebalance.candidates([easy, normal], FIELDS)[0].changes
    assert rebalance.clear_numbers([easy, normal], min_z=1.0) == ["A.value", "B.value", "C.value"]
    loose = rebalance.candidates([easy, normal], FIELDS, min_z=1.0, keep=200)
    assert any(c.changes == {"C.value": 12} for c in loose)


def test_when_nothing_qualifies_the_closest_is_said() -> None:
    easy = level("ai:easy", 0.40, {"A.value": (0.01, 0.001)})
    normal = level("ai:normal", 0.60, {"A.value": (0.01, 0.001)})
    found = rebalance.candidates([easy, normal], FIELDS)
    assert not any(c.qualifies for c in found)
    # one step up: 41% and 61%, each 4 points outside its band (two steps: 42% and 62%, 5 points at ai:normal)
    assert found[0].changes == {"A.value": 12}
    proposal = rebalance.Proposal(
        "x", (easy.run, normal.run), (easy, normal), ("A.value",), tuple(found), tuple(FIELDS)
    )
    text = "\n".join(proposal_lines([proposal]))
    assert "the closest: A.value 10->12." in text
    assert "| 1 | A.value 10->12 | 41.0% ± 1.0 | 61.0% ± 1.0 | no |" in text


def test_a_move_stays_within_the_numbers_bounds() -> None:
    near_top = TunableField("D.value", 22, "D", "reconstructed", 0, 25)
    assert [m.new for m in rebalance.number_moves(near_top, 2)] == [18, 20, 24]


def perturbed_run(level_name: str, search: str = "t") -> RunPlan:
    short = level_name.split(":")[1]
    return RunPlan(
        name=f"inland-perturb-{short}-{search}", group="perturbation", label=level_name, question=f"perturbed {short}",
        rules="inland", agents=(level_name, level_name), noise=1.0, seed=7 if short == "easy" else 8, games=3000,
        perturb=SPEC,
    )  # fmt: skip


def curve_run(level_name: str, games: int) -> RunPlan:
    short = level_name.split(":")[1]
    return RunPlan(
        name=f"inland-seats-{short}", group="seat curve", label=level_name, question=f"seats {short}", rules="inland",
        agents=(level_name, level_name), noise=2.0, seed={"easy": 1, "normal": 2, "hard": 3}[short], games=games,
    )  # fmt: skip


def synthetic_plan() -> Plan:
    return Plan(
        runs=[
            curve_run("ai:normal", 20),
            curve_run("ai:easy", 40),
            curve_run("ai:hard", 4),
            perturbed_run("ai:easy"),
            perturbed_run("ai:normal"),
        ]
    )


def write_store(store: Path, run: RunPlan, records: list[dict[str, Any]]) -> None:
    """``records`` as the store keeps ``run``'s games (written at once: :class:`RunStore` syncs every line)."""
    store.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"run": run.name, "run_key": run.key(), "fingerprint": "synthetic"} | r) for r in records]
    run_path(store, run).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def fill_perturbed(store: Path, plan: Plan) -> None:
    """Games in which the first seat's share moves 10 points a step of Farmland.value: up at ai:easy (from 40%),
    down at ai:normal (from 60%); every other number does nothing."""
    fields = rebalance.run_fields(plan.runs[3], ROOT)
    for run, base, slope in ((plan.runs[3], 0.40, 0.10), (plan.runs[4], 0.60, -0.10)):
        rng = random.Random(run.seed)
        records = []
        for pair in range(run.games // 2):
            changes = draw(fields, SPEC, run.seed * 100_000 + pair)
            p = base + slope * (changes.get("Farmland.value", 4) - 4) / SPEC.step
            for index in (2 * pair, 2 * pair + 1):
                winners = [0] if rng.random() < p else [1]
                game = {"index": index, "wall": 1.0, "winners": winners, "perturbation": changes}
                records.append(game | {"buildings": [], "owners": {}})
        write_store(store, run, records)


def test_a_search_proposes_the_planted_number_from_a_synthetic_store(tmp_path: Path) -> None:
    plan = synthetic_plan()
    fill_perturbed(tmp_path, plan)
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    (proposal,) = rebalance.propose(plan, held, ROOT)
    assert proposal.search == "t" and not proposal.waiting
    assert proposal.clear[0] == "Farmland.value"
    best = proposal.best
    assert best is not None and best.qualifies and best.changes == {"Farmland.value": 6}


def test_a_search_without_enough_games_says_what_it_waits_for(tmp_path: Path) -> None:
    plan = synthetic_plan()
    RunStore(tmp_path, plan.runs[3], "f").append({"index": 0, "wall": 1.0, "winners": [0], "perturbation": {}})
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    (proposal,) = rebalance.propose(plan, held, ROOT)
    assert proposal.best is None
    assert proposal.waiting == (
        "inland-perturb-easy-t holds 1 of 3000 games; inland-perturb-normal-t holds 0 of 3000 games "
        "(a fit needs at least 100)"
    )


def made_up_proposal() -> tuple[rebalance.Proposal, rebalance.Candidate]:
    runs = (perturbed_run("ai:easy"), perturbed_run("ai:normal"))
    moves = (rebalance.Move("Farmland.value", 4, 1, 6), rebalance.Move("Zoo.cost.francs", 16, -1, 14))
    return rebalance.Proposal("t", runs), rebalance.Candidate(moves, ())


def test_the_written_candidate_is_inland_data_with_its_changes_noted(tmp_path: Path) -> None:
    proposal, candidate = made_up_proposal()
    path = rebalance.write_candidate(proposal, candidate, tmp_path, ROOT)
    assert path.name == f"inland-t-{candidate.digest()}.json"
    game = load_ruleset("inland")
    assert game.tuning is not None
    values = {f.key: (f.value, f.source) for f in game.tuning.fields(str(path))}
    assert values["Farmland.value"] == (6, "reconstructed") and values["Zoo.cost.francs"] == (14, "reconstructed")
    cards = {c["name"]: c for c in json.loads(path.read_text(encoding="utf-8"))["buildings"]}
    for card, what in (("Farmland", "value"), ("Zoo", "cost")):
        assert "inland-perturb-easy-t, inland-perturb-normal-t" in cards[card]["notes"][what]
    assert rebalance.data_changes("inland", str(path), ROOT) == ["Farmland.value 4->6", "Zoo.cost.francs 16->14"]


def test_the_confirmation_runs_are_plan_runs_that_play_the_candidate(tmp_path: Path) -> None:
    plan = Plan.model_validate_json((ROOT / "benchmarks" / "longrun" / "plan.json").read_text(encoding="utf-8"))
    proposal, candidate = made_up_proposal()
    path = rebalance.write_candidate(proposal, candidate, tmp_path, ROOT)
    runs = rebalance.confirmation_runs(plan, proposal, candidate, rebalance.plan_path(path, ROOT))
    Plan(runs=[*plan.runs, *(RunPlan.model_validate_json(longrun.plan_entry(r)) for r in runs)])
    curve = {r.label: r for r in plan.runs if r.group == "seat curve"}
    assert [r.label for r in runs] == ["ai:normal", "ai:easy", "ai:hard"]
    assert [r.games for r in runs] == [200, 400, 24]
    for run in runs:
        like = curve[run.label]
        assert (run.agents, run.noise, run.rules, run.group) == (like.agents, like.noise, like.rules, "confirmation")
        assert run.seed not in {r.seed for r in plan.runs}
        options = run_options(run, ROOT)
        assert Path(options["buildings"]) == path.resolve()
        assert digest(options) == digest({"buildings": str(path)}) != digest({})
    assert len({r.seed for r in runs}) == 3


def digest(options: dict[str, Any]) -> str:
    """The digest of the data an Inland Port game set up with ``options`` plays on."""
    played = new_game("inland", options, 1)
    assert isinstance(played, InlandState)
    return played.data_digest


def confirmation_game(index: int, names: list[str], strong: str) -> dict[str, Any]:
    """Seat 1 wins every other game; every building is built; each one's owner wins half its games, but
    ``strong``'s owner wins all of them."""
    winner = index % 2
    owners = dict.fromkeys(names, index // 2 % 2) | ({strong: winner} if strong else {})
    return {
        "index": index,
        "wall": 1.0,
        "winners": [winner],
        "buildings": [["build", n] for n in names],
        "owners": owners,
    }


def confirmed_store(tmp_path: Path, strong: str, reference: str = "") -> tuple[Plan, str, list[RunPlan]]:
    """The synthetic plan's best candidate written, with its confirmation runs in the plan and in the store
    (:func:`confirmation_game`): the plan, the candidate's data file and its confirmation runs (``reference``:
    the data file the plan was written on, when not the default)."""
    plan = synthetic_plan()
    if reference:
        plan = Plan(runs=plan.runs, data={"inland": reference})
    fill_perturbed(tmp_path, plan)
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    (proposal,) = rebalance.propose(plan, held, ROOT)
    assert proposal.best is not None
    data = rebalance.plan_path(rebalance.write_candidate(proposal, proposal.best, tmp_path / "c", ROOT), ROOT)
    confirming = rebalance.confirmation_runs(plan, proposal, proposal.best, data)
    plan = Plan(runs=[*plan.runs, *confirming], data=plan.data)
    names = sorted({f.entity for f in rebalance.run_fields(plan.runs[3], ROOT)})
    for run in confirming:
        write_store(tmp_path, run, [confirmation_game(index, names, strong) for index in range(run.games)])
    return plan, data, confirming


@pytest.mark.parametrize("strong", ["", "Zoo"])
def test_the_report_section_says_which_targets_the_candidate_meets(tmp_path: Path, strong: str) -> None:
    plan, data, _ = confirmed_store(tmp_path, strong)
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    text = "\n".join(rebalance_lines(plan, held, ROOT))
    assert "## The rebalance" in text
    assert "| 1 | Farmland.value 4->6 |" in text
    assert f"| {data} | ai:normal | 20 of 20 | 50.0% [29.9%, 70.1%] | 43-57% | met |" in text
    assert "| today's data | ai:normal | 0 of 20 | – | 43-57% | no games yet |" in text
    verdict = next(line for line in text.splitlines() if line.startswith(f"- **{data}**"))
    assert verdict.startswith(f"- **{data}** (Farmland.value 4->6): ")
    assert "every building built in at least 5.0% of ai:normal games: met" in verdict
    if strong:
        assert ": not confirmed." in verdict
        assert "no building whose owner won more than 70.0% of its games: not met (Zoo 100.0% of 20)" in verdict
    else:
        assert ": confirmed." in verdict and "not met" not in verdict


def test_propose_writes_the_candidate_and_prints_its_runs(tmp_path: Path) -> None:
    plan = synthetic_plan()
    fill_perturbed(tmp_path / "store", plan)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    args = [
        "propose",
        "--plan",
        str(plan_file),
        "--store",
        str(tmp_path / "store"),
        "--candidates",
        str(tmp_path / "c"),
    ]
    out = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True, cwd=ROOT)
    written = sorted((tmp_path / "c").glob("inland-t-*.json"))
    assert len(written) == 1
    assert f"search t: wrote {written[0].resolve()}; the runs that confirm it (plan entries):" in out.stdout
    entries = [line.strip().rstrip(",") for line in out.stdout.splitlines() if line.startswith("    {")]
    runs = [RunPlan.model_validate_json(e) for e in entries]
    assert [r.label for r in runs] == ["ai:normal", "ai:easy", "ai:hard"]
    assert all(r.options["buildings"] == str(written[0].resolve()) for r in runs)


def made_up_search(name: str, normal_a: float) -> rebalance.Proposal:
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01)})
    normal = level("ai:normal", 0.60, {"A.value": (normal_a, 0.01), "B.value": (-0.05, 0.01)})
    found = tuple(rebalance.candidates([easy, normal], FIELDS))
    clear = tuple(rebalance.clear_numbers([easy, normal]))
    return rebalance.Proposal(name, (easy.run, normal.run), (easy, normal), clear, found, tuple(FIELDS))


def test_the_report_says_whether_the_searches_agree() -> None:
    x, y = made_up_search("x", -0.05), made_up_search("y", -0.05)
    text = "\n".join(agreement_lines([x, y]))
    said = (
        "- search x's best (A.value 10->14), on search y's fits: ai:easy 50.0% ± 2.2, ai:normal 50.0% ± 2.2: qualifies."
    )
    assert said in text and "The searches' best candidates are the same change." in text
    z = made_up_search("z", 0.0)  # A moves only ai:easy here: z's best is a pair, x's single fails on z's fits
    text = "\n".join(agreement_lines([x, z]))
    assert (
        "- search x's best (A.value 10->14), on search z's fits: ai:easy 50.0% ± 2.2, ai:normal 60.0% ± 2.2: does not qualify."
        in text
    )
    assert "The searches' best candidates are different changes." in text


def test_a_prediction_too_imprecise_to_tell_does_not_qualify() -> None:
    """A moves both levels to 50%, but the ai:normal fit is so loose that 50% is as likely as 70%."""
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01)})
    loose = rebalance.LevelFit(
        "ai:normal", easy.run, Fit(0.60, 0.10, [Effect("A.value", 10, -0.05, 0.02, 10)], 0.0, 50), 2
    )
    found = rebalance.candidates([easy, loose], FIELDS[:1])
    assert found[0].changes == {"A.value": 14} and not found[0].qualifies
    proposal = rebalance.Proposal("x", (easy.run, loose.run), (easy, loose), ("A.value",), tuple(found), tuple(FIELDS))
    text = "\n".join(proposal_lines([proposal]))
    assert "the closest: A.value 10->14 (too imprecise to tell: ai:normal ± 10.8)." in text


# ---------------------------------------------------------------------------
# The pooled search and the race
# ---------------------------------------------------------------------------


def two_search_plan() -> Plan:
    """The synthetic plan's seat curve, with two searches (a and b) instead of one."""
    return Plan(
        runs=[
            *(run for run in synthetic_plan().runs if run.perturb is None),
            perturbed_run("ai:easy", "a"),
            perturbed_run("ai:normal", "a"),
            perturbed_run("ai:easy", "b"),
            perturbed_run("ai:normal", "b"),
        ]
    )


def test_the_pooled_search_fits_every_searchs_games_at_each_level(tmp_path: Path) -> None:
    plan = two_search_plan()
    fill_perturbed(tmp_path, Plan(runs=plan.runs[:5]))
    fill_perturbed(tmp_path, Plan(runs=[*plan.runs[:3], *plan.runs[5:]]))
    # search b's runs play on seeds 7 and 8 as a's do: give b's ai:normal run half its games only
    b_normal = plan.runs[6]
    write_store(tmp_path, b_normal, read_run(tmp_path, b_normal)[:1500])
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    a, b, pooled = rebalance.propose(plan, held, ROOT)
    assert (a.search, b.search, pooled.search) == ("a", "b", rebalance.POOLED)
    assert [lv.fit.games for lv in pooled.levels] == [6000, 4500]
    assert pooled.levels[1].held() == "inland-perturb-normal-a + inland-perturb-normal-b: 4500 of 6000 games"
    assert a.levels[1].held() == "inland-perturb-normal-a: 3000 of 3000 games"
    a_se, pooled_se = (p.levels[0].effects["Farmland.value"].stderr for p in (a, pooled))
    assert pooled_se < a_se  # more games, a tighter effect
    assert pooled.best is not None and pooled.best.changes == {"Farmland.value": 6}


def test_a_pooled_search_waiting_for_games_names_every_run_it_pools(tmp_path: Path) -> None:
    plan = two_search_plan()
    held: dict[str, list[dict[str, Any]]] = {run.name: [] for run in plan.runs}
    *_, pooled = rebalance.propose(plan, held, ROOT)
    assert pooled.waiting.startswith("inland-perturb-easy-a + inland-perturb-easy-b hold 0 of 6000 games; ")


def test_the_race_takes_candidates_the_precise_fit_puts_in_band_each_on_other_numbers() -> None:
    """ai:normal's fit is too loose to tell anything: the race takes what ai:easy's puts in its band."""
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01), "B.value": (0.04, 0.01), "C.value": (0.03, 0.01)})
    loose = rebalance.LevelFit("ai:normal", easy.run, Fit(0.60, 0.10, [Effect(f.key, 10, 0.0, 0.1, 10) for f in FIELDS], 0.0, 50), 2)  # fmt: skip
    assert not any(c.qualifies for c in rebalance.candidates([easy, loose], FIELDS, keep=1000))
    race = rebalance.race_candidates([easy, loose], FIELDS)
    assert len(race) == rebalance.RACE_CANDIDATES
    assert [len(c.moves) for c in race] == [1, 1, 1]  # fewest numbers first
    assert len({frozenset(c.changes) for c in race}) == 3  # each on other numbers
    for candidate in race:
        easy_share = candidate.predictions[0]
        assert easy_share.precise and 0.45 <= easy_share.share <= 0.55
        assert not candidate.predictions[1].precise


def test_the_race_runs_play_each_candidate_at_each_level_cheapest_first(tmp_path: Path) -> None:
    plan = Plan.model_validate_json((ROOT / "benchmarks" / "longrun" / "plan.json").read_text(encoding="utf-8"))
    proposal, candidate = made_up_proposal()
    data = rebalance.plan_path(rebalance.write_candidate(proposal, candidate, tmp_path, ROOT), ROOT)
    runs = rebalance.race_runs(plan, proposal, candidate, data)
    confirming = rebalance.confirmation_runs(plan, proposal, candidate, data)
    Plan(runs=[*plan.runs, *runs, *confirming])  # names new to the plan, and each other's
    assert [r.label for r in runs] == ["ai:easy", "ai:normal"] and [r.games for r in runs] == [400, 200]
    easy, normal = runs
    assert easy.race is not None and normal.race is not None
    assert (easy.race.band, easy.race.every, easy.race.unless_out) == ((0.45, 0.55), 40, ())
    assert (normal.race.band, normal.race.every, normal.race.unless_out) == ((0.43, 0.57), 20, (easy.name,))
    assert {r.group for r in runs} == {"race"} and all(r.options["buildings"] == data for r in runs)
    seeds = {r.seed for r in runs}
    assert len(seeds) == 2 and not seeds & {r.seed for r in [*plan.runs, *confirming]}


def race_game(index: int, first_wins: bool) -> dict[str, Any]:
    return {"index": index, "wall": 1.0, "winners": [0] if first_wins else [1]}


def test_the_report_says_where_each_race_stands(tmp_path: Path) -> None:
    plan = synthetic_plan()
    proposal, candidate = made_up_proposal()
    data = rebalance.plan_path(rebalance.write_candidate(proposal, candidate, tmp_path / "c", ROOT), ROOT)
    easy, normal = rebalance.race_runs(plan, proposal, candidate, data)
    plan = Plan(runs=[*plan.runs, easy, normal])
    write_store(tmp_path, easy, [race_game(i, True) for i in range(40)])  # 40 of 40: out at the first look
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    text = "\n".join(rebalance_lines(plan, held, ROOT))
    assert "**The race**" in text
    # the synthetic seat curve asks 40 ai:easy games and 20 ai:normal ones: the race asks as many
    assert (
        "| Farmland.value 4->6, Zoo.cost.francs 16->14 | ai:easy | 40 of 40 | 100.0% [91.2%, 100.0%] | 45-55% |" in text
    )
    assert "| 45-55% | out after 40 games |" in text
    assert "| ai:normal | 0 of 20 | – | 43-57% | not played: failed at ai:easy |" in text
    write_store(tmp_path, easy, [race_game(i, i % 2 == 0) for i in range(20)])  # 50% so far
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    assert "| ai:easy | 20 of 40 | 50.0% [" in "\n".join(rebalance_lines(plan, held, ROOT))
    assert "| 45-55% | in the race |" in "\n".join(rebalance_lines(plan, held, ROOT))
    assert "| ai:normal | 0 of 20 | – | 43-57% | not played yet |" in "\n".join(rebalance_lines(plan, held, ROOT))
    write_store(tmp_path, easy, [race_game(i, i % 2 == 0) for i in range(40)])  # 50%: survives every look
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    text = "\n".join(rebalance_lines(plan, held, ROOT))
    assert "| ai:easy | 40 of 40 | 50.0% [" in text and "| survived; share in band |" in text
    assert "No candidate has survived every level yet." in text  # its ai:normal run has not been played
    write_store(tmp_path, easy, [race_game(i, i < 16) for i in range(40)])  # 40%: never out at a look, yet outside
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    text = "\n".join(rebalance_lines(plan, held, ROOT))
    assert "| ai:easy | 40 of 40 | 40.0% [" in text and "| 45-55% | ended outside its band |" in text


def test_propose_race_writes_each_candidate_and_prints_its_race_runs(tmp_path: Path) -> None:
    plan = two_search_plan()
    fill_perturbed(tmp_path / "store", Plan(runs=plan.runs[:5]))
    fill_perturbed(tmp_path / "store", Plan(runs=[*plan.runs[:3], *plan.runs[5:]]))
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    args = ["propose", "--race", "--plan", str(plan_file), "--store", str(tmp_path / "store")]
    args += ["--candidates", str(tmp_path / "c")]
    out = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True, cwd=ROOT)
    written = sorted((tmp_path / "c").glob("inland-pooled-*.json"))
    assert 1 <= len(written) <= rebalance.RACE_CANDIDATES
    assert "search pooled: the race runs (plan entries):" in out.stdout
    entries = [line.strip().rstrip(",") for line in out.stdout.splitlines() if line.startswith("    {")]
    runs = [RunPlan.model_validate_json(e) for e in entries]
    assert [r.label for r in runs] == ["ai:easy"] * len(written) + ["ai:normal"] * len(written)
    assert {r.options["buildings"] for r in runs} == {str(p.resolve()) for p in written}
    Plan(runs=[*plan.runs, *runs])


def raced_plan(tmp_path: Path) -> tuple[Plan, list[str], list[list[RunPlan]]]:
    """The synthetic plan with two candidates raced: one change of one number, one of two."""
    plan = synthetic_plan()
    proposal, pair = made_up_proposal()
    single = rebalance.Candidate(pair.moves[:1], ())
    datas, races = [], []
    for candidate in (single, pair):
        data = rebalance.plan_path(rebalance.write_candidate(proposal, candidate, tmp_path / "c", ROOT), ROOT)
        datas.append(data)
        races.append(rebalance.race_runs(plan, proposal, candidate, data))
    return Plan(runs=[*plan.runs, *(run for race in races for run in race)]), datas, races


@pytest.mark.parametrize("single_out", [False, True])
def test_the_race_is_won_by_the_fewest_numbers_that_survive_every_level(tmp_path: Path, single_out: bool) -> None:
    plan, (single, pair), races = raced_plan(tmp_path)
    for race, out in zip(races, (single_out, False), strict=True):
        easy, normal = race
        # 40 ai:easy and 20 ai:normal games (the synthetic curve's sizes): the first seat wins half of the
        # ai:easy games and 11 of 20 ai:normal ones (55%, in the band), or every ai:easy game (out at once)
        write_store(tmp_path, easy, [race_game(i, True if out else i % 2 == 0) for i in range(40)])
        write_store(tmp_path, normal, [] if out else [race_game(i, i < 11) for i in range(20)])
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    survivors = rebalance.race_survivors(plan, held, ROOT)
    assert [s.data for s in survivors] == ([pair] if single_out else [single, pair])
    best = survivors[0]
    assert best.shares == {"ai:easy": 0.5, "ai:normal": 0.55}
    assert best.entrant.search == "t" and best.entrant.rules == "inland"
    described = "Farmland.value 4->6" if not single_out else "Farmland.value 4->6, Zoo.cost.francs 16->14"
    assert best.entrant.described == described
    confirming = rebalance.confirming(plan, best.entrant, best.data)
    assert [r.name for r in confirming] == [
        f"inland-confirm-t-{best.entrant.digest}-{level}" for level in ("normal", "easy", "hard")
    ]


def test_a_run_stopped_short_or_outside_its_band_does_not_survive(tmp_path: Path) -> None:
    plan, _, races = raced_plan(tmp_path)
    easy, normal = races[0]
    write_store(tmp_path, easy, [race_game(i, i % 2 == 0) for i in range(40)])
    write_store(tmp_path, normal, [race_game(i, i % 2 == 0) for i in range(18)])  # 18 of 20: not to the end
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    assert rebalance.race_survivors(plan, held, ROOT) == []
    # to the end, never out at a look (13 of 20 is not clearly above 57%), but 65% is outside the band
    write_store(tmp_path, normal, [race_game(i, i < 13) for i in range(20)])
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    verdict = longrun.race_verdict(normal, held[normal.name])
    assert verdict is not None and not verdict.out
    assert rebalance.race_survivors(plan, held, ROOT) == []
    # in band at ai:easy, and no race run at ai:normal in the plan at all: not a survivor either
    write_store(tmp_path, normal, [race_game(i, i % 2 == 0) for i in range(20)])
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    assert [s.data for s in rebalance.race_survivors(plan, held, ROOT)] == [easy.options["buildings"]]
    alone = Plan(runs=[r for r in plan.runs if r.name != normal.name])
    assert rebalance.race_survivors(alone, held, ROOT) == []


def test_propose_race_names_the_winner_and_prints_its_confirmation(tmp_path: Path) -> None:
    plan, (single, _), races = raced_plan(tmp_path)
    easy, normal = races[0]
    write_store(tmp_path / "store", easy, [race_game(i, i % 2 == 0) for i in range(40)])
    write_store(tmp_path / "store", normal, [race_game(i, i % 2 == 0) for i in range(20)])
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    args = ["propose", "--race", "--plan", str(plan_file), "--store", str(tmp_path / "store")]
    out = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True, cwd=ROOT)
    assert f"the race's winner: {single} (Farmland.value 4->6; ai:easy 50.0%, ai:normal 50.0%)" in out.stdout
    entries = [line.strip().rstrip(",") for line in out.stdout.splitlines() if line.startswith("    {")]
    runs = [RunPlan.model_validate_json(e) for e in entries]
    assert [r.group for r in runs] == ["confirmation"] * 3 and {r.options["buildings"] for r in runs} == {single}
    assert "add them to the plan by hand, or again with --add" in out.stdout
    added = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--add"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert f"added 3 run(s) to {plan_file}" in added.stdout
    assert longrun.load_plan(plan_file).runs == [*plan.runs, *runs]
    # the confirmation is in the plan now: propose says so, and --add has nothing more to add
    again = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--add"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert "its confirmation runs are in the plan" in again.stdout and "added" not in again.stdout


def test_the_pooled_search_fits_a_search_of_a_wider_step_in_units_of_the_smallest(tmp_path: Path) -> None:
    """The fit is linear in each number's change, so a game of a wider step is a row with a larger change: search c
    (a step of 4) is pooled with a and b (2), its moves counted as two steps of 2."""
    plan = two_search_plan()
    wide = PerturbSpec(share=0.3, step=4)
    c_runs = [perturbed_run(lv, "c").model_copy(update={"perturb": wide, "seed": 9}) for lv in ("ai:easy", "ai:normal")]
    plan = Plan(runs=[*plan.runs, *c_runs])
    held: dict[str, list[dict[str, Any]]] = {run.name: [] for run in plan.runs}
    *searches, pooled = rebalance.propose(plan, held, ROOT)
    assert [p.search for p in searches] == ["a", "b", "c"] and pooled.search == rebalance.POOLED
    assert {r.name for r in pooled.runs} == {f"inland-perturb-{lv}-{s}" for lv in ("easy", "normal") for s in "abc"}
    fields = rebalance.run_fields(c_runs[0], ROOT)
    rng = random.Random(3)
    for run in plan.runs:  # 10 points a change of 2 in Farmland.value, up at ai:easy and down at ai:normal
        if run.perturb is None:
            continue
        base, slope = (0.40, 0.05) if run.label == "ai:easy" else (0.60, -0.05)
        games = []
        for i in range(600):
            changes = draw(fields, run.perturb, run.seed * 1000 + i)
            p = base + slope * (changes.get("Farmland.value", 4) - 4)
            games.append({"index": i, "winners": [0] if rng.random() < p else [1], "perturbation": changes})
        held[run.name] = games
    pooled = rebalance.propose(plan, held, ROOT)[-1]
    assert pooled.levels[0].step == 2
    assert pooled.levels[0].effects["Farmland.value"].effect == pytest.approx(0.10, abs=0.04)


def test_the_pooled_fit_adds_the_games_played_on_known_data(tmp_path: Path) -> None:
    """The seat curve's games are rows at today's data and a race's at its candidate's changes: they pin the
    intercept and the raced number's effect (a race's games say what a candidate does, whatever the fit said)."""
    plan, _, races = raced_plan(tmp_path)
    curve = rebalance.curve_runs(plan, "inland")
    # a second search beside the plan's search t; both play like the curve (its agents and noise) at each level
    plan = Plan(runs=[r for r in plan.runs if r.perturb is None])
    for search in ("t", "a"):
        searched = [perturbed_run(lv, search).model_copy(update={"noise": curve[lv].noise}) for lv in curve]
        plan = Plan(runs=[*plan.runs, *(r for r in searched if r.label != "ai:hard")])
    held: dict[str, list[dict[str, Any]]] = {run.name: [] for run in plan.runs}
    for run in plan.runs:  # perturbed games that move nothing, half won by each seat
        if run.perturb is not None:
            held[run.name] = [{"index": i, "winners": [i % 2], "perturbation": {}} for i in range(rebalance.MIN_GAMES)]
    held["inland-seats-easy"] = [race_game(i, i % 10 < 4) for i in range(40)]  # 40% on today's data
    easy_race = races[0][0]  # Farmland.value 4->6, one step of 2
    assert rebalance.changed_numbers("inland", str(easy_race.options["buildings"]), ROOT) == {"Farmland.value": 6}
    held[easy_race.name] = [race_game(i, i % 10 < 7) for i in range(40)]  # 70% on the candidate
    pooled = rebalance.propose(plan, held, ROOT)[-1]
    easy = pooled.levels[0]
    assert easy.known == 80 and easy.held().endswith("200 of 6000 games + 80 games on known data")
    today = (200 * 0.5 + 40 * 0.4) / 240  # every row at today's data
    assert easy.fit.intercept == pytest.approx(today, abs=0.01)
    assert easy.effects["Farmland.value"].effect == pytest.approx(0.70 - today, abs=0.02)  # the ridge's pull is small
    alone = rebalance.propose(plan, held, ROOT)[0]  # a search of its own adds no known games
    assert alone.search == "a" and alone.levels[0].known == 0 and alone.levels[0].fit.games == 100


# ---------------------------------------------------------------------------
# The floor: a building built too rarely gets cheaper in every candidate
# ---------------------------------------------------------------------------

DOCK = TunableField("Dock.cost.francs", 12, "Dock", "reconstructed", 0, 40)


def built_game(index: int, built: list[str], perturbation: dict[str, int] | None = None) -> dict[str, Any]:
    game = {"index": index, "winners": [0], "owners": dict.fromkeys(built, 0)}
    return game | {"buildings": [["build", b, 0] for b in built], "perturbation": perturbation or {}}


def test_a_building_built_too_rarely_has_its_cost_moved_a_step_down_with_the_evidence() -> None:
    """Target: every building built in at least 5% of ai:normal games. 1 of 40 (2.5%) is too few, 2 of 40 is not."""
    today = [built_game(i, ["Dock"] * (i == 0) + ["Pier"] * (i < 2)) for i in range(40)]
    perturbed = [built_game(0, ["Dock"], {"Dock.cost.francs": 8}), built_game(1, [], {"Dock.cost.francs": 8})]
    perturbed += [built_game(2 + i, [], {"Dock.cost.francs": 16} if i < 3 else {}) for i in range(10)]
    pier = TunableField("Pier.cost.food", 6, "Pier", "reconstructed", 1, 17)
    (floor,) = rebalance.floors(today, ["Dock", "Pier"], [DOCK, pier], 4, perturbed)
    assert floor.building == "Dock" and (floor.built, floor.games) == (1, 40)
    assert floor.move == rebalance.Move("Dock.cost.francs", 12, -1, 8)
    assert floor.evidence == ((8, 1, 2), (12, 0, 7), (16, 0, 3))
    said = floor.describe()
    assert said.startswith("Dock is built in 1 of 40 ai:normal games today (2.5%): every candidate moves")
    assert "at 8, 1 of 2 (50.0%); at 16, 0 of 3 (0.0%)" in said
    (unmovable,) = rebalance.floors(today, ["Dock"], [pier], 4)  # the Dock's cost not among the numbers that move
    assert unmovable.move is None and "none of its costs may move down a step" in unmovable.describe()


def test_every_candidate_makes_the_floors_moves_and_they_alone_are_one() -> None:
    fields = [*FIELDS, DOCK]
    easy = level("ai:easy", 0.40, {"A.value": (0.05, 0.01)})
    normal = level("ai:normal", 0.60, {"A.value": (-0.05, 0.01)})
    for lv in (easy, normal):  # the Dock's number fitted, without effect
        lv.effects["Dock.cost.francs"] = Effect("Dock.cost.francs", 12, 0.0, 0.01, moved=10)
    lift = rebalance.Move("Dock.cost.francs", 12, -1, 10)
    found = list(rebalance.every_candidate([easy, normal], fields, required=(lift,)))
    assert all(lift in c.moves for c in found)
    assert any(c.changes == {"Dock.cost.francs": 10} for c in found)
    best = rebalance.candidates([easy, normal], fields, required=(lift,))[0]
    assert best.qualifies and best.changes == {"A.value": 14, "Dock.cost.francs": 10}


def test_the_search_lifts_the_buildings_todays_curve_builds_too_rarely(tmp_path: Path) -> None:
    plan = synthetic_plan()
    fill_perturbed(tmp_path, plan)
    every = [b for b in rebalance.building_names(plan.runs[3], ROOT) if b != "Dock"]
    write_store(tmp_path, plan.runs[0], [built_game(i, every) for i in range(20)])  # all but the Dock, 20 times
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    (proposal,) = rebalance.propose(plan, held, ROOT)
    (dock,) = proposal.floors
    assert dock.building == "Dock"
    assert dock.move is not None and dock.move.new == dock.move.value - SPEC.step
    best = proposal.best
    assert best is not None and best.changes["Farmland.value"] == 6 and dock.move.key in best.changes
    assert f"- {dock.describe()}." in proposal_lines([proposal])


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"Pier.cost.fod": 10}, "no number that may move is called Pier.cost.fod (its numbers that may move: "),
        ({"Pier.cost.food": 99}, "Pier.cost.food may be 1 to 17, not 99"),
        ({"Pier.cost.food": 6}, "the given changes change nothing"),
    ],
)
def test_a_given_candidate_that_cannot_be_raced_says_why(given: dict[str, int], says: str) -> None:
    fields = rebalance.run_fields(perturbed_run("ai:easy"), ROOT)
    with pytest.raises(longrun.LongrunError) as caught:
        rebalance.given_candidate(given, fields)
    assert says in str(caught.value)


def test_propose_race_given_writes_the_candidate_and_warns_of_a_floor_it_leaves(tmp_path: Path) -> None:
    plan = synthetic_plan()
    fill_perturbed(tmp_path / "store", plan)
    every = [b for b in rebalance.building_names(plan.runs[3], ROOT) if b != "Dock"]
    write_store(tmp_path / "store", plan.runs[0], [built_game(i, every) for i in range(20)])
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    args = ["propose", "--race", "--plan", str(plan_file), "--store", str(tmp_path / "store")]
    args += ["--candidates", str(tmp_path / "c"), "--given", "Pier.cost.food=10"]
    out = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True, cwd=ROOT)
    (written,) = (tmp_path / "c").glob("inland-given-*.json")
    assert f"given: wrote {written.resolve()} (Pier.cost.food 6->10)" in out.stdout
    assert "given: it lowers no cost of Dock: Dock is built in 0 of 20 ai:normal games today" in out.stdout
    entries = [line.strip().rstrip(",") for line in out.stdout.splitlines() if line.startswith("    {")]
    runs = [RunPlan.model_validate_json(e) for e in entries]
    assert [r.label for r in runs] == ["ai:easy", "ai:normal"] and runs[0].name.startswith("inland-race-given-")
    assert "given by hand (Pier.cost.food 6->10)" in runs[0].question
    assert rebalance.data_changes("inland", str(written), ROOT) == ["Pier.cost.food 6->10"]
    Plan(runs=[*plan.runs, *runs])
    wrong = subprocess.run(
        [sys.executable, str(SCRIPT), *args[:-1], "Pier.cost.food"], capture_output=True, text=True, cwd=ROOT
    )
    assert wrong.returncode == 2 and "--given takes 'Number=value' pairs" in wrong.stderr
    # a change a race has judged (here: only its level of a rarely built cost) is confirmed with no race first
    confirm = [a for a in args if a != "--race"] + ["--confirm"]
    out = subprocess.run([sys.executable, str(SCRIPT), *confirm], capture_output=True, text=True, check=True, cwd=ROOT)
    assert "given: the runs that confirm it, with no race first (plan entries):" in out.stdout
    entries = [line.strip().rstrip(",") for line in out.stdout.splitlines() if line.startswith("    {")]
    runs = [RunPlan.model_validate_json(e) for e in entries]
    assert [r.group for r in runs] == ["confirmation"] * 3 and [r.label for r in runs] == [
        "ai:normal",
        "ai:easy",
        "ai:hard",
    ]
    alone = subprocess.run(
        [sys.executable, str(SCRIPT), "propose", "--confirm", "--plan", str(plan_file)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert alone.returncode == 2 and "--confirm confirms a candidate you give" in alone.stderr
    written.unlink()  # a data file the plan names, gone: said plainly, no traceback
    plan_file.write_text(Plan(runs=[*plan.runs, *runs]).model_dump_json(), encoding="utf-8")
    report = ["report", "--plan", str(plan_file), "--store", str(tmp_path / "store"), "--out", str(tmp_path / "r")]
    gone = subprocess.run([sys.executable, str(SCRIPT), *report], capture_output=True, text=True, cwd=ROOT)
    assert gone.returncode == 2 and "Traceback" not in gone.stderr
    assert f"cannot read the data file '{written.resolve()}'" in gone.stderr and "take the runs" in gone.stderr


def test_when_every_raced_candidate_failed_propose_race_starts_a_round_of_others(tmp_path: Path) -> None:
    plan = two_search_plan()
    fill_perturbed(tmp_path / "store", Plan(runs=plan.runs[:5]))
    fill_perturbed(tmp_path / "store", Plan(runs=[*plan.runs[:3], *plan.runs[5:]]))
    plan_file = tmp_path / "plan.json"

    def race_round() -> tuple[str, list[RunPlan]]:
        plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
        args = ["propose", "--race", "--plan", str(plan_file), "--store", str(tmp_path / "store")]
        args += ["--candidates", str(tmp_path / "c")]
        done = subprocess.run(
            [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=True, cwd=ROOT
        )
        lines = [line.strip().rstrip(",") for line in done.stdout.splitlines() if line.startswith("    {")]
        return done.stdout, [RunPlan.model_validate_json(e) for e in lines]

    _, first = race_round()
    assert first
    for run in first:  # every candidate out at its first look at ai:easy: the second seat won them all
        if run.label == "ai:easy":
            write_store(tmp_path / "store", run, [race_game(i, False) for i in range(40)])
    plan = Plan(runs=[*plan.runs, *first])
    said, second = race_round()
    easy = [r for r in first if r.label == "ai:easy"]
    assert f"every candidate raced at every level ({len(easy)}) failed one" in said and second
    changed = {str(r.options["buildings"]): rebalance.changed_numbers("inland", str(r.options["buildings"]), ROOT)
               for r in [*first, *second]}  # fmt: skip
    before = {frozenset(changed[str(r.options["buildings"])].items()) for r in first}
    assert all(frozenset(changed[str(r.options["buildings"])].items()) not in before for r in second)
    Plan(runs=[*plan.runs, *second])


# ---------------------------------------------------------------------------
# Adopting a confirmed candidate
# ---------------------------------------------------------------------------


def longrun_script() -> Any:
    spec = importlib.util.spec_from_file_location("longrun_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("strong", ["", "Zoo"])
def test_only_a_confirmed_candidate_is_adopted_and_todays_data_stays_shipped(
    tmp_path: Path, strong: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, data, confirming = confirmed_store(tmp_path, strong)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    folder = tmp_path / "data"
    shutil.copytree(shipped.DATA_DIR, folder)
    monkeypatch.setattr(shipped, "DATA_DIR", folder)
    default, names = shipped.default_name(), shipped.shipped_names()
    script = longrun_script()
    if strong:
        with pytest.raises(longrun.LongrunError, match="is not confirmed, so it is not adopted") as caught:
            script.adopt(plan_file, tmp_path, data, "2099-01")
        assert "Zoo 100.0% of 20" in str(caught.value)
        assert shipped.default_name() == default and not shipped.shipped_path("buildings-2099-01").exists()
        return
    with pytest.raises(longrun.LongrunError, match="that no shipped file has"):
        script.adopt(plan_file, tmp_path, data, default.removeprefix(shipped.PREFIX))
    with pytest.raises(longrun.LongrunError, match=r"no confirmation run plays nowhere\.json"):
        script.adopt(plan_file, tmp_path, "nowhere.json", "2099-01")
    script.adopt(plan_file, tmp_path, data, "2099-01")
    assert shipped.default_name() == "buildings-2099-01"
    assert shipped.shipped_names() == sorted([*names, "buildings-2099-01"])  # today's stays shipped
    adopted = json.loads(shipped.shipped_path("buildings-2099-01").read_text(encoding="utf-8"))
    farmland = next(b for b in adopted["buildings"] if b["name"] == "Farmland")
    assert farmland["value"] == 6 and farmland["provenance"]["value"] == "reconstructed"
    assert farmland["notes"]["value"].startswith("rebalanced by the long measurements: confirmed by the runs ")
    assert all(r.name in farmland["notes"]["value"] for r in confirming)


def test_the_seat_curve_page_draws_each_confirmed_candidate_beside_the_data_it_changes(tmp_path: Path) -> None:
    plan, _, confirming = confirmed_store(tmp_path, "")
    held = {r.name: read_run(tmp_path, r) for r in plan.runs}
    today, candidate = seat_curves(plan, held, ROOT)
    assert today["title"] == "Le Havre: The Inland Port, today's data"
    assert candidate["title"] == "Le Havre: The Inland Port, Farmland.value 4->6"
    assert [lv["level"] for lv in candidate["levels"]] == ["ai:easy", "ai:normal", "ai:hard"]
    assert [lv["games"] for lv in candidate["levels"]] == [len(held[r.name]) for r in sorted(
        confirming, key=lambda r: ["ai:easy", "ai:normal", "ai:hard"].index(r.label))]  # fmt: skip


def test_a_candidate_under_the_building_floor_is_adopted_only_when_named_and_no_worse_than_today(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every target met but the floor (every building built in 5% of ai:normal games): the Dock, never built, is
    adopted under the floor only when ``--below-floor`` names it and today's data builds it no more often."""
    plan, data, confirming = confirmed_store(tmp_path, "")
    names = sorted({f.entity for f in rebalance.run_fields(plan.runs[3], ROOT)})
    others = [n for n in names if n != "Dock"]
    normal = next(r for r in confirming if r.label == "ai:normal")
    write_store(tmp_path, normal, [confirmation_game(i, others, "") for i in range(normal.games)])
    today = next(r for r in plan.runs if r.name == "inland-seats-normal")
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(), encoding="utf-8")
    folder = tmp_path / "data"
    shutil.copytree(shipped.DATA_DIR, folder)
    monkeypatch.setattr(shipped, "DATA_DIR", folder)
    script = longrun_script()
    for dock_today, allowed, says in (
        (0, [], "is not confirmed, so it is not adopted"),
        (0, ["Zoo"], "--below-floor does not name Dock"),
        (1, ["Dock"], "Dock is built in 0.0% of its ai:normal games, less than on the data it changes, 5.0%"),
    ):
        built = [confirmation_game(i, others + ["Dock"] * (i < dock_today), "") for i in range(today.games)]
        write_store(tmp_path, today, built)
        with pytest.raises(longrun.LongrunError, match=re.escape(says)):
            script.adopt(plan_file, tmp_path, data, "2099-01", allowed)
        assert not shipped.shipped_path("buildings-2099-01").exists()
    write_store(tmp_path, today, [confirmation_game(i, others, "") for i in range(today.games)])
    script.adopt(plan_file, tmp_path, data, "2099-01", ["Dock"])
    adopted = {b["name"]: b for b in json.loads(shipped.shipped_path("buildings-2099-01").read_text())["buildings"]}
    assert adopted["Farmland"]["notes"]["value"].endswith(
        "; adopted under the building floor of 5%, as no worse than the data it changes: Dock built in 0.0% of "
        "ai:normal games (the data it changes: 0.0%)"
    )


def test_a_plan_keeps_the_data_it_was_written_on_when_another_becomes_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plan's ``data`` names what its runs play when they name none: the key of each run stays what it was (its
    stored games stay its own), the changes of every data file are told against it, and a candidate adopted on it
    is that data with the candidate's numbers changed, not today's default with them."""
    game = load_ruleset("inland")
    reference = str(write_data(game, None, {"Zoo.cost.francs": 14}, tmp_path / "inland-earlier.json", "earlier"))
    bare, planned = synthetic_plan(), Plan(runs=synthetic_plan().runs, data={"inland": reference})
    run = planned.runs[0]
    assert run.reference == reference and run.key() == bare.runs[0].key()
    assert longrun.run_options(run, ROOT)["buildings"] == reference
    assert longrun.run_options(bare.runs[0], ROOT)["buildings"] is None  # no plan data: the game's default
    assert "reference" not in longrun.plan_entry(run)  # left to the plan, as written
    assert rebalance.data_name("inland", reference, ROOT) == "the inland-earlier data"
    today = rebalance.plan_path(shipped.shipped_path(shipped.default_name()), ROOT)
    assert rebalance.data_name("inland", today, ROOT) == f"today's data ({shipped.default_name()})"
    assert rebalance.is_default("inland", today, ROOT) and not rebalance.is_default("inland", reference, ROOT)
    for name in shipped.shipped_names():  # the earlier shipped data is not today's
        assert rebalance.is_default("inland", str(shipped.shipped_path(name)), ROOT) == (name == shipped.default_name())
    plan, data, _ = confirmed_store(tmp_path, "", reference)
    assert rebalance.data_changes("inland", data, ROOT, reference) == ["Farmland.value 4->6"]
    assert rebalance.data_changes("inland", data, ROOT) == ["Farmland.value 4->6", "Zoo.cost.francs 16->14"]
    held = {r.name: read_run(tmp_path, r) for r in plan.runs}
    text = "\n".join(rebalance_lines(plan, held, ROOT))
    assert "| the inland-earlier data | ai:normal | 0 of 20 | – | 43-57% | no games yet |" in text
    assert f"- **{data}** (Farmland.value 4->6): " in text
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan.model_dump_json(exclude={"runs": {"__all__": {"reference"}}}), encoding="utf-8")
    assert longrun.load_plan(plan_file).runs[0].reference == reference  # read back from the plan's data
    folder = tmp_path / "shipped"
    shutil.copytree(shipped.DATA_DIR, folder)
    monkeypatch.setattr(shipped, "DATA_DIR", folder)
    longrun_script().adopt(plan_file, tmp_path, data, "2099-01")
    written = json.loads(shipped.shipped_path("buildings-2099-01").read_text())
    adopted = {b["name"]: b for b in written["buildings"]}
    assert adopted["Farmland"]["value"] == 6 and adopted["Zoo"]["cost"]["francs"] == 14
    assert written["about"].endswith(
        " Rebalanced by the long measurements (Farmland.value 4->6; each changed number's note says how); "
        "the data it changes ships as inland-earlier."
    )


def test_the_gap_between_the_levels_is_shown_per_data_file_against_the_gap_the_bands_allow(tmp_path: Path) -> None:
    """Both bands (ai:normal 43-57%, ai:easy 45-55%) can hold only when the ai:normal share less the ai:easy one
    lies within -12 to +12 points; each data file played at both levels shows its gap with Newcombe's interval."""
    plan = synthetic_plan()
    proposal, candidate = made_up_proposal()
    data = rebalance.plan_path(rebalance.write_candidate(proposal, candidate, tmp_path / "c", ROOT), ROOT)
    easy, normal = rebalance.race_runs(plan, proposal, candidate, data)
    plan = Plan(runs=[*plan.runs, easy, normal])
    today_easy, today_normal = (next(r for r in plan.runs if r.name == f"inland-seats-{s}") for s in ("easy", "normal"))
    write_store(tmp_path, today_easy, [race_game(i, i % 10 < 4) for i in range(400)])  # 40%
    write_store(tmp_path, today_normal, [race_game(i, i % 10 < 7) for i in range(400)])  # 70%: a gap of +30
    write_store(tmp_path, easy, [race_game(i, i % 2 == 0) for i in range(400)])  # 50% ...
    write_store(tmp_path, normal, [race_game(i, i % 2 == 0) for i in range(400)])  # ... and 50%: a gap of 0
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    text = "\n".join(gap_lines(plan, held, ROOT))
    assert "by -12 to +12 points" in text
    lo, hi = stats.difference_interval(280, 400, 160, 400)
    assert (
        f"| none: today's data | 40.0% of 400 | 70.0% of 400 | +30.0 [{100 * lo:+.1f}, {100 * hi:+.1f}] | outside |"
        in text
    )
    lo, hi = stats.difference_interval(200, 400, 200, 400)
    assert (
        f"| Farmland.value 4->6, Zoo.cost.francs 16->14 | 50.0% of 400 | 50.0% of 400 | +0.0 [{100 * lo:+.1f}, " in text
    )
    assert "lies outside -12 to +12 for 1, inside for 1; for 0 the games cannot place it yet." in text
    pooled = stats.pooled_difference([(280, 400, 160, 400), (200, 400, 200, 400)])
    assert pooled is not None and pooled.p_value < 0.05
    assert (
        f"Pooled over the 2 data files (inverse-variance weights, Agresti-Caffo variances): {100 * pooled.estimate:+.1f}"
        in text
    )
    assert (
        f"its interval reaches into -12 to +12. Do the data files share one gap? Cochran's Q = {pooled.q:.2f}" in text
    )
    assert ": they differ." in text
    write_store(tmp_path, easy, [race_game(i, i % 10 < 4) for i in range(400)])  # the candidate: 40% ...
    write_store(tmp_path, normal, [race_game(i, i % 10 < 7) for i in range(400)])  # ... and 70%, today's gap again
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    text = "\n".join(gap_lines(plan, held, ROOT))
    assert "its interval lies wholly outside -12 to +12: if the data files share one gap, no change" in text
    assert "Cochran's Q = 0.00 on 1 degree of freedom, p = 1: no sign that they differ." in text
    write_store(tmp_path, normal, [])  # a data file without games at one level has no gap
    held = {run.name: read_run(tmp_path, run) for run in plan.runs}
    assert "Zoo" not in "\n".join(gap_lines(plan, held, ROOT))
