"""Fixtures shared by the command-line tests."""

import pytest


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    """Saves go to a temporary folder, never the user's."""
    d = tmp_path / "data"
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(d))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("NO_COLOR", raising=False)
    return d
