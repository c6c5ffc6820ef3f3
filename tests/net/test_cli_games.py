"""Whole games over the loopback between ``lehavre join --agent`` clients, as separate processes:
an Inland Port game, a 3-player base game, a client killed with SIGKILL that rejoins, and a server
killed with SIGKILL and resumed with ``lehavre host --resume``; each ends as it would have."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.net_client import bot_seed
from core import records
from core.agents import make_agent
from core.games import game_spec

LEHAVRE = str(Path(sys.executable).parent / "lehavre")
ROOT = Path(__file__).resolve().parents[2]
#: the longest any one process of these tests may run
LIMIT = 240.0


#: every process a test started (the ``cleanup`` fixture kills any left when the test ends)
STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def cleanup():
    yield
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


class Host:
    """``lehavre host ... --headless --port 0`` in the background, and what it printed."""

    def __init__(self, data: Path, *args: str) -> None:
        self.data = data
        self.out = data / f"host-{time.monotonic_ns()}.txt"
        data.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [LEHAVRE, "host", *args, "--headless"],
            stdout=self.out.open("w"),
            stderr=subprocess.STDOUT,
            env=env_for(data),
        )
        STARTED.append(self.proc)
        text = wait_for(self.out, "Spectators", self.proc)
        self.address = re.search(r"Address: (\S+)", text).group(1)
        self.codes = dict(re.findall(r"Seat (\d+) \(.*?\): lehavre join \S+ (\S+)", text))
        self.name = re.search(r"saved as '([^']+)'", text).group(1)
        self.watch_code = re.search(r"Spectators: lehavre watch \S+ (\S+)", text).group(1)

    def code(self, seat: int) -> str:
        return self.codes[str(seat)]

    def finish(self) -> str:
        self.proc.wait(LIMIT)
        return self.out.read_text()


def env_for(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"LEHAVRE_DATA_DIR": str(data), "COLUMNS": "100", "NO_COLOR": "1"})
    return env


def wait_for(path: Path, text: str, proc: subprocess.Popen, limit: float = 60.0) -> str:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        seen = path.read_text() if path.exists() else ""
        if text in seen:
            return seen
        if proc.poll() is not None:
            raise AssertionError(f"the process ended ({proc.returncode}) before printing {text!r}:\n{seen}")
        time.sleep(0.1)
    raise AssertionError(f"{text!r} was not printed within {limit} s")


def join(data: Path, address: str, code: str, agent: str = "random") -> tuple[subprocess.Popen, Path]:
    out = data / f"join-{code}-{time.monotonic_ns()}.txt"
    proc = subprocess.Popen(
        [LEHAVRE, "join", address, code, "--agent", agent, "--plain"],
        stdout=out.open("w"),
        stderr=subprocess.STDOUT,
        env=env_for(data),
    )
    STARTED.append(proc)
    return proc, out


def finished(procs) -> list[str]:
    texts = []
    for proc, out in procs:
        assert proc.wait(LIMIT) == 0, out.read_text()[-2000:]
        texts.append(out.read_text())
    return texts


def saved(data: Path, name: str) -> records.GameRecord:
    return records.load_record(records.find_save(name, data / "saves"))


def reference_game(ruleset: str, record: records.GameRecord, agent: str) -> list[str]:
    """The same game played in one process, each seat's agent made as ``join --agent`` makes it."""
    spec = game_spec(ruleset)
    state = spec.new_game(record.seed, records.options_from_dict(spec, record.options))
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(make_agent(agent, bot_seed(seat, len(state.history)), spec).choose(state.clone()))
    return list(state.history)


def kill_when(data: Path, name: str, actions: int, proc: subprocess.Popen) -> None:
    """SIGKILL ``proc`` once the saved game holds at least ``actions`` actions."""
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:
        try:
            if len(saved(data, name).actions) >= actions:
                break
        except records.RecordError:
            pass  # being written
        time.sleep(0.05)
    else:
        raise AssertionError(f"the game did not reach {actions} actions")
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


@pytest.mark.parametrize(
    "args, seats",
    [
        (("inland", "--seats", "remote,remote", "--seed", "5"), 2),
        (("base", "--seats", "remote,remote,remote", "--short"), 3),
    ],
    ids=["inland", "base-3"],
)
def test_a_whole_game_between_agent_clients(tmp_path, args, seats):
    host = Host(tmp_path, *args, "--port", "0")
    clients = [join(tmp_path, host.address, host.code(s + 1)) for s in range(seats)]
    texts = finished(clients)
    assert all(re.search(r"Winner|A tie|Tie:", t) for t in texts)
    host.finish()
    assert host.proc.returncode == 0
    record = saved(tmp_path, host.name)
    assert record.finished and record.final_wealth is not None
    assert "Traceback" not in "".join(texts) + host.out.read_text()


def test_a_spectator_sees_the_board_after_every_action(tmp_path):
    host = Host(tmp_path, "inland", "--seats", "remote,remote", "--seed", "9", "--port", "0")
    out = tmp_path / "watch.txt"
    watcher = subprocess.Popen(
        [LEHAVRE, "watch", host.address, host.watch_code],
        stdout=out.open("w"),
        stderr=subprocess.STDOUT,
        env=env_for(tmp_path),
    )
    STARTED.append(watcher)
    wait_for(out, "On offer in round A", watcher)  # the board before anyone has played
    texts = finished([join(tmp_path, host.address, host.code(s), "greedy") for s in (1, 2)])
    assert watcher.wait(LIMIT) == 0
    seen = out.read_text()
    actions = saved(tmp_path, host.name).actions
    # the board after every action (and once at the start), each action's line after its board
    assert seen.count("On offer in round") >= len(actions)
    assert re.search(r"A\s+1\s+Player 1: ", seen)  # what happened, as in a local '--watch'
    assert re.search(r"Winner|A tie|Tie:", seen[seen.rindex("On offer in round") :])
    assert all(re.search(r"Winner|A tie|Tie:", t) for t in texts)


def test_clients_without_the_buildings_file_play_a_game_hosted_with_buildings(tmp_path):
    """The host's --buildings file reaches the clients in their welcome: they need no copy of it."""
    data = json.loads((ROOT / "inland_port" / "data" / "buildings-2026-11.json").read_text(encoding="utf-8"))
    data["buildings"][0]["value"] = 5  # the Wood Company, worth more in this game
    own = tmp_path / "host-only" / "my-buildings.json"
    own.parent.mkdir()
    own.write_text(json.dumps(data), encoding="utf-8")
    host = Host(tmp_path, "inland", "--seats", "remote,remote", "--seed", "5", "--buildings", str(own), "--port", "0")
    away = own.rename(tmp_path / "away.json")  # nobody else has the file (the host read it when it started)
    texts = finished([join(tmp_path, host.address, host.code(s), "greedy") for s in (1, 2)])
    assert all(re.search(r"Winner|A tie|Tie:", t) for t in texts)
    host.finish()
    away.rename(own)  # the host's machine has its file (its saved game replays with it)
    record = saved(tmp_path, host.name)
    assert record.finished and record.options["buildings"] == str(own)
    kept = list((tmp_path / "received").glob("inland-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["buildings"][0]["value"] == 5


def test_a_client_killed_mid_game_rejoins_and_the_game_ends_as_it_would_have(tmp_path):
    host = Host(tmp_path, "inland", "--seats", "remote,remote", "--seed", "21", "--port", "0")
    first = join(tmp_path, host.address, host.code(1), "greedy")
    second = join(tmp_path, host.address, host.code(2), "greedy")
    kill_when(tmp_path, host.name, 12, second[0])
    again = join(tmp_path, host.address, host.code(2), "greedy")
    finished([first, again])
    host.finish()
    record = saved(tmp_path, host.name)
    assert record.finished
    assert record.actions == reference_game("inland", record, "greedy")


def test_the_server_killed_mid_game_is_resumed_and_the_players_rejoin(tmp_path):
    host = Host(tmp_path, "base", "--seats", "remote,remote", "--short", "--seed", "8", "--port", "0")
    clients = [join(tmp_path, host.address, host.code(s), "greedy") for s in (1, 2)]
    kill_when(tmp_path, host.name, 30, host.proc)
    port = host.address.rsplit(":", 1)[1]
    resumed = Host(tmp_path, "--resume", host.name, "--port", port)
    assert resumed.codes == host.codes  # every person keeps the code printed before
    texts = finished(clients)
    assert all("reconnecting" in t for t in texts)
    resumed.finish()
    record = saved(tmp_path, host.name)
    assert record.finished
    assert record.actions == reference_game("base", record, "greedy")


def said(done: subprocess.CompletedProcess) -> str:
    """What a command printed, as one line (without the boxes of usage errors)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", done.stdout + done.stderr).split())


def run(data: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LEHAVRE, *args], capture_output=True, text=True, env=env_for(data), timeout=60)


@pytest.mark.parametrize(
    "args, says",
    [
        (("join", "nonsense", "abcd"), "is not HOST:PORT"),
        (("host", "base", "--seats", "me,me"), "one seat only"),
        (("host", "base", "--seats", "me,robot"), "a seat is 'me', 'remote', 'web' or an agent"),
        (("host", "inland", "--short"), "base game options"),
        (("host", "base", "--players", "3", "--seats", "me,remote"), "--players is 3 but --seats names 2"),
        (("host", "--resume", "no-such-game"), "no-such-game"),
    ],
)
def test_bad_usage_says_what_is_wrong(tmp_path, args, says):
    done = run(tmp_path, *args)
    assert done.returncode == 2
    assert says in said(done)


def test_an_unknown_code_is_refused(tmp_path):
    host = Host(tmp_path, "inland", "--seats", "remote,remote", "--port", "0")
    done = run(tmp_path, "join", host.address, "zzzz-zzzz-zzzz")
    assert done.returncode == 2 and "unknown code" in said(done)
