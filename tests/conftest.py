"""Settings for the whole test run."""

from __future__ import annotations

import os
import signal
import tempfile

# A test run started in the background of a non-interactive shell (`cmd &`) inherits SIGINT ignored, and so
# would every program the tests start: the tests of Ctrl-C need it delivered as a terminal delivers it. A
# handler (unlike "ignored") is reset to the default when a program starts, so the programs started by the
# tests get Python's own KeyboardInterrupt again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Watched games are saved too: a test that does not choose a data folder (the ``data_dir`` fixture) saves
# into one folder of its own for the run, never the user's.
os.environ.setdefault("LEHAVRE_DATA_DIR", tempfile.mkdtemp(prefix="lehavre-tests-"))
