"""The computer at the table: a spinner while an agent thinks, and its explanations
(``hint`` and ``why``: the principal variation with each move's player, the evaluation terms)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from cli.renderer import Renderer
from cli.session import Player, plural
from core.protocol import GameState, parse_action


def _takes_progress(agent: Any) -> bool:
    try:
        return "progress" in inspect.signature(agent.choose).parameters
    except (TypeError, ValueError):
        return False


def agent_choose(agent: Any, state: GameState, console: Console, label: str) -> Any:
    """Ask ``agent`` for an action on a copy; a spinner on a terminal while it thinks."""
    view = state.clone()
    if not console.is_terminal or not _takes_progress(agent):
        return agent.choose(view)
    with console.status(f"{label} is thinking...", spinner="dots") as status:

        def progress(info: dict[str, Any]) -> None:
            status.update(f"{label} is thinking... depth {info.get('depth', '?')}, {info.get('nodes', 0):,} positions")

        return agent.choose(view, progress=progress)


def labelled_pv(state: GameState | None, pv: Sequence[Any], tag: Callable[[int], str]) -> list[str]:
    """The moves of a principal variation, each with who makes it ('P2: take wood').

    The moves are followed from ``state`` (where the line starts); once one
    cannot be followed (the AI searched a re-dealt copy of hidden cards), the
    rest are shown without a player.
    """
    out: list[str] = []
    s = state.clone() if state is not None else None
    for move in pv:
        text = str(move)
        if s is not None and not s.is_terminal():
            who = s.current_player()
            try:
                s.apply_action(parse_action(s, text))
            except Exception:
                s = None
            else:
                out.append(f"{tag(who)}: {text}")
                continue
        out.append(text)
    return out


def explain_info(
    info: dict[str, Any],
    who: str,
    verb: str = "chose",
    *,
    state: GameState | None = None,
    tag: Callable[[int], str] | None = None,
) -> RenderableType:
    """The search agent's ``last_info`` in words: plan, score, alternatives, terms.

    ``state`` is the position the decision was made in and ``tag(seat)`` a
    player's short name: with them the line names the player of every move.
    """
    if not info:
        return Text(f"{who} has not explained a move yet.")
    lines: list[RenderableType] = []
    head = Text()
    head.append(f"{who} {verb} ")
    head.append(str(info.get("action", "?")), style="bold")
    if info.get("forced"):
        several = state is not None and len(state.legal_actions()) > 1
        head.append(
            " (the one sensible move here, so it was not searched)." if several else " (the only legal action)."
        )
        lines.append(head)
        return Group(*lines)
    mover = state.current_player() if state is not None and tag is not None else None
    score = info.get("score")
    if isinstance(score, (int, float)):
        head.append(
            f"  evaluation {score:+.1f} for " + (tag(mover) if mover is not None and tag else "the player to move")
        )
    depth = info.get("depth")
    if depth:
        head.append(f", looking {depth} decisions ahead ({info.get('nodes', 0):,} positions)")
    lines.append(head)
    pv = info.get("pv") or []
    if len(pv) > 1:
        moves = labelled_pv(state, pv[:8], tag) if tag is not None else [str(x) for x in pv[:8]]
        lines.append(Text("Expected line: " + "  ->  ".join(moves) + (" ..." if len(pv) > 8 else "")))
    alts = info.get("alternatives") or []
    if len(alts) > 1:
        shown = ", ".join(f"{a} ({s:+.1f})" for a, s in alts[1:5])
        lines.append(Text(f"Next best (bounds): {shown}", style="dim"))
    terms = info.get("terms") or {}
    if terms:
        whose = f" (for {tag(mover)})" if mover is not None and tag else ""
        shown = ", ".join(f"{k} {v:+.1f}" for k, v in terms.items() if round(v, 1))
        total = sum(terms.values())
        lines.append(
            Text(f"At the end of that line{whose}: {shown or 'every term 0'} (together {total:+.1f})", style="dim")
        )
    return Group(*lines)


@dataclass
class AIDecision:
    """One decision an agent made: its seat, the position before it, and its ``last_info``."""

    seat: int
    before: GameState
    action: str
    info: dict[str, Any]


#: action texts that only close a turn (never a turn's main choice)
TURN_ENDS = ("end", "pass")


def main_choice(decisions: Sequence[AIDecision]) -> AIDecision | None:
    """The turn's main choice: its first searched decision that does more than end the turn; None if none was searched."""
    searched = [d for d in decisions if d.info and not d.info.get("forced")]
    doing = [d for d in searched if d.action.strip().lower() not in TURN_ENDS]
    pool = doing or searched
    return pool[0] if pool else None


def explain_turn(
    decisions: Sequence[AIDecision],
    renderer: Renderer,
    players: Sequence[Player],
    since: str = "Since your last decision",
) -> RenderableType:
    """Every decision the computer made between two decisions of a person, and the thinking behind its main choice."""
    tag = lambda seat: renderer.seat_tag(players, seat)  # noqa: E731
    lines: list[RenderableType] = [
        Text(f"{since} the computer made {plural(len(decisions), 'decision')}:", style="bold")
    ]
    for n, d in enumerate(decisions, 1):
        info = d.info
        if not info:
            note = "does not explain its moves"
        elif info.get("forced"):
            note = "the one sensible move" if len(d.before.legal_actions()) > 1 else "the only legal action"
        else:
            note = f"searched {info.get('depth', 0)} decisions ahead"
            if isinstance(info.get("score"), (int, float)):
                note += f", evaluation {info['score']:+.1f}"
        lines.append(Text(f"{n:>3}. {renderer.who(players, d.seat)}: {d.action}  ({note})"))
    seats = list(dict.fromkeys(d.seat for d in decisions))
    for seat in seats:
        mine = [d for d in decisions if d.seat == seat]
        main = main_choice(mine)
        who = renderer.who(players, seat)
        if main is None:
            if not any(d.info for d in mine):
                lines.append(Text(f"{who} does not explain its moves (only the ai agent does).", style="dim"))
            continue
        lines.append(Text(f"{who}'s main choice:", style="bold"))
        lines.append(explain_info(main.info, who, state=main.before, tag=tag))
    return Group(*lines)
