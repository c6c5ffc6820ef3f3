"""One replay (core.records.replay_actions): a record's action texts turned into positions for saves,
network views, reviews and ``lehavre replay`` alike, with one error for an action that does not replay
(its number and text, why, and what is legal there)."""

from __future__ import annotations

import pytest

from core.lab.review import GameSource
from core.net.view import ViewReplay
from core.records import ReplayError, replay_actions
from inland_port import RULESET as INLAND


def _game(n: int) -> list[str]:
    state = INLAND.new_game(3)
    for _ in range(n):
        state.apply_action(state.legal_actions()[-1])
    return list(state.history)


def test_each_action_is_replayed_with_who_decided_it_and_the_position_before() -> None:
    texts = _game(6)
    state = INLAND.new_game(3)
    steps = list(replay_actions(state, texts, keep_before=True))
    assert [r.number for r in steps] == [1, 2, 3, 4, 5, 6] and [r.text for r in steps] == texts
    assert state.history == texts
    for r in steps:
        assert r.before is not None and r.actor == r.before.current_player()
        assert r.before.history == texts[: r.number - 1]


def test_an_action_that_does_not_replay_names_its_number_text_and_what_is_legal_there() -> None:
    texts = _game(3)
    state = INLAND.new_game(3)
    for _ in replay_actions(state, texts[:2]):
        pass
    legal = [str(a) for a in state.legal_actions()]
    with pytest.raises(ReplayError) as caught:
        list(replay_actions(INLAND.new_game(3), [*texts[:2], "build Nowhere"]))
    err = caught.value
    assert (err.number, err.text, err.legal) == (3, "build Nowhere", legal)
    assert str(err).startswith("action 3 'build Nowhere' is not legal there: ")
    assert f"legal there: '{legal[0]}'" in str(err)


def test_saves_views_and_reviews_raise_the_one_error() -> None:
    """The network view and the review replay through the one function: the same error, the same words."""
    texts = [*_game(2), "build Nowhere"]
    view = ViewReplay(INLAND)
    with pytest.raises(ReplayError, match="action 3 'build Nowhere' is not legal there"):
        view.update(3, {}, texts)
    source = GameSource("inland", {}, 3, tuple(texts))
    with pytest.raises(ReplayError, match="action 3 'build Nowhere' is not legal there"):
        source.positions()
