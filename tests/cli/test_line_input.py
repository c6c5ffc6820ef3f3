"""The prompt's Tab completion and its plain fallback (cli.line_input), without a terminal."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.application import create_app_session, get_app
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

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


class News(Exception):
    """The position changed while a person typed (what the network's news raises to end the prompt)."""


def enter_as_news_comes(enter_first: bool):
    """The news's ``take()`` for a person who presses Enter at that moment: handled while the news is
    being shown (``enter_first``), or right after it, before the prompt is ended by it."""

    def take() -> None:
        buffer = get_app().current_buffer
        buffer.text = "build Clay Mound"
        if enter_first:
            buffer.validate_and_handle()  # what Enter does: the prompt has its line now
        else:
            asyncio.get_running_loop().call_soon(buffer.validate_and_handle)
        raise News

    return take


@pytest.mark.parametrize("enter_first", [True, False])
def test_enter_and_news_at_the_same_moment_end_the_prompt_cleanly(capsys, enter_first):
    """The person presses Enter just as news ends the prompt: the news wins (the prompt ends with it,
    no 'Return value already set' from prompt_toolkit) and the line they typed is not lost: it is
    typed already at the next prompt.  The race is made certain: Enter is handled while the news is
    shown, or just after, before the news ends the prompt."""
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        line = LineInput(lambda: WORDS, terminal=True)
        with pytest.raises(News):
            line.read("your move> ", watch=(lambda: True, enter_as_news_comes(enter_first)))
        assert line.carry == "build Clay Mound"
        keys.send_text("\r")  # the next prompt starts with the line typed before the news: Enter sends it
        assert line.read("your move> ") == "build Clay Mound"
    said = capsys.readouterr()
    assert "Unhandled exception" not in said.out + said.err
