"""How fast one connection may send: a person (at a terminal or in a browser) sends a few messages a
second at most and an agent's client one per decision, so a connection that floods the server has
each message past the limit refused, not acted on.  The limit is the same for every client."""

from __future__ import annotations

import time
from collections.abc import Callable

#: messages a connection may send in a burst, and on average per second after it
BURST = 1000
PER_SECOND = 100.0
#: the reason a message over the limit is refused with
TOO_FAST = f"too many messages: at most {PER_SECOND:g} a second (after a burst of {BURST}); this one was not read"


class MessageRate:
    """A token bucket: ``burst`` messages at once, refilled at ``per_second``."""

    def __init__(
        self, per_second: float = PER_SECOND, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.tokens = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        """Whether one more message may be read now (and count it)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
