"""The prompt's Tab completion and its plain fallback (cli.line_input), without a terminal."""

from __future__ import annotations

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from cli.line_input import LineInput, Words, shared_start

WORDS = ["build Clay Mound", "build Clay Mound: wood to 0+1", "build Grocery Store", "board", "buy", "rules Clay Mound"]


def completed(typed: str) -> list[str]:
    return [
        c.text for c in Words(lambda: WORDS).get_completions(Document(typed), CompleteEvent(completion_requested=True))
    ]


def test_tab_offers_what_begins_as_typed_in_any_case_and_their_common_beginning_first():
    assert completed("build cla") == ["build Clay Mound"]  # both ways begin so: that much first
    assert completed("build Clay Mound") == ["build Clay Mound: wood to 0+1"]
    assert completed("bo") == ["board"]
    assert completed("bu") == ["build Clay Mound", "build Clay Mound: wood to 0+1", "build Grocery Store", "buy"]
    assert completed("rules c") == ["rules Clay Mound"]
    assert completed("xyz") == []


def test_shared_start():
    assert shared_start(["abc", "abd", "ab"]) == 2 and shared_start(["x"]) == 1 and shared_start([]) == 0


def test_without_a_terminal_a_line_is_read_with_input(monkeypatch):
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "take wood")
    line = LineInput(lambda: WORDS, terminal=False)
    assert line("You, your move> ") == "take wood" and asked == ["You, your move> "]
    assert line.read(lambda: "Waiting> ") == "take wood" and asked[-1] == "Waiting> "
