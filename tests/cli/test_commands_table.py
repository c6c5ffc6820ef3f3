"""The table of ``lehavre``'s commands (cli/root.py): each command's module is imported when that command
is looked up, not when ``lehavre`` starts, and the table agrees with what the modules add."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from cli.app import app
from cli.root import COMMANDS

ROOT = Path(__file__).resolve().parents[2]

#: a fresh interpreter runs 'lehavre ARGS' and prints the command modules it imported
_PROBE = """
import sys
from cli.app import main
from cli.root import COMMANDS
sys.argv = ["lehavre", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(sorted(m for m in set(COMMANDS.values()) if m in sys.modules), file=sys.stderr)
"""


def imported_commands(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False
    )
    return ast.literal_eval(done.stderr.strip().splitlines()[-1])


def test_each_module_adds_exactly_the_commands_the_table_gives_it():
    for module in set(COMMANDS.values()):
        importlib.import_module(module)
    added = {info.name: info.callback.__module__ for info in app.registered_commands if info.callback}
    assert added == COMMANDS


def test_starting_imports_only_the_command_asked_for():
    assert imported_commands("--version") == []
    # the rules need none of the other commands (no network, no lab)
    assert imported_commands("rules", "--help") == ["cli.rules_cmd"]
    # 'lehavre --help' lists every command, so it imports them all
    assert imported_commands("--help") == sorted(set(COMMANDS.values()))


def test_help_lists_the_table_in_its_order_and_a_typo_is_still_answered():
    listed = CliRunner().invoke(app, ["--help"]).output.split("Commands:\n", 1)[1]
    assert [line.split()[0] for line in listed.splitlines() if line.strip()] == list(COMMANDS)
    typo = CliRunner().invoke(app, ["inlnd"])
    assert typo.exit_code == 2 and "No such command 'inlnd'. Did you mean 'inland'?" in typo.output


def test_no_command_module_imports_the_importer_of_the_table():
    """The table imports command modules by name; none imports ``cli.app`` back (only ``python -m cli``
    does), so looking a command up can never come round to a module half-imported."""
    importers = []
    for path in sorted((ROOT / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if "cli.app" in names:
                importers.append(path.name)
    assert importers == ["__main__.py"]
