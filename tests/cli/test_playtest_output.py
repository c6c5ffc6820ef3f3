"""``lehavre playtest --json FILE`` is written whatever happens to standard output.

A reader that closes standard output early (``| head -2``) used to end the command with exit 1, no
file and no word.  Here standard output is a pipe whose reading end is closed before the command
starts, so the first table meets a closed pipe every time (with ``| head`` it depends on timing).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.cli.pty_helpers import LEHAVRE, ROOT


def test_json_is_written_when_standard_output_is_closed(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first table
    try:
        args = ["playtest", "inland", "--games", "3", "--agents", "random,random", "--seed", "9"]
        done = subprocess.run(
            [LEHAVRE, *args, "--json", str(target), "--db", str(tmp_path / "runs.sqlite3")],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=dict(os.environ, COLUMNS="80"),
            timeout=300,
        )
    finally:
        os.close(write_end)
    said = " ".join(done.stderr.split())
    assert "Traceback" not in said
    data = json.loads(target.read_text(encoding="utf-8"))  # whole: the file parses
    assert [r["index"] for r in data["results"]] == [0, 1, 2]
    assert sum(s["wins"] for s in data["summary"]["seats"]) + data["summary"]["ties"] == 3
    assert "Standard output was closed" in said and f"written: {target}" in said
    assert done.returncode == 0, said
