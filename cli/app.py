"""The ``lehavre`` command: the Typer app of :mod:`cli.root`, whose table of commands imports each
command's module when that command is looked up."""

from __future__ import annotations

from cli.root import app

__all__ = ["app", "main"]


def main() -> None:
    app()
