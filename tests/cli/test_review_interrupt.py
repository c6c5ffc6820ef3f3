"""Ctrl-C during ``lehavre review`` says what was done and keeps the searched decisions; the same command
continues from them.  Command-line behaviour only (no game rule is asserted, so no rulebook passage is
cited).  Ctrl-C is pressed in a pseudo-terminal, as a person presses it, once some decisions are reviewed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from core.agents import make_agent
from core.lab import review as rv
from core.records import Seat, record_from_state, save_record
from inland_port import RULESET
from tests.cli.pty_helpers import finish, spawn

#: a short game, and a reference slow enough (ai:normal) that Ctrl-C comes in the middle of its review
ACTIONS, LEVEL = 24, "normal"


def save_short_game(data: Path) -> None:
    """Greedy against random for ``ACTIONS`` actions, saved as 'short' in the data folder ``data``."""
    state = RULESET.new_game(2)
    agents = [make_agent("greedy", 1, RULESET), make_agent("random", 2, RULESET)]
    while len(state.history) < ACTIONS:
        state.apply_action(agents[state.current_player()].choose(state.clone()))
    record = record_from_state("inland", None, 2, state, [Seat.of_agent("greedy"), Seat.of_agent("random")])
    save_record(record, data / "saves" / "short.json")


def test_ctrl_c_during_review_keeps_the_searched_decisions_and_the_rerun_continues(tmp_path: Path) -> None:
    save_short_game(tmp_path)
    child = spawn(tmp_path, "review", "short", "--level", LEVEL, cols=80, rows=24)
    child.expect(rf"Reviewing.*?\b[1-9][0-9]*/{ACTIONS}\b", timeout=120)  # some decisions are reviewed
    child.sendintr()
    status, text = finish(child)
    said = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).split())
    assert status == 130, said
    assert "Traceback" not in said
    found = re.search(rf"interrupted: (\d+) of {ACTIONS} decisions reviewed; they are kept", said)
    assert found is not None, said
    kept_files = list((tmp_path / "reviews").glob("*.partial.json"))
    assert len(kept_files) == 1
    kept = json.loads(kept_files[0].read_text())["decisions"]
    assert len(kept) == int(found[1]) >= 1
    again = spawn(tmp_path, "review", "short", "--level", LEVEL, "--json", cols=80, rows=24)
    status, text = finish(again)
    assert status == 0, text
    review = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert len(review["decisions"]) == ACTIONS
    by_index = {d["index"]: d for d in review["decisions"]}
    for d in kept:  # the kept decisions are the review's, as searched before Ctrl-C
        assert {k: by_index[d["index"]][k] for k in d} == d
    assert not list((tmp_path / "reviews").glob("*.partial.json"))  # the whole review is stored instead


def test_kept_decisions_are_not_searched_again_and_the_rest_equal_a_whole_review() -> None:
    """Each decision's search depends only on its position, the level and the seed: the review of the rest
    after the kept decisions equals the whole review, and a kept decision is taken as it was kept."""
    state = RULESET.new_game(2)
    agents = [make_agent("greedy", 1, RULESET), make_agent("random", 2, RULESET)]
    while len(state.history) < 12:
        state.apply_action(agents[state.current_player()].choose(state.clone()))
    source = rv.GameSource("inland", {}, state.seed, tuple(state.history))
    whole = rv.review_decisions(source, "easy")
    marked = rv.Decision(3, whole[3].seat, whole[3].played, "kept as it was", 1.0, 0.5, 0.5, False)
    resumed = rv.review_decisions(source, "easy", known=[*whole[:3], marked])
    assert resumed[3] == marked  # not searched again
    assert resumed[:3] + resumed[4:] == whole[:3] + whole[4:]


def test_ctrl_c_inside_the_review_raises_with_every_decision_done() -> None:
    state = RULESET.new_game(2)
    agents = [make_agent("greedy", 1, RULESET), make_agent("random", 2, RULESET)]
    while len(state.history) < 12:
        state.apply_action(agents[state.current_player()].choose(state.clone()))
    source = rv.GameSource("inland", {}, state.seed, tuple(state.history))

    def ctrl_c_after_five(done: int, total: int) -> None:
        if done >= 5:
            raise KeyboardInterrupt

    try:
        rv.review_decisions(source, "easy", progress=ctrl_c_after_five)
    except rv.ReviewInterrupted as stopped:
        assert stopped.total == 12 and len(stopped.decisions) >= 5
        assert stopped.decisions == rv.review_decisions(source, "easy", indices=[d.index for d in stopped.decisions])
    else:
        raise AssertionError("Ctrl-C did not stop the review")
