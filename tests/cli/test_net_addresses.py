"""``lehavre join`` and ``lehavre watch`` check the host's address before connecting: a port out of
range is a usage error in the project's words (as ``host --port`` says it), exit 2, no traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.app import app


@pytest.mark.parametrize(
    "args, port",
    [
        (("join", "127.0.0.1:99999", "abcd"), "99999"),
        (("watch", "127.0.0.1:70000", "abcd"), "70000"),
        (("join", "ws://127.0.0.1:0", "abcd"), "0"),
    ],
)
def test_a_port_out_of_range_is_a_usage_error(args, port):
    done = CliRunner().invoke(app, list(args))
    assert done.exit_code == 2, done.output
    said = " ".join(done.output.split())
    assert f"the port {port} is out of range: give a number from 1 to 65535" in said
    assert "Traceback" not in done.output and not isinstance(done.exception, ValueError)
