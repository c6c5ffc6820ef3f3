"""``python -m cli``: the same as the ``lehavre`` command."""

from cli.app import main

main()
