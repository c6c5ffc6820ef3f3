"""The choices a view carries (:class:`core.net.messages.SeatView`), worded as the terminal's numbered
choices word them (the same grouping and notes: :func:`cli.renderer.choice_groups`), so that a page in
a browser and a screen in a terminal offer a person the same choices in the same words."""

from __future__ import annotations

from cli.games import renderer_for
from cli.renderer import choice_groups, group_entry, way_entry
from core.net.messages import Choice, ChoiceGroup
from core.net.server import plain_choices
from core.protocol import GameState


def view_choices(state: GameState) -> tuple[list[ChoiceGroup], int]:
    """The numbered choices of the seat to move in ``state`` and how many ways to pay they leave out."""
    r = renderer_for(state.game.name)
    if r is None:
        return plain_choices(state)
    groups, unlisted = choice_groups(r, state)
    out = []
    for head, actions in groups:
        title, note = group_entry(r, state, head, actions)
        ways = [(a, *way_entry(r, state, a)) for a in actions] if len(actions) > 1 else [(actions[0], "", note)]
        out.append(
            ChoiceGroup(head=title, note=note, actions=[Choice(text=str(a), how=how, note=n) for a, how, n in ways])
        )
    return out, unlisted
