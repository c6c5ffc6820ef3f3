"""What a new user reads at 80 columns: every command's --help (paragraphs wrapped at word
boundaries, never cut mid-sentence; option texts in a wide column) and the review's first screen
(a summary with the turning points, the full list on request)."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from cli.review_view import review_screen, tagger
from core.lab.review import Decision, GameReview

LEHAVRE = str(Path(sys.executable).parent / "lehavre")
COMMANDS = [
    [],
    ["inland"],
    ["base"],
    ["rules"],
    ["saves"],
    ["replay"],
    ["review"],
    ["playtest"],
    ["compare"],
    ["balance"],
    ["skill"],
    ["host"],
    ["join"],
    ["watch"],
]


def help_text(args: list[str], tmp_path: Path) -> str:
    env = dict(os.environ, COLUMNS="80", LINES="24", LEHAVRE_DATA_DIR=str(tmp_path))
    env.pop("TERMINAL_WIDTH", None)
    done = subprocess.run([LEHAVRE, *args, "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def indent(line: str) -> int:
    return len(line) - len(line.lstrip())


ROW = re.compile(r"\s*\S.*?\S\s{2,}\S")  # a row of a list: a name, two spaces or more, its text


def early_breaks(text: str, width: int = 78) -> list[str]:
    """Lines broken before they had to be: the next line of the same paragraph (or of the same
    option's text) starts with a word that would have fitted in ``width`` (80 columns less the
    help's margin of 2)."""
    lines = [line.rstrip() for line in text.splitlines()]
    bad = []
    section = ""
    for line, nxt in itertools.pairwise(lines):
        if line and not line[0].isspace():
            section = line
        if not line.strip() or not nxt.strip() or nxt.lstrip().startswith("-"):
            continue
        in_list = section in ("Arguments:", "Commands:")
        if in_list and indent(nxt) == 2:
            continue  # the next argument or command
        row = ROW.match(line) if line.lstrip().startswith("-") or (in_list and indent(line) == 2) else None
        start = len(row.group(0)) - 1 if row else indent(line)
        if indent(nxt) != start:
            continue
        word = nxt.split()[0]
        gap = 2 if word.startswith("[") else 1  # click puts two spaces before '[default: ...]'
        if len(line) + gap + len(word) <= width:
            bad.append(f"{line!r} / {nxt!r}")
    return bad


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "lehavre")
def test_every_help_reads_cleanly_at_80_columns(args, tmp_path):
    text = help_text(args, tmp_path)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert not early_breaks(text), early_breaks(text)
    # the option texts have room: each starts within the first 40 columns
    starts = [len(m.group(0)) - 1 for m in map(re.compile(r"\s+-\S.*?\S\s{2,}\S").match, lines) if m]
    assert all(s <= 40 for s in starts), starts
    assert len(lines) <= 70


def test_the_review_help_keeps_its_labels_in_one_sentence(tmp_path):
    flat = " ".join(help_text(["review"], tmp_path).split())
    assert "Labels: inaccuracy from 2, mistake from 5, blunder from 10 francs lost" in flat
    assert "--all" in flat


# -- the review: a summary first, every labelled decision on request ------------------------------------


def planted_review() -> GameReview:
    """Two players, 40 decisions of which 12 are labelled (the second player's are the worst)."""
    decisions = []
    for i in range(40):
        seat = i % 2
        lost = (12.0 - i / 10 if seat else 2.5) if i % 3 == 0 else 0.0
        decisions.append(
            Decision(i, seat, f"take {i}", f"build {i}", 5.0, 5.0 - lost, lost, False, 3, 100, (f"build {i}", "end"))
        )
    return GameReview("inland", "k", ["You", "ai:normal"], "hard", "40,000 nodes", decisions, [40, 52])


def rendered(show_all: bool) -> list[str]:
    console = Console(width=80, record=True, file=open(os.devnull, "w"), color_system=None)
    review = planted_review()
    console.print(review_screen(review, [], tagger(review.players), 80, show_all, "lehavre review g --all"))
    return console.export_text().splitlines()


def test_the_review_shows_a_summary_first_and_says_how_to_see_the_rest():
    lines = rendered(show_all=False)
    text = "\n".join(lines)
    assert "Francs lost against ai:hard" in text and "turning points" in text
    assert "Labelled decisions" not in text
    # the first player has no decision among the turning points: their worst one is shown
    assert "The other players' worst decisions" in text and "take 0" in text
    flat = " ".join(text.split())
    assert "14 labelled decisions (3 blunders, 4 mistakes, 7 inaccuracies); every one with its better line:" in flat
    assert "lehavre review g --all" in flat
    assert len(lines) < 60


def test_the_full_list_on_request():
    text = "\n".join(rendered(show_all=True))
    assert "Labelled decisions (14)" in text and "--all" not in text
