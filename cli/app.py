"""The ``lehavre`` command: the Typer app (:mod:`cli.root`) with every command module added.

Command modules register themselves on :data:`cli.root.app` when imported; the
imports above bring them in (one line each, so they can be added independently).
"""

from __future__ import annotations

import cli.balance_cmd
import cli.base_cmd
import cli.inland_cmd
import cli.net_cmd
import cli.playtest_cmd
import cli.replay_cmd
import cli.review_cmd
import cli.rules_cmd
import cli.saves_cmd
import cli.skill_cmd  # noqa: F401  (adds its commands to app)
from cli.root import app


def main() -> None:
    app()


#: the one line 'lehavre --help' shows for commands whose first sentence is longer than that list's column
SHORT_HELP = {
    "inland": "Play the Inland Port, or watch two agents play it.",
    "base": "Play Le Havre (1-5 players), or watch agents play it.",
    "rules": "The rulings, or a game's building reference.",
    "host": "Host a game over the network.",
    "join": "Join a game hosted with 'lehavre host'.",
    "watch": "Watch a game hosted with 'lehavre host'.",
}
for _info in app.registered_commands:
    if _info.short_help is None and _info.name in SHORT_HELP:
        _info.short_help = SHORT_HELP[_info.name]

#: 'lehavre --help' lists the rules right after the games they explain
_rules = next(i for i, c in enumerate(app.registered_commands) if c.name == "rules")
_inland = next(i for i, c in enumerate(app.registered_commands) if c.name == "inland")
app.registered_commands.insert(_inland + 1, app.registered_commands.pop(_rules))
