"""Fuzzing the record loader (hypothesis): mutated and random save files.

Issue 7 acceptance: whatever the bytes, the loader returns a record that
replays completely or raises its own clean error, :class:`RecordError`, whose
message names the file.  Anything else (a traceback from inside, a half-loaded
record) fails the test.  No game rule is involved, so no rulebook is cited.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.games import game_names
from core.records import RecordError, get_ruleset, load_record, new_record, new_state, parse_record, replay, save_record
from tests.core import test_records_toygame  # noqa: F401  (registers the toy rule set "toy")

SOURCE = "fuzzed-save.json"
FIELDS = [
    "format_version",
    "ruleset",
    "options",
    "seed",
    "data_digest",
    "players",
    "actions",
    "created",
    "updated",
    "finished",
    "state_hash",
    "final_wealth",
]


def _played(name: str, options, seed: int, steps: int) -> bytes:
    rng = random.Random(seed)
    seats = get_ruleset(name).new_game(seed, options).num_players
    players = ["Ann", {"name": "Bot", "agent": "random"}, "Cy", "Di"][:seats]
    record = new_record(name, options, seed, players)
    state = new_state(record)
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        record.append(str(action), state)
    return record.to_json().encode()


def _base_files() -> list[bytes]:
    files = [_played("toy", {"pile": 6}, 1, 3), _played("toy", {"pile": 4, "players": 3}, 2, 99)]
    for name in game_names():
        if name != "toy":
            files += [_played(name, None, 7, 15), _played(name, None, 8, 500)]
    return files


BASES = _base_files()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def check_loader(raw: bytes) -> None:
    try:
        record = parse_record(raw, source=SOURCE)
    except RecordError as exc:
        assert str(exc).startswith(f"{SOURCE}: "), str(exc)
        assert len(str(exc)) > len(SOURCE) + 10
        return
    # it loaded: then it is whole, and replays to its end without complaint
    state = replay(record)
    assert state.history == record.actions
    if record.state_hash is not None:
        assert state.state_hash() == record.state_hash


#: examples per fuzz test; set LEHAVRE_FUZZ_EXAMPLES for a longer hunt
FUZZ = settings(
    max_examples=int(os.environ.get("LEHAVRE_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FUZZ
@given(base=st.sampled_from(BASES), data=st.data())
def test_flipped_bytes(base, data):
    raw = bytearray(base)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] ^= data.draw(st.integers(1, 255))
    check_loader(bytes(raw))


@FUZZ
@given(base=st.sampled_from(BASES), data=st.data())
def test_truncated_spliced_and_inserted_bytes(base, data):
    i = data.draw(st.integers(0, len(base)))
    j = data.draw(st.integers(i, len(base)))
    kind = data.draw(st.sampled_from(["truncate", "cut", "insert"]))
    if kind == "truncate":
        raw = base[:i]
    elif kind == "cut":
        raw = base[:i] + base[j:]
    else:
        raw = base[:i] + data.draw(st.binary(min_size=1, max_size=12)) + base[i:]
    check_loader(raw)


@FUZZ
@given(base=st.sampled_from(BASES), data=st.data())
def test_fields_changed(base, data):
    doc = json.loads(base)
    kind = data.draw(st.sampled_from(["set", "delete", "add", "action", "swap", "drop"]))
    if kind == "set":
        doc[data.draw(st.sampled_from(FIELDS))] = data.draw(json_values)
    elif kind == "delete":
        doc.pop(data.draw(st.sampled_from(FIELDS)), None)
    elif kind == "add":
        doc[data.draw(st.text(max_size=10))] = data.draw(json_values)
    elif doc["actions"]:
        acts = doc["actions"]
        i = data.draw(st.integers(0, len(acts) - 1))
        if kind == "action":
            acts[i] = data.draw(st.text(max_size=30) | st.sampled_from(sorted(set(acts))))
        elif kind == "swap":
            j = data.draw(st.integers(0, len(acts) - 1))
            acts[i], acts[j] = acts[j], acts[i]
        else:
            del acts[i]
        if data.draw(st.booleans()):
            doc["state_hash"] = None  # make the loader rely on replaying the actions alone
    check_loader(json.dumps(doc).encode())


@FUZZ
@given(doc=json_values)
def test_random_json(doc):
    check_loader(json.dumps(doc).encode())


@FUZZ
@given(raw=st.binary(max_size=200))
def test_random_bytes(raw):
    check_loader(raw)


@pytest.mark.parametrize("base", range(len(BASES)))
def test_every_prefix_of_a_file_is_refused_cleanly(base, tmp_path):
    raw = BASES[base]
    path = tmp_path / "trunc.json"
    for cut in range(0, len(raw) - 1, max(1, len(raw) // 150)):
        path.write_bytes(raw[:cut])
        with pytest.raises(RecordError) as err:
            load_record(path)
        assert str(path) in str(err.value)


def test_the_unmutated_bases_load(tmp_path):
    for k, raw in enumerate(BASES):
        path = tmp_path / f"{k}.json"
        path.write_bytes(raw)
        record = load_record(path)
        save_record(record, path)
        assert path.read_bytes() == raw
