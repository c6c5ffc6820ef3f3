"""The generic play loop, written once for every rule set: the names the game commands use.

It knows only :mod:`core.protocol` (states, legal actions, canonical action
texts, ``parse_action``), :mod:`core.agents` and :mod:`core.records`; what a
game looks like on screen comes from a :class:`~cli.renderer.Renderer` (one per
rule set, e.g. ``cli.render_inland.InlandRenderer``).  Where each part lives:

* :mod:`core.table` -- the game being played (its stack of positions, record and save
  file, the undo rule, the one loop; :class:`~core.table.Table`) and its seats;
* :mod:`cli.session` -- starting, loading and continuing a game at this keyboard;
* :mod:`cli.prompt` -- :func:`play`: the prompt loop and its commands;
* :mod:`cli.screen` -- what a person sees before each decision, fitted to the terminal;
* :mod:`cli.watch` -- :func:`watch`: a whole game between agents;
* :mod:`cli.explain` -- the computer thinking (spinner) and explaining (``hint``, ``why``);
* :mod:`cli.options` -- what every game command's options do the same way;
* :mod:`cli.renderer` -- the renderer interface.
"""

from __future__ import annotations

from cli.explain import AIDecision, agent_choose, explain_info, explain_turn, labelled_pv, main_choice
from cli.options import (
    CONTINUING_WHY,
    WATCHING_WHY,
    Level,
    check_mode,
    level_help,
    opponent_with_level,
    refuse_conflicts,
    think_time_help,
)
from cli.prompt import PlayLoop, help_text, play
from cli.renderer import Renderer, final_table
from cli.session import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    HINT_AGENT,
    Player,
    continue_command,
    draw_seed,
    load_session,
    make_player,
    new_session,
    plural,
    resume_or_exit,
    with_level,
)
from cli.watch import watch, watch_or_exit
from core.table import Seat, Table

__all__ = [
    "CONTINUING_WHY",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "HINT_AGENT",
    "WATCHING_WHY",
    "AIDecision",
    "Level",
    "PlayLoop",
    "Player",
    "Renderer",
    "Seat",
    "Table",
    "agent_choose",
    "check_mode",
    "continue_command",
    "draw_seed",
    "explain_info",
    "explain_turn",
    "final_table",
    "help_text",
    "labelled_pv",
    "level_help",
    "load_session",
    "main_choice",
    "make_player",
    "new_session",
    "opponent_with_level",
    "play",
    "plural",
    "refuse_conflicts",
    "resume_or_exit",
    "think_time_help",
    "watch",
    "watch_or_exit",
    "with_level",
]
