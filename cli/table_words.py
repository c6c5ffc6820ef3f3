"""The table's facts in the words of the person at the keyboard: whose decisions an undo takes back.

The engine (:mod:`core.table`, the network server) keeps facts -- who decided, the action's text, in
order (:meth:`core.table.Table.taken_back`) -- and this floor words them, for a game at this keyboard
and for a seat of a hosted game alike.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence


def said_together(texts: Sequence[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted = [f"'{t}'" for t in texts]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def whose_decisions(taken: Sequence[tuple[int, str]], names: Sequence[str], you: int | None) -> str:
    """Decisions (``taken``: who decided, the action's text, in order) in words, from the side of the
    seat ``you`` (None: a spectator): "your 'build Farm' and 'end', then ai:easy's 'take wood'"."""
    parts = []
    for seat, group in itertools.groupby(taken, key=lambda t: t[0]):
        owner = "your" if seat == you else f"{names[seat]}'s"
        parts.append(f"{owner} {said_together([text for _, text in group])}")
    return ", then ".join(parts)


def undo_request_words(
    taken: Sequence[tuple[int, str]], names: Sequence[str], asker: int, maker: int
) -> tuple[str, str]:
    """An undo that ``maker`` (who decided last) must agree to, in each one's words: the question to
    ``maker`` and what ``asker`` is told (every decision it takes back, whose each is)."""
    question = f"{names[asker]} asks to take back {whose_decisions(taken, names, maker)} (then you decide again)."
    stay = "" if any(s == asker for s, _ in taken) else f" ({names[maker]} decided last; your own decisions stay)"
    told = f"This takes back {whose_decisions(taken, names, asker)}{stay}; {names[maker]} is asked to agree."
    return question, told


def undo_absent_words(taken: Sequence[tuple[int, str]], names: Sequence[str], asker: int, maker: int) -> str:
    """Why an undo ``asker`` asked for is refused: ``maker`` (who decided last) is not here to agree."""
    return f"{names[maker]} decided last ({whose_decisions(taken, names, asker)}) and is not here to agree"
