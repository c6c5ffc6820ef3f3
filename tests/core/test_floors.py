"""``core`` is two floors: the engine and the kit below, the designer's lab (``core.lab``) above.

The games build on the engine floor only: importing either loads no module of the lab.
"""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("game", ["inland_port", "base_game"])
def test_importing_a_game_loads_no_lab_module(game: str) -> None:
    code = (
        f"import sys, {game}; "
        "print(','.join(sorted(m for m in sys.modules if m == 'core.lab' or m.startswith('core.lab.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"importing {game} loaded lab modules: {out}"


def test_engine_floor_imports_nothing_from_the_lab() -> None:
    code = (
        "import sys, core.protocol, core.games, core.search, core.agents, core.records, core.weights, "
        "core.datafile, core.cards, core.payment, core.net.server; "
        "print(','.join(sorted(m for m in sys.modules if m.startswith('core.lab'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"the engine floor loaded lab modules: {out}"
