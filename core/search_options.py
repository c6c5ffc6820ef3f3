"""The ``ai`` agent's checked numbers: its thinking time and its noise (named by :mod:`core.search`).

They subclass ``float``, which a module compiled with mypyc cannot (:mod:`core.compiled`), so they live here.
"""

from __future__ import annotations

import math


class ThinkTime(float):
    """Seconds an ``ai`` agent thinks per move instead of its level's node budget (``--think-time``):
    a positive, finite number.  Checked here, once: whatever holds a ThinkTime holds a good one."""

    def __new__(cls, seconds: float) -> ThinkTime:
        if not (seconds > 0 and math.isfinite(seconds)):
            raise ValueError(f"the thinking time must be a positive number of seconds, not {seconds:g}")
        return super().__new__(cls, seconds)


class Noise(float):
    """How far (evaluation points, about francs) from its best an ``ai`` agent draws its move
    (``--noise``, ``ai:easy~3``): a finite number >= 0.  Checked here, once."""

    def __new__(cls, points: float) -> Noise:
        if not (points >= 0 and math.isfinite(points)):
            raise ValueError(f"the noise must be a number >= 0 (evaluation points, about francs), not {points:g}")
        return super().__new__(cls, points)


#: no noise: the best move, always
NO_NOISE = Noise(0.0)
