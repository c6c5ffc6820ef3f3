"""The README is a guide and docs/ the record of measurements, both for people who read them today.

The README: at most 300 lines; the two set-up commands exactly as `.ci/run` greps them; no sentence about
the work's own history; nothing a user cannot follow (a path into the project's private notes, a rulebook
seed file, an issue number); every `lehavre ...` command in a code block parses against today's command
line, option values included (without running it); every benchmark command names a script that exists
and options that script declares; every link to a file or a docs heading leads somewhere.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer.main

from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
USER_TEXTS = [README, *DOCS]

PLAY = "python3 -m venv .venv && . .venv/bin/activate && pip install -q -e . && lehavre inland"
TESTS = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest -q -n 4"

DIARY = (
    "this round",
    "when this was written",
    "still being played",
    "this session",
    "not run this round",
    "at the time of writing",
)
#: what a user cannot follow: the project's private notes, a rulebook's seed file, an issue number
POINTERS = {
    "a path to ../shared": re.compile(r"\.\./shared|/work/shared"),
    "a .txt seed file": re.compile(r"[\w-]+\.txt\b"),
    "an issue number": re.compile(r"\bissue\s*#|\bissue \d+|#\d{2,}\b", re.IGNORECASE),
}
OPERATORS = set("();<>|&")


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def command_lines(text: str, program: str) -> list[str]:
    """Every command line in the text's code blocks that starts with ``program`` (after an optional
    ``$ `` prompt), with its continuation lines joined."""
    found = []
    for block in code_blocks(text):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i].strip().removeprefix("$ ")
            if line.startswith(program):
                while line.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    line = line[:-1] + " " + lines[i].strip()
                found.append(line)
            i += 1
    return found


def words(command: str) -> list[str]:
    """The words of a shell command up to its first operator (a pipe, ``;``, ``&&``, a redirection),
    comments dropped."""
    lex = shlex.shlex(command, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = "#"
    out = []
    for token in lex:
        if set(token) <= OPERATORS:
            break
        out.append(token)
    return out


def parse_lehavre(args: list[str]) -> None:
    """Parse ``lehavre ARGS`` as the program would, option values and their checks included, without
    running the command; raises the command line's own error for anything it would refuse."""
    group = typer.main.get_command(app)
    ctx = group.make_context("lehavre", list(args))
    name, command, rest = group.resolve_command(ctx, list(args))
    assert command is not None and name is not None
    command.make_context(name, rest, parent=ctx)


def test_readme_is_at_most_300_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; a guide has at most 300 (the rest goes to docs/)"


def test_readme_shows_the_two_set_up_commands_exactly():
    lines = README.read_text(encoding="utf-8").splitlines()
    for command in (PLAY, TESTS):
        assert command in lines, f"README.md no longer shows this line exactly: {command}"
    # .ci/run reads the test command from the README; both must say the same
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "INSTALL=\"python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'\"" in ci
    assert 'TESTS=".venv/bin/python -m pytest -q -n 4"' in ci


@pytest.mark.parametrize("path", USER_TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_diary(path: Path):
    text = path.read_text(encoding="utf-8").lower()
    found = [phrase for phrase in DIARY if phrase in text]
    assert not found, f"{path.name} tells the work's history ({', '.join(found)}): say what is true today"


@pytest.mark.parametrize("path", USER_TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_a_user_cannot_follow(path: Path):
    text = path.read_text(encoding="utf-8")
    found = [f"{what}: {m.group(0)!r}" for what, rx in POINTERS.items() for m in rx.finditer(text)]
    assert not found, f"{path.name} points where a user cannot follow: {found}"


def test_docs_folder_holds_the_measurements():
    names = {p.name for p in DOCS}
    assert "measurements.md" in names
    text = (ROOT / "docs" / "measurements.md").read_text(encoding="utf-8")
    assert "## Open measurements" in text


@pytest.mark.parametrize("path", USER_TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_lehavre_command_parses(path: Path):
    commands = command_lines(path.read_text(encoding="utf-8"), "lehavre ")
    if path == README:
        assert len(commands) >= 30, "the README's code blocks should show the commands a player needs"
    bad = []
    for command in commands:
        try:
            parse_lehavre(words(command)[1:])
        except Exception as exc:  # the command line's own error, whatever its class
            bad.append(f"{command}\n    {type(exc).__name__}: {exc}")
    assert not bad, "commands that today's 'lehavre' refuses:\n" + "\n".join(bad)


def test_the_parse_check_refuses_what_lehavre_refuses():
    parse_lehavre(["inland", "--seat", "first", "--level", "hard"])
    for args in (["inland", "--bogus"], ["inland", "--level", "extreme"], ["nosuchcommand"], ["base", "--tutorial"]):
        with pytest.raises(Exception, match=r"(?i)no such|not one of"):
            parse_lehavre(args)
    assert words("lehavre saves | head  # newest first") == ["lehavre", "saves"]


@pytest.mark.parametrize("path", USER_TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_benchmark_command_names_a_script_and_its_options(path: Path):
    bad = []
    for command in command_lines(path.read_text(encoding="utf-8"), ".venv/bin/python benchmarks/"):
        script, *args = words(command)[1:]
        source = ROOT / script
        if not source.is_file():
            bad.append(f"{command}: no {script}")
            continue
        declared = source.read_text(encoding="utf-8")
        bad += [f"{command}: {script} declares no {a}" for a in args if a.startswith("--") and f'"{a}"' not in declared]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", USER_TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_leads_somewhere(path: Path):
    text = path.read_text(encoding="utf-8")
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.is_file():
            bad.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(linked):
            bad.append(f"{target}: no heading '{anchor}' in {linked.name}")
    assert not bad, f"{path.name}: " + "; ".join(bad)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


def _tables(text: str) -> list[list[str]]:
    """Every markdown table of ``text``: its lines, header first."""
    tables: list[list[str]] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            tables.append(block)
            block = []
    return tables


def test_the_tables_taken_from_the_long_measurements_report_are_as_it_prints_them():
    """A table of docs/measurements.md whose header is one of the long measurements' report tables (the AI
    against its peers, skill depth, the two games side by side) is that table, row for row, as the committed
    report prints it: `python benchmarks/longrun.py report` is the command beside it."""
    report = (ROOT / "benchmarks" / "longrun" / "report.md").read_text(encoding="utf-8")
    in_report = {tuple(t): t[0] for t in _tables(report)}
    headers = {t[0] for t in _tables(report)}
    copied = [t for t in _tables((ROOT / "docs" / "measurements.md").read_text(encoding="utf-8")) if t[0] in headers]
    assert len(copied) >= 3  # the peers, the skill steps and the two games
    for table in copied:
        assert tuple(table) in in_report, f"docs/measurements.md's table '{table[0][:60]}...' differs from the report's"
