"""The shortcuts that list an effect's choices with their outcomes (``effects.OUTCOMES``, used by the
search's caches) agree with carrying out each choice (seeds/004, "Use": the effect of a building)."""

from __future__ import annotations

import random

from inland_port import effects
from inland_port.buildings import default_catalog


def test_outcomes_shortcut_equals_running_each_choice() -> None:
    cat = default_catalog()
    wh = cat.warehouse
    rng = random.Random(5)
    checked = 0
    for b in cat.buildings:
        fast = effects.OUTCOMES.get(b.effect)
        if fast is None:
            continue
        choices_fn, run_fn = effects.REGISTRY[b.effect]
        for _ in range(40):
            cells = tuple(rng.randrange(wh.cells) for _ in range(4))
            francs = rng.randrange(0, 9)
            for s in (2, 3, 4):
                slow = [
                    (c, run_fn(b.params, cells, francs, s, c, wh)) for c in choices_fn(b.params, cells, francs, s, wh)
                ]
                assert fast(b.params, cells, francs, s, wh) == slow, (b.name, cells, francs, s)
                checked += 1
    assert checked > 100  # the built-in buildings include distribute and trade effects
